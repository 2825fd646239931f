//! The principal-variation search below the root: fail-soft negamax alpha-beta with the
//! pruning, reductions and extensions that let it look deep along the lines that matter.
//!
//! The steps are numbered; each comment says why it is there and, where measured, what it
//! is worth: the full search against a build without the step (its `USE_*` switch in
//! `params/mod.rs` off, `make ablate`), `match.py --sprt 0 5` at 2+0.02 on the UHO openings,
//! capped at a few hundred games (an SPRT with these bounds needs about 600 games to
//! accept even a 70 Elo gain). Steps without a figure have not been measured on their own
//! yet. As a whole the search beat the first-cut alpha-beta (same evaluation) 30-0 at
//! 8+0.08, and it solves 287/300 of Win At Chess at 1,000,000 nodes (289 before singular
//! extensions, which win games but spend some of the node budget on extensions).

use super::history::{bonus, PieceTo, QuietContext};
use super::legal::{gives_check, is_legal_fast};
use super::params::*;
use super::picker::{is_generated_noisy, MovePicker};
use super::see::see_ge;
use super::tt::{TtBound, TtEntry};
use super::{NodeBest, Raised, Worker, DECISIVE, MATE};
use crate::board::Position;
use crate::chess_move::Move;
use crate::movegen::MoveList;
use crate::types::PieceType;

/// A score no search returns; used as "no score yet".
pub(super) const NO_SCORE: i32 = -MATE - 1;

impl Worker<'_> {
    /// Fail-soft PVS of `pos` (not the root) to `depth` plies within (`alpha`, `beta`).
    pub(super) fn negamax(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let in_check = pos.in_check();
        // The singular-extension test searches this node again without one move.
        let excluded = self.stack[ply].excluded;

        // Step 1. Check extension: a check is searched one ply deeper, so forced lines
        // (and mates) are not cut off at the horizon.
        // Measured: +36.6 +- 35.3 Elo (200 games at 2+0.02: W75 L54 D71; SPRT undecided,
        // LLR 0.54).
        if USE_CHECK_EXTENSION && in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }

        // Step 2. At the horizon, resolve captures in the quiescence search.
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }

        // Step 3. Node bookkeeping and the stop check (stop flag, clock, node limit).
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

        // Step 4. Draws (repetition, fifty moves, insufficient material) and the ply limit.
        if let Some(score) = self.draw_score(pos, ply, in_check) {
            return score;
        }
        if ply >= MAX_PLY {
            return if in_check { 0 } else { self.evaluate(pos) };
        }
        // A reversible move would repeat a position (`Position::has_upcoming_repetition`):
        // the side to move can hold a draw, whatever a stored score for a child says,
        // so a window below the draw is raised to it.
        // Measured, on continuation history: +4.4 +- 27.6 Elo (318 games at 4+0.04: W100 L96
        // D122; SPRT [0, 10] stopped, LLR -0.03). It is here for what the mop-up needs: with
        // continuation history alone one K+B+N playout of `tests/endgames.rs` failed.
        if USE_UPCOMING_REPETITION
            && alpha < 0
            && pos.has_upcoming_repetition(ply, |mv| is_legal_fast(pos, mv))
        {
            alpha = 0;
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 5. Mate distance pruning: no line from here can beat a mate already found
        // closer to the root, nor lose faster than being mated right now.
        // Measured: +5.2 +- 32.6 Elo (200 games: W65 L62 D73; undecided, LLR 0.05).
        if USE_MATE_DISTANCE_PRUNING {
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 6. Transposition table. Outside PV nodes a deep enough stored bound that
        // decides the window ends the node.
        // Measured, TT cutoffs: +75.9 +- 36.3 Elo (200 games: W83 L40 D77; undecided,
        // LLR 1.17).
        // A search without the excluded move must not take the stored result of the search
        // with it, so it sees no entry at all.
        let tt_entry = if excluded.is_none() {
            self.shared.tt.probe(pos.key(), ply)
        } else {
            None
        };
        let tt_move = tt_entry.map_or(Move::NONE, |e| e.mv);
        if let Some(e) = tt_entry {
            if USE_TT_CUTOFFS
                && !pv_node
                && e.depth >= depth
                && pos.halfmove_clock() < 90
                && e.bound.settles(e.score, alpha, beta)
            {
                return e.score;
            }
        }

        // Step 6b. Endgame tablebases: right after a capture or pawn move (where the
        // fifty-move count starts again, so the tables' answer is exact), a position with
        // few enough pieces is looked up; a bound that decides the window ends the node.
        if excluded.is_none() {
            if let Some(score) = self.probe_tablebase(pos, alpha, beta, depth, ply) {
                return score;
            }
        }

        // Step 7. Static evaluation, corrected by what searches of the same pawn
        // structure found it misses by (correction history, `correction.rs`), and improved
        // by a stored score when its bound allows. The table keeps the raw evaluation;
        // the correction is applied afresh, since it changes as the search learns.
        // "Improving": better than two plies ago, so pruning can be more careful.
        // Measured, correction history: +19.7 +- 18.2 Elo (600 games at 4+0.04 against
        // the build without it: W186 L152 D262; SPRT [0, 10] undecided, LLR 1.71).
        // Measured, TT eval refinement: +19.1 +- 34.6 Elo (200 games: W69 L58 D73; LLR 0.27).
        // The correction also learns by each side's placement of its other pieces (the
        // board's non-pawn keys). Measured: +8.9 +- 19.7 Elo (507 games at 4+0.04 against
        // the pawn-only correction: W152 L139 D216; SPRT [0, 10] undecided, LLR 0.39).
        let (raw_eval, static_eval) = if in_check {
            (NO_SCORE, NO_SCORE)
        } else {
            let raw = self.static_eval(pos, tt_entry);
            (raw, self.corrected(pos, raw))
        };
        self.stack[ply].eval = static_eval;
        let mut eval = static_eval;
        if let Some(e) = tt_entry {
            // The stored score replaces the evaluation when its bound puts the true
            // score beyond it: the window (eval - 1, eval + 1) is settled.
            if USE_TT_EVAL_REFINE
                && !in_check
                && e.score.abs() < DECISIVE
                && e.bound.settles(e.score, eval - 1, eval + 1)
            {
                eval = e.score;
            }
        }
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].eval != NO_SCORE
            && static_eval > self.stack[ply - 2].eval;
        self.history.reset_killers(ply + 1);

        if !pv_node && !in_check && excluded.is_none() {
            // Step 8. Reverse futility pruning: far above beta at low depth, the opponent
            // will not catch up in the plies left.
            // Measured: +66.8 +- 35.0 Elo (200 games: W86 L48 D66; undecided, LLR 1.08).
            if USE_REVERSE_FUTILITY
                && depth <= RFP_MAX_DEPTH.get()
                && eval.abs() < DECISIVE
                && beta.abs() < DECISIVE
                && eval - RFP_MARGIN.get() * (depth - improving as i32) >= beta
                && !king_under_fire(pos)
            {
                return eval;
            }

            // Step 9. Null-move pruning: if passing still fails high, a real move will too
            // (false in zugzwang, hence not with only king and pawns).
            // +69 +- 34 Elo (250 games: W108 L59 D83; SPRT undecided, LLR 1.18).
            // Removed: a verification search of cutoffs from depth 12 on. Full against
            // without: -10.4 +- 36.1 Elo (200 games, 2+0.02); the simplification SPRT
            // (without as engine 1, --sprt -5 0) +23.2 +- 32.0 for the build without it
            // (300 games: W105 L85 D110; LLR 0.49 of 2.94). 500 games found no gain.
            if let Some(score) = self.null_move(pos, beta, depth, eval, ply) {
                return score;
            }
        }

        // Step 10. Internal iterative reduction: with no TT move the ordering is poor and
        // the node probably unimportant; search it a ply shallower.
        // Measured: +47.2 +- 37.1 Elo (200 games: W80 L53 D67; undecided, LLR 0.65).
        if USE_IIR && tt_move.is_none() && excluded.is_none() && depth >= IIR_MIN_DEPTH.get() {
            depth -= 1;
        }

        // Step 11. The move loop. The picker hands out the TT move, good captures, two
        // killers (Kaissa's "best-move service": a quiet move that refuted a sibling
        // probably refutes here too) and the counter move to the last move before the
        // other quiets.
        // Measured (200 games each, SPRT undecided): killers +33.1 +- 39.6 Elo (W80 L61
        // D59; LLR 0.38), counter move +17.4 +- 37.1 (W67 L57 D76; LLR 0.21).
        // Quiet moves are ordered, reduced and learnt from under the squares the opponent
        // attacks (`QuietContext`): a move that saves an attacked piece, or puts one en
        // prise, is not the same move as in a quiet position, so the butterfly table keeps
        // them apart. Measured at 10,000 nodes a move against main: +47.6 +- 19.4 Elo
        // (800 games on the UHO openings: W340 L231 D229), at no cost in speed.
        // The picker also orders a quiet move of a piece attacked by a cheaper one by
        // whether it escapes (`picker.rs`, `Danger`): first the retreat of a knight a pawn
        // attacks, last a queen's step onto a square a rook covers. Measured at 10,000
        // nodes a move against main: +20.7 +- 14.1 Elo (1,600 games in two runs of 800 on
        // the UHO openings: W622 L527 D451), for 4% more instructions a node by callgrind,
        // which can overcount (docs/strength.md, Speed); not yet timed.
        let original_alpha = alpha;
        let previous = pos.last_move();
        let side = pos.side_to_move();
        let quiet_ctx = QuietContext {
            keys: self.cont_keys(ply),
            attacks: (USE_THREAT_HISTORY || USE_THREAT_ORDERING).then(|| pos.attack_map(!side)),
        };
        let mut picker = MovePicker::new(
            tt_move,
            if USE_KILLERS {
                self.history.killers(ply)
            } else {
                [Move::NONE; 2]
            },
            if USE_COUNTER_MOVE {
                self.history.counter(previous)
            } else {
                Move::NONE
            },
        )
        .with_context(quiet_ctx);
        let mut best = NodeBest {
            score: NO_SCORE,
            mv: Move::NONE,
            alpha,
        };
        let mut moves_searched = 0;
        let mut quiets_tried = MoveList::new();
        while let Some(mv) = picker.next(pos, self.history) {
            if mv == excluded {
                continue;
            }
            // The child's table line starts loading now, so that the pruning tests below
            // run while it arrives rather than the child waiting for it.
            self.shared.tt.prefetch(pos.key_after(mv));
            let alpha = best.alpha;
            let quiet = !is_generated_noisy(pos, mv);
            let early = picker.in_early_stages();

            // Step 12. Shallow pruning of moves unlikely to matter, once a move has been
            // found that does not lose to mate.
            // Measured (200 games each, SPRT undecided): late move pruning +107.5 +- 40.5
            // Elo (LLR 1.45), SEE pruning +49.0 +- 34.2 (LLR 0.79), futility +3.5 +- 35.5
            // (LLR 0.01).
            if best.score > -DECISIVE && !in_check {
                if quiet && !gives_check(pos, mv) {
                    // Late move pruning: enough quiets tried at low depth.
                    let lmp_limit = (LMP_BASE.get() + depth * depth) / (2 - improving as i32);
                    if USE_LATE_MOVE_PRUNING
                        && depth <= LMP_MAX_DEPTH.get()
                        && quiets_tried.len() as i32 >= lmp_limit
                    {
                        continue;
                    }
                    // Futility pruning: the static eval plus a margin cannot reach alpha.
                    if USE_FUTILITY
                        && depth <= FUTILITY_MAX_DEPTH.get()
                        && alpha < DECISIVE
                        && static_eval + FUTILITY_BASE.get() + FUTILITY_PER_DEPTH.get() * depth
                            <= alpha
                    {
                        continue;
                    }
                }
                // SEE pruning: the move loses too much material for this depth.
                let threshold = if quiet {
                    SEE_QUIET_MARGIN.get() * depth * depth
                } else {
                    SEE_NOISY_MARGIN.get() * depth
                };
                if USE_SEE_PRUNING
                    && depth <= SEE_PRUNE_MAX_DEPTH.get()
                    && !see_ge(pos, mv, threshold)
                {
                    continue;
                }
            }

            // Step 13. Singular extension: when the stored move fails high by itself and
            // every other move, searched at half depth, falls short of its score by a
            // margin, the stored move is the only good one and is searched a ply deeper.
            // When even the other moves reach beta (multi-cut), the node fails high.
            // Measured: +36.0 +- 30.6 Elo (300 games at 2+0.02: W108 L77 D115; SPRT
            // undecided, LLR 0.71). With half the margin (2 cp per ply) it scored +25.5 +-
            // 29.9 (W106 L84 D110) but extended so often that Win At Chess at 1,000,000
            // nodes fell from 289 to 284; with this margin it solves 287. Starting at depth
            // 10 instead of 8 also gave 284.
            // When the stored move is not singular but its stored score is at or above
            // beta, the node will likely fail high with or without it: the stored move is
            // searched a ply shallower (a negative extension).
            // Measured, with the network: +6.9 +- 15.9 Elo (805 games at 4+0.04 in two
            // runs, seeds 30 and 31: W225 L209 D371; SPRT [0, 10] undecided, LLR 0.29).
            let mut extension = 0;
            if USE_SINGULAR_EXTENSION
                && mv == tt_move
                && depth >= SE_MIN_DEPTH.get()
                && (ply as i32) < 2 * self.root_depth
            {
                match self.singular(pos, mv, tt_entry, depth, beta, ply) {
                    Singular::Extend => extension = 1,
                    Singular::Shorten => extension = -1,
                    Singular::Cut(score) => return score,
                    Singular::No => {}
                }
                if self.stopped {
                    return 0;
                }
            }

            let moved = PieceTo::of(pos, mv);
            self.stack[ply + 1].moved = moved;
            self.make(pos, mv);
            moves_searched += 1;
            if quiet {
                quiets_tried.push(mv);
            }
            let new_depth = depth - 1 + extension;
            let gives_check = pos.in_check();

            // Step 14. Principal variation search: the first move with the full window,
            // later ones with a null window, reduced when late and quiet (LMR), and
            // searched again in full only if they beat alpha.
            // LMR: +74 +- 28 Elo (400 games: W176 L92 D132; SPRT undecided, LLR 1.91).
            let mut score;
            if moves_searched == 1 {
                score = -self.negamax(pos, -beta, -alpha, new_depth, ply + 1);
            } else {
                let r = if USE_LMR && depth >= LMR_MIN_DEPTH.get() && quiet && !gives_check {
                    let late = Lateness {
                        depth,
                        moves_searched,
                        pv_node,
                        improving,
                        early,
                    };
                    let history = moved.map_or(0, |m| {
                        self.history.quiet_score(side, m.piece, mv, &quiet_ctx)
                    });
                    bounded_reduction(self.reduction(late, history), new_depth)
                } else {
                    0
                };
                score = -self.negamax(pos, -alpha - 1, -alpha, new_depth - r, ply + 1);
                if score > alpha && r > 0 {
                    score = -self.negamax(pos, -alpha - 1, -alpha, new_depth, ply + 1);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(pos, -beta, -alpha, new_depth, ply + 1);
                }
            }
            self.unmake(pos);
            if self.stopped {
                return 0;
            }

            // Step 15. Keep the best move and its line; a fail high ends the node.
            let raised = best.take(mv, score, beta);
            if raised != Raised::Nothing && pv_node {
                self.update_pv(ply, mv);
            }
            if raised == Raised::Beta {
                break;
            }
        }
        let NodeBest {
            score: best,
            mv: best_move,
            ..
        } = best;

        // Step 16. No legal move: checkmate or stalemate.
        if moves_searched == 0 {
            // (Pruning starts only after a move was searched, so none were pruned.) Without
            // the excluded move there may be no other: that fails low, it is no mate.
            if !excluded.is_none() {
                return alpha;
            }
            return if in_check { -MATE + ply as i32 } else { 0 };
        }

        // Step 17. Learn from a quiet cutoff: history bonus for the move, malus for the
        // quiets tried before it, killer and counter move.
        // Measured, history ordering: +188.3 +- 44.4 Elo (180 games: W111 L22 D47; SPRT H1
        // accepted).
        // Continuation history learns the same lesson after the moves one and two plies
        // back (`history.rs`), and is read with the butterfly score in ordering and LMR.
        // Measured: +24.9 +- 19.3 Elo (600 games at 4+0.04 against the build without it:
        // W195 L152 D253; SPRT [0, 10] undecided at the cap, LLR 2.08). An earlier try,
        // one table for both distances and its LMR term unbounded, with the hand-crafted
        // evaluation: -4.6 +- 28.8 Elo (300 games at 2+0.02: W94 L98 D108; LLR undecided;
        // commit fdb8c36).
        if best >= beta && !is_generated_noisy(pos, best_move) {
            let b = bonus(depth);
            for &q in &quiets_tried {
                let Some(piece) = pos.piece_on(q.from()) else {
                    continue;
                };
                let delta = if q == best_move { b } else { -b };
                self.history.update_quiet(side, piece, q, &quiet_ctx, delta);
            }
            self.history.add_killer(ply, best_move);
            self.history.set_counter(previous, best_move);
        }

        // Step 18. Store the result, and learn how far the static evaluation missed
        // (correction history) where the score says so: not after a noisy best move
        // (the evaluation is not meant to see captures), not from a bound on the wrong
        // side of the evaluation.
        let bound = TtBound::of(best, original_alpha, beta);
        if !in_check
            && excluded.is_none()
            && best.abs() < DECISIVE
            && super::corrects(pos)
            && (best_move.is_none() || !is_generated_noisy(pos, best_move))
            && !(bound == TtBound::Lower && best <= static_eval)
            && !(bound == TtBound::Upper && best >= static_eval)
        {
            self.history.correction.update(pos, depth, best - raw_eval);
        }
        let stored_eval = if in_check { 0 } else { raw_eval };
        if excluded.is_none() {
            self.shared
                .tt
                .store(pos.key(), ply, best_move, best, stored_eval, depth, bound);
        }
        best
    }

    /// Step 9: null-move pruning. Passes; if the opponent, moving twice, still cannot
    /// get below beta, a real move would not either, and the node fails high. Not with
    /// only king and pawns, where passing can be the best move (zugzwang).
    fn null_move(
        &mut self,
        pos: &mut Position,
        beta: i32,
        depth: i32,
        eval: i32,
        ply: usize,
    ) -> Option<i32> {
        let us = pos.side_to_move();
        let non_pawn = pos.color(us) & !(pos.pieces(PieceType::Pawn) | pos.pieces(PieceType::King));
        if !(USE_NULL_MOVE
            && depth >= NMP_MIN_DEPTH.get()
            && eval >= beta
            && !self.stack[ply].after_null
            && non_pawn.any()
            && beta.abs() < DECISIVE
            && !king_under_fire(pos))
        {
            return None;
        }
        let r = NMP_BASE_REDUCTION.get()
            + depth / NMP_DEPTH_DIVISOR.get()
            + ((eval - beta) / NMP_EVAL_DIVISOR.get()).min(3);
        self.make_null(pos);
        self.stack[ply + 1].after_null = true;
        self.stack[ply + 1].moved = None;
        let score = -self.negamax(pos, -beta, -beta + 1, depth - 1 - r, ply + 1);
        self.stack[ply + 1].after_null = false;
        self.unmake_null(pos);
        if self.stopped {
            return Some(0);
        }
        // A mate found by passing is no proof: fail high with beta instead.
        (score >= beta).then_some(if score >= DECISIVE { beta } else { score })
    }

    /// Step 13: the singular-extension test of the table's move `mv`: the node searched
    /// without it at half depth, against a bar below the stored score.
    fn singular(
        &mut self,
        pos: &mut Position,
        mv: Move,
        tt_entry: Option<TtEntry>,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Singular {
        let Some(e) = tt_entry.filter(|e| {
            e.bound != TtBound::Upper
                && e.depth >= depth - SE_TT_DEPTH_MARGIN.get()
                && e.score.abs() < DECISIVE
        }) else {
            return Singular::No;
        };
        let s_beta = e.score - SE_MARGIN_PER_DEPTH.get() * depth;
        self.stack[ply].excluded = mv;
        let score = self.negamax(pos, s_beta - 1, s_beta, (depth - 1) / 2, ply);
        self.stack[ply].excluded = Move::NONE;
        if self.stopped {
            Singular::No
        } else if score < s_beta {
            Singular::Extend
        } else if s_beta >= beta {
            Singular::Cut(s_beta)
        } else if USE_SINGULAR_SHORTENING && e.score >= beta {
            Singular::Shorten
        } else {
            Singular::No
        }
    }

    /// Step 14's late move reduction of a quiet move with this `history` score (butterfly
    /// plus continuation), before clamping: the table's value for the depth and move
    /// number, less in PV nodes, while improving, in the picker's early stages and for
    /// moves with a good history.
    fn reduction(&self, late: Lateness, history: i32) -> i32 {
        self.shared.lmr[late.depth.min(63) as usize][late.moves_searched.min(63)]
            - late.pv_node as i32
            + !late.improving as i32
            - late.early as i32
            - (history / LMR_HISTORY_DIVISOR.get())
                .clamp(-LMR_HISTORY_MAX_PLIES, LMR_HISTORY_MAX_PLIES)
    }
}

/// A reduction kept within what the move can spare: at least one ply of its `new_depth`
/// is searched, and no reduction at all when it has no ply to spare. (`clamp(0, new_depth -
/// 1)` would panic there: a tuned `LMR_MIN_DEPTH` of 1 reduces at depth 1.)
pub(super) fn bounded_reduction(r: i32, new_depth: i32) -> i32 {
    r.min(new_depth - 1).max(0)
}

/// What the singular-extension test found.
enum Singular {
    /// Nothing: search the move as usual.
    No,
    /// The move is the only good one: search it a ply deeper.
    Extend,
    /// Even without it the node reaches beta (multi-cut): it fails high with this score.
    Cut(i32),
    /// Other moves come close to the stored score, which is at or above beta: the node
    /// will probably fail high whatever the stored move does, so it is searched a ply
    /// shallower (a negative extension).
    Shorten,
}

/// How late and in what kind of node a move is searched, for its reduction.
#[derive(Clone, Copy)]
struct Lateness {
    depth: i32,
    moves_searched: usize,
    pv_node: bool,
    improving: bool,
    early: bool,
}

#[cfg(test)]
mod tests {
    use super::bounded_reduction;

    #[test]
    fn a_reduction_leaves_a_ply_and_never_extends() {
        assert_eq!(bounded_reduction(3, 10), 3);
        assert_eq!(bounded_reduction(9, 4), 3);
        assert_eq!(bounded_reduction(-2, 5), 0);
        // No ply to spare (depth 1 with LMR from depth 1): no reduction, no panic.
        assert_eq!(bounded_reduction(2, 1), 0);
        assert_eq!(bounded_reduction(2, 0), 0);
    }
}

/// Whether the opponent's queen bears on the side to move's king and at least
/// [`KING_FIRE_SQUARES`] of the squares around it are attacked (asked only where a
/// pruning step would otherwise fire).
fn king_under_fire(pos: &Position) -> bool {
    use crate::attacks::{king_attacks, queen_attacks};
    let us = pos.side_to_move();
    let zone = king_attacks(pos.king(us));
    let occ = pos.occupied();
    let mut queen_reach = crate::bitboard::Bitboard::EMPTY;
    for sq in pos.colored(!us, PieceType::Queen) {
        queen_reach |= queen_attacks(sq, occ);
    }
    (queen_reach & zone).any() && (zone & pos.attack_map(!us).all).count() >= KING_FIRE_SQUARES
}
