//! The search, in the vocabulary of Stockfish and Viridithas: the [`Searcher`] (Stockfish's
//! thread pool) owns what lives between searches: the `SharedState` every thread
//! reads (transposition table, reductions, network, tablebase settings, the stop flag and
//! counters of the running search), a `ThreadData` per thread (histories,
//! accumulators), and the helpers' parked [`pool::SearchThread`]s. For a search, each
//! thread makes a `Worker` from its `ThreadData` and the shared state and runs iterative
//! deepening with it; the main thread's worker reports and decides.
//!
//! Files: `interface.rs` is the contract the UCI layer, bench and datagen are written
//! against (limits, control flags, events, results; keep it stable); `root.rs` runs
//! iterative deepening, aspiration windows and the root move list (MultiPV, searchmoves,
//! currmove), and starts the helpers; `thread.rs` holds `SharedState` and `ThreadData`;
//! `pool.rs` the parked threads; this one the `Searcher` and the `Worker` (clock, draws,
//! PV); `negamax.rs` is the search below the root, `qsearch.rs` the quiescence search,
//! `tt.rs` the transposition table, `picker.rs` the staged move ordering, `history.rs` what
//! ordering learns, `see.rs` static exchange evaluation, `legal.rs` the legality test for
//! table moves, `params/` every tunable.

mod correction;
mod history;
mod interface;
mod legal;
mod negamax;
pub mod params;
mod picker;
pub mod pool;
mod qsearch;
mod root;
mod see;
pub mod strength;
mod tablebase;
mod thread;
pub mod time;
pub mod tt;
pub mod wdl;

pub use interface::*;
pub use legal::is_legal_fast;
pub use see::see_ge;
pub use strength::Strength;
pub use tablebase::TablebaseSettings;

use crate::board::Position;
use crate::chess_move::Move;
use crate::nnue::{AccumulatorStack, Network};
use crossbeam_channel::Receiver;
use history::{History, PieceTo};
use params::*;
use pool::{Priority, SearchThread};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use thread::{SharedState, ThreadData};
use tt::TranspositionTable;

/// Highest score; mate scores are `MATE - ply`.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// A win the tablebases prove, `TB_WIN - ply`: below every mate, above every evaluation.
pub const TB_WIN: i32 = MATE_BOUND - 256;
/// Scores beyond this are decided: a mate, or a tablebase win or loss. Pruning that
/// trades exactness for speed leaves them alone.
pub const DECISIVE: i32 = TB_WIN - params::MAX_PLY as i32;
/// The deepest iteration the search will start.
pub const MAX_DEPTH: u32 = 128;

/// Per-ply state of the current line.
#[derive(Clone, Copy)]
struct StackEntry {
    /// Static evaluation at this ply (`NO_SCORE` in check).
    eval: i32,
    /// The move into this ply was a null move.
    after_null: bool,
    /// The move left out of this node's search (the singular-extension test), or `NONE`.
    excluded: Move,
    /// The move into this ply, if it was a real move (for continuation history).
    moved: Option<PieceTo>,
}

/// One thread's search (Stockfish's `Search::Worker`): its [`ThreadData`] borrowed for the
/// search, the [`SharedState`] every thread reads, the limits, and what this search alone
/// keeps (counters, clock, the line's stack, the principal variation).
pub(crate) struct Worker<'a> {
    /// What every thread of the search shares: table, reductions, network, tablebases.
    shared: &'a SharedState,
    history: &'a mut History,
    /// The network's accumulators along the current line.
    acc: &'a mut AccumulatorStack,
    control: &'a SearchControl,
    limits: &'a Limits,
    /// `Some(n)` for the n-th helper thread of a parallel search, `None` for the main one.
    helper: Option<usize>,
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
    /// Depth of the current iteration.
    root_depth: i32,
    stack: Vec<StackEntry>,
    /// Tablebase probes that answered (the main thread's; helpers count in `shared`).
    tb_hits: u64,
    pv: Vec<[Move; MAX_PLY + 8]>,
    pv_len: [usize; MAX_PLY + 8],
}

impl Worker<'_> {
    /// Makes `mv`, keeping the network's accumulators in step.
    #[inline(always)]
    fn make(&mut self, pos: &mut Position, mv: Move) {
        if self.shared.net.is_some() {
            self.acc.push_move(pos, mv);
        }
        pos.make_move(mv);
        self.shared.tt.prefetch(pos.key());
    }

    /// Takes back the move made with [`Worker::make`].
    #[inline(always)]
    fn unmake(&mut self, pos: &mut Position) {
        pos.unmake_move();
        if self.shared.net.is_some() {
            self.acc.pop();
        }
    }

    /// The moves one and two plies before `ply`, for continuation history.
    #[inline]
    fn cont_keys(&self, ply: usize) -> history::ContKeys {
        [
            self.stack[ply].moved,
            ply.checked_sub(1).and_then(|p| self.stack[p].moved),
        ]
    }

    /// Makes a null move, keeping the accumulators in step.
    #[inline(always)]
    fn make_null(&mut self, pos: &mut Position) {
        if self.shared.net.is_some() {
            self.acc.push_null();
        }
        pos.make_null_move();
        self.shared.tt.prefetch(pos.key());
    }

    /// Takes back the null move made with [`Worker::make_null`].
    #[inline(always)]
    fn unmake_null(&mut self, pos: &mut Position) {
        pos.unmake_null_move();
        if self.shared.net.is_some() {
            self.acc.pop();
        }
    }

    /// The static evaluation of `pos` for the side to move: the network's when one is
    /// set, else the hand-crafted one (and in bare-king endings, for its mop-up).
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        match self.shared.net.as_deref() {
            Some(net) if !crate::nnue::bare_king_ending(pos) => {
                debug_assert!(self.acc.matches_refresh(net, pos), "{}", pos.to_fen());
                self.acc.evaluate(net, pos)
            }
            _ => crate::eval::evaluate(pos),
        }
    }

    /// The static evaluation of `pos`, from its table entry when that has one (entries
    /// a tablebase probe wrote have none: their eval is `NO_SCORE`).
    fn static_eval(&mut self, pos: &Position, entry: Option<tt::TtEntry>) -> i32 {
        match entry {
            Some(e) if e.eval != negamax::NO_SCORE => e.eval,
            _ => self.evaluate(pos),
        }
    }

    /// `raw` (a static evaluation of `pos`, side to move's view) plus what searches of
    /// the same pawn structure found it misses by (`correction.rs`), kept clear of the
    /// decisive scores. Not where one side has a bare king: there the evaluation is the
    /// mop-up's gradient towards the mating corner, a few centipawns a square, and every
    /// such position shares one pawn structure (often none), so the entry would drown
    /// the gradient in noise (K+B+N mates failed with it, `tests/endgames.rs`).
    #[inline]
    fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        if !corrects(pos) {
            return raw;
        }
        let c = self.history.correction.correction(pos);
        fifty_move_scaled(pos, raw + c).clamp(-DECISIVE + 1, DECISIVE - 1)
    }

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
        if self.helper.is_some() {
            self.shared
                .helper_nodes
                .fetch_add(POLL_INTERVAL, Ordering::Relaxed);
            if self.shared.helpers_stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
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
}

/// `eval` shrunk towards a draw as the fifty-move count rises: an advantage that has
/// made no capture or pawn move for many plies is worth less, since the rule will end it,
/// and the search, seeing its score fall, prefers the line that makes progress.
#[inline]
fn fifty_move_scaled(pos: &Position, eval: i32) -> i32 {
    let left = FIFTY_MOVE_SCALE_PLIES - pos.halfmove_clock() as i32;
    eval * left / FIFTY_MOVE_SCALE_PLIES
}

/// Whether correction history reads and learns in `pos`: switched on, and not where a
/// bare king leaves the evaluation to the mop-up (see [`Worker::corrected`]).
#[inline]
fn corrects(pos: &Position) -> bool {
    USE_CORRECTION_HISTORY && !crate::nnue::bare_king_ending(pos)
}

/// A node's best score and move so far, and the lower edge of its window, which a move
/// that scores above it raises (fail-soft: the best score may stay below it).
struct NodeBest {
    score: i32,
    mv: Move,
    alpha: i32,
}

/// What a move's score did to its node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Raised {
    /// Nothing: not above alpha (perhaps a better fail-low score, which is kept).
    Nothing,
    /// It beat alpha: the new best line.
    Alpha,
    /// It reached beta: the node fails high.
    Beta,
}

impl NodeBest {
    /// Takes the `score` of `mv` in a node whose upper edge is `beta`.
    #[inline]
    fn take(&mut self, mv: Move, score: i32, beta: i32) -> Raised {
        if score <= self.score {
            return Raised::Nothing;
        }
        self.score = score;
        if score <= self.alpha {
            return Raised::Nothing;
        }
        self.mv = mv;
        self.alpha = score;
        if score >= beta {
            Raised::Beta
        } else {
            Raised::Alpha
        }
    }
}

/// Stack of each search thread: deep enough for `MAX_PLY` plies of recursion.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;
/// Most search threads (`Threads`).
pub const MAX_THREADS: usize = 256;

/// Stops the helper threads of a searcher's running search from another thread (`stop`
/// in UCI): on a machine with fewer cores than threads the main thread may wait a time
/// slice to see its own stop flag, and the helpers should not hold the cores meanwhile.
#[derive(Clone, Debug)]
pub struct HelperStop(Arc<AtomicBool>);

impl HelperStop {
    /// Tells the helpers to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Owns everything that lives between searches: the state the threads share
/// ([`SharedState`]: transposition table, network, tablebase settings), what each thread
/// owns ([`ThreadData`]: the histories and accumulators of the main thread and of each
/// helper), and the helpers' threads. Lazy SMP: helpers search the same tree through the
/// shared table; the main thread decides and reports. (Stockfish's `ThreadPool`.)
pub struct Searcher {
    /// What every thread reads; changed only while no helper holds it.
    shared: Arc<SharedState>,
    /// The main thread's own state.
    main: ThreadData,
    /// The helpers' own states between searches.
    helpers: Vec<ThreadData>,
    /// The helpers' threads, parked between searches (`threads - 1` of them).
    helper_threads: Vec<SearchThread>,
    /// Helpers of the last search, told to stop and perhaps still finishing: the main
    /// thread answers without waiting for them, and they are taken back when the
    /// searcher is next used.
    finishing: Vec<Receiver<ThreadData>>,
    /// The number of threads asked for.
    threads: usize,
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            shared: Arc::new(SharedState::new(hash_mb)),
            main: ThreadData::default(),
            helpers: Vec::new(),
            helper_threads: Vec::new(),
            finishing: Vec::new(),
            threads: 1,
        }
    }

    /// The shared state, to change between searches: the helpers are taken back first, so
    /// none of them reads it meanwhile.
    fn shared_mut(&mut self) -> &mut SharedState {
        self.park_helpers();
        // A helper lets go of its handle before it gives its `ThreadData` back (also when
        // it panics: `HelperHandles` drops the handle first), so this loop does not turn.
        while Arc::get_mut(&mut self.shared).is_none() {
            std::thread::yield_now();
        }
        Arc::get_mut(&mut self.shared).expect("no other owner")
    }

    /// Takes back the helpers of the last search (they were told to stop, so this waits
    /// at most for their next look at the flag) and makes up any that were lost; starts
    /// or ends helper threads to match `threads`.
    fn park_helpers(&mut self) {
        for returned in self.finishing.drain(..) {
            // A helper that panicked is lost with its job; it is replaced below.
            if let Ok(helper) = returned.recv() {
                self.helpers.push(helper);
            }
        }
        self.helpers.truncate(self.threads - 1);
        self.helpers
            .resize_with(self.threads - 1, ThreadData::default);
        // A thread cannot raise its own priority again: helpers of the wrong kind are
        // replaced.
        let priority = Priority::for_threads(self.threads);
        if self
            .helper_threads
            .first()
            .is_some_and(|t| t.priority() != priority)
        {
            self.helper_threads.clear();
        }
        self.helper_threads.truncate(self.threads - 1);
        while self.helper_threads.len() < self.threads - 1 {
            let name = format!("search-{}", self.helper_threads.len() + 1);
            match SearchThread::spawn(name, priority) {
                Ok(thread) => self.helper_threads.push(thread),
                // Fewer helpers then: each search runs those that have a thread.
                Err(_) => break,
            }
        }
    }

    /// Searches with `threads` threads (1 to [`MAX_THREADS`]): the main one and
    /// `threads - 1` helpers, each with its own histories and accumulators.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, MAX_THREADS);
        self.park_helpers();
    }

    /// A handle that stops this searcher's helpers while it searches.
    pub fn helper_stop(&self) -> HelperStop {
        HelperStop(Arc::clone(&self.shared.helpers_stop))
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Sets the evaluation: a network, or `None` for the hand-crafted evaluation.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.shared_mut().net = net;
    }

    /// Sets how the search uses the tablebases (which tables are loaded is
    /// `crate::tablebase::load`'s business).
    pub fn set_tablebase_settings(&mut self, tb: TablebaseSettings) {
        self.shared_mut().tb = tb;
    }

    /// The network the search evaluates with (`None`: the hand-crafted evaluation).
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.shared.net.as_ref()
    }

    /// Resizes the transposition table (clears it).
    pub fn resize_hash(&mut self, hash_mb: usize) {
        // The helpers of the last search hold the old table until they are back; it goes
        // before the new one is made, so the two never need memory at once.
        let shared = self.shared_mut();
        shared.tt = TranspositionTable::new(1);
        shared.tt = TranspositionTable::new(hash_mb);
    }

    /// Forgets everything learnt (new game, `Clear Hash`), in every thread.
    pub fn clear(&mut self) {
        self.park_helpers();
        self.shared.tt.clear();
        self.main.clear();
        for helper in &mut self.helpers {
            helper.clear();
        }
    }

    /// The transposition table's actual size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.shared.tt.size_mb()
    }

    /// Transposition table use, per mille.
    pub fn hashfull(&self) -> u32 {
        self.shared.tt.hashfull()
    }
}
