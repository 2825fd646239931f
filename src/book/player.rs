//! The engine's use of a book during a game: which book, how deep, how varied, and the
//! rule that once a game has left the book it does not come back.

use super::error::BookError;
use super::polyglot::Book;
use super::select::choose;
use crate::board::Position;
use crate::chess_move::Move;
use crate::types::Color;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::borrow::Cow;

/// The `BookFile` value that selects the default book compiled into the binary.
pub const BUILTIN_BOOK: &str = "<built-in>";
/// Default `BookDepth`: the last game ply (counted from the start of the game, so the
/// fullmove number of a FEN counts) at which the book is still consulted, exclusive.
pub const DEFAULT_BOOK_DEPTH: u32 = 40;
/// Largest `BookDepth` the UCI option accepts.
pub const MAX_BOOK_DEPTH: u32 = 1000;

/// The default book, built from `book/lines.txt` (a test checks it is up to date).
static BUILTIN_BYTES: &[u8] = include_bytes!("../../book/ladya.bin");

/// The default book compiled into the binary.
pub fn builtin_book() -> Result<Book, BookError> {
    Book::from_bytes(Cow::Borrowed(BUILTIN_BYTES))
}

/// A move chosen from the book, with what the UCI layer reports about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookChoice {
    /// The move to play.
    pub mv: Move,
    /// Its weight.
    pub weight: u16,
    /// The sum of the weights of the position's legal book moves.
    pub total_weight: u32,
    /// The opponent's best-weighted book reply, if any (a free ponder move).
    pub ponder: Option<Move>,
}

/// The book as the engine uses it in play (the UCI options `OwnBook`, `BookFile`,
/// `BookDepth` and `BookVariety`).
pub struct BookPlayer {
    /// `OwnBook`: whether to play from the book at all.
    pub enabled: bool,
    /// `BookDepth`: the book is used only before this game ply.
    pub depth: u32,
    /// `BookVariety`: weighted random choice (true) or always the best weight (false).
    pub variety: bool,
    book: Option<Book>,
    file: String,
    rng: Xoshiro256PlusPlus,
    /// The game ply at which the book had no move; later plies never use it again.
    left_at: Option<u32>,
    last_ply: Option<u32>,
}

impl Default for BookPlayer {
    fn default() -> Self {
        BookPlayer::new()
    }
}

impl BookPlayer {
    /// The defaults: disabled (`OwnBook` false), the built-in book, variety on, seeded from
    /// the clock so that games differ.
    pub fn new() -> BookPlayer {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        BookPlayer {
            enabled: false,
            depth: DEFAULT_BOOK_DEPTH,
            variety: true,
            book: builtin_book().ok(),
            file: BUILTIN_BOOK.to_string(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            left_at: None,
            last_ply: None,
        }
    }

    /// Makes the random choices reproducible (for tests).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    }

    /// `BookFile`: [`BUILTIN_BOOK`] (or an empty value) for the default book, else a path.
    /// The file is read now; if it is missing or corrupt the error is returned once and
    /// the engine is left with no book until another file is set.
    pub fn set_file(&mut self, file: &str) -> Result<(), BookError> {
        let file = file.trim();
        let file = if file.is_empty() { BUILTIN_BOOK } else { file };
        self.file = file.to_string();
        let loaded = if file == BUILTIN_BOOK {
            builtin_book()
        } else {
            Book::open(file)
        };
        match loaded {
            Ok(book) => {
                self.book = Some(book);
                Ok(())
            }
            Err(e) => {
                self.book = None;
                Err(e)
            }
        }
    }

    /// The current `BookFile` value.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// True when a book is loaded (whether or not `OwnBook` is on).
    pub fn has_book(&self) -> bool {
        self.book.is_some()
    }

    /// `ucinewgame`: the book may be used again.
    pub fn new_game(&mut self) {
        self.left_at = None;
        self.last_ply = None;
    }

    /// The book move to play in `pos`, if the book is on and still in use in this game.
    /// The first position without a playable book move ends book play for the rest of the
    /// game (other positions at that same ply may still ask: after a ponder miss the real
    /// position can be in the book when the pondered one was not). A position earlier than
    /// the last one seen (a new game or a take-back without `ucinewgame`) starts over.
    /// Chess960 games never use the book: standard books know nothing of Chess960 castling.
    pub fn pick(&mut self, pos: &Position, chess960: bool) -> Option<BookChoice> {
        let book = match (&self.book, self.enabled && !chess960) {
            (Some(book), true) => book,
            _ => return None,
        };
        let ply = game_ply(pos);
        if self.last_ply.is_some_and(|last| ply < last) {
            self.left_at = None;
        }
        self.last_ply = Some(ply);
        if self.left_at.is_some_and(|left| ply > left) {
            return None;
        }
        let moves = if ply < self.depth {
            book.probe(pos)
        } else {
            Vec::new()
        };
        let Some(mv) = choose(&moves, self.variety, &mut self.rng) else {
            self.left_at.get_or_insert(ply);
            return None;
        };
        let weight = moves.iter().find(|m| m.mv == mv).map_or(0, |m| m.weight);
        let total_weight = moves.iter().map(|m| u32::from(m.weight)).sum();
        let mut next = pos.clone();
        next.make_move(mv);
        let ponder = if ply + 1 < self.depth {
            book.probe(&next)
                .into_iter()
                .filter(|m| m.weight > 0)
                .rev()
                .max_by_key(|m| m.weight)
                .map(|m| m.mv)
        } else {
            None
        };
        Some(BookChoice {
            mv,
            weight,
            total_weight,
            ponder,
        })
    }
}

/// Plies since the start of the game, from the fullmove number and the side to move (so
/// a FEN set up in the middlegame counts as deep in the game).
pub fn game_ply(pos: &Position) -> u32 {
    let full = u32::from(pos.fullmove_number().max(1));
    (full - 1) * 2 + u32::from(pos.side_to_move() == Color::Black)
}
