//! FEN parsing and printing, with X-FEN (`KQkq`) and Shredder-FEN (`HAha`) castling fields.

use super::{CastleSide, Position};
use crate::attacks::pawn_attacks;
use crate::bitboard::Bitboard;
use crate::types::{Color, File, Piece, PieceType, Rank, Square};
use std::fmt;

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The FEN has no fields at all.
    Empty,
    /// The FEN has more than six fields.
    TooManyFields(usize),
    /// The board field does not have eight ranks.
    WrongRankCount(usize),
    /// A rank does not describe exactly eight files.
    WrongFileCount {
        /// The rank, 1..8.
        rank: usize,
        /// How many files it described.
        files: usize,
    },
    /// A character in the board field is neither a piece letter nor a digit 1-8.
    UnknownPiece(char),
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    ExtraKing(Color),
    /// A pawn stands on the first or last rank.
    PawnOnBackRank(Square),
    /// A side has more pieces than its eight pawns and their promotions can give (ten
    /// queens, nine pawns and a third rook, …).
    TooMuchMaterial(Color),
    /// The side-to-move field is not `w` or `b`.
    BadSideToMove(String),
    /// The castling field has a character that is not a castling right.
    BadCastlingChar(char),
    /// A castling right whose king is not on its first rank.
    CastlingWithoutKing(char),
    /// A castling right without a rook of that side on the named square or wing.
    CastlingWithoutRook(char),
    /// The en-passant field is not `-` or a square.
    BadEnPassant(String),
    /// The en-passant square is not on the sixth rank of the side to move.
    EnPassantWrongRank(Square),
    /// No pawn stands where the double push that allowed en passant would have put it.
    EnPassantWithoutPawn(Square),
    /// The halfmove clock is not a number.
    BadHalfmoveClock(String),
    /// The fullmove number is not a number.
    BadFullmoveNumber(String),
    /// The side that is not to move is in check: the position cannot arise.
    OpponentInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::TooManyFields(n) => write!(f, "FEN has {n} fields, at most 6 expected"),
            FenError::WrongRankCount(n) => write!(f, "FEN board has {n} ranks, 8 expected"),
            FenError::WrongFileCount { rank, files } => {
                write!(f, "FEN rank {rank} has {files} files, 8 expected")
            }
            FenError::UnknownPiece(c) => write!(f, "unknown piece letter '{c}' in FEN board"),
            FenError::MissingKing(c) => write!(f, "{} king is missing", color_name(*c)),
            FenError::ExtraKing(c) => write!(f, "{} has more than one king", color_name(*c)),
            FenError::PawnOnBackRank(sq) => write!(f, "pawn on the first or last rank ({sq})"),
            FenError::TooMuchMaterial(c) => write!(
                f,
                "{} has more pieces than eight pawns and their promotions allow",
                color_name(*c)
            ),
            FenError::BadSideToMove(s) => write!(f, "bad side to move '{s}', expected 'w' or 'b'"),
            FenError::BadCastlingChar(c) => write!(f, "bad castling character '{c}'"),
            FenError::CastlingWithoutKing(c) => {
                write!(
                    f,
                    "castling right '{c}' but the king is not on its first rank"
                )
            }
            FenError::CastlingWithoutRook(c) => write!(f, "castling right '{c}' without its rook"),
            FenError::BadEnPassant(s) => write!(f, "bad en-passant square '{s}'"),
            FenError::EnPassantWrongRank(sq) => {
                write!(
                    f,
                    "en-passant square {sq} is on the wrong rank for the side to move"
                )
            }
            FenError::EnPassantWithoutPawn(sq) => {
                write!(
                    f,
                    "en-passant square {sq} but no pawn made the double move there"
                )
            }
            FenError::BadHalfmoveClock(s) => write!(f, "bad halfmove clock '{s}'"),
            FenError::BadFullmoveNumber(s) => write!(f, "bad fullmove number '{s}'"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl Position {
    /// Parses a FEN. Castling may be given as `KQkq` (X-FEN: the outermost rook of that
    /// wing, or a file letter when it is an inner rook) or as file letters (Shredder-FEN),
    /// so Chess960 positions read either way. Missing halfmove and fullmove fields default
    /// to 0 and 1.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let mut pos = Position::empty();

        // Board.
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::WrongRankCount(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = 7 - i;
            let mut file = 0usize;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += d as usize;
                } else {
                    let piece = Piece::from_char(c).ok_or(FenError::UnknownPiece(c))?;
                    if file < 8 {
                        pos.put_piece(piece, Square::new(rank * 8 + file));
                    }
                    file += 1;
                }
                if file > 8 {
                    break;
                }
            }
            if file != 8 {
                return Err(FenError::WrongFileCount {
                    rank: rank + 1,
                    files: file,
                });
            }
        }
        for c in Color::ALL {
            match pos.colored(c, PieceType::King).count() {
                0 => return Err(FenError::MissingKing(c)),
                1 => {}
                _ => return Err(FenError::ExtraKing(c)),
            }
        }
        let back_ranks = Bitboard::rank(Rank::R1) | Bitboard::rank(Rank::R8);
        if let Some(sq) = (pos.pieces(PieceType::Pawn) & back_ranks).next() {
            return Err(FenError::PawnOnBackRank(sq));
        }
        // Each queen, rook, bishop or knight beyond the initial ones is a promoted pawn.
        // More material than that can give more legal moves than a move list holds
        // (`BQQQQQQB/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/BR5Q/kBQQQKQB w` has 267).
        for c in Color::ALL {
            let count = |kind: PieceType| pos.colored(c, kind).count();
            let promoted = count(PieceType::Queen).saturating_sub(1)
                + count(PieceType::Rook).saturating_sub(2)
                + count(PieceType::Bishop).saturating_sub(2)
                + count(PieceType::Knight).saturating_sub(2);
            if count(PieceType::Pawn) + promoted > 8 {
                return Err(FenError::TooMuchMaterial(c));
            }
        }

        // Side to move.
        pos.side = match fields.get(1).copied() {
            None | Some("w") | Some("W") => Color::White,
            Some("b") | Some("B") => Color::Black,
            Some(s) => return Err(FenError::BadSideToMove(s.to_string())),
        };

        // Castling.
        let castling = fields.get(2).copied().unwrap_or("-");
        if castling != "-" {
            for c in castling.chars() {
                pos.parse_castling_char(c)?;
            }
        }
        pos.init_castle_mask();

        // En passant.
        let ep = fields.get(3).copied().unwrap_or("-");
        if ep != "-" {
            let sq = Square::parse(ep).ok_or_else(|| FenError::BadEnPassant(ep.to_string()))?;
            let us = pos.side;
            if sq.rank() != us.relative_rank(Rank::R6) {
                return Err(FenError::EnPassantWrongRank(sq));
            }
            let pawn_sq = Square::from_coords(sq.file(), us.relative_rank(Rank::R5));
            let origin = Square::from_coords(sq.file(), us.relative_rank(Rank::R7));
            if pos.piece_on(pawn_sq) != Some(Piece::new(!us, PieceType::Pawn))
                || pos.piece_on(sq).is_some()
                || pos.piece_on(origin).is_some()
            {
                return Err(FenError::EnPassantWithoutPawn(sq));
            }
            // Keep it only when it can be used (the hashed en-passant rule).
            if (pawn_attacks(!us, sq) & pos.colored(us, PieceType::Pawn)).any() {
                pos.ep = Some(sq);
            }
        }

        // Clocks.
        if let Some(h) = fields.get(4) {
            pos.halfmove = h
                .parse()
                .map_err(|_| FenError::BadHalfmoveClock(h.to_string()))?;
        }
        if let Some(n) = fields.get(5) {
            let n: u16 = n
                .parse()
                .map_err(|_| FenError::BadFullmoveNumber(n.to_string()))?;
            pos.fullmove = n.max(1);
        }

        if pos.is_attacked(pos.king(!pos.side), pos.side, pos.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        pos.keys = pos.compute_keys();
        pos.update_check_info();
        Ok(pos)
    }

    fn parse_castling_char(&mut self, c: char) -> Result<(), FenError> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back = color.relative_rank(Rank::R1);
        let ksq = self.king(color);
        if ksq.rank() != back {
            return Err(FenError::CastlingWithoutKing(c));
        }
        let rooks = self.colored(color, PieceType::Rook) & Bitboard::rank(back);
        let rook = match c.to_ascii_lowercase() {
            'k' => rooks.filter(|r| r.file() > ksq.file()).last(),
            'q' => { rooks }.find(|r| r.file() < ksq.file()),
            'a'..='h' => {
                let sq = Square::from_coords(File::from_char(c).expect("a..h"), back);
                rooks.has(sq).then_some(sq)
            }
            _ => return Err(FenError::BadCastlingChar(c)),
        };
        let rook = rook.ok_or(FenError::CastlingWithoutRook(c))?;
        if rook.file() == ksq.file() {
            return Err(FenError::CastlingWithoutRook(c));
        }
        let side = if rook.file() > ksq.file() {
            CastleSide::King
        } else {
            CastleSide::Queen
        };
        self.castling.set(color, side, rook, ksq);
        Ok(())
    }

    /// The FEN of the position. Castling is written as `KQkq` when each rook is the
    /// outermost on its wing (so standard positions read as usual) and as the rook's file
    /// letter otherwise (X-FEN).
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        write_board(&self.board, &mut fen);
        fen.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        if self.castling.is_empty() {
            fen.push('-');
        }
        for color in Color::ALL {
            for side in CastleSide::ALL {
                let Some(rook) = self.castling.rook(color, side) else {
                    continue;
                };
                let ksq = self.king(color);
                let wing_rooks = (self.colored(color, PieceType::Rook)
                    & Bitboard::rank(rook.rank()))
                .filter(|r| (r.file() > ksq.file()) == (side == CastleSide::King));
                let outermost = match side {
                    CastleSide::King => wing_rooks.last(),
                    CastleSide::Queen => wing_rooks.min(),
                };
                let c = if outermost == Some(rook) {
                    if side == CastleSide::King {
                        'k'
                    } else {
                        'q'
                    }
                } else {
                    rook.file().char()
                };
                fen.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
        match self.ep {
            Some(sq) => fen.push_str(&format!(" {sq} ")),
            None => fen.push_str(" - "),
        }
        fen.push_str(&format!("{} {}", self.halfmove, self.fullmove));
        fen
    }
}

/// Appends the piece-placement field of a FEN for `board` (a1 = 0), rank 8 first.
pub(crate) fn write_board(board: &[Option<Piece>; 64], fen: &mut String) {
    for rank in (0..8).rev() {
        let mut empty = 0u8;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(p) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(p.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
}
