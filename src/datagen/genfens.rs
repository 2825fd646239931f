//! `genfens`: opening positions for OpenBench's DATAGEN workloads.
//!
//! OpenBench's client asks every engine process for its share of a workload's openings
//! with `ladya "genfens N seed S book <None|FILE> [extra]" quit` and keeps each line
//! `info string genfens <FEN>` (its `Client/genfens.py`). The engine decides what an opening
//! is; Ladya's are the ones its own `ladya datagen` starts from:
//!
//! 1. the start position (`book None`) or a line of the book, picked at random;
//! 2. random legal plies on top: [`START_PLIES`] or one more from the start position (so
//!    both colours get to move first), [`BOOK_PLIES`] or one more after a book line;
//! 3. kept when the game is not over and a short search ([`CHECK_NODES`] nodes, a cleared
//!    table) scores it within [`MAX_SCORE`] centipawns: a lopsided opening teaches little
//!    and ends fast. Each position is given once per call.
//!
//! Everything is drawn from one generator seeded by `seed`, and the searches are
//! single-threaded at fixed nodes, so the same command prints the same positions on every
//! machine. Extra tokens `plies=N`, `nodes=N` and `maxscore=CP` override the defaults
//! (OpenBench passes the workload's "Genfens Args" through); any other token is named in an
//! `info string` and ignored.

use crate::board::{FenError, Position};
use crate::nnue::Network;
use crate::search::{Limits, Score, SearchControl, Searcher};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Random plies played from the start position (or one more).
pub const START_PLIES: usize = 8;
/// Random plies played after a book line (or one more).
pub const BOOK_PLIES: usize = 2;
/// Nodes of the search that judges a candidate's balance.
pub const CHECK_NODES: u64 = 1000;
/// A candidate scored further from zero than this (centipawns) is dropped.
pub const MAX_SCORE: i32 = 300;
/// Candidates tried per opening asked for before giving up: a seed and book that can
/// give no balanced position must end with an error, not a hang.
const TRIES_PER_OPENING: usize = 1000;
/// Transposition table of the balance search, in MB.
const HASH_MB: usize = 8;

/// A `genfens` request, as OpenBench words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenfensRequest {
    /// Openings to print.
    pub count: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// The book whose lines the openings start from (`None`: the start position).
    pub book: Option<PathBuf>,
    /// Random plies on top of the start (or one more); `None` for the defaults.
    pub plies: Option<usize>,
    /// Nodes of the balance search.
    pub nodes: u64,
    /// Largest absolute score (centipawns) of a kept opening.
    pub max_score: i32,
    /// Extra tokens not understood (reported, then ignored).
    pub unknown: Vec<String>,
}

/// Why a `genfens` request cannot be served.
#[derive(Debug)]
pub enum GenfensError {
    /// The words do not follow `genfens N seed S book <None|FILE> [extra]`.
    Syntax(String),
    /// The book cannot be read.
    Book(PathBuf, std::io::Error),
    /// A line of the book is no position.
    BookLine(usize, FenError),
    /// The book holds no position.
    EmptyBook(PathBuf),
    /// No balanced position was found in many tries (an odd book or `maxscore`).
    NoOpening(usize),
}

impl fmt::Display for GenfensError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenfensError::Syntax(why) => write!(
                f,
                "genfens: {why} (usage: genfens N seed S book <None|FILE> [plies=N] [nodes=N] [maxscore=CP])"
            ),
            GenfensError::Book(path, e) => write!(f, "genfens: book {}: {e}", path.display()),
            GenfensError::BookLine(n, e) => write!(f, "genfens: book line {n}: {e}"),
            GenfensError::EmptyBook(path) => {
                write!(f, "genfens: book {} holds no position", path.display())
            }
            GenfensError::NoOpening(tries) => write!(
                f,
                "genfens: no balanced opening in {tries} tries; try a larger maxscore"
            ),
        }
    }
}

impl std::error::Error for GenfensError {}

impl GenfensRequest {
    /// Reads the words after `genfens`: `N seed S book <None|FILE>`, then extra tokens.
    pub fn parse(args: &[&str]) -> Result<GenfensRequest, GenfensError> {
        let syntax = |why: &str| GenfensError::Syntax(why.to_string());
        let number = |text: Option<&&str>, what: &str| -> Result<u64, GenfensError> {
            let text = text.ok_or_else(|| syntax(&format!("missing {what}")))?;
            text.parse()
                .map_err(|_| syntax(&format!("invalid {what} '{text}'")))
        };
        let count = number(args.first(), "count")? as usize;
        if args.get(1) != Some(&"seed") {
            return Err(syntax("expected 'seed' after the count"));
        }
        let seed = number(args.get(2), "seed")?;
        let mut request = GenfensRequest {
            count,
            seed,
            book: None,
            plies: None,
            nodes: CHECK_NODES,
            max_score: MAX_SCORE,
            unknown: Vec::new(),
        };
        let mut extra = &args[3.min(args.len())..];
        if extra.first() == Some(&"book") {
            let name = extra.get(1).ok_or_else(|| syntax("missing book"))?;
            if !name.eq_ignore_ascii_case("none") {
                request.book = Some(PathBuf::from(name));
            }
            extra = &extra[2..];
        }
        for token in extra {
            let value = |key: &str| token.strip_prefix(key)?.parse::<u64>().ok();
            if let Some(n) = value("plies=") {
                request.plies = Some(n as usize);
            } else if let Some(n) = value("nodes=") {
                request.nodes = n.max(1);
            } else if let Some(n) = value("maxscore=") {
                request.max_score = n.min(i32::MAX as u64) as i32;
            } else {
                request.unknown.push(token.to_string());
            }
        }
        Ok(request)
    }
}

/// The positions of a book: one FEN or EPD per line (the first four fields count, as in
/// OpenBench's books), blank lines and `#` comments skipped.
pub fn read_book(path: &Path) -> Result<Vec<Position>, GenfensError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| GenfensError::Book(path.to_path_buf(), e))?;
    let mut book = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        book.push(
            super::run::opening_position(line).map_err(|e| GenfensError::BookLine(n + 1, e))?,
        );
    }
    if book.is_empty() {
        return Err(GenfensError::EmptyBook(path.to_path_buf()));
    }
    Ok(book)
}

/// Makes the openings of `request` from `book` (empty: the start position), evaluated
/// with `network` (`None`: the hand-crafted evaluation), and hands each FEN to `emit` as
/// soon as it is found.
pub fn generate(
    request: &GenfensRequest,
    book: &[Position],
    network: Option<Arc<Network>>,
    emit: &mut dyn FnMut(&str),
) -> Result<(), GenfensError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(request.seed);
    let mut searcher = Searcher::new(HASH_MB);
    searcher.set_network(network);
    let limits = Limits {
        nodes: Some(request.nodes),
        multipv: 1,
        ..Limits::default()
    };
    let base_plies = request.plies.unwrap_or(if book.is_empty() {
        START_PLIES
    } else {
        BOOK_PLIES
    });
    let mut given = HashSet::new();
    let mut tries = 0;
    while given.len() < request.count {
        tries += 1;
        if tries > TRIES_PER_OPENING * (given.len() + 1) {
            return Err(GenfensError::NoOpening(tries - 1));
        }
        let start = match book.len() {
            0 => Position::startpos(),
            n => book[(rng.next_u64() % n as u64) as usize].clone(),
        };
        let plies = base_plies + (rng.next_u64() % 2) as usize;
        let Some(pos) = random_walk(start, plies, &mut rng) else {
            continue;
        };
        if given.contains(&pos.key()) {
            continue;
        }
        if is_balanced(&mut searcher, &pos, &limits, request.max_score) {
            given.insert(pos.key());
            emit(&pos.to_fen());
        }
    }
    Ok(())
}

/// Whether a search of `pos` within `limits` (a short one: a fixed number of nodes), from
/// a cleared table so that the answer does not depend on what was searched before, scores
/// it within `max_score` centipawns of zero. A mate score is never balanced.
pub(super) fn is_balanced(
    searcher: &mut Searcher,
    pos: &Position,
    limits: &Limits,
    max_score: i32,
) -> bool {
    searcher.clear();
    let result = searcher.search(pos, limits, &SearchControl::default(), &mut |_| {});
    matches!(
        result.info.map(|i| i.score),
        Some(Score::Cp(cp)) if cp.abs() <= max_score
    )
}

/// `plies` random legal moves from `pos`; `None` when the game ends on the way or right
/// after (no legal move, or a draw by the rules).
pub(super) fn random_walk(
    mut pos: Position,
    plies: usize,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<Position> {
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.make_move(moves[(rng.next_u64() % moves.len() as u64) as usize]);
    }
    super::ending::leaves_a_game(&pos).then(|| pos.clone_without_history())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(line: &str) -> Result<GenfensRequest, GenfensError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        GenfensRequest::parse(&words)
    }

    fn fens(line: &str) -> Vec<String> {
        let mut out = Vec::new();
        generate(&request(line).unwrap(), &[], None, &mut |f| {
            out.push(f.to_string())
        })
        .unwrap();
        out
    }

    #[test]
    fn parses_openbench_words_and_extras() {
        let r = request("16 seed 12345 book None plies=6 maxscore=150 frc").unwrap();
        assert_eq!((r.count, r.seed, r.book.clone()), (16, 12345, None));
        assert_eq!((r.plies, r.max_score, r.nodes), (Some(6), 150, CHECK_NODES));
        assert_eq!(r.unknown, vec!["frc".to_string()]);
        let r = request("4 seed 1 book Books/x.epd").unwrap();
        assert_eq!(r.book, Some(PathBuf::from("Books/x.epd")));
        assert!(request("4 seed").is_err());
        assert!(request("x seed 1 book None").is_err());
        assert!(request("4 1 book None").is_err());
    }

    #[test]
    fn the_same_seed_gives_the_same_legal_balanced_openings() {
        let a = fens("12 seed 7 book None");
        assert_eq!(a, fens("12 seed 7 book None"));
        assert_ne!(a, fens("12 seed 8 book None"));
        assert_eq!(a.len(), 12);
        let distinct: HashSet<_> = a.iter().collect();
        assert_eq!(distinct.len(), 12);
        for fen in &a {
            let pos = Position::from_fen(fen).unwrap();
            assert!(!pos.legal_moves().is_empty(), "{fen}");
            // Eight or nine random plies from the start: move 5, either side to move.
            assert!(fen.ends_with(" 5"), "{fen}");
        }
    }

    #[test]
    fn openings_start_from_the_book_lines() {
        let book = [Position::from_fen(
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1",
        )
        .unwrap()];
        let mut out = Vec::new();
        let r = request("3 seed 3 book some.epd plies=0").unwrap();
        generate(&r, &book, None, &mut |f| out.push(f.to_string())).unwrap();
        // No random plies asked for: the book's position or one ply after it.
        let start = &book[0];
        let mut near = HashSet::from([start.key()]);
        for &mv in start.legal_moves().as_slice() {
            let mut child = start.clone();
            child.make_move(mv);
            near.insert(child.key());
        }
        assert_eq!(out.len(), 3);
        for fen in &out {
            assert!(
                near.contains(&Position::from_fen(fen).unwrap().key()),
                "{fen}"
            );
        }
    }

    #[test]
    fn an_impossible_margin_ends_with_an_error() {
        let r = request("1 seed 1 book None maxscore=0 nodes=1").unwrap();
        let book = [Position::from_fen("4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1").unwrap()];
        assert!(matches!(
            generate(&r, &book, None, &mut |_| {}),
            Err(GenfensError::NoOpening(_))
        ));
    }
}
