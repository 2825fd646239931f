//! What the search learns about quiet moves: butterfly history, killers and counter moves;
//! and, beside them, the evaluation's corrections (`correction.rs`).

use super::correction::CorrectionHistory;
use super::params::{HISTORY_BONUS_MAX, HISTORY_BONUS_SCALE, HISTORY_MAX, MAX_PLY};
use crate::chess_move::Move;
use crate::types::Color;

/// Move-ordering memory that lives across searches (cleared on a new game).
pub struct History {
    /// Butterfly history: `[side][from][to]`, how often a quiet move caused a cutoff.
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// Two killer moves per ply: quiet moves that refuted a sibling.
    killers: [[Move; 2]; MAX_PLY + 8],
    /// The quiet move that last refuted each move, indexed by that move's from and to.
    counters: Box<[[Move; 64]; 64]>,
    /// How far the static evaluation missed, by pawn structure.
    pub correction: CorrectionHistory,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            killers: [[Move::NONE; 2]; MAX_PLY + 8],
            counters: Box::new([[Move::NONE; 64]; 64]),
            correction: CorrectionHistory::default(),
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

    /// Adds `delta` with gravity: the closer a score is to the bound, the less it moves,
    /// so scores stay within +-HISTORY_MAX and old lessons fade.
    #[inline]
    pub fn update(&mut self, side: Color, mv: Move, delta: i32) {
        let entry = &mut self.butterfly[side.index()][mv.from().index()][mv.to().index()];
        *entry += delta - *entry * delta.abs() / HISTORY_MAX;
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
