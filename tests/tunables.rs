//! Every value SPSA may give a tunable is safe to play with: a `--features tune` build (the
//! one `tools/spsa.py` and OpenBench's SPSA run) searches with each tunable at the bottom and
//! at the top of its range, the others at their defaults, and with all of them at one end
//! together, and always answers a legal move; the time manager's budgets stay within the
//! clock. Without the feature the tunables are constants and there is nothing to test.
//!
//! cargo test --release --features tune --test tunables
#![cfg(feature = "tune")]

use ladya::search::params::{TunableSpec, TUNABLES};
use ladya::search::time::clock_budget;
use ladya::search::{Limits, SearchControl, Searcher};
use ladya::Position;
use std::time::Duration;

/// Openings, a middlegame with every kind of move, a position in check, pawn endings
/// (where null move is off) and a mate to find.
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqk1nr/pppp1ppp/8/4p3/1b1PP3/8/PPP2PPP/RNBQKBNR w KQkq - 1 3",
    "8/8/4k3/8/2pP4/2K5/8/8 b - d3 0 1",
    "8/5k2/8/3PK3/8/8/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
];

/// Searches every position to a depth where each pruning step and reduction is reached,
/// and checks that the answer is a legal move.
fn searches_soundly(searcher: &mut Searcher, setting: &str) {
    let limits = Limits {
        depth: Some(9),
        multipv: 1,
        ..Limits::default()
    };
    for fen in FENS {
        let pos = Position::from_fen(fen).unwrap();
        searcher.clear();
        let result = searcher.search(&pos, &limits, &SearchControl::default(), &mut |_| {});
        let best = result
            .best
            .unwrap_or_else(|| panic!("{setting}, {fen}: no move"));
        assert!(
            pos.legal_moves().contains(best),
            "{setting}, {fen}: illegal {best:?}"
        );
    }
}

/// Budgets for clocks from a blink to an hour, with and without increment and moves to go:
/// the soft limit within the hard one, the hard one within the clock.
fn budgets_fit_the_clock(setting: &str) {
    let overhead = Duration::from_millis(30);
    for time in [1u64, 100, 1000, 10_000, 3_600_000] {
        for inc in [0u64, 100, 5000] {
            for mtg in [None, Some(1), Some(40)] {
                let b = clock_budget(
                    Duration::from_millis(time),
                    Duration::from_millis(inc),
                    mtg,
                    overhead,
                );
                let limit = Duration::from_millis(time).saturating_sub(overhead);
                assert!(b.soft <= b.hard, "{setting}: {time} {inc} {mtg:?}: {b:?}");
                assert!(
                    b.hard <= limit.max(Duration::from_millis(1)),
                    "{setting}: {time} {inc} {mtg:?}: {b:?}"
                );
            }
        }
    }
}

fn reset(specs: &[TunableSpec]) {
    for spec in specs {
        spec.value.set(spec.default);
    }
}

#[test]
fn every_tunable_at_either_end_of_its_range_plays_legal_moves() {
    let mut searcher = Searcher::new(16);
    for spec in TUNABLES {
        for value in [spec.min, spec.max] {
            spec.value.set(value);
            let setting = format!("{} = {value}", spec.name);
            searches_soundly(&mut searcher, &setting);
            budgets_fit_the_clock(&setting);
        }
        spec.value.set(spec.default);
    }
    for end in ["min", "max"] {
        for spec in TUNABLES {
            spec.value
                .set(if end == "min" { spec.min } else { spec.max });
        }
        let setting = format!("every tunable at its {end}");
        searches_soundly(&mut searcher, &setting);
        budgets_fit_the_clock(&setting);
        reset(TUNABLES);
    }
}
