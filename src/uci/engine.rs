//! The engine thread: owns the game state and the options, executes commands in order,
//! and works out what each `go` asks for; `search_run.rs` runs it (this module uses that
//! one, never the other way round).
//!
//! The engine thread never waits for a search. It keeps receiving messages while one runs,
//! so `isready`, `stop`, `ponderhit` and `quit` are answered at once. Commands that need an
//! idle engine (`position`, `go`, `setoption`, …) that arrive during a search are queued
//! and run, in order, after its `bestmove`; a `stop` or `ponderhit` that follows a queued
//! `go` queues too, so it reaches the search it was meant for.

use super::command::{Command, GoParams, StartPos};
use super::options::{self, OptionId, Options, EMBEDDED_NETWORK, OPTIONS};
use super::output::{self, InfoStyle, Output};
use super::search_run::{SearchRequest, SearchRunner};
use super::Msg;
use crate::bench;
use crate::board::Position;
use crate::book::BookPlayer;
use crate::chess_move::Move;
use crate::datagen::genfens::{self, GenfensRequest};
use crate::nnue::{default_network, Network};
use crate::perft;
use crate::search::Searcher;
use crate::search::{time, Limits};
use crate::types::Color;
use crossbeam_channel::{Receiver, Sender};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why a value `setoption` accepted could not be put to use (the old value stays).
#[derive(Debug)]
pub enum ApplyError {
    /// The machine cannot hold a table this large.
    HashTooLarge {
        /// The size asked for, in MB.
        mb: usize,
    },
    /// The network file could not be loaded.
    EvalFile {
        /// The file.
        name: String,
        /// What is wrong with it.
        error: crate::nnue::NetworkError,
    },
}

impl std::fmt::Display for ApplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApplyError::HashTooLarge { mb } => {
                write!(f, "cannot allocate {mb} MB for the hash table")
            }
            ApplyError::EvalFile { name, error } => {
                write!(f, "EvalFile {name}: {error}; keeping the current network")
            }
        }
    }
}

impl std::error::Error for ApplyError {}

/// Whether the loop goes on.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The engine thread's state.
pub(crate) struct Engine {
    out: Output,
    options: Options,
    position: Position,
    /// The searcher and the search of the last `go`, until its `bestmove`.
    runner: SearchRunner,
    pending: VecDeque<Command>,
    debug: bool,
    /// Set by the end of a command script: quit as soon as the engine is idle.
    quit_when_idle: bool,
    /// The opening book and its options.
    book: BookPlayer,
    /// The network `EvalFile` names (used while `UseNNUE` is on).
    network: Arc<Network>,
}

impl Engine {
    /// A new engine writing to `out`; search threads report back through `tx`.
    pub(crate) fn new(out: Output, tx: Sender<Msg>) -> Engine {
        let options = Options::new();
        let hash = options.spin(options::HASH) as usize;
        Engine {
            runner: SearchRunner::new(out.clone(), tx, Searcher::new(hash)),
            out,
            options,
            position: Position::startpos(),
            pending: VecDeque::new(),
            debug: false,
            quit_when_idle: false,
            book: BookPlayer::new(),
            network: default_network(),
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
                    self.runner.done(*f);
                    Flow::Continue
                }
                Msg::EndOfInput => Flow::Quit,
                Msg::EndOfScript => {
                    self.quit_when_idle = true;
                    Flow::Continue
                }
            };
            if flow == Flow::Quit {
                self.runner.quit(&rx);
                return;
            }
            if self.drain_pending() == Flow::Quit {
                self.runner.quit(&rx);
                return;
            }
            if self.quit_when_idle {
                // After the script nothing would ever stop an infinite search or a ponder.
                if self.runner.is_unending() {
                    self.runner.stop();
                    if self.drain_pending() == Flow::Quit {
                        self.runner.quit(&rx);
                        return;
                    }
                }
                if !self.runner.is_running() && self.pending.is_empty() {
                    return;
                }
            }
        }
    }

    /// Runs queued commands while the engine is idle, and queued `stop`/`ponderhit` meant
    /// for a search the queue has just started.
    fn drain_pending(&mut self) -> Flow {
        while let Some(front) = self.pending.front() {
            let is_control = matches!(front, Command::Stop | Command::PonderHit);
            if self.runner.is_running() && !is_control {
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
    /// Its errors are reported now either way, so a user never waits for a search to end
    /// to learn that a command was wrong.
    fn command(&mut self, c: Command) -> Flow {
        if let Command::Position { start, moves } = &c {
            // A bad `position` keeps the current one: nothing to queue.
            if let Err(e) = build_position(start, moves) {
                self.out.error(e);
                return Flow::Continue;
            }
        }
        if !self.runner.is_running() && self.pending.is_empty() {
            return self.execute(c);
        }
        // A `go` waiting in the queue owns any `stop`/`ponderhit` that comes after it.
        let go_queued = self.pending.iter().any(|p| matches!(p, Command::Go(_)));
        match c {
            Command::Quit => return Flow::Quit,
            Command::IsReady => self.out.line("readyok"),
            Command::Uci => self.uci(),
            Command::Help => self.help(),
            Command::Debug(on) => self.debug = on,
            Command::Register => {}
            Command::Stop | Command::PonderHit if !go_queued => self.search_control(&c),
            Command::Go(go) => {
                // A `go` before the running search was stopped (a GUI error): an infinite
                // or ponder search would never end, so end it; a limited one finishes.
                if !go_queued {
                    if self.runner.is_unending() {
                        self.runner.stop();
                    }
                } else {
                    // The same for an infinite or ponder `go` still in the queue: it gets a
                    // `stop` of its own, or it would hold every later command forever.
                    let last_go = self.pending.iter().rev().find_map(|p| match p {
                        Command::Go(g) => Some(g.ponder || g.is_unlimited()),
                        _ => None,
                    });
                    let stopped = matches!(
                        self.pending.back(),
                        Some(Command::Stop | Command::PonderHit)
                    );
                    if last_go == Some(true) && !stopped {
                        self.pending.push_back(Command::Stop);
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
            Command::Stop => self.runner.stop(),
            Command::PonderHit => self.runner.ponderhit(),
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
            Command::Genfens(request) => self.genfens(&request),
            Command::Help => self.help(),
        }
        Flow::Continue
    }

    /// Starts the search of a `go` on its own thread (or answers from the book).
    /// What the `go` line skipped was reported when it arrived (the reader sends it first).
    fn go(&mut self, go: GoParams) {
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
                self.out.info_string(&format!(
                    "book move {} weight {} of {} from {}",
                    choice.mv.to_uci(chess960),
                    choice.weight,
                    choice.total_weight,
                    self.book.file()
                ));
                let (ponder, infinite) = (go.ponder, go.is_unlimited());
                self.runner
                    .book_move(choice, pos, self.info_style(), ponder, infinite);
                return;
            }
        }
        let overhead = Duration::from_millis(self.options.spin(options::MOVE_OVERHEAD) as u64);
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            mate: go.mate,
            time: time::budget(&go.clock(pos.side_to_move()), overhead),
            searchmoves,
            multipv: self.options.spin(options::MULTI_PV).max(1) as usize,
        };
        if self.debug {
            self.out.info_string(&format!("limits {limits:?}"));
        }
        let strength = self.strength();
        self.searcher(); // made with the current options if it is not there
        self.runner.start(SearchRequest {
            position: pos,
            style: self.info_style(),
            limits,
            ponder: go.ponder,
            infinite: go.is_unlimited(),
            strength,
        });
    }

    /// `help`: the commands, one per line.
    fn help(&self) {
        for line in super::command::HELP {
            self.out.line(line);
        }
    }

    /// The searcher (made anew with the current options if the last one was lost).
    fn searcher(&mut self) -> &mut Searcher {
        let hash = self.options.spin(options::HASH) as usize;
        let threads = self.options.spin(options::THREADS) as usize;
        let net = self.evaluation();
        self.runner.searcher(|| {
            let mut searcher = Searcher::new(hash);
            searcher.set_network(net);
            searcher.set_threads(threads);
            searcher
        })
    }

    /// The network the search should use, or `None` for the hand-crafted evaluation.
    fn evaluation(&self) -> Option<Arc<Network>> {
        self.options
            .check(options::USE_NNUE)
            .then(|| self.network.clone())
    }

    /// Loads the network `EvalFile` names; an unreadable file is an error and the
    /// current network stays.
    fn load_eval_file(&mut self) -> Result<(), ApplyError> {
        let name = self.options.string(options::EVAL_FILE);
        let net = if name.is_empty() || name == EMBEDDED_NETWORK {
            default_network()
        } else {
            let net = Network::load(std::path::Path::new(&name)).map_err(|error| {
                ApplyError::EvalFile {
                    name: name.to_string(),
                    error,
                }
            })?;
            Arc::new(net)
        };
        self.out.info_string(&format!(
            "network {} ({:016x}) loaded",
            if name.is_empty() {
                EMBEDDED_NETWORK
            } else {
                &name
            },
            net.header().hash
        ));
        self.network = net;
        let eval = self.evaluation();
        self.searcher().set_network(eval);
        Ok(())
    }

    /// The strength limit of the options: `UCI_Elo` when `UCI_LimitStrength` is on, else
    /// `Skill Level` below 20, else none (full strength).
    fn strength(&self) -> Option<crate::search::Strength> {
        use crate::search::Strength;
        let seed = self.options.spin(options::STRENGTH_SEED) as u64;
        if self.options.check(options::LIMIT_STRENGTH) {
            Strength::at(self.options.spin(options::ELO) as u32, seed)
        } else {
            Strength::from_skill(self.options.spin(options::SKILL_LEVEL) as u32, seed)
        }
    }

    /// How the search uses the tablebases, from the `Syzygy*` options.
    fn tablebase_settings(&self) -> crate::search::TablebaseSettings {
        crate::search::TablebaseSettings {
            probe_depth: self.options.spin(options::SYZYGY_PROBE_DEPTH) as i32,
            probe_limit: self.options.spin(options::SYZYGY_PROBE_LIMIT) as u32,
            fifty_move_rule: self.options.check(options::SYZYGY_50_MOVE_RULE),
        }
    }

    /// How `info` and `bestmove` lines are written, from the options.
    fn info_style(&self) -> InfoStyle {
        InfoStyle {
            chess960: self.chess960(),
            show_wdl: self.options.check(options::SHOW_WDL),
        }
    }

    fn chess960(&self) -> bool {
        self.options.check(options::CHESS960)
    }

    fn uci(&self) {
        self.out
            .line(&format!("id name Ladya {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the Ladya developers");
        for spec in OPTIONS {
            self.out.line(&spec.uci_line());
        }
        #[cfg(feature = "tune")]
        for line in super::tunables::uci_lines() {
            self.out.line(&line);
        }
        self.out.line("uciok");
    }

    fn setoption(&mut self, name: &str, value: Option<&str>) {
        #[cfg(feature = "tune")]
        if let Some(t) = super::tunables::find(name) {
            if let Err(e) = super::tunables::set(t, value) {
                self.out.error(e);
            }
            return;
        }
        match self.options.set(name, value) {
            Err(e) => self.out.error(e),
            Ok((spec, old)) => {
                if let Err(e) = self.apply_option(spec.id) {
                    self.options.restore(spec, old);
                    self.out.error(e);
                } else if self.debug {
                    self.out.info_string(&format!("{} set", spec.name));
                }
            }
        }
    }

    /// Side effects of an option that has just been set. An error rejects the value.
    fn apply_option(&mut self, id: OptionId) -> Result<(), ApplyError> {
        match id {
            OptionId::Hash => {
                let mb = self.options.spin(options::HASH) as usize;
                // A table the machine cannot hold would abort the process: probe the
                // allocation first (reserving address space touches no memory).
                let mut probe: Vec<u8> = Vec::new();
                probe
                    .try_reserve_exact(mb << 20)
                    .map_err(|_| ApplyError::HashTooLarge { mb })?;
                drop(probe);
                self.searcher().resize_hash(mb);
            }
            OptionId::ClearHash => self.searcher().clear(),
            OptionId::Threads => {
                let threads = self.options.spin(options::THREADS) as usize;
                self.searcher().set_threads(threads);
            }
            OptionId::EvalFile => self.load_eval_file()?,
            OptionId::UseNnue => {
                let eval = self.evaluation();
                self.searcher().set_network(eval);
            }
            OptionId::OwnBook => self.book.enabled = self.options.check(options::OWN_BOOK),
            OptionId::BookDepth => self.book.depth = self.options.spin(options::BOOK_DEPTH) as u32,
            OptionId::BookVariety => self.book.variety = self.options.check(options::BOOK_VARIETY),
            OptionId::BookFile => {
                // The value stays set: the error is reported once and the engine plays
                // on without a book until another file is given.
                if let Err(e) = self.book.set_file(self.options.string(options::BOOK_FILE)) {
                    self.out.error(format!("{e}; playing without a book"));
                }
            }
            OptionId::SyzygyPath => {
                // Whatever could be used is used; each folder or file left out is
                // reported, and the value stays set.
                let report = crate::tablebase::load(self.options.string(options::SYZYGY_PATH));
                for e in &report.errors {
                    self.out.error(e.to_string());
                }
                if report.max_pieces > 0 || report.errors.is_empty() {
                    self.out.info_string(&report.summary());
                }
            }
            OptionId::SyzygyProbeDepth
            | OptionId::SyzygyProbeLimit
            | OptionId::Syzygy50MoveRule => {
                let settings = self.tablebase_settings();
                self.searcher().set_tablebase_settings(settings);
            }
            OptionId::Ponder
            | OptionId::MultiPv
            | OptionId::MoveOverhead
            | OptionId::Chess960
            | OptionId::ShowWdl
            | OptionId::LimitStrength
            | OptionId::Elo
            | OptionId::SkillLevel
            | OptionId::StrengthSeed => {} // read when a search starts
        }
        Ok(())
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
        let pos = &self.position;
        let white = |v: i32| {
            if pos.side_to_move() == Color::White {
                v
            } else {
                -v
            }
        };
        let nnue = white(crate::nnue::evaluate_from_scratch(&self.network, pos));
        self.out.line(&format!(
            "NNUE evaluation: {:+.2} (White's view, network {:016x})",
            nnue as f64 / 100.0,
            self.network.header().hash
        ));
        let used = match (
            self.options.check(options::USE_NNUE),
            crate::nnue::bare_king_ending(pos),
        ) {
            (false, _) => "the hand-crafted evaluation (UseNNUE false)",
            (true, true) => "the hand-crafted evaluation (a bare-king ending: its mop-up)",
            (true, false) => "the network (UseNNUE true)",
        };
        self.out.line(&format!("The search uses {used}."));
    }

    fn bench(&mut self, depth: Option<u32>) {
        let eval = self.evaluation();
        let report = bench::run_with(
            depth.unwrap_or(bench::DEFAULT_BENCH_DEPTH),
            eval,
            self.options.spin(options::THREADS) as usize,
            &mut |_, _| {},
        );
        self.out.line(&report.to_string());
    }

    /// OpenBench's DATAGEN openings, one `info string genfens <FEN>` each, made with the
    /// evaluation in use.
    fn genfens(&mut self, request: &GenfensRequest) {
        for token in &request.unknown {
            self.out
                .info_string(&format!("genfens: unknown argument '{token}' ignored"));
        }
        let book = match &request.book {
            Some(path) => match genfens::read_book(path) {
                Ok(book) => book,
                Err(e) => return self.out.error(e),
            },
            None => Vec::new(),
        };
        let out = &self.out;
        let emit = &mut |fen: &str| out.info_string(&format!("genfens {fen}"));
        if let Err(e) = genfens::generate(request, &book, self.evaluation(), emit) {
            self.out.error(e);
        }
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
