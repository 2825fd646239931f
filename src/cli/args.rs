//! The command line of the `ladya` binary: every subcommand and its options (clap).

use clap::{Args, Parser, Subcommand};
use ladya::search::Limits;

#[derive(Parser)]
#[command(name = "ladya", version, about = "Ladya, a UCI chess engine")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Count the leaf nodes of the move tree (move-generator test and speed).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position to count from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// With `--divide`, write castling as the king taking its rook (`e1h1`), as
        /// `UCI_Chess960` does; otherwise as the king's two-square move (`e1g1`).
        #[arg(long)]
        chess960: bool,
    },
    /// Search the bench positions at a fixed depth; the last line is `<N> nodes <M> nps`.
    Bench {
        /// Depth in plies.
        depth: Option<u32>,
        /// Search threads (the node count is the reference one only with 1).
        threads: Option<usize>,
        /// Evaluate with the hand-crafted evaluation.
        #[arg(long, conflicts_with = "nnue")]
        hce: bool,
        /// Evaluate with the embedded network.
        #[arg(long)]
        nnue: bool,
        /// Syzygy tablebase folders (to measure the cost of having them).
        #[arg(long)]
        syzygy: Option<std::path::PathBuf>,
    },
    /// Search one position and show the progress with the principal variation in SAN.
    Go {
        /// The position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        #[command(flatten)]
        limit: SearchLimit,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Syzygy tablebase folders, separated as in PATH.
        #[arg(long)]
        syzygy: Option<std::path::PathBuf>,
    },
    /// Build opening books from PGN or opening lines, and probe them.
    #[command(subcommand)]
    Book(super::book::BookCommand),
    /// Self-play at a fixed node budget, writing quiet positions with score and result
    /// (packed 32-byte records, or `FEN | score | result` lines with --text); resumable.
    Datagen(DatagenArgs),
    /// Train an evaluation network on packed positions (see `src/train/`).
    Train(super::train::TrainArgs),
    /// Training data files: `stats FILE`, `loss FILE`, `convert IN.txt OUT.bin`,
    /// `unpack GAMES OUT.bin`, `pgn --out OUT.bin GAMES...`.
    #[command(subcommand)]
    Data(DataCommand),
    /// Analyse the games of a PGN file: an annotated PGN with `%eval` comments, marks and
    /// better moves, a summary per side, and an evaluation graph (`--graph FILE.svg`).
    Analyse(super::analyse::AnalyseArgs),
    /// What the Syzygy tablebases say about a position: WDL, DTZ and the best move, and
    /// the same for every legal move.
    Probe(super::probe::ProbeArgs),
    /// The search's tunables in the format of OpenBench's SPSA tab (`name, int, value,
    /// min, max, c_end, r_end`); a `--features tune` build takes them as UCI options.
    Tunables,
    /// Texel-tune the hand-crafted evaluation's weights on `FEN | score | result` lines.
    Texel(super::texel::TexelArgs),
    /// Run an EPD test suite (`bm`/`am` in SAN) and report how many positions were solved.
    Epd {
        /// The EPD file.
        file: std::path::PathBuf,
        #[command(flatten)]
        limit: SearchLimit,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
    },
}

/// `ladya data ...`: packed training files.
#[derive(Subcommand)]
pub enum DataCommand {
    /// Count, result split, score histogram, side to move, pieces, corrupt records.
    Stats {
        /// A file of packed records.
        file: std::path::PathBuf,
    },
    /// How well the hand-crafted evaluation and a network predict a file's labels
    /// (validation: e.g. Stockfish-scored positions, which never train a network).
    Loss {
        /// A file of packed records.
        file: std::path::PathBuf,
        /// The network (default: the embedded one).
        #[arg(long)]
        eval_file: Option<std::path::PathBuf>,
        /// Weight of the score in the target; the game result gets the rest.
        #[arg(long, default_value_t = 1.0)]
        lambda: f64,
    },
    /// Convert `FEN | score | result` lines to packed records, appended to OUT.
    Convert {
        /// The text file.
        input: std::path::PathBuf,
        /// The packed file (created, or appended to when it exists).
        output: std::path::PathBuf,
    },
    /// Whole games (`datagen --games-format`) to packed records, appended to OUT: each
    /// game replayed and filtered as `datagen` filters its positions.
    Unpack {
        /// The games file.
        input: std::path::PathBuf,
        /// The packed file (created, or appended to when it exists).
        output: std::path::PathBuf,
    },
    /// Games with each move's score (OpenBench's DATAGEN: `.pgn`, `.pgn.bz2`, the
    /// workload's `.pgn.tar`) to packed records, filtered as `datagen` filters its own.
    Pgn {
        /// The packed file (created, or appended to when it exists).
        #[arg(long)]
        out: std::path::PathBuf,
        /// Only the moves of the engine of this name (the `White` or `Black` tag), where
        /// the games are against another engine whose scores are on its own scale.
        #[arg(long)]
        player: Option<String>,
        /// PGN files, bzip2-compressed ones or tar archives of either.
        #[arg(required = true)]
        inputs: Vec<std::path::PathBuf>,
    },
}

/// Options of `ladya datagen`.
#[derive(Args)]
pub struct DatagenArgs {
    /// Output file. With its sidecar OUT.progress from the same settings, the run resumes
    /// where it stopped; without one, new games are appended after what the file holds.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Number of games in total for the run (games done before a resume count).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Opening positions, one FEN or EPD per line (default: the start position).
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Random legal plies after the opening.
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// Start a game only from an opening (after the random plies) that a short search
    /// scores within this many centipawns of zero; others are drawn again.
    #[arg(long, default_value_t = ladya::datagen::genfens::MAX_SCORE)]
    pub max_opening_score: i32,
    /// Start games from every opening, balanced or not (as before the balance check).
    #[arg(long, conflicts_with = "max_opening_score")]
    pub any_opening: bool,
    /// Play with the hand-crafted evaluation (generation 0 of the training loop).
    #[arg(long, conflicts_with = "eval_file")]
    pub hce: bool,
    /// Play with this network instead of the engine's default evaluation.
    #[arg(long)]
    pub eval_file: Option<std::path::PathBuf>,
    /// Seed of every random choice (the same seed regenerates the same games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (the file is the same for any number).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Write `FEN | score | result` lines (the tuner's format) instead of packed records.
    #[arg(long, conflicts_with = "games_format")]
    pub text: bool,
    /// Write whole games (every move and its score, an eighth of the bytes, small enough to
    /// keep) instead of packed records; `ladya data unpack` makes the records.
    #[arg(long)]
    pub games_format: bool,
    /// Syzygy tables (folders separated as in PATH): a game ends as soon as they know
    /// its result (a cursed win or blessed loss is a draw).
    #[arg(long)]
    pub syzygy: Option<String>,
}

/// Exactly one limit for a terminal search.
#[derive(Args, Clone, Copy)]
#[group(required = true, multiple = false)]
pub struct SearchLimit {
    /// Search to this depth.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
}

impl SearchLimit {
    pub fn limits(self) -> Limits {
        super::search_limits(self.depth, self.movetime, self.nodes)
    }
}
