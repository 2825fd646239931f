//! What a run reports: its errors, its totals and its progress.

use super::sidecar::sidecar_path;
use crate::board::FenError;
use crate::data::DataError;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// A data-generation failure.
#[derive(Debug)]
pub enum DatagenError {
    /// An opening line is not a valid position.
    Opening(usize, FenError),
    /// None of the openings (this many) leaves a game to play: each is checkmate,
    /// stalemate or a draw by the rules.
    NoPlayableOpening(usize),
    /// Writing the output failed.
    Io(std::io::Error),
    /// Reading, cutting or appending to the output or its sidecar failed, or a packed
    /// output is not a whole number of records.
    Data(DataError),
    /// The sidecar records a run with other settings.
    Mismatch {
        /// The sidecar.
        sidecar: PathBuf,
        /// The setting that differs.
        field: &'static str,
        /// Its value in the sidecar.
        recorded: String,
        /// Its value now.
        requested: String,
    },
    /// The sidecar does not parse.
    BadSidecar(PathBuf, String),
    /// The output is shorter than its sidecar says (it was cut or replaced).
    ShortOutput {
        /// The output.
        path: PathBuf,
        /// Its length.
        bytes: u64,
        /// The length the sidecar recorded.
        recorded: u64,
    },
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::Opening(n, e) => write!(f, "opening {}: {e}", n + 1),
            DatagenError::NoPlayableOpening(n) => write!(
                f,
                "none of the {n} openings leaves a game to play (each is checkmate, \
                 stalemate or a draw by the rules)"
            ),
            DatagenError::Io(e) => write!(f, "cannot write the data: {e}"),
            DatagenError::Data(e) => write!(f, "{e}"),
            DatagenError::Mismatch {
                sidecar,
                field,
                recorded,
                requested,
            } => write!(
                f,
                "{} records a run with {field} {recorded}, not {requested}: resume with the \
                 same settings, choose another --out, or delete {0} to append a new run",
                sidecar.display()
            ),
            DatagenError::BadSidecar(path, why) => write!(
                f,
                "{}: {why} (delete it to append a new run after the file)",
                path.display()
            ),
            DatagenError::ShortOutput {
                path,
                bytes,
                recorded,
            } => write!(
                f,
                "{} has {bytes} bytes but its progress file recorded {recorded}: it was cut \
                 or replaced; delete {} to append a new run",
                path.display(),
                sidecar_path(path).display()
            ),
        }
    }
}

impl std::error::Error for DatagenError {}

impl From<DataError> for DatagenError {
    fn from(e: DataError) -> DatagenError {
        DatagenError::Data(e)
    }
}

/// What a run produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatagenReport {
    /// Games played to the end in this run.
    pub games: usize,
    /// Positions written in this run.
    pub positions: usize,
    /// Games won by White, drawn, won by Black, in this run.
    pub results: [usize; 3],
    /// Games the resumed run had already done (0 for a new run).
    pub resumed_at: usize,
    /// Bytes of a torn tail cut from the output on resuming.
    pub dropped_bytes: u64,
    /// Bytes that were in the output before a new run appended to it.
    pub appended_after: u64,
}

/// A progress report, made every few seconds.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Games done, counting those of the resumed run.
    pub games_done: usize,
    /// The run's target.
    pub games_total: usize,
    /// Games played since this process started (a resumed run counts from there).
    pub games_now: usize,
    /// Positions written since this process started.
    pub positions_now: usize,
    /// Time since this process started.
    pub elapsed: Duration,
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64().max(1e-3);
        let games_per_s = self.games_now as f64 / secs;
        write!(
            f,
            "{}/{} games, {} positions, {:.0} positions/s, {:.2} games/s, ETA ",
            self.games_done,
            self.games_total,
            self.positions_now,
            self.positions_now as f64 / secs,
            games_per_s
        )?;
        let left = self.games_total.saturating_sub(self.games_done);
        if games_per_s > 0.0 {
            let eta = (left as f64 / games_per_s).round() as u64;
            write!(f, "{}h{:02}m{:02}s", eta / 3600, eta / 60 % 60, eta % 60)
        } else {
            write!(f, "?")
        }
    }
}
