//! How well static evaluations predict labelled positions: the check of a network on
//! data it must never train on (Stockfish's scores in `../shared/data/tuning`), and its
//! comparison with the hand-crafted evaluation on the same positions.

use super::SIGMOID_SCALE;
use crate::data::PackedPosition;
use crate::nnue::{evaluate_from_scratch, Network};
use crate::types::Color;

/// Mean squared errors of two static evaluations against one set of targets.
#[derive(Clone, Copy, Debug)]
pub struct StaticLosses {
    /// Positions compared (records that do not decode are skipped).
    pub positions: usize,
    /// The hand-crafted evaluation's loss.
    pub hand_crafted: f64,
    /// The network's loss.
    pub network: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The loss of `sigmoid(eval / 400)` against `lambda * sigmoid(score / 400) + (1 -
/// lambda) * result`, for the hand-crafted evaluation and for `net`.
pub fn static_losses(net: &Network, positions: &[PackedPosition], lambda: f64) -> StaticLosses {
    let scale = SIGMOID_SCALE as f64;
    let (mut n, mut hce, mut nnue) = (0usize, 0.0, 0.0);
    for p in positions {
        let Ok(pos) = p.to_position() else {
            continue;
        };
        let white_points = p.result().map_or(0.5, |r| r.white_points()) as f64;
        let (score, points) = match pos.side_to_move() {
            Color::White => (p.white_score() as f64, white_points),
            Color::Black => (-(p.white_score() as f64), 1.0 - white_points),
        };
        let target = lambda * sigmoid(score / scale) + (1.0 - lambda) * points;
        let e = crate::eval::evaluate(&pos) as f64;
        let ne = evaluate_from_scratch(net, &pos) as f64;
        hce += (sigmoid(e / scale) - target).powi(2);
        nnue += (sigmoid(ne / scale) - target).powi(2);
        n += 1;
    }
    let d = n.max(1) as f64;
    StaticLosses {
        positions: n,
        hand_crafted: hce / d,
        network: nnue / d,
    }
}
