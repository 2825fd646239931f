//! `go`: its parameters, as the GUI sends them, and the clock they make for the search.

use super::parse_error::{unknown, CommandError};
use crate::search::time::Clock;
use crate::types::Color;
use std::time::Duration;

/// The parameters of `go`. Times are in milliseconds; negative clock values (some GUIs
/// send them after a late move) are read as zero.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Restrict the search to these root moves (UCI text).
    pub searchmoves: Vec<String>,
    /// `go ponder`: search the expected reply until `ponderhit` or `stop`.
    pub ponder: bool,
    /// White's clock.
    pub wtime: Option<u64>,
    /// Black's clock.
    pub btime: Option<u64>,
    /// White's increment.
    pub winc: Option<u64>,
    /// Black's increment.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u64>,
    /// Maximum depth.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Exact time for this move.
    pub movetime: Option<u64>,
    /// `go infinite`.
    pub infinite: bool,
}

impl GoParams {
    /// True when a clock parameter was given (the search is then timed from the clock).
    pub fn has_clock(&self) -> bool {
        self.wtime.is_some()
            || self.btime.is_some()
            || self.winc.is_some()
            || self.binc.is_some()
            || self.movestogo.is_some()
    }

    /// The clock numbers for `side` to move. With only the opponent's clock given (a GUI
    /// bug), ours is taken to be the same rather than searching without limit.
    pub fn clock(&self, side: Color) -> Clock {
        let (mine, theirs, inc) = match side {
            Color::White => (self.wtime, self.btime, self.winc),
            Color::Black => (self.btime, self.wtime, self.binc),
        };
        Clock {
            movetime: self.movetime.map(Duration::from_millis),
            time: self
                .has_clock()
                .then(|| Duration::from_millis(mine.or(theirs).unwrap_or(0))),
            inc: Duration::from_millis(inc.unwrap_or(0)),
            movestogo: self.movestogo,
        }
    }

    /// True when nothing limits the search, so a bare `go` is `go infinite`.
    pub fn is_unlimited(&self) -> bool {
        self.infinite
            || !(self.has_clock()
                || self.depth.is_some()
                || self.nodes.is_some()
                || self.mate.is_some()
                || self.movetime.is_some())
    }
}

/// The keywords of `go`; `searchmoves` lists moves up to the next of these.
pub const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// An integer in decimal, clamped to the range of `i64` when it has more digits than fit:
/// `go depth 99999999999999999999` asks for "as deep as you can", not for no limit at all.
fn saturating_integer(text: &str) -> Option<i64> {
    if let Ok(n) = text.parse::<i64>() {
        return Some(n);
    }
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(if text.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    })
}

pub(super) fn parse_go(args: &[&str], warnings: &mut Vec<CommandError>) -> GoParams {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        match key {
            "searchmoves" => {
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    go.searchmoves.push(args[i].to_string());
                    i += 1;
                }
            }
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate"
            | "movetime" => {
                let Some(text) = args.get(i).filter(|t| !GO_KEYWORDS.contains(t)) else {
                    warnings.push(CommandError::Missing {
                        command: "go",
                        what: "a number",
                    });
                    continue;
                };
                i += 1;
                match saturating_integer(text) {
                    Some(n) => {
                        let n = n.max(0) as u64;
                        let small = n.min(u32::MAX as u64) as u32;
                        match key {
                            "wtime" => go.wtime = Some(n),
                            "btime" => go.btime = Some(n),
                            "winc" => go.winc = Some(n),
                            "binc" => go.binc = Some(n),
                            "movestogo" => go.movestogo = Some(n),
                            "depth" => go.depth = Some(small),
                            "nodes" => go.nodes = Some(n),
                            "mate" => go.mate = Some(small),
                            _ => go.movetime = Some(n),
                        }
                    }
                    None => warnings.push(CommandError::BadNumber {
                        what: key.to_string(),
                        text: text.to_string(),
                    }),
                }
            }
            _ => warnings.push(unknown("go", key)),
        }
    }
    go
}
