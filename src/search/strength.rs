//! Playing below full strength (`UCI_LimitStrength` / `UCI_Elo`, `Skill Level`).
//!
//! A weaker Ladya should lose the way a weaker player does: it sees less (a node budget
//! that shrinks as the Elo falls, so deep tactics escape it) and it picks among the moves
//! it thinks good rather than always the best (a choice among the top lines, each as
//! likely as `exp(-loss / temperature)`, the temperature growing as the Elo falls), so its
//! mistakes are plausible inaccuracies, not a queen left hanging beside perfect play. It
//! also takes its time: under a clock it answers after a human-like pause, never at once
//! and never long.
//!
//! The settings reach the node budget and temperature through `CALIBRATION`, which
//! `tools/calibrate_elo.py` fits by playing each setting against Stockfish 15.1 at the same
//! `UCI_Elo` at 10+0.1 (`docs/playing-weaker.md` has the table). The module's own scale is far from
//! Stockfish's, and moves with every stronger network (the same node budget plays better):
//! with network generation 39 the node budget and temperature of "1650" play about 1500,
//! and those of "3150" about 2450. So the settings map to the scale through the fitted
//! table, and the top of the range (`FULL_STRENGTH_ELO`) is where full strength scores
//! about half.

use super::interface::{Bound, Score, SearchInfo, TimeBudget};
use crate::chess_move::Move;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Duration;

/// The lowest `UCI_Elo`.
pub const MIN_ELO: u32 = 1320;
/// The highest `UCI_Elo` the option accepts.
pub const MAX_ELO: u32 = 3000;
/// From this `UCI_Elo` on the engine plays at full strength: the top of the calibration,
/// about what the full engine scores 50% against on Stockfish's scale at 10+0.1 (network
/// generation 39 scored 48.8% against `UCI_Elo` 2850 in 200 games).
pub const FULL_STRENGTH_ELO: u32 = 2850;
/// Node budget at `MIN_ELO`; it doubles every `NODES_DOUBLING_ELO`.
const NODES_AT_MIN_ELO: f64 = 400.0;
/// Elo for each doubling of the node budget.
const NODES_DOUBLING_ELO: f64 = 200.0;
/// Temperature of the move choice at `MIN_ELO`, in centipawns; it halves every
/// `TEMPERATURE_HALVING_ELO`.
const TEMPERATURE_AT_MIN_ELO: f64 = 150.0;
/// Elo for each halving of the temperature.
const TEMPERATURE_HALVING_ELO: f64 = 350.0;
/// Lines the choice is made among.
const CANDIDATE_LINES: usize = 4;
/// A limited engine thinks this share of its clock budget (with some variation)...
const THINK_SHARE: f64 = 0.6;
/// ...but not longer than this, whatever the clock.
const MAX_THINK: Duration = Duration::from_secs(8);
/// Mixed into the seed, so that seed 1 is not the same stream as other users of seed 1.
const SEED_SALT: u64 = 0x4c41_4459_4120_454c;
/// Fewest nodes a move is searched with, whatever the calibration asks.
const MIN_NODES: u64 = 16;
/// The calibration: `UCI_Elo` settings and the strength (on this module's own scale,
/// where `MIN_ELO` is `NODES_AT_MIN_ELO` nodes) each is played at, linear in between.
/// Fitted from `tools/calibrate_elo.py` runs against Stockfish at the same `UCI_Elo`
/// (10+0.1; every run is in `docs/playing-weaker.md`) with network generation 39: five
/// points of this scale, 30 games each, and the line through them (Stockfish's Elo = 446 +
/// 0.609 × this scale's), each setting read off the line.
const CALIBRATION: [(u32, u32); 6] = [
    (1400, 1566),
    (1700, 2058),
    (2000, 2551),
    (2300, 3043),
    (2600, 3535),
    (2850, 3945),
];

/// A strength limit: the Elo to play at and the seed of the move choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// Target Elo on Stockfish 15.1's `UCI_Elo` scale, `MIN_ELO..FULL_STRENGTH_ELO`.
    pub elo: u32,
    /// Seed of the move choice: the same seed, position and settings give the same move
    /// (0: a new seed for every search).
    pub seed: u64,
}

impl Strength {
    /// The limit for `elo`, or `None` where that is full strength.
    pub fn at(elo: u32, seed: u64) -> Option<Strength> {
        (elo < FULL_STRENGTH_ELO).then_some(Strength {
            elo: elo.max(MIN_ELO),
            seed,
        })
    }

    /// `Skill Level` 0-20 on the same scale: 20 is full strength, 0 is `MIN_ELO`.
    pub fn from_skill(level: u32, seed: u64) -> Option<Strength> {
        let level = level.min(20);
        let elo = MIN_ELO + (FULL_STRENGTH_ELO - MIN_ELO) * level / 20;
        Strength::at(elo, seed)
    }

    /// The strength the setting is played at, through the calibration, above `MIN_ELO`
    /// (negative where the calibration asks for less).
    fn above_min(&self) -> f64 {
        let x = f64::from(self.elo);
        let table = CALIBRATION.map(|(a, b)| (f64::from(a), f64::from(b)));
        let internal = match table.windows(2).find(|w| x <= w[1].0) {
            Some(w) => w[0].1 + (w[1].1 - w[0].1) * (x - w[0].0) / (w[1].0 - w[0].0),
            None => table[table.len() - 1].1,
        };
        internal - f64::from(MIN_ELO)
    }

    /// Nodes searched for one move.
    pub fn node_budget(&self) -> u64 {
        ((NODES_AT_MIN_ELO * (self.above_min() / NODES_DOUBLING_ELO).exp2()) as u64).max(MIN_NODES)
    }

    /// Temperature of the move choice, in centipawns.
    pub fn temperature(&self) -> f64 {
        TEMPERATURE_AT_MIN_ELO * (-self.above_min() / TEMPERATURE_HALVING_ELO).exp2()
    }

    /// Lines to search (MultiPV) for the choice.
    pub fn lines(&self) -> usize {
        CANDIDATE_LINES
    }

    /// How long to take over a move with `budget` from the clock (none without a clock:
    /// fixed-depth, node or analysis searches answer as soon as they are done).
    pub fn think_time(&self, budget: Option<TimeBudget>, key: u64) -> Duration {
        let Some(b) = budget else {
            return Duration::ZERO;
        };
        // Between 70% and 130% of the planned share, so the pauses are not all alike.
        let variation = 0.7 + 0.6 * (self.rng(key ^ 0x5eed).next_u32() as f64 / u32::MAX as f64);
        b.soft
            .mul_f64(THINK_SHARE * variation)
            .min(MAX_THINK)
            .min(b.hard)
    }

    fn rng(&self, key: u64) -> Xoshiro256PlusPlus {
        let seed = if self.seed == 0 {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        } else {
            self.seed
        };
        Xoshiro256PlusPlus::seed_from_u64(seed ^ key ^ SEED_SALT)
    }

    /// Picks the move to play among the final `lines` of a search of the position with
    /// Zobrist key `key` (exact scores only); `None` when there are none.
    pub fn choose(&self, lines: &[SearchInfo], key: u64) -> Option<usize> {
        let candidates: Vec<(usize, f64)> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.bound == Bound::Exact && !l.pv.is_empty())
            .map(|(i, l)| (i, centipawns(l.score)))
            .collect();
        let best = candidates.iter().map(|c| c.1).fold(f64::MIN, f64::max);
        let t = self.temperature().max(1.0);
        let weights: Vec<f64> = candidates
            .iter()
            .map(|c| ((c.1 - best) / t).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        if candidates.is_empty() || total <= 0.0 {
            return None;
        }
        let mut x = self.rng(key).next_u64() as f64 / u64::MAX as f64 * total;
        for (c, w) in candidates.iter().zip(&weights) {
            if x < *w {
                return Some(c.0);
            }
            x -= w;
        }
        candidates.last().map(|c| c.0)
    }
}

/// A score as centipawns for the choice: mates far beyond any evaluation, nearer ones
/// better.
fn centipawns(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => f64::from(cp),
        Score::Mate(n) if n > 0 => 100_000.0 - f64::from(n),
        Score::Mate(n) => -100_000.0 - f64::from(n),
    }
}

/// The move of a chosen line.
pub fn line_move(line: &SearchInfo) -> Option<Move> {
    line.pv.first().copied()
}

impl super::Searcher {
    /// Searches `pos` as [`Searcher::search`] does, but at `strength`: within its node
    /// budget, over its candidate lines, playing the move its choice picks, and under a
    /// clock not before its think time (or `stop`).
    pub fn search_at_strength(
        &mut self,
        pos: &crate::board::Position,
        limits: &super::Limits,
        strength: Strength,
        control: &super::SearchControl,
        on_event: &mut dyn FnMut(super::SearchEvent),
    ) -> super::SearchResult {
        let start = std::time::Instant::now();
        let budget = strength.node_budget();
        let limited = super::Limits {
            nodes: Some(limits.nodes.map_or(budget, |n| n.min(budget))),
            multipv: limits.multipv.max(strength.lines()),
            ..limits.clone()
        };
        let mut latest: Vec<Option<SearchInfo>> = vec![None; limited.multipv];
        let mut result = self.search(pos, &limited, control, &mut |event| {
            if let super::SearchEvent::Info(info) = &event {
                if info.bound == Bound::Exact {
                    if let Some(slot) = latest.get_mut(info.multipv.saturating_sub(1)) {
                        *slot = Some(info.clone());
                    }
                }
            }
            on_event(event);
        });
        // Each move once, as its latest line has it.
        let mut lines: Vec<SearchInfo> = Vec::new();
        for line in latest.into_iter().flatten() {
            if !lines.iter().any(|l| l.pv.first() == line.pv.first()) {
                lines.push(line);
            }
        }
        if let Some(i) = strength.choose(&lines, pos.key()) {
            let mut line = lines.swap_remove(i);
            line.multipv = 1;
            result.best = line_move(&line);
            result.ponder = line.pv.get(1).copied();
            result.info = Some(line);
        }
        let think = strength.think_time(limits.time, pos.key());
        while start.elapsed() < think
            && !control.stop.load(std::sync::atomic::Ordering::Relaxed)
            && !control.pondering.load(std::sync::atomic::Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(cp: i32, mv: u16) -> SearchInfo {
        SearchInfo {
            depth: 5,
            seldepth: 5,
            multipv: 1,
            score: Score::Cp(cp),
            bound: Bound::Exact,
            nodes: 0,
            tbhits: 0,
            time: Duration::ZERO,
            hashfull: 0,
            pv: vec![Move::from_bits(mv)],
        }
    }

    #[test]
    fn weaker_settings_see_less_and_choose_more_loosely() {
        let low = Strength::at(MIN_ELO, 1).unwrap();
        let high = Strength::at(2300, 1).unwrap();
        assert!(low.node_budget() < high.node_budget());
        assert!(low.temperature() > high.temperature());
        assert!(Strength::at(FULL_STRENGTH_ELO, 1).is_none());
        assert!(Strength::from_skill(20, 1).is_none());
        assert_eq!(Strength::from_skill(0, 1).unwrap().elo, MIN_ELO);
    }

    #[test]
    fn the_choice_favours_better_moves_and_repeats_with_a_seed() {
        let lines = [line(50, 1), line(30, 2), line(-100, 3), line(-400, 4)];
        let s = Strength::at(1600, 7).unwrap();
        assert_eq!(s.choose(&lines, 42), s.choose(&lines, 42));
        let mut counts = [0; 4];
        for key in 0..2000 {
            counts[s.choose(&lines, key).unwrap()] += 1;
        }
        assert!(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] >= counts[3]);
        assert!(counts[1] > 100, "{counts:?}");
        assert!(
            counts[3] < 20,
            "a 4-pawn blunder chosen {} times",
            counts[3]
        );
        // Near full strength the best move nearly always.
        let strong = Strength::at(2700, 7).unwrap();
        let best = (0..1000)
            .filter(|&k| strong.choose(&lines, k) == Some(0))
            .count();
        assert!(best > 650, "{best}");
    }
}
