//! `ladya datagen`: self-play data, packed or text, reproducible from the seed whatever the
//! threads, resumable after a kill, appendable.

use ladya::data::{read_all, unpack_file, DataError, GameResult, GamesError, RECORD_BYTES};
use ladya::datagen::{
    generate, generate_file, sidecar_path, DatagenConfig, DatagenError, DatagenReport, Format,
};
use ladya::Position;
use std::path::{Path, PathBuf};

fn config(games: usize, threads: usize, format: Format) -> DatagenConfig {
    DatagenConfig {
        games,
        nodes: 1500,
        openings: vec![
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;".to_string(),
            ladya::START_FEN.to_string(),
        ],
        openings_name: "test".to_string(),
        random_plies: 4,
        max_opening_score: Some(ladya::datagen::genfens::MAX_SCORE),
        seed: 42,
        threads,
        format,
        network: None,
        tablebase_adjudication: false,
    }
}

/// A fresh path in the test's scratch directory (no file, no sidecar).
fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("datagen-{name}"));
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(sidecar_path(&path));
    path
}

fn run_file(cfg: &DatagenConfig, path: &Path) -> DatagenReport {
    generate_file(cfg, path, &mut |_| {}).unwrap()
}

fn run_text(cfg: &DatagenConfig) -> (String, DatagenReport) {
    let mut out = Vec::new();
    let report = generate(cfg, &mut out, &mut |_| {}).unwrap();
    (String::from_utf8(out).unwrap(), report)
}

#[test]
fn text_lines_hold_quiet_positions_with_score_and_result() {
    let (text, report) = run_text(&config(6, 1, Format::Text));
    assert_eq!(report.games, 6);
    assert_eq!(report.positions, text.lines().count());
    // The results the lines carry are those of the games played: each kind of result
    // that games had appears, no other does, and with one thread each game's positions
    // come together, so the result changes at most between games.
    let labels: Vec<&str> = text
        .lines()
        .map(|l| l.rsplit(" | ").next().unwrap())
        .collect();
    for (kind, label) in ["1.0", "0.5", "0.0"].into_iter().enumerate() {
        assert_eq!(
            labels.contains(&label),
            report.results[kind] > 0,
            "{label}: {:?}",
            report.results
        );
    }
    let changes = labels.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(
        changes < report.games,
        "{changes} result changes in 6 games"
    );
    assert!(report.positions > 50, "too few: {}", report.positions);
    for line in text.lines() {
        let parts: Vec<&str> = line.split(" | ").collect();
        assert_eq!(parts.len(), 3, "{line}");
        let pos = Position::from_fen(parts[0]).unwrap();
        assert!(!pos.in_check(), "{line}");
        let score: i32 = parts[1].parse().unwrap();
        assert!(score.abs() < 2000, "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&parts[2]), "{line}");
    }
}

#[test]
fn packed_records_validate_and_none_is_in_check() {
    let path = scratch("valid.bin");
    let report = run_file(&config(6, 2, Format::Packed), &path);
    let records = read_all(&path).unwrap();
    assert_eq!(records.len(), report.positions);
    assert!(report.positions > 50, "too few: {}", report.positions);
    let mut results = [0; 3];
    for r in &records {
        r.validate().unwrap();
        let pos = r.to_position().unwrap();
        assert!(!pos.in_check(), "{}", pos.to_fen());
        assert!(r.white_score().abs() < 2000);
        results[r.result().unwrap() as usize] += 1;
    }
    assert_eq!(results.iter().sum::<usize>(), records.len());
    // The text and packed outputs hold the same positions.
    let (text, _) = run_text(&config(6, 1, Format::Text));
    assert_eq!(text.lines().count(), records.len());
    for (line, r) in text.lines().zip(&records) {
        let parts: Vec<&str> = line.split(" | ").collect();
        let pos = Position::from_fen(parts[0]).unwrap();
        assert_eq!(r.to_position().unwrap().key(), pos.key(), "{line}");
        assert_eq!(i32::from(r.white_score()), parts[1].parse::<i32>().unwrap());
        assert_eq!(r.result(), GameResult::parse(parts[2]));
    }
}

#[test]
fn whole_games_unpack_to_the_packed_records_of_the_same_run() {
    let packed = scratch("as-records.bin");
    let games = scratch("as-games.games");
    let unpacked = scratch("unpacked.bin");
    let from_records = run_file(&config(6, 2, Format::Packed), &packed);
    let from_games = run_file(&config(6, 2, Format::Games), &games);
    assert_eq!(from_games.positions, from_records.positions);
    assert_eq!(from_games.results, from_records.results);
    let report = unpack_file(&games, &unpacked).unwrap();
    assert_eq!(
        (report.games, report.positions),
        (6, from_records.positions)
    );
    assert!(
        report.plies > report.positions,
        "the games hold every ply, not only the kept ones"
    );
    let records = std::fs::read(&packed).unwrap();
    assert!(!records.is_empty());
    assert_eq!(std::fs::read(&unpacked).unwrap(), records);
    let game_bytes = std::fs::metadata(&games).unwrap().len() as usize;
    assert!(
        game_bytes * 5 < records.len(),
        "{game_bytes} bytes of games against {} of records",
        records.len()
    );
    // A torn games file is a typed error, and nothing is appended.
    let torn = scratch("torn.games");
    let bytes = std::fs::read(&games).unwrap();
    std::fs::write(&torn, &bytes[..bytes.len() - 3]).unwrap();
    let out = scratch("from-torn.bin");
    assert!(matches!(
        unpack_file(&torn, &out),
        Err(DataError::Games {
            source: GamesError::Truncated { game: 5 },
            ..
        })
    ));
    assert!(!out.exists());
}

#[test]
fn same_seed_same_bytes_whatever_the_threads() {
    let one = scratch("threads1.bin");
    let two = scratch("threads2.bin");
    run_file(&config(6, 1, Format::Packed), &one);
    run_file(&config(6, 2, Format::Packed), &two);
    let bytes = std::fs::read(&one).unwrap();
    assert!(!bytes.is_empty());
    assert_eq!(bytes, std::fs::read(&two).unwrap());
    let (a, _) = run_text(&config(5, 1, Format::Text));
    let (b, _) = run_text(&config(5, 2, Format::Text));
    assert_eq!(a, b);
}

#[test]
fn a_stopped_run_resumes_to_the_same_file_and_cuts_a_torn_tail() {
    let whole = scratch("whole.bin");
    run_file(&config(6, 2, Format::Packed), &whole);
    let expected = std::fs::read(&whole).unwrap();

    let parts = scratch("parts.bin");
    let first = run_file(&config(2, 2, Format::Packed), &parts);
    assert_eq!(first.games, 2);
    // A kill in the middle of writing a game leaves part of a record behind.
    let mut bytes = std::fs::read(&parts).unwrap();
    bytes.extend_from_slice(&[0xAB; 10]);
    std::fs::write(&parts, &bytes).unwrap();
    let second = run_file(&config(4, 1, Format::Packed), &parts);
    assert_eq!((second.resumed_at, second.games), (2, 2));
    assert_eq!(second.dropped_bytes, 10);
    // A finished run asked again has nothing to do.
    let again = run_file(&config(4, 2, Format::Packed), &parts);
    assert_eq!((again.resumed_at, again.games), (4, 0));
    let third = run_file(&config(6, 2, Format::Packed), &parts);
    assert_eq!((third.resumed_at, third.games), (4, 2));
    assert_eq!(std::fs::read(&parts).unwrap(), expected);
    let sidecar = std::fs::read_to_string(sidecar_path(&parts)).unwrap();
    assert!(sidecar.contains("games_done=6"), "{sidecar}");
    assert!(
        sidecar.contains(&format!("bytes={}", expected.len())),
        "{sidecar}"
    );
}

#[test]
fn other_settings_do_not_resume_a_run() {
    let path = scratch("mismatch.bin");
    run_file(&config(1, 1, Format::Packed), &path);
    let before = std::fs::read(&path).unwrap();
    let mut cfg = config(2, 1, Format::Packed);
    cfg.seed = 43;
    match generate_file(&cfg, &path, &mut |_| {}) {
        Err(DatagenError::Mismatch { field: "seed", .. }) => {}
        other => panic!("{other:?}"),
    }
    let mut cfg = config(2, 1, Format::Text);
    cfg.nodes = 1000;
    let err = generate_file(&cfg, &path, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("delete"), "{err}");
    // A run of the hand-crafted evaluation is not resumed with a network.
    let mut cfg = config(2, 1, Format::Packed);
    cfg.network = Some(ladya::nnue::default_network());
    match generate_file(&cfg, &path, &mut |_| {}) {
        Err(DatagenError::Mismatch {
            field: "evaluation",
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
    // Nor a run that started games from any opening with one that checks their balance.
    let mut cfg = config(2, 1, Format::Packed);
    cfg.max_opening_score = None;
    match generate_file(&cfg, &path, &mut |_| {}) {
        Err(DatagenError::Mismatch {
            field: "largest opening score",
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file is untouched"
    );
}

#[test]
fn a_file_without_sidecar_is_appended_to() {
    let fresh = scratch("fresh.bin");
    run_file(&config(2, 1, Format::Packed), &fresh);
    let games = std::fs::read(&fresh).unwrap();

    let path = scratch("append.bin");
    let old = vec![7u8; 3 * RECORD_BYTES];
    std::fs::write(&path, &old).unwrap();
    let report = run_file(&config(2, 2, Format::Packed), &path);
    assert_eq!(report.appended_after, old.len() as u64);
    assert_eq!(std::fs::read(&path).unwrap(), [old, games].concat());

    // A packed file that is not whole records is not appended to.
    let torn = scratch("torn.bin");
    std::fs::write(&torn, [1u8; 33]).unwrap();
    let err = generate_file(&config(1, 1, Format::Packed), &torn, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("33 bytes"), "{err}");
}

#[test]
fn a_bad_opening_is_a_typed_error() {
    let mut cfg = config(1, 1, Format::Text);
    cfg.openings.push("not a fen".to_string());
    let err = generate(&cfg, &mut Vec::new(), &mut |_| {}).unwrap_err();
    assert!(matches!(err, DatagenError::Opening(2, _)), "{err:?}");
    let path = scratch("bad-opening.bin");
    assert!(generate_file(&cfg, &path, &mut |_| {}).is_err());
    assert!(
        !path.exists(),
        "no file is made for a run that cannot start"
    );
}

/// Fool's mate: White is checkmated, no game is left to play.
const MATED: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
/// White's only move takes the queen, leaving king and knight against king: a dead draw
/// after any random ply.
const DRAWN_BY_ANY_MOVE: &str = "6q1/7K/8/6k1/8/8/8/6N1 w - - 0 1";

#[test]
fn a_book_with_no_game_to_play_is_an_error_not_a_hang() {
    let mut cfg = config(1, 1, Format::Text);
    cfg.openings = vec![
        MATED.to_string(),
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1".to_string(),
    ];
    let err = generate(&cfg, &mut Vec::new(), &mut |_| {}).unwrap_err();
    assert!(matches!(err, DatagenError::NoPlayableOpening(2)), "{err:?}");
    assert!(err.to_string().contains("none of the 2 openings"), "{err}");
}

#[test]
fn finished_openings_are_left_out_and_walks_that_always_end_still_give_games() {
    // The mated opening is never drawn: every game starts from the other one.
    let mut cfg = config(3, 1, Format::Text);
    cfg.openings = vec![MATED.to_string(), ladya::START_FEN.to_string()];
    let mut out = Vec::new();
    let report = generate(&cfg, &mut out, &mut |_| {}).unwrap();
    assert_eq!(report.games, 3);
    // Every random ply from this opening ends the game: the games start from it as it is.
    let mut cfg = config(2, 1, Format::Text);
    cfg.openings = vec![DRAWN_BY_ANY_MOVE.to_string()];
    cfg.max_opening_score = None;
    let report = generate(&cfg, &mut Vec::new(), &mut |_| {}).unwrap();
    assert_eq!(report.games, 2);
}

#[test]
fn a_new_file_may_go_to_a_new_folder() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("datagen-new-folder");
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("deeper").join("games.bin");
    let report = run_file(&config(1, 1, Format::Packed), &path);
    assert!(report.positions > 0);
    let bytes = std::fs::metadata(&path).unwrap().len();
    assert_eq!(bytes, report.positions as u64 * RECORD_BYTES as u64);
    assert!(sidecar_path(&path).exists());
}
