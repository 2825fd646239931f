//! The analysis report: one self-contained HTML page (no network, no other files) with,
//! per game, the players and result, each side's accuracy, the winning-chances graph
//! (inline SVG), every move with its mark and the engine's better move, and a board
//! diagram at each mistake and blunder.

use super::diagram::{board_svg, escape};
use super::graph::{graph_svg, GraphError};
use super::judge::Mark;
use super::{GameAnalysis, MoveAnalysis};
use crate::search::wdl::{material, win_chances};
use crate::types::Color;
use std::fmt::Write as _;

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;\
max-width:960px;color:#222;line-height:1.45}h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}\
table{border-collapse:collapse}td,th{padding:.25em .8em;text-align:right}th{background:#f2f2f2}\
td:first-child,th:first-child{text-align:left}.moves{columns:3;column-gap:2em;font-size:.95em}\
.mv{break-inside:avoid}.inaccuracy{color:#a08800;font-weight:600}.mistake{color:#d06a00;font-weight:700}\
.blunder{color:#d01c1c;font-weight:700}.better{color:#2e8b3a}.muted{color:#777}\
.turns{display:flex;flex-wrap:wrap;gap:1.5em}.turn{width:352px}.turn p{margin:.3em 0}\
.key{font-size:.9em;color:#555}";

/// The report of `games`, with `title` as the page's heading.
pub fn html_report(games: &[GameAnalysis], title: &str) -> Result<String, GraphError> {
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{t}</title><style>{STYLE}</style></head><body>\n<h1>{t}</h1>\n\
         <p class=\"key\">Marks: <span class=\"inaccuracy\">?! inaccuracy</span>, \
         <span class=\"mistake\">? mistake</span>, <span class=\"blunder\">?? blunder</span>; \
         <span class=\"better\">green</span>: the engine's move where it differs. \
         After each move, White's chances in per cent (win/draw/loss, Ladya's model of its \
         own games).</p>\n",
        t = escape(title)
    );
    for (n, game) in games.iter().enumerate() {
        game_section(&mut html, n + 1, game)?;
    }
    html.push_str("</body></html>\n");
    Ok(html)
}

fn game_section(html: &mut String, n: usize, game: &GameAnalysis) -> Result<(), GraphError> {
    let _ = writeln!(
        html,
        "<h2>{n}. {} <span class=\"muted\">{}</span></h2>",
        escape(&game.title()),
        escape(&game.result)
    );
    html.push_str(
        "<table><tr><th></th><th>accuracy</th><th>average loss (cp)</th>\
                   <th>inaccuracies</th><th>mistakes</th><th>blunders</th></tr>\n",
    );
    for side in [Color::White, Color::Black] {
        let s = game.summary(side);
        let name = if side == Color::White {
            "White"
        } else {
            "Black"
        };
        let _ = writeln!(
            html,
            "<tr><td>{name}</td><td>{:.0}%</td><td>{:.0}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            s.accuracy, s.average_loss, s.inaccuracies, s.mistakes, s.blunders
        );
    }
    html.push_str("</table>\n");
    html.push_str(&graph_svg(game)?.replace("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", ""));
    html.push_str("\n<div class=\"moves\">\n");
    let mut pos = game.start.clone();
    let mut turns = String::new();
    for m in &game.moves {
        move_line(html, &pos, m);
        if m.mark >= Mark::Mistake {
            turning_point(&mut turns, &pos, m);
        }
        pos.make_move(m.mv);
    }
    html.push_str("</div>\n");
    if !turns.is_empty() {
        let _ = writeln!(
            html,
            "<h3>Mistakes and blunders</h3>\n<div class=\"turns\">{turns}</div>"
        );
    }
    Ok(())
}

/// The class of a mark's text.
fn mark_class(mark: Mark) -> &'static str {
    match mark {
        Mark::Good => "",
        Mark::Inaccuracy => "inaccuracy",
        Mark::Mistake => "mistake",
        Mark::Blunder => "blunder",
    }
}

/// One move: number, SAN and mark, the engine's move where it differs, and White's
/// win/draw/loss chances after it.
fn move_line(html: &mut String, before: &crate::board::Position, m: &MoveAnalysis) {
    let mut after = before.clone();
    after.make_move(m.mv);
    let c = win_chances(m.after_for_white(), material(&after));
    let better = match m.best.filter(|&b| b != m.mv && m.mark != Mark::Good) {
        Some(b) => format!(
            " <span class=\"better\">({})</span>",
            escape(&before.to_san(b))
        ),
        None => String::new(),
    };
    let _ = writeln!(
        html,
        "<div class=\"mv\">{} <span class=\"{}\">{}{}</span>{better} \
         <span class=\"muted\">{}/{}/{}</span></div>",
        m.number_text(),
        mark_class(m.mark),
        escape(&m.san),
        m.mark.suffix(),
        (c.win + 5) / 10,
        (c.draw + 5) / 10,
        (c.loss + 5) / 10
    );
}

/// A mistake or blunder: the board before it with both moves drawn.
fn turning_point(turns: &mut String, before: &crate::board::Position, m: &MoveAnalysis) {
    let better = m.best.map(|b| before.to_san(b));
    let label = format!("{} {}{}", m.number_text(), m.san, m.mark.suffix());
    let _ = write!(
        turns,
        "<div class=\"turn\">{}<p><b class=\"{}\">{}</b> ({}){}</p></div>",
        board_svg(before, m.mv, m.best, &label),
        mark_class(m.mark),
        escape(&label),
        m.mark.word(),
        match better {
            Some(b) if m.best != Some(m.mv) => {
                format!(" — better <span class=\"better\">{}</span>", escape(&b))
            }
            _ => String::new(),
        }
    );
}
