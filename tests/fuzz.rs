//! Hostile input, fuzzed (issue 19): every parser a user can reach is fed mutated and
//! random input, and must answer with a value or a typed error: no panic, no hang, and
//! nothing accepted that breaks an invariant (an accepted position validates, an accepted
//! move is legal, an accepted book or network is well formed).
//!
//! The mutator and the runner are in `common/fuzz.rs`. Each test has a fixed seed, and a
//! failure prints the input with the seed and case number that rebuild it.
//!
//! Tiers: `cargo test --release --test fuzz` runs [`NORMAL`] cases per parser (fewer for
//! whole engine sessions and network files, which cost milliseconds each);
//! `cargo test --release --test fuzz -- --ignored` runs the same tests with [`BIG`] cases;
//! `FUZZ_CASES=n` sets another count.

mod common;
#[path = "common/fuzz.rs"]
mod kit;

use kit::{below, fuzz, one_in, pick, random_text, Mutator, Rng};
use ladya::analyse::{game_title, play_out};
use ladya::book::{
    builtin_book, decode_move, encode_move, has_standard_castling, parse_lines, parse_move,
    parse_pgn, polyglot_key, Book, BookError, Entry, ENTRY_SIZE,
};
use ladya::epd::{EpdError, EpdRecord};
use ladya::movegen::MAX_MOVES;
use ladya::nnue::{default_network, evaluate_from_scratch, Network};
use ladya::search::{Limits, SearchControl, Searcher};
use ladya::uci::command::{self, Command, CommandError};
use ladya::uci::output::Output;
use ladya::{FenError, Move, Position, Square, START_FEN};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Once, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

/// Cases per parser in the normal tier.
const NORMAL: u64 = 10_000;
/// Cases per parser in the ignored tier.
const BIG: u64 = 1_000_000;
/// Whole UCI sessions in the normal tier (each starts an engine).
const NORMAL_SESSIONS: u64 = 300;
/// Network files in the normal tier (each copies and maybe hashes 400 KB).
const NORMAL_NETWORKS: u64 = 2_000;
/// A case that takes longer than this hangs. Generous: the machine may be loaded.
const HANG: Duration = Duration::from_secs(10);
/// An engine session that takes longer than this hangs.
const SESSION_HANG: Duration = Duration::from_secs(30);

/// `count`, unless `FUZZ_CASES=n` asks for another number (a longer run of one test:
/// `FUZZ_CASES=20000 cargo test --release --test fuzz uci_sessions`).
fn cases_or(count: u64) -> u64 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(count)
}

/// A normal test and its ignored big brother, both running `$run` with their count.
macro_rules! tiers {
    ($run:ident, $normal:ident = $count:expr, $big:ident) => {
        #[test]
        fn $normal() {
            $run(cases_or($count));
        }

        #[test]
        #[ignore = "the 1M tier: cargo test --release --test fuzz -- --ignored"]
        fn $big() {
            $run(cases_or(BIG));
        }
    };
}

tiers!(fen_cases, fen = NORMAL, fen_1m);
tiers!(move_cases, moves = NORMAL, moves_1m);
tiers!(uci_parse_cases, uci_parse = NORMAL, uci_parse_1m);
tiers!(
    uci_session_cases,
    uci_sessions = NORMAL_SESSIONS,
    uci_sessions_1m
);
tiers!(pgn_cases, pgn = NORMAL, pgn_1m);
tiers!(book_cases, polyglot_books = NORMAL, polyglot_books_1m);
tiers!(
    network_cases,
    network_files = NORMAL_NETWORKS,
    network_files_1m
);
tiers!(lines_cases, opening_lines = NORMAL, opening_lines_1m);
tiers!(epd_cases, epd = NORMAL, epd_1m);

fn fail(why: impl fmt::Display) -> Result<(), String> {
    Err(why.to_string())
}

fn manifest_file(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The lines of the files in `../shared/data/<dir>` ending in one of `exts`, or nothing
/// when the shared data is not there.
fn shared_lines(dir: &str, exts: &[&str]) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(common::shared_data(dir)) else {
        eprintln!("fuzz: ../shared/data/{dir} is absent; using the built-in corpus only");
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| exts.iter().any(|x| p.to_string_lossy().ends_with(x)))
        .collect();
    paths.sort();
    let mut lines = Vec::new();
    for p in paths {
        if let Ok(text) = std::fs::read_to_string(&p) {
            lines.extend(
                text.lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(str::to_string),
            );
        }
    }
    lines
}

// ---- Positions -------------------------------------------------------------------------

const BUILTIN_FENS: &[&str] = &[
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 3",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "1r2k1r1/8/8/8/8/8/8/R3K2R w KQgb - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/8/8/8/8/8/8/K6k w - - 0 1",
    "8/8/8/8/8/8/8/K6k",
    "4k3/8/8/8/8/8/8/4K2R w K -",
    "4k3/8/8/8/8/8/8/4K2r w - - 99 200",
    "7k/8/8/8/8/8/8/K5QQ b - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "8/8/3k4/8/2pP4/8/8/3K4 b - d3 0 1",
    "k7/8/8/3pP3/8/8/8/7K w - d6 0 2",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1",
];

/// The FENs that mutations start from: the built-in ones, the bench positions and the
/// perft suites.
fn fen_corpus() -> Vec<String> {
    let mut fens: Vec<String> = BUILTIN_FENS.iter().map(|f| f.to_string()).collect();
    fens.extend(ladya::bench::POSITIONS.iter().map(|f| f.to_string()));
    for line in shared_lines("perft", &[".epd"]) {
        let fen = line.split(';').next().unwrap_or("").trim();
        if !fen.is_empty() {
            fens.push(fen.to_string());
        }
    }
    fens
}

/// Legal positions to parse moves in and probe books with: the corpus FENs that parse and
/// random walks from each.
fn position_pool() -> &'static [Position] {
    static POOL: OnceLock<Vec<Position>> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut rng = Rng::seed_from_u64(0x9001);
        let mut pool = Vec::new();
        for fen in fen_corpus() {
            let Ok(start) = Position::from_fen(&fen) else {
                continue;
            };
            pool.push(start.clone_without_history());
            for _ in 0..2 {
                let mut pos = start.clone_without_history();
                for _ in 0..below(&mut rng, 80) {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.make_move(*pick(&mut rng, moves.as_slice()));
                }
                pool.push(pos.clone_without_history());
            }
        }
        pool
    })
}

/// A position, shown by its FEN in failure messages.
#[derive(Clone)]
struct Pos(Position);

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0.to_fen())
    }
}

fn check_legal_line(start: &Position, moves: &[Move]) -> Result<(), String> {
    let mut pos = start.clone_without_history();
    for (i, &mv) in moves.iter().enumerate() {
        if !pos.is_legal(mv) {
            return fail(format!(
                "move {} ({}) is not legal in {}",
                i + 1,
                mv.to_uci(true),
                pos.to_fen()
            ));
        }
        pos.make_move(mv);
    }
    Ok(())
}

/// Everything an accepted position must satisfy: its invariants, a FEN that reads back
/// to the same position, and for every legal move a SAN and UCI text that read back to
/// it and a make/unmake that keeps the invariants.
fn check_position(pos: &Position) -> Result<(), String> {
    pos.validate()
        .map_err(|e| format!("accepted, but invalid: {e}"))?;
    let fen = pos.to_fen();
    let again =
        Position::from_fen(&fen).map_err(|e| format!("to_fen gave {fen:?}, rejected: {e}"))?;
    if again.to_fen() != fen || again.key() != pos.key() {
        return fail(format!(
            "FEN round trip {fen:?} -> {:?} (keys {:x} {:x})",
            again.to_fen(),
            pos.key(),
            again.key()
        ));
    }
    let _ = pos.to_string();
    let _ = (
        pos.is_checkmate(),
        pos.is_stalemate(),
        pos.insufficient_material(),
    );
    let _ = (polyglot_key(pos), has_standard_castling(pos));
    // More moves than a move list holds would panic in `legal_moves`.
    if pos.count_legal_moves() > MAX_MOVES as u64 {
        return fail(format!("{} legal moves", pos.count_legal_moves()));
    }
    let moves = pos.legal_moves();
    if moves.len() as u64 != pos.count_legal_moves() {
        return fail("legal_moves and count_legal_moves disagree");
    }
    let standard = has_standard_castling(pos);
    let mut work = pos.clone_without_history();
    for &mv in moves.as_slice() {
        if !pos.is_legal(mv) {
            return fail(format!("generated move {} is not legal", mv.to_uci(true)));
        }
        let san = pos.to_san(mv);
        match pos.parse_san(&san) {
            Ok(m) if m == mv => {}
            other => {
                return fail(format!(
                    "SAN {san:?} of {} reads back as {other:?}",
                    mv.to_uci(true)
                ))
            }
        }
        let texts = [Some(mv.to_uci(true)), standard.then(|| mv.to_uci(false))];
        for uci in texts.into_iter().flatten() {
            match pos.parse_uci_move(&uci) {
                Ok(m) if m == mv => {}
                other => return fail(format!("UCI {uci:?} reads back as {other:?}")),
            }
        }
        work.make_move(mv);
        if let Err(e) = work.validate() {
            return fail(format!("after {}: {e}", mv.to_uci(true)));
        }
        if work.count_legal_moves() > MAX_MOVES as u64 {
            return fail(format!("after {}: too many moves", mv.to_uci(true)));
        }
        work.unmake_move();
        if work.key() != pos.key() {
            return fail(format!("unmaking {} changed the key", mv.to_uci(true)));
        }
    }
    Ok(())
}

/// A 300-node search of `pos`, with the network or the hand-crafted evaluation: its
/// move must be legal, and there must be one unless the game is over.
fn check_search(pos: &Position) -> Result<(), String> {
    thread_local! {
        static SEARCHER: RefCell<Searcher> = RefCell::new(Searcher::new(1));
    }
    let net = default_network();
    let _ = evaluate_from_scratch(&net, pos);
    let limits = Limits {
        nodes: Some(300),
        multipv: 1,
        ..Limits::default()
    };
    let result = SEARCHER.with(|s| {
        let mut searcher = s.borrow_mut();
        searcher.set_network(pos.key().is_multiple_of(8).then_some(net));
        searcher.search(pos, &limits, &SearchControl::default(), &mut |_| {})
    });
    match result.best {
        Some(mv) if !pos.is_legal(mv) => fail(format!("the search chose {mv:?}, not legal")),
        None if pos.has_legal_move() => fail("the search chose no move"),
        _ => Ok(()),
    }
}

// ---- FEN --------------------------------------------------------------------------------

const FEN_DICT: &[&str] = &[
    "/", "8", "1", "9", "0", "p", "P", "k", "K", "q", "Q", "r", "R", "n", "N", "b", "B", "x",
    " w ", " b ", " - ", " KQkq ", " HAha ", "Qk", "Kk", " e3 ", " e6 ", " d6 ", " a3 ", " h6 ",
    " 0 1", "  ", "\t", "/8/", "pppppppp", "PPPPPPPP", "kk", "KK", "11111111", "44", "-",
    " 65535 1", " 0 0", "//",
];

/// A FEN-shaped string of random ranks and fields: mostly wrong in the board field (rank
/// lengths, digits, letters), where hand-typed FENs go wrong.
fn random_fen(rng: &mut Rng) -> String {
    let ranks: Vec<String> = (0..7 + below(rng, 3))
        .map(|_| random_text(rng, "pnbrqkPNBRQK11111112345678", 8))
        .collect();
    let mut fen = ranks.join("/");
    for field in [
        &["w", "b", "W", "x"][..],
        &["-", "KQkq", "K", "q", "HAha", "Bg", "KQkqKQ", "e"],
        &["-", "e3", "e6", "d6", "a3", "h6", "a1", "i9"],
        &["0", "50", "65535", "65536", "-1"],
        &["1", "0", "65535", "99999"],
    ] {
        if one_in(rng, 10) {
            break;
        }
        fen.push(' ');
        fen.push_str(pick::<&str>(rng, field));
    }
    fen
}

/// A well-formed FEN of a board edited square by square (pieces added, removed, moved,
/// kings included) from a pool position or from two bare kings, with fields that may or
/// may not fit it: reaches the rules about kings, checks, castling and en passant.
fn edited_board_fen(rng: &mut Rng, pool: &[Position]) -> String {
    let mut board: [Option<char>; 64] = [None; 64];
    if one_in(rng, 4) {
        board[below(rng, 64)] = Some('K');
        board[below(rng, 64)] = Some('k');
    } else {
        let pos = pick(rng, pool);
        for (i, sq) in board.iter_mut().enumerate() {
            *sq = pos.piece_on(Square::new(i)).map(|p| p.char());
        }
    }
    // Mostly a few edits; now and then a crowd (ten queens, nine pawns, ...).
    let edits = if one_in(rng, 6) {
        8 + below(rng, 40)
    } else {
        below(rng, 7)
    };
    for _ in 0..edits {
        let sq = below(rng, 64);
        match below(rng, 3) {
            0 => board[sq] = None,
            1 => {
                board[sq] = Some(*pick(
                    rng,
                    &"PPPNBRQQQKpppnbrqk".chars().collect::<Vec<_>>(),
                ))
            }
            _ => {
                let to = below(rng, 64);
                board[to] = board[sq].take();
            }
        }
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let side = *pick(rng, &["w", "b"]);
    let castling = match below(rng, 5) {
        0 | 1 => "-".to_string(),
        2 | 3 => pick::<&str>(
            rng,
            &["KQkq", "K", "Qk", "kq", "HAha", "AHah", "BGbg", "Kq"],
        )
        .to_string(),
        _ => random_text(rng, "KQkqABCDEFGHabcdefgh", 4) + "-",
    };
    let ep = match below(rng, 5) {
        0..=2 => "-".to_string(),
        _ => {
            let rank = if (side == "w") != one_in(rng, 8) {
                '6'
            } else {
                '3'
            };
            format!("{}{rank}", (b'a' + below(rng, 8) as u8) as char)
        }
    };
    let clocks = *pick(rng, &["0 1", "3 20", "100 80", "65535 65535", "0 0"]);
    format!("{fen} {side} {castling} {ep} {clocks}")
}

fn fen_cases(cases: u64) {
    let mutator = Mutator::new(FEN_DICT, &fen_corpus());
    let pool = position_pool();
    fuzz(
        "fen",
        0xF3E0,
        cases,
        HANG,
        move |rng| match below(rng, 8) {
            0 => random_fen(rng),
            1..=3 => edited_board_fen(rng, pool),
            _ => mutator.mutated_text(rng),
        },
        |text: &String| check_fen(text),
    );
}

/// Positions with more material than eight pawns and their promotions can give were
/// accepted. One of them (found by a search for the position with the most moves, after
/// crowded boards from the fuzzer) has 267 legal moves, more than a move list holds, and
/// made `legal_moves` panic: in `position fen … moves …`, `go` and `perft`.
#[test]
fn fen_regressions() {
    let crowded = "BQQQQQQB/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/BR5Q/kBQQQKQB w - - 0 1";
    let cases: &[(&str, Option<FenError>)] = &[
        (
            crowded,
            Some(FenError::TooMuchMaterial(ladya::Color::White)),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
            Some(FenError::WrongRankCount(9)),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Some(FenError::TooMuchMaterial(ladya::Color::White)),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1",
            None,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNr w Qkq - 0 1",
            Some(FenError::TooMuchMaterial(ladya::Color::Black)),
        ),
        // The most moves a reachable position has: nine queens, no pawn left.
        ("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", None),
        ("7k/8/8/8/8/8/8/NNNNNNNK w - - 0 1", None),
        (
            "7k/8/8/8/8/8/NNNNNNN1/NNNNNNNK w - - 0 1",
            Some(FenError::TooMuchMaterial(ladya::Color::White)),
        ),
    ];
    for (fen, expected) in cases {
        assert_eq!(Position::from_fen(fen).err(), *expected, "{fen}");
    }
    let inputs = cases.iter().map(|(f, _)| f.to_string()).collect();
    kit::regressions("fen", inputs, HANG, |text: &String| check_fen(text));
    let session = format!("position fen {crowded}\ngo depth 1\nperft 1\nd\nquit\n");
    let out = run_bytes(session.as_bytes()).unwrap();
    assert!(out.contains("more pieces than"), "{}", tail(&out));
}

fn check_fen(text: &str) -> Result<(), String> {
    match Position::from_fen(text) {
        Ok(pos) => {
            check_position(&pos)?;
            // What the engine does next with a FEN from a GUI: evaluate and search it.
            if pos.key().is_multiple_of(4) {
                check_search(&pos)?;
            }
            Ok(())
        }
        Err(e) if e.to_string().is_empty() => fail("an error without a message"),
        Err(_) => Ok(()),
    }
}

// ---- Moves in UCI notation and SAN ------------------------------------------------------

const MOVE_DICT: &[&str] = &[
    "x", "+", "#", "=", "=Q", "q", "n", "O-O", "-O", "0-0", "e.p.", "!", "?", "??", ":", "-", "1",
    "8", "a", "h", "N", "B", "R", "Q", "K", "P", " ", "e4", "e2e4",
];

#[derive(Clone)]
struct MoveCase {
    pos: Pos,
    text: String,
    /// For unmutated text: the move it names.
    exact: Option<Move>,
}

impl fmt::Debug for MoveCase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "text {:?} in {:?}", self.text, self.pos)?;
        if let Some(mv) = self.exact {
            write!(f, " (names {})", mv.to_uci(true))?;
        }
        Ok(())
    }
}

fn move_cases(cases: u64) {
    let corpus: Vec<String> = [
        "e4", "Nf3", "O-O", "O-O-O", "exd5", "e8=Q+", "Nbd7", "R1a3", "Qh4#", "Kxe1??", "e2e4",
        "e7e8q", "e1h1", "e1g1", "a1a1", "0000", "Ng1f3", "exd6e.p.", "bxa8=N",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mutator = Mutator::new(MOVE_DICT, &corpus);
    let pool = position_pool();
    fuzz(
        "moves",
        0x307E,
        cases,
        HANG,
        move |rng| {
            let pos = pick(rng, pool).clone();
            let moves = pos.legal_moves();
            let mv = (!moves.is_empty()).then(|| *pick(rng, moves.as_slice()));
            let san = mv.map(|m| pos.to_san(m));
            let chess960 = one_in(rng, 2);
            let uci = mv.map(|m| m.to_uci(chess960));
            // In standard UCI a Chess960 castling that moves the king one file reads as
            // the king's normal move when that is legal too: the text names that move.
            let uci_names = mv.map(|m| {
                let plain = Move::new(m.from(), m.castling_king_target());
                match m.is_castling() && !chess960 && moves.contains(plain) {
                    true => plain,
                    false => m,
                }
            });
            let (text, exact) = match (below(rng, 8), san, uci) {
                (0, Some(s), _) => (s, mv),
                (1, _, Some(u)) => (u, uci_names),
                (2 | 3, Some(s), _) => {
                    let mut bytes = s.into_bytes();
                    mutator.mutate_some(rng, &mut bytes);
                    (String::from_utf8_lossy(&bytes).into_owned(), None)
                }
                (4 | 5, _, Some(u)) => {
                    let mut bytes = u.into_bytes();
                    mutator.mutate_some(rng, &mut bytes);
                    (String::from_utf8_lossy(&bytes).into_owned(), None)
                }
                (6, _, _) => (random_text(rng, "abcdefgh12345678", 5), None),
                _ => (
                    random_text(rng, "abcdefgh12345678NBRQKnbrqkxO0o-=+#!?:/ .", 12),
                    None,
                ),
            };
            MoveCase {
                pos: Pos(pos),
                text,
                exact,
            }
        },
        check_move,
    );
}

fn check_move(case: &MoveCase) -> Result<(), String> {
    let pos = &case.pos.0;
    let text = &case.text;
    let uci = pos.parse_uci_move(text);
    let san = pos.parse_san(text);
    let either = parse_move(pos, text);
    for (parser, result) in [
        ("parse_uci_move", uci.clone().map_err(|e| e.to_string())),
        ("parse_san", san.clone().map_err(|e| e.to_string())),
        ("book::parse_move", either.ok_or_else(|| "none".to_string())),
    ] {
        match result {
            Ok(mv) if !pos.is_legal(mv) || !pos.legal_moves().contains(mv) => {
                return fail(format!(
                    "{parser} accepted the illegal move {}",
                    mv.to_uci(true)
                ))
            }
            Err(e) if e.is_empty() => return fail(format!("{parser}: an empty error")),
            _ => {}
        }
    }
    if let Some(mv) = case.exact {
        if uci.as_ref().ok() != Some(&mv) && san.as_ref().ok() != Some(&mv) {
            return fail(format!(
                "the text of {} is not read back: {uci:?} {san:?}",
                mv.to_uci(true)
            ));
        }
    }
    Ok(())
}

/// An input the fuzzer found, and its kin. In Chess960 a castling whose king stays on its square was
/// printed in standard UCI (`UCI_Chess960` off) as `c1c1`, which `parse_uci_move` did not
/// read back.
#[test]
fn move_regressions() {
    let cases = [
        (
            "qrk2rn1/1p1pp1n1/7p/p1p2PP1/b1PP3P/5Rb1/PP4P1/QRK1B1NB w Qkq - 0 22",
            "c1c1",
            "c1b1",
        ),
        ("1r4kr/8/8/8/8/8/8/1R4KR w Hh - 0 1", "g1g1", "g1h1"),
        ("1r4kr/8/8/8/8/8/8/1R4KR b Hh - 0 1", "g8g8", "g8h8"),
        ("nrk5/8/8/8/8/8/8/NRK5 w B - 0 1", "c1c1", "c1b1"),
    ];
    let inputs: Vec<MoveCase> = cases
        .iter()
        .map(|(fen, text, names)| {
            let pos = Position::from_fen(fen).unwrap();
            let exact = pos.parse_uci_move(names).unwrap();
            assert!(exact.is_castling() && exact.to_uci(false) == *text);
            MoveCase {
                pos: Pos(pos),
                text: text.to_string(),
                exact: Some(exact),
            }
        })
        .collect();
    kit::regressions("moves", inputs, HANG, check_move);
    // A one-file king move stays a normal move where it is legal.
    let pos = Position::from_fen("1r3k1r/8/8/8/8/8/8/1R3K1R w Hh - 0 1").unwrap();
    assert!(!pos.parse_uci_move("f1g1").unwrap().is_castling());
}

// ---- UCI lines --------------------------------------------------------------------------

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Lines a GUI really sends, and a few from people typing.
fn uci_corpus() -> Vec<String> {
    let mut lines: Vec<String> = [
        "uci",
        "isready",
        "setoption name Hash value 32",
        "setoption name UCI_Chess960 value true",
        "setoption name UCI_Chess960 value false",
        "setoption name Move Overhead value 100",
        "setoption name MultiPV value 3",
        "setoption name Clear Hash",
        "setoption name Ponder value true",
        "setoption name OwnBook value true",
        "setoption name BookDepth value 4",
        "setoption name UseNNUE value false",
        "setoption name Threads value 1",
        "setoption name BookFile value <built-in>",
        "setoption name EvalFile value <embedded>",
        "ucinewgame",
        "position startpos",
        "position startpos moves e2e4 e7e5",
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1",
        "position startpos moves d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7",
        "position fen 8/8/8/8/8/8/8/K6k w - - 0 1",
        "position fen 8/P7/8/8/8/8/8/K6k w - - 0 1 moves a7a8q",
        "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 moves g1h1",
        "go wtime 300000 btime 300000 winc 2000 binc 2000",
        "go wtime 1000 btime 1000 movestogo 40",
        "go movetime 100",
        "go infinite",
        "go ponder wtime 300000 btime 300000",
        "go depth 5",
        "go nodes 100000",
        "go mate 3",
        "go searchmoves e2e4 d2d4 depth 3",
        "stop",
        "ponderhit",
        "quit",
        "debug on",
        "debug off",
        "register later",
        "d",
        "eval",
        "bench 3",
        "perft 3",
        "help",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    lines.push(format!("position fen {KIWIPETE} moves e1g1 e8c8"));
    lines
}

/// Tokens the UCI mutator splices in: every command word and `go` keyword, and the words
/// around them.
fn uci_dict() -> Vec<&'static str> {
    let mut dict = vec![
        " ",
        "\t",
        "name",
        "value",
        "startpos",
        "fen",
        "moves",
        "on",
        "e2e4",
        "e7e8q",
        "0000",
        "Hash",
        "Threads",
        "Clear Hash",
        "<empty>",
        "-",
    ];
    dict.extend_from_slice(COMMAND_WORDS);
    dict.extend_from_slice(ladya::uci::command::GO_KEYWORDS);
    dict
}

/// The words `command::parse` takes as the start of a command.
use ladya::uci::command::COMMANDS as COMMAND_WORDS;

fn uci_parse_cases(cases: u64) {
    let dict = uci_dict();
    let mutator = Mutator::new(&dict, &uci_corpus());
    fuzz(
        "uci-parse",
        0x0C1,
        cases,
        HANG,
        move |rng| match below(rng, 8) {
            0 => {
                let words: Vec<&str> = (0..below(rng, 12)).map(|_| *pick(rng, &dict)).collect();
                words.join(" ")
            }
            1 => {
                let bytes: Vec<u8> = (0..below(rng, 64)).map(|_| rng.next_u64() as u8).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            }
            _ => mutator.mutated_text(rng),
        },
        |line: &String| check_uci_line(line),
    );
}

fn check_uci_line(line: &str) -> Result<(), String> {
    let parsed = command::parse(line);
    let tokens: Vec<&str> = line.split_whitespace().collect();
    match &parsed {
        Ok(None) if !tokens.is_empty() => return fail("a line with words parsed as nothing"),
        Ok(Some(_)) if tokens.is_empty() => return fail("an empty line parsed as a command"),
        Ok(Some(Command::Position {
            start: command::StartPos::Fen(fen),
            ..
        })) if fen.trim().is_empty() => return fail("position fen with an empty FEN"),
        Err(e) if e.to_string().is_empty() => return fail("an error without a message"),
        Err(CommandError::Unknown(quoted)) if quoted.chars().count() > 63 => {
            return fail("an unknown line quoted back whole")
        }
        _ => {}
    }
    let known = tokens.iter().any(|t| COMMAND_WORDS.contains(t));
    if !tokens.is_empty() && !known && !matches!(parsed, Err(CommandError::Unknown(_))) {
        return fail(format!("no command word, but parsed as {parsed:?}"));
    }
    if command::parse(&format!(" \t{line} ")) != parsed {
        return fail("surrounding whitespace changed the command");
    }
    Ok(())
}

// ---- Whole UCI sessions in an engine ----------------------------------------------------

/// A sink the engine writes to, kept for failure messages (up to 1 MB).
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut out = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if out.len() < 1 << 20 {
            out.extend_from_slice(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        let out = self.0.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// Panics on the engine's own threads, which the engine thread's result does not show.
static ENGINE_THREAD_PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_engine_thread_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let name = thread::current().name().unwrap_or("").to_string();
            if name == "uci-reader" || name.starts_with("search") {
                ENGINE_THREAD_PANICS.fetch_add(1, Ordering::SeqCst);
            }
            previous(info);
        }));
    });
}

/// A session: its lines, each with its line ending, and whether to wait after it for the
/// `bestmove` of the search it starts.
#[derive(Clone, Default)]
struct Session(Vec<(Vec<u8>, bool)>);

impl Session {
    /// The whole input as bytes.
    fn bytes(&self) -> Vec<u8> {
        self.0.iter().flat_map(|(l, _)| l.iter().copied()).collect()
    }
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(&self.bytes()))
    }
}

/// The engine's input: one line per read, and after a bounded `go` no more until its
/// `bestmove` (or half a second), so the commands after a search run too instead of
/// waiting in the queue for a `quit` that discards them.
struct PacedInput {
    lines: std::vec::IntoIter<(Vec<u8>, bool)>,
    current: Vec<u8>,
    waiting: bool,
    searches: usize,
    out: Captured,
}

impl std::io::Read for PacedInput {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.current.is_empty() {
            if self.waiting {
                let start = Instant::now();
                while self.out.text().matches("bestmove").count() < self.searches
                    && start.elapsed() < Duration::from_millis(500)
                {
                    thread::sleep(Duration::from_micros(200));
                }
                self.waiting = false;
            }
            let Some((line, wait)) = self.lines.next() else {
                return Ok(0);
            };
            self.current = line;
            if wait {
                self.searches += 1;
                self.waiting = true;
            }
        }
        let n = buf.len().min(self.current.len());
        buf[..n].copy_from_slice(&self.current[..n]);
        self.current.drain(..n);
        Ok(n)
    }
}

/// Runs `session` through a whole engine (`uci::run`) on its own thread. Errs when the
/// engine, its reader or a search panics, or the session outlasts [`SESSION_HANG`].
fn run_session(session: &Session) -> Result<String, String> {
    count_engine_thread_panics();
    let panics_before = ENGINE_THREAD_PANICS.load(Ordering::SeqCst);
    let out = Captured::default();
    let sink = out.clone();
    let input = PacedInput {
        lines: session.0.clone().into_iter(),
        current: Vec::new(),
        waiting: false,
        searches: 0,
        out: out.clone(),
    };
    let engine = thread::Builder::new()
        .name("fuzz-engine".to_string())
        .spawn(move || ladya::uci::run(input, Output::new(Box::new(sink))))
        .map_err(|e| format!("cannot start the engine: {e}"))?;
    let start = Instant::now();
    while !engine.is_finished() {
        if start.elapsed() > SESSION_HANG {
            return Err(format!(
                "the session did not end within {SESSION_HANG:?}; output:\n{}",
                tail(&out.text())
            ));
        }
        thread::sleep(Duration::from_millis(1));
    }
    if engine.join().is_err() {
        return Err(format!(
            "the engine panicked; output:\n{}",
            tail(&out.text())
        ));
    }
    if ENGINE_THREAD_PANICS.load(Ordering::SeqCst) != panics_before {
        return Err(format!(
            "a search or reader thread panicked; output:\n{}",
            tail(&out.text())
        ));
    }
    Ok(out.text())
}

/// [`run_session`] on raw bytes, read in one go.
fn run_bytes(bytes: &[u8]) -> Result<String, String> {
    run_session(&Session(vec![(bytes.to_vec(), false)]))
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

/// Searches cheap enough to run hundreds of: a mutated `go` without a small depth, node
/// or time limit becomes one of these.
const CHEAP_GOS: &[&str] = &[
    "go depth 1",
    "go depth 2",
    "go nodes 1000",
    "go movetime 5",
    "go depth 2 searchmoves e2e4 d2d4",
    "go infinite",
    "go ponder depth 1",
    "go wtime 50 btime 50 depth 3",
];

/// Files `BookFile` and `EvalFile` may name; any other value is made a missing file.
fn allowed_files() -> [String; 6] {
    [
        String::new(),
        "<built-in>".to_string(),
        "<embedded>".to_string(),
        "<empty>".to_string(),
        manifest_file("book/ladya.bin").display().to_string(),
        manifest_file("nets/gen1.nnue").display().to_string(),
    ]
}

/// Keeps a session cheap and harmless without changing what is parsed: bounds searches,
/// bench and perft, the hash size and the threads (one: the machine running the tests is
/// shared), and the files the engine may open. Works on the lines as the engine's reader
/// splits them (at LF or CR). A `go` that waits for a `stop` gets one; a bounded one is
/// waited for.
fn tame_session(rng: &mut Rng, raw: &[u8]) -> Session {
    let allowed = allowed_files();
    let mut session = Session::default();
    let mut separators = raw.iter().filter(|b| **b == b'\n' || **b == b'\r');
    for piece in raw.split(|b| *b == b'\n' || *b == b'\r') {
        let text = String::from_utf8_lossy(piece);
        let mut line: Vec<u8> = piece.to_vec();
        let mut wait = false;
        let mut extra: Option<&str> = None;
        match command::parse(&text) {
            Ok(Some(Command::Go(g))) => {
                let bounded = g.depth.is_some_and(|d| d <= 3)
                    || g.nodes.is_some_and(|n| n <= 5000)
                    || g.movetime.is_some_and(|t| t <= 20);
                let mut waits = g.infinite || g.ponder;
                if !bounded {
                    let go = *pick(rng, CHEAP_GOS);
                    line = go.as_bytes().to_vec();
                    waits = go.contains("infinite") || go.contains("ponder");
                }
                if waits {
                    extra = Some(if one_in(rng, 2) { "stop" } else { "ponderhit" });
                } else {
                    wait = true;
                }
            }
            Ok(Some(Command::Bench(depth))) if depth.is_none_or(|d| d > 2) => {
                line = b"bench 1".to_vec()
            }
            Ok(Some(Command::Perft(depth))) if depth > 3 => line = b"perft 2".to_vec(),
            Ok(Some(Command::SetOption { name, value })) => {
                let name = name.trim();
                let value = value.as_deref().unwrap_or("").trim();
                let above = |limit: i64| value.parse::<i64>().is_ok_and(|n| n > limit);
                if name.eq_ignore_ascii_case("hash") && above(16) {
                    line = b"setoption name Hash value 16".to_vec();
                } else if name.eq_ignore_ascii_case("threads") && above(1) {
                    line = b"setoption name Threads value 1".to_vec();
                } else if (name.eq_ignore_ascii_case("bookfile")
                    || name.eq_ignore_ascii_case("evalfile"))
                    && !allowed.iter().any(|f| f == value)
                {
                    line =
                        format!("setoption name {name} value /nonexistent/ladya-fuzz").into_bytes();
                }
            }
            _ => {}
        }
        if let Some(&sep) = separators.next() {
            line.push(sep);
        }
        session.0.push((line, wait));
        if let Some(e) = extra {
            session.0.push((format!("{e}\n").into_bytes(), false));
        }
    }
    session
}

fn uci_session_cases(cases: u64) {
    let mut corpus = uci_corpus();
    for f in allowed_files().iter().skip(4) {
        corpus.push(format!("setoption name BookFile value {f}"));
        corpus.push(format!("setoption name EvalFile value {f}"));
    }
    let mutator = Mutator::new(&uci_dict(), &corpus);
    fuzz(
        "uci-sessions",
        0x5E55,
        cases,
        SESSION_HANG + Duration::from_secs(10),
        move |rng| {
            let mut raw: Vec<u8> = Vec::new();
            if !one_in(rng, 4) {
                raw.extend_from_slice(b"uci\n");
            }
            for _ in 0..1 + below(rng, 12) {
                let mut line = pick(rng, &mutator.corpus).clone();
                if one_in(rng, 2) {
                    mutator.mutate_some(rng, &mut line);
                }
                raw.extend_from_slice(&line);
                raw.extend_from_slice(pick::<&[u8]>(rng, &[b"\n", b"\n", b"\n", b"\r\n", b"\r"]));
            }
            let mut session = tame_session(rng, &raw);
            let quit = pick::<&[u8]>(rng, &[b"quit\n", b"quit", b"\r\nquit\r\n"]);
            session.0.push((quit.to_vec(), false));
            session
        },
        |session: &Session| run_session(session).map(|_| ()),
    );
}

/// Hand-made hostile sessions: each must end, and say what it should.
#[test]
fn uci_edge_sessions() {
    let long = format!(
        "position startpos moves {}\nisready\nquit\n",
        "e2e4 ".repeat(900_000)
    );
    let out = run_bytes(long.as_bytes()).unwrap();
    assert!(out.contains("input line longer than"), "{}", tail(&out));
    assert!(out.contains("readyok"), "{}", tail(&out));

    let sessions: &[&[u8]] = &[
        b"go infinite\nquit\n",
        b"go ponder\nquit",
        b"go infinite\rgo infinite\rgo infinite\risready\rquit\r",
        b"stop\nponderhit\nstop\ngo depth 1\nstop\nstop\nquit\n",
        b"position fen\nposition banana\nposition startpos moves e2e5\ngo depth 1\nquit\n",
        b"\0\0\0\n\xff\xfe\xfd\nisready\n\x80uci\nquit\n",
        b"setoption name Hash value 0\nsetoption name Hash value 99999999999999999999\nquit\n",
        b"setoption name EvalFile value /nonexistent/x.nnue\nsetoption name BookFile value /\n\
          setoption name OwnBook value true\ngo depth 1\nquit\n",
        b"perft 0\nperft -1\nbench x\ngo depth -5 nodes -1\nquit\n",
        b"position fen 8/8/8/8/8/8/8/K6k w - - 0 1\ngo depth 1\nd\neval\nquit\n",
        b"position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 1\nperft 1\nquit\n",
        b"",
        b"quit",
    ];
    for s in sessions {
        if let Err(e) = run_bytes(s) {
            panic!("{e}\n  session: {:?}", String::from_utf8_lossy(s));
        }
    }
}

// ---- PGN --------------------------------------------------------------------------------

const PGN_DICT: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\"",
    "\\",
    "\\\"",
    "$",
    "$255",
    "$99999999999",
    ";",
    "%",
    "\n%",
    "\n",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "...",
    "1.",
    "99999.",
    "O-O",
    "O-O-O",
    "0-0",
    "e8=Q",
    "exd6",
    "Nf3",
    "--",
    "Z0",
    "[FEN \"",
    "\"]",
    "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]",
    "[Variant \"Chess960\"]",
    "[Result \"1-0\"]",
    "[SetUp \"1\"]",
    "{[%eval 0.3]}",
    "\r\n",
    "\t",
    "!!",
    "?!",
    "+",
    "#",
    "\0",
];

fn pgn_corpus() -> Vec<String> {
    let file = std::fs::read_to_string(manifest_file("tests/data/analyse_features.pgn"))
        .expect("tests/data/analyse_features.pgn");
    let mut corpus: Vec<String> = file
        .split("\n\n[")
        .enumerate()
        .map(|(i, g)| {
            if i == 0 {
                g.to_string()
            } else {
                format!("[{g}")
            }
        })
        .collect();
    corpus.push(file);
    corpus.extend(
        [
            "1. e4 e5 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6 {a {nested?} comment} 3. Bb5 *",
            "[Event \"x\"]\n% escape line\n1. d4 ; rest of line\nd5 2. c4 $14 dxc4 1/2-1/2",
            "1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.b4 Bxb4 5.c3 Ba5 6.d4 exd4 7.O-O d3 8.Qb3 Qf6 1-0",
            "[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n1. a8=Q+ Kd7 2. Qb7+ *",
            "[White \"a \\\"quoted\\\" name\"]\n1. e4 {unclosed comment",
            "1. e4 (1. d4 (1. c4",
            "1. f3 e5 2. g4 Qh4# 0-1",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    corpus
}

fn pgn_cases(cases: u64) {
    let mutator = Mutator::new(PGN_DICT, &pgn_corpus());
    fuzz(
        "pgn",
        0x9A6E,
        cases,
        HANG,
        move |rng| {
            if one_in(rng, 16) {
                random_text(rng, "{}()[]\"\\$;%\n e4Nf3xO-12.*/", 200)
            } else {
                mutator.mutated_text(rng)
            }
        },
        |text: &String| check_pgn(text),
    );
}

fn check_pgn(text: &str) -> Result<(), String> {
    for (i, game) in parse_pgn(text).iter().enumerate() {
        let _ = (game.result(), game.is_variant(), game_title(&game.tags));
        match game.play() {
            Err(e) => {
                // The FEN tag's own error, nothing else.
                let fen_error = game.tag("FEN").and_then(|f| Position::from_fen(f).err());
                if fen_error.as_ref() != Some(&e) {
                    return fail(format!("game {i}: play failed without a bad FEN: {e}"));
                }
            }
            Ok(played) => {
                played
                    .start
                    .validate()
                    .map_err(|e| format!("game {i}: start: {e}"))?;
                check_legal_line(&played.start, &played.moves)
                    .map_err(|e| format!("game {i}: {e}"))?;
                let n = played.moves.len();
                if n > game.moves.len() || played.error.is_none() != (n == game.moves.len()) {
                    return fail(format!(
                        "game {i}: {n} of {} moves played, error {:?}",
                        game.moves.len(),
                        played.error
                    ));
                }
            }
        }
        match play_out(game) {
            Ok((start, moves)) if moves.is_empty() => {
                return fail(format!(
                    "game {i}: played out without moves from {}",
                    start.to_fen()
                ))
            }
            Ok((start, moves)) => {
                check_legal_line(&start, &moves).map_err(|e| format!("game {i}: {e}"))?
            }
            Err(e) if e.to_string().is_empty() => return fail("an empty error"),
            Err(_) => {}
        }
    }
    Ok(())
}

/// Inputs the fuzzer found. A `}`, `)` or `]` without its opener made `parse_pgn` loop
/// forever (the token reader stopped at it without consuming it).
#[test]
fn pgn_regressions() {
    let inputs: Vec<String> = [
        "1.\u{fffd}F)\u{fffd}99999999999999999999 Bc5 4.b4 Bxb4 5.\"3 Ba5 6.d4 exd4 1-0",
        ")",
        "}",
        "]",
        "1. e4 ) e5 *",
        "1. e4 e5 ]]] 2. Nf3 *",
        "{a {nested} comment} 1. e4 *",
        "[Event \"x\"]]\n1. d4 )d5 *",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    kit::regressions("pgn", inputs, HANG, |text: &String| check_pgn(text));
    // A lone closer is dropped like other junk without letters; glued to a word, it makes
    // a move that `play` rejects.
    let games = parse_pgn("1. e4 ) e5 *");
    assert_eq!(games[0].moves, ["e4", "e5"]);
    let games = parse_pgn("1. d4 )d5 *");
    assert_eq!(games[0].moves, ["d4", ")d5"]);
    let played = games[0].play().unwrap();
    assert_eq!(played.moves.len(), 1);
    assert_eq!(played.error.unwrap().token, ")d5");
}

// ---- Polyglot books ---------------------------------------------------------------------

struct BookCase {
    what: Vec<String>,
    bytes: Vec<u8>,
    probes: Vec<Pos>,
}

impl fmt::Debug for BookCase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} bytes after {:?}", self.bytes.len(), self.what)?;
        if self.bytes.len() <= 256 {
            write!(f, " = {:02x?}", self.bytes)?;
        }
        write!(f, ", probed in {:?}", self.probes)
    }
}

fn builtin_book_bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        builtin_book()
            .expect("the built-in book")
            .as_bytes()
            .to_vec()
    })
}

/// A raw Polyglot move for `pos`: a legal one, one in the king's two-square castling
/// form, one with stray bits, or any 16 bits.
fn raw_move(rng: &mut Rng, pos: &Position) -> u16 {
    let moves = pos.legal_moves();
    if moves.is_empty() || one_in(rng, 4) {
        return rng.next_u64() as u16;
    }
    let mv = *pick(rng, moves.as_slice());
    let raw = encode_move(mv);
    match below(rng, 4) {
        0 if mv.is_castling() => raw & !63 | mv.castling_king_target().index() as u16,
        1 => raw ^ 1 << below(rng, 16),
        _ => raw,
    }
}

fn book_cases(cases: u64) {
    let pool = position_pool();
    let standard: Vec<&Position> = pool.iter().filter(|p| has_standard_castling(p)).collect();
    let standard: Vec<Position> = standard.into_iter().cloned().collect();
    let temp = std::env::temp_dir().join(format!("ladya-fuzz-{}-book.bin", std::process::id()));
    fuzz(
        "polyglot-books",
        0xB00C,
        cases,
        HANG,
        move |rng| {
            let mut what = Vec::new();
            let mut probes = vec![Pos(Position::startpos())];
            let mut bytes = if one_in(rng, 2) {
                what.push("the built-in book".to_string());
                let mut pos = Position::startpos();
                for _ in 0..below(rng, 6) {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.make_move(*pick(rng, moves.as_slice()));
                }
                probes.push(Pos(pos.clone_without_history()));
                builtin_book_bytes().to_vec()
            } else {
                let mut entries = Vec::new();
                for _ in 0..1 + below(rng, 6) {
                    let pos = pick(rng, &standard).clone();
                    for _ in 0..1 + below(rng, 4) {
                        entries.push(Entry {
                            key: polyglot_key(&pos),
                            raw_move: raw_move(rng, &pos),
                            weight: rng.next_u64() as u16,
                            learn: rng.next_u64() as u32,
                        });
                    }
                    probes.push(Pos(pos));
                }
                what.push(format!(
                    "{} entries for the probed positions",
                    entries.len()
                ));
                let book = Book::from_entries(entries).expect("entries make a book");
                book.as_bytes().to_vec()
            };
            for _ in 0..below(rng, 5) {
                what.push(mutate_book(rng, &mut bytes));
            }
            BookCase {
                what,
                bytes,
                probes,
            }
        },
        move |case: &BookCase| {
            let save = one_in(&mut Rng::seed_from_u64(case.bytes.len() as u64), 256);
            check_book(case, save.then_some(temp.as_path()))
        },
    );
}

/// One mutation of a book's bytes, described.
fn mutate_book(rng: &mut Rng, bytes: &mut Vec<u8>) -> String {
    let entries = bytes.len() / ENTRY_SIZE;
    let len = bytes.len();
    match below(rng, 10) {
        0 if len > 0 => {
            let i = below(rng, len);
            bytes[i] ^= 1 << below(rng, 8);
            format!("bit flipped in byte {i}")
        }
        1 if len > 0 => {
            let i = below(rng, len);
            bytes[i] = rng.next_u64() as u8;
            format!("byte {i} replaced")
        }
        2 => {
            let n = below(rng, len + 1);
            bytes.truncate(n);
            format!("cut to {n} bytes")
        }
        3 => {
            let n = below(rng, entries + 1) * ENTRY_SIZE;
            bytes.truncate(n);
            format!("cut to {n} bytes (whole entries)")
        }
        4 if entries > 0 => {
            let i = below(rng, entries) * ENTRY_SIZE;
            let copy = bytes[i..i + ENTRY_SIZE].to_vec();
            bytes.splice(i..i, copy);
            format!("entry at byte {i} duplicated")
        }
        5 if entries > 1 => {
            let (i, j) = (below(rng, entries), below(rng, entries));
            for k in 0..ENTRY_SIZE {
                bytes.swap(i * ENTRY_SIZE + k, j * ENTRY_SIZE + k);
            }
            format!("entries {i} and {j} swapped")
        }
        6 if entries > 0 => {
            let i = below(rng, entries) * ENTRY_SIZE + 8;
            let raw = rng.next_u64() as u16;
            bytes[i..i + 2].copy_from_slice(&raw.to_be_bytes());
            format!("move at byte {i} set to {raw:#06x}")
        }
        7 if entries > 0 => {
            let i = below(rng, entries) * ENTRY_SIZE + 10;
            let w = *pick(rng, &[0u16, 1, u16::MAX]);
            bytes[i..i + 2].copy_from_slice(&w.to_be_bytes());
            format!("weight at byte {i} set to {w}")
        }
        8 => {
            let n = 1 + below(rng, 15);
            bytes.extend((0..n).map(|_| rng.next_u64() as u8));
            format!("{n} bytes appended")
        }
        _ => {
            bytes.clear();
            "emptied".to_string()
        }
    }
}

fn sorted_whole_entries(bytes: &[u8]) -> bool {
    !bytes.is_empty()
        && bytes.len().is_multiple_of(ENTRY_SIZE)
        && bytes
            .chunks_exact(ENTRY_SIZE)
            .map(|c| u64::from_be_bytes(c[..8].try_into().unwrap()))
            .collect::<Vec<_>>()
            .windows(2)
            .all(|w| w[0] <= w[1])
}

fn check_book(case: &BookCase, save_to: Option<&std::path::Path>) -> Result<(), String> {
    let loaded = Book::from_bytes(Cow::Owned(case.bytes.clone()));
    let well_formed = sorted_whole_entries(&case.bytes);
    let book = match loaded {
        Ok(_) if !well_formed => return fail("a malformed book was accepted"),
        Ok(book) => book,
        Err(BookError::Corrupt(why)) if !well_formed && !why.is_empty() => return Ok(()),
        Err(e) => return fail(format!("a well-formed book was rejected, or badly: {e:?}")),
    };
    if book.len() * ENTRY_SIZE != case.bytes.len() {
        return fail("the entry count does not match the size");
    }
    if let Some(path) = save_to {
        std::fs::write(path, &case.bytes).map_err(|e| e.to_string())?;
        let opened = Book::open(&path.display().to_string());
        let _ = std::fs::remove_file(path);
        if opened.map(|b| b.len()) != Ok(book.len()) {
            return fail("Book::open disagrees with Book::from_bytes");
        }
    }
    let mut rng = Rng::seed_from_u64(case.bytes.len() as u64);
    for Pos(pos) in &case.probes {
        for bm in book.probe(pos) {
            if !pos.is_legal(bm.mv) {
                return fail(format!(
                    "probe gave the illegal {} in {}",
                    bm.mv.to_uci(true),
                    pos.to_fen()
                ));
            }
        }
        if book
            .entries_for(polyglot_key(pos))
            .any(|e| e.key != polyglot_key(pos))
        {
            return fail("entries_for returned another key's entries");
        }
        for _ in 0..4 {
            let raw = rng.next_u64() as u16;
            if let Some(mv) = decode_move(pos, raw) {
                if !pos.is_legal(mv) {
                    return fail(format!("decode_move({raw:#06x}) gave an illegal move"));
                }
            }
        }
    }
    Ok(())
}

// ---- Network files ----------------------------------------------------------------------

const NET_HEADER: usize = 64;

struct NetCase {
    what: Vec<String>,
    bytes: Vec<u8>,
}

impl fmt::Debug for NetCase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} bytes after {:?}", self.bytes.len(), self.what)?;
        if self.bytes.len() >= NET_HEADER {
            write!(f, ", header {:02x?}", &self.bytes[..NET_HEADER])?;
        }
        Ok(())
    }
}

fn net_file(name: &str) -> &'static [u8] {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    let files = FILES.get_or_init(|| {
        ["nets/default.nnue", "nets/gen1.nnue"]
            .iter()
            .map(|f| (f.to_string(), std::fs::read(manifest_file(f)).expect(f)))
            .collect()
    });
    &files
        .iter()
        .find(|(n, _)| n == name)
        .expect("a known file")
        .1
}

/// FNV-1a 64, the hash the format keeps of the weights.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn network_cases(cases: u64) {
    let temp = std::env::temp_dir().join(format!("ladya-fuzz-{}-net.nnue", std::process::id()));
    fuzz(
        "network-files",
        0x22E7,
        cases,
        HANG,
        |rng| {
            let name = if one_in(rng, 4) {
                "nets/gen1.nnue"
            } else {
                "nets/default.nnue"
            };
            let mut bytes = net_file(name).to_vec();
            let mut what = vec![name.to_string()];
            for _ in 0..1 + below(rng, 3) {
                what.push(mutate_net(rng, &mut bytes));
            }
            NetCase { what, bytes }
        },
        move |case: &NetCase| {
            let save = case.what.len() == 2 && case.what[1].contains("bit");
            check_net(case, save.then_some(temp.as_path()))
        },
    );
}

/// One mutation of a network file, described: mostly in the header.
fn mutate_net(rng: &mut Rng, bytes: &mut Vec<u8>) -> String {
    let len = bytes.len();
    match below(rng, 12) {
        0..=2 if len > 0 => {
            let i = below(rng, NET_HEADER.min(len));
            bytes[i] ^= 1 << below(rng, 8);
            format!("bit flipped in header byte {i}")
        }
        3 | 4 if len > 0 => {
            let i = below(rng, NET_HEADER.min(len));
            bytes[i] = rng.next_u64() as u8;
            format!("header byte {i} replaced")
        }
        5 | 6 if len >= 40 => {
            let at = 8 + 4 * below(rng, 8);
            let v = *pick(
                rng,
                &[
                    0u32,
                    1,
                    2,
                    7,
                    8,
                    9,
                    64,
                    255,
                    256,
                    512,
                    768,
                    1024,
                    u32::MAX,
                    1 << 31,
                ],
            );
            bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
            format!("header field at {at} set to {v}")
        }
        7 => {
            let n = match below(rng, 4) {
                0 => below(rng, NET_HEADER + 1),
                1 => len.saturating_sub(1 + below(rng, 40)),
                _ => below(rng, len + 1),
            };
            bytes.truncate(n);
            format!("cut to {n} bytes")
        }
        8 => {
            let n = 1 + below(rng, 16);
            bytes.extend((0..n).map(|_| rng.next_u64() as u8));
            format!("{n} bytes appended")
        }
        _ if len > NET_HEADER => {
            // Body bytes, mostly near the end (the output layer), with the hash in the
            // header fixed half the time so the weights themselves are checked.
            let n = 1 + below(rng, 8);
            for _ in 0..n {
                let i = if one_in(rng, 2) {
                    len - 1 - below(rng, 8200.min(len - NET_HEADER))
                } else {
                    NET_HEADER + below(rng, len - NET_HEADER)
                };
                bytes[i] = rng.next_u64() as u8;
            }
            if one_in(rng, 2) && len >= 48 {
                let h = fnv1a(&bytes[NET_HEADER..]);
                bytes[40..48].copy_from_slice(&h.to_le_bytes());
                format!("{n} body bytes replaced, hash fixed")
            } else {
                format!("{n} body bytes replaced")
            }
        }
        _ => {
            bytes.clear();
            "emptied".to_string()
        }
    }
}

fn check_net(case: &NetCase, save_to: Option<&std::path::Path>) -> Result<(), String> {
    let bytes = &case.bytes;
    let loaded = Network::from_bytes(bytes);
    if let Err(e) = &loaded {
        if e.to_string().is_empty() {
            return fail("an error without a message");
        }
    }
    if let Some(path) = save_to {
        std::fs::write(path, bytes).map_err(|e| e.to_string())?;
        let from_file = Network::load(path);
        let _ = std::fs::remove_file(path);
        if from_file.is_ok() != loaded.is_ok() {
            return fail("Network::load disagrees with Network::from_bytes");
        }
    }
    let Ok(net) = loaded else {
        return Ok(());
    };
    if bytes.len() < NET_HEADER || &bytes[..8] != b"LADYANUE" {
        return fail("accepted without the magic");
    }
    if net.header().hash != fnv1a(&bytes[NET_HEADER..]) {
        return fail("accepted with weights that do not match the hash");
    }
    for pos in position_pool().iter().step_by(97) {
        let _ = evaluate_from_scratch(&net, pos);
    }
    Ok(())
}

// ---- Opening-lines files ----------------------------------------------------------------

const LINES_DICT: &[&str] = &[
    "|",
    "||",
    " | ",
    " | 0",
    " | 5",
    " | 18446744073709551616",
    "#",
    "1.",
    "1...",
    "O-O",
    "e4",
    "\"",
    "e7e8q",
    "Nf3",
    "\r\n",
    "\n",
    "\n\n",
    " ",
    "A00 \"x\" |",
];

fn lines_corpus() -> Vec<String> {
    let text = std::fs::read_to_string(manifest_file("book/lines.txt")).expect("book/lines.txt");
    text.lines().map(str::to_string).collect()
}

fn lines_cases(cases: u64) {
    let mutator = Mutator::new(LINES_DICT, &lines_corpus());
    fuzz(
        "opening-lines",
        0x11E5,
        cases,
        HANG,
        move |rng| {
            let mut text = Vec::new();
            for _ in 0..1 + below(rng, 4) {
                text.extend_from_slice(pick::<Vec<u8>>(rng, &mutator.corpus));
                text.extend_from_slice(if one_in(rng, 8) { b"\r\n" } else { b"\n" });
            }
            mutator.mutate_some(rng, &mut text);
            String::from_utf8_lossy(&text).into_owned()
        },
        |text: &String| check_lines(text),
    );
}

fn check_lines(text: &str) -> Result<(), String> {
    let rows = text.lines().count();
    match parse_lines(text) {
        Ok(lines) => {
            for l in lines {
                if !(1..=rows).contains(&l.line_no) || l.weight == 0 || l.moves.is_empty() {
                    return fail(format!(
                        "line {} of {rows}: weight {}, {} moves",
                        l.line_no,
                        l.weight,
                        l.moves.len()
                    ));
                }
                check_legal_line(&Position::startpos(), &l.moves)
                    .map_err(|e| format!("line {}: {e}", l.line_no))?;
            }
            Ok(())
        }
        Err(BookError::Lines { line, message }) => {
            if (1..=rows).contains(&line) && !message.is_empty() {
                Ok(())
            } else {
                fail(format!("error on line {line} of {rows}: {message:?}"))
            }
        }
        Err(e) => fail(format!("not a lines error: {e:?}")),
    }
}

// ---- EPD records ------------------------------------------------------------------------

const EPD_DICT: &[&str] = &[
    ";",
    "\"",
    " bm ",
    " am ",
    " id ",
    " c0 ",
    "\"\"",
    "; ;",
    "+",
    "#",
    " 0 1 ",
    " - ",
    " w ",
    " b ",
    "KQkq",
    "O-O",
    "Qg6",
    "Rxe1",
    "e8=Q",
    " \"a;b\" ",
    "\\",
    "bm",
    ";bm",
];

fn epd_corpus() -> Vec<String> {
    let mut corpus: Vec<String> = [
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 bm e4 d4; am a4;",
        "8/8/8/8/8/8/8/K6k w - -",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - bm O-O-O; c0 \"a; quoted\" \"two\"; id \"x\";",
        "4k3/P7/8/8/8/8/8/4K3 w - - bm a8=Q+; am a8=N;",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    corpus.extend(shared_lines("epd", &[".epd", ".fen"]));
    corpus.extend(BUILTIN_FENS.iter().map(|f| format!("{f} bm e4; id \"f\";")));
    corpus
}

fn epd_cases(cases: u64) {
    let mutator = Mutator::new(EPD_DICT, &epd_corpus());
    fuzz(
        "epd",
        0xE9D,
        cases,
        HANG,
        move |rng| mutator.mutated_text(rng),
        |line: &String| check_epd(line),
    );
}

fn check_epd(line: &str) -> Result<(), String> {
    let record = match EpdRecord::parse(line) {
        Ok(r) => r,
        Err(e @ (EpdError::TooShort | EpdError::Fen(_))) if !e.to_string().is_empty() => {
            return Ok(())
        }
        Err(e) => return fail(format!("unexpected error {e:?}")),
    };
    record
        .position
        .validate()
        .map_err(|e| format!("accepted, but invalid: {e}"))?;
    let _ = record.id();
    let mut opcodes = vec!["bm", "am"];
    opcodes.extend(record.ops.iter().map(|op| op.opcode.as_str()));
    for op in opcodes {
        match record.moves(op) {
            Ok(moves) => {
                for mv in moves {
                    if !record.position.is_legal(mv) {
                        return fail(format!("'{op}' gave the illegal {}", mv.to_uci(true)));
                    }
                }
            }
            Err(EpdError::San { .. }) => {}
            Err(e) => return fail(format!("'{op}': unexpected error {e:?}")),
        }
    }
    Ok(())
}
