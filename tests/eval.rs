//! Evaluation tests: colour symmetry, trace consistency, endgame knowledge.

mod common;

use ladya::eval::{evaluate, trace};
use ladya::Position;

/// The first 1,000 positions of the perft and EPD files.
fn test_positions() -> Vec<Position> {
    let fens = common::all_test_fens();
    let positions: Vec<Position> = fens
        .iter()
        .filter_map(|f| Position::from_fen(f).ok())
        .take(1000)
        .collect();
    assert_eq!(positions.len(), 1000, "need 1,000 test positions");
    positions
}

/// Middlegames and endgames of Ladya's own self-play (`tests/data/selfplay_sample.txt`):
/// positions as games reach them, which the perft suites, built to stress move
/// generation, are not.
fn game_positions() -> Vec<Position> {
    let positions: Vec<Position> = include_str!("data/selfplay_sample.txt")
        .lines()
        .filter_map(|l| Position::from_fen(l.split(" | ").next()?).ok())
        .collect();
    assert_eq!(positions.len(), 4000, "need the 4,000 self-play positions");
    let middlegames = positions
        .iter()
        .filter(|p| p.occupied().count() >= 20)
        .count();
    assert!(middlegames >= 1000, "only {middlegames} middlegames");
    positions
}

/// The evaluation of each position equals that of its colour-flipped twin.
fn assert_flip_symmetric(positions: Vec<Position>) {
    for pos in positions {
        let flipped = pos.color_flipped();
        assert_eq!(
            evaluate(&pos),
            evaluate(&flipped),
            "asymmetric evaluation:\n{pos}\nflipped:\n{flipped}\n{}\n{}",
            trace(&pos),
            trace(&flipped)
        );
    }
}

#[test]
fn colour_flip_is_symmetric_in_game_positions() {
    assert_flip_symmetric(game_positions());
}

#[test]
fn colour_flip_is_symmetric() {
    assert_flip_symmetric(test_positions());
}

#[test]
fn trace_total_equals_evaluate() {
    for pos in test_positions() {
        let t = trace(&pos);
        assert_eq!(
            t.total,
            evaluate(&pos),
            "trace differs for {}",
            pos.to_fen()
        );
        // Twice, so the second call goes through the pawn hash table.
        assert_eq!(
            t.total,
            evaluate(&pos),
            "cached eval differs for {}",
            pos.to_fen()
        );
    }
}

#[test]
fn trace_prints_every_side_phase_and_total() {
    let pos = Position::startpos();
    let text = trace(&pos).to_string();
    for needle in [
        "material",
        "pst_pawn",
        "king_danger",
        "White",
        "Black",
        "phase 24 / 24",
        "total",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

#[test]
fn start_position_is_balanced_with_a_small_tempo_bonus() {
    let v = evaluate(&Position::startpos());
    assert!((0..=40).contains(&v), "startpos eval {v}");
}

#[test]
fn material_advantage_shows() {
    // White is a queen up.
    let pos =
        Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    assert!(evaluate(&pos) > 700, "queen up: {}", evaluate(&pos));
}

#[test]
fn insufficient_material_is_a_draw() {
    for fen in [
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3BK3/8/8 b - - 0 1",
    ] {
        assert_eq!(evaluate(&Position::from_fen(fen).unwrap()), 0, "{fen}");
    }
}

#[test]
fn two_knights_and_small_pawnless_edges_scale_down() {
    // K+N+N v K cannot be forced; K+R v K+B is a draw in general.
    let knn = Position::from_fen("8/8/4k3/8/8/2NNK3/8/8 w - - 0 1").unwrap();
    assert!(evaluate(&knn).abs() < 50, "KNN v K: {}", evaluate(&knn));
    let krkb = Position::from_fen("8/8/4kb2/8/8/3RK3/8/8 w - - 0 1").unwrap();
    assert!(evaluate(&krkb).abs() < 100, "KR v KB: {}", evaluate(&krkb));
}

#[test]
fn opposite_coloured_bishops_scale_towards_a_draw() {
    // White a pawn up with only bishops left: with the bishops on squares of opposite
    // colours the extra pawn is worth much less than with bishops of the same colour.
    let opposite = Position::from_fen("4k3/pp6/3b4/8/2B5/8/PPP5/4K3 w - - 0 1").unwrap();
    let same = Position::from_fen("4k3/pp6/4b3/8/2B5/8/PPP5/4K3 w - - 0 1").unwrap();
    let (o, s) = (evaluate(&opposite), evaluate(&same));
    assert!(o > 0 && 2 * o < s, "opposite bishops {o}, same colour {s}");
}

#[test]
fn mop_up_drives_the_lone_king_to_the_edge() {
    // The same K+Q v K material: the weak king in a corner scores better for White than
    // the weak king in the centre.
    let corner = Position::from_fen("k7/8/8/8/8/8/7Q/4K3 w - - 0 1").unwrap();
    let centre = Position::from_fen("8/8/8/3k4/8/8/7Q/4K3 w - - 0 1").unwrap();
    assert!(evaluate(&corner) > evaluate(&centre));
    // Kings close together score better than kings far apart.
    let close = Position::from_fen("k7/8/1K6/8/8/8/7Q/8 w - - 0 1").unwrap();
    let far = Position::from_fen("k7/8/8/8/8/8/7Q/6K1 w - - 0 1").unwrap();
    assert!(evaluate(&close) > evaluate(&far));
    // Bishop and knight: the weak king belongs in a corner of the bishop's colour.
    let right = Position::from_fen("7k/8/5K2/8/8/8/8/4BN2 w - - 0 1").unwrap();
    let wrong = Position::from_fen("k7/8/2K5/8/8/8/8/4BN2 w - - 0 1").unwrap();
    assert!(evaluate(&right) > evaluate(&wrong), "KBN corner");
}

#[test]
fn passed_pawns_gain_value_as_they_advance() {
    let far = Position::from_fen("4k3/8/8/8/8/8/P7/4K3 w - - 0 1").unwrap();
    let near = Position::from_fen("4k3/8/P7/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert!(evaluate(&near) > evaluate(&far));
}

#[test]
fn pawn_cache_and_trace_agree_along_random_games() {
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..50 {
        let mut pos = Position::startpos();
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
            pos.make_move(mv);
            // The cached evaluation (pawn hash hits along the game), the uncached trace and
            // the colour-flipped position all agree.
            let v = evaluate(&pos);
            assert_eq!(v, trace(&pos).total, "{}", pos.to_fen());
            assert_eq!(v, evaluate(&pos.color_flipped()), "{}", pos.to_fen());
        }
        while pos.ply_count() > 0 {
            pos.unmake_move();
            let v = evaluate(&pos);
            assert_eq!(v, trace(&pos).total, "after unmake: {}", pos.to_fen());
        }
    }
}

#[test]
fn incremental_material_and_psq_equal_scratch_along_random_games() {
    use ladya::eval::{attach, PSQ_TABLE};
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    // Start from varied positions (castling, en passant, promotions all occur), attached.
    for start in test_positions().into_iter().step_by(5) {
        let mut pos = start.clone();
        attach(&mut pos);
        assert!(std::ptr::eq(pos.psq_table(), &PSQ_TABLE));
        let scratch_eval = |pos: &Position| {
            // A position built from the FEN has no table attached: evaluated from scratch.
            let plain = Position::from_fen(&pos.to_fen()).unwrap();
            evaluate(&plain)
        };
        let start_ply = pos.ply_count();
        for _ in 0..100 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if !pos.in_check() && rng.next_u64() % 8 == 0 {
                pos.make_null_move();
                assert_eq!(
                    pos.psq(),
                    pos.psq_from_scratch(),
                    "after null: {}",
                    pos.to_fen()
                );
                pos.unmake_null_move();
            }
            let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
            pos.make_move(mv);
            assert_eq!(
                pos.psq(),
                pos.psq_from_scratch(),
                "after {mv}: {}",
                pos.to_fen()
            );
            assert_eq!(evaluate(&pos), scratch_eval(&pos), "{}", pos.to_fen());
        }
        while pos.ply_count() > start_ply {
            pos.unmake_move();
            assert_eq!(
                pos.psq(),
                pos.psq_from_scratch(),
                "after unmake: {}",
                pos.to_fen()
            );
        }
        assert_eq!(pos.to_fen(), start.to_fen());
        assert_eq!(evaluate(&pos), evaluate(&start));
    }
}
