//! The search's use of the endgame tablebases (`crate::tablebase`): WDL probes inside
//! the tree and the DTZ ranking of the root moves.

use super::negamax::NO_SCORE;
use super::tt::TtBound;
use super::{Worker, TB_WIN};
use crate::board::Position;
use crate::chess_move::Move;
use crate::tablebase::{self, Wdl};
use std::sync::atomic::Ordering;

/// Tablebase stored entries are trusted this many plies deeper than the node probed:
/// the answer is exact whatever the depth.
const TB_ENTRY_EXTRA_DEPTH: i32 = 6;

/// How the search uses the tables (`SyzygyProbeDepth`, `SyzygyProbeLimit`,
/// `Syzygy50MoveRule` in UCI).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TablebaseSettings {
    /// Positions with as many pieces as the largest tables are probed only from this
    /// remaining depth on (smaller ones always): probes of big tables cost disk reads.
    pub probe_depth: i32,
    /// Positions with more pieces than this are never probed.
    pub probe_limit: u32,
    /// Cursed wins and blessed losses are draws, as the fifty-move rule makes them.
    pub fifty_move_rule: bool,
}

impl Default for TablebaseSettings {
    fn default() -> Self {
        TablebaseSettings {
            probe_depth: 1,
            probe_limit: tablebase::MAX_TABLE_PIECES,
            fifty_move_rule: true,
        }
    }
}

impl TablebaseSettings {
    /// Most pieces of a position that is probed (0: none is).
    pub fn cardinality(&self) -> u32 {
        self.probe_limit.min(tablebase::max_pieces())
    }

    /// A WDL value as a search score at `ply`, and what kind of bound it is.
    fn score(&self, wdl: Wdl, ply: usize) -> (i32, TtBound) {
        let win = TB_WIN - ply as i32;
        match (wdl, self.fifty_move_rule) {
            (Wdl::Win, _) | (Wdl::CursedWin, false) => (win, TtBound::Lower),
            (Wdl::Loss, _) | (Wdl::BlessedLoss, false) => (-win, TtBound::Upper),
            // Drawn under the rule, but a hair better (worse) than a dead draw: the
            // opponent may still go wrong.
            (Wdl::CursedWin, true) => (1, TtBound::Exact),
            (Wdl::BlessedLoss, true) => (-1, TtBound::Exact),
            (Wdl::Draw, _) => (0, TtBound::Exact),
        }
    }

    /// The root moves to search when the tables hold the root (the DTZ-best ones, and
    /// only those of `candidates`: the legal moves or `searchmoves`) and the score to
    /// report for the root. `None` when the tables do not apply.
    pub(super) fn root_moves(
        &self,
        pos: &Position,
        candidates: &[Move],
    ) -> Option<(Vec<Move>, i32)> {
        if pos.occupied().count() > self.cardinality() || pos.halfmove_clock() >= 100 {
            return None;
        }
        let ranking = tablebase::rank_root(pos, self.fifty_move_rule)?;
        let kept: Vec<Move> = ranking
            .moves
            .into_iter()
            .filter(|m| candidates.contains(m))
            .collect();
        if kept.is_empty() {
            return None;
        }
        // A shorter way to the next conversion shows as a (slightly) better score.
        let (score, _) = self.score(ranking.wdl, 0);
        let distance = ranking.dtz.map_or(0, |d| d.abs().min(100));
        let score = match score {
            s if s >= TB_WIN - 1 => s - distance,
            s if s <= 1 - TB_WIN => s + distance,
            s => s,
        };
        Some((kept, score))
    }
}

impl Worker<'_> {
    /// Step 6b of `negamax`: the tables' answer when it decides the node.
    pub(super) fn probe_tablebase(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> Option<i32> {
        let pieces = pos.occupied().count();
        let cardinality = self.shared.tb.cardinality();
        if pieces > cardinality
            || (pieces == cardinality && depth < self.shared.tb.probe_depth)
            || pos.halfmove_clock() != 0
            || !pos.castling().is_empty()
        {
            return None;
        }
        let wdl = tablebase::probe_wdl(pos)?;
        if self.helper.is_some() {
            self.shared.tb_hits.fetch_add(1, Ordering::Relaxed);
        } else {
            self.tb_hits += 1;
        }
        let (score, bound) = self.shared.tb.score(wdl, ply);
        if !bound.settles(score, alpha, beta) {
            return None;
        }
        self.shared.tt.store(
            pos.key(),
            ply,
            Move::NONE,
            score,
            NO_SCORE,
            (depth + TB_ENTRY_EXTRA_DEPTH).min(super::MAX_DEPTH as i32),
            bound,
        );
        Some(score)
    }
}
