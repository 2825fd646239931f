//! Standard algebraic notation (SAN): printing moves and parsing them back.

use super::{CastleSide, Position};
use crate::chess_move::Move;
use crate::types::{File, PieceType, Rank, Square};
use std::fmt;

/// Why a SAN move was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// The text is not a move in SAN.
    Syntax(String),
    /// No legal move matches the text.
    Illegal(String),
    /// More than one legal move matches the text.
    Ambiguous(String),
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax(s) => write!(f, "'{s}' is not a move in SAN"),
            SanError::Illegal(s) => write!(f, "illegal move '{s}'"),
            SanError::Ambiguous(s) => write!(f, "ambiguous move '{s}'"),
        }
    }
}

impl std::error::Error for SanError {}

impl Position {
    /// The SAN of a legal move, with `+` or `#` when it checks or mates.
    pub fn to_san(&self, mv: Move) -> String {
        let mut san = String::with_capacity(8);
        let piece = match self.piece_on(mv.from()) {
            Some(p) => p.kind(),
            None => return mv.to_uci(false),
        };
        if mv.is_castling() {
            san.push_str(if mv.to().file() > mv.from().file() {
                "O-O"
            } else {
                "O-O-O"
            });
        } else {
            let capture = self.is_capture(mv);
            if piece == PieceType::Pawn {
                if capture {
                    san.push(mv.from().file().char());
                }
            } else {
                san.push(piece.char().to_ascii_uppercase());
                // Disambiguate against other pieces of the same type that can reach `to`.
                let others: Vec<Square> = self
                    .legal_moves()
                    .as_slice()
                    .iter()
                    .filter(|m| {
                        m.to() == mv.to()
                            && m.from() != mv.from()
                            && !m.is_castling()
                            && self.piece_on(m.from()).map(|p| p.kind()) == Some(piece)
                    })
                    .map(|m| m.from())
                    .collect();
                if !others.is_empty() {
                    let same_file = others.iter().any(|s| s.file() == mv.from().file());
                    let same_rank = others.iter().any(|s| s.rank() == mv.from().rank());
                    if !same_file {
                        san.push(mv.from().file().char());
                    } else if !same_rank {
                        san.push(mv.from().rank().char());
                    } else {
                        san.push_str(&mv.from().to_string());
                    }
                }
            }
            if capture {
                san.push('x');
            }
            san.push_str(&mv.to().to_string());
            if let Some(p) = mv.promotion_piece() {
                san.push('=');
                san.push(p.char().to_ascii_uppercase());
            }
        }
        let mut after = self.clone_without_history();
        after.make_move(mv);
        if after.in_check() {
            san.push(if after.has_legal_move() { '+' } else { '#' });
        }
        san
    }

    /// Parses a move in SAN (`e4`, `Nbd7`, `exd6`, `e8=Q+`, `O-O`, also `0-0` and a missing
    /// `=` before the promotion piece) and checks it is legal here.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let syntax = || SanError::Syntax(text.to_string());
        let s = text.trim().trim_end_matches(['+', '#', '!', '?']);
        let moves = self.legal_moves();
        let castle = match s {
            "O-O" | "0-0" => Some(CastleSide::King),
            "O-O-O" | "0-0-0" => Some(CastleSide::Queen),
            _ => None,
        };
        if let Some(side) = castle {
            let rook = self.castling().rook(self.side_to_move(), side);
            return moves
                .as_slice()
                .iter()
                .copied()
                .find(|m| m.is_castling() && Some(m.to()) == rook)
                .ok_or_else(|| SanError::Illegal(text.to_string()));
        }
        if !s.is_ascii() || s.len() < 2 {
            return Err(syntax());
        }
        // Promotion suffix: "=Q" or a bare piece letter after the destination.
        let (body, promo) = match s.split_once('=') {
            Some((b, p)) => {
                let mut chars = p.chars();
                let piece = chars
                    .next()
                    .and_then(PieceType::from_char)
                    .ok_or_else(syntax)?;
                if chars.next().is_some() {
                    return Err(syntax());
                }
                (b, Some(piece))
            }
            None => {
                let last = s.as_bytes()[s.len() - 1] as char;
                if "QRBNqrbn".contains(last)
                    && s.len() >= 3
                    && s.as_bytes()[s.len() - 2].is_ascii_digit()
                {
                    (&s[..s.len() - 1], PieceType::from_char(last))
                } else {
                    (s, None)
                }
            }
        };
        if matches!(promo, Some(PieceType::Pawn | PieceType::King)) || body.len() < 2 {
            return Err(syntax());
        }
        let to = Square::parse(&body[body.len() - 2..]).ok_or_else(syntax)?;
        let mut prefix: Vec<char> = body[..body.len() - 2]
            .chars()
            .filter(|&c| c != 'x' && c != ':' && c != '-')
            .collect();
        let piece = match prefix.first() {
            Some(&c) if "NBRQK".contains(c) => {
                prefix.remove(0);
                PieceType::from_char(c).ok_or_else(syntax)?
            }
            _ => PieceType::Pawn,
        };
        let mut from_file: Option<File> = None;
        let mut from_rank: Option<Rank> = None;
        for c in prefix {
            if let (Some(f), None) = (
                File::from_char(c).filter(|_| c.is_ascii_lowercase()),
                from_file,
            ) {
                from_file = Some(f);
            } else if let (Some(r), None) = (Rank::from_char(c), from_rank) {
                from_rank = Some(r);
            } else {
                return Err(syntax());
            }
        }
        let mut found: Option<Move> = None;
        for &m in &moves {
            if m.is_castling()
                || m.to() != to
                || m.promotion_piece() != promo
                || self.piece_on(m.from()).map(|p| p.kind()) != Some(piece)
                || from_file.is_some_and(|f| m.from().file() != f)
                || from_rank.is_some_and(|r| m.from().rank() != r)
            {
                continue;
            }
            if found.is_some() {
                return Err(SanError::Ambiguous(text.to_string()));
            }
            found = Some(m);
        }
        found.ok_or_else(|| SanError::Illegal(text.to_string()))
    }
}
