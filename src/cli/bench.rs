//! `ladya bench`: the fixed search of the bench positions (OpenBench's node count).

use ladya::bench;

/// Runs `ladya bench`: the last line is `<N> nodes <M> nps`.
pub fn run(depth: Option<u32>, threads: usize, hce: bool, nnue: bool) {
    let net = match (hce, nnue) {
        (true, _) => None,
        (_, true) => Some(ladya::nnue::default_network()),
        _ => ladya::nnue::default_evaluation(),
    };
    let depth = depth.unwrap_or(bench::DEFAULT_BENCH_DEPTH);
    let report = bench::run_with(depth, net, threads, &mut |i, n| {
        say!("position {:>2}: {n:>10} nodes", i + 1)
    });
    say!("time: {:.3} s", report.elapsed.as_secs_f64());
    say!("{report}");
}
