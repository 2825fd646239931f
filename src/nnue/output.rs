//! The output layer: the two accumulators, through SCReLU, into the output neuron of the
//! position's material bucket. Reads the weights (`network.rs`); knows nothing of how the
//! accumulators were made (`accumulator.rs`, which calls it).

use super::network::{output_bucket, Network, EVAL_SCALE, HIDDEN, QA, QB};

/// The score in centipawns for the side to move, from its accumulator (`ours`) and the
/// other side's (`theirs`), in a position with `pieces` pieces (kings included).
#[inline(always)]
pub(super) fn evaluate(
    net: &Network,
    ours: &[i16; HIDDEN],
    theirs: &[i16; HIDDEN],
    pieces: u32,
) -> i32 {
    let bucket = output_bucket(pieces, net.buckets);
    let weights = &net.output_weights[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
    let sum =
        screlu_dot(ours, &weights[..HIDDEN]).wrapping_add(screlu_dot(theirs, &weights[HIDDEN..]));
    let units = sum as i64 / QA as i64 + net.output_bias[bucket] as i64;
    (units * EVAL_SCALE as i64 / (QA * QB) as i64) as i32
}

/// `sum(clamp(a, 0, QA)^2 * w)`, in units of `QA * QA * QB`. The product `c * w` fits an
/// `i16` (output weights are bounded on load), so the compiler can use 16-bit multiplies
/// and pairwise 32-bit sums.
#[inline(always)]
fn screlu_dot(acc: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    let weights: &[i16; HIDDEN] = weights.try_into().expect("HIDDEN weights");
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(weights) {
        let c = a.clamp(0, QA as i16);
        let cw = c.wrapping_mul(w);
        sum = sum.wrapping_add(c as i32 * cw as i32);
    }
    sum
}
