//! `ladya go`: one search from a terminal, with the principal variation in SAN.

use super::args::SearchLimit;
use anyhow::{Context, Result};
use ladya::search::{Score, SearchControl, SearchEvent, SearchInfo, Searcher};
use ladya::{Move, Position};

/// The moves of `pv` from `pos` in SAN, with move numbers.
fn san_line(pos: &Position, pv: &[Move]) -> String {
    let mut pos = pos.clone();
    let mut text = String::new();
    for (i, &mv) in pv.iter().enumerate() {
        if !pos.is_legal(mv) {
            break;
        }
        let number = pos.fullmove_number();
        if pos.side_to_move() == ladya::Color::White {
            text.push_str(&format!("{number}. "));
        } else if i == 0 {
            text.push_str(&format!("{number}... "));
        }
        text.push_str(&pos.to_san(mv));
        text.push(' ');
        pos.make_move(mv);
    }
    text.trim_end().to_string()
}

/// A score as a person reads it: `+0.35`, `#3`, `#-2`.
pub fn score_text(score: Score) -> String {
    match score {
        // Tablebase results are scored beyond any evaluation (`TB_WIN - ply`).
        Score::Cp(cp) if cp >= ladya::search::DECISIVE => "TB win".to_string(),
        Score::Cp(cp) if cp <= -ladya::search::DECISIVE => "TB loss".to_string(),
        Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Score::Mate(n) => format!("#{n}"),
    }
}

fn progress_line(pos: &Position, info: &SearchInfo) -> String {
    let secs = info.time.as_secs_f64();
    format!(
        "{:>3}/{:<3} {:>7} {:>11} nodes {:>6.0} knps {:>8.3} s  {}",
        info.depth,
        info.seldepth,
        score_text(info.score),
        info.nodes,
        info.nodes as f64 / secs.max(1e-6) / 1000.0,
        secs,
        san_line(pos, &info.pv)
    )
}

/// Runs `ladya go`: a line whenever the principal variation changes, then the board.
pub fn run(fen: Option<&str>, limit: SearchLimit, hash: usize, threads: usize) -> Result<()> {
    let pos = match fen {
        Some(f) => Position::from_fen(f).with_context(|| format!("invalid FEN '{f}'"))?,
        None => Position::startpos(),
    };
    say!("{pos}");
    say!(
        "{:<7} {:>7} {:>17} {:>11} {:>10}  pv",
        "depth",
        "score",
        "nodes",
        "speed",
        "time"
    );
    let mut searcher = Searcher::new(hash);
    searcher.set_threads(threads);
    let control = SearchControl::default();
    // A line is printed when the score or the line changes, not once per iteration (a
    // found mate would otherwise repeat itself up to the depth limit).
    let mut shown: Option<(Score, Vec<Move>)> = None;
    let mut last: Option<SearchInfo> = None;
    let result = searcher.search(&pos, &limit.limits(), &control, &mut |event| {
        if let SearchEvent::Info(info) = event {
            let key = (info.score, info.pv.clone());
            if shown.as_ref() != Some(&key) {
                say!("{}", progress_line(&pos, &info));
                shown = Some(key);
                last = None;
            } else {
                last = Some(info);
            }
        }
    });
    if let Some(info) = &last {
        say!("{}", progress_line(&pos, info));
    }
    let Some(best) = result.best else {
        say!(
            "no legal move: {}",
            if pos.in_check() {
                "checkmate"
            } else {
                "stalemate"
            }
        );
        return Ok(());
    };
    let mut after = pos.clone();
    after.make_move(best);
    say!("");
    say!("{after}");
    say!("best move: {} ({})", pos.to_san(best), best.to_uci(false));
    if let Some(info) = &result.info {
        say!(
            "score {}, depth {}, line {}",
            score_text(info.score),
            info.depth,
            san_line(&pos, &info.pv)
        );
    }
    Ok(())
}
