//! Ladya, a UCI chess engine: bitboards with magic move generation, PVS alpha-beta search,
//! an evaluation network trained on its own games (with its data format and trainer), a
//! tapered hand-crafted evaluation and a Polyglot opening book.
//!
//! Layers: `types`, `bitboard`, `chess_move`, `board` and `movegen` know the rules and
//! nothing else; everything that thinks sits above them.

#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod analyse;
pub mod attacks;
pub mod bench;
pub mod bitboard;
pub mod board;
pub mod book;
pub mod chess_move;
pub mod data;
pub mod datagen;
pub mod epd;
pub mod eval;
pub mod movegen;
pub mod nnue;
pub mod perft;
pub mod search;
pub mod tablebase;
pub mod train;
pub mod types;
pub mod uci;

pub use bitboard::Bitboard;
pub use board::{AttackMap, BrokenInvariant, FenError, Position, SanError, START_FEN};
pub use chess_move::{Move, MoveKind};
pub use movegen::{GenType, MoveError, MoveList};
pub use types::{Color, File, Piece, PieceType, Rank, Square};
