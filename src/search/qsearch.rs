//! Quiescence search: only captures (and queen promotions) until the position is quiet,
//! so the static evaluation is never taken in the middle of an exchange.

use super::legal::gives_check;
use super::params::{DELTA_MARGIN, MAX_PLY, SEE_VALUES, USE_DELTA_PRUNING, USE_QS_CHECKS};
use super::picker::MovePicker;
use super::see::see_ge;
use super::tt::TtBound;
use super::{NodeBest, Raised, Worker, MATE};
use crate::board::Position;
use crate::chess_move::{Move, MoveKind};
use crate::movegen::{GenType, MoveList};

impl Worker<'_> {
    /// Fail-soft quiescence search of `pos` at `ply` within (`alpha`, `beta`). On its first
    /// ply (`checks`) quiet checks are searched too.
    pub(super) fn qsearch(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        checks: bool,
    ) -> i32 {
        // Step 1. Node bookkeeping and the stop check.
        if self.stopped {
            return 0;
        }
        self.nodes += 1;
        self.pv_len[ply] = 0;
        self.seldepth = self.seldepth.max(ply);
        self.poll();
        if self.stopped {
            return 0;
        }
        let in_check = pos.in_check();

        // Step 2. Draws and the ply limit.
        if let Some(score) = self.draw_score(pos, ply, in_check) {
            return score;
        }
        if ply >= MAX_PLY {
            return if in_check { 0 } else { self.evaluate(pos) };
        }

        // Step 3. Transposition table: any stored depth is enough here.
        let pv_node = beta - alpha > 1;
        let tt_entry = self.shared.tt.probe(pos.key(), ply);
        let mut tt_move = Move::NONE;
        if let Some(e) = tt_entry {
            tt_move = e.mv;
            if !pv_node && e.bound.settles(e.score, alpha, beta) {
                return e.score;
            }
        }

        // Step 4. Stand pat: the side to move can usually do at least as well as doing
        // nothing noisy. Not in check: there every evasion is searched, so mates are seen.
        let original_alpha = alpha;
        let (raw_eval, static_eval, best) = if in_check {
            (0, -MATE, -MATE + ply as i32)
        } else {
            let raw = self.static_eval(pos, tt_entry);
            let eval = self.corrected(pos, raw);
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            (raw, eval, eval)
        };

        // Step 5. Captures by MVV-LVA, losing ones (SEE < 0) left out by the picker;
        // in check, all evasions.
        // Measured (200 games each at 2+0.02, SPRT undecided): SEE pruning of losing
        // captures +26.1 +- 36.8 Elo (W73 L58 D69; LLR 0.34), delta pruning +6.9 +- 36.5
        // (W62 L58 D80; LLR 0.06).
        // Tried and not kept: quiet checks (SEE >= 0) on the first quiescence ply, after
        // the captures, -6.9 +- 29.8 Elo (300 games at 2+0.02: W93 L99 D108; LLR -0.21;
        // the code is in commit 85003b2).
        let mut picker = if in_check {
            MovePicker::new(tt_move, [Move::NONE; 2], Move::NONE)
        } else {
            MovePicker::noisy(tt_move)
        };
        let mut best = NodeBest {
            score: best,
            mv: Move::NONE,
            alpha,
        };
        while let Some(mv) = picker.next(pos, self.history) {
            // As in `negamax`: the child's table line loads while delta pruning decides.
            self.shared.tt.prefetch(pos.key_after(mv));
            // Delta pruning: even winning the captured piece cleanly would not reach alpha.
            if USE_DELTA_PRUNING && !in_check && mv.promotion_piece().is_none() {
                let gain = pos.captured_by(mv).map_or(0, |k| SEE_VALUES[k.index()]);
                if static_eval + gain + DELTA_MARGIN.get() <= best.alpha {
                    continue;
                }
            }
            self.make(pos, mv);
            let score = -self.qsearch(pos, -beta, -best.alpha, ply + 1, false);
            self.unmake(pos);
            if self.stopped {
                return 0;
            }
            if best.take(mv, score, beta) == Raised::Beta {
                break;
            }
        }
        // Step 5b. On the first quiescence ply, then quiet checks that lose no material: a
        // quiet mate or mating threat one ply past the horizon is what makes a null-move
        // search or a static margin miss a quiet threat of mate above it.
        if USE_QS_CHECKS && checks && !in_check && best.score < beta {
            let mut quiets = MoveList::new();
            pos.generate(GenType::Quiet, &mut quiets);
            for &mv in quiets.as_slice() {
                // (`gives_check` answers yes for every castling: only real checks here.)
                let castles = mv.kind() == MoveKind::Castling;
                if castles || !gives_check(pos, mv) || !see_ge(pos, mv, 0) {
                    continue;
                }
                self.make(pos, mv);
                let score = -self.qsearch(pos, -beta, -best.alpha, ply + 1, false);
                self.unmake(pos);
                if self.stopped {
                    return 0;
                }
                if best.take(mv, score, beta) == Raised::Beta {
                    break;
                }
            }
        }
        let NodeBest {
            score: best,
            mv: best_move,
            ..
        } = best;

        // Step 6. Store. (In check with no evasion `best` is the mate score.)
        let bound = TtBound::of(best, original_alpha, beta);
        let stored_eval = raw_eval;
        self.shared
            .tt
            .store(pos.key(), ply, best_move, best, stored_eval, 0, bound);
        best
    }
}
