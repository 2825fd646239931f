//! One self-play game: an opening, random plies, then the search against itself until
//! the game ends or is adjudicated; the positions worth learning from are kept.

use super::ending::game_over;
use super::genfens::{is_balanced, random_walk, CHECK_NODES};
use super::{DatagenConfig, Format};
use crate::board::Position;
use crate::chess_move::Move;
use crate::data::games::encode_game;
use crate::data::{filter, GameResult, PackedPosition, PlyScore, RECORD_BYTES};
use crate::search::{Limits, Score, SearchControl, Searcher};
use crate::tablebase::Wdl;
use crate::types::Color;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Openings drawn per game before one that is not balanced is taken anyway: a book of
/// lopsided positions must slow a run down, not hang it.
const MAX_OPENING_TRIES: usize = 100;
/// Random walks that end the game in a row before a game starts from its opening as it
/// stands: a book whose positions all end within the random plies (a king that must take
/// the last piece) must not hang a run either.
const MAX_FAILED_WALKS: usize = 1_000;
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

/// One finished game: its positions encoded in the output format.
pub(super) struct Game {
    pub(super) bytes: Vec<u8>,
    pub(super) positions: usize,
    /// The result for White: 2 win, 1 draw, 0 loss.
    pub(super) white_points: u8,
}

/// Plays game number `n` to its end.
pub(super) fn play_game(
    cfg: &DatagenConfig,
    openings: &[Position],
    n: u64,
    searcher: &mut Searcher,
) -> Game {
    let mut rng =
        Xoshiro256PlusPlus::seed_from_u64(cfg.seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut pos = start_position(cfg, openings, &mut rng, searcher);
    let start = pos.clone_without_history();
    searcher.clear();
    let limits = Limits {
        nodes: Some(cfg.nodes),
        multipv: 1,
        ..Limits::default()
    };
    let control = SearchControl::default();
    let mut kept = Vec::new();
    let mut plies = Vec::new();
    let (mut win_run, mut loss_run, mut draw_run) = (0, 0, 0);
    let mut ply = 0;
    let white_points = loop {
        if let Some(points) = game_over(&pos, ply) {
            break points;
        }
        if cfg.tablebase_adjudication {
            if let Some(points) = tablebase_verdict(&pos) {
                break points;
            }
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
        plies.push((
            best,
            match score {
                Some((v, true)) => PlyScore::Mate(white_view(v) > 0),
                Some((v, false)) => PlyScore::Cp(white_view(v)),
                None => PlyScore::Unknown,
            },
        ));
        if let Some((v, mate)) = score {
            let w = white_view(v);
            if !mate && filter::worth_learning(&pos, best, ply, w) {
                kept.push((pos.clone_without_history(), w));
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
    let played = Played {
        start: &start,
        plies: &plies,
        kept: &kept,
        white_points,
    };
    encode(cfg.format, &played)
}

/// A finished game as played: what every output format is made from.
struct Played<'a> {
    start: &'a Position,
    /// Every move with the score of the position it was played in.
    plies: &'a [(Move, PlyScore)],
    /// The positions worth learning from, with their scores from White's view.
    kept: &'a [(Position, i32)],
    /// The result for White: 2 win, 1 draw, 0 loss.
    white_points: u8,
}

/// An opening and random plies that leave a game to play (`genfens`'s random walk) and,
/// with `cfg.max_opening_score`, a balanced one (drawn again otherwise).
fn start_position(
    cfg: &DatagenConfig,
    openings: &[Position],
    rng: &mut Xoshiro256PlusPlus,
    searcher: &mut Searcher,
) -> Position {
    let check = Limits {
        nodes: Some(CHECK_NODES),
        multipv: 1,
        ..Limits::default()
    };
    let (mut tries, mut failed_walks) = (0, 0);
    loop {
        let opening = &openings[(rng.next_u64() % openings.len() as u64) as usize];
        // Every opening leaves a game to play (`run::parse_openings` keeps no other).
        let pos = match random_walk(opening.clone(), cfg.random_plies, rng) {
            Some(pos) => pos,
            None if failed_walks >= MAX_FAILED_WALKS => opening.clone(),
            None => {
                failed_walks += 1;
                continue;
            }
        };
        tries += 1;
        let balanced = match cfg.max_opening_score {
            None => true,
            Some(max) => tries >= MAX_OPENING_TRIES || is_balanced(searcher, &pos, &check, max),
        };
        if balanced {
            return pos;
        }
    }
}

/// A game in the output format: its kept positions, or the whole game.
fn encode(format: Format, played: &Played) -> Game {
    let Played {
        kept, white_points, ..
    } = *played;
    let mut bytes = Vec::new();
    match format {
        Format::Packed => {
            let result = [GameResult::BlackWin, GameResult::Draw, GameResult::WhiteWin]
                [white_points as usize];
            bytes.reserve(kept.len() * RECORD_BYTES);
            for (pos, score) in kept {
                bytes.extend_from_slice(PackedPosition::new(pos, *score, result).as_bytes());
            }
        }
        Format::Games => {
            // Every move was the search's own choice in the position it was played in.
            encode_game(played.start, played.plies, white_points, &mut bytes)
                .expect("a played game replays")
        }
        Format::Text => {
            let result = ["0.0", "0.5", "1.0"][white_points as usize];
            for (pos, score) in kept {
                bytes.extend_from_slice(
                    format!("{} | {score} | {result}\n", pos.to_fen()).as_bytes(),
                );
            }
        }
    }
    Game {
        bytes,
        positions: kept.len(),
        white_points,
    }
}

/// The tables' result for White (2 win, 1 draw, 0 loss), when they know the position.
/// A cursed win or a blessed loss is a draw: the games are played under the fifty-move
/// rule.
fn tablebase_verdict(pos: &Position) -> Option<u8> {
    let for_mover = match crate::tablebase::probe_wdl(pos)? {
        Wdl::Win => 2,
        Wdl::Loss => 0,
        Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => 1,
    };
    Some(if pos.side_to_move() == Color::White {
        for_mover
    } else {
        2 - for_mover
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start position less Black's queen's rook: lopsided by any evaluation.
    const ROOK_DOWN: &str = "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1";

    fn config(max_opening_score: Option<i32>) -> DatagenConfig {
        DatagenConfig {
            random_plies: 0,
            max_opening_score,
            ..DatagenConfig::default()
        }
    }

    fn starts(cfg: &DatagenConfig, openings: &[Position], games: u64) -> Vec<u64> {
        let mut searcher = Searcher::new(1);
        (0..games)
            .map(|n| {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(n);
                start_position(cfg, openings, &mut rng, &mut searcher).key()
            })
            .collect()
    }

    #[test]
    fn lopsided_openings_are_drawn_again() {
        let lopsided = Position::from_fen(ROOK_DOWN).unwrap();
        let openings = [lopsided.clone(), Position::startpos()];
        let any = starts(&config(None), &openings, 16);
        assert!(
            any.contains(&lopsided.key()),
            "the draw never picked it: no test"
        );
        let balanced = starts(&config(Some(300)), &openings, 16);
        assert!(balanced.iter().all(|&k| k == Position::startpos().key()));
    }

    #[test]
    fn a_book_of_lopsided_openings_still_gives_games() {
        let lopsided = Position::from_fen(ROOK_DOWN).unwrap();
        let got = starts(&config(Some(300)), std::slice::from_ref(&lopsided), 2);
        assert_eq!(got, vec![lopsided.key(); 2]);
    }
}
