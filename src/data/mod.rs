//! Training data for the evaluation network: the packed record and the files made of it.

pub mod packed;

pub use packed::{GameResult, PackedError, PackedPosition, RECORD_BYTES};
