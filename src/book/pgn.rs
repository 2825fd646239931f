//! A forgiving PGN reader: tag pairs, SAN movetext, comments, variations, NAGs and
//! results. It only splits the text into games; the moves are checked when played.

use super::builder::GameResult;
use super::lines::strip_move_number;
use super::notation::parse_move;
use crate::board::{FenError, Position};
use crate::chess_move::Move;

/// One game as read from PGN: its tags, main-line move tokens and result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// Main-line move tokens (SAN as written, move numbers removed).
    pub moves: Vec<String>,
    /// The comment after each main-line move (`""` when none; several are joined by a
    /// space): where match managers write the mover's score, `{+0.31/12 0.2s}`.
    pub comments: Vec<String>,
    /// The result from the movetext, else from the `Result` tag, else unknown.
    pub result: Option<GameResult>,
}

impl PgnGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The game's result: the movetext's, else the `Result` tag's, else unknown.
    pub fn result(&self) -> GameResult {
        self.result
            .or_else(|| self.tag("Result").and_then(parse_result))
            .unwrap_or(GameResult::Unknown)
    }

    /// True for games of another variant (Chess960 and the like), which a standard book
    /// must not learn from.
    pub fn is_variant(&self) -> bool {
        self.tag("Variant")
            .is_some_and(|v| !v.eq_ignore_ascii_case("standard"))
    }

    /// Plays the game from its starting position (the `FEN` tag's, or the standard one)
    /// up to the first move that is not legal. Errs only on a bad `FEN` tag.
    pub fn play(&self) -> Result<PlayedGame, FenError> {
        let start = match self.tag("FEN") {
            Some(fen) => Position::from_fen(fen)?,
            None => Position::startpos(),
        };
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        let mut error = None;
        for token in &self.moves {
            let Some(mv) = parse_move(&pos, token) else {
                error = Some(BadMove {
                    token: token.clone(),
                    ply: moves.len() + 1,
                });
                break;
            };
            pos.make_move(mv);
            moves.push(mv);
        }
        Ok(PlayedGame {
            start,
            moves,
            error,
        })
    }
}

/// A PGN game played out on the board.
#[derive(Clone)]
pub struct PlayedGame {
    /// The starting position.
    pub start: Position,
    /// The legal moves, up to the first bad one.
    pub moves: Vec<Move>,
    /// What stopped the game early, if anything.
    pub error: Option<BadMove>,
}

/// The first move of a PGN game that is illegal or cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMove {
    /// The move as written.
    pub token: String,
    /// Its ply, counted from 1 at the game's start.
    pub ply: usize,
}

impl std::fmt::Display for BadMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "illegal or unreadable move {:?} at ply {}",
            self.token, self.ply
        )
    }
}

fn parse_result(text: &str) -> Option<GameResult> {
    match text {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" => Some(GameResult::Draw),
        "*" => Some(GameResult::Unknown),
        _ => None,
    }
}

/// Splits PGN text into games. Never fails: anything unreadable ends up as a move token
/// that [`PgnGame::play`] rejects.
pub fn parse_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut line_start = true;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line_start = true;
            i += 1;
            continue;
        }
        let at_line_start = line_start;
        line_start = false;
        if c.is_whitespace() {
            line_start = at_line_start;
            i += 1;
        } else if (c == '%' && at_line_start) || c == ';' {
            // Escape line or rest-of-line comment.
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '{' {
            let end = skip_comment(&chars, i);
            if let Some(last) = game.comments.last_mut() {
                let close = if chars[end - 1] == '}' { end - 1 } else { end };
                let text: String = chars[i + 1..close.max(i + 1)].iter().collect();
                if !last.is_empty() {
                    last.push(' ');
                }
                last.push_str(text.trim());
            }
            i = end;
        } else if c == '(' {
            i = skip_variation(&chars, i);
        } else if c == '[' {
            // A tag after movetext starts the next game (the previous lacked a result).
            if !game.moves.is_empty() || game.result.is_some() {
                games.push(std::mem::take(&mut game));
            }
            let end = tag_end(&chars, i);
            let inner: String = chars[i + 1..end].iter().collect();
            if let Some(tag) = parse_tag(&inner) {
                game.tags.push(tag);
            }
            i = end + 1;
        } else if c == '$' {
            i += 1;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
        } else {
            // A `}`, `)` or `]` without its opener starts a token too (it must be consumed:
            // the loop would not move on), which is dropped or rejected like other junk.
            let start = i;
            i += 1;
            while i < chars.len() && !chars[i].is_whitespace() && !"{}()[];$".contains(chars[i]) {
                i += 1;
            }
            let token: String = chars[start..i].iter().collect();
            if let Some(result) = parse_result(&token) {
                game.result = Some(result);
                games.push(std::mem::take(&mut game));
                continue;
            }
            let token = strip_move_number(&token);
            if !token.is_empty() && token.chars().any(|c| c.is_ascii_alphabetic()) {
                game.moves.push(token.to_string());
                game.comments.push(String::new());
            }
        }
    }
    if !game.moves.is_empty() || !game.tags.is_empty() {
        games.push(game);
    }
    games
}

/// Index of the `]` closing the tag that opens at `i` (a `]` inside the quoted value
/// does not count), or of the end of the line if the tag is not closed.
fn tag_end(chars: &[char], i: usize) -> usize {
    let (mut quoted, mut escaped) = (false, false);
    for (j, &c) in chars.iter().enumerate().skip(i + 1) {
        match c {
            '\n' => return j,
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ']' if !quoted => return j,
            _ => {}
        }
    }
    chars.len()
}

/// Index just past the `}` closing the comment that opens at `i`.
fn skip_comment(chars: &[char], i: usize) -> usize {
    chars[i..]
        .iter()
        .position(|&c| c == '}')
        .map_or(chars.len(), |e| i + e + 1)
}

/// Index just past the `)` closing the (possibly nested) variation that opens at `i`.
fn skip_variation(chars: &[char], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < chars.len() {
        match chars[i] {
            '{' => {
                i = skip_comment(chars, i);
                continue;
            }
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    chars.len()
}

/// `Name "Value"` (the text between the brackets) → (name, value), with `\"` and `\\`
/// unescaped.
fn parse_tag(inner: &str) -> Option<(String, String)> {
    let inner = inner.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let body = rest.strip_prefix('"')?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.extend(chars.next()),
            '"' => break,
            _ => value.push(c),
        }
    }
    Some((name.to_string(), value))
}
