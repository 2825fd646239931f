//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// A file under `../shared/data`, next to the project root.
pub fn shared_data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(rel)
}

/// One perft line: FEN and (depth, count) pairs.
pub struct PerftCase {
    pub line: usize,
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

/// Reads a perft EPD file (`FEN ;D1 n ;D2 n …`).
pub fn read_perft_file(rel: &str) -> Vec<PerftCase> {
    let path = shared_data(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut it = p.split_whitespace();
                    let d = it.next().unwrap().trim_start_matches('D').parse().unwrap();
                    let n = it.next().unwrap().parse().unwrap();
                    (d, n)
                })
                .collect();
            PerftCase {
                line: i + 1,
                fen,
                counts,
            }
        })
        .collect()
}

/// Every FEN of the perft and EPD files (the board part and the next three fields).
pub fn all_test_fens() -> Vec<String> {
    let mut fens: Vec<String> = Vec::new();
    for f in [
        "perft/perft_standard.epd",
        "perft/perftsuite.epd",
        "perft/perft960.epd",
    ] {
        fens.extend(read_perft_file(f).into_iter().map(|c| c.fen));
    }
    for f in [
        "epd/wac.epd",
        "epd/bk.epd",
        "epd/kaufman.epd",
        "epd/arasan21.epd",
    ] {
        let text = std::fs::read_to_string(shared_data(f)).unwrap();
        for l in text.lines().filter(|l| !l.trim().is_empty()) {
            let fields: Vec<&str> = l.split_whitespace().take(4).collect();
            fens.push(fields.join(" "));
        }
    }
    fens
}
