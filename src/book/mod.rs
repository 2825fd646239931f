//! Opening books in the Polyglot `.bin` format: reading (keys, binary search, move
//! decoding), choosing a move, writing books from PGN games or opening lines, and the
//! engine's in-game use of a book (`OwnBook` and friends).
//!
//! The default book is built from `book/lines.txt` into `book/ladya.bin` and embedded in
//! the binary; `tests/book.rs` checks that the committed file matches its source.

mod builder;
mod error;
mod key;
mod lines;
mod make;
mod notation;
mod pgn;
mod player;
mod polyglot;
pub mod random;
mod select;

pub use builder::{BookBuilder, GameResult, DRAW_WEIGHT, WIN_WEIGHT};
pub use error::BookError;
pub use key::{has_standard_castling, polyglot_key};
pub use lines::{parse_lines, OpeningLine};
pub use make::{
    build, build_from_lines, build_from_pgn, probe, probe_report, BuildRequest, ProbeRequest,
    DEFAULT_MIN_GAMES, DEFAULT_PGN_PLIES,
};
pub use notation::parse_move;
pub use pgn::{parse_pgn, BadMove, PgnGame, PlayedGame};
pub use player::{
    builtin_book, game_ply, BookChoice, BookPlayer, BUILTIN_BOOK, DEFAULT_BOOK_DEPTH,
    MAX_BOOK_DEPTH,
};
pub use polyglot::{decode_move, encode_move, Book, BookMove, Entry, ENTRY_SIZE};
pub use select::choose;
