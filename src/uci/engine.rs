//! The engine thread: owns the game state, the options and the searcher, executes commands
//! in order, and runs each search on its own thread.
//!
//! The engine thread never waits for a search. It keeps receiving messages while one runs,
//! so `isready`, `stop`, `ponderhit` and `quit` are answered at once. Commands that need an
//! idle engine (`position`, `go`, `setoption`, …) that arrive during a search are queued
//! and run, in order, after its `bestmove`; a `stop` or `ponderhit` that follows a queued
//! `go` queues too, so it reaches the search it was meant for.

use super::command::{Command, GoParams, StartPos};
use super::options::{Options, OPTIONS};
use super::output::{self, Output};
use super::time;
use super::Msg;
use crate::bench;
use crate::board::Position;
use crate::book::{BookChoice, BookPlayer};
use crate::chess_move::Move;
use crate::eval::evaluate;
use crate::perft;
use crate::search::{Bound, Limits, Score, SearchControl, SearchEvent, SearchResult, Searcher};
use crossbeam_channel::{Receiver, Sender};
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Stack of the search thread: deep recursion must never overflow it.
const SEARCH_STACK_BYTES: usize = 64 << 20;
/// How long `quit` waits for a running search to hand back its result.
const QUIT_WAIT: Duration = Duration::from_millis(80);

/// What a search thread hands back when its search returns.
pub(crate) struct Finished {
    searcher: Searcher,
    result: SearchResult,
}

/// The search in progress (or finished and held back until `stop` / `ponderhit`).
struct Running {
    control: Arc<SearchControl>,
    /// `go infinite` (or a bare `go`): no `bestmove` before `stop`.
    infinite: bool,
    stop_requested: bool,
    /// The result of a search that returned before `bestmove` was allowed.
    held: Option<SearchResult>,
    /// The root position, to validate the result.
    position: Position,
    chess960: bool,
    started: Instant,
}

/// Whether the loop goes on.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The engine thread's state.
pub(crate) struct Engine {
    out: Output,
    tx: Sender<Msg>,
    options: Options,
    position: Position,
    /// `None` while a search thread has it.
    searcher: Option<Searcher>,
    search: Option<Running>,
    pending: VecDeque<Command>,
    debug: bool,
    /// Set by the end of a command script: quit as soon as the engine is idle.
    quit_when_idle: bool,
    /// The opening book and its options.
    book: BookPlayer,
}

impl Engine {
    /// A new engine writing to `out`; search threads report back through `tx`.
    pub(crate) fn new(out: Output, tx: Sender<Msg>) -> Engine {
        let options = Options::new();
        let hash = options.spin("Hash") as usize;
        Engine {
            out,
            tx,
            options,
            position: Position::startpos(),
            searcher: Some(Searcher::new(hash)),
            search: None,
            pending: VecDeque::new(),
            debug: false,
            quit_when_idle: false,
            book: BookPlayer::new(),
        }
    }

    /// Serves messages until `quit`, end of input, or the end of a command script.
    pub(crate) fn run(mut self, rx: Receiver<Msg>) {
        while let Ok(msg) = rx.recv() {
            let flow = match msg {
                Msg::Command(c) => self.command(c),
                Msg::Error(e) => {
                    self.out.error(e);
                    Flow::Continue
                }
                Msg::SearchDone(f) => {
                    self.search_done(*f);
                    Flow::Continue
                }
                Msg::EndOfInput => Flow::Quit,
                Msg::EndOfScript => {
                    self.quit_when_idle = true;
                    // Nothing would ever stop an infinite search or a ponder.
                    if let Some(run) = &self.search {
                        if run.infinite || run.control.pondering.load(Ordering::Relaxed) {
                            self.stop();
                        }
                    }
                    Flow::Continue
                }
            };
            if flow == Flow::Quit {
                self.quit(&rx);
                return;
            }
            if self.drain_pending() == Flow::Quit {
                self.quit(&rx);
                return;
            }
            if self.quit_when_idle && self.search.is_none() && self.pending.is_empty() {
                return;
            }
        }
    }

    /// Runs queued commands while the engine is idle, and queued `stop`/`ponderhit` meant
    /// for a search the queue has just started.
    fn drain_pending(&mut self) -> Flow {
        while let Some(front) = self.pending.front() {
            let is_control = matches!(front, Command::Stop | Command::PonderHit);
            if self.search.is_some() && !is_control {
                break;
            }
            let Some(c) = self.pending.pop_front() else {
                break;
            };
            if self.execute(c) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// Handles a command as it arrives: at once, or queued behind the running search.
    fn command(&mut self, c: Command) -> Flow {
        if self.search.is_none() && self.pending.is_empty() {
            return self.execute(c);
        }
        // A `go` waiting in the queue owns any `stop`/`ponderhit` that comes after it.
        let go_queued = self.pending.iter().any(|p| matches!(p, Command::Go(_)));
        match c {
            Command::Quit => return Flow::Quit,
            Command::IsReady => self.out.line("readyok"),
            Command::Uci => self.uci(),
            Command::Debug(on) => self.debug = on,
            Command::Register => {}
            Command::Stop | Command::PonderHit if !go_queued => self.search_control(&c),
            Command::Go(go) => {
                // A `go` before the running search was stopped (a GUI error): an infinite
                // or ponder search would never end, so end it; a limited one finishes.
                if !go_queued {
                    if let Some(run) = &self.search {
                        if run.infinite || run.control.pondering.load(Ordering::Relaxed) {
                            self.stop();
                        }
                    }
                }
                self.pending.push_back(Command::Go(go));
            }
            c => self.pending.push_back(c),
        }
        Flow::Continue
    }

    /// Applies `stop` or `ponderhit` to the running search.
    fn search_control(&mut self, c: &Command) {
        match c {
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            _ => {}
        }
    }

    /// Executes a command on the idle engine.
    fn execute(&mut self, c: Command) -> Flow {
        match c {
            Command::Quit => return Flow::Quit,
            Command::IsReady => self.out.line("readyok"),
            Command::Uci => self.uci(),
            Command::Debug(on) => self.debug = on,
            // While idle, `stop` and `ponderhit` have nothing to act on, and nothing leaks
            // into the next search (each search gets fresh control flags).
            Command::Stop | Command::PonderHit => self.search_control(&c),
            Command::Register => {}
            Command::SetOption { name, value } => self.setoption(&name, value.as_deref()),
            Command::UciNewGame => {
                self.searcher().clear();
                self.book.new_game();
                self.position = Position::startpos();
            }
            Command::Position { start, moves } => match build_position(&start, &moves) {
                Ok(pos) => self.position = pos,
                Err(e) => self.out.error(e),
            },
            Command::Go(go) => self.go(go),
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Bench(depth) => self.bench(depth),
            Command::Perft(depth) => self.perft(depth),
        }
        Flow::Continue
    }

    fn searcher(&mut self) -> &mut Searcher {
        let hash = self.options.spin("Hash") as usize;
        self.searcher.get_or_insert_with(|| Searcher::new(hash))
    }

    fn chess960(&self) -> bool {
        self.options.check("UCI_Chess960")
    }

    fn uci(&self) {
        self.out
            .line(&format!("id name Ladya {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the Ladya developers");
        for spec in OPTIONS {
            self.out.line(&spec.uci_line());
        }
        self.out.line("uciok");
    }

    fn setoption(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Err(e) => self.out.error(e),
            Ok((spec, old)) => {
                if let Err(e) = self.apply_option(spec.name) {
                    self.options.restore(spec, old);
                    self.out.error(e);
                } else if self.debug {
                    self.out.info_string(&format!("{} set", spec.name));
                }
            }
        }
    }

    /// Side effects of an option that has just been set. An error rejects the value.
    fn apply_option(&mut self, name: &str) -> Result<(), String> {
        match name {
            "Hash" => {
                let mb = self.options.spin("Hash") as usize;
                // A table the machine cannot hold would abort the process: probe the
                // allocation first (reserving address space touches no memory).
                let mut probe: Vec<u8> = Vec::new();
                probe
                    .try_reserve_exact(mb << 20)
                    .map_err(|_| format!("cannot allocate {mb} MB for the hash table"))?;
                drop(probe);
                self.searcher().resize_hash(mb);
            }
            "Clear Hash" => self.searcher().clear(),
            "OwnBook" => self.book.enabled = self.options.check("OwnBook"),
            "BookDepth" => self.book.depth = self.options.spin("BookDepth") as u32,
            "BookVariety" => self.book.variety = self.options.check("BookVariety"),
            "BookFile" => {
                // The value stays set: the error is reported once and the engine plays
                // on without a book until another file is given.
                if let Err(e) = self.book.set_file(self.options.string("BookFile")) {
                    self.out.error(format!("{e}; playing without a book"));
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn go(&mut self, go: GoParams) {
        for w in &go.warnings {
            self.out.error(w);
        }
        let pos = self.position.clone();
        let chess960 = self.chess960();
        let mut searchmoves: Vec<Move> = Vec::new();
        for text in &go.searchmoves {
            match pos.parse_uci_move(text) {
                Ok(mv) => searchmoves.push(mv),
                Err(e) => self.out.error(format!("searchmoves: {e}")),
            }
        }
        if searchmoves.is_empty() {
            if let Some(choice) = self.book.pick(&pos, chess960) {
                self.book_move(choice, &go, pos, chess960);
                return;
            }
        }
        let overhead = Duration::from_millis(self.options.spin("Move Overhead") as u64);
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            mate: go.mate,
            time: time::budget(&go, pos.side_to_move(), overhead),
            searchmoves,
            multipv: self.options.spin("MultiPV").max(1) as usize,
        };
        if self.debug {
            self.out.info_string(&format!("limits {limits:?}"));
        }
        let control = Arc::new(SearchControl::default());
        control.pondering.store(go.ponder, Ordering::Relaxed);
        let hash = self.options.spin("Hash") as usize;
        let mut searcher = self.searcher.take().unwrap_or_else(|| Searcher::new(hash));
        self.search = Some(Running {
            control: Arc::clone(&control),
            infinite: go.is_unlimited(),
            stop_requested: false,
            held: None,
            position: pos.clone(),
            chess960,
            started: Instant::now(),
        });
        let out = self.out.clone();
        let tx = self.tx.clone();
        let spawned = thread::Builder::new()
            .name("search".to_string())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let mut on_event = |event: SearchEvent| match event {
                    SearchEvent::Info(info) => out.line(&output::info_line(&info, &pos, chess960)),
                    SearchEvent::CurrMove { depth, mv, number } => {
                        out.line(&output::currmove_line(depth, mv, number, chess960))
                    }
                };
                let result = searcher.search(&pos, &limits, &control, &mut on_event);
                let _ = tx.send(Msg::SearchDone(Box::new(Finished { searcher, result })));
            });
        if let Err(e) = spawned {
            // Still answer the `go`, with any legal move.
            self.out
                .error(format!("cannot start the search thread: {e}"));
            let result = SearchResult {
                best: None,
                ponder: None,
                info: None,
                nodes: 0,
            };
            self.emit(result);
        }
    }

    /// Answers `go` with a book move, as a search that finished at once: `bestmove` now,
    /// or held until `stop` / `ponderhit` for `go ponder` and `go infinite`.
    fn book_move(&mut self, choice: BookChoice, go: &GoParams, pos: Position, chess960: bool) {
        self.out.info_string(&format!(
            "book move {} weight {} of {} from {}",
            choice.mv.to_uci(chess960),
            choice.weight,
            choice.total_weight,
            self.book.file()
        ));
        let control = Arc::new(SearchControl::default());
        control.pondering.store(go.ponder, Ordering::Relaxed);
        self.search = Some(Running {
            control,
            infinite: go.is_unlimited(),
            stop_requested: false,
            held: None,
            position: pos,
            chess960,
            started: Instant::now(),
        });
        // Score 0: book lines are balanced by design, and a static evaluation in the
        // middle of an exchange would mislead the GUI's score display.
        let info = crate::search::SearchInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score: Score::Cp(0),
            bound: Bound::Exact,
            nodes: 0,
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
        if go.ponder || go.is_unlimited() {
            if let Some(run) = &mut self.search {
                run.held = Some(result);
            }
        } else {
            self.emit(result);
        }
    }

    fn stop(&mut self) {
        let Some(run) = &mut self.search else {
            return;
        };
        run.stop_requested = true;
        run.control.stop.store(true, Ordering::Relaxed);
        if let Some(result) = run.held.take() {
            self.emit(result);
        }
    }

    fn ponderhit(&mut self) {
        let Some(run) = &mut self.search else {
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
    fn search_done(&mut self, f: Finished) {
        self.searcher = Some(f.searcher);
        let Some(run) = &mut self.search else {
            return;
        };
        let must_wait = run.infinite || run.control.pondering.load(Ordering::Relaxed);
        if must_wait && !run.stop_requested {
            run.held = Some(f.result);
        } else {
            self.emit(f.result);
        }
    }

    /// Prints the final `info` and the `bestmove` of the running search, which ends here.
    fn emit(&mut self, result: SearchResult) {
        let Some(run) = self.search.take() else {
            return;
        };
        let pos = &run.position;
        let best = match result.best {
            Some(mv) if pos.is_legal(mv) => Some(mv),
            Some(mv) => {
                self.out.error(format!(
                    "search returned an illegal move {}",
                    mv.to_uci(run.chess960)
                ));
                pos.legal_moves().as_slice().first().copied()
            }
            None => pos.legal_moves().as_slice().first().copied(),
        };
        let Some(best) = best else {
            let score = if pos.in_check() { "mate 0" } else { "cp 0" };
            self.out.line(&format!("info depth 0 score {score}"));
            self.out
                .line(&output::bestmove_line(None, None, run.chess960));
            return;
        };
        let mut info = match result.info {
            Some(info) if info.pv.first() == Some(&best) => info,
            other => {
                // No line for the move played (should not happen): report it with the
                // best score known, so a score still precedes `bestmove`.
                let (depth, score) =
                    other.map_or((0, Score::Cp(evaluate(pos))), |i| (i.depth, i.score));
                crate::search::SearchInfo {
                    depth,
                    seldepth: depth,
                    multipv: 1,
                    score,
                    bound: Bound::Exact,
                    nodes: 0,
                    time: Duration::ZERO,
                    hashfull: 0,
                    pv: vec![best],
                }
            }
        };
        info.multipv = 1;
        info.nodes = info.nodes.max(result.nodes);
        info.time = run.started.elapsed();
        let pv = output::legal_prefix(pos, &info.pv);
        let ponder = pv.get(1).copied().or_else(|| {
            let reply = result.ponder?;
            let mut after = pos.clone();
            after.make_move(best);
            after.is_legal(reply).then_some(reply)
        });
        self.out.line(&output::info_line(&info, pos, run.chess960));
        self.out
            .line(&output::bestmove_line(Some(best), ponder, run.chess960));
    }

    /// Stops any search and gives it a moment to hand back its result, so a `go` still
    /// gets its `bestmove`.
    fn quit(&mut self, rx: &Receiver<Msg>) {
        if self.search.is_none() {
            return;
        }
        if let Some(run) = &mut self.search {
            run.stop_requested = true;
            run.control.stop.store(true, Ordering::Relaxed);
            if let Some(result) = run.held.take() {
                self.emit(result);
                return;
            }
        }
        let deadline = Instant::now() + QUIT_WAIT;
        while let Ok(msg) = rx.recv_deadline(deadline) {
            if let Msg::SearchDone(f) = msg {
                self.search_done(*f);
                return;
            }
        }
    }

    fn display(&self) {
        for line in self.position.to_string().lines() {
            self.out.line(line);
        }
        let checkers: Vec<String> = self
            .position
            .checkers()
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        self.out.line(&format!("Checkers: {}", checkers.join(" ")));
    }

    /// The evaluation term by term (`ladya::eval::trace`).
    fn eval(&self) {
        let trace = crate::eval::trace(&self.position);
        for line in trace.to_string().lines() {
            self.out.line(line);
        }
    }

    fn bench(&mut self, depth: Option<u32>) {
        let report = bench::run(depth.unwrap_or(bench::DEFAULT_BENCH_DEPTH));
        self.out.line(&report.to_string());
    }

    fn perft(&mut self, depth: u32) {
        if depth == 0 {
            self.out.error("perft depth must be at least 1");
            return;
        }
        let mut pos = self.position.clone();
        let start = Instant::now();
        let mut total = 0;
        for (mv, n) in perft::divide(&mut pos, depth) {
            self.out
                .line(&format!("{}: {n}", mv.to_uci(self.chess960())));
            total += n;
        }
        let micros = start.elapsed().as_micros();
        self.out.line("");
        self.out.line(&format!(
            "Nodes searched: {total} ({} nps)",
            output::nps(total, micros)
        ));
    }
}

/// The position of a `position` command; an error rejects the whole command.
pub(crate) fn build_position(start: &StartPos, moves: &[String]) -> Result<Position, String> {
    let mut pos = match start {
        StartPos::Startpos => Position::startpos(),
        StartPos::Fen(fen) => {
            Position::from_fen(fen).map_err(|e| format!("invalid FEN '{fen}': {e}"))?
        }
    };
    for (i, text) in moves.iter().enumerate() {
        let mv = pos
            .parse_uci_move(text)
            .map_err(|e| format!("position rejected at move {}: {e}", i + 1))?;
        pos.make_move(mv);
    }
    Ok(pos)
}
