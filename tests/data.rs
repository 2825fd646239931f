//! Packed training files: reading and writing, the text converter, the stats.

use ladya::data::convert::{convert_file, LineError};
use ladya::data::{
    file_stats, read_all, record_count, DataError, GameResult, PackedPosition, PackedReader,
    PackedWriter, RECORD_BYTES,
};
use ladya::Position;
use std::path::PathBuf;

/// A fresh path in the test's scratch directory.
fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("data-{name}"));
    let _ = std::fs::remove_file(&path);
    path
}

/// `FEN | score | result` lines: ordinary, en passant, Chess960 castling written as KQkq
/// (X-FEN) and as files, a Black-to-move endgame.
const SAMPLE: &[(&str, i32, &str)] = &[
    (ladya::START_FEN, 31, "1.0"),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        55,
        "0.5",
    ),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
        -12,
        "0.0",
    ),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR b HFhf - 2 9",
        -1999,
        "0.0",
    ),
    ("8/8/8/4k3/8/8/6p1/4K2R b K - 17 80", 1234, "0.5"),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w Qk - 0 1",
        0,
        "1.0",
    ),
];

fn sample_text() -> String {
    SAMPLE
        .iter()
        .map(|(fen, score, result)| format!("{fen} | {score} | {result}\n"))
        .collect()
}

#[test]
fn converted_records_hold_the_input_positions_in_order() {
    let input = scratch("sample.txt");
    let output = scratch("sample.bin");
    std::fs::write(&input, sample_text()).unwrap();
    let report = convert_file(&input, &output).unwrap();
    assert_eq!((report.read, report.written, report.skipped), (6, 6, 0));
    let records = read_all(&output).unwrap();
    assert_eq!(records.len(), SAMPLE.len());
    for (r, (fen, score, result)) in records.iter().zip(SAMPLE) {
        let pos = Position::from_fen(fen).unwrap();
        let back = r.to_position().unwrap();
        // Keys, not FEN text: castling may come back as files (Shredder-FEN).
        assert_eq!(back.key(), pos.key(), "{fen}");
        assert_eq!(back.side_to_move(), pos.side_to_move(), "{fen}");
        assert_eq!(back.halfmove_clock(), pos.halfmove_clock(), "{fen}");
        assert_eq!(back.fullmove_number(), pos.fullmove_number(), "{fen}");
        assert_eq!(i32::from(r.white_score()), *score, "{fen}");
        assert_eq!(r.result(), GameResult::parse(result), "{fen}");
    }
    // Converting again appends.
    let again = convert_file(&input, &output).unwrap();
    assert_eq!(again.existing, 6);
    assert_eq!(
        read_all(&output).unwrap(),
        [records.clone(), records].concat()
    );
}

#[test]
fn bad_lines_are_counted_and_named_not_fatal() {
    let mut text = String::from("# a comment\n\n");
    text.push_str(&sample_text());
    text.push_str("not a line\n");
    text.push_str("8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 0.5\n");
    text.push_str(&format!("{} | 12.5 | 1.0\n", ladya::START_FEN));
    text.push_str(&format!("{} | 12 | win", ladya::START_FEN)); // no final newline
    let input = scratch("bad.txt");
    let output = scratch("bad.bin");
    std::fs::write(&input, text).unwrap();
    let report = convert_file(&input, &output).unwrap();
    assert_eq!((report.read, report.written, report.skipped), (10, 6, 4));
    let lines: Vec<u64> = report.first_bad.iter().map(|(n, _)| *n).collect();
    assert_eq!(lines, [9, 10, 11, 12]);
    assert_eq!(report.first_bad[0].1, LineError::Fields(1));
    assert!(matches!(report.first_bad[1].1, LineError::Fen(_)));
    assert_eq!(report.first_bad[2].1, LineError::Score("12.5".into()));
    assert_eq!(report.first_bad[3].1, LineError::Result("win".into()));
    assert!(report.to_string().contains("line 12: bad result 'win'"));
    assert_eq!(record_count(&output).unwrap(), 6);
}

#[test]
fn a_large_input_keeps_its_order_across_blocks_and_threads() {
    // More than one 8 MB block, so the block and thread seams are crossed.
    let lines = 140_000;
    let mut text = String::with_capacity(lines * 70);
    for i in 0..lines {
        let (fen, _, result) = SAMPLE[i % SAMPLE.len()];
        text.push_str(&format!(
            "{fen} | {} | {result}\n",
            i as i32 % 60_000 - 30_000
        ));
    }
    let input = scratch("large.txt");
    let output = scratch("large.bin");
    std::fs::write(&input, &text).unwrap();
    assert!(text.len() > 8 << 20);
    let report = convert_file(&input, &output).unwrap();
    assert_eq!(report.written, lines as u64);
    let records = read_all(&output).unwrap();
    for (i, r) in records.iter().enumerate() {
        let want = i as i32 % 60_000 - 30_000;
        assert_eq!(i32::from(r.white_score()), want, "record {i}");
    }
}

#[test]
fn stats_count_results_sides_and_corrupt_records() {
    let path = scratch("stats.bin");
    let start = Position::startpos();
    let end = Position::from_fen("8/8/8/4k3/8/8/6p1/4K2R b K - 17 80").unwrap();
    let mut w = PackedWriter::create(&path).unwrap();
    for _ in 0..10 {
        w.write(&PackedPosition::new(&start, 150, GameResult::WhiteWin))
            .unwrap();
    }
    for _ in 0..5 {
        w.write(&PackedPosition::new(&end, -50, GameResult::Draw))
            .unwrap();
    }
    w.write(&PackedPosition::new(&end, -3000, GameResult::BlackWin))
        .unwrap();
    w.write(&PackedPosition::from_bytes([0xEE; RECORD_BYTES]))
        .unwrap();
    w.finish().unwrap();
    let s = file_stats(&path).unwrap();
    assert_eq!(s.records, 17);
    assert_eq!(s.corrupt, 1);
    assert_eq!(s.results, [10, 5, 1]);
    assert_eq!(s.side_to_move, [10, 6]);
    assert_eq!(s.pieces[32], 10);
    assert_eq!(s.pieces[4], 6);
    assert_eq!(s.histogram.iter().sum::<u64>(), 16);
    assert_eq!(s.histogram[0], 1, "below -2000");
    assert_eq!(s.median_abs_score(), 150);
    let text = s.to_string();
    assert!(text.contains("White wins 10"), "{text}");
    assert!(text.contains("100..200"), "{text}");
}

#[test]
fn a_partial_record_is_a_typed_error() {
    let path = scratch("partial.bin");
    let record = PackedPosition::new(&Position::startpos(), 0, GameResult::Draw);
    let mut bytes = record.as_bytes().repeat(3);
    bytes.extend_from_slice(&[1, 2, 3, 4, 5]);
    std::fs::write(&path, &bytes).unwrap();
    let is_partial = |e: DataError| matches!(e, DataError::PartialRecord { bytes: 101, .. });
    assert!(is_partial(read_all(&path).unwrap_err()));
    assert!(is_partial(file_stats(&path).unwrap_err()));
    assert!(is_partial(PackedReader::open(&path).err().unwrap()));
    assert!(is_partial(PackedWriter::append(&path).err().unwrap()));
    let message = read_all(&path).unwrap_err().to_string();
    assert!(message.contains("101 bytes"), "{message}");
    let missing = scratch("missing.bin");
    assert!(matches!(read_all(&missing), Err(DataError::Io { .. })));
}

/// Four games of Ladya against itself at 3,000 nodes a move, played by fastchess from
/// `genfens` openings with the flags OpenBench's client gives it, then written the way the
/// client sends them (its `pgn_util.process_pgn_file`, COMPACT and VERBOSE).
const OPENBENCH_COMPACT: &str = include_str!("data/openbench_datagen_compact.pgn");
const OPENBENCH_VERBOSE: &str = include_str!("data/openbench_datagen_verbose.pgn");

/// `ladya data pgn` of `inputs` into a fresh file: the records.
fn import(name: &str, inputs: &[&std::path::Path]) -> Vec<PackedPosition> {
    let out = scratch(name);
    ladya::data::pgn::import_files(inputs, &out, None).unwrap();
    read_all(&out).unwrap()
}

#[test]
fn openbench_datagen_games_become_the_records_datagen_would_write() {
    use std::io::Write;
    let compact = scratch("ob-compact.pgn");
    std::fs::write(&compact, OPENBENCH_COMPACT).unwrap();
    let verbose = scratch("ob-verbose.pgn");
    std::fs::write(&verbose, OPENBENCH_VERBOSE).unwrap();
    let records = import("ob-compact.bin", &[&compact]);
    // The same filter in python-chess over the same games: 184 positions, scores from
    // White's side summing to 36,670 cp.
    assert_eq!(records.len(), 184);
    let sum: i64 = records.iter().map(|r| r.white_score() as i64).sum();
    assert_eq!(sum, 36_670);
    for r in &records {
        let pos = r.to_position().unwrap();
        assert!(!pos.in_check());
        assert!(r.result().is_some());
    }
    assert_eq!(import("ob-verbose.bin", &[&verbose]), records);

    // A client's upload (.pgn.bz2) and the finished workload's archive (.pgn.tar of them).
    let bz2 = scratch("ob.pgn.bz2");
    let mut enc = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
    enc.write_all(OPENBENCH_COMPACT.as_bytes()).unwrap();
    std::fs::write(&bz2, enc.finish().unwrap()).unwrap();
    assert_eq!(import("ob-bz2.bin", &[&bz2]), records);
    let tar = scratch("ob.pgn.tar");
    let mut archive = tar::Builder::new(std::fs::File::create(&tar).unwrap());
    archive
        .append_path_with_name(&bz2, "12.1.0.pgn.bz2")
        .unwrap();
    archive
        .append_path_with_name(&verbose, "12.2.0.pgn")
        .unwrap();
    archive.finish().unwrap();
    drop(archive);
    let both = import("ob-tar.bin", &[&tar]);
    assert_eq!(both.len(), 2 * records.len());
    assert_eq!(&both[..records.len()], &records[..]);
    assert_eq!(&both[records.len()..], &records[..]);
}
