//! Parsing UCI input lines into typed commands.
//!
//! Parsing needs no game state, so it runs on the stdin reader thread. Moves stay text
//! here: only the engine, which owns the position, can tell whether they are legal.
//! Following the UCI spec, unknown leading tokens are skipped (`joho debug on` is `debug
//! on`); a line with no known command at all is an error ([`CommandError::Unknown`]), so a
//! person who mistypes learns of it. Within a command, a token it does not know or a
//! parameter it cannot read is skipped and the rest is used, as the protocol asks, and
//! each is reported ([`parse_reporting`]'s warnings): `go` itself is never rejected,
//! because a GUI waits for its `bestmove`.

use super::go::parse_go;
pub use super::go::{GoParams, GO_KEYWORDS};
pub use super::parse_error::CommandError;
use super::parse_error::{number, unknown};
use crate::datagen::genfens::GenfensRequest;

/// Where `position` starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPos {
    /// `position startpos`.
    Startpos,
    /// `position fen <fen>`: the FEN's fields, joined by single spaces.
    Fen(String),
}

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option name as given (matched case-insensitively later).
        name: String,
        /// The value, if any.
        value: Option<String>,
    },
    /// `register …`: accepted and ignored.
    Register,
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen <fen> [moves …]`.
    Position {
        /// The starting position.
        start: StartPos,
        /// The moves played from it (UCI text).
        moves: Vec<String>,
    },
    /// `go …`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: show the board, FEN and key.
    Display,
    /// `eval`: show the static evaluation.
    Eval,
    /// `bench [depth]`.
    Bench(Option<u32>),
    /// `perft <depth>`.
    Perft(u32),
    /// `genfens N seed S book <None|FILE> [extra]`: openings for OpenBench's DATAGEN.
    Genfens(GenfensRequest),
    /// `help`: list the commands.
    Help,
}

/// The words that start a command.
pub const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
    "perft",
    "genfens",
    "help",
];

/// Parses one input line. `Ok(None)` means there is nothing to do (an empty line).
/// Tokens skipped within the command are not reported: see [`parse_reporting`].
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    parse_reporting(line, &mut Vec::new())
}

/// [`parse`], with what was skipped inside the command (unknown tokens, unreadable
/// numbers) pushed to `warnings`: the command still runs with the rest.
pub fn parse_reporting(
    line: &str,
    warnings: &mut Vec<CommandError>,
) -> Result<Option<Command>, CommandError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.is_empty() {
        return Ok(None);
    }
    let Some(start) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
        return Err(CommandError::Unknown(shortened(line.trim())));
    };
    let args = &tokens[start + 1..];
    let command = match tokens[start] {
        "uci" => Command::Uci,
        "debug" => Command::Debug(args.first() != Some(&"off")),
        "isready" => Command::IsReady,
        "setoption" => parse_setoption(args, warnings)?,
        "register" => Command::Register,
        "ucinewgame" => Command::UciNewGame,
        "position" => parse_position(args, warnings)?,
        "go" => Command::Go(parse_go(args, warnings)),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "bench" => Command::Bench(match args.first() {
            Some(t) => Some(number(t, "bench depth")?),
            None => None,
        }),
        "perft" => {
            let t = args.first().ok_or(CommandError::Missing {
                command: "perft",
                what: "depth",
            })?;
            Command::Perft(number(t, "perft depth")?)
        }
        "genfens" => Command::Genfens(
            GenfensRequest::parse(args).map_err(|e| CommandError::Genfens(e.to_string()))?,
        ),
        "help" => Command::Help,
        _ => return Ok(None),
    };
    Ok(Some(command))
}

/// Longest piece of an unknown line quoted back.
const QUOTED_CHARS: usize = 60;

/// `line`, cut to [`QUOTED_CHARS`] characters for an error message.
fn shortened(line: &str) -> String {
    match line.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    }
}

/// What `help` prints: the UCI commands and Ladya's own, one per line.
pub const HELP: &[&str] = &[
    "Ladya speaks UCI. Commands:",
    "  uci                    engine name, author and options",
    "  isready                answers readyok",
    "  setoption name N value V   set an option (see uci for the list)",
    "  ucinewgame             a new game: clears the hash and history",
    "  position startpos|fen FEN [moves M1 M2 ...]",
    "  go [depth N] [nodes N] [movetime MS] [wtime MS btime MS winc MS binc MS movestogo N]",
    "     [mate N] [infinite] [ponder] [searchmoves M1 M2 ...]",
    "  stop, ponderhit, quit",
    "Ladya's own:",
    "  d                      the board, FEN and key",
    "  eval                   the evaluation and its terms",
    "  bench [depth]          fixed search of the bench positions: nodes and nps",
    "  perft N                leaf count of the move tree to depth N",
    "  genfens N seed S book None|FILE [plies=N] [nodes=N] [maxscore=CP]",
    "                         N balanced openings (OpenBench's DATAGEN)",
    "  help                   this list",
    "From a shell: ladya help (perft, bench, go, epd, analyse, book, datagen, data, train).",
];

/// `name` and `value` may contain spaces: the name runs up to the token `value`.
fn parse_setoption(
    args: &[&str],
    warnings: &mut Vec<CommandError>,
) -> Result<Command, CommandError> {
    let missing = CommandError::Missing {
        command: "setoption",
        what: "name",
    };
    let name_at = args
        .iter()
        .position(|t| t.eq_ignore_ascii_case("name"))
        .ok_or(missing.clone())?;
    warnings.extend(args[..name_at].iter().map(|t| unknown("setoption", t)));
    let rest = &args[name_at + 1..];
    let value_at = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name, value) = match value_at {
        Some(v) => (&rest[..v], Some(rest[v + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(missing);
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(
    args: &[&str],
    warnings: &mut Vec<CommandError>,
) -> Result<Command, CommandError> {
    // Unknown tokens before `startpos` or `fen` are skipped.
    let known = args
        .iter()
        .position(|t| ["startpos", "fen", "moves"].contains(t))
        .unwrap_or(args.len());
    if known == args.len() {
        if let Some(first) = args.first() {
            return Err(CommandError::Unexpected {
                command: "position",
                token: first.to_string(),
            });
        }
    }
    warnings.extend(args[..known].iter().map(|t| unknown("position", t)));
    let args = &args[known..];
    let moves_at = args.iter().position(|t| *t == "moves");
    let (setup, moves) = match moves_at {
        Some(m) => (&args[..m], &args[m + 1..]),
        None => (args, &[][..]),
    };
    let start = match setup.first() {
        Some(&"startpos") => {
            warnings.extend(setup[1..].iter().map(|t| unknown("position", t)));
            StartPos::Startpos
        }
        Some(&"fen") if setup.len() > 1 => StartPos::Fen(setup[1..].join(" ")),
        Some(&"fen") => {
            return Err(CommandError::Missing {
                command: "position",
                what: "FEN",
            })
        }
        Some(other) => {
            return Err(CommandError::Unexpected {
                command: "position",
                token: other.to_string(),
            })
        }
        None => {
            return Err(CommandError::Missing {
                command: "position",
                what: "'startpos' or 'fen'",
            })
        }
    };
    Ok(Command::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;
    use std::time::Duration;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    /// The command and what parsing it skipped.
    fn warned(line: &str) -> (Command, Vec<CommandError>) {
        let mut warnings = Vec::new();
        let c = parse_reporting(line, &mut warnings).unwrap().unwrap();
        (c, warnings)
    }

    #[test]
    fn unknown_tokens_are_skipped_and_reported() {
        let (Command::Go(g), w) = warned("go depth 3 foo") else {
            panic!()
        };
        assert_eq!(g.depth, Some(3));
        assert_eq!(w, [unknown("go", "foo")]);
        assert_eq!(w[0].to_string(), "unknown token 'foo' in go");
        let (Command::Go(g), w) = warned("go foo") else {
            panic!()
        };
        assert!(g.is_unlimited());
        assert_eq!(w, [unknown("go", "foo")]);
        assert_eq!(
            warned("position startpos bar moves e2e4"),
            (
                Command::Position {
                    start: StartPos::Startpos,
                    moves: vec!["e2e4".into()]
                },
                vec![unknown("position", "bar")]
            )
        );
        assert_eq!(
            warned("position bar startpos").1,
            [unknown("position", "bar")]
        );
        assert_eq!(
            warned("setoption baz name Hash value 8"),
            (
                Command::SetOption {
                    name: "Hash".into(),
                    value: Some("8".into())
                },
                vec![unknown("setoption", "baz")]
            )
        );
        assert!(warned("go depth 3 movetime 10").1.is_empty());
    }

    #[test]
    fn the_clock_is_the_side_to_moves() {
        let Command::Go(g) = ok("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5") else {
            panic!()
        };
        let black = g.clock(Color::Black);
        assert_eq!(black.time, Some(Duration::from_millis(2000)));
        assert_eq!(black.inc, Duration::from_millis(20));
        assert_eq!(black.movestogo, Some(5));
        assert_eq!(black.movetime, None);
        // Only Black's clock with White to move: White plays on the same clock.
        let Command::Go(g) = ok("go btime 100") else {
            panic!()
        };
        assert_eq!(g.clock(Color::White).time, Some(Duration::from_millis(100)));
        // No clock at all: no clock time, whatever else is given.
        let Command::Go(g) = ok("go depth 5 movetime 300") else {
            panic!()
        };
        let c = g.clock(Color::White);
        assert_eq!(
            (c.time, c.movetime),
            (None, Some(Duration::from_millis(300)))
        );
    }

    #[test]
    fn unknown_lines_are_reported() {
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(parse(" \t ").unwrap(), None);
        assert_eq!(parse("xboard"), Err(CommandError::Unknown("xboard".into())));
        assert_eq!(
            parse("protover 2"),
            Err(CommandError::Unknown("protover 2".into()))
        );
        let long = "x".repeat(500);
        let Err(CommandError::Unknown(quoted)) = parse(&long) else {
            panic!("not reported")
        };
        assert_eq!(quoted.len(), QUOTED_CHARS + 3);
        assert_eq!(ok("help"), Command::Help);
        assert_eq!(ok("joho debug on"), Command::Debug(true));
        assert_eq!(ok("  isready \r"), Command::IsReady);
    }

    #[test]
    fn setoption_with_spaces() {
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            ok("setoption name Move Overhead value 100"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            ok("setoption name BookFile value /tmp/my book.bin"),
            Command::SetOption {
                name: "BookFile".into(),
                value: Some("/tmp/my book.bin".into())
            }
        );
        assert!(parse("setoption").is_err());
    }

    #[test]
    fn position() {
        assert_eq!(
            ok("position startpos moves e2e4 e7e5"),
            Command::Position {
                start: StartPos::Startpos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
        assert_eq!(
            ok("position fen 8/8/8/8/8/8/8/K6k w - - 0 1"),
            Command::Position {
                start: StartPos::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec![]
            }
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position banana").is_err());
    }

    #[test]
    fn go() {
        let Command::Go(g) =
            ok("go wtime 1000 btime -5 winc 10 movestogo 3 searchmoves e2e4 d2d4 ponder")
        else {
            panic!()
        };
        assert_eq!(g.wtime, Some(1000));
        assert_eq!(g.btime, Some(0));
        assert_eq!(g.winc, Some(10));
        assert_eq!(g.movestogo, Some(3));
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
        assert!(g.ponder && !g.is_unlimited());
        let Command::Go(g) = ok("go") else { panic!() };
        assert!(g.is_unlimited());
        let (Command::Go(g), w) = warned("go depth x nodes 5") else {
            panic!()
        };
        assert_eq!(g.nodes, Some(5));
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn go_numbers_too_long_for_i64_saturate() {
        let (Command::Go(g), w) =
            warned("go depth 99999999999999999999 wtime -99999999999999999999 nodes +7 mate 1e3")
        else {
            panic!()
        };
        assert_eq!(g.depth, Some(u32::MAX));
        assert_eq!(g.wtime, Some(0));
        assert_eq!(g.nodes, Some(7));
        assert_eq!(g.mate, None);
        assert_eq!(w.len(), 1);
        assert!(!g.is_unlimited());
    }
}
