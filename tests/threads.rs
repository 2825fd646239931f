//! Every thread of the engine at work in one process, so that ThreadSanitizer sees them all
//! (`make tsan` runs this file instrumented): the UCI reader, the engine thread, the search
//! thread and the Lazy SMP helpers, with `stop` mid-search, `ucinewgame` and `Clear Hash`
//! sent during a search and between searches, and `Threads` and `Hash` changed between
//! them. Without the sanitizer it checks that every `go` is answered and `quit` ends it all.

use crossbeam_channel::{unbounded, Receiver, Sender};
use ladya::uci::{self, output::Output};
use std::io::{Read, Write};
use std::thread;
use std::time::{Duration, Instant};

/// The engine's standard input: lines sent through a channel.
struct Input {
    lines: Receiver<String>,
    pending: Vec<u8>,
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            match self.lines.recv() {
                Ok(line) => self.pending = format!("{line}\n").into_bytes(),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// The engine's standard output: each line sent through a channel.
struct Lines {
    out: Sender<String>,
    partial: Vec<u8>,
}

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(at) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=at).collect();
            let _ = self
                .out
                .send(String::from_utf8_lossy(&line).trim_end().to_string());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// An engine running in this process.
struct Engine {
    input: Sender<String>,
    output: Receiver<String>,
    thread: thread::JoinHandle<()>,
}

/// Generous: an instrumented build runs many times slower than a release build.
const ANSWER_WITHIN: Duration = Duration::from_secs(120);

impl Engine {
    fn start() -> Engine {
        let (input, lines) = unbounded();
        let (out, output) = unbounded();
        let thread = thread::spawn(move || {
            let sink = Lines {
                out,
                partial: Vec::new(),
            };
            let reader = Input {
                lines,
                pending: Vec::new(),
            };
            uci::run(reader, Output::new(Box::new(sink)));
        });
        Engine {
            input,
            output,
            thread,
        }
    }

    fn send(&self, line: &str) {
        self.input.send(line.to_string()).unwrap();
    }

    /// Waits for a line starting with `prefix`; the lines before it are returned too.
    fn expect(&self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + ANSWER_WITHIN;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no `{prefix}` within {ANSWER_WITHIN:?}; got {seen:?}"),
            }
        }
    }

    fn ready(&self) {
        self.send("isready");
        self.expect("readyok");
    }
}

const FENS: [&str; 4] = [
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/2R3K1 b - - 0 1",
];

#[test]
fn helpers_stop_clear_and_resize_under_every_thread() {
    let e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    e.send("setoption name Threads value 4");
    e.send("setoption name Hash value 8");
    e.ready();

    // `stop` in the middle of a parallel search.
    e.send("position startpos moves e2e4 e7e5");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(50));
    e.send("stop");
    e.expect("bestmove");

    // `ucinewgame` and `Clear Hash` while the helpers search: queued until `bestmove`,
    // then carried out before the next command.
    e.send(&format!("position fen {}", FENS[0]));
    e.send("go depth 40");
    thread::sleep(Duration::from_millis(30));
    e.send("setoption name Clear Hash");
    e.send("ucinewgame");
    e.send("stop");
    e.expect("bestmove");
    e.ready();

    // Between searches: the threads and the table change, searches end by themselves.
    for (i, (threads, hash)) in [(2, 1), (3, 16), (1, 4), (4, 2)].into_iter().enumerate() {
        e.send(&format!("setoption name Threads value {threads}"));
        e.send(&format!("setoption name Hash value {hash}"));
        e.send(&format!("position fen {}", FENS[i % FENS.len()]));
        e.send("go nodes 20000");
        e.expect("bestmove");
        e.send("ucinewgame");
        e.send("setoption name Clear Hash");
        e.send(&format!("position fen {}", FENS[(i + 1) % FENS.len()]));
        e.send("go movetime 50");
        e.expect("bestmove");
    }

    // `quit` during a search ends every thread.
    e.send("setoption name Threads value 3");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(20));
    e.send("quit");
    let deadline = Instant::now() + ANSWER_WITHIN;
    while !e.thread.is_finished() {
        assert!(Instant::now() < deadline, "quit did not end the engine");
        thread::sleep(Duration::from_millis(5));
    }
    e.thread.join().unwrap();
}
