//! Opening-book tests: Polyglot keys against the published vectors, move decoding,
//! building from PGN and opening lines, choice rules, bad files, Chess960, the default
//! book, and the book in UCI play.

use ladya::book::{
    build_from_lines, build_from_pgn, choose, decode_move, encode_move, parse_lines, parse_pgn,
    polyglot_key, Book, BookError, BookMove, BookPlayer, Entry, GameResult, BUILTIN_BOOK,
};
use ladya::{Move, PieceType, Position, Square};
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::borrow::Cow;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

fn play(uci_moves: &str) -> Position {
    let mut pos = Position::startpos();
    for m in uci_moves.split_whitespace() {
        let mv = pos.parse_uci_move(m).unwrap();
        pos.make_move(mv);
    }
    pos
}

fn book_from(entries: &[(u64, u16, u16)]) -> Book {
    let entries = entries
        .iter()
        .map(|&(key, raw_move, weight)| Entry {
            key,
            raw_move,
            weight,
            learn: 0,
        })
        .collect();
    Book::from_entries(entries).unwrap()
}

/// Polyglot move bits for a from/to pair (no promotion).
fn raw(from: Square, to: Square) -> u16 {
    encode_move(Move::new(from, to))
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("ladya-book-test-{}-{name}", std::process::id()))
}

#[test]
fn keys_match_the_published_test_vectors() {
    let cases = [
        ("", 0x463b96181691fc9c),
        ("e2e4", 0x823c9b50fd114196),
        ("e2e4 d7d5", 0x0756b94461c50fb0),
        ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
        ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
        ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
        ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
        ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
        ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
    ];
    for (moves, key) in cases {
        assert_eq!(polyglot_key(&play(moves)), key, "after {moves:?}");
    }
    // The same positions set up from FEN (en-passant squares written out even where no
    // pawn can capture) hash the same.
    let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    assert_eq!(
        polyglot_key(&Position::from_fen(fen).unwrap()),
        0x22a48b5a8e47ff78
    );
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    assert_eq!(
        polyglot_key(&Position::from_fen(fen).unwrap()),
        0x823c9b50fd114196
    );
}

#[test]
fn moves_decode_with_polyglot_conventions() {
    let castle = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    // King takes rook is castling; so is the king's two-square form some writers use.
    for (raw_move, rook) in [
        (raw(Square::E1, Square::H1), Square::H1),
        (raw(Square::E1, Square::G1), Square::H1),
        (raw(Square::E1, Square::A1), Square::A1),
        (raw(Square::E1, Square::C1), Square::A1),
    ] {
        let mv = decode_move(&castle, raw_move).unwrap();
        assert!(mv.is_castling());
        assert_eq!(mv.to(), rook);
    }
    assert_eq!(
        encode_move(Move::castling(Square::E1, Square::H1)),
        raw(Square::E1, Square::H1)
    );

    let promo = Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    for (code, piece) in [
        (1, PieceType::Knight),
        (2, PieceType::Bishop),
        (3, PieceType::Rook),
        (4, PieceType::Queen),
    ] {
        let bits = raw(Square::B7, Square::B8) | code << 12;
        let mv = decode_move(&promo, bits).unwrap();
        assert_eq!(mv.promotion_piece(), Some(piece));
        assert_eq!(encode_move(mv), bits);
    }
    // A promotion without its piece, a pawn jump and a move from an empty square are not
    // legal, so they decode to nothing.
    assert_eq!(decode_move(&promo, raw(Square::B7, Square::B8)), None);
    let start = Position::startpos();
    assert_eq!(decode_move(&start, raw(Square::E2, Square::E5)), None);
    assert_eq!(decode_move(&start, raw(Square::E4, Square::E5)), None);
    assert_eq!(decode_move(&start, 0), None);
}

#[test]
fn entries_survive_a_byte_round_trip() {
    let e = Entry {
        key: 0x0123_4567_89ab_cdef,
        raw_move: 0x1234,
        weight: 0xfedc,
        learn: 0xdead_beef,
    };
    let bytes = e.to_bytes();
    assert_eq!(
        &bytes[..8],
        &[0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]
    );
    assert_eq!(Entry::from_bytes(&bytes), e);
}

const SMALL_PGN: &str = r#"
[Event "Test 1 [rapid] \"quoted\""]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 {a comment with (parens)} 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6 $1
3. Bb5! a6?! 1-0

[Event "Test 2"]
[Result "1/2-1/2"]

1.e4 c5 2.Nf3 d6 ; rest of line comment
3.d4 1/2-1/2

% an escaped line
[Event "Test 3"]
[Result "0-1"]

1. d4 d5 2. c4 e6 0-1

[Event "Test 4, unfinished"]
[Result "*"]

1. c4 e5 *

[Event "Test 5, Chess960"]
[Variant "Chess960"]
[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]
[Result "1-0"]

9. g3 1-0

[Event "Test 6, illegal move"]
[Result "1-0"]

1. e4 e5 2. Ke3 Nc6 1-0
"#;

#[test]
fn pgn_reader_splits_games_and_skips_noise() {
    let games = parse_pgn(SMALL_PGN);
    assert_eq!(games.len(), 6);
    assert_eq!(games[0].tag("White"), Some("A"));
    assert_eq!(games[0].tag("Event"), Some("Test 1 [rapid] \"quoted\""));
    assert_eq!(games[0].moves, ["e4", "e5", "Nf3", "Nc6", "Bb5!", "a6?!"]);
    assert_eq!(games[0].result(), GameResult::WhiteWins);
    assert_eq!(games[1].moves, ["e4", "c5", "Nf3", "d6", "d4"]);
    assert_eq!(games[1].result(), GameResult::Draw);
    assert_eq!(games[3].result(), GameResult::Unknown);
    assert!(games[4].is_variant());
    let played = games[5].play().unwrap();
    assert_eq!(played.moves.len(), 2);
    assert!(played.error.is_some());
}

#[test]
fn book_from_pgn_round_trips_with_expected_weights() {
    let (book, summary) = build_from_pgn(SMALL_PGN, 4, 1).unwrap();
    assert!(summary.contains("read 6 games: 4 used"), "{summary}");
    let path = temp_path("round-trip.bin");
    std::fs::write(&path, book.as_bytes()).unwrap();
    let book = Book::open(path.to_str().unwrap()).unwrap();
    std::fs::remove_file(&path).ok();

    let weights = |moves: &str| -> Vec<(String, u16)> {
        let pos = play(moves);
        book.probe(&pos)
            .iter()
            .map(|m| (m.mv.to_uci(false), m.weight))
            .collect()
    };
    // 1.e4: won once (2), drawn once (1), and won in the illegal game before its bad
    // move (2). 1.d4 only lost, so it weighs 0 and is left out.
    assert_eq!(weights(""), [("e2e4".to_string(), 5)]);
    // Black's replies to 1.e4: ...e5 lost twice (0, left out), ...c5 drew (1).
    assert_eq!(weights("e2e4"), [("c7c5".to_string(), 1)]);
    assert_eq!(weights("e2e4 e7e5"), [("g1f3".to_string(), 2)]);
    assert_eq!(weights("e2e4 c7c5"), [("g1f3".to_string(), 1)]);
    // --plies 4: the fifth ply (3.Bb5 / 3.d4) is not in the book.
    assert!(weights("e2e4 e7e5 g1f3 b8c6").is_empty());
    // Black's winning moves in game 3 are in, even after White's 0-weight 1.d4.
    assert_eq!(weights("d2d4"), [("d7d5".to_string(), 2)]);

    // --min-games 2 keeps only what two games played.
    let (book, _) = build_from_pgn(SMALL_PGN, 4, 2).unwrap();
    let start = book.probe(&Position::startpos());
    assert_eq!(start.len(), 1);
    assert_eq!(start[0].weight, 5);
    assert!(book.probe(&play("e2e4")).is_empty());
}

#[test]
fn large_weights_are_scaled_to_sixteen_bits() {
    let mut builder = ladya::book::BookBuilder::new(2);
    let start = Position::startpos();
    let e4 = start.parse_uci_move("e2e4").unwrap();
    let d4 = start.parse_uci_move("d2d4").unwrap();
    builder.add_line(&start, &[e4], 200_000);
    builder.add_line(&start, &[d4], 100);
    let book = builder.finish(1).unwrap();
    let moves = book.probe(&start);
    assert_eq!(moves[0].weight, u16::MAX);
    assert_eq!(moves[1].weight, 32); // 100 * 65535 / 200000, rounded down
}

#[test]
fn illegal_and_zero_weight_entries_are_never_played() {
    let key = polyglot_key(&Position::startpos());
    let book = book_from(&[
        (key, raw(Square::E2, Square::E5), 60000), // illegal pawn jump
        (key, raw(Square::E1, Square::E2), 50000), // blocked king
        (key, raw(Square::D2, Square::D4), 0),     // never play
        (key, raw(Square::G1, Square::F3), 1),
        (key ^ 1, raw(Square::E2, Square::E4), 9), // another position
    ]);
    let pos = Position::startpos();
    let moves = book.probe(&pos);
    let listed: Vec<String> = moves.iter().map(|m| m.mv.to_uci(false)).collect();
    assert_eq!(listed, ["g1f3", "d2d4"]);
    let nf3 = pos.parse_uci_move("g1f3").unwrap();
    for seed in 0..500 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        assert_eq!(choose(&moves, true, &mut rng), Some(nf3));
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    assert_eq!(choose(&moves, false, &mut rng), Some(nf3));

    // Only zero weights: no move at all, in both modes.
    let zero = [BookMove { mv: nf3, weight: 0 }];
    assert_eq!(choose(&zero, true, &mut rng), None);
    assert_eq!(choose(&zero, false, &mut rng), None);
    assert_eq!(choose(&[], true, &mut rng), None);
}

#[test]
fn weighted_choice_follows_weights_and_best_mode_takes_the_heaviest() {
    let pos = Position::startpos();
    let mv = |m: &str| pos.parse_uci_move(m).unwrap();
    let moves = [
        BookMove {
            mv: mv("e2e4"),
            weight: 6,
        },
        BookMove {
            mv: mv("d2d4"),
            weight: 3,
        },
        BookMove {
            mv: mv("c2c4"),
            weight: 1,
        },
    ];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);
    let mut counts = [0usize; 3];
    const DRAWS: usize = 10_000;
    for _ in 0..DRAWS {
        let chosen = choose(&moves, true, &mut rng).unwrap();
        counts[moves.iter().position(|m| m.mv == chosen).unwrap()] += 1;
    }
    for (count, expected) in counts.iter().zip([0.6, 0.3, 0.1]) {
        let share = *count as f64 / DRAWS as f64;
        assert!((share - expected).abs() < 0.02, "{counts:?}");
    }
    // The same seed gives the same sequence.
    let run = |seed| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        (0..20)
            .map(|_| choose(&moves, true, &mut rng).unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(run(7), run(7));
    assert_eq!(choose(&moves, false, &mut rng), Some(mv("e2e4")));
}

#[test]
fn missing_and_corrupt_files_are_typed_errors() {
    assert!(matches!(
        Book::open("/nonexistent/ladya/book.bin"),
        Err(BookError::Io { .. })
    ));
    let path = temp_path("corrupt.bin");
    let p = path.to_str().unwrap();
    for bytes in [vec![], vec![0u8; 15], vec![0u8; 33]] {
        std::fs::write(&path, &bytes).unwrap();
        assert!(
            matches!(Book::open(p), Err(BookError::Corrupt(_))),
            "{bytes:?}"
        );
    }
    // Keys out of order.
    let mut bytes = Entry {
        key: 2,
        raw_move: 0,
        weight: 1,
        learn: 0,
    }
    .to_bytes()
    .to_vec();
    bytes.extend_from_slice(
        &Entry {
            key: 1,
            raw_move: 0,
            weight: 1,
            learn: 0,
        }
        .to_bytes(),
    );
    assert!(matches!(
        Book::from_bytes(Cow::Owned(bytes.clone())),
        Err(BookError::Corrupt(_))
    ));
    std::fs::write(&path, &bytes).unwrap();

    // The player reports the error once and carries on without a book.
    let mut player = BookPlayer::new();
    player.enabled = true;
    assert!(player.set_file(p).is_err());
    assert!(!player.has_book());
    assert_eq!(player.pick(&Position::startpos(), false), None);
    assert!(player.set_file("/nonexistent/ladya/book.bin").is_err());
    assert_eq!(player.pick(&Position::startpos(), false), None);
    // Setting the built-in book again restores it.
    player.set_file(BUILTIN_BOOK).unwrap();
    assert!(player.pick(&Position::startpos(), false).is_some());
    std::fs::remove_file(&path).ok();
}

#[test]
fn chess960_never_uses_a_standard_book() {
    // A Chess960 position with castling rooks off the corners has no Polyglot key: even
    // an entry stored under the key computed for it is ignored.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let pos = Position::from_fen(fen).unwrap();
    let book = book_from(&[(polyglot_key(&pos), raw(Square::G2, Square::G3), 10)]);
    assert!(book.probe(&pos).is_empty());

    // In a Chess960 game the player never consults the book, not even from the one
    // Chess960 start that equals the standard start.
    let mut player = BookPlayer::new();
    player.enabled = true;
    assert_eq!(player.pick(&Position::startpos(), true), None);
    assert!(player.pick(&Position::startpos(), false).is_some());
}

#[test]
fn player_honours_depth_variety_and_never_returns_to_the_book() {
    let mut player = BookPlayer::new();
    player.set_seed(1);
    assert_eq!(
        player.pick(&Position::startpos(), false),
        None,
        "OwnBook is off"
    );
    player.enabled = true;
    player.variety = false;
    let first = player.pick(&Position::startpos(), false).unwrap();
    assert_eq!(first.mv.to_uci(false), "e2e4", "the heaviest move");
    assert!(first.weight > 0 && u32::from(first.weight) <= first.total_weight);
    assert!(first.ponder.is_some());

    // 1.a3 is not in the book: the game leaves it and does not come back, even when a
    // later position is a book position.
    assert_eq!(player.pick(&play("a2a3"), false), None);
    // A position at the ply where the book was left may still ask (a ponder miss: the
    // pondered 1.a3 was out of book, the real 1.e4 is not).
    assert!(player.pick(&play("e2e4"), false).is_some());
    assert_eq!(player.pick(&play("e2e4 e7e5"), false), None);
    assert_eq!(player.pick(&play("e2e4 e7e5 g1f3"), false), None);
    player.new_game();
    assert!(player.pick(&play("e2e4 e7e5"), false).is_some());

    // BookDepth counts game plies: depth 2 allows plies 0 and 1 only.
    player.new_game();
    player.depth = 2;
    assert!(player.pick(&play("e2e4"), false).is_some());
    assert_eq!(player.pick(&play("e2e4 e7e5"), false), None);
}

#[test]
fn lines_files_accept_san_uci_and_weights_and_name_bad_lines() {
    let text = "# comment\n\
                C20 \"King's Pawn\" | e4 e5 Nf3 | 3\n\
                e2e4 c7c5 | 2\n\
                1. d4 1... d5\n";
    let lines = parse_lines(text).unwrap();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0].label, "C20 \"King's Pawn\"");
    assert_eq!(
        (lines[0].weight, lines[1].weight, lines[2].weight),
        (3, 2, 1)
    );
    assert_eq!(lines[2].moves.len(), 2);
    let (book, _) = build_from_lines(text, usize::MAX, 1).unwrap();
    let start: Vec<(String, u16)> = book
        .probe(&Position::startpos())
        .iter()
        .map(|m| (m.mv.to_uci(false), m.weight))
        .collect();
    assert_eq!(start, [("e2e4".into(), 5), ("d2d4".into(), 1)]);

    let bad = "e4 e5\nC20 \"x\" | e4 e5 Ke3 | 1\n";
    match parse_lines(bad) {
        Err(BookError::Lines { line: 2, message }) => assert!(message.contains("Ke3"), "{message}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        parse_lines("e4 | 0"),
        Err(BookError::Lines { line: 1, .. })
    ));
}

#[test]
fn default_book_is_the_build_of_its_source() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(root.join("book/lines.txt")).unwrap();
    let (rebuilt, _) = build_from_lines(&source, usize::MAX, 1).unwrap();
    let committed_path = root.join("book/ladya.bin");
    // LADYA_BLESS_BOOK=1 rewrites the committed file after an edit of lines.txt.
    if std::env::var_os("LADYA_BLESS_BOOK").is_some() {
        std::fs::write(&committed_path, rebuilt.as_bytes()).unwrap();
    }
    let committed = std::fs::read(&committed_path).unwrap();
    assert!(
        rebuilt.as_bytes() == committed.as_slice(),
        "book/ladya.bin is stale: rebuild with LADYA_BLESS_BOOK=1 cargo test --release --test book"
    );
    // The embedded copy is the committed file.
    assert_eq!(
        ladya::book::builtin_book().unwrap().as_bytes(),
        committed.as_slice()
    );
    // It covers the main first moves for White and the main replies for Black.
    let pos = Position::startpos();
    let first: Vec<String> = rebuilt
        .probe(&pos)
        .iter()
        .map(|m| pos.to_san(m.mv))
        .collect();
    for san in ["e4", "d4", "c4", "Nf3"] {
        assert!(first.contains(&san.to_string()), "{first:?}");
    }
    for (after, reply) in [
        ("e2e4", "c7c5"),
        ("e2e4", "e7e5"),
        ("d2d4", "g8f6"),
        ("d2d4", "d7d5"),
    ] {
        let pos = play(after);
        assert!(
            rebuilt
                .probe(&pos)
                .iter()
                .any(|m| m.mv.to_uci(false) == reply),
            "{after} {reply}"
        );
    }
}

/// `ladya book ARGS…` through the binary: its stdout, or its stderr on failure.
fn ladya_book(args: &str) -> Result<String, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_ladya"))
        .arg("book")
        .args(args.split_whitespace())
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).trim_end().to_string();
    if out.status.success() {
        Ok(text(&out.stdout))
    } else {
        Err(text(&out.stderr))
    }
}

#[test]
fn cli_builds_and_probes() {
    let pgn = temp_path("cli.pgn");
    let out = temp_path("cli.bin");
    std::fs::write(&pgn, SMALL_PGN).unwrap();
    let (pgn, out) = (pgn.to_str().unwrap(), out.to_str().unwrap());
    let summary = ladya_book(&format!(
        "build --pgn {pgn} --out {out} --plies 4 --min-games 1"
    ))
    .unwrap();
    assert!(summary.contains("wrote"), "{summary}");
    let report = ladya_book(&format!("probe --book {out}")).unwrap();
    assert!(report.contains("key  463b96181691fc9c"), "{report}");
    assert!(report.contains("e2e4   e4"), "{report}");
    // A FEN may come unquoted, split over several arguments; --moves plays on from it.
    let report = ladya_book(&format!(
        "probe --book {out} --fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 \
         --moves e4 e7e5"
    ))
    .unwrap();
    assert!(report.contains("g1f3   Nf3"), "{report}");
    // Without --out, the book goes next to the input.
    let summary = ladya_book(&format!("build --pgn {pgn}")).unwrap();
    let default_out = pgn.replace(".pgn", ".bin");
    assert!(summary.ends_with(&default_out), "{summary}");
    assert!(Book::open(&default_out).is_ok());
    std::fs::remove_file(pgn).ok();
    std::fs::remove_file(out).ok();
    std::fs::remove_file(default_out).ok();

    for bad in [
        "",
        "frobnicate",
        "build --out x.bin",
        "build --lines /tmp/already.bin",
        "build --pgn a --lines b --out x.bin",
        "build --lines /nonexistent/lines.txt --out x.bin",
        "build --lines a --out x.bin --plies many",
        "probe --fen not-a-fen",
        "probe --moves e2e5",
        "probe --book /nonexistent.bin",
        "probe --colour red",
    ] {
        let error = ladya_book(bad).unwrap_err();
        assert!(!error.is_empty(), "{bad:?}: no message");
    }
    // The library's own requests say what is wrong without a command line.
    let neither = ladya::book::build(&ladya::book::BuildRequest::default()).unwrap_err();
    assert!(
        neither.to_string().contains("exactly one of --pgn"),
        "{neither}"
    );
}

// ---- The book in UCI play --------------------------------------------------------------

/// Generous wait for answers that have no deadline of their own.
const LONG: Duration = Duration::from_secs(20);

/// The engine binary driven over pipes.
struct Uci {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    log: Vec<String>,
}

impl Uci {
    fn start() -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ladya"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Uci {
            stdin: child.stdin.take().unwrap(),
            child,
            lines: rx,
            log: Vec::new(),
        }
    }

    fn send(&mut self, text: &str) {
        writeln!(self.stdin, "{text}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first one that satisfies `pred`.
    fn until(&mut self, timeout: Duration, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(line) = self.lines.recv_timeout(left) else {
                panic!(
                    "no expected line within {timeout:?}; output:\n{}",
                    self.log.join("\n")
                );
            };
            self.log.push(line.clone());
            got.push(line.clone());
            if pred(&line) {
                return got;
            }
        }
    }

    fn bestmove(&mut self, timeout: Duration) -> Vec<String> {
        self.until(timeout, |l| l.starts_with("bestmove"))
    }

    /// Everything said until `readyok`.
    fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        self.until(LONG, |l| l == "readyok")
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn book_lines(lines: &[String]) -> usize {
    lines
        .iter()
        .filter(|l| l.starts_with("info string book move"))
        .count()
}

#[test]
fn uci_plays_book_moves_at_once_only_with_own_book() {
    let mut e = Uci::start();
    e.send("uci");
    let options = e.until(LONG, |l| l == "uciok");
    for option in [
        "option name OwnBook type check default false",
        "option name BookFile type string default <built-in>",
        "option name BookDepth type spin default 40 min 0 max 1000",
        "option name BookVariety type check default true",
    ] {
        assert!(options.iter().any(|l| l == option), "{option}: {options:?}");
    }
    // Off by default: a search answers.
    e.send("position startpos");
    e.send("go depth 2");
    assert_eq!(book_lines(&e.bestmove(LONG)), 0);

    e.send("setoption name OwnBook value true");
    e.send("setoption name BookVariety value false");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4");
    let started = Instant::now();
    e.send("go wtime 60000 btime 60000");
    let out = e.bestmove(LONG);
    assert!(started.elapsed() < Duration::from_millis(500), "{out:?}");
    assert_eq!(book_lines(&out), 1, "{out:?}");
    assert_eq!(
        out.last().unwrap(),
        "bestmove c7c5 ponder g1f3",
        "heaviest reply and ponder: {out:?}"
    );

    // go ponder and go infinite still wait for ponderhit / stop.
    e.send("position startpos moves e2e4 c7c5");
    e.send("go ponder wtime 60000 btime 60000");
    let out = e.ready();
    assert_eq!(book_lines(&out), 1, "{out:?}");
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");
    std::thread::sleep(Duration::from_millis(200));
    e.send("ponderhit");
    assert_eq!(
        e.bestmove(LONG).last().unwrap(),
        "bestmove g1f3 ponder d7d6"
    );
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let out = e.ready();
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");
    e.send("stop");
    assert!(e
        .bestmove(LONG)
        .last()
        .unwrap()
        .starts_with("bestmove g1f3"));

    // Out of the book (1.a3), the game does not come back to it, even at a later ply
    // that is a book position.
    e.send("ucinewgame");
    e.send("position startpos moves a2a3");
    e.send("go depth 2");
    assert_eq!(book_lines(&e.bestmove(LONG)), 0);
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 2");
    assert_eq!(book_lines(&e.bestmove(LONG)), 0);
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 2");
    assert_eq!(book_lines(&e.bestmove(LONG)), 1);

    // Chess960 never uses the standard book.
    e.send("setoption name UCI_Chess960 value true");
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("go depth 2");
    assert_eq!(book_lines(&e.bestmove(LONG)), 0);
}

#[test]
fn uci_reports_a_bad_book_file_once_and_plays_on() {
    let corrupt = temp_path("uci-corrupt.bin");
    std::fs::write(&corrupt, [0u8; 15]).unwrap();
    for file in ["/nonexistent/ladya.bin", corrupt.to_str().unwrap()] {
        let mut e = Uci::start();
        e.send("setoption name OwnBook value true");
        e.send(&format!("setoption name BookFile value {file}"));
        e.send("position startpos");
        e.send("go depth 2");
        let out = e.bestmove(LONG);
        e.send("position startpos moves e2e4");
        e.send("go depth 2");
        let mut out2 = e.bestmove(LONG);
        out2.extend(out.iter().cloned());
        let errors = out2
            .iter()
            .filter(|l| l.starts_with("info string error:"))
            .count();
        assert_eq!(errors, 1, "{out2:?}");
        assert_eq!(book_lines(&out2), 0, "{out2:?}");
        // Back to the built-in book.
        e.send("setoption name BookFile value <built-in>");
        e.send("ucinewgame");
        e.send("position startpos");
        e.send("go depth 2");
        assert_eq!(book_lines(&e.bestmove(LONG)), 1);
    }
    std::fs::remove_file(corrupt).ok();
}

#[test]
fn random_entries_never_yield_an_illegal_move() {
    use rand_xoshiro::rand_core::RngCore;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(99);
    let positions = [
        play(""),
        play("e2e4 d7d5 e4e5 f7f5"),
        Position::from_fen("r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1").unwrap(),
    ];
    for pos in &positions {
        let key = polyglot_key(pos);
        let entries: Vec<(u64, u16, u16)> = (0..5000)
            .map(|_| (key, rng.next_u32() as u16, rng.next_u32() as u16))
            .collect();
        let book = book_from(&entries);
        let legal = pos.legal_moves();
        let moves = book.probe(pos);
        assert!(!moves.is_empty());
        assert!(moves.iter().all(|m| legal.contains(m.mv)));
        for seed in 0..50 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            if let Some(mv) = choose(&moves, true, &mut rng) {
                assert!(legal.contains(mv));
            }
        }
    }
}
