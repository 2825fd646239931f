//! Static evaluation: a tapered hand-crafted evaluation.
//!
//! The search evaluates with the network (`crate::nnue`) by default. This evaluation
//! stays because it earns its place: it evaluates bare-king endings (its mop-up term mates
//! where the network wanders), the `eval` command prints its terms so a user can read
//! why a position stands as it does, it is `UseNNUE false` for anyone who wants it, and
//! it plays generation 0 of the training loop (`datagen --hce`).
//!
//! Every term is a middlegame/endgame pair of weights from one table (`params.rs`, laid out
//! by `layout.rs`). The terms are written once, generically over a [`Sink`]: scoring
//! multiplies each count by its weight, tracing records the counts (for the `eval` command
//! and for the Texel tuner, which sees the evaluation as linear in the weights).
//!
//! The score of the side to move is
//! `(mg * phase + eg * (24 - phase)) / 24 * scale / 128 + mop-up`, where the phase falls
//! from 24 to 0 as the pieces come off and `scale` shrinks drawish endgames.
//! (Integer arithmetic: the divisions are done once, at the end.)

mod attacks;
mod endgame;
mod king;
pub mod layout;
mod masks;
pub mod params;
mod pawns;
mod pieces;
mod psqt;
mod score;
mod threats;
mod trace;
pub mod tune;

pub use params::PIECE_VALUES;
pub use psqt::{attach, PSQ_TABLE};
pub use score::S;
pub use trace::EvalTrace;

use crate::bitboard::Bitboard;
use crate::board::Position;
use crate::types::{Color, PieceType};
use attacks::AttackInfo;
use layout::*;
use params::{ACTIVE_WEIGHTS, PHASE_MAX, SCALE_NORMAL, USE_ENDGAME_SCALING, USE_MOPUP};

/// Where the evaluation terms go: "side `color` has `n` of weight `idx`".
pub(crate) trait Sink {
    /// Records `n` instances of weight `idx` for `color`.
    fn add(&mut self, color: Color, idx: usize, n: i32);

    /// The endgame half of the score so far, from White's view (to pick the stronger side
    /// for endgame scaling).
    fn eg_so_far(&self) -> i32;

    /// Material and piece-square terms. Scoring overrides this to read the sums the
    /// board keeps when the evaluation's table is attached.
    fn material_and_psq(&mut self, pos: &Position)
    where
        Self: Sized,
    {
        psq_terms(pos, self);
    }

    /// The pawn-only terms; returns the passed pawns. Scoring overrides this to use the
    /// pawn hash table.
    fn pawn_structure(&mut self, pos: &Position) -> [Bitboard; 2]
    where
        Self: Sized,
    {
        pawns::structure(pos, self)
    }
}

/// The scoring sink: sums weights from White's view.
#[derive(Default)]
pub(crate) struct ScoreSink {
    score: S,
}

impl Sink for ScoreSink {
    #[inline(always)]
    fn add(&mut self, color: Color, idx: usize, n: i32) {
        match color {
            Color::White => self.score += ACTIVE_WEIGHTS[idx] * n,
            Color::Black => self.score -= ACTIVE_WEIGHTS[idx] * n,
        }
    }

    fn eg_so_far(&self) -> i32 {
        self.score.eg()
    }

    fn pawn_structure(&mut self, pos: &Position) -> [Bitboard; 2] {
        pawns::structure_cached(pos, self)
    }

    fn material_and_psq(&mut self, pos: &Position) {
        if psqt::is_attached(pos) {
            let [mg, eg] = pos.psq();
            self.score += S(mg, eg);
        } else {
            psq_terms(pos, self);
        }
    }
}

/// What the evaluation computes besides the weighted terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Blend {
    /// Game phase, `PHASE_MAX` (middlegame) down to 0 (endgame).
    phase: i32,
    /// Endgame scale factor out of `SCALE_NORMAL`.
    scale: i32,
    /// Mop-up bonus from White's view (lone-king endings).
    mopup: i32,
}

impl Blend {
    /// The final score from White's view.
    fn apply(self, s: S) -> i32 {
        let tapered = s.mg() * self.phase + s.eg() * (PHASE_MAX - self.phase);
        tapered * self.scale / (PHASE_MAX * SCALE_NORMAL) + self.mopup
    }
}

/// The game phase from the non-pawn material left, clamped to `PHASE_MAX`.
fn phase(pos: &Position) -> i32 {
    let mut phase = 0;
    for kind in PieceType::ALL {
        phase += params::PHASE_WEIGHTS[kind.index()] * pos.pieces(kind).count() as i32;
    }
    phase.min(PHASE_MAX)
}

/// Material and piece-square terms, counted piece by piece.
fn psq_terms<K: Sink>(pos: &Position, sink: &mut K) {
    for color in Color::ALL {
        for kind in PieceType::ALL {
            let pieces = pos.colored(color, kind);
            if kind != PieceType::King {
                sink.add(color, MATERIAL + kind.index(), pieces.count() as i32);
            }
            for sq in pieces {
                let idx = PST_PAWN + 64 * kind.index() + sq.relative_to(color).index();
                sink.add(color, idx, 1);
            }
        }
    }
}

/// Runs every term into `sink` and returns the phase, scale and mop-up.
fn terms<K: Sink>(pos: &Position, sink: &mut K) -> Blend {
    sink.material_and_psq(pos);
    let passed = sink.pawn_structure(pos);
    pawns::passers(pos, passed, sink);
    let mut info = AttackInfo::new(pos);
    for color in Color::ALL {
        pieces::evaluate(pos, color, &mut info, sink);
    }
    for color in Color::ALL {
        king::evaluate(pos, color, &info, sink);
        threats::evaluate(pos, color, &info, sink);
    }
    sink.add(pos.side_to_move(), TEMPO, 1);
    Blend {
        phase: phase(pos),
        scale: if USE_ENDGAME_SCALING {
            endgame::scale(pos, sink.eg_so_far())
        } else {
            SCALE_NORMAL
        },
        mopup: if USE_MOPUP { endgame::mopup(pos) } else { 0 },
    }
}

/// The static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    if pos.insufficient_material() {
        return 0;
    }
    let mut sink = ScoreSink::default();
    let blend = terms(pos, &mut sink);
    let white = blend.apply(sink.score);
    match pos.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// Every term of the evaluation of `pos`, for White and Black (the `eval` command prints
/// it with `Display`). Its `total` equals `evaluate(pos)`.
pub fn trace(pos: &Position) -> EvalTrace {
    let mut sink = trace::TraceSink::new();
    let insufficient = pos.insufficient_material();
    let blend = terms(pos, &mut sink);
    EvalTrace::new(pos.side_to_move(), sink, blend, insufficient)
}
