//! The forward and backward pass over a batch, split between threads.

use super::model::{Model, Shape, W1};
use super::SIGMOID_SCALE;
use crate::data::PackedPosition;
use crate::nnue::{feature_index, output_bucket, KingBuckets, HIDDEN, INPUTS};
use crate::types::{Color, PieceType, Square};

/// Per-thread gradient buffers, reused from batch to batch.
pub(super) struct Workers {
    grads: Vec<Vec<f32>>,
}

/// The active inputs of a position for both perspectives (side to move first), its
/// target, how many inputs there are, where the accumulator biases start, and the output
/// weights' offset and bias index of its output bucket.
struct Sample {
    /// The rows of input weights each perspective adds: one per piece, and with a
    /// factorised model one more per piece in the shared set.
    features: [[u16; 64]; 2],
    count: usize,
    target: f32,
    b1: usize,
    w2: usize,
    b2: usize,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The bit of a position id that asks for the position mirrored left to right.
pub(super) const MIRROR_BIT: u32 = 1 << 31;

/// The inputs and target of `p`; `mirror` flips the board left to right (a-file to
/// h-file), which changes nothing a quiet position is worth but the castling rights the
/// inputs do not see: a second, different-looking copy of every position.
fn sample(p: &PackedPosition, lambda: f32, mirror: bool, shape: Shape) -> Sample {
    let stm = p.side_to_move();
    let mut s = Sample {
        features: [[0; 64]; 2],
        count: 0,
        target: 0.0,
        b1: shape.b1(),
        w2: 0,
        b2: 0,
    };
    // With king buckets a mirrored position has the very same inputs: no work to do.
    let flip = if mirror && shape.kings == KingBuckets::None {
        7
    } else {
        0
    };
    let mut kings = [Square::new(0); 2];
    for (piece, sq) in p.pieces() {
        if piece.kind() == PieceType::King {
            kings[piece.color().index()] = Square::new(sq.index() ^ flip);
        }
    }
    let ours = shape.kings.orientation(stm, kings[stm.index()]);
    let theirs = shape.kings.orientation(!stm, kings[(!stm).index()]);
    for (piece, sq) in p.pieces() {
        let sq = Square::new(sq.index() ^ flip);
        s.features[0][s.count] = feature_index(stm, ours, piece, sq) as u16;
        s.features[1][s.count] = feature_index(!stm, theirs, piece, sq) as u16;
        s.count += 1;
    }
    let pieces = s.count;
    if shape.factorised {
        // The shared rows follow the king buckets' (`Shape::factor`): a piece's shared
        // row is its piece-square index within its bucket's set.
        let shared = shape.kings.inputs();
        for side in &mut s.features {
            for i in 0..pieces {
                side[pieces + i] = (shared + side[i] as usize % INPUTS) as u16;
            }
        }
        s.count = 2 * pieces;
    }
    let white_points = p.result().map_or(0.5, |r| r.white_points());
    let (score, points) = match stm {
        Color::White => (p.white_score() as f32, white_points),
        Color::Black => (-(p.white_score() as f32), 1.0 - white_points),
    };
    s.target = lambda * sigmoid(score / SIGMOID_SCALE) + (1.0 - lambda) * points;
    let bucket = output_bucket(pieces as u32, shape.buckets);
    s.w2 = shape.w2() + bucket * 2 * HIDDEN;
    s.b2 = shape.b2() + bucket;
    s
}

/// Floats an accumulator block holds while the rows of every input are added to it (or
/// a block of the deltas while they are added to every row): kept in registers, not
/// loaded and stored once per input. Each float still sees the same additions in the
/// same order, so the sums are bit for bit those of a row at a time.
const BLOCK: usize = 32;
const _: () = assert!(HIDDEN.is_multiple_of(BLOCK), "whole blocks");

/// The accumulators of both perspectives (float, before the activation).
#[inline(always)]
fn accumulate(params: &[f32], s: &Sample) -> [[f32; HIDDEN]; 2] {
    let bias: &[f32; HIDDEN] = params[s.b1..s.b1 + HIDDEN]
        .try_into()
        .expect("HIDDEN biases");
    let mut acc = [[0.0; HIDDEN]; 2];
    for (side, acc) in acc.iter_mut().enumerate() {
        let features = &s.features[side][..s.count];
        for (b, out) in acc.chunks_exact_mut(BLOCK).enumerate() {
            let mut block: [f32; BLOCK] =
                bias[b * BLOCK..(b + 1) * BLOCK].try_into().expect("block");
            for &f in features {
                let start = W1 + f as usize * HIDDEN + b * BLOCK;
                let row: &[f32; BLOCK] = params[start..start + BLOCK].try_into().expect("row");
                for i in 0..BLOCK {
                    block[i] += row[i];
                }
            }
            out.copy_from_slice(&block);
        }
    }
    acc
}

/// The network's output (in units of `EVAL_SCALE` centipawns).
#[inline(always)]
fn output(params: &[f32], s: &Sample, acc: &[[f32; HIDDEN]; 2]) -> f32 {
    // The output bias, plus the side to move's sum, plus the other side's, each summed
    // in order from neuron 0 (float addition does not reassociate); the two sums are
    // independent chains, so they run side by side.
    let w: &[f32; 2 * HIDDEN] = params[s.w2..s.w2 + 2 * HIDDEN]
        .try_into()
        .expect("output weights");
    let (ours, theirs) = w.split_at(HIDDEN);
    let (mut sum_ours, mut sum_theirs) = (0.0f32, 0.0f32);
    for i in 0..HIDDEN {
        let c = acc[0][i].clamp(0.0, 1.0);
        sum_ours += c * c * ours[i];
        let c = acc[1][i].clamp(0.0, 1.0);
        sum_theirs += c * c * theirs[i];
    }
    let mut out = params[s.b2];
    out += sum_ours;
    out += sum_theirs;
    out
}

/// Adds one position's gradient to `grad`; returns its loss.
#[inline(always)]
fn backward(params: &[f32], s: &Sample, grad: &mut [f32]) -> f32 {
    let acc = accumulate(params, s);
    let pred = sigmoid(output(params, s, &acc));
    let err = pred - s.target;
    let g = 2.0 * err * pred * (1.0 - pred);
    grad[s.b2] += g;
    for (side, acc) in acc.iter().enumerate() {
        let w2 = s.w2 + side * HIDDEN;
        let w: &[f32; HIDDEN] = params[w2..w2 + HIDDEN].try_into().expect("weights");
        let gw: &mut [f32; HIDDEN] = (&mut grad[w2..w2 + HIDDEN]).try_into().expect("grads");
        let mut d = [0.0f32; HIDDEN];
        // Without branches: whether an activation is inside (0, 1) is a coin toss the
        // branch predictor lost about half the time; a select vectorises.
        for i in 0..HIDDEN {
            let a = acc[i];
            let inside = (a > 0.0) & (a < 1.0);
            let c = a.clamp(0.0, 1.0);
            gw[i] += g * c * c;
            let slope = g * w[i] * 2.0 * a;
            d[i] = if inside { slope } else { 0.0 };
        }
        let bias: &mut [f32; HIDDEN] = (&mut grad[s.b1..s.b1 + HIDDEN]).try_into().expect("biases");
        for i in 0..HIDDEN {
            bias[i] += d[i];
        }
        let features = &s.features[side][..s.count];
        for (b, d) in d.chunks_exact(BLOCK).enumerate() {
            let d: &[f32; BLOCK] = d.try_into().expect("block");
            for &f in features {
                let start = W1 + f as usize * HIDDEN + b * BLOCK;
                let row: &mut [f32; BLOCK] =
                    (&mut grad[start..start + BLOCK]).try_into().expect("row");
                for i in 0..BLOCK {
                    row[i] += d[i];
                }
            }
        }
    }
    err * err
}

/// What every position of a pass over the data is computed with.
#[derive(Clone, Copy)]
struct Pass<'a> {
    params: &'a [f32],
    shape: Shape,
    lambda: f32,
}

// The passes run compiled for AVX2 where the CPU has it (the default build targets any
// x86-64, SSE2): the same additions and products in the same order (no FMA), so bit for bit
// the same network, with twice the lanes.

/// Adds the gradients of the positions `ids` of `data` to `grad`; returns their summed
/// loss.
#[allow(unsafe_code)]
fn add_gradients(pass: Pass, data: &[PackedPosition], ids: &[u32], grad: &mut [f32]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has just been checked to support AVX2, the only feature the
        // function enables.
        return unsafe { add_gradients_avx2(pass, data, ids, grad) };
    }
    add_gradients_portable(pass, data, ids, grad)
}

#[inline(always)]
fn add_gradients_portable(
    pass: Pass,
    data: &[PackedPosition],
    ids: &[u32],
    grad: &mut [f32],
) -> f64 {
    let mut loss = 0.0f64;
    for &id in ids {
        let p = &data[(id & !MIRROR_BIT) as usize];
        let s = sample(p, pass.lambda, id & MIRROR_BIT != 0, pass.shape);
        loss += backward(pass.params, &s, grad) as f64;
    }
    loss
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn add_gradients_avx2(pass: Pass, data: &[PackedPosition], ids: &[u32], grad: &mut [f32]) -> f64 {
    add_gradients_portable(pass, data, ids, grad)
}

/// The summed loss of `data` (unmirrored).
#[allow(unsafe_code)]
fn summed_loss(pass: Pass, data: &[PackedPosition]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: as in `add_gradients`.
        return unsafe { summed_loss_avx2(pass, data) };
    }
    summed_loss_portable(pass, data)
}

#[inline(always)]
fn summed_loss_portable(pass: Pass, data: &[PackedPosition]) -> f64 {
    data.iter()
        .map(|p| {
            let s = sample(p, pass.lambda, false, pass.shape);
            let pred = sigmoid(output(pass.params, &s, &accumulate(pass.params, &s)));
            ((pred - s.target) * (pred - s.target)) as f64
        })
        .sum::<f64>()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn summed_loss_avx2(pass: Pass, data: &[PackedPosition]) -> f64 {
    summed_loss_portable(pass, data)
}

impl Workers {
    /// Buffers for `threads` threads training models like `model`.
    pub(super) fn new(threads: usize, model: &Model) -> Workers {
        Workers {
            grads: vec![vec![0.0; model.params.len()]; threads],
        }
    }

    /// Computes the summed gradient of the positions `ids` (left in
    /// [`Workers::gradient`]); returns their summed loss.
    pub(super) fn gradients(
        &mut self,
        model: &Model,
        data: &[PackedPosition],
        ids: &[u32],
        lambda: f32,
    ) -> f64 {
        let chunk = ids.len().div_ceil(self.grads.len());
        let (params, shape) = (&model.params, model.shape());
        let losses: Vec<f64> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .grads
                .iter_mut()
                .zip(ids.chunks(chunk))
                .map(|(grad, ids)| {
                    scope.spawn(move || {
                        grad.fill(0.0);
                        let pass = Pass {
                            params,
                            shape,
                            lambda,
                        };
                        add_gradients(pass, data, ids, grad)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("worker"))
                .collect()
        });
        // Threads with no positions (tiny batches) keep stale gradients: clear them.
        let used = ids.chunks(chunk).count();
        for grad in &mut self.grads[used..] {
            grad.fill(0.0);
        }
        let (first, rest) = self.grads.split_at_mut(1);
        for other in rest.iter() {
            for (a, b) in first[0].iter_mut().zip(other) {
                *a += b;
            }
        }
        losses.iter().sum()
    }

    /// The summed gradient of the last batch.
    pub(super) fn gradient(&self) -> &[f32] {
        &self.grads[0]
    }

    /// The mean loss of `model` on `data`.
    pub(super) fn loss(&self, model: &Model, data: &[PackedPosition], lambda: f32) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let chunk = data.len().div_ceil(self.grads.len());
        let (params, shape) = (&model.params, model.shape());
        let total: f64 = std::thread::scope(|scope| {
            let handles: Vec<_> = data
                .chunks(chunk)
                .map(|part| {
                    let pass = Pass {
                        params,
                        shape,
                        lambda,
                    };
                    scope.spawn(move || summed_loss(pass, part))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("worker")).sum()
        });
        total / data.len() as f64
    }
}

/// The float network's score in centipawns of a packed position for the side to move
/// (to compare with the quantized network).
pub fn float_eval(model: &Model, p: &PackedPosition) -> f32 {
    let s = sample(p, 0.0, false, model.shape());
    output(&model.params, &s, &accumulate(&model.params, &s)) * crate::nnue::EVAL_SCALE as f32
}
