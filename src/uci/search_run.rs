//! Running a search for `go`: the search thread, holding `bestmove` back under `go
//! infinite` and `go ponder`, `stop` and `ponderhit`, and the final `info` + `bestmove`.
//!
//! Rules the GUI relies on: exactly one `bestmove` per `go`; none before `stop` or
//! `ponderhit` under infinite or ponder, even when the search ends early (a forced mate,
//! the maximum depth); the move is checked legal, and a legal move is played even if the
//! search failed to produce one.

use super::output::{self, InfoStyle, Output};
use super::Msg;
use crate::board::Position;
use crate::book::BookChoice;
use crate::eval::evaluate;
use crate::search::pool::{Priority, SearchThread};
use crate::search::{
    Bound, HelperStop, Limits, Score, SearchControl, SearchEvent, SearchInfo, SearchResult,
    Searcher, Strength,
};
use crossbeam_channel::{Receiver, Sender};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long `quit` waits for a running search to hand back its result, so that its `go`
/// still gets a `bestmove` (the search answers a stop within 5 ms at worst, measured with
/// 1, 2 and 8 threads); short, because `quit` means now.
const QUIT_WAIT: Duration = Duration::from_millis(30);

/// What a search thread hands back when its search returns.
pub(crate) struct Finished {
    /// The searcher, or `None` when the search panicked (it is made anew).
    pub(super) searcher: Option<Searcher>,
    pub(super) result: SearchResult,
}

/// The search in progress (or finished and held back until `stop` / `ponderhit`).
pub(super) struct Running {
    pub(super) control: Arc<SearchControl>,
    /// Stops the helper threads at once on `stop` (`None` for a book move).
    pub(super) helper_stop: Option<HelperStop>,
    /// `go infinite` (or a bare `go`): no `bestmove` before `stop`.
    pub(super) infinite: bool,
    pub(super) stop_requested: bool,
    /// The result of a search that returned before `bestmove` was allowed.
    pub(super) held: Option<SearchResult>,
    /// The root position, to validate the result.
    pub(super) position: Position,
    pub(super) style: InfoStyle,
    pub(super) started: Instant,
    /// How long the search ran, once it has returned (a held result is reported with the
    /// time it searched, not the time it waited for `stop`).
    pub(super) duration: Option<Duration>,
}

/// What a `go` asks of the search, worked out by the engine from the command and options.
pub(super) struct SearchRequest {
    pub(super) position: Position,
    pub(super) style: InfoStyle,
    pub(super) limits: Limits,
    /// `go ponder`.
    pub(super) ponder: bool,
    /// `go infinite` or a bare `go`.
    pub(super) infinite: bool,
    /// Play below full strength.
    pub(super) strength: Option<Strength>,
}

/// The searcher, the thread it searches on, and the search of the last `go` until its
/// `bestmove`: everything about running searches, so the engine thread only decides
/// what to search.
pub(super) struct SearchRunner {
    out: Output,
    /// Search threads report back through this.
    tx: Sender<Msg>,
    /// `None` while a search thread has it.
    searcher: Option<Searcher>,
    /// The thread searches run on, parked between them (started by the first search).
    thread: Option<SearchThread>,
    /// The search of the last `go`, until its `bestmove`.
    run: Option<Running>,
}

impl SearchRunner {
    /// A runner printing to `out`, with `searcher` ready.
    pub(super) fn new(out: Output, tx: Sender<Msg>, searcher: Searcher) -> SearchRunner {
        SearchRunner {
            out,
            tx,
            searcher: Some(searcher),
            thread: None,
            run: None,
        }
    }

    /// The searcher (made by `make` if the last one was lost with a failed search).
    /// Only while no search runs: the engine queues what needs it until `bestmove`.
    pub(super) fn searcher(&mut self, make: impl FnOnce() -> Searcher) -> &mut Searcher {
        self.searcher.get_or_insert_with(make)
    }

    /// A search (or a book move waiting for `stop`/`ponderhit`) is under way.
    pub(super) fn is_running(&self) -> bool {
        self.run.is_some()
    }

    /// The running search would never end by itself: infinite or pondering, and not
    /// told to stop.
    pub(super) fn is_unending(&self) -> bool {
        self.run.as_ref().is_some_and(|run| {
            !run.stop_requested && (run.infinite || run.control.pondering.load(Ordering::Relaxed))
        })
    }

    /// Starts `request` on the search thread. The searcher must be there
    /// ([`SearchRunner::searcher`] first).
    pub(super) fn start(&mut self, request: SearchRequest) {
        let SearchRequest {
            position: pos,
            style,
            limits,
            ponder,
            infinite,
            strength,
        } = request;
        let control = Arc::new(SearchControl::default());
        control.pondering.store(ponder, Ordering::Relaxed);
        let Some(mut searcher) = self.searcher.take() else {
            unreachable!("the engine makes the searcher before it starts a search")
        };
        self.run = Some(Running {
            control: Arc::clone(&control),
            helper_stop: Some(searcher.helper_stop()),
            infinite,
            stop_requested: false,
            held: None,
            position: pos.clone(),
            style,
            started: Instant::now(),
            duration: None,
        });
        let out = self.out.clone();
        let tx = self.tx.clone();
        let job = Box::new(move || {
            let mut on_event = |event: SearchEvent| match event {
                SearchEvent::Info(info) => out.line(&output::info_line(&info, &pos, style)),
                SearchEvent::CurrMove { depth, mv, number } => {
                    out.line(&output::currmove_line(depth, mv, number, style.chess960))
                }
            };
            // A search that panics must still answer its `go`: the engine gets an empty
            // result (it plays a legal move) and makes a new searcher.
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let result = match strength {
                    Some(s) => {
                        searcher.search_at_strength(&pos, &limits, s, &control, &mut on_event)
                    }
                    None => searcher.search(&pos, &limits, &control, &mut on_event),
                };
                (searcher, result)
            }));
            let finished = match run {
                Ok((searcher, result)) => Finished {
                    searcher: Some(searcher),
                    result,
                },
                Err(_) => Finished {
                    searcher: None,
                    result: SearchResult::default(),
                },
            };
            let _ = tx.send(Msg::SearchDone(Box::new(finished)));
        });
        let started = match &mut self.thread {
            Some(worker) => worker.run(job),
            None => SearchThread::spawn("search".to_string(), Priority::Normal).and_then(
                |mut worker| {
                    let started = worker.run(job);
                    self.thread = Some(worker);
                    started
                },
            ),
        };
        if let Err(e) = started {
            // Still answer the `go`, with any legal move.
            self.out
                .error(format!("cannot start the search thread: {e}"));
            self.emit(SearchResult::default());
        }
    }

    /// Answers `go` with a book move, as a search that finished at once: `bestmove` now,
    /// or held until `stop` / `ponderhit` for `go ponder` and `go infinite`.
    pub(super) fn book_move(
        &mut self,
        choice: BookChoice,
        pos: Position,
        style: InfoStyle,
        ponder: bool,
        infinite: bool,
    ) {
        let control = Arc::new(SearchControl::default());
        control.pondering.store(ponder, Ordering::Relaxed);
        self.run = Some(Running {
            control,
            helper_stop: None,
            infinite,
            stop_requested: false,
            held: None,
            position: pos,
            style,
            started: Instant::now(),
            duration: Some(Duration::ZERO),
        });
        // Score 0: book lines are balanced by design, and a static evaluation in the
        // middle of an exchange would mislead the GUI's score display.
        let info = SearchInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score: Score::Cp(0),
            bound: Bound::Exact,
            nodes: 0,
            tbhits: 0,
            time: Duration::ZERO,
            hashfull: 0,
            pv: std::iter::once(choice.mv).chain(choice.ponder).collect(),
        };
        let result = SearchResult {
            best: Some(choice.mv),
            ponder: choice.ponder,
            info: Some(info),
            nodes: 0,
        };
        if ponder || infinite {
            if let Some(run) = &mut self.run {
                run.held = Some(result);
            }
        } else {
            self.emit(result);
        }
    }

    pub(super) fn stop(&mut self) {
        let Some(run) = &mut self.run else {
            return;
        };
        run.stop_requested = true;
        run.control.stop.store(true, Ordering::Relaxed);
        if let Some(helpers) = &run.helper_stop {
            helpers.stop();
        }
        if let Some(result) = run.held.take() {
            self.emit(result);
        }
    }

    pub(super) fn ponderhit(&mut self) {
        let Some(run) = &mut self.run else {
            return;
        };
        run.control.pondering.store(false, Ordering::Relaxed);
        if !run.infinite {
            if let Some(result) = run.held.take() {
                self.emit(result);
            }
        }
    }

    /// A search thread returned: answer now, or hold the answer until `stop`/`ponderhit`.
    pub(super) fn done(&mut self, f: Finished) {
        if f.searcher.is_none() {
            self.out
                .error("the search failed; answering with a legal move and a new searcher");
        }
        self.searcher = f.searcher;
        let Some(run) = &mut self.run else {
            return;
        };
        run.duration = Some(run.started.elapsed());
        let must_wait = run.infinite || run.control.pondering.load(Ordering::Relaxed);
        if must_wait && !run.stop_requested {
            run.held = Some(f.result);
        } else {
            self.emit(f.result);
        }
    }

    /// Prints the final `info` and the `bestmove` of the running search, which ends here.
    fn emit(&mut self, result: SearchResult) {
        let Some(run) = self.run.take() else {
            return;
        };
        let pos = &run.position;
        let best = match result.best {
            Some(mv) if pos.is_legal(mv) => Some(mv),
            Some(mv) => {
                self.out.error(format!(
                    "search returned an illegal move {}",
                    mv.to_uci(run.style.chess960)
                ));
                pos.legal_moves().as_slice().first().copied()
            }
            None => pos.legal_moves().as_slice().first().copied(),
        };
        let Some(best) = best else {
            let score = if pos.in_check() { "mate 0" } else { "cp 0" };
            self.out.line(&format!("info depth 0 score {score}"));
            self.out
                .line(&output::bestmove_line(None, None, run.style.chess960));
            return;
        };
        let mut info = match result.info {
            Some(info) if info.pv.first() == Some(&best) => info,
            other => {
                // No line for the move played (should not happen): report it with the
                // best score known, so a score still precedes `bestmove`.
                let (depth, score) =
                    other.map_or((0, Score::Cp(evaluate(pos))), |i| (i.depth, i.score));
                SearchInfo {
                    depth,
                    seldepth: depth,
                    multipv: 1,
                    score,
                    bound: Bound::Exact,
                    nodes: 0,
                    tbhits: 0,
                    time: Duration::ZERO,
                    hashfull: 0,
                    pv: vec![best],
                }
            }
        };
        info.multipv = 1;
        info.nodes = info.nodes.max(result.nodes);
        info.time = run.duration.unwrap_or_else(|| run.started.elapsed());
        let pv = output::legal_prefix(pos, &info.pv);
        let ponder = pv.get(1).copied().or_else(|| {
            let reply = result.ponder?;
            let mut after = pos.clone();
            after.make_move(best);
            after.is_legal(reply).then_some(reply)
        });
        self.out.line(&output::info_line(&info, pos, run.style));
        self.out.line(&output::bestmove_line(
            Some(best),
            ponder,
            run.style.chess960,
        ));
    }

    /// Stops any search and gives it a moment to hand back its result, so a `go` still
    /// gets its `bestmove`.
    pub(super) fn quit(&mut self, rx: &Receiver<Msg>) {
        if self.run.is_none() {
            return;
        }
        // Stopped as by `stop`: the helpers too, so they are parked, not running, when
        // the process ends (a process is gone only when its last thread is).
        self.stop();
        if self.run.is_none() {
            return;
        }
        let deadline = Instant::now() + QUIT_WAIT;
        while let Ok(msg) = rx.recv_deadline(deadline) {
            if let Msg::SearchDone(f) = msg {
                self.done(*f);
                return;
            }
        }
    }
}
