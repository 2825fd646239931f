//! Training data for the evaluation network: the packed record and the files made of it,
//! and whole games (`games`), which unpack into records.

pub mod convert;
pub mod file;
pub mod filter;
pub mod games;
pub mod packed;
pub mod pgn;
pub mod stats;

pub use convert::{convert_file, ConvertReport, LineError};
pub use file::{read_all, record_count, unpack_file, DataError, PackedReader, PackedWriter};
pub use games::{unpack, GamesError, PlyScore, UnpackReport};
pub use packed::{GameResult, PackedError, PackedPosition, RECORD_BYTES};
pub use stats::{file_stats, Stats};
