//! EPD records (`<board> <side> <castling> <ep> [op operands;]…`) as used by test suites:
//! `bm` (best moves) and `am` (moves to avoid) in SAN, `id` as a quoted string.

use crate::board::{FenError, Position, SanError};
use crate::chess_move::Move;
use std::fmt;

/// One operation: `bm Qg6 Rxe1;` has opcode `bm` and operands `Qg6`, `Rxe1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdOp {
    /// The opcode (`bm`, `am`, `id`, …).
    pub opcode: String,
    /// The operands, quotes removed.
    pub operands: Vec<String>,
}

/// A parsed EPD line.
#[derive(Clone, Debug)]
pub struct EpdRecord {
    /// The position.
    pub position: Position,
    /// The operations in file order.
    pub ops: Vec<EpdOp>,
}

/// Why an EPD line was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EpdError {
    /// Fewer than the four position fields.
    TooShort,
    /// The position fields do not form a valid FEN.
    Fen(FenError),
    /// A `bm` or `am` operand is not a legal move in SAN.
    San {
        /// The opcode.
        opcode: String,
        /// The problem.
        error: SanError,
    },
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdError::TooShort => write!(f, "EPD line has fewer than four position fields"),
            EpdError::Fen(e) => write!(f, "bad EPD position: {e}"),
            EpdError::San { opcode, error } => write!(f, "bad '{opcode}' move: {error}"),
        }
    }
}

impl std::error::Error for EpdError {}

impl EpdRecord {
    /// Parses one line. Full six-field FENs (with the clocks) are accepted too.
    pub fn parse(line: &str) -> Result<EpdRecord, EpdError> {
        let mut rest = line.trim();
        let mut fields = Vec::new();
        for _ in 0..4 {
            let (field, tail) = split_token(rest);
            if field.is_empty() {
                return Err(EpdError::TooShort);
            }
            fields.push(field);
            rest = tail;
        }
        // Optional halfmove and fullmove numbers: opcodes start with a letter.
        for _ in 0..2 {
            let (field, tail) = split_token(rest);
            if !field.is_empty() && field.bytes().all(|b| b.is_ascii_digit()) {
                fields.push(field);
                rest = tail;
            }
        }
        let position = Position::from_fen(&fields.join(" ")).map_err(EpdError::Fen)?;
        Ok(EpdRecord {
            position,
            ops: parse_ops(rest),
        })
    }

    /// The operands of the first operation with this opcode.
    pub fn operands(&self, opcode: &str) -> Option<&[String]> {
        self.ops
            .iter()
            .find(|op| op.opcode == opcode)
            .map(|op| op.operands.as_slice())
    }

    /// The `id`, if any.
    pub fn id(&self) -> Option<&str> {
        self.operands("id")
            .and_then(|o| o.first())
            .map(String::as_str)
    }

    /// The moves of a SAN move-list operation (`bm`, `am`); empty when absent.
    pub fn moves(&self, opcode: &str) -> Result<Vec<Move>, EpdError> {
        self.operands(opcode)
            .unwrap_or(&[])
            .iter()
            .map(|san| {
                self.position.parse_san(san).map_err(|error| EpdError::San {
                    opcode: opcode.to_string(),
                    error,
                })
            })
            .collect()
    }
}

fn split_token(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    }
}

/// Splits `op a b; op "quoted; text";` into operations; semicolons inside quotes do not
/// end an operation.
fn parse_ops(text: &str) -> Vec<EpdOp> {
    let mut ops = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    let mut token = String::new();
    let mut quoted = false;
    let mut was_quoted = false;
    let flush = |token: &mut String, was_quoted: &mut bool, tokens: &mut Vec<String>| {
        if !token.is_empty() || *was_quoted {
            tokens.push(std::mem::take(token));
        }
        *was_quoted = false;
    };
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                was_quoted = true;
            }
            c if quoted => token.push(c),
            ';' => {
                flush(&mut token, &mut was_quoted, &mut tokens);
                if !tokens.is_empty() {
                    let opcode = tokens.remove(0);
                    ops.push(EpdOp {
                        opcode,
                        operands: std::mem::take(&mut tokens),
                    });
                }
            }
            c if c.is_whitespace() => flush(&mut token, &mut was_quoted, &mut tokens),
            c => token.push(c),
        }
    }
    flush(&mut token, &mut was_quoted, &mut tokens);
    if !tokens.is_empty() {
        let opcode = tokens.remove(0);
        ops.push(EpdOp {
            opcode,
            operands: tokens,
        });
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_wac_style_lines() {
        let r = EpdRecord::parse(
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001; x\";",
        )
        .unwrap();
        assert_eq!(r.id(), Some("WAC.001; x"));
        let bm = r.moves("bm").unwrap();
        assert_eq!(bm.len(), 1);
        assert_eq!(r.position.to_san(bm[0]), "Qg6");
        assert!(r.moves("am").unwrap().is_empty());
    }

    #[test]
    fn parses_full_fens_and_several_moves() {
        let r = EpdRecord::parse(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 bm e4 d4; am a4;",
        )
        .unwrap();
        assert_eq!(r.moves("bm").unwrap().len(), 2);
        assert_eq!(r.moves("am").unwrap().len(), 1);
        let bare = EpdRecord::parse("8/8/8/8/8/8/8/K6k w - -").unwrap();
        assert!(bare.ops.is_empty());
    }

    #[test]
    fn rejects_bad_lines() {
        assert_eq!(EpdRecord::parse("").unwrap_err(), EpdError::TooShort);
        assert!(EpdRecord::parse("8/8/8 w - - bm e4;").is_err());
        let r = EpdRecord::parse("8/8/8/8/8/8/8/K6k w - - bm Qh8;").unwrap();
        assert!(r.moves("bm").is_err());
    }
}
