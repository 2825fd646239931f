//! Time management: turns the clock numbers of a `go` into the search's soft and hard
//! limits. It is the search's concern (how long this move deserves); the UCI layer only
//! parses the numbers into a [`Clock`].
//!
//! The soft limit is the time the move should take (the search starts no iteration after
//! it); the hard limit is the most it may take (the search stops at once). The hard limit
//! is net of `Move Overhead` and never exceeds what is left on the clock minus the
//! overhead, so slow GUIs and pipes cannot make the engine lose on time. A fixed
//! `movetime` has no clock to lose on: it keeps back only [`MOVETIME_MARGIN`].
//!
//! The soft limit is not: taking the overhead (30 ms) off every move's plan left half the
//! clock unused at 1+0.01 (0.84 s a game against Stockfish's 1.59 s). Instead a reserve is
//! kept back from the clock, a few increments' worth, so that a game living on its
//! increment (move 95 of a 30+0.5 game on a loaded machine) still has seconds in hand
//! rather than one.
//!
//! After each iteration the soft limit is stretched or shrunk by what the search found
//! ([`soft_scale`]): a best move that just changed, one the search spent few of its root
//! nodes on, or a falling score asks for more time; a best move that held for several
//! iterations and took most of the nodes asks for less. The hard limit stays as it was,
//! and a fixed `movetime` is left whole. An earlier form (the first two factors only,
//! `(1.5 - share) * 1.35` and `1.6, 1.35, 1.15, 1.0, 0.92` by iterations held, from depth
//! 6) measured +4.3 +- 23.5 Elo at 4+0.04 (320 games, undecided); docs/strength.md has
//! this one's measurement.

use super::params::{
    TM_HARD_PER_SOFT, TM_INCREMENT_SHARE, TM_MOVES_TO_GO, TM_NODES_BASE, TM_NODES_GAIN,
    TM_RESERVE_INCREMENTS, TM_SCORE_DROP_GAIN, TM_SCORE_DROP_MAX, TM_SOFT_PER_HARD,
    TM_STABILITY_STEP, TM_STABLE_SCALE, TM_UNSTABLE_SCALE,
};
use super::TimeBudget;
use std::time::Duration;

/// The clock numbers of a `go`, from the side to move's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// A fixed time for this move (`movetime`).
    pub movetime: Option<Duration>,
    /// Time left on the mover's clock, when the game is played on a clock.
    pub time: Option<Duration>,
    /// The mover's increment.
    pub inc: Duration,
    /// Moves until the next time control (sudden death when `None`).
    pub movestogo: Option<u64>,
}

/// `movestogo` values above this are treated as this (plan as in sudden death).
pub const MAX_MOVES_TO_GO: u64 = 50;
/// The largest share of the remaining clock one move may take.
pub const MAX_CLOCK_SHARE: f64 = 0.5;
/// The largest share of the remaining clock the last move before the time control may take.
pub const LAST_MOVE_CLOCK_SHARE: f64 = 0.8;
/// No budget is shorter than this: the search always needs a moment for depth 1.
pub const MIN_BUDGET: Duration = Duration::from_millis(1);
/// The reserve never holds back more than this share of the clock.
pub const MAX_RESERVE_SHARE: f64 = 0.5;
/// What a fixed `movetime` keeps back: the moment between the search's stop and the
/// `bestmove` line leaving the engine. `Move Overhead` is for the clock (a GUI's and a
/// network's lag eat into the time left); a fixed move time has no clock to lose on, and
/// people timing `go movetime 300` expect an answer after about 300 ms, as Stockfish gives.
pub const MOVETIME_MARGIN: Duration = Duration::from_millis(2);

/// The time budget of a move, or `None` when it has no time limit (depth, nodes, mate,
/// infinite); `overhead` is the `Move Overhead` option.
pub fn budget(clock: &Clock, overhead: Duration) -> Option<TimeBudget> {
    let from_movetime = clock.movetime.map(|t| {
        let t = net(t, MOVETIME_MARGIN);
        TimeBudget { soft: t, hard: t }
    });
    let from_clock = clock
        .time
        .map(|time| clock_budget(time, clock.inc, clock.movestogo, overhead));
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
    // The tunables (`params`), as the shares they stand for. The clock reserve is a few
    // increments' worth (plus two move overheads): the plan spends only what is above it,
    // so the reserve grows with the increment a long game lives on.
    let moves_to_go = TM_MOVES_TO_GO.get() as u64;
    let increment_share = f64::from(TM_INCREMENT_SHARE.get()) / 1000.0;
    let hard_per_soft = f64::from(TM_HARD_PER_SOFT.get()) / 100.0;
    let soft_per_hard = f64::from(TM_SOFT_PER_HARD.get()) / 1000.0;
    let reserve_increments = f64::from(TM_RESERVE_INCREMENTS.get()) / 100.0;
    let mtg = movestogo.unwrap_or(moves_to_go).clamp(1, MAX_MOVES_TO_GO);
    let secs = time.as_secs_f64();
    let reserve = (inc.as_secs_f64() * reserve_increments + 2.0 * overhead.as_secs_f64())
        .min(secs * MAX_RESERVE_SHARE);
    let ideal = (secs - reserve) / mtg as f64 + inc.as_secs_f64() * increment_share;
    let cap_share = if mtg == 1 {
        LAST_MOVE_CLOCK_SHARE
    } else {
        MAX_CLOCK_SHARE
    };
    let cap = secs * cap_share;
    // Never plan past the clock itself, whatever the shares say.
    let limit = net(time, overhead);
    let hard = net(
        Duration::from_secs_f64((ideal * hard_per_soft).min(cap)),
        overhead,
    )
    .min(limit);
    let soft = Duration::from_secs_f64(ideal)
        .min(hard.mul_f64(soft_per_hard))
        .max(MIN_BUDGET)
        .min(hard);
    TimeBudget { soft, hard }
}

/// What the iterations so far say about the root, for [`soft_scale`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootTrend {
    /// Iterations in a row that ended with the same best move (0: it just changed).
    pub best_move_stability: u32,
    /// The best move's share of the nodes searched under the root moves, 0 to 1.
    pub best_move_node_share: f64,
    /// How far the best score fell since the last iteration, in centipawns (0 if it rose).
    pub score_drop: i32,
}

/// The smallest and largest factor [`soft_scale`] gives, whatever the tunables say.
pub const SOFT_SCALE_RANGE: (f64, f64) = (0.4, 3.0);

/// The factor the soft limit is multiplied by after an iteration that ended in `trend`.
/// Why each part: a best move that keeps changing, or one the search found hard to keep
/// (a small share of the nodes: the other moves needed long searches to refute), is not
/// settled, and another iteration may change it; a falling score means trouble the next
/// iteration may find a way out of.
pub fn soft_scale(trend: &RootTrend) -> f64 {
    let stability = (f64::from(TM_UNSTABLE_SCALE.get())
        - f64::from(TM_STABILITY_STEP.get()) * f64::from(trend.best_move_stability))
    .max(f64::from(TM_STABLE_SCALE.get()))
        / 100.0;
    let share = trend.best_move_node_share.clamp(0.0, 1.0);
    let nodes =
        (f64::from(TM_NODES_BASE.get()) / 100.0 - share) * (f64::from(TM_NODES_GAIN.get()) / 100.0);
    let drop = trend.score_drop.clamp(0, TM_SCORE_DROP_MAX.get());
    let falling = 1.0 + f64::from(drop * TM_SCORE_DROP_GAIN.get()) / 1000.0;
    (stability * nodes * falling).clamp(SOFT_SCALE_RANGE.0, SOFT_SCALE_RANGE.1)
}

/// The soft limit of `budget` multiplied by `scale`, never past the hard limit. A budget
/// whose soft limit is its hard one (a fixed `movetime`) keeps it: that time was asked for.
pub fn scaled_soft(budget: &TimeBudget, scale: f64) -> Duration {
    if budget.soft >= budget.hard {
        return budget.soft;
    }
    budget.soft.mul_f64(scale).min(budget.hard)
}

/// `t` minus the overhead (or margin), but at least `MIN_BUDGET`.
fn net(t: Duration, overhead: Duration) -> Duration {
    t.saturating_sub(overhead).max(MIN_BUDGET)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OVERHEAD: Duration = Duration::from_millis(30);

    fn ms(t: u64) -> Option<Duration> {
        Some(Duration::from_millis(t))
    }

    fn trend(stability: u32, share: f64, drop: i32) -> RootTrend {
        RootTrend {
            best_move_stability: stability,
            best_move_node_share: share,
            score_drop: drop,
        }
    }

    #[test]
    fn unsettled_roots_get_more_time_than_settled_ones() {
        let settled = soft_scale(&trend(8, 0.95, 0));
        let changed = soft_scale(&trend(0, 0.95, 0));
        let contested = soft_scale(&trend(8, 0.3, 0));
        let falling = soft_scale(&trend(8, 0.95, 40));
        assert!(settled < 1.0, "{settled}");
        for more in [changed, contested, falling] {
            assert!(more > settled, "{more} <= {settled}");
        }
        assert!(soft_scale(&trend(1, 0.5, 0)) > soft_scale(&trend(2, 0.5, 0)));
        assert!(soft_scale(&trend(3, 0.4, 0)) > soft_scale(&trend(3, 0.6, 0)));
        // A rising score is no reason to think longer; a collapse counts only so far.
        assert_eq!(
            soft_scale(&trend(3, 0.6, -50)),
            soft_scale(&trend(3, 0.6, 0))
        );
        assert_eq!(
            soft_scale(&trend(0, 0.0, 10_000)),
            soft_scale(&trend(0, 0.0, TM_SCORE_DROP_MAX.get()))
        );
        for s in [0, 1, 5, 100] {
            for share in [-1.0, 0.0, 0.5, 1.0, 2.0] {
                for drop in [0, 30, 30_000] {
                    let f = soft_scale(&trend(s, share, drop));
                    assert!(
                        (SOFT_SCALE_RANGE.0..=SOFT_SCALE_RANGE.1).contains(&f),
                        "{f}"
                    );
                }
            }
        }
    }

    #[test]
    fn scaling_stays_within_the_hard_limit_and_leaves_movetime_alone() {
        let clock = clock_budget(
            Duration::from_secs(10),
            Duration::from_millis(100),
            None,
            OVERHEAD,
        );
        assert!(scaled_soft(&clock, 0.5) < clock.soft);
        assert!(scaled_soft(&clock, 2.0) > clock.soft);
        assert_eq!(scaled_soft(&clock, 100.0), clock.hard);
        let movetime = budget(
            &Clock {
                movetime: ms(1000),
                ..Clock::default()
            },
            OVERHEAD,
        )
        .unwrap();
        for scale in [0.4, 1.0, 3.0] {
            assert_eq!(scaled_soft(&movetime, scale), movetime.soft);
        }
    }

    #[test]
    fn no_time_limit_without_clock_or_movetime() {
        assert_eq!(budget(&Clock::default(), OVERHEAD), None);
    }

    #[test]
    fn movetime_keeps_only_its_margin_whatever_the_overhead() {
        let at = |t| Clock {
            movetime: ms(t),
            ..Clock::default()
        };
        for overhead in [Duration::ZERO, OVERHEAD, Duration::from_millis(500)] {
            let b = budget(&at(1000), overhead).unwrap();
            assert_eq!(b.hard, Duration::from_millis(1000) - MOVETIME_MARGIN);
            assert_eq!(b.soft, b.hard);
        }
        assert_eq!(budget(&at(1), OVERHEAD).unwrap().hard, MIN_BUDGET);
    }

    #[test]
    fn tiny_clocks_stay_tiny() {
        let on = |t| Clock {
            time: ms(t),
            ..Clock::default()
        };
        let b = budget(&on(100), OVERHEAD).unwrap();
        assert!(b.hard <= Duration::from_millis(20), "{b:?}");
        assert_eq!(budget(&on(0), OVERHEAD).unwrap().hard, MIN_BUDGET);
    }

    #[test]
    fn movetime_and_clock_take_the_tighter() {
        let clock = Clock {
            movetime: ms(5000),
            time: ms(1000),
            ..Clock::default()
        };
        let b = budget(&clock, OVERHEAD).unwrap();
        assert!(b.hard < Duration::from_millis(600), "{b:?}");
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
