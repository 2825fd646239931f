//! The UCI front end: the only part of the engine that reads commands and prints.
//!
//! Threads: a reader thread turns input lines into typed commands (`command.rs`) and sends
//! them over a channel to the engine thread (`engine.rs`), which owns the game state and
//! starts each search on a search thread. Search threads report progress through
//! `SearchEvent`s, formatted here (`output.rs`), and hand their result back over the same
//! channel, so the engine thread is never blocked by a search.

pub mod command;
mod engine;
pub mod go;
pub mod options;
pub mod output;
pub mod parse_error;
mod search_run;
#[cfg(feature = "tune")]
mod tunables;

use command::{Command, CommandError};
use crossbeam_channel::Sender;
use engine::Engine;
use output::Output;
use search_run::Finished;
use std::io::Read;
use std::thread;

/// Longest input line kept; the rest of a longer line is dropped. A 10,000-move
/// `position` line is about 50 KB.
const MAX_LINE_BYTES: usize = 4 << 20;

/// What reaches the engine thread.
pub(crate) enum Msg {
    /// A parsed command.
    Command(Command),
    /// A line that could not be parsed.
    Error(CommandError),
    /// A search thread finished.
    SearchDone(Box<Finished>),
    /// Standard input closed: quit.
    EndOfInput,
    /// All commands given on the command line were sent: quit once idle.
    EndOfScript,
}

/// The line printed when the engine starts on a terminal or under a GUI (GUIs ignore it).
pub fn banner() -> String {
    format!(
        "Ladya {} by the Ladya developers (UCI; type help for the commands)",
        env!("CARGO_PKG_VERSION")
    )
}

/// Runs the UCI loop on standard input and output until `quit` or end of input, after
/// the [`banner`].
pub fn run_stdio() {
    let out = Output::stdout();
    out.line(&banner());
    run(std::io::stdin(), out);
}

/// Runs the UCI loop reading commands from `input` and writing to `out`, until `quit` or
/// end of input.
pub fn run(input: impl Read + Send + 'static, out: Output) {
    let (tx, rx) = crossbeam_channel::unbounded();
    let reader_tx = tx.clone();
    let reader = thread::Builder::new()
        .name("uci-reader".to_string())
        .spawn(move || read_commands(input, &reader_tx));
    if reader.is_err() {
        out.error("cannot start the input thread");
        return;
    }
    // The reader blocks on input and is not joined: the process ends with the engine.
    Engine::new(out, tx).run(rx);
}

/// Runs the given lines as UCI commands in order (OpenBench's `ladya "setoption …" bench`),
/// waits for a search they started to finish, then returns.
pub fn run_script(lines: &[String], out: Output) {
    let (tx, rx) = crossbeam_channel::unbounded();
    for line in lines {
        for l in line.split(['\n', '\r']) {
            send_line(l, &tx);
        }
    }
    let _ = tx.send(Msg::EndOfScript);
    Engine::new(out, tx).run(rx);
}

/// The reader thread: splits input on LF, CR or CRLF and parses each line.
fn read_commands(mut input: impl Read, tx: &Sender<Msg>) {
    let mut buf = vec![0u8; 1 << 16];
    let mut line: Vec<u8> = Vec::new();
    // A line cut short could parse as a different command (a shorter `position`): one
    // that is too long is rejected whole.
    let mut too_long = false;
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        for &b in &buf[..n] {
            if b == b'\n' || b == b'\r' {
                let sent = if too_long {
                    tx.send(Msg::Error(CommandError::LineTooLong(MAX_LINE_BYTES)))
                        .is_ok()
                } else {
                    send_line(&String::from_utf8_lossy(&line), tx)
                };
                if !sent {
                    return;
                }
                line.clear();
                too_long = false;
            } else if line.len() < MAX_LINE_BYTES {
                line.push(b);
            } else {
                too_long = true;
            }
        }
    }
    if !too_long {
        send_line(&String::from_utf8_lossy(&line), tx);
    }
    let _ = tx.send(Msg::EndOfInput);
}

/// Parses and sends one line, what its command skipped first; false when the engine is
/// gone.
fn send_line(line: &str, tx: &Sender<Msg>) -> bool {
    let mut warnings = Vec::new();
    let parsed = command::parse_reporting(line, &mut warnings);
    for w in warnings {
        if tx.send(Msg::Error(w)).is_err() {
            return false;
        }
    }
    let msg = match parsed {
        Ok(Some(c)) => Msg::Command(c),
        Ok(None) => return true,
        Err(e) => Msg::Error(e),
    };
    tx.send(msg).is_ok()
}
