//! The Polyglot `.bin` format: 16-byte big-endian entries (key, move, weight, learn)
//! sorted by key. A book is kept as its raw bytes and searched in place, so the embedded
//! default book costs no start-up time and no copy.

use super::error::BookError;
use super::key::{has_standard_castling, polyglot_key};
use crate::board::Position;
use crate::chess_move::Move;
use crate::movegen::MoveList;
use crate::types::{PieceType, Square};
use std::borrow::Cow;

/// Size of one entry in bytes.
pub const ENTRY_SIZE: usize = 16;

/// One book entry as stored in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Polyglot key of the position.
    pub key: u64,
    /// The move in Polyglot's encoding (see [`encode_move`]).
    pub raw_move: u16,
    /// How often to play the move relative to the others; 0 means never.
    pub weight: u16,
    /// Learning data; unused by Ladya, kept when rewriting.
    pub learn: u32,
}

impl Entry {
    /// Reads an entry from 16 big-endian bytes.
    pub fn from_bytes(b: &[u8; ENTRY_SIZE]) -> Entry {
        Entry {
            key: u64::from_be_bytes(b[0..8].try_into().expect("8 bytes")),
            raw_move: u16::from_be_bytes([b[8], b[9]]),
            weight: u16::from_be_bytes([b[10], b[11]]),
            learn: u32::from_be_bytes(b[12..16].try_into().expect("4 bytes")),
        }
    }

    /// The 16 big-endian bytes of the entry.
    pub fn to_bytes(self) -> [u8; ENTRY_SIZE] {
        let mut b = [0; ENTRY_SIZE];
        b[0..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..16].copy_from_slice(&self.learn.to_be_bytes());
        b
    }
}

/// A legal book move of a position with its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, legal in the probed position.
    pub mv: Move,
    /// Its weight (0: listed but never played).
    pub weight: u16,
}

/// Polyglot's move encoding: bits 0-2 to-file, 3-5 to-rank, 6-8 from-file, 9-11
/// from-rank, 12-14 promotion (0 none, 1 knight, 2 bishop, 3 rook, 4 queen). Castling is
/// written as king takes rook (`e1h1`), which is exactly how `Move` stores it.
pub fn encode_move(mv: Move) -> u16 {
    let promo = match mv.promotion_piece() {
        None => 0,
        Some(p) => p.index() as u16, // knight 1 ... queen 4, as in Polyglot
    };
    mv.to().index() as u16 | (mv.from().index() as u16) << 6 | promo << 12
}

/// Finds the legal move of `pos` that a Polyglot move stands for, if any. Castling is
/// king takes rook; the king's two-square form (`e1g1`), which some writers use, is
/// accepted as well. Anything else that is not legal here gives `None` and is never played.
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    decode_among(pos, &pos.legal_moves(), raw)
}

/// [`decode_move`] with the legal moves already generated.
fn decode_among(pos: &Position, legal: &MoveList, raw: u16) -> Option<Move> {
    let exact = legal
        .as_slice()
        .iter()
        .copied()
        .find(|&m| encode_move(m) == raw);
    exact.or_else(|| {
        if raw >> 12 != 0 {
            return None;
        }
        let from = Square::new((raw >> 6 & 63) as usize);
        let to = Square::new((raw & 63) as usize);
        let file_distance = (from.file().index() as i32 - to.file().index() as i32).abs();
        let king_move = pos.piece_on(from).map(|p| p.kind()) == Some(PieceType::King);
        if !king_move || file_distance != 2 {
            return None;
        }
        legal
            .as_slice()
            .iter()
            .copied()
            .find(|m| m.is_castling() && m.from() == from && m.castling_king_target() == to)
    })
}

/// A Polyglot book: validated bytes, sorted by key.
#[derive(Clone, Debug)]
pub struct Book {
    data: Cow<'static, [u8]>,
}

impl Book {
    /// Checks that `data` is a Polyglot book: a whole number of entries, at least one,
    /// keys in ascending order (the binary search relies on it).
    pub fn from_bytes(data: Cow<'static, [u8]>) -> Result<Book, BookError> {
        if data.is_empty() {
            return Err(BookError::Corrupt("the book is empty".into()));
        }
        if !data.len().is_multiple_of(ENTRY_SIZE) {
            return Err(BookError::Corrupt(format!(
                "{} bytes is not a whole number of {ENTRY_SIZE}-byte entries",
                data.len()
            )));
        }
        let book = Book { data };
        for i in 1..book.len() {
            if book.key_at(i - 1) > book.key_at(i) {
                return Err(BookError::Corrupt(format!(
                    "entries are not sorted by key (entry {i})"
                )));
            }
        }
        Ok(book)
    }

    /// Reads and validates a book file.
    pub fn open(path: &str) -> Result<Book, BookError> {
        let data = std::fs::read(path).map_err(|e| BookError::io(path, e))?;
        Book::from_bytes(Cow::Owned(data)).map_err(|e| match e {
            BookError::Corrupt(why) => BookError::Corrupt(format!("{path}: {why}")),
            other => other,
        })
    }

    /// A book from entries, sorted as the format wants: by key, then by weight (highest
    /// first, so readers that take the first entry take the best), then by move.
    pub fn from_entries(mut entries: Vec<Entry>) -> Result<Book, BookError> {
        entries.sort_by(|a, b| {
            (a.key, b.weight, a.raw_move, a.learn).cmp(&(b.key, a.weight, b.raw_move, b.learn))
        });
        let mut data = Vec::with_capacity(entries.len() * ENTRY_SIZE);
        for e in entries {
            data.extend_from_slice(&e.to_bytes());
        }
        Book::from_bytes(Cow::Owned(data))
    }

    /// The raw bytes, ready to be written to a `.bin` file.
    pub fn as_bytes(&self) -> &[u8] {
        &self.data
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.data.len() / ENTRY_SIZE
    }

    /// True when the book has no entries (never for a validated book).
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Entry `i` (in file order).
    pub fn entry(&self, i: usize) -> Entry {
        let bytes = &self.data[i * ENTRY_SIZE..(i + 1) * ENTRY_SIZE];
        Entry::from_bytes(bytes.try_into().expect("16 bytes"))
    }

    fn key_at(&self, i: usize) -> u64 {
        let bytes = &self.data[i * ENTRY_SIZE..i * ENTRY_SIZE + 8];
        u64::from_be_bytes(bytes.try_into().expect("8 bytes"))
    }

    /// All entries with `key`, in file order: a binary search for the first, then a scan.
    pub fn entries_for(&self, key: u64) -> impl Iterator<Item = Entry> + '_ {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.key_at(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (lo..self.len())
            .take_while(move |&i| self.key_at(i) == key)
            .map(|i| self.entry(i))
    }

    /// The book moves of a position that are legal there, with their weights, in file
    /// order. Entries whose move is not legal are skipped. Positions whose castling rights
    /// the Polyglot key cannot describe (Chess960) get no moves.
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        if !has_standard_castling(pos) {
            return Vec::new();
        }
        let legal = pos.legal_moves();
        self.entries_for(polyglot_key(pos))
            .filter_map(|e| {
                decode_among(pos, &legal, e.raw_move).map(|mv| BookMove {
                    mv,
                    weight: e.weight,
                })
            })
            .collect()
    }
}
