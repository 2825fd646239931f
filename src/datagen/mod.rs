//! Self-play training data (`ladya datagen`): quiet positions with Ladya's search score and
//! the game result, for the evaluation network's trainer and the Texel tuner.
//!
//! Ladya plays itself at a fixed node budget per move from shuffled openings, each
//! followed by a few random plies so that no two games are alike, and kept only when a
//! short search finds it balanced (`max_opening_score`). A position is kept when
//! it is worth learning from: not in check, the move chosen is no capture or promotion,
//! the score is no mate and below 2,000 cp, and the game is past its first plies.
//!
//! A game ends once its result is clear, so the time goes to positions worth learning:
//! both searches agree on a decisive score for several plies (a win), the score stays
//! near zero for a long stretch late in the game (a draw), or, with Syzygy tables loaded
//! (`--syzygy`), the tables know the position's result.
//!
//! # Output
//! [`Format::Packed`] (the default) writes one 32-byte record per position, the layout in
//! `src/data/packed.rs` ([`PackedPosition`]: board, score in centipawns from White's view,
//! result for White, side to move, en passant, clocks); a file is nothing but records, read
//! by `ladya data stats` and the trainer ([`crate::data::read_all`]). [`Format::Text`]
//! writes `FEN | score | result` lines (result 1.0 / 0.5 / 0.0), the format of
//! `../shared/data/tuning`, which the Texel tuner (`ladya texel`) reads and
//! `ladya data convert` turns into records.
//!
//! # Reproducible, resumable, appendable
//! Every game is a function of the seed and its number alone (its own RNG, a fresh search
//! with a cleared table, fixed nodes). Games are played on several threads, but the writer
//! puts them in the file in game-number order (finished games wait in a reorder buffer), so
//! the file is byte-for-byte the same for any thread count.
//!
//! [`generate_file`] keeps a sidecar `OUT.progress` next to the output: a few `key=value`
//! lines with the settings that decide the games (format, seed, nodes, random plies, a
//! hash of the openings, and for people the openings file name) and how far the run got
//! (games done, the output's byte length then). It is rewritten atomically (temp file,
//! then rename) after each game is written, so a run killed at any moment resumes exactly:
//!
//! - sidecar present, same settings: the output is cut back to the recorded length (a
//!   game half-written when the process died goes) and play resumes at the next game
//!   number; `games` is the run's total target, so a larger `--games` extends a finished
//!   run and the file equals one run to the larger total;
//! - sidecar present, other settings: an error ([`DatagenError::Mismatch`]); choose another
//!   output or delete the sidecar to append a new run;
//! - output present without a sidecar: the new run's games are appended after what is
//!   there (records are self-contained; a packed file must be whole records).
//!
//! The thread count and the engine build are not recorded: threads never change the data,
//! and a run resumed with another build continues with that build's games.

//!
//! # Files
//! `run.rs` plays the games on threads and writes them in order, `game.rs` plays one game
//! and keeps its positions, `ending.rs` says when a game is over, `sidecar.rs` is the
//! resume record, `report.rs` the errors and progress reports, `genfens.rs` the openings
//! of OpenBench's DATAGEN workloads.

mod ending;
mod game;
pub mod genfens;
mod report;
mod run;
mod sidecar;

pub use report::{DatagenError, DatagenReport, Progress};
pub use run::{generate, generate_file};
pub use sidecar::sidecar_path;

/// How positions are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// 32-byte [`PackedPosition`] records.
    #[default]
    Packed,
    /// `FEN | score | result` lines.
    Text,
    /// Whole games ([`crate::data::games`]): every move and score, an eighth of the packed
    /// bytes; `ladya data unpack` turns them into the packed records.
    Games,
}

impl Format {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::Packed => "packed",
            Format::Text => "text",
            Format::Games => "games",
        }
    }
}

/// What to generate.
#[derive(Clone, Debug, Default)]
pub struct DatagenConfig {
    /// Number of games in total (games already in a resumed run count).
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Opening FENs (EPD lines are cut to their first four fields); empty for the
    /// start position.
    pub openings: Vec<String>,
    /// Where the openings came from (recorded in the sidecar for people; not compared).
    pub openings_name: String,
    /// Random legal plies played after the opening.
    pub random_plies: usize,
    /// A game starts only from an opening (after its random plies) that a short search
    /// ([`genfens::CHECK_NODES`] nodes, a cleared table) scores within this many centipawns
    /// of zero, as OpenBench's openings (`genfens`) are chosen; `None`: from any. Random
    /// plies leave many starts lopsided (8 of them: 28% of generation 23's games began
    /// beyond 300 cp), and a game decided from its first move teaches little.
    pub max_opening_score: Option<i32>,
    /// Seed of every random choice.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Output format.
    pub format: Format,
    /// The evaluation the games are played with: a network, or `None` for the
    /// hand-crafted evaluation (generation 0 of the training loop).
    pub network: Option<std::sync::Arc<crate::nnue::Network>>,
    /// End a game as soon as the loaded Syzygy tables ([`crate::tablebase::load`]) know
    /// its result: the plies after that teach the network nothing a table does not know.
    pub tablebase_adjudication: bool,
}
