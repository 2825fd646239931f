//! `ladya datagen`: self-play data in the tuner's format, reproducible from the seed.

use ladya::datagen::{generate, DatagenConfig, DatagenError};
use ladya::Position;

fn config(threads: usize) -> DatagenConfig {
    DatagenConfig {
        games: 6,
        nodes: 1500,
        openings: vec![
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;".to_string(),
            ladya::START_FEN.to_string(),
        ],
        random_plies: 4,
        seed: 42,
        threads,
    }
}

fn run(cfg: &DatagenConfig) -> (String, ladya::datagen::DatagenReport) {
    let mut out = Vec::new();
    let report = generate(cfg, &mut out, &mut |_| {}).unwrap();
    (String::from_utf8(out).unwrap(), report)
}

#[test]
fn writes_quiet_positions_with_score_and_result() {
    let (text, report) = run(&config(1));
    assert_eq!(report.games, 6);
    assert_eq!(report.results.iter().sum::<usize>(), 6);
    assert_eq!(report.positions, text.lines().count());
    assert!(
        report.positions > 50,
        "too few positions: {}",
        report.positions
    );
    let mut game_results = std::collections::BTreeSet::new();
    for line in text.lines() {
        let parts: Vec<&str> = line.split(" | ").collect();
        assert_eq!(parts.len(), 3, "{line}");
        let pos = Position::from_fen(parts[0]).unwrap();
        assert!(!pos.in_check(), "{line}");
        let score: i32 = parts[1].parse().unwrap();
        assert!(score.abs() < 2000, "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&parts[2]), "{line}");
        game_results.insert(parts[2]);
    }
    assert!(!game_results.is_empty());
}

#[test]
fn same_seed_same_games_whatever_the_threads() {
    let (one, _) = run(&config(1));
    let (again, _) = run(&config(1));
    assert_eq!(one, again);
    let (two, _) = run(&config(2));
    let mut a: Vec<&str> = one.lines().collect();
    let mut b: Vec<&str> = two.lines().collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

#[test]
fn a_bad_opening_is_a_typed_error() {
    let mut cfg = config(1);
    cfg.openings.push("not a fen".to_string());
    let err = generate(&cfg, &mut Vec::new(), &mut |_| {}).unwrap_err();
    assert!(matches!(err, DatagenError::Opening(2, _)), "{err:?}");
}
