//! Self-play data for the Texel tuner (`ladya datagen`).
//!
//! Ladya plays itself at a fixed node budget per move from shuffled openings, each
//! followed by a few random plies so that no two games are alike. Quiet positions are
//! written with the search score and the game result, one `FEN | score | result` per line
//! (the format of `../shared/data/tuning`, read by the tuner): score in centipawns from
//! White's view, result 1.0 / 0.5 / 0.0 for White.
//!
//! Every game is a function of the seed and its number alone (its own RNG, a fresh
//! search with a cleared table, fixed nodes), so a run can be regenerated exactly; with
//! several threads only the order of the games in the file changes.

use crate::board::{FenError, Position};
use crate::chess_move::Move;
use crate::search::{Limits, Score, SearchControl, Searcher};
use crate::types::Color;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt;
use std::io::Write;

/// Positions from the first plies after the random ones are not written (still opening).
const SKIP_PLIES: usize = 8;
/// A game still running after this many plies is scored a draw.
const MAX_GAME_PLIES: usize = 400;
/// Win adjudication: both sides' searches agree on at least this many centipawns...
const WIN_SCORE: i32 = 1000;
/// ...for this many plies in a row.
const WIN_PLIES: usize = 8;
/// Draw adjudication: from this ply on, the score stays within +-`DRAW_SCORE`...
const DRAW_MIN_PLY: usize = 80;
/// ...centipawns...
const DRAW_SCORE: i32 = 10;
/// ...for this many plies in a row.
const DRAW_PLIES: usize = 10;
/// Positions with a larger score are not written: the result is already clear.
const MAX_WRITTEN_SCORE: i32 = 2000;
/// Transposition table per game thread, in MB.
const HASH_MB: usize = 16;

/// What to generate.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Number of games.
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Opening FENs (EPD lines are cut to their first four fields); empty for the
    /// start position.
    pub openings: Vec<String>,
    /// Random legal plies played after the opening.
    pub random_plies: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
}

/// A data-generation failure.
#[derive(Debug)]
pub enum DatagenError {
    /// An opening line is not a valid position.
    Opening(usize, FenError),
    /// Writing the output failed.
    Io(std::io::Error),
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::Opening(n, e) => write!(f, "opening {}: {e}", n + 1),
            DatagenError::Io(e) => write!(f, "cannot write the data: {e}"),
        }
    }
}

impl std::error::Error for DatagenError {}

/// What a run produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatagenReport {
    /// Games played to the end.
    pub games: usize,
    /// Lines written.
    pub positions: usize,
    /// Games won by White, drawn, won by Black.
    pub results: [usize; 3],
}

/// One finished game: the positions kept and the result for White (2 = win, 1 = draw).
struct Game {
    lines: Vec<(String, i32)>,
    white_points: u8,
}

/// Plays `cfg.games` games and writes their quiet positions to `out`. `progress` gets a
/// line now and then.
pub fn generate(
    cfg: &DatagenConfig,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&str),
) -> Result<DatagenReport, DatagenError> {
    let mut openings = Vec::with_capacity(cfg.openings.len());
    for (n, line) in cfg.openings.iter().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen = format!("{} 0 1", fields.join(" "));
        openings.push(Position::from_fen(&fen).map_err(|e| DatagenError::Opening(n, e))?);
    }
    if openings.is_empty() {
        openings.push(Position::startpos());
    }
    let threads = cfg.threads.max(1);
    let (tx, rx) = crossbeam_channel::unbounded::<Game>();
    let mut report = DatagenReport::default();
    let mut write_error = None;
    std::thread::scope(|scope| {
        for t in 0..threads {
            let tx = tx.clone();
            let openings = &openings;
            scope.spawn(move || {
                let mut searcher = Searcher::new(HASH_MB);
                for n in (t..cfg.games).step_by(threads) {
                    let game = play_game(cfg, openings, n as u64, &mut searcher);
                    if tx.send(game).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for game in rx {
            report.games += 1;
            report.results[2 - game.white_points as usize] += 1;
            let result = ["0.0", "0.5", "1.0"][game.white_points as usize];
            for (fen, score) in &game.lines {
                if write_error.is_none() {
                    if let Err(e) = writeln!(out, "{fen} | {score} | {result}") {
                        write_error = Some(e);
                    }
                }
            }
            report.positions += game.lines.len();
            if report.games % 100 == 0 {
                progress(&format!(
                    "{} games, {} positions, W/D/L {}/{}/{}",
                    report.games,
                    report.positions,
                    report.results[0],
                    report.results[1],
                    report.results[2]
                ));
            }
        }
    });
    if let Some(e) = write_error {
        return Err(DatagenError::Io(e));
    }
    out.flush().map_err(DatagenError::Io)?;
    Ok(report)
}

/// Plays game number `n` to its end.
fn play_game(cfg: &DatagenConfig, openings: &[Position], n: u64, searcher: &mut Searcher) -> Game {
    let mut rng =
        Xoshiro256PlusPlus::seed_from_u64(cfg.seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    // An opening and random plies that leave a game to play (retry otherwise).
    let mut pos = loop {
        let mut pos = openings[(rng.next_u64() % openings.len() as u64) as usize].clone();
        let mut ok = true;
        for _ in 0..cfg.random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            pos.make_move(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        if ok && !pos.legal_moves().is_empty() {
            break pos;
        }
    };
    searcher.clear();
    let limits = Limits {
        nodes: Some(cfg.nodes),
        multipv: 1,
        ..Limits::default()
    };
    let control = SearchControl::default();
    let mut lines = Vec::new();
    let (mut win_run, mut loss_run, mut draw_run) = (0, 0, 0);
    let mut ply = 0;
    let white_points = loop {
        if let Some(points) = game_over(&pos, ply) {
            break points;
        }
        let result = searcher.search(&pos, &limits, &control, &mut |_| {});
        let Some(best) = result.best else {
            break 1;
        };
        // The score from White's view; mates count as decisive scores.
        let score = result.info.as_ref().map(|i| match i.score {
            Score::Cp(v) => (v, false),
            Score::Mate(m) => (if m > 0 { 30_000 } else { -30_000 }, true),
        });
        let white_view = |v: i32| {
            if pos.side_to_move() == Color::White {
                v
            } else {
                -v
            }
        };
        if let Some((v, mate)) = score {
            let w = white_view(v);
            if ply >= SKIP_PLIES && !mate && w.abs() < MAX_WRITTEN_SCORE && is_quiet(&pos, best) {
                lines.push((pos.to_fen(), w));
            }
            win_run = if w >= WIN_SCORE { win_run + 1 } else { 0 };
            loss_run = if w <= -WIN_SCORE { loss_run + 1 } else { 0 };
            draw_run = if ply >= DRAW_MIN_PLY && w.abs() <= DRAW_SCORE {
                draw_run + 1
            } else {
                0
            };
            if win_run >= WIN_PLIES {
                break 2;
            }
            if loss_run >= WIN_PLIES {
                break 0;
            }
            if draw_run >= DRAW_PLIES {
                break 1;
            }
        }
        pos.make_move(best);
        ply += 1;
    };
    Game {
        lines,
        white_points,
    }
}

/// A position worth learning from: not in check, and the move chosen is no capture or
/// promotion (so the static evaluation is not taken mid-exchange).
fn is_quiet(pos: &Position, best: Move) -> bool {
    !pos.in_check() && !pos.is_noisy(best)
}

/// The result for White (2 win, 1 draw, 0 loss) when the game is over by the rules or
/// by length.
fn game_over(pos: &Position, ply: usize) -> Option<u8> {
    if pos.legal_moves().is_empty() {
        return Some(if !pos.in_check() {
            1
        } else if pos.side_to_move() == Color::White {
            0
        } else {
            2
        });
    }
    let drawn = pos.halfmove_clock() >= 100
        || pos.repetitions(2, usize::MAX)
        || pos.insufficient_material()
        || ply >= MAX_GAME_PLIES;
    drawn.then_some(1)
}
