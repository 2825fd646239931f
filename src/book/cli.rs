//! `ladya book ...`: build books from PGN or opening lines, and probe them.

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

/// How to use `ladya book`.
pub const USAGE: &str = "\
usage:
  ladya book build --pgn FILE [--out FILE.bin] [--plies N] [--min-games N]
  ladya book build --lines FILE [--out FILE.bin] [--plies N] [--min-games N]
  ladya book probe [--fen FEN] [--moves M1 M2 ...] [--book FILE.bin]

--out: the book to write (default: the input's name with the extension .bin).
--plies: how many plies of each game or line go into the book (PGN default 24, lines: all).
--min-games: a move must appear in at least this many games or lines (default 1).
probe: lists the book moves of a position (default: the start position) with weights;
--book defaults to the built-in book.";

/// Runs `ladya book` with the arguments after `book`; returns the text to print.
pub fn run_cli(args: &[String]) -> Result<String, BookError> {
    let (command, rest) = match args.split_first() {
        Some((c, rest)) => (c.as_str(), rest),
        None => return Err(BookError::Usage(USAGE.into())),
    };
    let opts = Options::parse(rest)?;
    match command {
        "build" => build(&opts),
        "probe" => probe(&opts),
        "help" | "--help" | "-h" => Ok(USAGE.into()),
        other => Err(BookError::Usage(format!(
            "unknown book command {other:?}\n{USAGE}"
        ))),
    }
}

/// Command-line options: each `--name` with the words up to the next `--name`.
struct Options(Vec<(String, Vec<String>)>);

impl Options {
    fn parse(args: &[String]) -> Result<Options, BookError> {
        let mut opts: Vec<(String, Vec<String>)> = Vec::new();
        for arg in args {
            if let Some(name) = arg.strip_prefix("--") {
                opts.push((name.to_string(), Vec::new()));
            } else if let Some((_, values)) = opts.last_mut() {
                values.push(arg.clone());
            } else {
                return Err(BookError::Usage(format!(
                    "unexpected argument {arg:?}\n{USAGE}"
                )));
            }
        }
        Ok(Options(opts))
    }

    fn check_known(&self, known: &[&str]) -> Result<(), BookError> {
        match self.0.iter().find(|(n, _)| !known.contains(&n.as_str())) {
            Some((n, _)) => Err(BookError::Usage(format!("unknown option --{n}\n{USAGE}"))),
            None => Ok(()),
        }
    }

    /// All the words of an option, joined by spaces (a FEN may come quoted or not).
    fn text(&self, name: &str) -> Result<Option<String>, BookError> {
        match self.0.iter().find(|(n, _)| n == name) {
            None => Ok(None),
            Some((_, v)) if v.is_empty() => {
                Err(BookError::Usage(format!("--{name} needs a value")))
            }
            Some((_, v)) => Ok(Some(v.join(" "))),
        }
    }

    fn words(&self, name: &str) -> Vec<String> {
        self.0
            .iter()
            .filter(|(n, _)| n == name)
            .flat_map(|(_, v)| {
                v.iter()
                    .flat_map(|w| w.split_whitespace().map(String::from))
            })
            .collect()
    }

    fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, BookError> {
        match self.text(name)? {
            None => Ok(None),
            Some(t) => t.parse().map(Some).map_err(|_| {
                BookError::Usage(format!("--{name} needs a non-negative integer, not {t:?}"))
            }),
        }
    }
}

fn read_text(path: &str) -> Result<String, BookError> {
    let bytes = std::fs::read(path).map_err(|e| BookError::io(path, e))?;
    // PGN files in the wild are often Latin-1; names may garble, moves are ASCII.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn build(opts: &Options) -> Result<String, BookError> {
    opts.check_known(&["pgn", "lines", "out", "plies", "min-games"])?;
    let min_games = opts.number("min-games")?.unwrap_or(DEFAULT_MIN_GAMES);
    let (input, (book, summary)) = match (opts.text("pgn")?, opts.text("lines")?) {
        (Some(pgn), None) => {
            let plies = opts.number("plies")?.unwrap_or(DEFAULT_PGN_PLIES);
            let built = build_from_pgn(&read_text(&pgn)?, plies, min_games)?;
            (pgn, built)
        }
        (None, Some(lines)) => {
            let plies = opts.number("plies")?.unwrap_or(usize::MAX);
            let built = build_from_lines(&read_text(&lines)?, plies, min_games)?;
            (lines, built)
        }
        _ => {
            return Err(BookError::Usage(format!(
                "book build needs exactly one of --pgn FILE or --lines FILE\n{USAGE}"
            )))
        }
    };
    let out = match opts.text("out")? {
        Some(out) => out,
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
            "give --out: the default output {out} is the input\n{USAGE}"
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

fn probe(opts: &Options) -> Result<String, BookError> {
    opts.check_known(&["fen", "moves", "book"])?;
    let (book, name) = match opts.text("book")? {
        None => (builtin_book()?, BUILTIN_BOOK.to_string()),
        Some(path) => (Book::open(&path)?, path),
    };
    let mut pos = match opts.text("fen")? {
        Some(fen) => Position::from_fen(&fen)?,
        None => Position::startpos(),
    };
    for token in opts.words("moves") {
        let mv = parse_move(&pos, &token).ok_or_else(|| {
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
