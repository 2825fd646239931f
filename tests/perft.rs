//! perft over the shared suites: every count up to 10^9 nodes per position for the
//! standard files, depth 4 for the 960 Chess960 positions. The deeper levels are
//! `#[ignore]`d: run them with `cargo test --release --test perft -- --ignored`.

mod common;
use common::{read_perft_file, PerftCase};
use ladya::perft::perft;
use ladya::Position;

const NODE_LIMIT: u64 = 1_000_000_000;

fn run(cases: &[PerftCase], keep: impl Fn(u32, u64) -> bool) {
    let mut failures = Vec::new();
    for case in cases {
        let mut pos =
            Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        for &(depth, expected) in &case.counts {
            if !keep(depth, expected) {
                continue;
            }
            let got = perft(&mut pos, depth);
            if got != expected {
                failures.push(format!(
                    "line {} depth {depth}: {got} != {expected} ({})",
                    case.line, case.fen
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn perft_standard_positions() {
    run(&read_perft_file("perft/perft_standard.epd"), |_, n| {
        n <= NODE_LIMIT
    });
}

fn suite_chunk(part: usize, parts: usize) {
    let cases = read_perft_file("perft/perftsuite.epd");
    assert_eq!(cases.len(), 126);
    let chunk: Vec<PerftCase> = cases
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % parts == part)
        .map(|(_, c)| c)
        .collect();
    run(&chunk, |_, n| n <= NODE_LIMIT);
}

// The suite is split so the test harness can run the parts on several cores.
#[test]
fn perftsuite_part_0() {
    suite_chunk(0, 4);
}
#[test]
fn perftsuite_part_1() {
    suite_chunk(1, 4);
}
#[test]
fn perftsuite_part_2() {
    suite_chunk(2, 4);
}
#[test]
fn perftsuite_part_3() {
    suite_chunk(3, 4);
}

#[test]
fn perft960_depth_4() {
    let cases = read_perft_file("perft/perft960.epd");
    assert_eq!(cases.len(), 960);
    run(&cases, |d, _| d <= 4);
}

#[test]
#[ignore = "deep tier: minutes; run with --ignored"]
fn perftsuite_all_depths() {
    run(&read_perft_file("perft/perftsuite.epd"), |_, _| true);
}

#[test]
#[ignore = "deep tier: minutes; run with --ignored"]
fn perft960_depth_5_and_6() {
    run(&read_perft_file("perft/perft960.epd"), |d, _| d >= 5);
}

/// The noisy and quiet generators split the legal moves exactly, and `is_legal` agrees
/// with the generator, over a small tree below every suite position.
#[test]
fn noisy_and_quiet_partition_all_moves() {
    use ladya::{GenType, MoveList};
    fn walk(pos: &mut Position, depth: u32) {
        let all = pos.legal_moves();
        let mut noisy = MoveList::new();
        let mut quiet = MoveList::new();
        pos.generate(GenType::Noisy, &mut noisy);
        pos.generate(GenType::Quiet, &mut quiet);
        assert_eq!(noisy.len() + quiet.len(), all.len(), "{}", pos.to_fen());
        for mv in &all {
            assert!(
                noisy.contains(*mv) != quiet.contains(*mv),
                "{mv:?} in {}",
                pos.to_fen()
            );
            assert!(pos.is_legal(*mv));
            assert_eq!(
                noisy.contains(*mv),
                pos.is_capture(*mv) || mv.promotion_piece() == Some(ladya::PieceType::Queen)
            );
        }
        if depth > 0 {
            for &mv in &all {
                pos.make_move(mv);
                walk(pos, depth - 1);
                pos.unmake_move();
            }
        }
    }
    for case in read_perft_file("perft/perftsuite.epd") {
        walk(&mut Position::from_fen(&case.fen).unwrap(), 2);
    }
}

/// `ladya perft --divide` through the binary: castling as UCI writes it, the king's
/// two-square move, unless `--chess960` asks for king-takes-rook.
#[test]
fn divide_writes_castling_as_uci_does() {
    let divide = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ladya"))
            .args([
                "perft",
                "1",
                "--divide",
                "--fen",
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    // (flags, the castling moves written, the forms that must not appear)
    let cases: [(&[&str], [&str; 2], [&str; 2]); 2] = [
        (&[], ["e1g1: 1", "e1c1: 1"], ["e1h1", "e1a1"]),
        (&["--chess960"], ["e1h1: 1", "e1a1: 1"], ["e1g1", "e1c1"]),
    ];
    for (flags, written, absent) in cases {
        let out = divide(flags);
        assert!(written.iter().all(|w| out.contains(w)), "{out}");
        assert!(absent.iter().all(|a| !out.contains(a)), "{out}");
        assert!(out.contains("Nodes: 26"), "{out}");
    }
}
