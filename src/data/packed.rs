//! The packed training record: one position with its search score and game result in 32
//! bytes.
//!
//! Layout (little-endian):
//!
//! | bytes  | field                                                                 |
//! |--------|-----------------------------------------------------------------------|
//! | 0..8   | occupancy bitboard (`u64`, bit `i` = square `i`, a1 = 0)              |
//! | 8..24  | one nibble per occupied square, in occupancy order (lowest square     |
//! |        | first, low nibble first): bit 3 the colour (1 = Black), bits 0..2 the |
//! |        | piece type 0..5 (pawn..king), or 6 for a rook that may still castle   |
//! | 24..26 | score (`i16`): the search score in centipawns from White's view       |
//! | 26     | result for White: 0 loss, 1 draw, 2 win                               |
//! | 27     | side to move: 0 White, 1 Black                                        |
//! | 28     | en-passant square 0..63, or 64 for none                               |
//! | 29     | halfmove clock (saturated at 255)                                     |
//! | 30..32 | fullmove number (`u16`)                                               |
//!
//! A position has at most 32 pieces, so 16 bytes of nibbles always suffice. Castling rights
//! live on the rooks, so Chess960 rights survive the round trip. The record is what the
//! trainer streams: it decodes to features without building a [`Position`].

use crate::bitboard::Bitboard;
use crate::board::{CastleSide, FenError, Position};
use crate::types::{Color, Piece, PieceType, Square};

/// Bytes of one record.
pub const RECORD_BYTES: usize = 32;

/// The nibble type code of a rook that still holds a castling right.
const CASTLING_ROOK: u8 = 6;
/// The en-passant byte when there is no en-passant square.
const NO_EP: u8 = 64;

/// A game result from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Black won.
    BlackWin,
    /// Drawn.
    Draw,
    /// White won.
    WhiteWin,
}

impl GameResult {
    /// White's points: 0, 0.5 or 1.
    pub fn white_points(self) -> f32 {
        match self {
            GameResult::BlackWin => 0.0,
            GameResult::Draw => 0.5,
            GameResult::WhiteWin => 1.0,
        }
    }

    /// From the text form `1.0`, `0.5`, `0.0` (also `1`, `0`, `1/2`, `1-0`, `0-1`, `1/2-1/2`).
    pub fn parse(text: &str) -> Option<GameResult> {
        match text.trim() {
            "1.0" | "1" | "1-0" => Some(GameResult::WhiteWin),
            "0.5" | "1/2" | "1/2-1/2" => Some(GameResult::Draw),
            "0.0" | "0" | "0-1" => Some(GameResult::BlackWin),
            _ => None,
        }
    }

    fn code(self) -> u8 {
        self as u8
    }

    fn from_code(code: u8) -> Option<GameResult> {
        match code {
            0 => Some(GameResult::BlackWin),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWin),
            _ => None,
        }
    }
}

/// Why 32 bytes are not a valid record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackedError {
    /// More than 32 pieces on the board.
    TooManyPieces(u32),
    /// A nibble names no piece.
    BadPiece(u8),
    /// The result byte is not 0, 1 or 2.
    BadResult(u8),
    /// The side-to-move byte is not 0 or 1.
    BadSide(u8),
    /// The decoded position is not legal.
    Position(FenError),
}

impl std::fmt::Display for PackedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PackedError::TooManyPieces(n) => write!(f, "{n} pieces on the board (at most 32)"),
            PackedError::BadPiece(n) => write!(f, "piece code {n} is no piece"),
            PackedError::BadResult(n) => write!(f, "result code {n} (expected 0, 1 or 2)"),
            PackedError::BadSide(n) => write!(f, "side-to-move code {n} (expected 0 or 1)"),
            PackedError::Position(e) => write!(f, "not a legal position: {e}"),
        }
    }
}

impl std::error::Error for PackedError {}

/// One training position: see the module documentation for the byte layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedPosition([u8; RECORD_BYTES]);

impl PackedPosition {
    /// Packs a position with its score (centipawns, White's view; clamped to `i16`) and the
    /// game result.
    pub fn new(pos: &Position, white_score: i32, result: GameResult) -> PackedPosition {
        let mut bytes = [0u8; RECORD_BYTES];
        let occ = pos.occupied();
        bytes[0..8].copy_from_slice(&occ.0.to_le_bytes());
        let mut castling_rooks = Bitboard::EMPTY;
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if let Some(sq) = pos.castling().rook(color, side) {
                    castling_rooks |= Bitboard::from(sq);
                }
            }
        }
        for (i, sq) in occ.take(32).enumerate() {
            let piece = pos.piece_on(sq).expect("occupied square has a piece");
            let kind = if castling_rooks.has(sq) {
                CASTLING_ROOK
            } else {
                piece.kind() as u8
            };
            let nibble = kind | (piece.color() as u8) << 3;
            bytes[8 + i / 2] |= nibble << (4 * (i % 2));
        }
        let score = white_score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        bytes[24..26].copy_from_slice(&score.to_le_bytes());
        bytes[26] = result.code();
        bytes[27] = pos.side_to_move() as u8;
        bytes[28] = pos.en_passant().map_or(NO_EP, |sq| sq.index() as u8);
        bytes[29] = pos.halfmove_clock().min(255) as u8;
        bytes[30..32].copy_from_slice(&pos.fullmove_number().to_le_bytes());
        PackedPosition(bytes)
    }

    /// The raw record.
    pub fn as_bytes(&self) -> &[u8; RECORD_BYTES] {
        &self.0
    }

    /// Reads a record without checking it; [`PackedPosition::validate`] checks.
    pub fn from_bytes(bytes: [u8; RECORD_BYTES]) -> PackedPosition {
        PackedPosition(bytes)
    }

    /// The score in centipawns from White's view.
    pub fn white_score(&self) -> i16 {
        i16::from_le_bytes([self.0[24], self.0[25]])
    }

    /// The game result, or `None` for a corrupt byte.
    pub fn result(&self) -> Option<GameResult> {
        GameResult::from_code(self.0[26])
    }

    /// The side to move (a corrupt byte reads as Black).
    pub fn side_to_move(&self) -> Color {
        if self.0[27] == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The occupied squares.
    pub fn occupancy(&self) -> Bitboard {
        Bitboard(u64::from_le_bytes(
            self.0[0..8].try_into().expect("8 bytes"),
        ))
    }

    /// The pieces and their squares, without building a position (the trainer's path).
    /// Corrupt nibbles are skipped; at most 32 pieces are read.
    pub fn pieces(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        self.occupancy().take(32).enumerate().filter_map(|(i, sq)| {
            let nibble = self.0[8 + i / 2] >> (4 * (i % 2)) & 0xF;
            decode_nibble(nibble).map(|(piece, _)| (piece, sq))
        })
    }

    /// Checks every field and that the position is legal.
    pub fn validate(&self) -> Result<(), PackedError> {
        self.to_position().map(|_| ())
    }

    /// The position the record holds.
    pub fn to_position(&self) -> Result<Position, PackedError> {
        Position::from_fen(&self.to_fen()?).map_err(PackedError::Position)
    }

    /// The FEN of the position (castling as rook files, Shredder-FEN, so Chess960 reads
    /// back exactly).
    pub fn to_fen(&self) -> Result<String, PackedError> {
        let occ = self.occupancy();
        if occ.count() > 32 {
            return Err(PackedError::TooManyPieces(occ.count()));
        }
        let mut board = [None; 64];
        let mut castling = String::new();
        for (i, sq) in occ.enumerate() {
            let nibble = self.0[8 + i / 2] >> (4 * (i % 2)) & 0xF;
            let (piece, castles) = decode_nibble(nibble).ok_or(PackedError::BadPiece(nibble))?;
            board[sq.index()] = Some(piece);
            if castles {
                let file = sq.file().char();
                castling.push(match piece.color() {
                    Color::White => file.to_ascii_uppercase(),
                    Color::Black => file,
                });
            }
        }
        // White's rights first, as FEN writes them.
        let mut rights: Vec<char> = castling.chars().collect();
        rights.sort_by_key(|c| (c.is_ascii_lowercase(), std::cmp::Reverse(*c)));
        let castling: String = if rights.is_empty() {
            "-".into()
        } else {
            rights.into_iter().collect()
        };
        let mut fen = String::with_capacity(90);
        crate::board::write_board(&board, &mut fen);
        let side = match self.0[27] {
            0 => 'w',
            1 => 'b',
            n => return Err(PackedError::BadSide(n)),
        };
        self.result().ok_or(PackedError::BadResult(self.0[26]))?;
        let ep = match self.0[28] {
            n if n < 64 => Square::new(n as usize).to_string(),
            _ => "-".into(),
        };
        let fullmove = u16::from_le_bytes([self.0[30], self.0[31]]).max(1);
        Ok(format!(
            "{fen} {side} {castling} {ep} {} {fullmove}",
            self.0[29]
        ))
    }
}

fn decode_nibble(nibble: u8) -> Option<(Piece, bool)> {
    let color = if nibble & 8 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let (kind, castles) = match nibble & 7 {
        CASTLING_ROOK => (PieceType::Rook, true),
        7 => return None,
        k => (PieceType::ALL[k as usize], false),
    };
    Some((Piece::new(color, kind), castles))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_keeps_the_position() {
        for fen in [
            crate::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/8/8/8/6k1/4K2R w K - 17 80",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let packed = PackedPosition::new(&pos, -123, GameResult::Draw);
            let back = packed.to_position().unwrap();
            assert_eq!(back.key(), pos.key(), "{fen}");
            assert_eq!(back.to_fen(), pos.to_fen(), "{fen}");
            assert_eq!(packed.white_score(), -123);
            assert_eq!(packed.result(), Some(GameResult::Draw));
            let n = packed.pieces().count() as u32;
            assert_eq!(n, pos.occupied().count());
        }
    }

    #[test]
    fn corrupt_records_are_errors_not_panics() {
        let pos = Position::startpos();
        let mut bytes = *PackedPosition::new(&pos, 0, GameResult::WhiteWin).as_bytes();
        bytes[26] = 9;
        assert_eq!(
            PackedPosition::from_bytes(bytes).validate(),
            Err(PackedError::BadResult(9))
        );
        assert!(PackedPosition::from_bytes([0xFF; RECORD_BYTES])
            .validate()
            .is_err());
        assert!(PackedPosition::from_bytes([0; RECORD_BYTES])
            .validate()
            .is_err());
    }
}
