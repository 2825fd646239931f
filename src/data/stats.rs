//! What a file of packed records holds (`ladya data stats FILE`): the count, the result
//! split, a score histogram, the side to move, the number of pieces, and how many records
//! are corrupt (they fail [`PackedPosition::validate`]; the other figures count only the
//! valid ones).

use super::file::{DataError, PackedReader};
use super::packed::{GameResult, PackedPosition};
use crate::types::Color;
use std::fmt;
use std::path::Path;

/// Width of a histogram bucket in centipawns.
pub const BUCKET_CP: i32 = 100;
/// Scores from `-HISTOGRAM_CP` to `HISTOGRAM_CP` get buckets; the rest go to two outer ones.
pub const HISTOGRAM_CP: i32 = 2000;
/// Buckets inside the range.
const INNER_BUCKETS: usize = (2 * HISTOGRAM_CP / BUCKET_CP) as usize;
/// Records read and checked at a time.
const CHUNK: usize = 1 << 18;
/// Longest histogram bar in characters.
const BAR: u64 = 50;

/// The figures of a set of records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Records seen.
    pub records: u64,
    /// Records that are not a legal position or have a corrupt field.
    pub corrupt: u64,
    /// Games White won, drew, lost.
    pub results: [u64; 3],
    /// Records with White, Black to move.
    pub side_to_move: [u64; 2],
    /// Records per number of pieces on the board (kings included), index 0..=32.
    pub pieces: [u64; 33],
    /// Score histogram, White's view: bucket 0 below `-HISTOGRAM_CP`, then
    /// `BUCKET_CP`-wide buckets, and the last at or above `HISTOGRAM_CP`.
    pub histogram: Vec<u64>,
    /// Sum of scores (for the mean).
    pub score_sum: i64,
    /// Records per absolute score, 0..=32768 (for the median).
    abs_scores: Vec<u64>,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            records: 0,
            corrupt: 0,
            results: [0; 3],
            side_to_move: [0; 2],
            pieces: [0; 33],
            histogram: vec![0; INNER_BUCKETS + 2],
            score_sum: 0,
            abs_scores: vec![0; 32769],
        }
    }
}

impl Stats {
    /// The figures of `records`, checked on all cores.
    pub fn of(records: &[PackedPosition]) -> Stats {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let per = records.len().div_ceil(threads).max(1);
        if records.len() < 4096 || threads == 1 {
            let mut s = Stats::default();
            records.iter().for_each(|r| s.add(r));
            return s;
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = records
                .chunks(per)
                .map(|part| {
                    scope.spawn(move || {
                        let mut s = Stats::default();
                        part.iter().for_each(|r| s.add(r));
                        s
                    })
                })
                .collect();
            let mut total = Stats::default();
            for h in handles {
                total.merge(&h.join().expect("a stats thread panicked"));
            }
            total
        })
    }

    /// Counts one record.
    pub fn add(&mut self, record: &PackedPosition) {
        self.records += 1;
        let (Ok(_), Some(result)) = (record.validate(), record.result()) else {
            self.corrupt += 1;
            return;
        };
        self.results[match result {
            GameResult::WhiteWin => 0,
            GameResult::Draw => 1,
            GameResult::BlackWin => 2,
        }] += 1;
        self.side_to_move[(record.side_to_move() == Color::Black) as usize] += 1;
        self.pieces[record.occupancy().count().min(32) as usize] += 1;
        let score = i32::from(record.white_score());
        self.score_sum += i64::from(score);
        self.abs_scores[score.unsigned_abs() as usize] += 1;
        let bucket = if score < -HISTOGRAM_CP {
            0
        } else if score >= HISTOGRAM_CP {
            INNER_BUCKETS + 1
        } else {
            ((score + HISTOGRAM_CP) / BUCKET_CP) as usize + 1
        };
        self.histogram[bucket] += 1;
    }

    /// Adds the figures of `other`.
    pub fn merge(&mut self, other: &Stats) {
        self.records += other.records;
        self.corrupt += other.corrupt;
        self.score_sum += other.score_sum;
        let add = |a: &mut [u64], b: &[u64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        add(&mut self.results, &other.results);
        add(&mut self.side_to_move, &other.side_to_move);
        add(&mut self.pieces, &other.pieces);
        add(&mut self.histogram, &other.histogram);
        add(&mut self.abs_scores, &other.abs_scores);
    }

    /// Valid records.
    pub fn valid(&self) -> u64 {
        self.records - self.corrupt
    }

    /// The median absolute score of the valid records.
    pub fn median_abs_score(&self) -> u32 {
        median(&self.abs_scores, self.valid()) as u32
    }

    /// The median number of pieces of the valid records.
    pub fn median_pieces(&self) -> u32 {
        median(&self.pieces, self.valid()) as u32
    }
}

/// The index at which the running count of `counts` passes half of `total`.
fn median(counts: &[u64], total: u64) -> usize {
    let mut seen = 0;
    for (i, &c) in counts.iter().enumerate() {
        seen += c;
        if total > 0 && seen * 2 >= total {
            return i;
        }
    }
    0
}

/// The figures of the packed file at `path`, read in chunks.
pub fn file_stats(path: &Path) -> Result<Stats, DataError> {
    let mut reader = PackedReader::open(path)?;
    let mut stats = Stats::default();
    let mut chunk = Vec::new();
    while reader.read_chunk(&mut chunk, CHUNK)? > 0 {
        stats.merge(&Stats::of(&chunk));
    }
    Ok(stats)
}

fn percent(n: u64, total: u64) -> f64 {
    100.0 * n as f64 / total.max(1) as f64
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let valid = self.valid();
        writeln!(f, "records   {} ({} corrupt)", self.records, self.corrupt)?;
        let [w, d, l] = self.results;
        writeln!(
            f,
            "results   White wins {w} ({:.1}%), draws {d} ({:.1}%), Black wins {l} ({:.1}%)",
            percent(w, valid),
            percent(d, valid),
            percent(l, valid)
        )?;
        let [sw, sb] = self.side_to_move;
        writeln!(
            f,
            "to move   White {sw} ({:.1}%), Black {sb} ({:.1}%)",
            percent(sw, valid),
            percent(sb, valid)
        )?;
        writeln!(
            f,
            "score     mean {:+.1} cp (White's view), median |score| {} cp",
            self.score_sum as f64 / valid.max(1) as f64,
            self.median_abs_score()
        )?;
        let min = self.pieces.iter().position(|&c| c > 0).unwrap_or(0);
        let max = self.pieces.iter().rposition(|&c| c > 0).unwrap_or(0);
        let mean = self
            .pieces
            .iter()
            .enumerate()
            .map(|(i, &c)| i as u64 * c)
            .sum::<u64>() as f64
            / valid.max(1) as f64;
        write!(
            f,
            "pieces    min {min}, median {}, mean {mean:.1}, max {max};",
            self.median_pieces()
        )?;
        for (lo, hi) in [(2, 8), (9, 16), (17, 24), (25, 32)] {
            let n: u64 = self.pieces[lo..=hi].iter().sum();
            write!(f, " {lo}-{hi}: {:.1}%", percent(n, valid))?;
        }
        writeln!(f)?;
        writeln!(f, "score histogram (centipawns, White's view):")?;
        let top = self.histogram.iter().copied().max().unwrap_or(0).max(1);
        for (i, &n) in self.histogram.iter().enumerate() {
            let label = if i == 0 {
                format!("< {}", -HISTOGRAM_CP)
            } else if i == INNER_BUCKETS + 1 {
                format!(">= {HISTOGRAM_CP}")
            } else {
                let lo = -HISTOGRAM_CP + (i as i32 - 1) * BUCKET_CP;
                format!("{lo}..{}", lo + BUCKET_CP)
            };
            let bar = "#".repeat((n * BAR).div_ceil(top) as usize);
            write!(f, "{label:>12} {n:>10} {bar}")?;
            if i + 1 < self.histogram.len() {
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn counts_results_sides_scores_and_corrupt_records() {
        let start = Position::startpos();
        let black = Position::from_fen("8/8/8/4k3/8/8/8/4K2R b K - 3 40").unwrap();
        let records = [
            PackedPosition::new(&start, 25, GameResult::WhiteWin),
            PackedPosition::new(&start, -2500, GameResult::BlackWin),
            PackedPosition::new(&black, 2000, GameResult::Draw),
            PackedPosition::from_bytes([0xFF; 32]),
        ];
        let s = Stats::of(&records);
        assert_eq!(s.records, 4);
        assert_eq!(s.corrupt, 1);
        assert_eq!(s.results, [1, 1, 1]);
        assert_eq!(s.side_to_move, [2, 1]);
        assert_eq!(s.pieces[32], 2);
        assert_eq!(s.pieces[3], 1);
        assert_eq!(s.histogram[0], 1);
        assert_eq!(s.histogram[INNER_BUCKETS + 1], 1);
        assert_eq!(s.histogram[(HISTOGRAM_CP / BUCKET_CP) as usize + 1], 1);
        assert_eq!(s.median_abs_score(), 2000);
        let text = s.to_string();
        assert!(text.starts_with("records   4 (1 corrupt)"), "{text}");
    }
}
