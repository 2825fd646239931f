//! `ladya tunables`: the search's tunables in the format of OpenBench's SPSA tab.

use std::io::{IsTerminal, Write};

/// Prints one `name, int, value, min, max, c_end, r_end` line per tunable. Piped or
/// redirected, the text ends without a newline: OpenBench's SPSA form splits its input at
/// every `\n` and rejects the empty last line a final newline makes ("Malformed SPSA
/// Input"), so the output pastes as it is.
pub fn run() {
    if !cfg!(feature = "tune") {
        eprintln!(
            "note: this build reads these as constants; `cargo build --release \
             --features tune` (or `make tune-branch`) makes them UCI options"
        );
    }
    let lines: Vec<String> = ladya::search::params::TUNABLES
        .iter()
        .map(|t| t.openbench_line())
        .collect();
    let mut out = std::io::stdout().lock();
    let end = if out.is_terminal() { "\n" } else { "" };
    if write!(out, "{}{end}", lines.join("\n")).is_err() || out.flush().is_err() {
        std::process::exit(0);
    }
}
