//! `ladya train`: the network trainer.

use anyhow::Result;

/// Runs `ladya train`, with a progress bar on a terminal.
pub fn run(args: &ladya::train::cli::TrainArgs) -> Result<()> {
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
    ladya::train::cli::run(args, &mut |line| say!("{line}"), progress)
        .map_err(|e| anyhow::anyhow!("{e}"))
}
