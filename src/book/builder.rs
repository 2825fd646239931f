//! Accumulates (position, move) statistics from games or opening lines and turns them
//! into a Polyglot book.

use super::error::BookError;
use super::key::{has_standard_castling, polyglot_key};
use super::polyglot::{encode_move, Book, Entry};
use crate::board::Position;
use crate::chess_move::Move;
use crate::types::Color;
use std::collections::HashMap;

/// Weight a game adds to each move of the side that won it.
pub const WIN_WEIGHT: u64 = 2;
/// Weight a drawn game adds to each move of both sides.
pub const DRAW_WEIGHT: u64 = 1;

/// How a game ended, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// 1/2-1/2.
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl GameResult {
    /// The weight the game gives to a move of `mover` (2 per win, 1 per draw, 0 per loss).
    fn weight_for(self, mover: Color) -> u64 {
        match (self, mover) {
            (GameResult::Draw, _) => DRAW_WEIGHT,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => {
                WIN_WEIGHT
            }
            _ => 0,
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Stat {
    weight: u64,
    games: u32,
}

/// Collects move statistics; [`BookBuilder::finish`] turns them into a book.
pub struct BookBuilder {
    max_plies: usize,
    stats: HashMap<(u64, u16), Stat>,
}

impl BookBuilder {
    /// A builder that records at most the first `max_plies` plies of each game or line.
    pub fn new(max_plies: usize) -> BookBuilder {
        BookBuilder {
            max_plies,
            stats: HashMap::new(),
        }
    }

    /// Records a game: each of its first plies gets the game's weight for the side that
    /// played it. The moves must be legal from `start`, one after the other. Positions a
    /// Polyglot key cannot describe (Chess960 castling) are not recorded.
    pub fn add_game(&mut self, start: &Position, moves: &[Move], result: GameResult) {
        self.add(start, moves, |mover| result.weight_for(mover));
    }

    /// Records an opening line: every move gets `weight`, whichever side plays it.
    pub fn add_line(&mut self, start: &Position, moves: &[Move], weight: u64) {
        self.add(start, moves, |_| weight);
    }

    fn add(&mut self, start: &Position, moves: &[Move], weight: impl Fn(Color) -> u64) {
        let mut pos = start.clone();
        for &mv in moves.iter().take(self.max_plies) {
            if !has_standard_castling(&pos) {
                break;
            }
            let stat = self
                .stats
                .entry((polyglot_key(&pos), encode_move(mv)))
                .or_default();
            stat.weight += weight(pos.side_to_move());
            stat.games += 1;
            pos.make_move(mv);
        }
    }

    /// The book: moves seen in at least `min_games` games (or lines) with a positive
    /// weight. Weights are scaled down proportionally if the largest does not fit in 16
    /// bits (never below 1, so a playable move stays playable). Errs only when nothing
    /// qualifies, since an empty book is not a valid book.
    pub fn finish(&self, min_games: u32) -> Result<Book, BookError> {
        let kept: Vec<(&(u64, u16), &Stat)> = self
            .stats
            .iter()
            .filter(|(_, s)| s.games >= min_games && s.weight > 0)
            .collect();
        let max = kept.iter().map(|(_, s)| s.weight).max().unwrap_or(0);
        let limit = u64::from(u16::MAX);
        let entries = kept
            .into_iter()
            .map(|(&(key, raw_move), s)| {
                let weight = if max > limit {
                    (u128::from(s.weight) * u128::from(limit) / u128::from(max)).max(1) as u64
                } else {
                    s.weight
                };
                Entry {
                    key,
                    raw_move,
                    weight: weight as u16,
                    learn: 0,
                }
            })
            .collect::<Vec<_>>();
        if entries.is_empty() {
            return Err(BookError::Usage(
                "no moves qualify for the book (check --plies and --min-games)".into(),
            ));
        }
        Book::from_entries(entries)
    }
}
