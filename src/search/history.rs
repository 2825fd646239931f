//! What the search learns about quiet moves: butterfly and continuation history, killers
//! and counter moves.

use super::params::{
    HISTORY_BONUS_MAX, HISTORY_BONUS_SCALE, HISTORY_MAX, MAX_PLY, USE_CONT_HISTORY,
};
use crate::chess_move::Move;
use crate::types::{Color, Piece, Square};

/// A move as continuation history sees it: the piece that moved and where it went.
pub type PieceTo = (Piece, Square);

/// The moves one and two plies before a node, as far as they were real moves.
pub type ContKeys = [Option<PieceTo>; 2];

/// Index of a (piece, square) pair in a continuation-history row or column.
#[inline]
fn piece_to_index((piece, to): PieceTo) -> usize {
    piece.index() * 64 + to.index()
}

/// Adds `delta` to a history entry with gravity: the closer a score is to the bound, the
/// less it moves, so scores stay within +-HISTORY_MAX and old lessons fade.
#[inline]
fn apply_gravity(entry: &mut i32, delta: i32) {
    *entry += delta - *entry * delta.abs() / HISTORY_MAX;
}

/// Move-ordering memory that lives across searches (cleared on a new game).
pub struct History {
    /// Butterfly history: `[side][from][to]`, how often a quiet move caused a cutoff.
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// Two killer moves per ply: quiet moves that refuted a sibling.
    killers: [[Move; 2]; MAX_PLY + 8],
    /// The quiet move that last refuted each move, indexed by that move's from and to.
    counters: Box<[[Move; 64]; 64]>,
    /// Continuation history: `[earlier move's piece-to][this move's piece-to]`, how often
    /// a quiet move caused a cutoff after a given move one or two plies earlier (one
    /// table serves both distances).
    continuation: Box<[[i32; 12 * 64]]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            killers: [[Move::NONE; 2]; MAX_PLY + 8],
            counters: Box::new([[Move::NONE; 64]; 64]),
            continuation: vec![[0; 12 * 64]; 12 * 64].into_boxed_slice(),
        }
    }
}

/// The history bonus for a cutoff at `depth`.
pub fn bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_SCALE * depth * depth).min(HISTORY_BONUS_MAX)
}

impl History {
    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Killers are per search: ply numbers mean different positions in the next one.
    pub fn clear_killers(&mut self) {
        self.killers = [[Move::NONE; 2]; MAX_PLY + 8];
    }

    /// The history score of a quiet move.
    #[inline]
    pub fn score(&self, side: Color, mv: Move) -> i32 {
        self.butterfly[side.index()][mv.from().index()][mv.to().index()]
    }

    /// Adds `delta` to the butterfly score of a move, with gravity.
    #[inline]
    pub fn update(&mut self, side: Color, mv: Move, delta: i32) {
        apply_gravity(
            &mut self.butterfly[side.index()][mv.from().index()][mv.to().index()],
            delta,
        );
    }

    /// The ordering score of a quiet move by `piece`: butterfly history plus the
    /// continuation history after the moves in `keys`.
    #[inline]
    pub fn quiet_score(&self, side: Color, piece: Piece, mv: Move, keys: &ContKeys) -> i32 {
        let mut score = self.score(side, mv);
        if USE_CONT_HISTORY {
            let this = piece_to_index((piece, mv.to()));
            for &key in keys.iter().flatten() {
                score += self.continuation[piece_to_index(key)][this];
            }
        }
        score
    }

    /// Adds `delta` to the butterfly and continuation scores of a quiet move by `piece`.
    pub fn update_quiet(
        &mut self,
        side: Color,
        piece: Piece,
        mv: Move,
        keys: &ContKeys,
        delta: i32,
    ) {
        self.update(side, mv, delta);
        if USE_CONT_HISTORY {
            let this = piece_to_index((piece, mv.to()));
            for &key in keys.iter().flatten() {
                apply_gravity(&mut self.continuation[piece_to_index(key)][this], delta);
            }
        }
    }

    /// The killers of a ply.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// Records a quiet cutoff move as the first killer of its ply.
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
    }

    /// Forgets the killers of a ply (its children are searched anew).
    pub fn reset_killers(&mut self, ply: usize) {
        self.killers[ply] = [Move::NONE; 2];
    }

    /// The counter move of the previous move, if any.
    #[inline]
    pub fn counter(&self, previous: Option<Move>) -> Move {
        previous.map_or(Move::NONE, |p| {
            self.counters[p.from().index()][p.to().index()]
        })
    }

    /// Records `mv` as the refutation of `previous`.
    pub fn set_counter(&mut self, previous: Option<Move>, mv: Move) {
        if let Some(p) = previous {
            self.counters[p.from().index()][p.to().index()] = mv;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cutoff_raises_the_move_after_the_same_moves_only() {
        let mut h = History::default();
        let mv = Move::new(Square::G1, Square::F3);
        let knight = Piece::WhiteKnight;
        let keys: ContKeys = [Some((Piece::BlackPawn, Square::E5)), None];
        let other: ContKeys = [Some((Piece::BlackPawn, Square::D5)), None];
        h.update_quiet(Color::White, knight, mv, &keys, bonus(6));
        let butterfly = h.score(Color::White, mv);
        assert!(butterfly > 0);
        let after_keys = h.quiet_score(Color::White, knight, mv, &keys);
        let after_other = h.quiet_score(Color::White, knight, mv, &other);
        assert_eq!(after_other, butterfly);
        if USE_CONT_HISTORY {
            assert_eq!(after_keys, 2 * butterfly);
        } else {
            assert_eq!(after_keys, butterfly);
        }
        // Gravity keeps every score within the bound however often it is raised.
        for _ in 0..1000 {
            h.update_quiet(Color::White, knight, mv, &keys, HISTORY_BONUS_MAX);
        }
        assert!(h.score(Color::White, mv) <= HISTORY_MAX);
        assert!(h.quiet_score(Color::White, knight, mv, &keys) <= 2 * HISTORY_MAX);
    }
}
