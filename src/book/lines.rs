//! The opening-lines text format the default book is built from.
//!
//! One line per row: `[ECO "Name" |] moves [| weight]`. Moves are SAN or UCI, separated by
//! spaces, from the starting position; move numbers (`1.`, `1...`) are allowed and
//! ignored. The weight is a positive integer (1 if left out). Blank lines and lines
//! starting with `#` are skipped.

use super::error::BookError;
use super::notation::parse_move;
use crate::board::Position;
use crate::chess_move::Move;

/// Weight of a line that gives none.
pub const DEFAULT_LINE_WEIGHT: u64 = 1;

/// One opening line, with its moves checked for legality.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningLine {
    /// The 1-based line number in the file.
    pub line_no: usize,
    /// The label (ECO code and name), empty if the line has none.
    pub label: String,
    /// The moves, legal one after the other from the starting position.
    pub moves: Vec<Move>,
    /// How mainstream the line is.
    pub weight: u64,
}

/// Parses a whole lines file; the first malformed line or illegal move is an error
/// naming the line, since the file is a curated source that should be fixed.
pub fn parse_lines(text: &str) -> Result<Vec<OpeningLine>, BookError> {
    let mut lines = Vec::new();
    for (i, row) in text.lines().enumerate() {
        let row = row.trim();
        if row.is_empty() || row.starts_with('#') {
            continue;
        }
        let line_no = i + 1;
        let err = |message: String| BookError::Lines {
            line: line_no,
            message,
        };
        let mut fields: Vec<&str> = row.split('|').map(str::trim).collect();
        let mut weight = DEFAULT_LINE_WEIGHT;
        if fields.len() >= 2 {
            let last = fields[fields.len() - 1];
            if !last.is_empty() && last.chars().all(|c| c.is_ascii_digit()) {
                weight = last
                    .parse()
                    .ok()
                    .filter(|&w| w > 0)
                    .ok_or_else(|| err(format!("weight {last:?} is not a positive integer")))?;
                fields.pop();
            }
        }
        let (label, moves_text) = match fields.as_slice() {
            [moves] => ("", *moves),
            [label, moves] => (*label, *moves),
            _ => return Err(err("expected `[label |] moves [| weight]`".into())),
        };
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for token in moves_text.split_whitespace() {
            let token = strip_move_number(token);
            if token.is_empty() {
                continue;
            }
            let mv = parse_move(&pos, token).ok_or_else(|| {
                err(format!(
                    "move {token:?} is not legal in {} (after {} plies)",
                    pos.to_fen(),
                    moves.len()
                ))
            })?;
            pos.make_move(mv);
            moves.push(mv);
        }
        if moves.is_empty() {
            return Err(err("the line has no moves".into()));
        }
        lines.push(OpeningLine {
            line_no,
            label: label.to_string(),
            moves,
            weight,
        });
    }
    Ok(lines)
}

/// `12.e4` → `e4`, `3...` → `` (move numbers are noise in both PGN and lines files).
pub(crate) fn strip_move_number(token: &str) -> &str {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &token[digits..];
    if digits > 0 && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        token
    }
}
