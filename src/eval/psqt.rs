//! Material and piece-square tables as one table the board keeps summed (see
//! `board::PsqTable`): middlegame in lane 0, endgame in lane 1, from White's view.
//!
//! The values are the `MATERIAL` and `PST_*` sections of `params::WEIGHTS`, so the tuner
//! still sees them as separate weights; scoring just reads the sums instead of walking
//! every piece at every node.

use super::layout::{MATERIAL, PST_PAWN};
use super::params::WEIGHTS;
use crate::board::{Position, PsqTable};
use crate::types::{Color, Piece, PieceType};

/// Material plus piece-square value of every piece on every square, built at compile time.
pub static PSQ_TABLE: PsqTable = build();

const fn build() -> PsqTable {
    let mut table = [[[0; 2]; 64]; 12];
    let mut k = 0;
    while k < 6 {
        let kind = PieceType::ALL[k];
        let mut sq = 0;
        while sq < 64 {
            let (mg, eg) = if k < 5 {
                (WEIGHTS[MATERIAL + k].0, WEIGHTS[MATERIAL + k].1)
            } else {
                (0, 0)
            };
            // A square from each owner's side: Black's a8 is White's a1.
            let white = WEIGHTS[PST_PAWN + 64 * k + sq];
            let black = WEIGHTS[PST_PAWN + 64 * k + (sq ^ 56)];
            table[Piece::new(Color::White, kind).index()][sq] = [mg + white.0, eg + white.1];
            table[Piece::new(Color::Black, kind).index()][sq] = [-mg - black.0, -eg - black.1];
            sq += 1;
        }
        k += 1;
    }
    PsqTable(table)
}

/// Installs the evaluation's table in `pos`, so make/unmake keep its sums and
/// [`evaluate`](super::evaluate) reads them instead of recounting.
pub fn attach(pos: &mut Position) {
    pos.set_psq_table(&PSQ_TABLE);
}

/// True when `pos` keeps the evaluation's sums.
#[inline(always)]
pub(crate) fn is_attached(pos: &Position) -> bool {
    std::ptr::eq(pos.psq_table(), &PSQ_TABLE)
}
