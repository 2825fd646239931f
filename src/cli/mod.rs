//! The terminal commands' own parts that are more than a few lines: game analysis and
//! progress display.

pub mod analyse;
pub mod probe;
pub mod progress;

use ladya::search::{Limits, TimeBudget};
use std::time::Duration;

/// The limits of a terminal search from its `--depth`, `--movetime` (ms) and `--nodes`.
pub fn search_limits(depth: Option<u32>, movetime: Option<u64>, nodes: Option<u64>) -> Limits {
    Limits {
        depth,
        nodes,
        time: movetime.map(|ms| {
            let t = Duration::from_millis(ms.max(1));
            TimeBudget { soft: t, hard: t }
        }),
        multipv: 1,
        ..Limits::default()
    }
}
