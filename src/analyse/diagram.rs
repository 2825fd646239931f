//! A board diagram as SVG, drawn by Ladya: for the analysis report's mistakes and blunders,
//! with the move played and the engine's better move as arrows.

use crate::board::Position;
use crate::chess_move::Move;
use crate::types::{Color, PieceType, Square};
use std::fmt::Write as _;

/// Pixels per square.
const SQUARE: i32 = 44;
const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
/// The arrow of the move played, and of the engine's move.
const PLAYED: &str = "#d01c1c";
const BETTER: &str = "#2e8b3a";

/// The filled chess glyph of a piece kind (drawn white or black by its fill).
fn glyph(kind: PieceType) -> char {
    match kind {
        PieceType::King => '\u{265A}',
        PieceType::Queen => '\u{265B}',
        PieceType::Rook => '\u{265C}',
        PieceType::Bishop => '\u{265D}',
        PieceType::Knight => '\u{265E}',
        PieceType::Pawn => '\u{265F}',
    }
}

/// The centre of a square, White at the bottom.
fn centre(sq: Square) -> (i32, i32) {
    let (file, rank) = (sq.file().index() as i32, sq.rank().index() as i32);
    (file * SQUARE + SQUARE / 2, (7 - rank) * SQUARE + SQUARE / 2)
}

/// The position with an arrow for `played` (red) and for `better` (green), if given and
/// different; `title` is the diagram's accessible name.
pub fn board_svg(pos: &Position, played: Move, better: Option<Move>, title: &str) -> String {
    let size = 8 * SQUARE;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {size} {size}\" width=\"{size}\" \
         height=\"{size}\" role=\"img\" aria-label=\"{}\">",
        escape(title)
    );
    svg.push_str(
        "<defs>\
         <marker id=\"ah-played\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" markerWidth=\"3\" \
         markerHeight=\"3\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#d01c1c\"/></marker>\
         <marker id=\"ah-better\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" markerWidth=\"3\" \
         markerHeight=\"3\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#2e8b3a\"/></marker>\
         </defs>",
    );
    for sq in Square::ALL {
        let (file, rank) = (sq.file().index() as i32, sq.rank().index() as i32);
        let colour = if (file + rank) % 2 == 0 { DARK } else { LIGHT };
        let _ = write!(
            svg,
            "<rect x=\"{}\" y=\"{}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{colour}\"/>",
            file * SQUARE,
            (7 - rank) * SQUARE
        );
        if let Some(piece) = pos.piece_on(sq) {
            let (x, y) = centre(sq);
            let (fill, stroke) = match piece.color() {
                Color::White => ("#ffffff", "#000000"),
                Color::Black => ("#000000", "#000000"),
            };
            let _ = write!(
                svg,
                "<text x=\"{x}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" \
                 font-family=\"DejaVu Sans, Segoe UI Symbol, Noto Sans Symbols 2, sans-serif\" \
                 fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.2\">{}</text>",
                y + SQUARE * 3 / 10,
                SQUARE * 8 / 10,
                glyph(piece.kind())
            );
        }
    }
    let mut arrow = |mv: Move, colour: &str, marker: &str| {
        let ((x1, y1), (x2, y2)) = (centre(mv.from()), centre(mv.to()));
        let _ = write!(
            svg,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{colour}\" \
             stroke-width=\"7\" stroke-opacity=\"0.75\" stroke-linecap=\"round\" \
             marker-end=\"url(#{marker})\"/>"
        );
    };
    if let Some(better) = better.filter(|&b| b != played) {
        arrow(better, BETTER, "ah-better");
    }
    arrow(played, PLAYED, "ah-played");
    svg.push_str("</svg>");
    svg
}

/// Text for HTML and SVG: `&`, `<`, `>` and quotes escaped.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
