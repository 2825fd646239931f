//! The evaluation broken into its terms: what the `eval` command prints, what the tests
//! compare with `evaluate`, and what the tuner learns from.

use super::layout::{NUM_PARAMS, SECTIONS};
use super::params::{ACTIVE_WEIGHTS as WEIGHTS, PHASE_MAX, SCALE_NORMAL};
use super::score::S;
use super::{Blend, Sink};
use crate::types::Color;
use std::fmt;

/// The tracing sink: counts per side and weight.
pub(crate) struct TraceSink {
    counts: [Vec<i32>; 2],
}

impl TraceSink {
    pub(crate) fn new() -> TraceSink {
        TraceSink {
            counts: [vec![0; NUM_PARAMS], vec![0; NUM_PARAMS]],
        }
    }
}

impl Sink for TraceSink {
    fn add(&mut self, color: Color, idx: usize, n: i32) {
        self.counts[color.index()][idx] += n;
    }

    fn eg_so_far(&self) -> i32 {
        (0..NUM_PARAMS)
            .map(|i| (self.counts[0][i] - self.counts[1][i]) * WEIGHTS[i].eg())
            .sum()
    }
}

/// Every term of one evaluation: counts per side and weight, the phase, the endgame scale,
/// the mop-up bonus and the total.
#[derive(Clone, Debug)]
pub struct EvalTrace {
    /// For White and Black, how many times each weight of `params::WEIGHTS` applies.
    pub counts: [Vec<i32>; 2],
    /// Game phase, 24 (middlegame) down to 0 (endgame).
    pub phase: i32,
    /// Endgame scale factor out of 128.
    pub scale: i32,
    /// Mop-up bonus from White's view.
    pub mopup: i32,
    /// True when neither side can mate: the evaluation is 0 whatever the terms say.
    pub insufficient_material: bool,
    /// The side to move.
    pub side_to_move: Color,
    /// The evaluation from the side to move's view; equals `evaluate(pos)`.
    pub total: i32,
}

impl EvalTrace {
    pub(crate) fn new(
        side_to_move: Color,
        sink: TraceSink,
        blend: Blend,
        insufficient_material: bool,
    ) -> EvalTrace {
        let mut trace = EvalTrace {
            counts: sink.counts,
            phase: blend.phase,
            scale: blend.scale,
            mopup: blend.mopup,
            insufficient_material,
            side_to_move,
            total: 0,
        };
        let white = if insufficient_material {
            0
        } else {
            blend.apply(trace.sum(Color::White) - trace.sum(Color::Black))
        };
        trace.total = match side_to_move {
            Color::White => white,
            Color::Black => -white,
        };
        trace
    }

    /// The weighted sum of the counts of one side over weights `from..to`.
    fn sum_range(&self, color: Color, from: usize, to: usize) -> S {
        (from..to).fold(S::ZERO, |acc, i| {
            acc + WEIGHTS[i] * self.counts[color.index()][i]
        })
    }

    /// The weighted sum of all terms of one side.
    pub fn sum(&self, color: Color) -> S {
        self.sum_range(color, 0, NUM_PARAMS)
    }

    /// White's counts minus Black's, per weight (the linear form the tuner uses).
    pub fn net_counts(&self) -> impl Iterator<Item = (usize, i32)> + '_ {
        (0..NUM_PARAMS)
            .map(|i| (i, self.counts[0][i] - self.counts[1][i]))
            .filter(|&(_, n)| n != 0)
    }
}

impl fmt::Display for EvalTrace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<20} | {:>13} | {:>13} | {:>13}",
            "term", "White mg  eg", "Black mg  eg", "Total mg  eg"
        )?;
        writeln!(f, "{:-<20}-+-{:-<13}-+-{:-<13}-+-{:-<13}", "", "", "", "")?;
        for &(name, start, len) in SECTIONS {
            let w = self.sum_range(Color::White, start, start + len);
            let b = self.sum_range(Color::Black, start, start + len);
            let t = w - b;
            writeln!(
                f,
                "{:<20} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
                name.to_lowercase(),
                w.mg(),
                w.eg(),
                b.mg(),
                b.eg(),
                t.mg(),
                t.eg()
            )?;
        }
        let w = self.sum(Color::White);
        let b = self.sum(Color::Black);
        let t = w - b;
        writeln!(f, "{:-<20}-+-{:-<13}-+-{:-<13}-+-{:-<13}", "", "", "", "")?;
        writeln!(
            f,
            "{:<20} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
            "sum",
            w.mg(),
            w.eg(),
            b.mg(),
            b.eg(),
            t.mg(),
            t.eg()
        )?;
        writeln!(f, "phase {} / {PHASE_MAX} (middlegame share)", self.phase)?;
        writeln!(f, "endgame scale {} / {SCALE_NORMAL}", self.scale)?;
        if self.mopup != 0 {
            writeln!(f, "mop-up (White's view) {}", self.mopup)?;
        }
        if self.insufficient_material {
            writeln!(f, "insufficient material: draw")?;
        }
        let white = match self.side_to_move {
            Color::White => self.total,
            Color::Black => -self.total,
        };
        writeln!(f, "total (White's view) {white} cp")?;
        write!(f, "total (side to move) {} cp", self.total)
    }
}
