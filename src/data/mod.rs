//! Training data for the evaluation network: the packed record and the files made of it.

pub mod convert;
pub mod file;
pub mod filter;
pub mod packed;
pub mod pgn;
pub mod stats;

pub use convert::{convert_file, ConvertReport, LineError};
pub use file::{read_all, record_count, DataError, PackedReader, PackedWriter};
pub use packed::{GameResult, PackedError, PackedPosition, RECORD_BYTES};
pub use stats::{file_stats, Stats};
