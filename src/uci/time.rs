//! Time management: turns `go`'s clock parameters into the search's soft and hard limits.
//!
//! The soft limit is the time the move should take (the search starts no iteration after
//! it); the hard limit is the most it may take (the search stops at once). The hard limit
//! is net of `Move Overhead` and never exceeds what is left on the clock minus the
//! overhead, so slow GUIs and pipes cannot make the engine lose on time.
//!
//! The soft limit is not: taking the overhead (30 ms) off every move's plan left half the
//! clock unused at 1+0.01 (0.84 s a game against Stockfish's 1.59 s). Instead a reserve is
//! kept back from the clock, a few increments' worth, so that a game living on its
//! increment (move 95 of a 30+0.5 game on a loaded machine) still has seconds in hand
//! rather than one.

use super::command::GoParams;
use crate::search::TimeBudget;
use crate::types::Color;
use std::time::Duration;

/// Moves assumed left in a sudden-death game when `movestogo` is not given.
pub const MOVES_TO_GO_GUESS: u64 = 30;
/// `movestogo` values above this are treated as this (plan as in sudden death).
pub const MAX_MOVES_TO_GO: u64 = 50;
/// Share of the increment the soft limit spends on this move.
pub const INCREMENT_SHARE: f64 = 0.75;
/// How many soft limits the hard limit allows (for unstable positions).
pub const HARD_PER_SOFT: f64 = 4.0;
/// The largest share of the remaining clock one move may take.
pub const MAX_CLOCK_SHARE: f64 = 0.5;
/// The largest share of the remaining clock the last move before the time control may take.
pub const LAST_MOVE_CLOCK_SHARE: f64 = 0.8;
/// The soft limit is at most this share of the hard limit.
pub const MAX_SOFT_PER_HARD: f64 = 0.7;
/// No budget is shorter than this: the search always needs a moment for depth 1.
pub const MIN_BUDGET: Duration = Duration::from_millis(1);
/// The clock reserve, in increments (plus two move overheads): the plan spends only what
/// is above it, so the reserve grows with the increment a long game lives on.
pub const RESERVE_INCREMENTS: f64 = 5.0;
/// The reserve never holds back more than this share of the clock.
pub const MAX_RESERVE_SHARE: f64 = 0.5;

/// The time budget of a `go`, or `None` when it has no time limit (depth, nodes, mate,
/// infinite). `side` is the side to move; `overhead` the `Move Overhead` option.
pub fn budget(go: &GoParams, side: Color, overhead: Duration) -> Option<TimeBudget> {
    let from_movetime = go.movetime.map(|ms| {
        let t = net(Duration::from_millis(ms), overhead);
        TimeBudget { soft: t, hard: t }
    });
    let from_clock = if go.has_clock() {
        let (mine, theirs, inc) = match side {
            Color::White => (go.wtime, go.btime, go.winc),
            Color::Black => (go.btime, go.wtime, go.binc),
        };
        // With only the opponent's clock (a GUI bug), assume ours is the same rather than
        // searching without limit.
        let time = mine.or(theirs).unwrap_or(0);
        Some(clock_budget(
            Duration::from_millis(time),
            Duration::from_millis(inc.unwrap_or(0)),
            go.movestogo,
            overhead,
        ))
    } else {
        None
    };
    match (from_movetime, from_clock) {
        (Some(a), Some(b)) => Some(TimeBudget {
            soft: a.soft.min(b.soft),
            hard: a.hard.min(b.hard),
        }),
        (a, b) => a.or(b),
    }
}

/// The budget for a move with `time` on the clock, `inc` added after it and `movestogo`
/// moves until the next time control (sudden death when `None`).
pub fn clock_budget(
    time: Duration,
    inc: Duration,
    movestogo: Option<u64>,
    overhead: Duration,
) -> TimeBudget {
    let mtg = movestogo
        .unwrap_or(MOVES_TO_GO_GUESS)
        .clamp(1, MAX_MOVES_TO_GO);
    let secs = time.as_secs_f64();
    let reserve = (inc.as_secs_f64() * RESERVE_INCREMENTS + 2.0 * overhead.as_secs_f64())
        .min(secs * MAX_RESERVE_SHARE);
    let ideal = (secs - reserve) / mtg as f64 + inc.as_secs_f64() * INCREMENT_SHARE;
    let cap_share = if mtg == 1 {
        LAST_MOVE_CLOCK_SHARE
    } else {
        MAX_CLOCK_SHARE
    };
    let cap = secs * cap_share;
    // Never plan past the clock itself, whatever the shares say.
    let limit = net(time, overhead);
    let hard = net(
        Duration::from_secs_f64((ideal * HARD_PER_SOFT).min(cap)),
        overhead,
    )
    .min(limit);
    let soft = Duration::from_secs_f64(ideal)
        .min(hard.mul_f64(MAX_SOFT_PER_HARD))
        .max(MIN_BUDGET)
        .min(hard);
    TimeBudget { soft, hard }
}

/// `t` minus the overhead, but at least `MIN_BUDGET`.
fn net(t: Duration, overhead: Duration) -> Duration {
    t.saturating_sub(overhead).max(MIN_BUDGET)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OVERHEAD: Duration = Duration::from_millis(30);

    fn go(f: impl FnOnce(&mut GoParams)) -> GoParams {
        let mut g = GoParams::default();
        f(&mut g);
        g
    }

    #[test]
    fn no_time_limit_without_clock_or_movetime() {
        assert_eq!(
            budget(&go(|g| g.depth = Some(5)), Color::White, OVERHEAD),
            None
        );
        assert_eq!(
            budget(&go(|g| g.infinite = true), Color::White, OVERHEAD),
            None
        );
    }

    #[test]
    fn movetime_minus_overhead() {
        let b = budget(&go(|g| g.movetime = Some(1000)), Color::White, OVERHEAD).unwrap();
        assert_eq!(b.hard, Duration::from_millis(970));
        let b = budget(&go(|g| g.movetime = Some(10)), Color::White, OVERHEAD).unwrap();
        assert_eq!(b.hard, MIN_BUDGET);
    }

    #[test]
    fn tiny_clocks_stay_tiny() {
        let b = budget(&go(|g| g.wtime = Some(100)), Color::White, OVERHEAD).unwrap();
        assert!(b.hard <= Duration::from_millis(20), "{b:?}");
        // Only Black's clock, White to move.
        let b = budget(&go(|g| g.btime = Some(100)), Color::White, OVERHEAD).unwrap();
        assert!(b.hard <= Duration::from_millis(20), "{b:?}");
        let b = budget(&go(|g| g.wtime = Some(0)), Color::White, OVERHEAD).unwrap();
        assert_eq!(b.hard, MIN_BUDGET);
    }

    #[test]
    fn budgets_are_sane() {
        for time in [1u64, 50, 100, 1000, 10_000, 60_000, 3_600_000] {
            for inc in [0u64, 10, 100, 1000, 5000] {
                for mtg in [None, Some(1), Some(2), Some(40), Some(500)] {
                    let b = clock_budget(
                        Duration::from_millis(time),
                        Duration::from_millis(inc),
                        mtg,
                        OVERHEAD,
                    );
                    assert!(b.soft <= b.hard, "{time} {inc} {mtg:?}: {b:?}");
                    let limit = Duration::from_millis(time).saturating_sub(OVERHEAD);
                    assert!(
                        b.hard <= limit.max(MIN_BUDGET),
                        "{time} {inc} {mtg:?}: {b:?}"
                    );
                }
            }
        }
        // A normal blitz move takes a reasonable slice.
        let b = clock_budget(
            Duration::from_secs(10),
            Duration::from_millis(100),
            None,
            OVERHEAD,
        );
        assert!(b.soft > Duration::from_millis(200) && b.soft < Duration::from_millis(700));
        // The last move before the control may use most of the clock.
        let b = clock_budget(Duration::from_secs(10), Duration::ZERO, Some(1), OVERHEAD);
        assert!(b.hard > Duration::from_secs(5) && b.hard < Duration::from_secs(9));
    }
}
