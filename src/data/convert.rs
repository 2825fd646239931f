//! The text format `FEN | score | result` to packed records.
//!
//! One position per line: a FEN, the search score in centipawns from White's view, and the
//! game result for White (`1.0`, `0.5`, `0.0`), separated by `|` (the format of
//! `../shared/data/selfplay` and `../shared/data/tuning`, and of `ladya datagen --text`).
//! Blank lines and lines starting with `#` are ignored. A line that does not parse is
//! counted and skipped, and the first few are reported with their line numbers: one bad
//! line in two million should not cost the other positions.
//!
//! The input is read in blocks; each block's lines are parsed on all cores and written in
//! input order, so the output is the same whatever the number of threads.

use super::file::{DataError, PackedWriter};
use super::packed::{GameResult, PackedPosition};
use crate::board::{FenError, Position};
use std::fmt;
use std::io::Read;
use std::path::Path;

/// Bytes of text parsed per block.
const BLOCK_BYTES: usize = 8 << 20;
/// Bad lines reported by line number; the rest are only counted.
pub const REPORTED_BAD_LINES: usize = 5;

/// Why one line is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// Not three `|`-separated fields.
    Fields(usize),
    /// The FEN does not parse.
    Fen(FenError),
    /// The score is not an integer in `i16` range.
    Score(String),
    /// The result is not `1.0`, `0.5` or `0.0`.
    Result(String),
    /// The line is not UTF-8.
    Encoding,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Fields(n) => write!(f, "{n} '|'-separated fields (expected 3)"),
            LineError::Fen(e) => write!(f, "bad FEN: {e}"),
            LineError::Score(s) => write!(f, "bad score '{s}' (centipawns, -32768..32767)"),
            LineError::Result(s) => write!(f, "bad result '{s}' (expected 1.0, 0.5 or 0.0)"),
            LineError::Encoding => write!(f, "not UTF-8"),
        }
    }
}

impl std::error::Error for LineError {}

/// Parses one `FEN | score | result` line.
pub fn parse_line(line: &str) -> Result<PackedPosition, LineError> {
    let mut fields = line.split('|');
    let (Some(fen), Some(score), Some(result), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err(LineError::Fields(line.split('|').count()));
    };
    let score = score.trim();
    let score: i16 = score
        .parse()
        .map_err(|_| LineError::Score(score.to_string()))?;
    let result =
        GameResult::parse(result).ok_or_else(|| LineError::Result(result.trim().to_string()))?;
    let pos = Position::from_fen(fen.trim()).map_err(LineError::Fen)?;
    Ok(PackedPosition::new(&pos, score.into(), result))
}

/// What a conversion did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConvertReport {
    /// Lines holding data (not blank, not `#` comments).
    pub read: u64,
    /// Records written.
    pub written: u64,
    /// Lines skipped as bad.
    pub skipped: u64,
    /// The first bad lines: line number (from 1) and why.
    pub first_bad: Vec<(u64, LineError)>,
    /// Records the output held before (it is appended to).
    pub existing: u64,
}

impl fmt::Display for ConvertReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} lines read, {} records written, {} bad lines skipped",
            self.read, self.written, self.skipped
        )?;
        for (line, e) in &self.first_bad {
            write!(f, "\n  line {line}: {e}")?;
        }
        if self.skipped > self.first_bad.len() as u64 {
            write!(
                f,
                "\n  ... and {} more",
                self.skipped - self.first_bad.len() as u64
            )?;
        }
        Ok(())
    }
}

/// The outcome of one slice of lines.
struct Part {
    records: Vec<PackedPosition>,
    lines: u64,
    data_lines: u64,
    bad: Vec<(u64, LineError)>,
    bad_count: u64,
}

/// Parses the lines of `text` (whole lines); line numbers in `bad` count from 0 within it.
fn parse_part(text: &[u8]) -> Part {
    let mut part = Part {
        records: Vec::with_capacity(text.len() / 70),
        lines: 0,
        data_lines: 0,
        bad: Vec::new(),
        bad_count: 0,
    };
    for line in text.split(|&b| b == b'\n') {
        let n = part.lines;
        part.lines += 1;
        let line = match std::str::from_utf8(line) {
            Ok(l) => l.trim(),
            Err(_) => {
                part.data_lines += 1;
                part.bad_count += 1;
                if part.bad.len() < REPORTED_BAD_LINES {
                    part.bad.push((n, LineError::Encoding));
                }
                continue;
            }
        };
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        part.data_lines += 1;
        match parse_line(line) {
            Ok(r) => part.records.push(r),
            Err(e) => {
                part.bad_count += 1;
                if part.bad.len() < REPORTED_BAD_LINES {
                    part.bad.push((n, e));
                }
            }
        }
    }
    // `split` yields one (empty) piece after a final newline: not a line.
    if text.last() == Some(&b'\n') || text.is_empty() {
        part.lines -= 1;
    }
    part
}

/// Splits `block` (ending at a line end) into about `n` pieces at line ends.
fn split_lines(block: &[u8], n: usize) -> Vec<&[u8]> {
    let mut parts = Vec::with_capacity(n);
    let mut rest = block;
    for i in (1..n).rev() {
        let target = rest.len() / (i + 1);
        match rest[target..].iter().position(|&b| b == b'\n') {
            Some(p) => {
                let (head, tail) = rest.split_at(target + p + 1);
                parts.push(head);
                rest = tail;
            }
            None => break,
        }
    }
    parts.push(rest);
    parts
}

/// Converts the text in `input` to records appended to `writer`, parsing on `threads`
/// threads; output order is input order.
pub fn convert_reader(
    input: &mut dyn Read,
    writer: &mut PackedWriter,
    threads: usize,
    input_path: &Path,
) -> Result<ConvertReport, DataError> {
    let threads = threads.max(1);
    let mut report = ConvertReport {
        existing: writer.existing(),
        ..ConvertReport::default()
    };
    let mut line_base = 0u64;
    let mut buf: Vec<u8> = Vec::with_capacity(BLOCK_BYTES + 4096);
    let mut carry: Vec<u8> = Vec::new();
    loop {
        buf.clear();
        buf.append(&mut carry);
        let start = buf.len();
        buf.resize(start + BLOCK_BYTES, 0);
        let mut filled = start;
        while filled < buf.len() {
            match input.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(k) => filled += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(DataError::io(input_path, e)),
            }
        }
        let eof = filled < buf.len();
        buf.truncate(filled);
        if buf.is_empty() {
            break;
        }
        // Keep a trailing partial line for the next block (unless the input ends).
        if !eof {
            match buf.iter().rposition(|&b| b == b'\n') {
                Some(p) => carry.extend_from_slice(&buf[p + 1..]),
                None => {
                    // A line longer than a block: keep reading it.
                    carry.append(&mut buf);
                    continue;
                }
            }
            buf.truncate(buf.len() - carry.len());
        }
        let parts = split_lines(&buf, threads);
        let results: Vec<Part> = if parts.len() == 1 {
            vec![parse_part(parts[0])]
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = parts
                    .iter()
                    .map(|p| s.spawn(move || parse_part(p)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a parser thread panicked"))
                    .collect()
            })
        };
        for mut part in results {
            writer.write_all(&part.records)?;
            report.read += part.data_lines;
            report.written += part.records.len() as u64;
            report.skipped += part.bad_count;
            for (n, e) in part.bad.drain(..) {
                if report.first_bad.len() < REPORTED_BAD_LINES {
                    report.first_bad.push((line_base + n + 1, e));
                }
            }
            line_base += part.lines;
        }
        if eof {
            break;
        }
    }
    writer.flush()?;
    Ok(report)
}

/// Converts the text file `input` to records appended to `output` (created if missing),
/// on all cores.
pub fn convert_file(input: &Path, output: &Path) -> Result<ConvertReport, DataError> {
    let mut file = std::fs::File::open(input).map_err(|e| DataError::io(input, e))?;
    let mut writer = PackedWriter::append(output)?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    convert_reader(&mut file, &mut writer, threads, input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_or_say_why() {
        let line = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | -25 | 0.5";
        let r = parse_line(line).unwrap();
        assert_eq!(r.white_score(), -25);
        assert_eq!(r.result(), Some(GameResult::Draw));
        assert_eq!(parse_line("a | b"), Err(LineError::Fields(2)));
        assert!(matches!(
            parse_line("8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 1.0"),
            Err(LineError::Fen(_))
        ));
        assert_eq!(
            parse_line(&line.replace("-25", "40000")),
            Err(LineError::Score("40000".into()))
        );
        assert_eq!(
            parse_line(&line.replace("0.5", "draw")),
            Err(LineError::Result("draw".into()))
        );
    }

    #[test]
    fn parts_split_at_line_ends_and_count_lines() {
        let text = b"a\nbb\nccc\ndddd\n";
        for n in 1..6 {
            let parts = split_lines(text, n);
            assert_eq!(parts.concat(), text.to_vec());
            assert!(parts.iter().all(|p| p.is_empty() || p.ends_with(b"\n")));
            let lines: u64 = parts.iter().map(|p| parse_part(p).lines).sum();
            assert_eq!(lines, 4, "{n} parts");
        }
        assert_eq!(parse_part(b"a\nb").lines, 2);
    }
}
