//! The two halves of a parallel search (Lazy SMP), in the words of Stockfish and
//! Viridithas: [`SharedState`], what every thread's worker reads or adds to, and
//! [`ThreadData`], what one thread owns and keeps from one search to the next. The
//! `Searcher` holds the one `SharedState` and a `ThreadData` per thread; for a search,
//! each thread makes a `Worker` (`mod.rs`) from its `ThreadData` and the shared state.

use super::history::History;
use super::params::{LMR_BASE, LMR_DIVISOR};
use super::tablebase::TablebaseSettings;
use super::tt::TranspositionTable;
use crate::nnue::{AccumulatorStack, Network};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;

/// Late move reductions by depth and move number: `base + ln(depth) ln(moves) / divisor`.
pub(crate) type LmrTable = [[i32; 64]; 64];

/// The reduction table of the current tunables. Built once per searcher (and, in a tuning
/// build, at each search: the tunables may have changed since).
pub(crate) fn lmr_table() -> Box<LmrTable> {
    let base = LMR_BASE.get() as f64 / 100.0;
    let divisor = LMR_DIVISOR.get() as f64 / 100.0;
    let mut lmr = Box::new([[0; 64]; 64]);
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
        }
    }
    lmr
}

/// What all threads share: the table they fill together, the settings they search with,
/// and the flags and counters of the current search that the main thread reads. The
/// `Searcher` owns it between searches and changes it only when no helper holds it.
pub(crate) struct SharedState {
    /// The transposition table, through which the threads help each other.
    pub(crate) tt: TranspositionTable,
    /// The late move reductions.
    pub(crate) lmr: Box<LmrTable>,
    /// The evaluation network, or `None` for the hand-crafted evaluation.
    pub(crate) net: Option<Arc<Network>>,
    /// How the tablebases are used.
    pub(crate) tb: TablebaseSettings,
    /// Set by the main thread when it is done (or by `stop`, through a `HelperStop`):
    /// the helpers stop.
    pub(crate) helpers_stop: Arc<AtomicBool>,
    /// The tables' score of the root when they hold it (the main thread reports it in
    /// place of the search's); set for each search.
    pub(crate) root_tb_score: Option<i32>,
    /// Nodes the helpers have searched so far in this search (reported with the main
    /// thread's).
    pub(crate) helper_nodes: AtomicU64,
    /// Tablebase hits of the helpers and of the root ranking in this search.
    pub(crate) tb_hits: AtomicU64,
}

impl SharedState {
    /// A state with a transposition table of `hash_mb` megabytes and the default
    /// evaluation.
    pub(crate) fn new(hash_mb: usize) -> SharedState {
        SharedState {
            tt: TranspositionTable::new(hash_mb),
            lmr: lmr_table(),
            net: crate::nnue::default_evaluation(),
            tb: TablebaseSettings::default(),
            helpers_stop: Arc::default(),
            root_tb_score: None,
            helper_nodes: AtomicU64::new(0),
            tb_hits: AtomicU64::new(0),
        }
    }
}

/// What one search thread owns: what its ordering learnt (kept between searches, cleared
/// by a new game) and its network accumulators along the current line.
#[derive(Default)]
pub(crate) struct ThreadData {
    pub(crate) history: Box<History>,
    pub(crate) acc: Box<AccumulatorStack>,
}

impl ThreadData {
    /// Forgets what the histories learnt.
    pub(crate) fn clear(&mut self) {
        self.history.clear();
    }
}
