//! Games in PGN with each move's score, as OpenBench's DATAGEN workloads return them, to
//! packed records (`ladya data pgn`).
//!
//! An OpenBench client plays a DATAGEN workload's games with fastchess and sends them
//! bzip2-compressed, one `.pgn.bz2` per batch; the server keeps a test's batches in one
//! `<id>.pgn.tar`, which is what a finished workload downloads as (`Client/pgn_util.py`,
//! `OpenBench/pgn_watcher.py`). Both forms it writes, COMPACT and VERBOSE, start every
//! move's comment with the mover's score and depth, `{+0.31/12}` or `{-1.05/14 0.21s, n=5000,
//! sd=19}`: pawns from the side that moved, `+M5` / `-M3` for mates, `book` or `unknown`
//! when there is none. This reads plain `.pgn`, `.pgn.bz2` and the `.tar` of either.
//!
//! A position is kept as `ladya datagen` keeps one ([`super::filter`]): the position before
//! a move the engine chose (not a book move), side to move not in check, the move no
//! capture or promotion, no mate score, past the first plies. The record holds the score
//! from White's side in centipawns and the game's result; a game without a result, with a
//! bad `FEN` tag or an unreadable move gives nothing (one broken game must not label the
//! others' positions). A match against another engine holds that engine's scores too, on
//! its own scale: `player` keeps only the moves of the engine named in the `White` or
//! `Black` tag.

use super::file::{DataError, PackedWriter};
use super::filter;
use super::packed::{GameResult, PackedPosition};
use crate::book::{parse_pgn, PgnGame};
use crate::types::Color;
use std::fmt;
use std::io::Read;
use std::path::Path;

/// What reading games did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnReport {
    /// PGN texts read (a `.tar` holds several).
    pub texts: u64,
    /// Games read.
    pub games: u64,
    /// Games that gave nothing: no result, a bad `FEN` tag or an unreadable move.
    pub skipped_games: u64,
    /// Moves with a score of the engine that played them.
    pub scored_moves: u64,
    /// Records written.
    pub written: u64,
}

impl fmt::Display for PgnReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} PGN texts, {} games ({} skipped: no result, a bad FEN or move), {} scored moves, {} positions written",
            self.texts, self.games, self.skipped_games, self.scored_moves, self.written
        )
    }
}

/// The score a match manager wrote for a move, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveScore {
    /// Centipawns.
    Cp(i32),
    /// A mate score (either side).
    Mate,
}

/// The score at the start of a move's comment (`+0.31/12 …`, `-M3/20`), if any.
pub fn comment_score(comment: &str) -> Option<MoveScore> {
    let (score, depth) = comment.split_whitespace().next()?.split_once('/')?;
    let depth = depth.trim_end_matches(',');
    if depth.is_empty() || !depth.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let unsigned = score.trim_start_matches(['+', '-']);
    if let Some(moves) = unsigned.strip_prefix('M') {
        return moves.parse::<u32>().ok().map(|_| MoveScore::Mate);
    }
    let pawns: f64 = unsigned.parse().ok()?;
    let cp = (pawns * 100.0).round() as i32;
    Some(MoveScore::Cp(if score.starts_with('-') { -cp } else { cp }))
}

/// The records a game gives, handed to `keep`, from the moves of `player` alone when one is
/// named (the `White` or `Black` tag); false when the game gives nothing (see the module
/// documentation).
pub fn game_records(
    game: &PgnGame,
    player: Option<&str>,
    keep: &mut dyn FnMut(PackedPosition),
) -> bool {
    let result = match game.result() {
        crate::book::GameResult::WhiteWins => GameResult::WhiteWin,
        crate::book::GameResult::BlackWins => GameResult::BlackWin,
        crate::book::GameResult::Draw => GameResult::Draw,
        crate::book::GameResult::Unknown => return false,
    };
    let Ok(played) = game.play() else {
        return false;
    };
    if played.error.is_some() {
        return false;
    }
    let plays = |color: Color| {
        let tag = if color == Color::White {
            "White"
        } else {
            "Black"
        };
        player.is_none_or(|name| game.tag(tag) == Some(name))
    };
    let mut pos = played.start;
    for (ply, (&mv, comment)) in played.moves.iter().zip(&game.comments).enumerate() {
        if !plays(pos.side_to_move()) {
            pos.make_move(mv);
            continue;
        }
        if let Some(MoveScore::Cp(cp)) = comment_score(comment) {
            let white = if pos.side_to_move() == Color::White {
                cp
            } else {
                -cp
            };
            if filter::worth_learning(&pos, mv, ply, white) {
                keep(PackedPosition::new(&pos, white, result));
            }
        }
        pos.make_move(mv);
    }
    true
}

/// Reads the games of every input (`.pgn`, `.bz2`, `.tar`) and appends their records to
/// the packed file `output`, in input order; only `player`'s moves when one is named.
pub fn import_files(
    inputs: &[&Path],
    output: &Path,
    player: Option<&str>,
) -> Result<PgnReport, DataError> {
    let mut writer = PackedWriter::append(output)?;
    let mut report = PgnReport::default();
    for &input in inputs {
        for_each_text(input, &mut |text| {
            report.texts += 1;
            for game in parse_pgn(text) {
                report.games += 1;
                report.scored_moves += game
                    .comments
                    .iter()
                    .filter(|c| comment_score(c).is_some())
                    .count() as u64;
                let mut records = Vec::new();
                if !game_records(&game, player, &mut |r| records.push(r)) {
                    report.skipped_games += 1;
                }
                writer.write_all(&records)?;
                report.written += records.len() as u64;
            }
            Ok(())
        })?;
    }
    writer.finish()?;
    Ok(report)
}

/// Hands each PGN text of `path` to `each`: the file itself, decompressed when its name
/// ends in `.bz2`, or every `.pgn` / `.pgn.bz2` member of a `.tar`, in archive order.
fn for_each_text(
    path: &Path,
    each: &mut dyn FnMut(&str) -> Result<(), DataError>,
) -> Result<(), DataError> {
    let io = |e| DataError::io(path, e);
    let name = path.to_string_lossy().to_ascii_lowercase();
    let file = std::fs::File::open(path).map_err(io)?;
    if name.ends_with(".tar") {
        let mut archive = tar::Archive::new(file);
        for entry in archive.entries().map_err(io)? {
            let mut entry = entry.map_err(io)?;
            let member = entry
                .path()
                .map_err(io)?
                .to_string_lossy()
                .to_ascii_lowercase();
            if member.ends_with(".bz2") {
                each(&read_text(bzip2::read::MultiBzDecoder::new(&mut entry)).map_err(io)?)?;
            } else if member.ends_with(".pgn") {
                each(&read_text(&mut entry).map_err(io)?)?;
            }
        }
        Ok(())
    } else if name.ends_with(".bz2") {
        each(&read_text(bzip2::read::MultiBzDecoder::new(file)).map_err(io)?)
    } else {
        each(&read_text(file).map_err(io)?)
    }
}

/// All of `source` as text (bytes that are not UTF-8 become U+FFFD: a stray byte in a
/// tag must not lose the file's games).
fn read_text(mut source: impl Read) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    source.read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_scores_match_managers_write() {
        assert_eq!(comment_score("+0.31/12"), Some(MoveScore::Cp(31)));
        assert_eq!(
            comment_score("-1.05/14 0.210s, n=5000, sd=19"),
            Some(MoveScore::Cp(-105))
        );
        assert_eq!(comment_score("0.00/1, line=x"), Some(MoveScore::Cp(0)));
        assert_eq!(comment_score("+M5/20 0.1s"), Some(MoveScore::Mate));
        assert_eq!(comment_score("-M3/9"), Some(MoveScore::Mate));
        assert_eq!(comment_score("book"), None);
        assert_eq!(comment_score("unknown"), None);
        assert_eq!(comment_score(""), None);
        assert_eq!(comment_score("+0.31/ 12"), None);
    }

    const GAME: &str = r#"[White "ladya-dev"]
[Black "ladya-base"]
[Result "1-0"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]

1. e4 {+0.30/10} e5 {-0.25/10} 2. Nf3 {+0.31/11} Nc6 {-0.20/11} 3. Bb5 {+0.33/12}
a6 {-0.30/12} 4. Ba4 {+0.30/12} Nf6 {-0.30/12} 5. O-O {+0.35/13, line=x} Nxe4 {-0.20/13}
6. d4 {+M3/15} b5 {book} 7. Bb3 {unknown} d5 {-0.40/14 0.1s, n=5000, sd=18} 1-0
"#;

    #[test]
    fn keeps_the_positions_datagen_would() {
        let games = parse_pgn(GAME);
        let mut kept = Vec::new();
        assert!(game_records(&games[0], None, &mut |r| kept.push(r)));
        // Plies 0-7: the opening; Nxe4 a capture; d4 a mate score; b5 and Bb3 unscored.
        let scores: Vec<i16> = kept.iter().map(|r| r.white_score()).collect();
        assert_eq!(
            scores,
            vec![35, 40],
            "O-O (+0.35 by White), d5 (-0.40 by Black)"
        );
        assert!(kept
            .iter()
            .all(|r| r.result() == Some(GameResult::WhiteWin)));
        assert_eq!(
            kept[1]
                .to_fen()
                .unwrap()
                .split(' ')
                .take(2)
                .collect::<Vec<_>>(),
            [
                "r1bqkb1r/2pp1ppp/p1n5/1p2p3/3Pn3/1B3N2/PPP2PPP/RNBQ1RK1",
                "b"
            ]
        );
    }

    #[test]
    fn a_named_player_keeps_its_own_moves_only() {
        let games = parse_pgn(GAME);
        let scores = |player| {
            let mut kept = Vec::new();
            assert!(game_records(&games[0], player, &mut |r| kept.push(r)));
            kept.iter().map(|r| r.white_score()).collect::<Vec<i16>>()
        };
        assert_eq!(scores(Some("ladya-dev")), vec![35], "O-O, White's");
        assert_eq!(scores(Some("ladya-base")), vec![40], "d5, Black's");
        assert_eq!(scores(Some("someone else")), Vec::<i16>::new());
    }

    #[test]
    fn a_broken_game_gives_nothing() {
        let unfinished = GAME.replace("1-0", "*");
        let illegal = GAME.replace("Nxe4", "Nxe5");
        for text in [unfinished, illegal] {
            let games = parse_pgn(&text);
            let mut kept = 0;
            assert!(!game_records(&games[0], None, &mut |_| kept += 1));
            assert_eq!(kept, 0);
        }
    }
}
