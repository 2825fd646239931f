//! Reading a move written by a person or another program: SAN first, then UCI.

use crate::board::Position;
use crate::chess_move::Move;

/// The legal move `text` stands for, in SAN (`Nf3`, `O-O`, `exd8=Q+`) or UCI (`g1f3`,
/// `e1g1`, `e7e8q`); annotation marks (`!`, `?`) are ignored. `None` if it is neither.
pub fn parse_move(pos: &Position, text: &str) -> Option<Move> {
    let text = text.trim_end_matches(['!', '?']);
    pos.parse_san(text)
        .ok()
        .or_else(|| pos.parse_uci_move(text).ok())
}
