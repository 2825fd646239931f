//! The contract the UCI layer, bench and datagen are written against: what bounds a
//! search, the flags that steer it while it runs, and what it reports. Keep it stable.

use super::{MATE, MATE_BOUND};
use crate::chess_move::Move;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Time limits the search must obey, already net of the move overhead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Stop the search at once after this.
    pub hard: Duration,
}

/// What bounds a search. All limits that are set apply; the first reached stops it.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum iteration depth.
    pub depth: Option<u32>,
    /// Maximum number of nodes (an exact limit).
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves (or fewer) is found; without a depth limit the
    /// iterations also end at 2N + `MATE_SEARCH_EXTRA_PLIES` plies.
    pub mate: Option<u32>,
    /// Time limits (from `movetime` or the clock), none for fixed-depth or infinite searches.
    pub time: Option<TimeBudget>,
    /// Only these root moves are searched (all when empty).
    pub searchmoves: Vec<Move>,
    /// How many principal variations to report (at least 1).
    pub multipv: usize,
}

/// Flags the UCI layer flips while a search runs; the search polls them every few
/// thousand nodes.
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Set to stop the search as soon as possible.
    pub stop: AtomicBool,
    /// True while pondering: time limits do not apply until it turns false (ponderhit).
    pub pondering: AtomicBool,
}

/// A score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves; negative when the side to move gets mated.
    Mate(i32),
}

impl Score {
    /// The UCI score of an internal search score.
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

/// Whether a reported score is exact or only a bound (aspiration-window failures).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// One principal variation of one iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of this line (MultiPV).
    pub multipv: usize,
    /// The score.
    pub score: Score,
    /// Exact or bound.
    pub bound: Bound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Tablebase probes that answered, so far.
    pub tbhits: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    /// The principal variation; every move legal in sequence.
    pub pv: Vec<Move>,
}

/// What the search reports while it runs. Only the UCI layer turns these into text.
#[derive(Clone, Debug)]
pub enum SearchEvent {
    /// A finished (or bounded) line of an iteration.
    Info(SearchInfo),
    /// The root move being searched (reported after the first second).
    CurrMove {
        /// Iteration depth.
        depth: u32,
        /// The move.
        mv: Move,
        /// 1-based position in the root move list.
        number: usize,
    },
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply, when known.
    pub ponder: Option<Move>,
    /// The last reported line of the best move, for the final `info` before `bestmove`.
    pub info: Option<SearchInfo>,
    /// Nodes searched.
    pub nodes: u64,
}
