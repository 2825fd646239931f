//! `ladya book ...`: build books from PGN or opening lines, and probe them.

use ladya::book::{BookError, BuildRequest, ProbeRequest, DEFAULT_MIN_GAMES};

/// The book subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Build a Polyglot book from PGN games (2 points a win, 1 a draw) or opening lines.
    Build(BuildArgs),
    /// List the book moves of a position with their weights.
    Probe(ProbeArgs),
}

/// Options of `ladya book build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// PGN games to learn from.
    #[arg(long, required_unless_present = "lines", conflicts_with = "lines")]
    pub pgn: Option<String>,
    /// An opening-lines file (`book/lines.txt` format).
    #[arg(long)]
    pub lines: Option<String>,
    /// The book to write (default: the input's name with the extension .bin).
    #[arg(long)]
    pub out: Option<String>,
    /// Plies of each game or line that go into the book (PGN default 24, lines: all).
    #[arg(long)]
    pub plies: Option<usize>,
    /// A move must appear in at least this many games or lines.
    #[arg(long, default_value_t = DEFAULT_MIN_GAMES)]
    pub min_games: u32,
}

/// Options of `ladya book probe`.
#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    /// The position (default: the start position); quoted, or as separate words.
    #[arg(long, num_args = 1..=6)]
    pub fen: Vec<String>,
    /// Moves played from the position first (SAN or UCI).
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// The book (default: the built-in book).
    #[arg(long)]
    pub book: Option<String>,
}

/// Runs a parsed `ladya book` command; returns the text to print.
pub fn run(command: &BookCommand) -> Result<String, BookError> {
    match command {
        BookCommand::Build(a) => ladya::book::build(&BuildRequest {
            pgn: a.pgn.clone(),
            lines: a.lines.clone(),
            out: a.out.clone(),
            plies: a.plies,
            min_games: a.min_games,
        }),
        BookCommand::Probe(a) => ladya::book::probe(&ProbeRequest {
            fen: a.fen.clone(),
            moves: a.moves.clone(),
            book: a.book.clone(),
        }),
    }
}
