//! `ladya tunables`: the search's tunables in the format of OpenBench's SPSA tab.

/// Prints one `name, int, value, min, max, c_end, r_end` line per tunable.
pub fn run() {
    if !cfg!(feature = "tune") {
        eprintln!(
            "note: this build reads these as constants; `cargo build --release \
             --features tune` makes them UCI options"
        );
    }
    for t in ladya::search::params::TUNABLES {
        say!("{}", t.openbench_line());
    }
}
