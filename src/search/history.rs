//! What the search learns about moves: butterfly and continuation history, killers and
//! counter moves for quiet moves, capture history for noisy ones; and, beside them, the
//! evaluation's corrections (`correction.rs`).

use super::correction::CorrectionHistory;
use super::params::{
    HISTORY_BONUS_MAX, HISTORY_BONUS_SCALE, HISTORY_MAX, MAX_PLY, USE_CAPTURE_HISTORY,
    USE_CONT_HISTORY,
};
use crate::board::Position;
use crate::chess_move::Move;
use crate::types::{Color, Piece, PieceType, Square};

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

/// How many earlier plies continuation history looks back at.
const CONT_PLIES: usize = 2;
/// (piece, square) pairs: the side of a continuation table.
const PIECE_TO: usize = 12 * 64;

/// The capture-history slot of what a noisy move takes: the captured kind, or the king's
/// slot (a king is never captured) for a promotion that takes nothing.
#[inline]
fn capture_slot(captured: Option<PieceType>) -> usize {
    captured.map_or(PieceType::King.index(), PieceType::index)
}

/// Adds `delta` to a 16-bit history entry with gravity (which keeps it within
/// +-HISTORY_MAX, so it fits).
#[inline]
fn apply_gravity_i16(entry: &mut i16, delta: i32) {
    let mut wide = i32::from(*entry);
    apply_gravity(&mut wide, delta);
    *entry = wide as i16;
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
    /// Continuation history, one table per distance (one and two plies back):
    /// `[earlier move's piece-to][this move's piece-to]`, flat. Learns which reply
    /// works after which move, where the butterfly table knows only the move itself.
    /// 16 bits an entry (the bound fits) to halve the cache it takes.
    continuation: Box<[i16]>,
    /// Capture history: `[moving piece][to][captured kind]`, how often a noisy move caused
    /// a cutoff. Orders captures of the same victim, which MVV-LVA alone ties, by what
    /// worked: a capture that was refuted before is tried after one that cut.
    captures: Box<[[[i16; 6]; 64]; 12]>,
    /// How far the static evaluation missed, by pawn structure.
    pub correction: CorrectionHistory,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            killers: [[Move::NONE; 2]; MAX_PLY + 8],
            counters: Box::new([[Move::NONE; 64]; 64]),
            continuation: vec![0; CONT_PLIES * PIECE_TO * PIECE_TO].into_boxed_slice(),
            captures: Box::new([[[0; 6]; 64]; 12]),
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
    pub fn quiet_score(&self, side: Color, piece: Piece, mv: Move, keys: &ContKeys) -> i32 {
        let this = PieceTo { piece, to: mv.to() };
        self.score(side, mv) + self.continuation(this, keys)
    }

    /// Adds `delta` to the butterfly and continuation scores of quiet move `mv` of `piece`.
    pub fn update_quiet(
        &mut self,
        side: Color,
        piece: Piece,
        mv: Move,
        keys: &ContKeys,
        delta: i32,
    ) {
        self.update(side, mv, delta);
        if !USE_CONT_HISTORY {
            return;
        }
        let this = PieceTo { piece, to: mv.to() };
        for (distance, key) in keys.iter().enumerate() {
            if let Some(earlier) = *key {
                let entry = &mut self.continuation[Self::cont_index(distance, earlier, this)];
                apply_gravity_i16(entry, delta);
            }
        }
    }

    /// The capture-history score of noisy move `mv` of `piece`, taking `captured`.
    #[inline]
    pub fn capture_score(&self, piece: Piece, mv: Move, captured: Option<PieceType>) -> i32 {
        if !USE_CAPTURE_HISTORY {
            return 0;
        }
        i32::from(self.captures[piece.index()][mv.to().index()][capture_slot(captured)])
    }

    /// Adds `delta` to the capture-history score of noisy move `mv` in `pos` (before it is
    /// made).
    pub fn update_capture(&mut self, pos: &Position, mv: Move, delta: i32) {
        if !USE_CAPTURE_HISTORY {
            return;
        }
        let Some(piece) = pos.piece_on(mv.from()) else {
            return;
        };
        let slot = capture_slot(pos.captured_by(mv));
        apply_gravity_i16(
            &mut self.captures[piece.index()][mv.to().index()][slot],
            delta,
        );
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
        h.update_quiet(Color::White, knight, mv, &keys, bonus(6));
        let butterfly = h.score(Color::White, mv);
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
            h.quiet_score(Color::White, knight, mv, &keys),
            butterfly + expected
        );
        // Gravity keeps every entry within the bound however often it is raised.
        let both: ContKeys = [Some(e5), Some(d5)];
        for _ in 0..1000 {
            h.update_quiet(Color::White, knight, mv, &both, HISTORY_BONUS_MAX.get());
        }
        assert!(h.score(Color::White, mv) <= HISTORY_MAX);
        assert!(h.continuation(this, &both) <= 2 * HISTORY_MAX);
    }

    #[test]
    fn capture_history_keys_piece_target_and_victim() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let mut h = History::default();
        let nxd7 = Move::new(Square::E5, Square::D7);
        let nxf7 = Move::new(Square::E5, Square::F7);
        let knight = Piece::WhiteKnight;
        h.update_capture(&pos, nxd7, bonus(8));
        let learnt = h.capture_score(knight, nxd7, Some(PieceType::Pawn));
        assert_eq!(learnt > 0, USE_CAPTURE_HISTORY);
        // Another target, another victim on the same square, or another piece: nothing.
        assert_eq!(h.capture_score(knight, nxf7, Some(PieceType::Pawn)), 0);
        assert_eq!(h.capture_score(knight, nxd7, Some(PieceType::Knight)), 0);
        assert_eq!(
            h.capture_score(Piece::WhiteQueen, nxd7, Some(PieceType::Pawn)),
            0
        );
        for _ in 0..1000 {
            h.update_capture(&pos, nxf7, -HISTORY_BONUS_MAX.get());
        }
        assert!(h.capture_score(knight, nxf7, Some(PieceType::Pawn)) >= -HISTORY_MAX);
    }
}
