//! The network trainer (`ladya train`): plain Rust on the CPU, several threads, sparse
//! inputs, reproducible from a seed.
//!
//! Each position is read straight from its packed record (`crate::data`): the pieces
//! become at most 32 active inputs per perspective, so the first layer costs one weight
//! row per piece forwards and backwards, never a dense 768-wide product. A batch is split
//! between the threads, each summing its own gradients; the sums are added in thread
//! order, so a run is a function of the data, the seed and the thread count.
//!
//! Target: `lambda * sigmoid(score / 400) + (1 - lambda) * result`, both from the side
//! to move's view; prediction `sigmoid(output)` (the output is in units of
//! [`EVAL_SCALE`] centipawns, so the same sigmoid scale as the scores); loss the mean
//! squared error between them. Optimiser AdamW with a cosine learning-rate schedule;
//! every weight is clipped to +-[`WEIGHT_CLIP`] so the quantized network cannot overflow.
//!
//! Files: `model.rs` the float network, its gradients and AdamW; `batch.rs` the forward
//! and backward pass over one batch; this one the loop over epochs, validation,
//! checkpoints and export. The command line (`ladya train`) is the binary's
//! (`src/cli/train.rs`).

mod batch;
mod model;
pub mod validate;

pub use batch::float_eval;
pub use model::{Model, Shape};

use crate::data::PackedPosition;
use crate::nnue::{KingBuckets, Network, EVAL_SCALE};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::PathBuf;
use std::time::Instant;

/// Weights are kept within +-this, so `QA * w` and `QB * w` stay far from `i16` limits and
/// the output product `clamp(a) * w` fits an `i16` (see `nnue::network`).
pub const WEIGHT_CLIP: f32 = 1.98;
/// The centipawn scale of the score's sigmoid (equal to the network's output scale).
pub const SIGMOID_SCALE: f32 = EVAL_SCALE as f32;

/// What to train and how.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Epochs (full passes over the training positions).
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch_size: usize,
    /// Peak learning rate (AdamW), decayed to `lr * final_lr_ratio` by a cosine.
    pub lr: f32,
    /// Final learning rate as a fraction of the peak.
    pub final_lr_ratio: f32,
    /// AdamW's decoupled weight decay.
    pub weight_decay: f32,
    /// Weight of the score in the target; the game result gets `1 - lambda`.
    pub lambda: f32,
    /// The positions held out for validation (the last ones: the positions of one game
    /// stand together, so a range keeps games apart).
    pub held_out: HeldOut,
    /// Worker threads.
    pub threads: usize,
    /// Seed of the initial weights and of the shuffles.
    pub seed: u64,
    /// Where checkpoints and the exported networks go.
    pub out_dir: PathBuf,
    /// Show each position mirrored left to right in a random half of the epochs.
    pub mirror: bool,
    /// Output buckets: 1, or [`crate::nnue::OUTPUT_BUCKETS`] by material.
    pub output_buckets: usize,
    /// The inputs' king buckets.
    pub king_buckets: KingBuckets,
    /// Train king buckets as a shared set plus each bucket's difference (see [`Shape`]).
    pub factorise: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 20,
            batch_size: 16_384,
            lr: 0.001,
            final_lr_ratio: 0.02,
            weight_decay: 0.01,
            lambda: 0.75,
            held_out: HeldOut::Share(0.05),
            threads: 2,
            seed: 1,
            out_dir: PathBuf::from("train-out"),
            mirror: true,
            output_buckets: crate::nnue::OUTPUT_BUCKETS,
            king_buckets: KingBuckets::None,
            factorise: false,
        }
    }
}

/// How many positions the trainer holds out for validation, from the end of the data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HeldOut {
    /// This share of all positions, rounded down.
    Share(f64),
    /// Exactly this many: a caller that chose the held-out games by count (the generation
    /// script keeps the newest games' positions) names them without a share's rounding.
    Positions(usize),
}

impl HeldOut {
    /// The positions held out of `total`: at least one, so validation always has data.
    pub fn of(self, total: usize) -> usize {
        let count = match self {
            HeldOut::Share(share) => (total as f64 * share) as usize,
            HeldOut::Positions(count) => count,
        };
        count.max(1)
    }
}

/// What one epoch gave.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// Epoch number from 1.
    pub epoch: usize,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Mean loss on the held-out positions.
    pub validation_loss: f64,
    /// Training positions per second.
    pub positions_per_second: f64,
    /// The learning rate at the end of the epoch.
    pub lr: f32,
}

/// A training failure.
#[derive(Debug)]
pub enum TrainError {
    /// Fewer positions than one batch plus the held-out ones.
    TooLittleData {
        /// Positions given.
        positions: usize,
        /// Positions the configuration holds out for validation.
        held_out: usize,
        /// Positions in one batch.
        batch: usize,
    },
    /// Writing a checkpoint or a network failed.
    Io(std::io::Error),
    /// The checkpoint to resume or the warm start has another shape (output buckets,
    /// king buckets) than asked for.
    Shape {
        /// Of the checkpoint or the warm start.
        start: Shape,
        /// Asked for.
        asked: Shape,
    },
}

impl std::fmt::Display for TrainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrainError::TooLittleData {
                positions,
                held_out,
                batch,
            } => write!(
                f,
                "{positions} positions are too few to train on: {held_out} held out for validation and a batch of {batch}"
            ),
            TrainError::Io(e) => write!(f, "cannot write the trainer's output: {e}"),
            TrainError::Shape { start, asked } => write!(
                f,
                "the starting weights (checkpoint or --init) are {start}, {asked} asked for (--output-buckets, --king-buckets)"
            ),
        }
    }
}

impl std::error::Error for TrainError {}

/// The quantized network file of `model`.
pub fn export(model: &Model) -> Vec<u8> {
    let q = model.quantize();
    Network::file_bytes(
        q.kings,
        &q.feature_weights,
        &q.feature_bias,
        &q.output_weights,
        &q.output_bias,
    )
}

/// Trains a network on `positions` from `start` (a checkpointed model and the epochs it
/// had done, or a warm start's model and 0), or from fresh weights drawn from the seed.
/// Each epoch writes `checkpoint.bin`, `epoch-N.nnue` and its float weights `epoch-N.float`
/// to the output directory. `on_epoch` hears about each epoch; `progress` gets (positions done in the
/// epoch, positions in the epoch) now and then. Returns the final model.
pub fn train(
    cfg: &TrainConfig,
    positions: &[PackedPosition],
    start: Option<(Model, usize)>,
    on_epoch: &mut dyn FnMut(&EpochReport),
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Model, TrainError> {
    let held_out = cfg.held_out.of(positions.len());
    if positions.len() < held_out.saturating_add(cfg.batch_size.max(1))
        || positions.len() >= 1 << 31
    {
        return Err(TrainError::TooLittleData {
            positions: positions.len(),
            held_out,
            batch: cfg.batch_size.max(1),
        });
    }
    let (train_set, validation) = positions.split_at(positions.len() - held_out);
    // One random stream from the seed: the initial weights, then the order of the
    // positions. A resumed run draws (and drops) the initial weights too, so its shuffles
    // are those of the run it continues.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed);
    let asked = Shape::asked(cfg.king_buckets, cfg.output_buckets, cfg.factorise);
    let fresh = Model::random(&mut rng, asked);
    let (mut model, first_epoch) = start.unwrap_or((fresh, 0));
    if model.shape() != asked {
        return Err(TrainError::Shape {
            start: model.shape(),
            asked,
        });
    }
    std::fs::create_dir_all(&cfg.out_dir).map_err(TrainError::Io)?;
    let steps_per_epoch = train_set.len() / cfg.batch_size;
    let total_steps = (steps_per_epoch * cfg.epochs).max(1);
    let mut order: Vec<u32> = (0..train_set.len() as u32).collect();
    let mut workers = batch::Workers::new(cfg.threads.max(1), &model);
    // The shuffles of skipped epochs are replayed so a resumed run sees the same order.
    for _ in 0..first_epoch {
        shuffle(&mut order, &mut rng, cfg.mirror);
    }
    for epoch in first_epoch..cfg.epochs {
        shuffle(&mut order, &mut rng, cfg.mirror);
        let started = Instant::now();
        let mut loss_sum = 0.0;
        let mut lr = cfg.lr;
        for step in 0..steps_per_epoch {
            let ids = &order[step * cfg.batch_size..(step + 1) * cfg.batch_size];
            let loss = workers.gradients(&model, train_set, ids, cfg.lambda);
            loss_sum += loss;
            let t = (epoch * steps_per_epoch + step) as f32 / total_steps as f32;
            lr = cosine_lr(cfg, t);
            model.adamw_step(workers.gradient(), lr, cfg.weight_decay, cfg.batch_size);
            if step % 16 == 0 {
                progress(step * cfg.batch_size, steps_per_epoch * cfg.batch_size);
            }
        }
        let elapsed = started.elapsed().as_secs_f64();
        let report = EpochReport {
            epoch: epoch + 1,
            train_loss: loss_sum / (steps_per_epoch * cfg.batch_size) as f64,
            validation_loss: workers.loss(&model, validation, cfg.lambda),
            positions_per_second: (steps_per_epoch * cfg.batch_size) as f64 / elapsed,
            lr,
        };
        on_epoch(&report);
        model
            .save_checkpoint(&cfg.out_dir.join("checkpoint.bin"), epoch + 1)
            .map_err(TrainError::Io)?;
        std::fs::write(
            cfg.out_dir.join(format!("epoch-{}.nnue", epoch + 1)),
            export(&model),
        )
        .map_err(TrainError::Io)?;
        model
            .save_weights(&cfg.out_dir.join(format!("epoch-{}.float", epoch + 1)))
            .map_err(TrainError::Io)?;
    }
    Ok(model)
}

/// The learning rate at `t` (0 to 1) of the run: a cosine from `lr` to
/// `lr * final_lr_ratio`.
fn cosine_lr(cfg: &TrainConfig, t: f32) -> f32 {
    let low = cfg.lr * cfg.final_lr_ratio;
    low + (cfg.lr - low) * 0.5 * (1.0 + (std::f32::consts::PI * t.min(1.0)).cos())
}

/// Shuffles the position ids and, with `mirror`, marks a random half to be mirrored.
fn shuffle(order: &mut [u32], rng: &mut Xoshiro256PlusPlus, mirror: bool) {
    for i in (1..order.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    if mirror {
        for id in order.iter_mut() {
            *id = (*id & !batch::MIRROR_BIT) | (rng.next_u64() as u32 & batch::MIRROR_BIT);
        }
    }
}

/// The mean loss of `model` on `positions` (for validation on other data, e.g.
/// Stockfish-labelled positions, which never train a network).
pub fn loss_on(model: &Model, positions: &[PackedPosition], lambda: f32, threads: usize) -> f64 {
    batch::Workers::new(threads.max(1), model).loss(model, positions, lambda)
}
