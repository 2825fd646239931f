//! The search: the `Searcher` that owns the tables, and the state of one running search.
//!
//! Files: `interface.rs` is the contract the UCI layer, bench and datagen are written
//! against (limits, control flags, events, results; keep it stable); `root.rs` runs
//! iterative deepening, aspiration windows and the root move list (MultiPV, searchmoves,
//! currmove); `thread.rs` what the threads of a search share and what each owns; this
//! one holds the `Searcher` and the state of a search and its helpers (clock, draws, PV);
//! `negamax.rs` is the search below the root, `qsearch.rs` the quiescence search, `tt.rs`
//! the transposition table, `picker.rs` the staged move ordering, `history.rs` what
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
use pool::{Priority, Worker};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use thread::{LmrTable, Shared, ThreadData};
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

/// The state of one running search: references to the searcher's tables, counters,
/// limits and the principal-variation table.
pub(crate) struct Search<'a> {
    tt: &'a TranspositionTable,
    history: &'a mut History,
    lmr: &'a LmrTable,
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
    /// Depth of the current iteration.
    root_depth: i32,
    stack: Vec<StackEntry>,
    /// The evaluation network, or `None` for the hand-crafted evaluation.
    net: Option<&'a Network>,
    /// The network's accumulators along the current line.
    acc: &'a mut AccumulatorStack,
    /// `Some(n)` for the n-th helper thread of a parallel search, `None` for the main one.
    helper: Option<usize>,
    /// The threads of one parallel search share these: the main thread sets the flag when
    /// it is done (the helpers stop), the helpers add up their nodes (the main reports).
    shared: &'a Shared,
    /// How the tablebases are used.
    tb: TablebaseSettings,
    /// Tablebase probes that answered (the main thread's; helpers count in `shared`).
    tb_hits: u64,
    /// The tables' score of the root, reported in place of the search's.
    root_tb_score: Option<i32>,
    pv: Vec<[Move; MAX_PLY + 8]>,
    pv_len: [usize; MAX_PLY + 8],
}

impl Search<'_> {
    /// Makes `mv`, keeping the network's accumulators in step.
    #[inline(always)]
    fn make(&mut self, pos: &mut Position, mv: Move) {
        if self.net.is_some() {
            self.acc.push_move(pos, mv);
        }
        pos.make_move(mv);
        self.tt.prefetch(pos.key());
    }

    /// Takes back the move made with [`Search::make`].
    #[inline(always)]
    fn unmake(&mut self, pos: &mut Position) {
        pos.unmake_move();
        if self.net.is_some() {
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
        if self.net.is_some() {
            self.acc.push_null();
        }
        pos.make_null_move();
        self.tt.prefetch(pos.key());
    }

    /// Takes back the null move made with [`Search::make_null`].
    #[inline(always)]
    fn unmake_null(&mut self, pos: &mut Position) {
        pos.unmake_null_move();
        if self.net.is_some() {
            self.acc.pop();
        }
    }

    /// The static evaluation of `pos` for the side to move: the network's when one is
    /// set, else the hand-crafted one (and in bare-king endings, for its mop-up).
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        match self.net {
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
        (raw + c).clamp(-DECISIVE + 1, DECISIVE - 1)
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

/// Whether correction history reads and learns in `pos`: switched on, and not where a
/// bare king leaves the evaluation to the mop-up (see [`Search::corrected`]).
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

/// Owns everything that lives between searches: what the threads share (transposition
/// table, network, tablebase settings) and what each thread owns ([`ThreadData`]: the
/// histories and accumulators of the main thread and of each helper), and the helpers'
/// threads. Lazy SMP: helpers search the same tree through the shared table; the main
/// thread decides and reports.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    lmr: Arc<LmrTable>,
    net: Option<Arc<Network>>,
    /// How the tablebases are used.
    tb: TablebaseSettings,
    /// The helpers' stop flag, shared by every search of this searcher.
    helpers_stop: Arc<AtomicBool>,
    /// The main thread's own state.
    main: ThreadData,
    /// The helpers' own states between searches.
    helpers: Vec<ThreadData>,
    /// The helpers' threads, parked between searches (`threads - 1` of them).
    workers: Vec<Worker>,
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
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            lmr: Arc::from(thread::lmr_table()),
            net: crate::nnue::default_evaluation(),
            tb: TablebaseSettings::default(),
            helpers_stop: Arc::default(),
            main: ThreadData::default(),
            helpers: Vec::new(),
            workers: Vec::new(),
            finishing: Vec::new(),
            threads: 1,
        }
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
            .workers
            .first()
            .is_some_and(|w| w.priority() != priority)
        {
            self.workers.clear();
        }
        self.workers.truncate(self.threads - 1);
        while self.workers.len() < self.threads - 1 {
            let name = format!("search-{}", self.workers.len() + 1);
            match Worker::spawn(name, priority) {
                Ok(worker) => self.workers.push(worker),
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
        HelperStop(Arc::clone(&self.helpers_stop))
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Sets the evaluation: a network, or `None` for the hand-crafted evaluation.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.net = net;
    }

    /// Sets how the search uses the tablebases (which tables are loaded is
    /// `crate::tablebase::load`'s business).
    pub fn set_tablebase_settings(&mut self, tb: TablebaseSettings) {
        self.tb = tb;
    }

    /// The network the search evaluates with (`None`: the hand-crafted evaluation).
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// Resizes the transposition table (clears it).
    pub fn resize_hash(&mut self, hash_mb: usize) {
        // The helpers of the last search hold the old table until they are back; it goes
        // before the new one is made, so the two never need memory at once.
        self.park_helpers();
        self.tt = Arc::new(TranspositionTable::new(1));
        self.tt = Arc::new(TranspositionTable::new(hash_mb));
    }

    /// Forgets everything learnt (new game, `Clear Hash`), in every thread.
    pub fn clear(&mut self) {
        self.park_helpers();
        self.tt.clear();
        self.main.clear();
        for helper in &mut self.helpers {
            helper.clear();
        }
    }

    /// The transposition table's actual size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Transposition table use, per mille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }
}
