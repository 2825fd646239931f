//! Board-core tests: malformed FENs, FEN/UCI/SAN round trips, and random games checking the
//! incremental keys and every invariant after each move and each undo.

mod common;
use ladya::board::{CastleSide, Keys};
use ladya::{Color, FenError, Move, MoveError, Position, SanError, Square, START_FEN};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

#[test]
fn malformed_fens_give_typed_errors() {
    use FenError::*;
    let cases: Vec<(&str, FenError)> = vec![
        ("", Empty),
        ("   ", Empty),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            TooManyFields(7),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
            WrongRankCount(7),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            WrongRankCount(9),
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            WrongFileCount { rank: 7, files: 7 },
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            UnknownPiece('9'),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPPP/RNBQKBNR w KQkq - 0 1",
            WrongFileCount { rank: 2, files: 9 },
        ),
        (
            "rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            UnknownPiece('0'),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            UnknownPiece('X'),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/3z4/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            UnknownPiece('z'),
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            MissingKing(Color::Black),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",
            MissingKing(Color::White),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",
            ExtraKing(Color::White),
        ),
        (
            "rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            ExtraKing(Color::Black),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            BadSideToMove("x".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1",
            BadSideToMove("white".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",
            BadCastlingChar('z'),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            CastlingWithoutRook('K'),
        ),
        (
            "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            CastlingWithoutRook('q'),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqC - 0 1",
            CastlingWithoutRook('C'),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w K - 0 1",
            MissingKing(Color::White),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w K - 0 1",
            CastlingWithoutKing('K'),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            BadEnPassant("e9".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq xx 0 1",
            BadEnPassant("xx".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",
            EnPassantWrongRank(Square::E4),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            EnPassantWithoutPawn(Square::E6),
        ),
        (
            "Pnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w Kk - 0 1",
            PawnOnBackRank(Square::A8),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNp w kq - 0 1",
            PawnOnBackRank(Square::H1),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            BadHalfmoveClock("x".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -3 1",
            BadHalfmoveClock("-3".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one",
            BadFullmoveNumber("one".into()),
        ),
        // Eight pawns and a second queen: one more piece than promotions can give.
        (
            "4k3/8/8/8/8/PPPPPPPP/8/QQ2K3 w - - 0 1",
            TooMuchMaterial(Color::White),
        ),
        (
            "qqqqqqqq/qqk5/8/8/8/8/4P3/4K3 b - - 0 1",
            TooMuchMaterial(Color::Black),
        ),
        ("4k3/8/8/8/8/8/8/r3K3 b - - 0 1", OpponentInCheck),
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", OpponentInCheck),
    ];
    // Every kind of FEN error has a case: the match is exhaustive, so a new kind fails to
    // compile here until it gets an index and a case.
    let kind = |e: &FenError| match e {
        Empty => 0,
        TooManyFields(_) => 1,
        WrongRankCount(_) => 2,
        WrongFileCount { .. } => 3,
        UnknownPiece(_) => 4,
        MissingKing(_) => 5,
        ExtraKing(_) => 6,
        PawnOnBackRank(_) => 7,
        TooMuchMaterial(_) => 8,
        BadSideToMove(_) => 9,
        BadCastlingChar(_) => 10,
        CastlingWithoutKing(_) => 11,
        CastlingWithoutRook(_) => 12,
        BadEnPassant(_) => 13,
        EnPassantWrongRank(_) => 14,
        EnPassantWithoutPawn(_) => 15,
        BadHalfmoveClock(_) => 16,
        BadFullmoveNumber(_) => 17,
        OpponentInCheck => 18,
    };
    let covered: std::collections::BTreeSet<usize> = cases.iter().map(|(_, e)| kind(e)).collect();
    let missing: Vec<usize> = (0..19).filter(|k| !covered.contains(k)).collect();
    assert!(
        missing.is_empty(),
        "FEN error kinds without a case: {missing:?}"
    );
    for (fen, expected) in cases {
        match Position::from_fen(fen) {
            Ok(p) => panic!("accepted malformed FEN {fen:?} as {}", p.to_fen()),
            Err(e) => {
                assert_eq!(e, expected, "{fen:?}");
                assert!(!e.to_string().is_empty());
            }
        }
    }
}

#[test]
fn odd_but_valid_fens_are_accepted() {
    // Missing clocks default to 0 and 1; the suite's double check by two bishops on one
    // diagonal is artificial but its perft counts are valid.
    let p = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (0, 1));
    let p = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w").unwrap();
    assert!(p.castling().is_empty());
    // Shredder-FEN and X-FEN castling mean the same thing in a standard position.
    let a = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").unwrap();
    let b = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    assert_eq!(a.key(), b.key());
    assert_eq!(a.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    // An inner rook keeps its file letter.
    let p = Position::from_fen("1r2k1r1/8/8/8/8/8/8/RR2K2R w ABg - 0 1").unwrap();
    assert_eq!(
        p.castling().rook(Color::White, CastleSide::Queen),
        Some(Square::B1)
    );
    assert_eq!(p.to_fen(), "1r2k1r1/8/8/8/8/8/8/RR2K2R w Bk - 0 1");
    // An en-passant square no pawn can use is dropped (and not hashed).
    let with =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    let without =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert_eq!(with.en_passant(), None);
    assert_eq!(with.key(), without.key());
}

#[test]
fn fen_round_trips_on_every_suite_position() {
    for fen in common::all_test_fens() {
        let p = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let q = Position::from_fen(&p.to_fen()).unwrap();
        assert_eq!(p.to_fen(), q.to_fen());
        assert_eq!(p.key(), q.key());
        p.validate().unwrap();
    }
}

#[test]
fn uci_move_text() {
    let p = Position::startpos();
    let mv = p.parse_uci_move("e2e4").unwrap();
    assert_eq!(mv.to_uci(false), "e2e4");
    assert_eq!(
        p.parse_uci_move("e2e5"),
        Err(MoveError::Illegal("e2e5".into()))
    );
    for bad in ["", "e2", "e2e4qq", "z2e4", "e2e9", "e7e8k", "e2e4 "] {
        assert!(
            matches!(p.parse_uci_move(bad), Err(MoveError::Syntax(_))),
            "{bad:?}"
        );
    }
    // Castling: both forms parse; standard prints e1g1, Chess960 prints king takes rook.
    let p = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let a = p.parse_uci_move("e1g1").unwrap();
    let b = p.parse_uci_move("e1h1").unwrap();
    assert_eq!(a, b);
    assert!(a.is_castling());
    assert_eq!(a.to_uci(false), "e1g1");
    assert_eq!(a.to_uci(true), "e1h1");
    assert_eq!(p.parse_uci_move("e1c1").unwrap().to_uci(true), "e1a1");
    // Promotions need the piece letter.
    let p = Position::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
    assert_eq!(p.parse_uci_move("e7e8n").unwrap().to_uci(false), "e7e8n");
    assert!(p.parse_uci_move("e7e8").is_err());
    // Chess960: a one-file king move next to the rook is a king move, castling is king takes rook.
    let p = Position::from_fen("4k3/8/8/8/8/8/8/5K1R w H - 0 1").unwrap();
    assert!(!p.parse_uci_move("f1g1").unwrap().is_castling());
    assert!(p.parse_uci_move("f1h1").unwrap().is_castling());
}

#[test]
fn san_text() {
    let p =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    for (uci, san) in [
        ("e1g1", "O-O"),
        ("e1c1", "O-O-O"),
        ("e5f7", "Nxf7"),
        ("d5e6", "dxe6"),
        ("c3b1", "Nb1"),
        ("e2a6", "Bxa6"),
        ("g2h3", "gxh3"),
    ] {
        let mv = p.parse_uci_move(uci).unwrap();
        assert_eq!(p.to_san(mv), san, "{uci}");
        assert_eq!(p.parse_san(san).unwrap(), mv, "{san}");
    }
    let p = Position::from_fen("6k1/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
    assert_eq!(p.to_san(p.parse_uci_move("a1a8").unwrap()), "Ra8+");
    assert_eq!(p.parse_san("Rad1").unwrap().to_uci(false), "a1d1");
    assert!(matches!(p.parse_san("Rd1"), Err(SanError::Ambiguous(_))));
    assert!(matches!(p.parse_san("Qd1"), Err(SanError::Illegal(_))));
    assert!(matches!(p.parse_san("R"), Err(SanError::Syntax(_))));
    let p = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
    assert_eq!(p.to_san(p.parse_uci_move("a1a8").unwrap()), "Ra8#");
    let p = Position::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
    assert_eq!(p.parse_san("e8=Q").unwrap().to_uci(false), "e7e8q");
    assert_eq!(p.parse_san("e8N").unwrap().to_uci(false), "e7e8n");
}

fn check_position(pos: &Position, context: &str) {
    if let Err(e) = pos.validate() {
        panic!("{context}: {e} in {}", pos.to_fen());
    }
    assert_eq!(pos.compute_keys(), pos.keys(), "{context}");
}

/// 10,000 random games: after every move and every undo the keys equal a from-scratch
/// computation and the invariants hold; undoing restores the exact position; SAN and UCI
/// text round-trip for every move played.
#[test]
fn random_games_keep_keys_and_invariants() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5EED);
    let starts: Vec<String> = common::all_test_fens();
    for game in 0..10_000 {
        let fen = if game % 2 == 0 {
            START_FEN.to_string()
        } else {
            starts[game % starts.len()].clone()
        };
        let mut pos = Position::from_fen(&fen).unwrap();
        let mut trail: Vec<(String, Keys)> = Vec::new();
        for _ply in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.halfmove_clock() >= 100 {
                break;
            }
            let mv: Move = moves[(rng.next_u64() % moves.len() as u64) as usize];
            if game % 50 == 0 {
                let san = pos.to_san(mv);
                assert_eq!(pos.parse_san(&san), Ok(mv), "{san} in {}", pos.to_fen());
                assert_eq!(pos.parse_uci_move(&mv.to_uci(true)), Ok(mv));
            }
            trail.push((pos.to_fen(), pos.keys()));
            pos.make_move(mv);
            check_position(&pos, "after make");
            if rng.next_u64() % 8 == 0 && !pos.in_check() {
                let keys = pos.keys();
                pos.make_null_move();
                check_position(&pos, "after null");
                pos.unmake_null_move();
                assert_eq!(pos.keys(), keys);
            }
        }
        while let Some((fen, keys)) = trail.pop() {
            pos.unmake_move();
            check_position(&pos, "after undo");
            assert_eq!((pos.to_fen(), pos.keys()), (fen, keys));
        }
    }
}

#[test]
fn draw_rules() {
    let mut p = Position::startpos();
    for m in [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ] {
        assert!(!p.repetitions(2, usize::MAX));
        let mv = p.parse_uci_move(m).unwrap();
        p.make_move(mv);
    }
    assert!(p.repetitions(1, usize::MAX));
    assert!(p.repetitions(2, usize::MAX));
    for (fen, draw) in [
        ("8/8/4k3/8/8/4K3/8/8 w - - 0 1", true),
        ("8/8/4k3/8/8/4KN2/8/8 w - - 0 1", true),
        ("8/8/4kb2/8/8/4KB2/8/8 w - - 0 1", false),
        ("8/8/4k1b1/8/8/4KB2/8/8 w - - 0 1", true),
        ("8/8/4k3/8/8/3NKN2/8/8 w - - 0 1", false),
        ("8/8/4k3/8/8/4KP2/8/8 w - - 0 1", false),
    ] {
        assert_eq!(
            Position::from_fen(fen).unwrap().insufficient_material(),
            draw,
            "{fen}"
        );
    }
}

#[test]
fn colour_flip_is_an_involution() {
    for fen in common::all_test_fens().iter().step_by(7) {
        let p = Position::from_fen(fen).unwrap();
        let f = p.color_flipped();
        f.validate().unwrap();
        assert_eq!(f.color_flipped().to_fen(), p.to_fen());
        assert_eq!(f.count_legal_moves(), p.count_legal_moves());
    }
}

/// `attacked_by` is the set of squares `is_attacked` says a colour attacks, square by
/// square, along random games from every test position.
#[test]
fn attacked_squares_agree_with_is_attacked() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xA77AC);
    for fen in common::all_test_fens() {
        let mut pos = Position::from_fen(&fen).unwrap();
        for _ply in 0..40 {
            for by in [Color::White, Color::Black] {
                let attacked = pos.attacked_by(by);
                for sq in Square::ALL {
                    let expected = pos.is_attacked(sq, by, pos.occupied());
                    assert_eq!(
                        attacked.has(sq),
                        expected,
                        "{sq:?} by {by:?} in {}",
                        pos.to_fen()
                    );
                }
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
    }
}
