//! The search: its public interface (limits, control flags, events, results) and the
//! `Searcher` that runs it.
//!
//! FIRST CUT (to be replaced by the search issue): plain iterative-deepening alpha-beta
//! without a transposition table. The interface below is the contract the UCI layer,
//! bench and datagen are written against; keep it stable.

use crate::board::Position;
use crate::chess_move::Move;
use crate::eval::evaluate;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Highest score; mate scores are `MATE - ply`.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The deepest iteration the search will start.
pub const MAX_DEPTH: u32 = 128;

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
    /// Stop once a mate in this many moves (or fewer) is found.
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
#[derive(Clone, Debug)]
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

/// Owns everything that lives between searches (transposition table, histories).
pub struct Searcher {
    hash_mb: usize,
    nodes: u64,
    start: Instant,
    stopped: bool,
    seldepth: u32,
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            hash_mb,
            nodes: 0,
            start: Instant::now(),
            stopped: false,
            seldepth: 0,
        }
    }

    /// Resizes the transposition table (clears it).
    pub fn resize_hash(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb;
    }

    /// Forgets everything learnt (new game, `Clear Hash`).
    pub fn clear(&mut self) {}

    /// Searches `pos` (whose move history counts for repetitions) within `limits`,
    /// reporting progress through `on_event`. Returns when a limit is reached or `stop`
    /// is set; it does not wait for `stop` under `go infinite` — the caller holds the
    /// `bestmove` back.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &SearchControl,
        on_event: &mut dyn FnMut(SearchEvent),
    ) -> SearchResult {
        let _ = self.hash_mb;
        let mut pos = pos.clone();
        self.nodes = 0;
        self.start = Instant::now();
        self.stopped = false;
        let mut root: Vec<Move> = pos.legal_moves().as_slice().to_vec();
        if !limits.searchmoves.is_empty() {
            root.retain(|m| limits.searchmoves.contains(m));
        }
        let mut result = SearchResult {
            best: root.first().copied(),
            ponder: None,
            info: None,
            nodes: 0,
        };
        if root.is_empty() {
            return result;
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let mut best = (-MATE - 1, root[0]);
            for (i, &mv) in root.clone().iter().enumerate() {
                pos.make_move(mv);
                let score = -self.alpha_beta(
                    &mut pos,
                    depth - 1,
                    1,
                    -MATE,
                    -best.0.max(-MATE),
                    limits,
                    control,
                );
                pos.unmake_move();
                if self.stopped && depth > 1 {
                    break;
                }
                if score > best.0 {
                    best = (score, mv);
                    root[..=i].rotate_right(1);
                    root[0] = mv;
                }
            }
            if self.stopped && depth > 1 {
                break;
            }
            let info = SearchInfo {
                depth,
                seldepth: self.seldepth.max(depth),
                multipv: 1,
                score: Score::from_internal(best.0),
                bound: Bound::Exact,
                nodes: self.nodes,
                time: self.start.elapsed(),
                hashfull: 0,
                pv: vec![best.1],
            };
            on_event(SearchEvent::Info(info.clone()));
            result.best = Some(best.1);
            result.info = Some(info);
            if let Some(budget) = limits.time {
                if !control.pondering.load(Ordering::Relaxed) && self.start.elapsed() >= budget.soft
                {
                    break;
                }
            }
            if let (Some(m), Score::Mate(n)) = (limits.mate, Score::from_internal(best.0)) {
                if n > 0 && n as u32 <= m {
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn alpha_beta(
        &mut self,
        pos: &mut Position,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        limits: &Limits,
        control: &SearchControl,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes % 2048 == 0 {
            let timed_out = limits.time.is_some_and(|b| {
                !control.pondering.load(Ordering::Relaxed) && self.start.elapsed() >= b.hard
            });
            if control.stop.load(Ordering::Relaxed) || timed_out {
                self.stopped = true;
            }
        }
        if limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if pos.halfmove_clock() >= 100
            || pos.repetitions(1, usize::MAX)
            || pos.insufficient_material()
        {
            return 0;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.in_check() {
                -MATE + ply as i32
            } else {
                0
            };
        }
        if depth == 0 {
            return evaluate(pos);
        }
        let mut best = -MATE;
        for &mv in &moves {
            pos.make_move(mv);
            let score = -self.alpha_beta(pos, depth - 1, ply + 1, -beta, -alpha, limits, control);
            pos.unmake_move();
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
