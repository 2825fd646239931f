//! Formatting what the engine says: `info`, `bestmove`, and the shared, line-atomic
//! output that the engine and search threads both write to.

use crate::board::Position;
use crate::chess_move::Move;
use crate::search::{wdl, Bound, Score, SearchInfo};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Where the engine's lines go. Cloned into the search thread; each line is written and
/// flushed under one lock, so lines from different threads never interleave.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Output to `sink`.
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    /// Output to stdout.
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Writes one line. A closed pipe is not an error worth crashing for: the GUI is gone
    /// and end of input will follow.
    pub fn line(&self, text: &str) {
        let mut sink = match self.sink.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(sink, "{text}");
        let _ = sink.flush();
    }

    /// Writes `info string <text>` for each line of `text`.
    pub fn info_string(&self, text: &str) {
        for l in text.lines() {
            self.line(&format!("info string {l}"));
        }
    }

    /// Writes `info string error: <text>`.
    pub fn error(&self, text: impl std::fmt::Display) {
        self.line(&format!("info string error: {text}"));
    }
}

/// The UCI score text: `cp 35`, `mate -3`.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// Nodes per second, safe for a zero time.
pub fn nps(nodes: u64, micros: u128) -> u64 {
    (nodes as u128 * 1_000_000 / micros.max(1)).min(u64::MAX as u128) as u64
}

/// The longest prefix of `pv` that is legal from `pos`. The search promises a legal PV;
/// checking again here costs nothing next to a search and guarantees the GUI never sees
/// an illegal move.
pub fn legal_prefix(pos: &Position, pv: &[Move]) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut legal = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !pos.is_legal(mv) {
            break;
        }
        pos.make_move(mv);
        legal.push(mv);
    }
    legal
}

/// How `info` lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InfoStyle {
    /// Castling as the king taking its rook (`UCI_Chess960`).
    pub chess960: bool,
    /// `wdl W D L` after the score (`UCI_ShowWDL`).
    pub show_wdl: bool,
}

/// The `info depth … pv …` line of one principal variation from `pos`.
pub fn info_line(info: &SearchInfo, pos: &Position, style: InfoStyle) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth.max(info.depth),
        info.multipv.max(1),
        score_text(info.score)
    );
    // The bound belongs to the score (UCI: `score cp <x> [lowerbound|upperbound]`), before
    // `wdl`: python-chess reads no bound that comes after it.
    match info.bound {
        Bound::Exact => {}
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
    }
    if style.show_wdl {
        let c = wdl::win_chances(info.score, wdl::material(pos));
        s.push_str(&format!(" wdl {} {} {}", c.win, c.draw, c.loss));
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} time {}",
        info.nodes,
        nps(info.nodes, info.time.as_micros()),
        info.hashfull.min(1000),
        info.time.as_millis()
    ));
    // Only engines with tables loaded have hits; the others leave the field out.
    if info.tbhits > 0 {
        s.push_str(&format!(" tbhits {}", info.tbhits));
    }
    let pv = legal_prefix(pos, &info.pv);
    if !pv.is_empty() {
        s.push_str(" pv");
        for mv in pv {
            s.push(' ');
            s.push_str(&mv.to_uci(style.chess960));
        }
    }
    s
}

/// The `info depth … currmove … currmovenumber …` line.
pub fn currmove_line(depth: u32, mv: Move, number: usize, chess960: bool) -> String {
    format!(
        "info depth {depth} currmove {} currmovenumber {number}",
        mv.to_uci(chess960)
    )
}

/// The `bestmove` line; `(none)` when there is no legal move.
pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>, chess960: bool) -> String {
    match (best, ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), None) => format!("bestmove {}", b.to_uci(chess960)),
        (Some(b), Some(p)) => format!(
            "bestmove {} ponder {}",
            b.to_uci(chess960),
            p.to_uci(chess960)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn info_line_format() {
        let pos = Position::startpos();
        let e4 = pos.parse_uci_move("e2e4").unwrap();
        let mut info = SearchInfo {
            depth: 3,
            seldepth: 5,
            multipv: 1,
            score: Score::Mate(-2),
            bound: Bound::Lower,
            nodes: 1000,
            tbhits: 0,
            time: Duration::from_millis(500),
            hashfull: 7,
            // The second e2e4 is illegal after the first and must be cut.
            pv: vec![e4, e4],
        };
        assert_eq!(
            info_line(&info, &pos, InfoStyle::default()),
            "info depth 3 seldepth 5 multipv 1 score mate -2 lowerbound nodes 1000 nps 2000 \
             hashfull 7 time 500 pv e2e4"
        );
        let wdl = InfoStyle {
            show_wdl: true,
            ..InfoStyle::default()
        };
        assert_eq!(
            info_line(&info, &pos, wdl),
            "info depth 3 seldepth 5 multipv 1 score mate -2 lowerbound wdl 0 0 1000 nodes 1000 \
             nps 2000 hashfull 7 time 500 pv e2e4"
        );
        info.tbhits = 12;
        assert_eq!(
            info_line(&info, &pos, InfoStyle::default()),
            "info depth 3 seldepth 5 multipv 1 score mate -2 lowerbound nodes 1000 nps 2000 \
             hashfull 7 time 500 tbhits 12 pv e2e4"
        );
    }

    #[test]
    fn bestmove_format() {
        assert_eq!(bestmove_line(None, None, false), "bestmove (none)");
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let oo = pos.parse_uci_move("e1g1").unwrap();
        assert_eq!(bestmove_line(Some(oo), None, false), "bestmove e1g1");
        assert_eq!(bestmove_line(Some(oo), None, true), "bestmove e1h1");
    }
}
