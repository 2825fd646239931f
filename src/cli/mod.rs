//! The `ladya` binary's command line: the arguments (`args.rs`), one file per command,
//! and the progress display. Only this module and `main.rs` print.

/// `println!` that ends the program quietly when stdout is closed (`ladya … | head`)
/// instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout().lock(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

pub mod analyse;
pub mod args;
pub mod bench;
pub mod book;
pub mod data;
pub mod datagen;
pub mod epd;
pub mod go;
pub mod perft;
pub mod probe;
pub mod progress;
pub mod script;
pub mod texel;
pub mod train;
pub mod tunables;

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
