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

// ---------------------------------------------------------------------------------------
// Bad folders and files: each is reported, and whatever else is there is used.

/// A scratch folder of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ladya-syzygy-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy_table(name: &str, to: &std::path::Path) -> PathBuf {
    let dest = to.join(name);
    std::fs::copy(tables_dir().join(name), &dest).unwrap();
    dest
}

fn load(spec: &str) -> tablebase::LoadReport {
    tablebase::load(spec)
}

const KQVK_WIN: &str = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1";

#[test]
fn missing_folder_file_path_and_empty_path() {
    let _lock = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    let report = load("/no/such/folder");
    assert!(matches!(
        report.errors[..],
        [tablebase::TbError::MissingFolder(_)]
    ));
    assert_eq!(report.max_pieces, 0);
    assert_eq!(tablebase::max_pieces(), 0);

    let file = tables_dir().join("KQvK.rtbw");
    let report = load(file.to_str().unwrap());
    assert!(matches!(
        report.errors[..],
        [tablebase::TbError::NotAFolder(_)]
    ));
    assert_eq!(tablebase::max_pieces(), 0);

    for empty in ["", "<empty>", "  "] {
        let report = load(empty);
        assert!(report.errors.is_empty());
        assert_eq!(tablebase::max_pieces(), 0);
        let pos = Position::from_fen(KQVK_WIN).unwrap();
        assert_eq!(tablebase::probe_wdl(&pos), None);
    }

    // A bad folder beside a good one: the good one is used.
    let spec = std::env::join_paths(["/no/such/folder".into(), tables_dir()]).unwrap();
    let report = load(spec.to_str().unwrap());
    assert_eq!(report.errors.len(), 1);
    assert_eq!(report.max_pieces, 4);
    let pos = Position::from_fen(KQVK_WIN).unwrap();
    assert_eq!(tablebase::probe_wdl(&pos), Some(Wdl::Win));
    load("");
}

#[test]
fn truncated_and_foreign_files_are_left_out() {
    let _lock = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("bad-files");
    copy_table("KQvK.rtbw", &dir);
    copy_table("KQvK.rtbz", &dir);
    // KRvK.rtbw cut short; KRvK.rtbz with a foreign header; KPvK.rtbw empty.
    let krvk = copy_table("KRvK.rtbw", &dir);
    let bytes = std::fs::read(&krvk).unwrap();
    std::fs::write(&krvk, &bytes[..bytes.len() - 100]).unwrap();
    let krvk_z = copy_table("KRvK.rtbz", &dir);
    let mut bytes = std::fs::read(&krvk_z).unwrap();
    bytes[..4].copy_from_slice(b"GIF8");
    std::fs::write(&krvk_z, &bytes).unwrap();
    std::fs::write(dir.join("KPvK.rtbw"), b"").unwrap();

    let report = load(dir.to_str().unwrap());
    let names: Vec<String> = report.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(report.errors.len(), 3, "{names:?}");
    for name in ["KRvK.rtbw", "KRvK.rtbz", "KPvK.rtbw"] {
        assert!(
            names.iter().any(|e| e.contains(name)),
            "{name} not reported: {names:?}"
        );
    }
    assert_eq!((report.wdl, report.dtz, report.max_pieces), (1, 1, 3));
    // The good table answers, the bad ones are not there.
    let pos = Position::from_fen(KQVK_WIN).unwrap();
    assert_eq!(tablebase::probe_wdl(&pos), Some(Wdl::Win));
    let krvk_pos = Position::from_fen("8/8/8/8/8/2k5/8/KR6 w - - 0 1").unwrap();
    assert_eq!(tablebase::probe_wdl(&krvk_pos), None);
    load("");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_contents_are_caught_by_the_checksum() {
    let _lock = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    // The real set verifies completely: no table is left out, none goes unverified.
    let report = load(tables_dir().to_str().unwrap());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!((report.wdl, report.dtz, report.unverified), (35, 35, 0));

    // Noise inside files of the right length with the right header (what a failing disk
    // or a bad download leaves): once such a file took the prober down.
    let dir = scratch("damaged");
    copy_table("KQvK.rtbw", &dir);
    let mut damaged = Vec::new();
    for (i, name) in ["KRPvK.rtbw", "KRPvK.rtbz", "KQvKR.rtbw", "KBNvK.rtbz"]
        .into_iter()
        .enumerate()
    {
        let path = copy_table(name, &dir);
        let mut bytes = std::fs::read(&path).unwrap();
        let len = bytes.len();
        // A different spot and size for each: past the header, in the middle, near the end.
        let (from, count) = [(64, 16), (len / 2, 1), (len / 3, 200), (len - 40, 8)][i];
        for (k, b) in bytes[from..from + count].iter_mut().enumerate() {
            *b ^= 0x5a ^ (k as u8);
        }
        std::fs::write(&path, &bytes).unwrap();
        damaged.push(name);
    }
    let report = load(dir.to_str().unwrap());
    let errors: Vec<String> = report.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(errors.len(), damaged.len(), "{errors:?}");
    for name in damaged {
        assert!(
            errors
                .iter()
                .any(|e| e.contains(name) && e.contains("checksum")),
            "{name} not reported: {errors:?}"
        );
    }
    assert_eq!((report.wdl, report.dtz), (1, 0));
    // The good table answers; the damaged ones are not consulted.
    let pos = Position::from_fen(KQVK_WIN).unwrap();
    assert_eq!(tablebase::probe_wdl(&pos), Some(Wdl::Win));
    let krpvk = Position::from_fen("8/8/8/8/8/2k5/P7/KR6 w - - 0 1").unwrap();
    assert_eq!(tablebase::probe_wdl(&krpvk), None);
    load("");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------
// The search with tables: DTZ-optimal at the root, won endings converted, draws held.

use ladya::search::{Limits, SearchControl, Searcher, TablebaseSettings};
use ladya::Move;

/// The search's move; every score it reports on the way must be a real one (a table
/// entry's missing evaluation once surfaced as `mate 0`, a score no search can have).
fn best_move(searcher: &mut Searcher, pos: &Position, limits: &Limits) -> Move {
    use ladya::search::{Score, SearchEvent};
    let control = SearchControl::default();
    let mut bad = Vec::new();
    let result = searcher.search(pos, limits, &control, &mut |e| {
        if let SearchEvent::Info(i) = e {
            if matches!(i.score, Score::Mate(0)) {
                bad.push(i.depth);
            }
        }
    });
    assert!(
        bad.is_empty(),
        "{}: mate 0 reported at depths {bad:?}",
        pos.to_fen()
    );
    result.best.expect("a legal move")
}

#[test]
fn depth_one_at_a_tablebase_root_plays_a_dtz_optimal_move() {
    let _tables = with_tables();
    let mut searcher = Searcher::new(16);
    searcher.set_tablebase_settings(TablebaseSettings::default());
    let limits = Limits {
        depth: Some(1),
        multipv: 1,
        ..Limits::default()
    };
    let mut checked = 0;
    for (fen, wdl, _) in fixture().into_iter().filter(|p| p.1 != 0).take(300) {
        let pos = Position::from_fen(&fen).unwrap();
        let root = tablebase::probe_root(&pos).unwrap();
        if root.moves.is_empty() {
            continue;
        }
        let mv = best_move(&mut searcher, &pos, &limits);
        let played = root.moves.iter().find(|m| m.mv == mv).unwrap();
        if wdl > 0 {
            // The fastest conversion among the moves that keep the win.
            let fastest = root
                .moves
                .iter()
                .filter(|m| m.wdl == Wdl::Win)
                .map(|m| m.dtz)
                .min()
                .unwrap();
            assert_eq!(played.wdl, Wdl::Win, "{fen}: {mv:?} spoils the win");
            assert_eq!(played.dtz, fastest, "{fen}: {mv:?} is not DTZ-optimal");
        } else {
            // The longest resistance.
            let longest = root.moves.iter().map(|m| m.dtz).min().unwrap();
            assert_eq!(played.dtz, longest, "{fen}: {mv:?} does not resist longest");
        }
        checked += 1;
    }
    assert!(checked >= 250, "only {checked} positions checked");
}

/// In a root the tables hold, the reported score is their verdict, and exact: no
/// `lowerbound`/`upperbound` from an aspiration window that failed around it (the bound
/// would tell a GUI the tables' score is a guess).
#[test]
fn a_tablebase_root_reports_its_score_as_exact() {
    use ladya::search::{Bound, Score, SearchEvent};
    let _tables = with_tables();
    let mut searcher = Searcher::new(16);
    searcher.set_tablebase_settings(TablebaseSettings::default());
    let limits = Limits {
        depth: Some(12),
        multipv: 1,
        ..Limits::default()
    };
    // A won KQvK, a won KPvK and a lost KvKQ (Black to move).
    for fen in [
        "8/8/8/4k3/8/8/8/4K2Q w - - 0 1",
        "8/8/8/8/8/4k3/1P6/1K6 w - - 0 1",
        "8/8/8/4k3/8/8/8/4K2Q b - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let mut lines = Vec::new();
        searcher.search(&pos, &limits, &SearchControl::default(), &mut |e| {
            if let SearchEvent::Info(info) = e {
                lines.push((info.score, info.bound));
            }
        });
        assert!(!lines.is_empty(), "{fen}");
        for (score, bound) in lines {
            assert_eq!(bound, Bound::Exact, "{fen}: {score:?}");
            assert!(matches!(score, Score::Cp(_) | Score::Mate(_)));
        }
    }
}

/// Plays `pos` out, Ladya against itself at `nodes` a move with the tables, until mate,
/// a draw, or `max_plies`. Returns the final position and the WDL values (White's view)
/// seen after every move.
fn play_out(pos: &Position, nodes: u64, max_plies: usize) -> (Position, Vec<i32>) {
    let mut searcher = Searcher::new(16);
    searcher.set_tablebase_settings(TablebaseSettings::default());
    let limits = Limits {
        nodes: Some(nodes),
        multipv: 1,
        ..Limits::default()
    };
    let mut pos = pos.clone();
    let mut values = Vec::new();
    for _ in 0..max_plies {
        if pos.legal_moves().is_empty()
            || pos.halfmove_clock() >= 100
            || pos.insufficient_material()
            || pos.repetitions(2, usize::MAX)
        {
            break;
        }
        let mv = best_move(&mut searcher, &pos, &limits);
        pos.make_move(mv);
        if let Some(wdl) = tablebase::probe_wdl(&pos) {
            let white = if pos.side_to_move() == ladya::types::Color::White {
                1
            } else {
                -1
            };
            values.push(white * wdl.as_i32());
        }
    }
    (pos, values)
}

/// Random legal positions of one material (`white` and `black` pieces besides the
/// kings), White to move, whose WDL value for White is `wanted`.
fn starts(white: &[char], black: &[char], wanted: i32, count: usize, seed: u64) -> Vec<Position> {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let mut found = Vec::new();
    let mut tries = 0;
    while found.len() < count {
        tries += 1;
        assert!(tries < 100_000, "no starts found");
        let mut board = ['.'; 64];
        let place = |c: char, board: &mut [char; 64], next: &mut dyn FnMut() -> usize| loop {
            let sq = next() % 64;
            let pawn_rank_bad = c.eq_ignore_ascii_case(&'p') && !(8..56).contains(&sq);
            if board[sq] == '.' && !pawn_rank_bad {
                board[sq] = c;
                return;
            }
        };
        place('K', &mut board, &mut next);
        place('k', &mut board, &mut next);
        for &c in white {
            place(c, &mut board, &mut next);
        }
        for &c in black {
            place(c.to_ascii_lowercase(), &mut board, &mut next);
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let c = board[rank * 8 + file];
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(" w - - 0 1");
        let Ok(pos) = Position::from_fen(&fen) else {
            continue;
        };
        if pos.validate().is_err() || pos.legal_moves().is_empty() {
            continue;
        }
        if tablebase::probe_wdl(&pos).map(Wdl::as_i32) == Some(wanted) {
            found.push(pos);
        }
    }
    found
}

#[test]
fn won_endings_are_converted_within_the_fifty_move_rule() {
    let _tables = with_tables();
    let cases: [(&[char], &[char]); 6] = [
        (&['Q'], &[]),
        (&['R'], &[]),
        (&['P'], &[]),
        (&['B', 'N'], &[]),
        (&['Q'], &['R']),
        (&['R', 'P'], &[]),
    ];
    for (i, (white, black)) in cases.iter().enumerate() {
        for pos in starts(white, black, 2, 4, 17 + i as u64) {
            let start = pos.to_fen();
            let (end, values) = play_out(&pos, 3_000, 400);
            assert!(
                end.is_checkmate() && end.side_to_move() == ladya::types::Color::Black,
                "{start}: not converted, ended at {} after {} plies",
                end.to_fen(),
                end.ply_count()
            );
            // The win was never lost on the way (2: a win the fifty-move rule allows).
            assert!(values.iter().all(|&v| v == 2), "{start}: {values:?}");
        }
    }
}

#[test]
fn drawn_endings_stay_drawn() {
    let _tables = with_tables();
    let cases: [(&[char], &[char]); 4] = [
        (&['P'], &[]),
        (&['R'], &['R']),
        (&['Q'], &['Q']),
        (&['R'], &['B']),
    ];
    for (i, (white, black)) in cases.iter().enumerate() {
        for pos in starts(white, black, 0, 3, 41 + i as u64) {
            let start = pos.to_fen();
            let (_, values) = play_out(&pos, 3_000, 120);
            assert!(
                values.iter().all(|&v| v == 0 || v.abs() == 1),
                "{start}: a side lost a draw: {values:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// The UCI options, through the engine binary.

/// Runs the engine on `commands`, then `quit` once `bestmove` has come (or at once when
/// no `go` is sent); returns everything it printed.
fn uci_session(commands: &[&str]) -> Vec<String> {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_ladya"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for c in commands {
        writeln!(stdin, "{c}").unwrap();
    }
    let searching = commands.iter().any(|c| c.starts_with("go"));
    if !searching {
        writeln!(stdin, "quit").unwrap();
    }
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line.starts_with("bestmove");
        lines.push(line);
        if done {
            writeln!(stdin, "quit").unwrap();
        }
    }
    assert!(child.wait().unwrap().success());
    lines
}

#[test]
fn uci_options_report_tables_and_errors_and_the_engine_plays_on() {
    let dir = tables_dir();
    let dir = dir.to_str().unwrap();
    let out = uci_session(&["uci"]);
    for name in [
        "SyzygyPath",
        "SyzygyProbeDepth",
        "SyzygyProbeLimit",
        "Syzygy50MoveRule",
    ] {
        assert!(
            out.iter()
                .any(|l| l.starts_with(&format!("option name {name} type"))),
            "{name} not announced"
        );
    }

    let good = format!("setoption name SyzygyPath value {dir}");
    let out = uci_session(&[
        &good,
        "position fen 8/8/8/8/8/4K3/4P3/4k3 w - - 0 1",
        "go depth 1",
    ]);
    assert!(
        out.contains(
            &"info string found 70 tablebases (35 WDL, 35 DTZ), up to 4 pieces".to_string()
        ),
        "{out:?}"
    );
    let last_info = out
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last_info.contains("tbhits"), "{last_info}");
    assert!(
        out.last().unwrap().starts_with("bestmove e3d3")
            || out.last().unwrap().starts_with("bestmove e3f3"),
        "{out:?}"
    );

    // Bad values: each reported, and the engine still answers and plays.
    let truncated = scratch("uci-truncated");
    let bytes = std::fs::read(tables_dir().join("KQvK.rtbw")).unwrap();
    std::fs::write(truncated.join("KQvK.rtbw"), &bytes[..bytes.len() / 2]).unwrap();
    let truncated_cmd = format!("setoption name SyzygyPath value {}", truncated.display());
    let file_cmd = format!("setoption name SyzygyPath value {dir}/KQvK.rtbw");
    let out = uci_session(&[
        "setoption name SyzygyPath value /no/such/folder",
        &file_cmd,
        &truncated_cmd,
        "setoption name SyzygyPath value <empty>",
        "setoption name SyzygyProbeLimit value 9",
        "isready",
        "position fen 8/8/8/8/8/4K3/4P3/4k3 w - - 0 1",
        "go depth 3",
    ]);
    let errors: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect();
    assert_eq!(errors.len(), 4, "{out:?}");
    assert!(errors[0].contains("no such folder"));
    assert!(errors[1].contains("not a folder"));
    assert!(errors[2].contains("KQvK.rtbw"));
    assert!(out.contains(&"readyok".to_string()));
    assert!(out.last().unwrap().starts_with("bestmove "));
    let _ = std::fs::remove_dir_all(&truncated);
}

// ---------------------------------------------------------------------------------------
// Self-play data: the tables end games whose result they know.

#[test]
fn datagen_ends_a_game_the_tables_know() {
    use ladya::datagen::{generate, DatagenConfig, Format};
    let _tables = with_tables();
    let run = |opening: &str, adjudicate: bool| {
        let cfg = DatagenConfig {
            games: 2,
            nodes: 1000,
            openings: vec![opening.to_string()],
            openings_name: "test".to_string(),
            random_plies: 0,
            max_opening_score: None,
            seed: 3,
            threads: 1,
            format: Format::Text,
            network: None,
            tablebase_adjudication: adjudicate,
        };
        let mut out = Vec::new();
        let report = generate(&cfg, &mut out, &mut |_| {}).unwrap();
        (report.results, report.positions)
    };
    // [White wins, draws, Black wins], and no position written: the game ends at once.
    assert_eq!(run("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", true), ([2, 0, 0], 0));
    assert_eq!(run("8/8/8/4k3/8/8/8/KQ6 b - - 0 1", true), ([2, 0, 0], 0));
    assert_eq!(run("kq6/8/8/8/8/8/3K4/8 w - - 0 1", true), ([0, 0, 2], 0));
    assert_eq!(
        run("8/2r5/8/4k3/8/8/3R4/K7 w - - 0 1", true),
        ([0, 2, 0], 0)
    );
    // Without the tables the K+R v K+R game is played out (and written).
    let (results, positions) = run("8/2r5/8/4k3/8/8/3R4/K7 w - - 0 1", false);
    assert_eq!(results.iter().sum::<usize>(), 2);
    assert!(positions > 0);
}
