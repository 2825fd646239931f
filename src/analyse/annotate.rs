//! The annotated PGN: the game's tags, every move with its `[%eval ...]` comment (pawns
//! from White's view, `#N` for a mate, the form lichess writes and python-chess reads), a
//! mark (`?!`, `?`, `??`) with the better move as a variation, and a summary of each side's
//! play before the first move.

use super::{GameAnalysis, MoveAnalysis, SideSummary};
use crate::board::Position;
use crate::chess_move::Move;
use crate::search::Score;
use crate::types::Color;

/// Lines of movetext are wrapped before this many characters (the PGN export standard
/// keeps them under 80).
const LINE_WIDTH: usize = 79;
/// Plies of the engine's line shown as the better move's variation.
const VARIATION_PLIES: usize = 8;
/// Turning points named in the summary.
const TURNING_POINTS: usize = 3;

/// The `%eval` text of a score from White's view.
pub fn eval_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:.2}", cp as f64 / 100.0),
        Score::Mate(n) => format!("#{n}"),
    }
}

/// `1 mistake`, `2 mistakes`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn side_text(name: &str, s: &SideSummary) -> String {
    format!(
        "{name}: accuracy {:.0}%, average loss {:.0} cp, {}, {}, {}.",
        s.accuracy,
        s.average_loss,
        count(s.inaccuracies, "inaccuracy", "inaccuracies"),
        count(s.mistakes, "mistake", "mistakes"),
        count(s.blunders, "blunder", "blunders")
    )
}

/// The summary comment of a game.
fn summary(game: &GameAnalysis, annotator: &str) -> String {
    let mut text = format!(
        "{annotator}. {} {}",
        side_text("White", &game.summary(Color::White)),
        side_text("Black", &game.summary(Color::Black))
    );
    let turning = game.turning_points(TURNING_POINTS);
    if !turning.is_empty() {
        let named: Vec<String> = turning
            .iter()
            .map(|m| format!("{} {}{}", m.number_text(), m.san, m.mark.suffix()))
            .collect();
        text.push_str(&format!(" Turning points: {}.", named.join(", ")));
    }
    text
}

/// Tokens of `line` from `pos` as a PGN variation body, with the score after its first
/// move as a comment.
fn variation(pos: &Position, line: &[Move], first_eval: Score) -> Vec<String> {
    let mut pos = pos.clone();
    let mut words = Vec::new();
    for (i, &mv) in line.iter().take(VARIATION_PLIES).enumerate() {
        if !pos.is_legal(mv) {
            break;
        }
        match (pos.side_to_move(), i) {
            (Color::White, _) => words.push(format!("{}.", pos.fullmove_number())),
            (Color::Black, 0) => words.push(format!("{}...", pos.fullmove_number())),
            _ => {}
        }
        words.push(pos.to_san(mv));
        if i == 0 {
            words.push(format!("{{ [%eval {}] }}", eval_text(first_eval)));
        }
        pos.make_move(mv);
    }
    words
}

fn white_view(score: Score, mover: Color) -> Score {
    match mover {
        Color::White => score,
        Color::Black => super::judge::negate(score),
    }
}

/// The tokens of one move: number (when due), SAN with its mark, comment, variation.
fn move_words(pos: &Position, m: &MoveAnalysis, number_due: bool) -> (Vec<String>, bool) {
    let mut words = Vec::new();
    if m.mover == Color::White || number_due {
        words.push(m.number_text());
    }
    words.push(format!("{}{}", m.san, m.mark.suffix()));
    let mut comment = Vec::new();
    if !m.gives_mate {
        comment.push(format!("[%eval {}]", eval_text(m.after_for_white())));
    }
    let better = m.best.filter(|&b| b != m.mv && m.mark != super::Mark::Good);
    if let Some(best) = better {
        comment.push(format!("{}.", m.mark.word()));
        comment.push(format!("{} was best.", pos.to_san(best)));
    }
    if !comment.is_empty() {
        // One unbreakable word, so a line never ends inside a short comment.
        words.push(format!("{{ {} }}", comment.join(" ")));
    }
    let mut variation_written = false;
    if better.is_some() {
        let body = variation(pos, &m.best_line, white_view(m.before, m.mover));
        if !body.is_empty() {
            words.push("(".into());
            words.extend(body);
            words.push(")".into());
            variation_written = true;
        }
    }
    // After a comment or a variation, Black's next move needs its number again.
    let next_needs_number = variation_written || words.last().is_some_and(|w| w.ends_with('}'));
    (words, next_needs_number)
}

fn tag_line(name: &str, value: &str) -> String {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{escaped}\"]\n")
}

/// Wraps words into lines shorter than [`LINE_WIDTH`].
fn wrap(words: &[String]) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for w in words {
        if line_len > 0 && line_len + 1 + w.len() > LINE_WIDTH {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(w);
        line_len += w.len();
    }
    out.push('\n');
    out
}

/// The annotated PGN of an analysed game; `annotator` names the engine and its limits
/// (the `Annotator` tag and the start of the summary). It ends with the empty line PGN's
/// export format puts after every game, so that files of annotated games can be joined.
pub fn annotated_pgn(game: &GameAnalysis, annotator: &str) -> String {
    let mut out = String::new();
    for (name, value) in &game.tags {
        if name != "Annotator" {
            out.push_str(&tag_line(name, value));
        }
    }
    out.push_str(&tag_line("Annotator", annotator));
    out.push('\n');
    let mut words: Vec<String> = vec!["{".into()];
    words.extend(summary(game, annotator).split(' ').map(String::from));
    words.push("}".into());
    let mut pos = game.start.clone();
    let mut number_due = true;
    for m in &game.moves {
        let (w, due) = move_words(&pos, m, number_due);
        words.extend(w);
        number_due = due;
        pos.make_move(m.mv);
    }
    words.push(game.result.clone());
    out.push_str(&wrap(&words));
    out.push('\n');
    out
}
