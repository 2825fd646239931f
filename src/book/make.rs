//! Building books from PGN or opening lines, and probing them: what `ladya book build`
//! and `ladya book probe` do (their command line is the binary's, `src/cli/book.rs`).

use super::builder::{BookBuilder, GameResult};
use super::error::BookError;
use super::key::{has_standard_castling, polyglot_key};
use super::lines::parse_lines;
use super::notation::parse_move;
use super::pgn::parse_pgn;
use super::player::{builtin_book, BUILTIN_BOOK};
use super::polyglot::Book;
use crate::board::Position;

/// Default `--plies` for PGN books: deep enough for the opening, short of the middlegame.
pub const DEFAULT_PGN_PLIES: usize = 24;
/// Default `--min-games` for PGN books.
pub const DEFAULT_MIN_GAMES: u32 = 1;

fn read_text(path: &str) -> Result<String, BookError> {
    let bytes = std::fs::read(path).map_err(|e| BookError::io(path, e))?;
    // PGN files in the wild are often Latin-1; names may garble, moves are ASCII.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// What `ladya book build` asks for.
#[derive(Clone, Debug, Default)]
pub struct BuildRequest {
    /// PGN games to learn from (exactly one of `pgn` and `lines`).
    pub pgn: Option<String>,
    /// An opening-lines file (`book/lines.txt` format).
    pub lines: Option<String>,
    /// The book to write (default: the input's name with the extension .bin).
    pub out: Option<String>,
    /// Plies of each game or line that go into the book (PGN default 24, lines: all).
    pub plies: Option<usize>,
    /// A move must appear in at least this many games or lines.
    pub min_games: u32,
}

/// What `ladya book probe` asks for.
#[derive(Clone, Debug, Default)]
pub struct ProbeRequest {
    /// The position's FEN fields (empty: the start position).
    pub fen: Vec<String>,
    /// Moves played from the position first (SAN or UCI).
    pub moves: Vec<String>,
    /// The book (default: the built-in book).
    pub book: Option<String>,
}

/// Builds and writes the book `args` asks for; returns the line to print.
pub fn build(args: &BuildRequest) -> Result<String, BookError> {
    let min_games = args.min_games;
    let (input, (book, summary)) = match (&args.pgn, &args.lines) {
        (Some(pgn), None) => {
            let plies = args.plies.unwrap_or(DEFAULT_PGN_PLIES);
            let built = build_from_pgn(&read_text(pgn)?, plies, min_games)?;
            (pgn.clone(), built)
        }
        (None, Some(lines)) => {
            let plies = args.plies.unwrap_or(usize::MAX);
            let built = build_from_lines(&read_text(lines)?, plies, min_games)?;
            (lines.clone(), built)
        }
        _ => {
            return Err(BookError::Usage(
                "book build needs exactly one of --pgn FILE or --lines FILE".into(),
            ))
        }
    };
    let out = match &args.out {
        Some(out) => out.clone(),
        None => default_out(&input)?,
    };
    std::fs::write(&out, book.as_bytes()).map_err(|e| BookError::io(&out, e))?;
    Ok(format!("{summary}; wrote {} entries to {out}", book.len()))
}

/// The input's name with the extension `.bin` (`lines.txt` → `lines.bin`), unless that
/// would overwrite the input.
fn default_out(input: &str) -> Result<String, BookError> {
    let out = std::path::Path::new(input).with_extension("bin");
    let out = out.to_string_lossy().into_owned();
    if out == input {
        return Err(BookError::Usage(format!(
            "give --out: the default output {out} is the input"
        )));
    }
    Ok(out)
}

/// Builds a book from PGN text: 2 per win and 1 per draw for each move of the first
/// `plies` plies, moves kept if seen in `min_games` games. Returns the book and a
/// summary of what was read.
pub fn build_from_pgn(
    text: &str,
    plies: usize,
    min_games: u32,
) -> Result<(Book, String), BookError> {
    let mut builder = BookBuilder::new(plies);
    let (mut used, mut no_result, mut variant, mut broken) = (0, 0, 0, 0);
    let games = parse_pgn(text);
    for game in &games {
        if game.is_variant() {
            variant += 1;
            continue;
        }
        if game.result() == GameResult::Unknown {
            no_result += 1;
            continue;
        }
        // A game with a bad move still teaches its moves before that one.
        let Ok(played) = game.play() else {
            broken += 1;
            continue;
        };
        if played.error.is_some() {
            broken += 1;
        }
        let (start, moves) = (played.start, played.moves);
        builder.add_game(&start, &moves, game.result());
        used += 1;
    }
    let summary = format!(
        "read {} games: {used} used, {no_result} without result, {variant} of other variants, \
         {broken} with a bad FEN or an illegal move (used up to it)",
        games.len()
    );
    Ok((builder.finish(min_games)?, summary))
}

/// Builds a book from an opening-lines file: each move of a line gets the line's weight,
/// summed over the lines that play it from the same position.
pub fn build_from_lines(
    text: &str,
    plies: usize,
    min_games: u32,
) -> Result<(Book, String), BookError> {
    let lines = parse_lines(text)?;
    let mut builder = BookBuilder::new(plies);
    let start = Position::startpos();
    for line in &lines {
        builder.add_line(&start, &line.moves, line.weight);
    }
    let summary = format!("read {} lines", lines.len());
    Ok((builder.finish(min_games)?, summary))
}

/// The book moves of the position `args` names, as `ladya book probe` prints them.
pub fn probe(args: &ProbeRequest) -> Result<String, BookError> {
    let (book, name) = match &args.book {
        None => (builtin_book()?, BUILTIN_BOOK.to_string()),
        Some(path) => (Book::open(path)?, path.clone()),
    };
    let mut pos = match args.fen.is_empty() {
        false => Position::from_fen(&args.fen.join(" "))?,
        true => Position::startpos(),
    };
    for token in args.moves.iter().flat_map(|w| w.split_whitespace()) {
        let mv = parse_move(&pos, token).ok_or_else(|| {
            BookError::Usage(format!("move {token:?} is not legal in {}", pos.to_fen()))
        })?;
        pos.make_move(mv);
    }
    Ok(probe_report(&book, &name, &pos))
}

/// The text `ladya book probe` prints for a position.
pub fn probe_report(book: &Book, name: &str, pos: &Position) -> String {
    let key = polyglot_key(pos);
    let moves = book.probe(pos);
    let entries = book.entries_for(key).count();
    let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
    let mut out = format!(
        "book {name} ({} entries)\nfen  {}\nkey  {key:016x}\n",
        book.len(),
        pos.to_fen()
    );
    if !has_standard_castling(pos) {
        out.push_str("no book moves: Chess960 castling rights have no Polyglot key\n");
        return out;
    }
    if moves.is_empty() {
        out.push_str("no book moves\n");
    } else {
        out.push_str("move   san      weight   share\n");
        for m in &moves {
            let share = if total > 0 {
                100.0 * f64::from(m.weight) / total as f64
            } else {
                0.0
            };
            out.push_str(&format!(
                "{:<6} {:<8} {:>6} {:>6.1}%\n",
                m.mv.to_uci(false),
                pos.to_san(m.mv),
                m.weight,
                share
            ));
        }
    }
    if entries > moves.len() {
        out.push_str(&format!(
            "({} entries skipped: their moves are not legal here)\n",
            entries - moves.len()
        ));
    }
    out
}
