//! Game analysis (`ladya analyse`): every position of a game searched, every move judged
//! by the winning chances it gave away, the result written as an annotated PGN and drawn
//! as an evaluation graph.
//!
//! Each position of the game, from the start to the final one, is searched once with the
//! same limits (the table is kept between the positions of a game, so each search starts
//! from what the last one learnt). The score before a move is the best its player could
//! get; the score of the next position, from the same player's view, is what the move
//! kept; the difference in winning chances is the move's drop (`judge.rs`). A move that
//! is the engine's own choice drops nothing, whatever the scores say.
//!
//! Files: `judge.rs` turns scores into winning chances, marks and accuracy; `annotate.rs`
//! writes the annotated PGN; `graph.rs` draws the evaluation graph; `diagram.rs` a board;
//! `report.rs` the HTML report.

mod annotate;
mod diagram;
mod graph;
pub mod judge;
mod report;

pub use annotate::annotated_pgn;
pub use diagram::board_svg;
pub use graph::{draw_graph, graph_svg, GraphError, GraphFormat};
pub use judge::Mark;
pub use report::html_report;

use crate::board::{FenError, Position};
use crate::book::PgnGame;
use crate::chess_move::Move;
use crate::search::{Limits, Score, SearchControl, Searcher};
use crate::types::Color;
use judge::{clamped_cp, move_accuracy, negate, winning_chances};
use std::fmt;

/// Why a game could not be analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalyseError {
    /// The `FEN` tag is not a legal position.
    BadFen(FenError),
    /// A move of the game is illegal or unreadable.
    BadMove {
        /// The move as written.
        text: String,
        /// Its move number and side, as `12.` or `12...`.
        at: String,
    },
    /// The game has no moves.
    NoMoves,
}

impl fmt::Display for AnalyseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyseError::BadFen(e) => write!(f, "bad FEN tag: {e}"),
            AnalyseError::BadMove { text, at } => {
                write!(f, "illegal or unreadable move {at} {text}")
            }
            AnalyseError::NoMoves => write!(f, "the game has no moves"),
        }
    }
}

impl std::error::Error for AnalyseError {}

/// One move of the game and what the engine made of it.
#[derive(Clone, Debug)]
pub struct MoveAnalysis {
    /// The move played.
    pub mv: Move,
    /// Its SAN.
    pub san: String,
    /// Who played it.
    pub mover: Color,
    /// Its move number.
    pub fullmove: u16,
    /// The engine's move in the position before (`None` if it found none in time).
    pub best: Option<Move>,
    /// The engine's line from the position before, starting with `best`.
    pub best_line: Vec<Move>,
    /// The score of the position before, from the mover's view.
    pub before: Score,
    /// The score of the position after, from the mover's view.
    pub after: Score,
    /// Winning chances the move gave away (0 to 2).
    pub drop: f64,
    /// The move's mark.
    pub mark: Mark,
    /// The move mates.
    pub gives_mate: bool,
}

impl MoveAnalysis {
    /// The score after the move from White's view (the `%eval` of the move).
    pub fn after_for_white(&self) -> Score {
        match self.mover {
            Color::White => self.after,
            Color::Black => negate(self.after),
        }
    }

    /// Centipawns the move lost against the engine's best (scores clamped to +-1000;
    /// none for the engine's own move).
    pub fn loss_cp(&self) -> i32 {
        if self.best == Some(self.mv) {
            return 0;
        }
        (clamped_cp(self.before) - clamped_cp(self.after)).max(0)
    }

    /// The move number as PGN writes it before this move: `12.` or `12...`.
    pub fn number_text(&self) -> String {
        match self.mover {
            Color::White => format!("{}.", self.fullmove),
            Color::Black => format!("{}...", self.fullmove),
        }
    }
}

/// A whole game analysed.
#[derive(Clone, Debug)]
pub struct GameAnalysis {
    /// The game's tag pairs, in file order.
    pub tags: Vec<(String, String)>,
    /// The starting position.
    pub start: Position,
    /// Every move, in order.
    pub moves: Vec<MoveAnalysis>,
    /// The result as PGN writes it (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
}

/// What one side's play came to.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves played.
    pub moves: usize,
    /// Mean accuracy of the moves, 0-100 %.
    pub accuracy: f64,
    /// Mean centipawns lost per move (scores clamped to +-1000).
    pub average_loss: f64,
    /// Moves marked `?!`.
    pub inaccuracies: usize,
    /// Moves marked `?`.
    pub mistakes: usize,
    /// Moves marked `??`.
    pub blunders: usize,
}

impl GameAnalysis {
    /// The summary of one side.
    pub fn summary(&self, side: Color) -> SideSummary {
        let mine: Vec<&MoveAnalysis> = self.moves.iter().filter(|m| m.mover == side).collect();
        let mut s = SideSummary {
            moves: mine.len(),
            ..SideSummary::default()
        };
        if mine.is_empty() {
            return s;
        }
        for m in &mine {
            s.accuracy += move_accuracy(m.drop);
            s.average_loss += m.loss_cp() as f64;
            match m.mark {
                Mark::Good => {}
                Mark::Inaccuracy => s.inaccuracies += 1,
                Mark::Mistake => s.mistakes += 1,
                Mark::Blunder => s.blunders += 1,
            }
        }
        s.accuracy /= mine.len() as f64;
        s.average_loss /= mine.len() as f64;
        s
    }

    /// The turning points: the mistakes and blunders, largest drop first (at most
    /// `count`).
    pub fn turning_points(&self, count: usize) -> Vec<&MoveAnalysis> {
        let mut worst: Vec<&MoveAnalysis> = self
            .moves
            .iter()
            .filter(|m| m.mark >= Mark::Mistake)
            .collect();
        worst.sort_by(|a, b| b.drop.total_cmp(&a.drop));
        worst.truncate(count);
        worst.sort_by_key(|m| (m.fullmove, m.mover == Color::Black));
        worst
    }

    /// A name for people: `White - Black (Event, Date)` from the tags.
    pub fn title(&self) -> String {
        game_title(&self.tags)
    }
}

/// `White - Black` with the event and date where the tags have them.
pub fn game_title(tags: &[(String, String)]) -> String {
    let tag = |name: &str| {
        tags.iter()
            .find(|(n, v)| n == name && !v.is_empty() && v != "?" && !v.contains("??"))
            .map(|(_, v)| v.as_str())
    };
    let mut title = format!(
        "{} - {}",
        tag("White").unwrap_or("?"),
        tag("Black").unwrap_or("?")
    );
    let extra: Vec<&str> = [tag("Event"), tag("Date")].into_iter().flatten().collect();
    if !extra.is_empty() {
        title.push_str(&format!(" ({})", extra.join(", ")));
    }
    title
}

/// The legal moves of `game` from its start, or what stops them.
pub fn play_out(game: &PgnGame) -> Result<(Position, Vec<Move>), AnalyseError> {
    let played = game.play().map_err(AnalyseError::BadFen)?;
    if played.error.is_some() {
        let ply = played.moves.len();
        let mut pos = played.start.clone();
        for &mv in &played.moves {
            pos.make_move(mv);
        }
        let number = pos.fullmove_number();
        let at = match pos.side_to_move() {
            Color::White => format!("{number}."),
            Color::Black => format!("{number}..."),
        };
        return Err(AnalyseError::BadMove {
            text: game.moves.get(ply).cloned().unwrap_or_default(),
            at,
        });
    }
    if played.moves.is_empty() {
        return Err(AnalyseError::NoMoves);
    }
    Ok((played.start, played.moves))
}

/// The score and line of one position for its side to move: mate and stalemate are
/// known without a search.
fn evaluate(pos: &Position, searcher: &mut Searcher, limits: &Limits) -> (Score, Vec<Move>) {
    if !pos.has_legal_move() {
        let score = if pos.in_check() {
            Score::Mate(0)
        } else {
            Score::Cp(0)
        };
        return (score, Vec::new());
    }
    let control = SearchControl::default();
    let result = searcher.search(pos, limits, &control, &mut |_| {});
    match result.info {
        Some(info) => (info.score, info.pv),
        None => (Score::Cp(0), result.best.into_iter().collect()),
    }
}

/// Analyses every move of `game` with `searcher` at `limits`; `on_position` hears after
/// each position searched (for progress).
pub fn analyse_game(
    game: &PgnGame,
    searcher: &mut Searcher,
    limits: &Limits,
    on_position: &mut dyn FnMut(),
) -> Result<GameAnalysis, AnalyseError> {
    let (start, moves) = play_out(game)?;
    searcher.clear();
    let mut pos = start.clone();
    let (mut score, mut line) = evaluate(&pos, searcher, limits);
    on_position();
    let mut analysed = Vec::with_capacity(moves.len());
    for &mv in &moves {
        let (mover, fullmove, san) = (pos.side_to_move(), pos.fullmove_number(), pos.to_san(mv));
        pos.make_move(mv);
        let (next_score, next_line) = evaluate(&pos, searcher, limits);
        on_position();
        // Mate is scored for the side that is mated; the mover sees it as won.
        let gives_mate = pos.is_checkmate();
        let after = if gives_mate {
            Score::Mate(1)
        } else {
            negate(next_score)
        };
        let best = line.first().copied();
        let drop = if best == Some(mv) {
            0.0
        } else {
            (winning_chances(score) - winning_chances(after)).max(0.0)
        };
        analysed.push(MoveAnalysis {
            mv,
            san,
            mover,
            fullmove,
            best,
            best_line: std::mem::take(&mut line),
            before: score,
            after,
            drop,
            mark: Mark::of_drop(drop),
            gives_mate,
        });
        (score, line) = (next_score, next_line);
    }
    Ok(GameAnalysis {
        tags: game.tags.clone(),
        start,
        moves: analysed,
        result: result_text(game),
    })
}

fn result_text(game: &PgnGame) -> String {
    use crate::book::GameResult;
    match game.result() {
        GameResult::WhiteWins => "1-0",
        GameResult::BlackWins => "0-1",
        GameResult::Draw => "1/2-1/2",
        GameResult::Unknown => "*",
    }
    .to_string()
}
