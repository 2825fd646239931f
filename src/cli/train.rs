//! `ladya train`: the network trainer.

use anyhow::{bail, Result};
use ladya::data::{read_all, DataError, PackedPosition};
use ladya::nnue::KingBuckets;
use ladya::train::{export, train, EpochReport, HeldOut, Model, TrainConfig};
use std::cell::RefCell;
use std::path::PathBuf;

/// Options of `ladya train`.
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// Packed training files (`ladya datagen`, `ladya data convert`), concatenated in order.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Directory for checkpoints and per-epoch networks.
    #[arg(long, default_value = "train-out")]
    pub out_dir: PathBuf,
    /// Where the final network goes.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Epochs.
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16_384)]
    pub batch_size: usize,
    /// Peak learning rate.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Final learning rate as a share of the peak (cosine schedule).
    #[arg(long, default_value_t = 0.02)]
    pub final_lr_ratio: f32,
    /// Weight of the search score in the target (the game result gets the rest).
    #[arg(long, default_value_t = 0.75)]
    pub lambda: f32,
    /// Share of positions held out for validation (the file's last positions).
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Hold out exactly this many positions (the last ones) instead of a share.
    #[arg(long, conflicts_with = "validation")]
    pub validation_positions: Option<usize>,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Continue from a checkpoint written by an earlier run with the same settings.
    #[arg(long, conflicts_with = "init")]
    pub resume: Option<PathBuf>,
    /// Warm start: begin from these weights (a `.float` file the trainer wrote, a
    /// checkpoint, or a `.nnue` network) instead of random ones, with a fresh optimiser.
    /// A `.float` file of a narrower network is widened: its neurons kept, new ones added
    /// with zero output weights, so training starts from what it computed.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Do not show positions mirrored left to right (with king buckets there is nothing
    /// to show: a mirrored position has the same inputs).
    #[arg(long)]
    pub no_mirror: bool,
    /// Output buckets by material: 1 (one output for every position) or 8.
    #[arg(long, default_value_t = ladya::nnue::OUTPUT_BUCKETS)]
    pub output_buckets: usize,
    /// Sets of inputs by the square of each side's own king: 1 (none), or 4 (mirrored
    /// king buckets). A warm start from a network without them copies its inputs into
    /// every bucket.
    #[arg(long, default_value_t = 1)]
    pub king_buckets: usize,
    /// With king buckets: train one shared set of inputs plus each bucket's difference
    /// from it (the network written holds the sums), so every position trains the
    /// shared set.
    #[arg(long)]
    pub factorise: bool,
    /// Use at most this many positions (from the start of the data).
    #[arg(long)]
    pub limit: Option<usize>,
}

/// How often `ladya train` prints progress within an epoch.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// Reads every record of `paths`, in order.
fn read_positions(paths: &[PathBuf]) -> Result<Vec<PackedPosition>, DataError> {
    let mut all = Vec::new();
    for path in paths {
        all.extend(read_all(path)?);
    }
    Ok(all)
}

/// Trains as `args` say; `say` prints a line. `progress`, when given, hears (positions
/// done in the epoch, positions in the epoch) instead of the plain progress lines (a bar
/// on a terminal).
fn train_as_asked(
    args: &TrainArgs,
    say: &mut dyn FnMut(&str),
    mut progress: Option<&mut dyn FnMut(usize, usize)>,
) -> Result<()> {
    // Both the epoch reports and the progress lines print.
    let say = RefCell::new(say);
    let say = |line: &str| (say.borrow_mut())(line);
    let mut positions = read_positions(&args.data)?;
    if let Some(limit) = args.limit {
        positions.truncate(limit);
    }
    let cfg = TrainConfig {
        epochs: args.epochs,
        batch_size: args.batch_size.max(1),
        lr: args.lr,
        final_lr_ratio: args.final_lr_ratio,
        lambda: args.lambda,
        held_out: match args.validation_positions {
            Some(count) => HeldOut::Positions(count),
            None => HeldOut::Share(args.validation),
        },
        threads: args.threads.max(1),
        seed: args.seed,
        out_dir: args.out_dir.clone(),
        mirror: !args.no_mirror,
        output_buckets: args.output_buckets,
        king_buckets: KingBuckets::with_count(args.king_buckets)
            .ok_or_else(|| anyhow::anyhow!("--king-buckets must be 1 or 4"))?,
        factorise: args.factorise,
        ..TrainConfig::default()
    };
    if ![1, ladya::nnue::OUTPUT_BUCKETS].contains(&cfg.output_buckets) {
        bail!(
            "--output-buckets must be 1 or {}",
            ladya::nnue::OUTPUT_BUCKETS
        );
    }
    let start = match (&args.resume, &args.init) {
        (Some(path), _) => Some(Model::load_checkpoint(path)?),
        (None, Some(path)) => {
            let model = Model::load_init(path)?
                .with_king_buckets(cfg.king_buckets, cfg.factorise)
                .map_err(|shape| {
                    anyhow::anyhow!(
                        "--init {} is {shape}: pass --king-buckets {}",
                        path.display(),
                        shape.kings.count()
                    )
                })?;
            Some((model, 0))
        }
        (None, None) => None,
    };
    say(&format!(
        "training {}->{}x2->{} from {} on {} positions ({} held out), {} epochs, batch {}, lr {}, lambda {}, mirror {}, {} threads, seed {}",
        cfg.king_buckets,
        ladya::nnue::HIDDEN,
        cfg.output_buckets,
        match (&args.resume, &args.init) {
            (Some(p), _) => format!("checkpoint {}", p.display()),
            (None, Some(p)) => format!("{} (warm start)", p.display()),
            (None, None) => "random weights".to_string(),
        },
        positions.len(),
        cfg.held_out.of(positions.len()),
        cfg.epochs,
        cfg.batch_size,
        cfg.lr,
        cfg.lambda,
        cfg.mirror,
        cfg.threads,
        cfg.seed
    ));
    let mut epoch_start = std::time::Instant::now();
    let mut last_line = epoch_start;
    let model = train(
        &cfg,
        &positions,
        start,
        &mut |r: &EpochReport| {
            say(&format!(
                "epoch {:>3}  train loss {:.6}  validation loss {:.6}  lr {:.6}  {:.0} positions/s",
                r.epoch, r.train_loss, r.validation_loss, r.lr, r.positions_per_second
            ))
        },
        &mut |done, total| {
            if let Some(progress) = progress.as_mut() {
                return progress(done, total);
            }
            // A line every PROGRESS_EVERY: how far the epoch is, the speed, the time left.
            let now = std::time::Instant::now();
            if done == 0 {
                epoch_start = now;
            }
            if now.duration_since(last_line) >= PROGRESS_EVERY && done > 0 {
                last_line = now;
                let secs = now.duration_since(epoch_start).as_secs_f64().max(1e-9);
                let rate = done as f64 / secs;
                say(&format!(
                    "  {done}/{total} positions of this epoch, {rate:.0} positions/s, epoch ends in {:.0} s",
                    (total - done) as f64 / rate
                ));
            }
        },
    )?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.out_dir.join("final.nnue"));
    std::fs::write(&out, export(&model))?;
    let floats = out.with_extension("float");
    model.save_weights(&floats)?;
    say(&format!("wrote {} and {}", out.display(), floats.display()));
    Ok(())
}

/// Runs `ladya train`, with a progress bar on a terminal.
pub fn run(args: &TrainArgs) -> Result<()> {
    // One bar per epoch on a terminal; the trainer's own plain lines elsewhere.
    let mut bar: Option<super::progress::Progress> = None;
    let mut epoch = 0;
    let mut hook = |done: usize, total: usize| {
        if done == 0 {
            epoch += 1;
            if let Some(old) = bar.take() {
                old.finish();
            }
            bar = Some(super::progress::Progress::new(
                &format!("epoch {epoch}"),
                total as u64,
                "positions",
            ));
        }
        if let Some(bar) = bar.as_mut() {
            bar.set(done as u64);
        }
    };
    let progress: Option<&mut dyn FnMut(usize, usize)> = if super::progress::bar_wanted() {
        Some(&mut hook)
    } else {
        None
    };
    train_as_asked(args, &mut |line| say!("{line}"), progress)
}
