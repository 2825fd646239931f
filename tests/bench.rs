//! The `bench` node count is the search's signature: any change to search or evaluation
//! behaviour changes it. Pinned here so that a regression that still plays legal moves
//! fails a test; a commit that changes it on purpose updates `BENCH_NODES` together with
//! its `Bench:` trailer.

use ladya::bench::{self, DEFAULT_BENCH_DEPTH};

/// `ladya bench` (depth 14, one thread, the embedded network) as of the last `Bench:`
/// trailer.
const BENCH_NODES: u64 = 7_215_199;

#[test]
fn bench_node_count_is_pinned() {
    let report = bench::run(DEFAULT_BENCH_DEPTH);
    assert_eq!(
        report.nodes, BENCH_NODES,
        "the bench signature changed: if on purpose, update BENCH_NODES and say so in the \
         commit's Bench: trailer"
    );
}

/// The count does not depend on what ran before in the same process (fresh tables each
/// run).
#[test]
fn bench_is_deterministic() {
    let a = bench::run(8);
    let b = bench::run(8);
    assert_eq!(a.nodes, b.nodes);
}
