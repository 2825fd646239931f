//! The two halves of a parallel search (Lazy SMP): [`Shared`], what every thread of one
//! search reads or adds to, and [`ThreadData`], what one thread owns and keeps from one
//! search to the next. The `Searcher` holds one `ThreadData` per thread and builds a
//! `Shared` for each search.

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

/// What all threads of one search share: the table they fill together, the settings
/// they search with, and the flags and counters the main thread reads.
pub(crate) struct Shared {
    /// The transposition table, through which the threads help each other.
    pub(crate) tt: Arc<TranspositionTable>,
    /// The late move reductions.
    pub(crate) lmr: Arc<LmrTable>,
    /// The evaluation network, or `None` for the hand-crafted evaluation.
    pub(crate) net: Option<Arc<Network>>,
    /// How the tablebases are used.
    pub(crate) tb: TablebaseSettings,
    /// The tables' score of the root, when they hold it (the main thread reports it in
    /// place of the search's).
    pub(crate) root_tb_score: Option<i32>,
    /// Set by the main thread when it is done (or by `stop`, through a `HelperStop`):
    /// the helpers stop.
    pub(crate) helpers_stop: Arc<AtomicBool>,
    /// Nodes the helpers have searched so far (reported with the main thread's).
    pub(crate) helper_nodes: AtomicU64,
    /// Tablebase hits of the helpers and of the root ranking.
    pub(crate) tb_hits: AtomicU64,
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
