//! Syzygy tablebases: the prober agrees with python-chess, bad paths and files are
//! reported and left out, and the search plays endings the tables decide perfectly.

mod common;

use ladya::tablebase::{self, Wdl};
use ladya::Position;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

/// The tables are one global set per process: the tests take turns.
static TABLES: Mutex<()> = Mutex::new(());

fn tables_dir() -> PathBuf {
    common::shared_data("syzygy")
}

/// Loads the shared 3- and 4-piece tables and holds the lock while the test runs.
fn with_tables() -> MutexGuard<'static, ()> {
    let guard = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    let report = tablebase::load(tables_dir().to_str().unwrap());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!((report.wdl, report.dtz, report.max_pieces), (35, 35, 4));
    guard
}

fn fixture() -> Vec<(String, i32, i32)> {
    include_str!("data/syzygy_fixture.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn wdl_and_dtz_agree_with_python_chess() {
    let _tables = with_tables();
    let positions = fixture();
    assert_eq!(positions.len(), 2000);
    let with_ep = positions.iter().filter(|p| !p.0.contains(" - 0")).count();
    assert!(with_ep >= 100, "only {with_ep} positions with en passant");
    let mut wrong = Vec::new();
    for (fen, wdl, dtz) in &positions {
        let pos = Position::from_fen(fen).unwrap();
        let got_wdl = tablebase::probe_wdl(&pos).map(Wdl::as_i32);
        let got_dtz = tablebase::probe_root(&pos).map(|r| r.dtz);
        if got_wdl != Some(*wdl) || got_dtz != Some(*dtz) {
            wrong.push(format!(
                "{fen}: wdl {got_wdl:?} dtz {got_dtz:?}, python-chess {wdl} {dtz}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of 2000 differ:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
}
