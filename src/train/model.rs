//! The float network being trained, its AdamW optimiser and its checkpoints.
//!
//! All parameters live in one flat vector (input weights, accumulator biases, output
//! weights and biases of each output bucket), so the optimiser and the checkpoint treat
//! them alike.

use super::WEIGHT_CLIP;
use crate::nnue::{KingBuckets, Network, HIDDEN, INPUTS, OUTPUT_BUCKETS, QA, QB};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::io::{Read, Write};
use std::path::Path;

/// Where the input weights start in the flat vector.
pub(super) const W1: usize = 0;

/// What sets a model's size: its inputs' king buckets, whether they are factorised, and
/// its output buckets (1 or [`OUTPUT_BUCKETS`]).
///
/// A factorised model keeps, beside each king bucket's rows, one shared set of 768 rows
/// that every bucket adds to its own: every position trains the shared rows, and a bucket's
/// rows learn only how it differs. The exported network holds the sums, so the engine sees
/// an ordinary king-bucketed network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The inputs' king buckets.
    pub kings: KingBuckets,
    /// Output buckets.
    pub buckets: usize,
    /// Whether the king buckets' rows are trained as a shared set plus each bucket's
    /// difference.
    pub factorised: bool,
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let factorised = if self.factorised { " factorised" } else { "" };
        write!(
            f,
            "{}{factorised}->{HIDDEN}x2->{}",
            self.kings, self.buckets
        )
    }
}

impl Shape {
    /// Every shape the trainer makes.
    pub const ALL: [Shape; 6] = [
        Shape::new(KingBuckets::None, 1),
        Shape::new(KingBuckets::None, OUTPUT_BUCKETS),
        Shape::new(KingBuckets::Mirrored4, 1),
        Shape::new(KingBuckets::Mirrored4, OUTPUT_BUCKETS),
        Shape::factorised(KingBuckets::Mirrored4, 1),
        Shape::factorised(KingBuckets::Mirrored4, OUTPUT_BUCKETS),
    ];

    /// The shape with these king buckets and output buckets.
    pub const fn new(kings: KingBuckets, buckets: usize) -> Shape {
        Shape {
            kings,
            buckets,
            factorised: false,
        }
    }

    /// The shape with these king buckets, factorised, and output buckets.
    pub const fn factorised(kings: KingBuckets, buckets: usize) -> Shape {
        Shape {
            kings,
            buckets,
            factorised: true,
        }
    }

    /// The shape asked for: factorised only when `factorise` is set and there are king
    /// buckets to factorise (without them the shared rows would be the only rows).
    pub const fn asked(kings: KingBuckets, buckets: usize, factorise: bool) -> Shape {
        let factorised = factorise && !matches!(kings, KingBuckets::None);
        Shape {
            kings,
            buckets,
            factorised,
        }
    }

    /// Where the shared rows of a factorised model start.
    pub(super) const fn factor(self) -> usize {
        W1 + self.kings.inputs() * HIDDEN
    }

    /// Rows of input weights: the king buckets' and the shared ones.
    const fn input_rows(self) -> usize {
        self.kings.inputs() + if self.factorised { INPUTS } else { 0 }
    }

    /// Where the accumulator biases start.
    pub(super) const fn b1(self) -> usize {
        W1 + self.input_rows() * HIDDEN
    }

    /// Where the output weights start.
    pub(super) const fn w2(self) -> usize {
        self.b1() + HIDDEN
    }

    /// Where the output biases start.
    pub(super) const fn b2(self) -> usize {
        self.w2() + self.buckets * 2 * HIDDEN
    }

    /// Number of parameters.
    pub(super) const fn params(self) -> usize {
        self.params_of(HIDDEN)
    }

    /// Number of parameters of a model of this shape `hidden` neurons wide.
    const fn params_of(self, hidden: usize) -> usize {
        (self.input_rows() + 1 + 2 * self.buckets) * hidden + self.buckets
    }
}

/// Seed of the input weights a widened network's new neurons start with (fixed, so that
/// a warm start from a narrower network is reproducible from its command alone).
const WIDEN_SEED: u64 = 0x1ad7a;

const ADAM_BETA1: f32 = 0.9;
const ADAM_BETA2: f32 = 0.999;
const ADAM_EPSILON: f32 = 1e-8;
const CHECKPOINT_MAGIC: &[u8; 8] = b"LADYCKPT";
/// A float weights file: the magic, the number of parameters (`u64`), the parameters.
const WEIGHTS_MAGIC: &[u8; 8] = b"LADYFLT1";
/// The magic of a quantized network file (`crate::nnue`), which `--init` also reads.
const NETWORK_MAGIC: &[u8; 8] = b"LADYANUE";

/// The float network with its optimiser state.
#[derive(Clone)]
pub struct Model {
    pub(super) params: Vec<f32>,
    m: Vec<f32>,
    v: Vec<f32>,
    steps: u64,
    shape: Shape,
}

/// The quantized weights of a model, as the engine's network file holds them.
pub struct Quantized {
    /// The inputs' king buckets.
    pub kings: KingBuckets,
    /// `kings.inputs()` rows of `HIDDEN`, times `QA`.
    pub feature_weights: Vec<i16>,
    /// Times `QA`.
    pub feature_bias: Vec<i16>,
    /// Times `QB`, per bucket.
    pub output_weights: Vec<i16>,
    /// Times `QA * QB`, per bucket.
    pub output_bias: Vec<i32>,
}

fn uniform(rng: &mut Xoshiro256PlusPlus, bound: f32) -> f32 {
    let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    (unit * 2.0 - 1.0) * bound
}

impl Model {
    /// Fresh weights of `shape`: uniform within +-1/sqrt(fan-in) of each layer (the
    /// fan-in of the first is the 32 pieces at most of one set of 768 inputs, whatever
    /// the king buckets), biases zero.
    pub fn random(rng: &mut Xoshiro256PlusPlus, shape: Shape) -> Model {
        assert!(Shape::ALL.contains(&shape), "shape {shape}");
        let mut params = vec![0.0; shape.params()];
        let first = 1.0 / (INPUTS as f32).sqrt();
        let second = 1.0 / (2.0 * HIDDEN as f32).sqrt();
        // A factorised model's buckets start with no difference from the shared rows.
        let first_rows = if shape.factorised {
            shape.factor()..shape.b1()
        } else {
            W1..shape.b1()
        };
        for p in &mut params[first_rows] {
            *p = uniform(rng, first);
        }
        for p in &mut params[shape.w2()..shape.b2()] {
            *p = uniform(rng, second);
        }
        Model::with_params(params, shape)
    }

    /// A model holding `params` with a fresh optimiser (no steps taken).
    fn with_params(params: Vec<f32>, shape: Shape) -> Model {
        let total = params.len();
        debug_assert_eq!(total, shape.params());
        Model {
            params,
            m: vec![0.0; total],
            v: vec![0.0; total],
            steps: 0,
            shape,
        }
    }

    /// This model with its inputs split into `kings` buckets, each starting as a copy of
    /// its one set, with a fresh optimiser: how a king-bucketed network warm-starts from
    /// one without. It evaluates a position as this model evaluates the position seen
    /// by each side with its king on the a- to d-files (mirrored left to right when the
    /// king is on the e- to h-files): what a network trained on mirrored copies of its
    /// positions nearly always agrees with.
    ///
    /// `factorised`: the old set becomes the shared rows and every bucket's own rows start
    /// at zero, which evaluates the same.
    pub fn with_king_buckets(self, kings: KingBuckets, factorised: bool) -> Result<Model, Shape> {
        let shape = Shape::asked(kings, self.shape.buckets, factorised);
        if self.shape == shape {
            return Ok(self);
        }
        if self.shape.kings != KingBuckets::None {
            return Err(self.shape);
        }
        let (rows, rest) = self.params.split_at(self.shape.b1());
        let mut params = Vec::with_capacity(shape.params());
        if shape.factorised {
            params.resize(kings.inputs() * HIDDEN, 0.0);
            params.extend_from_slice(rows);
        } else {
            for _ in 0..kings.count() {
                params.extend_from_slice(rows);
            }
        }
        params.extend_from_slice(rest);
        Ok(Model::with_params(params, shape))
    }

    /// The float weights of a quantized network, each integer divided by its scale, with
    /// a fresh optimiser. Rounded back ([`Model::quantize`]) they give the same integers:
    /// a warm start from a network loses nothing until training moves the weights.
    pub fn from_network(net: &Network) -> Model {
        let (fw, fb, ow, ob) = net.weights();
        let (qa, qb, qab) = (QA as f32, QB as f32, (QA * QB) as f32);
        let params = fw
            .iter()
            .chain(fb)
            .map(|&w| f32::from(w) / qa)
            .chain(ow.iter().map(|&w| f32::from(w) / qb))
            .chain(ob.iter().map(|&b| b as f32 / qab))
            .collect();
        Model::with_params(params, Shape::new(net.kings(), ob.len()))
    }

    /// The starting point of a warm-started run (`ladya train --init`): a float weights
    /// file ([`Model::save_weights`]), a trainer checkpoint (its weights; the optimiser
    /// starts afresh, since the data and the schedule are new), or a quantized network.
    /// Float weights of a network with fewer hidden neurons are widened to this build's
    /// `HIDDEN`, computing the same evaluation.
    pub fn load_init(path: &Path) -> std::io::Result<Model> {
        let bytes = std::fs::read(path)?;
        match bytes.get(0..8) {
            Some(m) if m == WEIGHTS_MAGIC => Model::weights_from_bytes(&bytes),
            Some(m) if m == CHECKPOINT_MAGIC => {
                let (model, _) = Model::load_checkpoint(path)?;
                Ok(Model::with_params(model.params, model.shape))
            }
            Some(m) if m == NETWORK_MAGIC => Network::from_bytes(&bytes)
                .map(|net| Model::from_network(&net))
                .map_err(|e| invalid(&e.to_string())),
            _ => Err(invalid(
                "not a network, float weights file or trainer checkpoint",
            )),
        }
    }

    /// Writes the float weights alone (no optimiser state): the file kept beside each
    /// shipped network so the next generation warm-starts from exactly these weights.
    pub fn save_weights(&self, path: &Path) -> std::io::Result<()> {
        let mut bytes = Vec::with_capacity(16 + 4 * self.params.len());
        bytes.extend_from_slice(WEIGHTS_MAGIC);
        bytes.extend_from_slice(&(self.params.len() as u64).to_le_bytes());
        for x in &self.params {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, bytes)?;
        std::fs::rename(tmp, path)
    }

    /// Float weights of this architecture, or of a narrower one (fewer hidden neurons,
    /// widened by [`widen`]: how a larger network starts from a shipped one).
    fn weights_from_bytes(bytes: &[u8]) -> std::io::Result<Model> {
        let count = bytes
            .get(8..16)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")) as usize)
            .unwrap_or(0);
        let Some((hidden, shape)) = Shape::ALL.into_iter().find_map(|shape| {
            let per_neuron = shape.params_of(1) - shape.buckets;
            let hidden = count.checked_sub(shape.buckets)? / per_neuron;
            (hidden > 0 && hidden <= HIDDEN && shape.params_of(hidden) == count)
                .then_some((hidden, shape))
        }) else {
            return Err(invalid("float weights of another architecture"));
        };
        if bytes.len() != 16 + 4 * count {
            return Err(invalid("truncated float weights file"));
        }
        let weights: Vec<f32> = bytes[16..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let weights = if hidden < HIDDEN {
            widen(&weights, hidden, shape)
        } else {
            weights
        };
        Ok(Model::with_params(weights, shape))
    }

    /// Output buckets.
    pub fn buckets(&self) -> usize {
        self.shape.buckets
    }

    /// The inputs' king buckets.
    pub fn kings(&self) -> KingBuckets {
        self.shape.kings
    }

    /// The model's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// One AdamW step with the summed gradient of `batch` positions.
    pub(super) fn adamw_step(&mut self, grad: &[f32], lr: f32, decay: f32, batch: usize) {
        self.steps += 1;
        let scale = 1.0 / batch as f32;
        let c1 = 1.0 - ADAM_BETA1.powi(self.steps.min(1 << 20) as i32);
        let c2 = 1.0 - ADAM_BETA2.powi(self.steps.min(1 << 20) as i32);
        let step = lr * c2.sqrt() / c1;
        let state = self.params.iter_mut().zip(&mut self.m).zip(&mut self.v);
        for (((p, m), v), &g) in state.zip(grad) {
            let g = g * scale;
            *m = ADAM_BETA1 * *m + (1.0 - ADAM_BETA1) * g;
            *v = ADAM_BETA2 * *v + (1.0 - ADAM_BETA2) * g * g;
            let next = *p * (1.0 - lr * decay) - step * *m / (v.sqrt() + ADAM_EPSILON);
            *p = next.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }

    /// A factorised model's weights as the network holds them: each bucket's rows plus
    /// the shared rows (with a fresh optimiser); any other model as it is.
    pub fn unfactorised(&self) -> Model {
        let shape = self.shape;
        if !shape.factorised {
            return self.clone();
        }
        let shared = &self.params[shape.factor()..shape.b1()];
        let mut params: Vec<f32> = self.params[W1..shape.factor()]
            .chunks_exact(INPUTS * HIDDEN)
            .flat_map(|set| set.iter().zip(shared).map(|(&w, &s)| w + s))
            .collect();
        params.extend_from_slice(&self.params[shape.b1()..]);
        Model::with_params(params, Shape::new(shape.kings, shape.buckets))
    }

    /// The weights rounded to the engine's integers.
    pub fn quantize(&self) -> Quantized {
        let q16 = |x: f32, k: i32| (x * k as f32).round().clamp(-32767.0, 32767.0) as i16;
        let shape = self.shape;
        if shape.factorised {
            return self.unfactorised().quantize();
        }
        let feature_weights = self.params[W1..shape.b1()]
            .iter()
            .map(|&x| q16(x, QA))
            .collect();
        Quantized {
            kings: shape.kings,
            feature_weights,
            feature_bias: self.params[shape.b1()..shape.w2()]
                .iter()
                .map(|&x| q16(x, QA))
                .collect(),
            output_weights: self.params[shape.w2()..shape.b2()]
                .iter()
                .map(|&x| q16(x, QB))
                .collect(),
            output_bias: self.params[shape.b2()..]
                .iter()
                .map(|&x| (x * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }

    /// Writes the weights and optimiser state, and the number of epochs done.
    pub fn save_checkpoint(&self, path: &Path, epochs_done: usize) -> std::io::Result<()> {
        let tmp = path.with_extension("tmp");
        let mut out = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        out.write_all(CHECKPOINT_MAGIC)?;
        out.write_all(&(self.params.len() as u64).to_le_bytes())?;
        out.write_all(&(epochs_done as u64).to_le_bytes())?;
        out.write_all(&self.steps.to_le_bytes())?;
        for block in [&self.params, &self.m, &self.v] {
            for x in block.iter() {
                out.write_all(&x.to_le_bytes())?;
            }
        }
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(tmp, path)
    }

    /// Reads a checkpoint: the model and the number of epochs it had done.
    pub fn load_checkpoint(path: &Path) -> std::io::Result<(Model, usize)> {
        let bad = invalid;
        let mut bytes = Vec::new();
        std::fs::File::open(path)?.read_to_end(&mut bytes)?;
        if bytes.len() < 32 || &bytes[0..8] != CHECKPOINT_MAGIC {
            return Err(bad("not a checkpoint"));
        }
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let Some(shape) = Shape::ALL
            .into_iter()
            .find(|&shape| word(8) == shape.params() as u64)
        else {
            return Err(bad("checkpoint of another architecture"));
        };
        let total = shape.params();
        if bytes.len() != 32 + 12 * total {
            return Err(bad("truncated checkpoint"));
        }
        let floats = |block: usize| -> Vec<f32> {
            bytes[32 + 4 * total * block..32 + 4 * total * (block + 1)]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        let model = Model {
            params: floats(0),
            m: floats(1),
            v: floats(2),
            steps: word(24),
            shape,
        };
        Ok((model, word(16) as usize))
    }
}

/// The weights of a network `from` hidden neurons wide, laid out `HIDDEN` wide: the old
/// neurons keep their weights, each new one gets zero output weights, a zero bias and
/// small random input weights. The wider network computes exactly what the narrow one
/// did, and training grows into the new neurons: their output weights' gradient is their
/// activation, which the random inputs make nonzero (with zero inputs as well, no
/// gradient would ever reach them).
fn widen(narrow: &[f32], from: usize, shape: Shape) -> Vec<f32> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(WIDEN_SEED);
    let bound = 1.0 / (INPUTS as f32).sqrt();
    let new = HIDDEN - from;
    let mut wide = Vec::with_capacity(shape.params());
    let (input_weights, rest) = narrow.split_at(shape.input_rows() * from);
    for row in input_weights.chunks_exact(from) {
        wide.extend_from_slice(row);
        wide.extend((0..new).map(|_| uniform(&mut rng, bound)));
    }
    let (biases, rest) = rest.split_at(from);
    let (output_weights, output_biases) = rest.split_at(shape.buckets * 2 * from);
    // The biases, then each bucket's two halves (side to move, other side): each a row
    // of `from` followed by `new` zeros.
    for row in std::iter::once(biases).chain(output_weights.chunks_exact(from)) {
        wide.extend_from_slice(row);
        wide.resize(wide.len() + new, 0.0);
    }
    wide.extend_from_slice(output_biases);
    debug_assert_eq!(wide.len(), shape.params());
    wide
}

fn invalid(what: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string())
}
