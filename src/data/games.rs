//! Whole self-play games, packed small enough to keep: the start position, every move
//! with the score the search gave it, and the result. A game takes about an eighth of
//! the bytes of its kept positions' packed records, and under `xz` a third (2.6 bytes a
//! position), so a session's self-play fits in the repository and later generations can
//! still learn from it.
//!
//! [`unpack`] replays a game and keeps what `ladya datagen` would have kept ([`filter`]),
//! so a games file unpacks to the very records the packed format holds.
//!
//! # Layout (little-endian, games back to back, no file header)
//! | bytes | field |
//! |---|---|
//! | 2 | [`GAME_TAG`] |
//! | 1 | the result for White: 2 win, 1 draw, 0 loss |
//! | 2 | length of the start FEN |
//! | n | the start FEN (ASCII) |
//! | 2 | plies |
//! | 1 per ply | the move: its index among the legal moves ordered by `Move::to_bits` |
//! | 1 to 3 per ply | the score word ([`PlyScore`]) less the previous ply's (0 before the first), zigzag, as a LEB128 varint |
//!
//! Moves as indices and scores as differences, each kind together, compress 1.7 times
//! better than the raw move and score words side by side (measured on 2,964 games:
//! 590 KB against 1,012 KB, and 1,842 KB for their 223,100 records).

use super::filter;
use super::packed::{GameResult, PackedPosition};
use crate::board::Position;
use crate::chess_move::Move;
use std::fmt;

/// The two bytes that open every game: a file that is not a games file, or a game read
/// from the wrong offset, fails at once.
pub const GAME_TAG: [u8; 2] = *b"Lg";
/// The score word of a ply whose search gave no score.
const NO_SCORE: i16 = i16::MIN;
/// The score word of a mate for White (negated: for Black); centipawn scores are clamped
/// inside it.
const MATE: i16 = 32_000;
/// Bytes of a game before its FEN and between the FEN and the plies.
const HEAD_BYTES: usize = 2 + 1 + 2;

/// What the search said of a position before its move, from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlyScore {
    /// A score in centipawns.
    Cp(i32),
    /// A mate, for White (`true`) or for Black.
    Mate(bool),
    /// No score (the search returned none).
    Unknown,
}

impl PlyScore {
    fn to_word(self) -> i16 {
        match self {
            PlyScore::Cp(v) => v.clamp(-(MATE as i32) + 1, MATE as i32 - 1) as i16,
            PlyScore::Mate(white) => {
                if white {
                    MATE
                } else {
                    -MATE
                }
            }
            PlyScore::Unknown => NO_SCORE,
        }
    }

    fn from_word(word: i16) -> PlyScore {
        match word {
            NO_SCORE => PlyScore::Unknown,
            w if w >= MATE => PlyScore::Mate(true),
            w if w <= -MATE => PlyScore::Mate(false),
            w => PlyScore::Cp(w as i32),
        }
    }
}

/// A games file that cannot be read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GamesError {
    /// The bytes end inside a game.
    Truncated {
        /// The game's number in the file (from 0).
        game: usize,
    },
    /// A game does not open with [`GAME_TAG`].
    BadTag {
        /// The game's number in the file.
        game: usize,
        /// Its byte offset.
        offset: usize,
    },
    /// A result byte other than 0, 1 or 2.
    BadResult {
        /// The game's number in the file.
        game: usize,
        /// The byte.
        byte: u8,
    },
    /// A start position that is not a legal FEN.
    BadFen {
        /// The game's number in the file.
        game: usize,
        /// Why.
        why: String,
    },
    /// A move index past the legal moves of its position.
    IllegalMove {
        /// The game's number in the file.
        game: usize,
        /// The ply, from the start position.
        ply: usize,
        /// The index.
        index: u8,
        /// The legal moves there.
        legal: usize,
    },
    /// A score varint that does not end within three bytes or leaves the word's range.
    BadScore {
        /// The game's number in the file.
        game: usize,
        /// The ply, from the start position.
        ply: usize,
    },
    /// A game to encode that has a move not legal where it stands.
    NotPlayable {
        /// The ply, from the start position.
        ply: usize,
    },
}

impl fmt::Display for GamesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GamesError::Truncated { game } => write!(f, "game {game}: the data ends inside it"),
            GamesError::BadTag { game, offset } => write!(
                f,
                "game {game} (byte {offset}): no game starts here: not a games file, or a torn one"
            ),
            GamesError::BadResult { game, byte } => {
                write!(f, "game {game}: result byte {byte} (0, 1 or 2 expected)")
            }
            GamesError::BadFen { game, why } => write!(f, "game {game}: bad start position: {why}"),
            GamesError::IllegalMove {
                game,
                ply,
                index,
                legal,
            } => write!(
                f,
                "game {game}, ply {ply}: move {index} of {legal} legal moves"
            ),
            GamesError::BadScore { game, ply } => write!(f, "game {game}, ply {ply}: bad score"),
            GamesError::NotPlayable { ply } => write!(f, "ply {ply}: the move is not legal"),
        }
    }
}

impl std::error::Error for GamesError {}

/// Appends one game to `out`: `start` and what came after it, `plies` (each move with the
/// score of the position it was played in), and the result for White (2 win, 1 draw, 0
/// loss). A game longer than `u16::MAX` plies keeps its first `u16::MAX`. Nothing is
/// appended when a move is not legal where it stands.
pub fn encode_game(
    start: &Position,
    plies: &[(Move, PlyScore)],
    white_points: u8,
    out: &mut Vec<u8>,
) -> Result<(), GamesError> {
    let fen = start.to_fen();
    let plies = &plies[..plies.len().min(u16::MAX as usize)];
    let mut indices = Vec::with_capacity(plies.len());
    let mut pos = start.clone_without_history();
    for (ply, &(mv, _)) in plies.iter().enumerate() {
        let index = ordered_legal(&pos)
            .iter()
            .position(|&bits| bits == mv.to_bits())
            .ok_or(GamesError::NotPlayable { ply })?;
        indices.push(index as u8);
        pos.make_move(mv);
    }
    out.reserve(HEAD_BYTES + fen.len() + 2 + 3 * plies.len());
    out.extend_from_slice(&GAME_TAG);
    out.push(white_points);
    out.extend_from_slice(&(fen.len() as u16).to_le_bytes());
    out.extend_from_slice(fen.as_bytes());
    out.extend_from_slice(&(plies.len() as u16).to_le_bytes());
    out.extend_from_slice(&indices);
    let mut previous = 0i32;
    for (_, score) in plies {
        let word = score.to_word() as i32;
        push_varint(out, zigzag(word - previous));
        previous = word;
    }
    Ok(())
}

/// The legal moves of `pos` as bits, in increasing order: the order a move's index counts
/// in, fixed by the encoding and not by the generator.
fn ordered_legal(pos: &Position) -> Vec<u16> {
    let mut bits: Vec<u16> = pos
        .legal_moves()
        .as_slice()
        .iter()
        .map(|m| m.to_bits())
        .collect();
    bits.sort_unstable();
    bits
}

fn zigzag(v: i32) -> u32 {
    ((v << 1) ^ (v >> 31)) as u32
}

fn unzigzag(u: u32) -> i32 {
    (u >> 1) as i32 ^ -((u & 1) as i32)
}

fn push_varint(out: &mut Vec<u8>, mut u: u32) {
    while u >= 0x80 {
        out.push((u as u8 & 0x7f) | 0x80);
        u >>= 7;
    }
    out.push(u as u8);
}

/// Why a varint does not read.
enum BadVarint {
    /// The bytes end inside it.
    Ended,
    /// It runs past three bytes (a score difference fits in 17 bits).
    TooLong,
}

/// The varint at `bytes[*at..]`, and `*at` moved past it.
fn read_varint(bytes: &[u8], at: &mut usize) -> Result<u32, BadVarint> {
    let mut u = 0u32;
    for shift in [0, 7, 14] {
        let byte = *bytes.get(*at).ok_or(BadVarint::Ended)?;
        *at += 1;
        u |= ((byte & 0x7f) as u32) << shift;
        if byte < 0x80 {
            return Ok(u);
        }
    }
    Err(BadVarint::TooLong)
}

/// What [`unpack`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnpackReport {
    /// Games read.
    pub games: usize,
    /// Plies replayed.
    pub plies: usize,
    /// Positions kept.
    pub positions: usize,
}

/// Replays every game of `bytes` and hands each position `ladya datagen` keeps to `keep`,
/// in order: the records the packed format would hold for the same games.
pub fn unpack(
    bytes: &[u8],
    keep: &mut dyn FnMut(PackedPosition),
) -> Result<UnpackReport, GamesError> {
    let mut report = UnpackReport::default();
    let mut at = 0;
    while at < bytes.len() {
        at = unpack_game(bytes, at, report.games, &mut report, keep)?;
        report.games += 1;
    }
    Ok(report)
}

/// Reads the game at `at` (game number `game`) and returns the offset after it.
fn unpack_game(
    bytes: &[u8],
    at: usize,
    game: usize,
    report: &mut UnpackReport,
    keep: &mut dyn FnMut(PackedPosition),
) -> Result<usize, GamesError> {
    let take = |from: usize, n: usize| {
        bytes
            .get(from..from + n)
            .ok_or(GamesError::Truncated { game })
    };
    let word = |from: usize| take(from, 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    if take(at, 2)? != GAME_TAG {
        return Err(GamesError::BadTag { game, offset: at });
    }
    let white_points = take(at + 2, 1)?[0];
    let result = match white_points {
        0 => GameResult::BlackWin,
        1 => GameResult::Draw,
        2 => GameResult::WhiteWin,
        byte => return Err(GamesError::BadResult { game, byte }),
    };
    let fen_len = word(at + 3)? as usize;
    let fen = take(at + HEAD_BYTES, fen_len)?;
    let fen = std::str::from_utf8(fen).map_err(|e| GamesError::BadFen {
        game,
        why: e.to_string(),
    })?;
    let mut pos = Position::from_fen(fen).map_err(|e| GamesError::BadFen {
        game,
        why: e.to_string(),
    })?;
    let plies_at = at + HEAD_BYTES + fen_len;
    let plies = word(plies_at)? as usize;
    let indices = take(plies_at + 2, plies)?;
    let mut at = plies_at + 2 + plies;
    let mut previous = 0i32;
    for (ply, &index) in indices.iter().enumerate() {
        let legal = ordered_legal(&pos);
        let &bits = legal.get(index as usize).ok_or(GamesError::IllegalMove {
            game,
            ply,
            index,
            legal: legal.len(),
        })?;
        let mv = Move::from_bits(bits);
        let delta = read_varint(bytes, &mut at).map_err(|bad| match bad {
            BadVarint::Ended => GamesError::Truncated { game },
            BadVarint::TooLong => GamesError::BadScore { game, ply },
        })?;
        let word = previous + unzigzag(delta);
        let word = i16::try_from(word).map_err(|_| GamesError::BadScore { game, ply })?;
        previous = word as i32;
        if let PlyScore::Cp(white) = PlyScore::from_word(word) {
            if filter::worth_learning(&pos, mv, ply, white) {
                keep(PackedPosition::new(&pos, white, result));
                report.positions += 1;
            }
        }
        pos.make_move(mv);
        report.plies += 1;
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scholar() -> (Position, Vec<(Move, PlyScore)>) {
        let start = Position::startpos();
        let mut pos = start.clone();
        let mut plies = Vec::new();
        for (i, uci) in ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]
            .iter()
            .enumerate()
        {
            let mv = pos.parse_uci_move(uci).unwrap();
            let score = match i {
                5 => PlyScore::Mate(true),
                6 => PlyScore::Unknown,
                _ => PlyScore::Cp(20 * i as i32 - 40_000 * (i == 3) as i32),
            };
            plies.push((mv, score));
            pos.make_move(mv);
        }
        (start, plies)
    }

    #[test]
    fn scores_round_trip_and_clamp_below_the_mate_word() {
        for s in [
            PlyScore::Cp(0),
            PlyScore::Cp(-1999),
            PlyScore::Mate(true),
            PlyScore::Mate(false),
            PlyScore::Unknown,
        ] {
            assert_eq!(PlyScore::from_word(s.to_word()), s);
        }
        assert_eq!(
            PlyScore::from_word(PlyScore::Cp(99_999).to_word()),
            PlyScore::Cp(31_999)
        );
        assert_eq!(
            PlyScore::from_word(PlyScore::Cp(-99_999).to_word()),
            PlyScore::Cp(-31_999)
        );
    }

    #[test]
    fn a_game_replays_to_its_plies_and_keeps_nothing_from_the_opening() {
        let (start, plies) = scholar();
        let mut bytes = Vec::new();
        encode_game(&start, &plies, 2, &mut bytes).unwrap();
        encode_game(&start, &plies[..2], 1, &mut bytes).unwrap();
        let mut kept = Vec::new();
        let report = unpack(&bytes, &mut |p| kept.push(p)).unwrap();
        assert_eq!(
            report,
            UnpackReport {
                games: 2,
                plies: 9,
                positions: 0
            }
        );
        assert!(kept.is_empty(), "every ply is before filter::SKIP_PLIES");
    }

    #[test]
    fn a_move_not_legal_is_not_encoded() {
        let (start, mut plies) = scholar();
        plies.swap(0, 1);
        let mut bytes = Vec::new();
        assert_eq!(
            encode_game(&start, &plies, 1, &mut bytes),
            Err(GamesError::NotPlayable { ply: 0 })
        );
        assert!(bytes.is_empty());
    }

    #[test]
    fn torn_and_foreign_bytes_are_typed_errors() {
        let (start, plies) = scholar();
        let mut bytes = Vec::new();
        encode_game(&start, &plies, 2, &mut bytes).unwrap();
        let whole = bytes.len();
        for cut in [1, HEAD_BYTES, whole - 1] {
            assert_eq!(
                unpack(&bytes[..cut], &mut |_| {}),
                Err(GamesError::Truncated { game: 0 })
            );
        }
        let mut foreign = bytes.clone();
        foreign[0] = b'X';
        assert_eq!(
            unpack(&foreign, &mut |_| {}),
            Err(GamesError::BadTag { game: 0, offset: 0 })
        );
        let mut bad_result = bytes.clone();
        bad_result[2] = 3;
        assert_eq!(
            unpack(&bad_result, &mut |_| {}),
            Err(GamesError::BadResult { game: 0, byte: 3 })
        );
        let first_move = HEAD_BYTES + start.to_fen().len() + 2;
        let mut illegal = bytes.clone();
        illegal[first_move] = 20; // the start position has 20 legal moves
        assert_eq!(
            unpack(&illegal, &mut |_| {}),
            Err(GamesError::IllegalMove {
                game: 0,
                ply: 0,
                index: 20,
                legal: 20
            })
        );
        let mut long_score = bytes[..first_move + plies.len()].to_vec();
        long_score.extend_from_slice(&[0xff, 0xff, 0xff, 0x01]);
        assert_eq!(
            unpack(&long_score, &mut |_| {}),
            Err(GamesError::BadScore { game: 0, ply: 0 })
        );
        let mut bad_fen = bytes;
        bad_fen[HEAD_BYTES] = b'?';
        assert!(matches!(
            unpack(&bad_fen, &mut |_| {}),
            Err(GamesError::BadFen { game: 0, .. })
        ));
    }

    #[test]
    fn varints_and_zigzag_round_trip() {
        for v in [0, 1, -1, 63, -64, 64, 32_000, -32_000, 65_535, -65_535] {
            let mut out = Vec::new();
            push_varint(&mut out, zigzag(v));
            assert!(out.len() <= 3);
            let mut at = 0;
            assert!(matches!(read_varint(&out, &mut at), Ok(u) if unzigzag(u) == v));
            assert_eq!(at, out.len());
        }
    }
}
