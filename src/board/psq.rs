//! An additive value per piece and square, kept up to date by make/unmake.
//!
//! The board does not know what the values mean: it only keeps, for each of two lanes,
//! the sum over all pieces of `table[piece][square]`. Whoever owns the numbers (the
//! evaluation keeps material plus piece-square tables here, middlegame and endgame in the
//! two lanes) installs a table with [`Position::set_psq_table`](super::Position) and reads
//! the sums with `psq()`, so nothing is recounted at every node.

/// Two lanes of values for each piece (indexed by `Piece::index`) on each square.
pub struct PsqTable(pub [[[i32; 2]; 64]; 12]);

/// The table a position starts with: every value zero.
pub static ZERO_PSQ: PsqTable = PsqTable([[[0; 2]; 64]; 12]);
