//! The root of the search: iterative deepening with aspiration windows over the root
//! move list (MultiPV, `searchmoves`, `currmove`), and the result it hands back.

use super::history::QuietContext;
use super::legal::gives_check;
use super::negamax::{bounded_reduction, Lateness, NO_SCORE};
use super::params::*;
use super::picker::is_generated_noisy;
use super::*;
use crate::board::Position;
use crate::chess_move::Move;
use std::time::{Duration, Instant};

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

impl Worker<'_> {
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
        let side = pos.side_to_move();
        let quiet_ctx = QuietContext {
            keys: self.cont_keys(0),
            attacks: (USE_THREAT_HISTORY || USE_THREAT_ORDERING).then(|| pos.attack_map(!side)),
        };
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
            let r = if i > pv_idx {
                self.root_reduction(pos, mv, i - pv_idx + 1, depth, &quiet_ctx)
            } else {
                0
            };
            self.stack[1].moved = PieceTo::of(pos, mv);
            self.make(pos, mv);
            let mut score;
            if i == pv_idx {
                score = -self.negamax(pos, -beta, -alpha, depth - 1, 1);
            } else {
                score = -self.negamax(pos, -alpha - 1, -alpha, depth - 1 - r, 1);
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.negamax(pos, -alpha - 1, -alpha, depth - 1, 1);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(pos, -beta, -alpha, depth - 1, 1);
                }
            }
            self.unmake(pos);
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

    /// How much shallower a late root move is searched first: as `negamax` reduces a
    /// quiet move that gives no check in a PV node (its step 14), by the move's number
    /// among the root moves and its history. The root's moves are ordered by the last
    /// iteration's scores, so a late one has already been searched and found worse; a
    /// reduced search that beats alpha is searched again at full depth.
    fn root_reduction(
        &self,
        pos: &Position,
        mv: Move,
        moves_searched: usize,
        depth: i32,
        quiet_ctx: &QuietContext,
    ) -> i32 {
        if !USE_ROOT_LMR
            || depth < LMR_MIN_DEPTH.get()
            || is_generated_noisy(pos, mv)
            || gives_check(pos, mv)
        {
            return 0;
        }
        let late = Lateness {
            depth,
            moves_searched,
            pv_node: true,
            // The root has no evaluation two plies back: taken as improving, so that the
            // reduction is not raised for a trend nobody measured.
            improving: true,
            early: false,
        };
        let history = pos.piece_on(mv.from()).map_or(0, |piece| {
            self.history
                .quiet_score(pos.side_to_move(), piece, mv, quiet_ctx)
        });
        bounded_reduction(self.reduction(late, history), depth - 1)
    }

    /// The `info` of one root move.
    fn info(&self, rm: &RootMove, depth: u32, multipv: usize, bound: Bound) -> SearchInfo {
        // In a root the tables hold, their verdict is the score, unless a mate is seen.
        // That verdict is exact whatever window the search had (as Stockfish prints it).
        let root_tb_score = self.shared.root_tb_score.filter(|_| self.helper.is_none());
        let (score, bound) = match root_tb_score {
            Some(tb) if rm.shown_score.abs() < MATE_BOUND => (tb, Bound::Exact),
            _ => (rm.shown_score, bound),
        };
        SearchInfo {
            depth,
            seldepth: (self.seldepth as u32).max(depth),
            multipv,
            score: Score::from_internal(score),
            bound,
            nodes: self.nodes + self.shared.helper_nodes.load(Ordering::Relaxed),
            tbhits: self.tb_hits + self.shared.tb_hits.load(Ordering::Relaxed),
            time: self.start.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            pv: rm.pv.clone(),
        }
    }
}

impl Searcher {
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
        // A root the tablebases hold: only the moves that keep its value, best first by
        // distance to zeroing, are searched (by every thread).
        let tb_root = self.tablebase_limits(pos, limits);
        // The last search's helpers are all back (`shared_mut`): nothing of theirs reads
        // the stop flag any more. (A `stop` that came before this search began is on
        // `control.stop`.)
        let state = self.shared_mut();
        state.helpers_stop.store(false, Ordering::Relaxed);
        #[cfg(feature = "tune")]
        {
            state.lmr = super::thread::lmr_table();
        }
        state.root_tb_score = tb_root.as_ref().map(|(_, score)| *score);
        *state.helper_nodes.get_mut() = 0;
        *state.tb_hits.get_mut() = u64::from(tb_root.is_some());
        let shared = Arc::clone(&self.shared);
        let limits = tb_root.as_ref().map_or(limits, |(limits, _)| limits);
        if self.helpers.is_empty() {
            return self
                .main
                .iterative_deepening(pos, limits, control, on_event, None, &shared);
        }
        // Lazy SMP: the helpers run the same iterative deepening without limits of their
        // own (bar the depth) and without reporting, feeding the shared table, until the
        // main thread is done; its answer does not wait for them to wind down.
        let helper_limits = Limits {
            depth: limits.depth,
            searchmoves: limits.searchmoves.clone(),
            multipv: 1,
            ..Limits::default()
        };
        let helpers = std::mem::take(&mut self.helpers);
        let threads = self.helper_threads.iter_mut();
        for (i, (mut helper, thread)) in helpers.into_iter().zip(threads).enumerate() {
            let (pos, limits) = (pos.clone(), helper_limits.clone());
            let (give_back, returned) = crossbeam_channel::bounded(1);
            let handles = HelperHandles {
                shared: Arc::clone(&shared),
                give_back,
            };
            let job = Box::new(move || {
                let control = SearchControl::default();
                let quiet = &mut |_| {};
                let shared = &handles.shared;
                helper.iterative_deepening(&pos, &limits, &control, quiet, Some(i + 1), shared);
                let HelperHandles { shared, give_back } = handles;
                drop(shared);
                let _ = give_back.send(helper);
            });
            // A helper whose thread cannot run it is replaced at the next search.
            if thread.run(job).is_ok() {
                self.finishing.push(returned);
            }
        }
        let mut result = self
            .main
            .iterative_deepening(pos, limits, control, on_event, None, &shared);
        shared.helpers_stop.store(true, Ordering::Relaxed);
        result.nodes += shared.helper_nodes.load(Ordering::Relaxed);
        result
    }

    /// `limits` with `searchmoves` narrowed to the tablebases' best root moves, and the
    /// tables' score of the root; `None` when the tables do not hold the root.
    fn tablebase_limits(&self, pos: &Position, limits: &Limits) -> Option<(Limits, i32)> {
        let candidates = root_candidates(pos, &limits.searchmoves);
        let (best, score) = self.shared.tb.root_moves(pos, &candidates)?;
        let limits = Limits {
            searchmoves: best,
            ..limits.clone()
        };
        Some((limits, score))
    }
}

/// What a helper's job holds besides its search: its handle on the shared state and the
/// way back for its `ThreadData`. The handle goes first (fields drop in order, also when
/// the search panics), so once the searcher has its `ThreadData` back, or sees the job
/// gone, it is the shared state's only owner again and may change it.
struct HelperHandles {
    shared: Arc<SharedState>,
    give_back: crossbeam_channel::Sender<ThreadData>,
}

impl ThreadData {
    /// One thread's iterative deepening: the main thread's (`helper` `None`), which
    /// reports and obeys every limit, or a helper's.
    fn iterative_deepening(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &SearchControl,
        on_event: &mut dyn FnMut(SearchEvent),
        helper: Option<usize>,
        shared: &SharedState,
    ) -> SearchResult {
        let mut pos = pos.clone();
        // Material and piece-square sums are then kept by make/unmake.
        crate::eval::attach(&mut pos);
        if helper.is_none() {
            shared.tt.new_search();
        }
        self.history.clear_killers();
        let mut root = root_moves(&shared.tt, &pos, limits);
        if root.is_empty() {
            return SearchResult::default();
        }
        let mut s = self.worker(&pos, limits, control, helper, shared);
        let multipv = limits.multipv.clamp(1, root.len());
        let mut last_info: Option<SearchInfo> = None;
        let mut completed = 0;
        // Helpers start one ply apart from their neighbours, so the threads are not all
        // on the same iteration at the same time.
        let max_depth = max_depth(limits);
        let first_depth = 1 + helper.map_or(0, |n| n as u32 % 2).min(max_depth - 1);
        'deepening: for depth in first_depth..=max_depth {
            s.seldepth = 0;
            s.root_depth = depth as i32;
            for rm in root.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                s.aspiration(&mut pos, &mut root, pv_idx, depth, on_event);
                if s.stopped {
                    break 'deepening;
                }
            }
            completed = depth;
            s.can_time_out = true;
            last_info = Some(s.report_iteration(&root[..multipv], depth, on_event));
            if s.iteration_ends_search(&root, limits) {
                break;
            }
        }
        s.result(&mut pos, &root, completed, last_info)
    }

    /// This thread's worker for a search of `pos`.
    fn worker<'a>(
        &'a mut self,
        pos: &Position,
        limits: &'a Limits,
        control: &'a SearchControl,
        helper: Option<usize>,
        shared: &'a SharedState,
    ) -> Worker<'a> {
        let now = Instant::now();
        if let Some(net) = shared.net.as_deref() {
            self.acc.reset(net, pos);
        }
        Worker {
            shared,
            history: &mut self.history,
            acc: &mut self.acc,
            control,
            limits,
            helper,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            start: now,
            clock_start: now,
            pondering: control.pondering.load(Ordering::Relaxed),
            can_time_out: false,
            root_depth: 0,
            stack: vec![
                StackEntry {
                    eval: NO_SCORE,
                    after_null: false,
                    excluded: Move::NONE,
                    moved: None,
                };
                MAX_PLY + 8
            ],
            tb_hits: 0,
            pv: vec![[Move::NONE; MAX_PLY + 8]; MAX_PLY + 8],
            pv_len: [0; MAX_PLY + 8],
        }
    }
}

/// The root moves: the legal ones, restricted to `searchmoves` when any of those is
/// legal; the table's move first.
fn root_moves(tt: &TranspositionTable, pos: &Position, limits: &Limits) -> Vec<RootMove> {
    let mut moves = root_candidates(pos, &limits.searchmoves);
    if let Some(e) = tt.probe(pos.key(), 0) {
        if let Some(i) = moves.iter().position(|&m| m == e.mv) {
            moves[..=i].rotate_right(1);
        }
    }
    moves
        .into_iter()
        .map(|mv| RootMove {
            mv,
            score: NO_SCORE,
            prev_score: NO_SCORE,
            shown_score: NO_SCORE,
            pv: vec![mv],
        })
        .collect()
}

/// The deepest iteration `limits` allow: the depth asked for, or for `go mate N` the
/// plies such a mate can need, or `MAX_DEPTH`.
fn max_depth(limits: &Limits) -> u32 {
    let mate_depth = limits
        .mate
        .map(|m| m.saturating_mul(2).saturating_add(MATE_SEARCH_EXTRA_PLIES));
    [limits.depth, mate_depth]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(MAX_DEPTH)
        .clamp(1, MAX_DEPTH)
}

impl Worker<'_> {
    /// Searches root line `pv_idx` at `depth` in an aspiration window: a narrow window
    /// around the last score, widened on the side that failed until the score falls
    /// inside. Leaves the root moves sorted by what it found.
    ///
    /// Measured: +10.4 +- 33.8 Elo (200 games at 2+0.02: W69 L63 D68; SPRT undecided,
    /// LLR 0.13).
    fn aspiration(
        &mut self,
        pos: &mut Position,
        root: &mut [RootMove],
        pv_idx: usize,
        depth: u32,
        on_event: &mut dyn FnMut(SearchEvent),
    ) {
        let prev = root[pv_idx].prev_score;
        let mut delta = ASPIRATION_WINDOW.get();
        // In a root the tables hold, the score shown is their verdict or a mate the search
        // finds: a window around the network's score could only fail, and a mate found
        // by failing high would be shown as a bound instead of exact.
        let tb_root = self.shared.root_tb_score.is_some();
        let narrow =
            USE_ASPIRATION && depth >= ASPIRATION_MIN_DEPTH && prev.abs() < DECISIVE && !tb_root;
        let (mut alpha, mut beta) = if narrow {
            ((prev - delta).max(-MATE), (prev + delta).min(MATE))
        } else {
            (-MATE, MATE)
        };
        loop {
            let score = self.search_root(pos, root, pv_idx, alpha, beta, depth as i32, on_event);
            root[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                break;
            }
            // A full window holds every score a search returns: never widen it.
            let full = alpha <= -MATE && beta >= MATE;
            let bound = if full {
                break;
            } else if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-MATE);
                Bound::Upper
            } else if score >= beta {
                beta = (score + delta).min(MATE);
                Bound::Lower
            } else {
                break;
            };
            on_event(SearchEvent::Info(self.info(
                &root[pv_idx],
                depth,
                pv_idx + 1,
                bound,
            )));
            delta = delta.saturating_add(delta / 2);
        }
        root[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
    }

    /// Reports the lines of a completed iteration; returns the first one's `info`.
    fn report_iteration(
        &self,
        lines: &[RootMove],
        depth: u32,
        on_event: &mut dyn FnMut(SearchEvent),
    ) -> SearchInfo {
        let mut first = None;
        for (i, rm) in lines.iter().enumerate() {
            let info = self.info(rm, depth, i + 1, Bound::Exact);
            on_event(SearchEvent::Info(info.clone()));
            first.get_or_insert(info);
        }
        first.expect("at least one line")
    }

    /// Whether the search ends after a completed iteration: a mate as short as asked
    /// for, the soft time limit, or a single legal move (no need to think under a clock).
    fn iteration_ends_search(&mut self, root: &[RootMove], limits: &Limits) -> bool {
        if let (Some(m), Score::Mate(n)) = (limits.mate, Score::from_internal(root[0].score)) {
            if n > 0 && n as u32 <= m {
                return true;
            }
        }
        self.refresh_pondering();
        self.out_of_time(|b| b.soft)
            || (root.len() == 1 && limits.time.is_some() && !self.pondering)
    }

    /// The move to play and its line. After an interrupted iteration the root list is
    /// sorted by what it found: a move that beat the previous best is trusted, otherwise
    /// the old order stands.
    fn result(
        &self,
        pos: &mut Position,
        root: &[RootMove],
        completed: u32,
        last_info: Option<SearchInfo>,
    ) -> SearchResult {
        let best = &root[0];
        let info = if best.shown_score != NO_SCORE {
            Some(self.info(best, completed.max(1), 1, Bound::Exact))
        } else {
            last_info
        };
        // The expected reply: from the PV, or else from the table (a PV cut short by a
        // table hit still leaves the reply stored), so pondering has a move to ponder on.
        let ponder = best.pv.get(1).copied().or_else(|| {
            pos.make_move(best.mv);
            let reply = self
                .shared
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
            nodes: self.nodes, // the helpers' are added by `search`
        }
    }
}

/// The root moves a search may play: the legal ones among `searchmoves`, or every legal
/// move when none of those is legal (or none was given).
fn root_candidates(pos: &Position, searchmoves: &[Move]) -> Vec<Move> {
    let legal = pos.legal_moves();
    let chosen: Vec<Move> = legal
        .as_slice()
        .iter()
        .copied()
        .filter(|m| searchmoves.contains(m))
        .collect();
    if chosen.is_empty() {
        legal.as_slice().to_vec()
    } else {
        chosen
    }
}
