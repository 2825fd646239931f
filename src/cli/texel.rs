//! `ladya texel`: the Texel tuner for the hand-crafted evaluation's weights (see
//! `ladya::eval::tune`).
//!
//! Example, on the Stockfish self-play positions (decompressed outside git):
//! `ladya texel /tmp/tune/sf15.txt --out src/eval/params.rs`

use anyhow::Result;
use ladya::eval::tune::{tune, TuneConfig};
use std::cell::RefCell;
use std::path::PathBuf;

/// Options of `ladya texel`.
#[derive(clap::Args)]
pub struct TexelArgs {
    /// Data file, one `FEN | score | result` per line.
    data: PathBuf,
    /// Write the tuned params.rs here (e.g. src/eval/params.rs).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The params.rs to copy the non-tuned parts from.
    #[arg(long, default_value = "src/eval/params.rs")]
    params: PathBuf,
    /// Use only the first N lines.
    #[arg(long)]
    max: Option<usize>,
    /// Share of lines held out, from the end of the file.
    #[arg(long, default_value_t = 0.1)]
    holdout: f64,
    /// Adam steps over the whole training set.
    #[arg(long, default_value_t = 1000)]
    epochs: usize,
    /// Adam learning rate (centipawns per step).
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Weight of the engine score in the target (0 = game results only).
    #[arg(long, default_value_t = 0.0)]
    lambda: f64,
    /// L2 pull towards the starting weights (per centipawn squared).
    #[arg(long, default_value_t = 0.0)]
    reg: f64,
}

/// Runs `ladya texel`: tunes, with a progress bar, and prints the errors before and after.
pub fn run(a: TexelArgs) -> Result<()> {
    let cfg = TuneConfig {
        data: a.data,
        max_positions: a.max,
        holdout: a.holdout,
        epochs: a.epochs,
        learning_rate: a.lr,
        lambda: a.lambda,
        regularization: a.reg,
        params_out: a.out,
        params_in: a.params,
    };
    // Both callbacks touch the bar: lines print with it out of the way.
    let bar = RefCell::new(super::progress::Progress::new(
        "tune",
        cfg.epochs as u64,
        "epochs",
    ));
    let report = tune(
        &cfg,
        &mut |line| bar.borrow().suspend(|| say!("{line}")),
        &mut |epoch| bar.borrow_mut().set(epoch as u64),
    )?;
    bar.into_inner().finish();
    say!(
        "positions: {} train, {} held out; K = {:.6}",
        report.train_positions,
        report.holdout_positions,
        report.k
    );
    say!(
        "error before: train {:.6}, held out {:.6}",
        report.before.0,
        report.before.1
    );
    say!(
        "error after:  train {:.6}, held out {:.6}",
        report.after.0,
        report.after.1
    );
    Ok(())
}
