//! The evaluation graph: for each game, White's winning chances (from -1, Black wins, to
//! +1, White wins) after every move, with the inaccuracies, mistakes and blunders marked;
//! one panel per game, stacked, in one SVG or PNG file (by the name's extension). The PNG's
//! text is drawn with DejaVu Sans, embedded in the binary (`assets/fonts`), so no system
//! font is needed.

use super::judge::winning_chances;
use super::{GameAnalysis, Mark};
use plotters::prelude::*;
use std::fmt;
use std::path::Path;
use std::sync::Once;

/// DejaVu Sans (its licence beside it in `assets/fonts`): the font of every graph's text.
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Registers the embedded font as plotters' `sans-serif`, once per process.
fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is a valid TrueType file, checked by the tests that draw a PNG.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// The file formats a graph is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphFormat {
    /// Scalable, for pages and documents.
    Svg,
    /// A bitmap, for pasting anywhere.
    Png,
}

impl GraphFormat {
    /// The format a file name asks for, by its extension (`.svg` or `.png`).
    pub fn of(path: &Path) -> Option<GraphFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "svg" => Some(GraphFormat::Svg),
            "png" => Some(GraphFormat::Png),
            _ => None,
        }
    }
}

/// Size of one game's panel in pixels.
const PANEL: (u32, u32) = (900, 320);
/// Marker radius of a marked move.
const MARK_RADIUS: u32 = 5;

/// Why the graph was not drawn.
#[derive(Debug)]
pub enum GraphError {
    /// The file name ends neither in `.svg` nor in `.png`.
    Format(String),
    /// Nothing to draw.
    NoGames,
    /// The drawing failed (for example, the file could not be written).
    Draw(String),
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphError::Format(name) => write!(
                f,
                "cannot draw {name}: the graph is written as SVG or PNG, give a name ending \
                 in .svg or .png"
            ),
            GraphError::NoGames => write!(f, "no analysed game to draw"),
            GraphError::Draw(e) => write!(f, "cannot draw the graph: {e}"),
        }
    }
}

impl std::error::Error for GraphError {}

fn mark_colour(mark: Mark) -> RGBColor {
    match mark {
        Mark::Blunder => RGBColor(0xd0, 0x1c, 0x1c),
        Mark::Mistake => RGBColor(0xe6, 0x7e, 0x22),
        Mark::Inaccuracy => RGBColor(0xc9, 0xb0, 0x10),
        Mark::Good => BLACK,
    }
}

/// Draws the graph of `games` into `path` (an `.svg` or `.png` file).
pub fn draw_graph(games: &[GameAnalysis], path: &Path) -> Result<(), GraphError> {
    let format =
        GraphFormat::of(path).ok_or_else(|| GraphError::Format(path.display().to_string()))?;
    if games.is_empty() {
        return Err(GraphError::NoGames);
    }
    register_font();
    let size = (PANEL.0, PANEL.1 * games.len() as u32);
    match format {
        GraphFormat::Svg => draw_panels(SVGBackend::new(path, size).into_drawing_area(), games),
        GraphFormat::Png => draw_panels(BitMapBackend::new(path, size).into_drawing_area(), games),
    }
}

/// Every game's panel, one below the other, on `root`.
fn draw_panels<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    games: &[GameAnalysis],
) -> Result<(), GraphError> {
    let draw = |e: &dyn fmt::Display| GraphError::Draw(e.to_string());
    root.fill(&WHITE).map_err(|e| draw(&e))?;
    for (panel, game) in root.split_evenly((games.len(), 1)).iter().zip(games) {
        draw_panel(panel, game).map_err(|e| draw(&e))?;
    }
    root.present().map_err(|e| draw(&e))
}

/// The graph of one game as an SVG document (for the HTML report).
pub fn graph_svg(game: &GameAnalysis) -> Result<String, GraphError> {
    register_font();
    let mut svg = String::new();
    draw_panels(
        SVGBackend::with_string(&mut svg, PANEL).into_drawing_area(),
        std::slice::from_ref(game),
    )?;
    Ok(svg)
}

/// The x of a move: its move number, Black's half a move later.
fn move_x(m: &super::MoveAnalysis) -> f64 {
    m.fullmove as f64
        + if m.mover == crate::types::Color::Black {
            0.5
        } else {
            0.0
        }
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    game: &GameAnalysis,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let points: Vec<(f64, f64, Mark)> = game
        .moves
        .iter()
        .map(|m| (move_x(m), winning_chances(m.after_for_white()), m.mark))
        .collect();
    let first = game.moves.first().map_or(1.0, move_x) - 0.5;
    let last = points.last().map_or(first + 1.0, |p| p.0).max(first + 1.0);
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("{}  {}", game.title(), game.result),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(48)
        .build_cartesian_2d(first..last, -1.0f64..1.0f64)?;
    chart
        .configure_mesh()
        .x_desc("move")
        .y_desc("White's winning chances")
        .y_labels(5)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .light_line_style(BLACK.mix(0.04))
        .draw()?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(first, 0.0), (last, 0.0)],
        BLACK.mix(0.4),
    )))?;
    chart.draw_series(AreaSeries::new(
        points.iter().map(|&(x, y, _)| (x, y)),
        0.0,
        RGBColor(0x3b, 0x6e, 0xb5).mix(0.25),
    ))?;
    chart.draw_series(LineSeries::new(
        points.iter().map(|&(x, y, _)| (x, y)),
        RGBColor(0x3b, 0x6e, 0xb5).stroke_width(2),
    ))?;
    for mark in [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder] {
        let colour = mark_colour(mark);
        chart
            .draw_series(
                points
                    .iter()
                    .filter(|p| p.2 == mark)
                    .map(|&(x, y, _)| Circle::new((x, y), MARK_RADIUS, colour.filled())),
            )?
            .label(format!("{} ({})", mark.word(), mark.suffix()))
            .legend(move |(x, y)| Circle::new((x, y), MARK_RADIUS, colour.filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK.mix(0.3))
        .position(SeriesLabelPosition::LowerLeft)
        .draw()
}
