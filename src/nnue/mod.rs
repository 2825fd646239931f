//! Evaluation by an efficiently updatable neural network (NNUE), trained on Ladya's own
//! games (`ladya train`, `src/train/`).
//!
//! Architecture: a perspective network `(768 -> HIDDEN) x 2 -> 1`, the output neuron
//! chosen among [`OUTPUT_BUCKETS`] by the material on the board (or one for all), the
//! inputs in one set or one set per bucket of the side's own king square
//! ([`KingBuckets`]). Each side's accumulator sums one weight row per piece seen from
//! that side (colour relative to the side, square mirrored vertically for Black, and
//! left to right in king buckets with the king on the e- to h-files); the two
//! accumulators (side to move first) pass through SCReLU, `clamp(x, 0, 1)^2`, into one
//! output neuron. The output, times
//! [`EVAL_SCALE`], is the score in centipawns for the side to move.
//!
//! Files, each importing only those listed before it: `features.rs` maps a piece to its
//! input; `network.rs` holds the quantized weights, their file format and the embedded
//! default network; `output.rs` the output layer; `accumulator.rs` the incremental
//! accumulators along the search path and the evaluation from them.

mod accumulator;
mod features;
mod network;
mod output;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use features::{feature_index, KingBuckets, Orientation, INPUTS};
pub use network::{
    default_network, output_bucket, Network, NetworkError, NetworkHeader, EVAL_SCALE, HIDDEN,
    OUTPUT_BUCKETS, QA, QB,
};

use crate::board::Position;
use crate::types::Color;
use std::sync::Arc;

/// Whether the engine evaluates with the network unless told otherwise (`UseNNUE`,
/// `bench --hce`, `datagen --hce`): the default evaluation is the stronger one, and the
/// first network beat the hand-crafted evaluation at 8+0.08 (see `nets/README.md`).
pub const USE_NNUE_BY_DEFAULT: bool = true;

/// The evaluation a new searcher starts with: the embedded network, or `None` for the
/// hand-crafted evaluation (see [`USE_NNUE_BY_DEFAULT`]).
pub fn default_evaluation() -> Option<Arc<Network>> {
    USE_NNUE_BY_DEFAULT.then(default_network)
}

/// True in endings where one side has a bare king: there the hand-crafted evaluation's
/// mop-up term (drive the king to the edge, or to the bishop's corner) finds mates the
/// network, trained on positions of real games, has hardly seen; the search evaluates
/// these with the hand-crafted evaluation even when a network is set.
#[inline]
pub fn bare_king_ending(pos: &Position) -> bool {
    Color::ALL.into_iter().any(|c| pos.color(c).count() == 1)
}

/// The network's evaluation of `pos` from scratch (no incremental state), in centipawns
/// for the side to move. For one-off evaluations; the search keeps an [`AccumulatorStack`].
pub fn evaluate_from_scratch(net: &Network, pos: &Position) -> i32 {
    let acc = Accumulator::refresh(net, pos);
    acc.evaluate(net, pos.side_to_move(), pos.occupied().count())
}
