//! `ladya epd`: a test suite of `bm`/`am` positions.

use super::args::SearchLimit;
use super::go::score_text;
use anyhow::{Context, Result};
use ladya::epd::EpdRecord;
use ladya::search::{SearchControl, Searcher};
use ladya::Move;

/// Runs `ladya epd`: each position's verdict, then `solved X/Y`.
pub fn run(file: &std::path::Path, limit: SearchLimit, hash: usize) -> Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let limits = limit.limits();
    let mut searcher = Searcher::new(hash);
    let (mut solved, mut total, mut skipped) = (0, 0, 0);
    let records = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .count();
    let mut bar = super::progress::Progress::new("epd", records as u64, "positions");
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        bar.inc(1);
        let name = format!("line {}", n + 1);
        let record = match EpdRecord::parse(line) {
            Ok(r) => r,
            Err(e) => {
                bar.suspend(|| say!("{name}: skipped: {e}"));
                skipped += 1;
                continue;
            }
        };
        let name = record.id().map_or(name, str::to_string);
        let (best, avoid) = match (record.moves("bm"), record.moves("am")) {
            (Ok(b), Ok(a)) if !(b.is_empty() && a.is_empty()) => (b, a),
            (Err(e), _) | (_, Err(e)) => {
                bar.suspend(|| say!("{name}: skipped: {e}"));
                skipped += 1;
                continue;
            }
            _ => {
                bar.suspend(|| say!("{name}: skipped: no bm or am"));
                skipped += 1;
                continue;
            }
        };
        let pos = &record.position;
        searcher.clear();
        let control = SearchControl::default();
        let result = searcher.search(pos, &limits, &control, &mut |_| {});
        total += 1;
        let Some(mv) = result.best else {
            bar.suspend(|| say!("{name}: FAIL: no move found"));
            continue;
        };
        let ok = (best.is_empty() || best.contains(&mv)) && !avoid.contains(&mv);
        solved += ok as u32;
        let sans = |ms: &[Move]| {
            ms.iter()
                .map(|&m| pos.to_san(m))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut expected = String::new();
        if !best.is_empty() {
            expected.push_str(&format!("bm {}", sans(&best)));
        }
        if !avoid.is_empty() {
            expected.push_str(&format!(
                "{}am {}",
                if expected.is_empty() { "" } else { ", " },
                sans(&avoid)
            ));
        }
        let score = result.info.as_ref().map_or(String::new(), |i| {
            format!(" ({} depth {})", score_text(i.score), i.depth)
        });
        bar.suspend(|| {
            say!(
                "{name}: {} played {}{score}, expected {expected}",
                if ok { "ok  " } else { "FAIL" },
                pos.to_san(mv),
            )
        });
    }
    bar.finish();
    if skipped > 0 {
        say!("skipped {skipped}");
    }
    say!("solved {solved}/{total}");
    Ok(())
}
