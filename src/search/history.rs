//! What the search learns about moves: for quiet moves butterfly and continuation history,
//! killers and counter moves; for captures, capture history; and, beside them, the
//! evaluation's corrections (`correction.rs`).

use super::correction::CorrectionHistory;
use super::params::{
    HISTORY_BONUS_MAX, HISTORY_BONUS_SCALE, HISTORY_MAX, MAX_PLY, USE_CAPTURE_HISTORY,
    USE_CONT_HISTORY, USE_THREAT_HISTORY,
};
use crate::board::{AttackMap, Position};
use crate::chess_move::Move;
use crate::types::{Color, Piece, Square};

/// A move as continuation history sees it: the piece that moved and where it went.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PieceTo {
    pub piece: Piece,
    pub to: Square,
}

impl PieceTo {
    /// Move `mv` in `pos` as continuation history keys it, if a piece stands on its
    /// from-square.
    #[inline]
    pub fn of(pos: &Position, mv: Move) -> Option<PieceTo> {
        pos.piece_on(mv.from())
            .map(|piece| PieceTo { piece, to: mv.to() })
    }

    /// The row or column of this move in a continuation table.
    #[inline]
    fn index(self) -> usize {
        self.piece.index() * 64 + self.to.index()
    }
}

/// The moves one and two plies before a node, where they were real moves (not null
/// moves, not before the root).
pub type ContKeys = [Option<PieceTo>; CONT_PLIES];

/// What a quiet move's history is read and learnt under, beside the move itself.
#[derive(Clone, Copy, Default)]
pub struct QuietContext {
    /// The moves one and two plies back (continuation history).
    pub keys: ContKeys,
    /// The squares the opponent attacks, when the node computed them: the butterfly table
    /// keeps apart the same move from or to an attacked square and from or to a safe one,
    /// and the picker orders first the escape of a piece a cheaper one attacks.
    pub attacks: Option<AttackMap>,
}

impl QuietContext {
    /// Which of the butterfly table's four quarters `mv` belongs to: whether it leaves
    /// an attacked square, and whether it lands on one.
    #[inline]
    fn quarter(&self, mv: Move) -> usize {
        match self.attacks {
            Some(attacks) if USE_THREAT_HISTORY => {
                2 * attacks.all.has(mv.from()) as usize + attacks.all.has(mv.to()) as usize
            }
            _ => 0,
        }
    }
}

/// How many earlier plies continuation history looks back at.
const CONT_PLIES: usize = 2;
/// (piece, square) pairs: the side of a continuation table.
const PIECE_TO: usize = 12 * 64;
/// What a noisy move takes, as capture history keys it: the six kinds, and nothing (a
/// queen promotion by a push).
const CAPTURED_KINDS: usize = 7;

/// Adds `delta` to a history entry with gravity: the closer a score is to the bound, the
/// less it moves, so scores stay within +-HISTORY_MAX and old lessons fade.
#[inline]
fn apply_gravity(entry: &mut i32, delta: i32) {
    *entry += delta - *entry * delta.abs() / HISTORY_MAX;
}

/// Move-ordering memory that lives across searches (cleared on a new game).
pub struct History {
    /// Butterfly history: `[side][quarter][from][to]`, how often a quiet move caused a
    /// cutoff, where the quarter says whether it left and whether it reached a square the
    /// opponent attacks ([`QuietContext`]): a knight's retreat from an attacked square is
    /// another move than the same retreat in a quiet position. 16 bits an entry.
    butterfly: Box<[[[[i16; 64]; 64]; 4]; 2]>,
    /// Two killer moves per ply: quiet moves that refuted a sibling.
    killers: [[Move; 2]; MAX_PLY + 8],
    /// The quiet move that last refuted each move, indexed by that move's from and to.
    counters: Box<[[Move; 64]; 64]>,
    /// Continuation history, one table per distance (one and two plies back):
    /// `[earlier move's piece-to][this move's piece-to]`, flat. Learns which reply
    /// works after which move, where the butterfly table knows only the move itself.
    /// 16 bits an entry (the bound fits) to halve the cache it takes.
    continuation: Box<[i16]>,
    /// Capture history: `[piece][to][captured kind]`, flat. How often a capture (or queen
    /// promotion) caused a cutoff: MVV-LVA knows only the material on the squares, this
    /// learns which captures of equal material work here (a pawn taken with check against
    /// one that walks into a pin). 16 bits an entry.
    capture: Box<[i16]>,
    /// How far the static evaluation missed, by pawn structure.
    pub correction: CorrectionHistory,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[[0; 64]; 64]; 4]; 2]),
            killers: [[Move::NONE; 2]; MAX_PLY + 8],
            counters: Box::new([[Move::NONE; 64]; 64]),
            continuation: vec![0; CONT_PLIES * PIECE_TO * PIECE_TO].into_boxed_slice(),
            capture: vec![0; PIECE_TO * CAPTURED_KINDS].into_boxed_slice(),
            correction: CorrectionHistory::default(),
        }
    }
}

/// The history bonus for a cutoff at `depth`.
pub fn bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_SCALE.get() * depth * depth).min(HISTORY_BONUS_MAX.get())
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

    /// The butterfly score of a quiet move.
    #[inline]
    pub fn score(&self, side: Color, mv: Move, ctx: &QuietContext) -> i32 {
        i32::from(self.butterfly[side.index()][ctx.quarter(mv)][mv.from().index()][mv.to().index()])
    }

    /// Adds `delta` to the butterfly score of a move, with gravity.
    #[inline]
    fn update(&mut self, side: Color, mv: Move, ctx: &QuietContext, delta: i32) {
        let entry =
            &mut self.butterfly[side.index()][ctx.quarter(mv)][mv.from().index()][mv.to().index()];
        let mut wide = i32::from(*entry);
        apply_gravity(&mut wide, delta);
        // Gravity keeps `wide` within +-HISTORY_MAX, which fits 16 bits.
        *entry = wide as i16;
    }

    /// Where the continuation entry of `this` after `earlier`, `distance` plies back, is.
    #[inline]
    fn cont_index(distance: usize, earlier: PieceTo, this: PieceTo) -> usize {
        (distance * PIECE_TO + earlier.index()) * PIECE_TO + this.index()
    }

    /// The continuation-history score of quiet move `this` after the moves in `keys`.
    #[inline]
    pub fn continuation(&self, this: PieceTo, keys: &ContKeys) -> i32 {
        if !USE_CONT_HISTORY {
            return 0;
        }
        let mut score = 0;
        for (distance, key) in keys.iter().enumerate() {
            if let Some(earlier) = *key {
                score += i32::from(self.continuation[Self::cont_index(distance, earlier, this)]);
            }
        }
        score
    }

    /// The ordering score of a quiet move `mv` of `piece`: butterfly plus continuation.
    #[inline]
    pub fn quiet_score(&self, side: Color, piece: Piece, mv: Move, ctx: &QuietContext) -> i32 {
        let this = PieceTo { piece, to: mv.to() };
        self.score(side, mv, ctx) + self.continuation(this, &ctx.keys)
    }

    /// Adds `delta` to the butterfly and continuation scores of quiet move `mv` of `piece`.
    pub fn update_quiet(
        &mut self,
        side: Color,
        piece: Piece,
        mv: Move,
        ctx: &QuietContext,
        delta: i32,
    ) {
        self.update(side, mv, ctx, delta);
        if !USE_CONT_HISTORY {
            return;
        }
        let this = PieceTo { piece, to: mv.to() };
        for (distance, key) in ctx.keys.iter().enumerate() {
            if let Some(earlier) = *key {
                let entry = &mut self.continuation[Self::cont_index(distance, earlier, this)];
                let mut wide = i32::from(*entry);
                apply_gravity(&mut wide, delta);
                // Gravity keeps `wide` within +-HISTORY_MAX, which fits 16 bits.
                *entry = wide as i16;
            }
        }
    }

    /// Where the capture-history entry of noisy move `mv` in `pos` is, if a piece stands on
    /// its from-square.
    #[inline]
    fn capture_index(pos: &Position, mv: Move) -> Option<usize> {
        let this = PieceTo::of(pos, mv)?;
        let taken = pos
            .captured_by(mv)
            .map_or(CAPTURED_KINDS - 1, |k| k.index());
        Some(this.index() * CAPTURED_KINDS + taken)
    }

    /// The capture-history score of noisy move `mv` in `pos`.
    #[inline]
    pub fn capture_score(&self, pos: &Position, mv: Move) -> i32 {
        if !USE_CAPTURE_HISTORY {
            return 0;
        }
        Self::capture_index(pos, mv).map_or(0, |i| i32::from(self.capture[i]))
    }

    /// Adds `delta` to the capture-history score of noisy move `mv` in `pos` (before the
    /// move is made), with gravity.
    pub fn update_capture(&mut self, pos: &Position, mv: Move, delta: i32) {
        if !USE_CAPTURE_HISTORY {
            return;
        }
        if let Some(i) = Self::capture_index(pos, mv) {
            let mut wide = i32::from(self.capture[i]);
            apply_gravity(&mut wide, delta);
            // Gravity keeps `wide` within +-HISTORY_MAX, which fits 16 bits.
            self.capture[i] = wide as i16;
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
    use crate::bitboard::Bitboard;

    #[test]
    fn a_cutoff_raises_the_reply_after_the_same_moves_only() {
        let mut h = History::default();
        let mv = Move::new(Square::G1, Square::F3);
        let knight = Piece::WhiteKnight;
        let e5 = PieceTo {
            piece: Piece::BlackPawn,
            to: Square::E5,
        };
        let d5 = PieceTo {
            piece: Piece::BlackPawn,
            to: Square::D5,
        };
        let keys: ContKeys = [Some(e5), None];
        let ctx = QuietContext {
            keys,
            attacks: None,
        };
        h.update_quiet(Color::White, knight, mv, &ctx, bonus(6));
        let butterfly = h.score(Color::White, mv, &ctx);
        assert!(butterfly > 0);
        let this = PieceTo {
            piece: knight,
            to: Square::F3,
        };
        // Another earlier move, or the same move two plies back, learnt nothing.
        assert_eq!(h.continuation(this, &[Some(d5), None]), 0);
        assert_eq!(h.continuation(this, &[None, Some(e5)]), 0);
        let expected = if USE_CONT_HISTORY { butterfly } else { 0 };
        assert_eq!(h.continuation(this, &keys), expected);
        assert_eq!(
            h.quiet_score(Color::White, knight, mv, &ctx),
            butterfly + expected
        );
        // Gravity keeps every entry within the bound however often it is raised.
        let both = QuietContext {
            keys: [Some(e5), Some(d5)],
            attacks: None,
        };
        for _ in 0..1000 {
            h.update_quiet(Color::White, knight, mv, &both, HISTORY_BONUS_MAX.get());
        }
        assert!(h.score(Color::White, mv, &both) <= HISTORY_MAX);
        assert!(h.continuation(this, &both.keys) <= 2 * HISTORY_MAX);
    }

    #[test]
    fn a_move_from_an_attacked_square_is_learnt_apart() {
        let mut h = History::default();
        let retreat = Move::new(Square::F3, Square::G1);
        let safe = QuietContext::default();
        let attacked = QuietContext {
            keys: [None; 2],
            attacks: Some(AttackMap {
                all: Bitboard::from_square(Square::F3),
                ..AttackMap::default()
            }),
        };
        h.update_quiet(
            Color::White,
            Piece::WhiteKnight,
            retreat,
            &attacked,
            bonus(8),
        );
        assert!(h.score(Color::White, retreat, &attacked) > 0);
        let expected = if USE_THREAT_HISTORY {
            0
        } else {
            h.score(Color::White, retreat, &attacked)
        };
        assert_eq!(h.score(Color::White, retreat, &safe), expected);
    }
}
