//! The search: its public interface (limits, control flags, events, results) and the
//! `Searcher` that runs it.
//!
//! The interface below (limits, control, events, results) is the contract the UCI layer,
//! bench and datagen are written against; keep it stable.
//!
//! Files: this one runs iterative deepening, aspiration windows and the root move list
//! (MultiPV, searchmoves, currmove); `negamax.rs` is the search below the root,
//! `qsearch.rs` the quiescence search, `tt.rs` the transposition table, `picker.rs` the
//! staged move ordering, `history.rs` what ordering learns, `see.rs` static exchange
//! evaluation, `legal.rs` the legality test for table moves, `params.rs` every tunable.

mod history;
mod legal;
mod negamax;
mod params;
mod picker;
mod qsearch;
mod see;
pub mod tt;

pub use legal::is_legal_fast;
pub use see::see_ge;

use crate::board::Position;
use crate::chess_move::Move;
use history::History;
use negamax::NO_SCORE;
use params::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tt::TranspositionTable;

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

/// Per-ply state of the current line.
#[derive(Clone, Copy)]
struct StackEntry {
    /// Static evaluation at this ply (`NO_SCORE` in check).
    eval: i32,
    /// The move into this ply was a null move.
    after_null: bool,
}

/// A root move with what the current and the last iteration found for it.
#[derive(Clone)]
struct RootMove {
    mv: Move,
    /// Score in the current iteration; `NO_SCORE` when not (yet) better than alpha.
    score: i32,
    /// Score after the previous iteration (the aspiration window's centre).
    prev_score: i32,
    /// The last score this move was given (kept when an iteration is interrupted).
    shown_score: i32,
    /// Its principal variation, starting with `mv`.
    pv: Vec<Move>,
}

/// The state of one running search: references to the searcher's tables, counters,
/// limits and the principal-variation table.
pub(crate) struct Search<'a> {
    tt: &'a TranspositionTable,
    history: &'a mut History,
    lmr: &'a [[i32; 64]; 64],
    control: &'a SearchControl,
    limits: &'a Limits,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// When the search started (for reported times).
    start: Instant,
    /// When the clock started: the search start, or the ponderhit.
    clock_start: Instant,
    /// Still pondering as far as the search knows.
    pondering: bool,
    /// Time limits apply only once the first iteration is complete.
    can_time_out: bool,
    /// Null-move pruning is off during its own verification search.
    nmp_allowed: bool,
    stack: Vec<StackEntry>,
    pv: Vec<[Move; MAX_PLY + 8]>,
    pv_len: [usize; MAX_PLY + 8],
}

impl Search<'_> {
    /// Looks at the node limit at every node, and at the stop flag, the pondering flag and
    /// the clock every `POLL_INTERVAL` nodes.
    #[inline]
    fn poll(&mut self) {
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
        if !self.nodes.is_multiple_of(POLL_INTERVAL) {
            return;
        }
        if self.control.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.refresh_pondering();
        if self.out_of_time(|b| b.hard) {
            self.stopped = true;
        }
    }

    /// Starts the clock at ponderhit.
    fn refresh_pondering(&mut self) {
        if self.pondering && !self.control.pondering.load(Ordering::Relaxed) {
            self.pondering = false;
            self.clock_start = Instant::now();
        }
    }

    /// True when the time limit picked by `which` has passed (never while pondering).
    fn out_of_time(&self, which: impl Fn(&TimeBudget) -> Duration) -> bool {
        !self.pondering
            && self.can_time_out
            && self
                .limits
                .time
                .is_some_and(|b| self.clock_start.elapsed() >= which(&b))
    }

    /// The score of a drawn position below the root, or `None`. A position repeated once
    /// inside the search is a draw (the side that could avoid it would); before the root
    /// only a third occurrence is. Checkmate on the hundredth ply wins over the fifty-move
    /// rule.
    fn draw_score(&self, pos: &Position, ply: usize, in_check: bool) -> Option<i32> {
        if pos.halfmove_clock() >= 100 {
            if in_check && pos.count_legal_moves() == 0 {
                return Some(-MATE + ply as i32);
            }
            return Some(0);
        }
        if pos.insufficient_material() || pos.repetitions(1, ply) || pos.repetitions(2, usize::MAX)
        {
            return Some(0);
        }
        None
    }

    /// The PV at `ply` becomes `mv` followed by the PV of `ply + 1`.
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = mv;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// Searches the root moves from `pv_idx` on within (`alpha`, `beta`). Each root move
    /// that is the first one or beats alpha gets its score and PV; the others get
    /// `NO_SCORE`, so a stable sort keeps them in their previous order.
    #[allow(clippy::too_many_arguments)]
    fn search_root(
        &mut self,
        pos: &mut Position,
        root: &mut [RootMove],
        pv_idx: usize,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        on_event: &mut dyn FnMut(SearchEvent),
    ) -> i32 {
        self.nodes += 1;
        self.pv_len[0] = 0;
        let mut best = NO_SCORE;
        for rm in root[pv_idx..].iter_mut() {
            rm.score = NO_SCORE;
        }
        #[allow(clippy::needless_range_loop)] // `i` is also the reported move number
        for i in pv_idx..root.len() {
            let mv = root[i].mv;
            if self.start.elapsed() >= Duration::from_millis(CURRMOVE_AFTER_MS) {
                on_event(SearchEvent::CurrMove {
                    depth: depth as u32,
                    mv,
                    number: i + 1,
                });
            }
            pos.make_move(mv);
            let mut score;
            if i == pv_idx {
                score = -self.negamax(pos, -beta, -alpha, depth - 1, 1);
            } else {
                score = -self.negamax(pos, -alpha - 1, -alpha, depth - 1, 1);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(pos, -beta, -alpha, depth - 1, 1);
                }
            }
            pos.unmake_move();
            if self.stopped {
                break;
            }
            if i == pv_idx || score > alpha {
                let rm = &mut root[i];
                rm.score = score;
                rm.shown_score = score;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
                best = best.max(score);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The `info` of one root move.
    fn info(&self, rm: &RootMove, depth: u32, multipv: usize, bound: Bound) -> SearchInfo {
        let score = rm.shown_score;
        SearchInfo {
            depth,
            seldepth: (self.seldepth as u32).max(depth),
            multipv,
            score: Score::from_internal(score),
            bound,
            nodes: self.nodes,
            time: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            pv: rm.pv.clone(),
        }
    }
}

/// Owns everything that lives between searches (transposition table, histories).
pub struct Searcher {
    tt: TranspositionTable,
    history: Box<History>,
    lmr: Box<[[i32; 64]; 64]>,
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Searcher {
        let mut lmr = Box::new([[0; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR;
                *r = v as i32;
            }
        }
        Searcher {
            tt: TranspositionTable::new(hash_mb),
            history: Box::default(),
            lmr,
        }
    }

    /// Resizes the transposition table (clears it).
    pub fn resize_hash(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
    }

    /// Forgets everything learnt (new game, `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
    }

    /// The transposition table's actual size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Transposition table use, per mille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

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
        let mut pos = pos.clone();
        // Material and piece-square sums are then kept by make/unmake.
        crate::eval::attach(&mut pos);
        self.tt.new_search();
        self.history.clear_killers();

        // The root moves: the legal ones, restricted to `searchmoves` when any of those
        // is legal; the TT move first.
        let legal = pos.legal_moves();
        let mut moves: Vec<Move> = legal
            .as_slice()
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.contains(m))
            .collect();
        if moves.is_empty() {
            moves = legal.as_slice().to_vec();
        }
        if let Some(e) = self.tt.probe(pos.key(), 0) {
            if let Some(i) = moves.iter().position(|&m| m == e.mv) {
                moves[..=i].rotate_right(1);
            }
        }
        let mut root: Vec<RootMove> = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: NO_SCORE,
                prev_score: NO_SCORE,
                shown_score: NO_SCORE,
                pv: vec![mv],
            })
            .collect();
        if root.is_empty() {
            return SearchResult {
                best: None,
                ponder: None,
                info: None,
                nodes: 0,
            };
        }

        let now = Instant::now();
        let pondering = control.pondering.load(Ordering::Relaxed);
        let mut s = Search {
            tt: &self.tt,
            history: &mut self.history,
            lmr: &self.lmr,
            control,
            limits,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            start: now,
            clock_start: now,
            pondering,
            can_time_out: false,
            nmp_allowed: true,
            stack: vec![
                StackEntry {
                    eval: NO_SCORE,
                    after_null: false
                };
                MAX_PLY + 8
            ],
            pv: vec![[Move::NONE; MAX_PLY + 8]; MAX_PLY + 8],
            pv_len: [0; MAX_PLY + 8],
        };
        let multipv = limits.multipv.clamp(1, root.len());
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut last_info: Option<SearchInfo> = None;
        let mut completed = 0;

        'deepening: for depth in 1..=max_depth {
            s.seldepth = 0;
            for rm in root.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                // Aspiration window: a narrow window around the last score, widened on
                // the side that failed until the score falls inside.
                let prev = root[pv_idx].prev_score;
                let mut delta = ASPIRATION_WINDOW;
                let (mut alpha, mut beta) =
                    if USE_ASPIRATION && depth >= ASPIRATION_MIN_DEPTH && prev.abs() < MATE_BOUND {
                        ((prev - delta).max(-MATE), (prev + delta).min(MATE))
                    } else {
                        (-MATE, MATE)
                    };
                loop {
                    let score = s.search_root(
                        &mut pos,
                        &mut root,
                        pv_idx,
                        alpha,
                        beta,
                        depth as i32,
                        on_event,
                    );
                    root[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if s.stopped {
                        break;
                    }
                    let bound = if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-MATE);
                        Bound::Upper
                    } else if score >= beta {
                        beta = (score + delta).min(MATE);
                        Bound::Lower
                    } else {
                        break;
                    };
                    on_event(SearchEvent::Info(s.info(
                        &root[pv_idx],
                        depth,
                        pv_idx + 1,
                        bound,
                    )));
                    delta += delta / 2;
                }
                root[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if s.stopped {
                    break 'deepening;
                }
            }
            completed = depth;
            s.can_time_out = true;
            for (i, rm) in root.iter().take(multipv).enumerate() {
                let info = s.info(rm, depth, i + 1, Bound::Exact);
                on_event(SearchEvent::Info(info.clone()));
                if i == 0 {
                    last_info = Some(info);
                }
            }

            // Stop early: a mate as short as asked for, the soft time limit, or a
            // single legal move (no need to think under a clock).
            if let (Some(m), Score::Mate(n)) = (limits.mate, Score::from_internal(root[0].score)) {
                if n > 0 && n as u32 <= m {
                    break;
                }
            }
            s.refresh_pondering();
            if s.out_of_time(|b| b.soft) {
                break;
            }
            if root.len() == 1 && limits.time.is_some() && !s.pondering {
                break;
            }
        }

        // After an interrupted iteration the root list is sorted by what it found: a move
        // that beat the previous best is trusted, otherwise the old order stands.
        let best = root[0].clone();
        let info = if best.shown_score != NO_SCORE {
            Some(s.info(&best, completed.max(1), 1, Bound::Exact))
        } else {
            last_info
        };
        let nodes = s.nodes;
        // The expected reply: from the PV, or else from the table (a PV cut short by a
        // table hit still leaves the reply stored), so pondering has a move to ponder on.
        let ponder = best.pv.get(1).copied().or_else(|| {
            pos.make_move(best.mv);
            let reply = self
                .tt
                .probe(pos.key(), 1)
                .map(|e| e.mv)
                .filter(|&mv| pos.is_legal(mv));
            pos.unmake_move();
            reply
        });
        SearchResult {
            best: Some(best.mv),
            ponder,
            info,
            nodes,
        }
    }
}
