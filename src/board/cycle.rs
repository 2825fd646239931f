//! Seeing a repetition one move ahead: can the side to move, with one reversible move,
//! reach a position that stands earlier in the game?
//!
//! A plain repetition check looks at the position on the board. It misses the case where
//! the side to move *could* repeat: a search that stops one ply short, or whose reply was
//! cut off by a stored score, then takes a drawn line for a win. The method is Marcel van
//! Kervinck's (2013): the key difference between the current position and an earlier one
//! with the other side to move is, when one move of a non-pawn piece joins them, exactly
//! `PIECE_SQUARE[piece][a] ^ PIECE_SQUARE[piece][b] ^ SIDE`. All such differences (each
//! non-pawn piece between any two squares it attacks on an empty board, 3,668 of them)
//! sit in a cuckoo hash, so each earlier position costs one or two lookups.

use super::zobrist::{PIECE_SQUARE, SIDE};
use super::Position;
use crate::attacks::{between, piece_attacks};
use crate::bitboard::Bitboard;
use crate::chess_move::Move;
use crate::types::{Piece, PieceType, Square};
use std::sync::OnceLock;

/// Slots of the cuckoo hash (a power of two; the 3,668 moves fill under half).
const SLOTS: usize = 8192;

/// The reversible moves of every non-pawn piece, keyed by the key difference they make.
struct Cuckoo {
    keys: Box<[u64]>,
    moves: Box<[(Square, Square)]>,
}

fn h1(key: u64) -> usize {
    (key & (SLOTS as u64 - 1)) as usize
}

fn h2(key: u64) -> usize {
    ((key >> 16) & (SLOTS as u64 - 1)) as usize
}

impl Cuckoo {
    fn build() -> Cuckoo {
        let mut keys = vec![0u64; SLOTS].into_boxed_slice();
        let mut moves = vec![(Square::A1, Square::A1); SLOTS].into_boxed_slice();
        let mut count = 0;
        for piece in Piece::ALL {
            if piece.kind() == PieceType::Pawn {
                continue;
            }
            for a in Square::ALL {
                for b in piece_attacks(piece.kind(), a, Bitboard::default()) {
                    if b.index() <= a.index() {
                        continue;
                    }
                    let mut key = PIECE_SQUARE[piece.index()][a.index()]
                        ^ PIECE_SQUARE[piece.index()][b.index()]
                        ^ SIDE;
                    let mut mv = (a, b);
                    // Cuckoo insertion: take the first slot, move its owner to its other
                    // slot, until an owner lands in an empty one.
                    let mut slot = h1(key);
                    loop {
                        std::mem::swap(&mut keys[slot], &mut key);
                        std::mem::swap(&mut moves[slot], &mut mv);
                        if key == 0 {
                            break;
                        }
                        slot = if slot == h1(key) { h2(key) } else { h1(key) };
                    }
                    count += 1;
                }
            }
        }
        debug_assert_eq!(count, 3668);
        Cuckoo { keys, moves }
    }

    /// The move whose key difference is `diff`, if one is.
    #[inline]
    fn find(&self, diff: u64) -> Option<(Square, Square)> {
        let slot = h1(diff);
        if self.keys[slot] == diff {
            return Some(self.moves[slot]);
        }
        let slot = h2(diff);
        (self.keys[slot] == diff).then(|| self.moves[slot])
    }
}

fn cuckoo() -> &'static Cuckoo {
    static TABLE: OnceLock<Cuckoo> = OnceLock::new();
    TABLE.get_or_init(Cuckoo::build)
}

impl Position {
    /// True when the side to move has a reversible move to a position that makes a
    /// draw by repetition for a search `ply` plies below its root: any position since
    /// the root, or one before it that has already occurred twice. `is_legal` judges the
    /// move found (the table knows geometry, not pins or checks).
    pub fn has_upcoming_repetition(&self, ply: usize, is_legal: impl Fn(Move) -> bool) -> bool {
        let limit = (self.halfmove as usize).min(self.history.len());
        if limit < 3 {
            return false;
        }
        let table = cuckoo();
        let occupied = self.occupied();
        let len = self.history.len();
        // Earlier positions with the other side to move: 3, 5, ... plies back.
        for i in (3..=limit).step_by(2) {
            let Some((a, b)) = table.find(self.keys.key ^ self.history[len - i].keys.key) else {
                continue;
            };
            // The path must be clear and the piece (on `a` or `b`) ours.
            if (between(a, b) & occupied).any() {
                continue;
            }
            let (from, to) = if occupied.has(a) { (a, b) } else { (b, a) };
            let ours = self.piece_on(from).is_some_and(|p| p.color() == self.side);
            if ours && (i <= ply || self.occurs_twice(len - i)) && is_legal(Move::new(from, to)) {
                return true;
            }
        }
        false
    }

    /// Whether the position stored at `history[index]` occurred once more before it
    /// (within its own fifty-move window).
    fn occurs_twice(&self, index: usize) -> bool {
        let earlier = &self.history[index];
        self.occurs_before(index, earlier.keys.key, earlier.halfmove as usize, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reversible_move_is_in_the_table() {
        let table = cuckoo();
        assert_eq!(table.keys.iter().filter(|&&k| k != 0).count(), 3668);
        let knight = Piece::WhiteKnight;
        let diff = PIECE_SQUARE[knight.index()][Square::G1.index()]
            ^ PIECE_SQUARE[knight.index()][Square::F3.index()]
            ^ SIDE;
        let (a, b) = table.find(diff).expect("Ng1-f3 is a reversible move");
        assert_eq!((a, b), (Square::G1, Square::F3));
    }

    #[test]
    fn a_knight_can_go_back_home() {
        let mut pos = Position::from_fen(super::super::START_FEN).unwrap();
        for (from, to) in [
            (Square::G1, Square::F3),
            (Square::G8, Square::F6),
            (Square::F3, Square::G1),
        ] {
            pos.make_move(Move::new(from, to));
        }
        // Black's Nf6-g8 would bring back the start: a draw below a root at the start...
        assert!(pos.has_upcoming_repetition(3, |_| true));
        // ...unless the move is illegal...
        assert!(!pos.has_upcoming_repetition(3, |_| false));
        // ...and not for a search rooted here, where the start occurred only once.
        assert!(!pos.has_upcoming_repetition(0, |_| true));
        // A position set up from a FEN has no earlier positions to come back to.
        let pos = Position::from_fen("rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 3 2")
            .unwrap();
        assert!(!pos.has_upcoming_repetition(3, |_| true));
    }
}
