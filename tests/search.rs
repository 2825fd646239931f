//! Search behaviour: mates found with the right distance, draws recognised, limits and
//! `searchmoves` honoured, and the best move always legal.

mod common;

use ladya::search::{Limits, Score, SearchControl, SearchEvent, SearchResult, Searcher};
use ladya::{Move, Position};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn search(searcher: &mut Searcher, pos: &Position, limits: Limits) -> SearchResult {
    let control = SearchControl::default();
    searcher.search(pos, &limits, &control, &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        multipv: 1,
        ..Limits::default()
    }
}

fn score(r: &SearchResult) -> Score {
    r.info.as_ref().expect("a search reports a line").score
}

fn read_fens(rel: &str) -> Vec<String> {
    let path = common::shared_data(rel);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// Checks a mate-in-n file: the score is `Mate(n)` and the first move keeps a forced mate
/// (for n = 1 it mates at once).
fn check_mate_file(rel: &str, n: i32, search_depth: u32) {
    let mut searcher = Searcher::new(16);
    let mut failures = Vec::new();
    for fen in read_fens(rel) {
        let mut pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        searcher.clear();
        let r = search(&mut searcher, &pos, depth(search_depth));
        let best = r.best.expect("a mate position has legal moves");
        assert!(pos.legal_moves().contains(best), "{fen}: illegal {best:?}");
        if score(&r) != Score::Mate(n) {
            failures.push(format!("{fen}: {:?} {best}", score(&r)));
            continue;
        }
        if n == 1 {
            pos.make_move(best);
            assert!(pos.is_checkmate(), "{fen}: {best} does not mate");
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn finds_every_mate_in_one() {
    check_mate_file("epd/sunfish_mate1.fen", 1, 4);
}

#[test]
fn finds_every_mate_in_two() {
    check_mate_file("epd/sunfish_mate2.fen", 2, 12);
}

#[test]
fn no_legal_move_means_no_best_move() {
    let mut searcher = Searcher::new(1);
    for fen in [
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", // stalemate
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", // checkmate
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let r = search(&mut searcher, &pos, depth(5));
        assert_eq!(r.best, None, "{fen}");
    }
}

#[test]
fn insufficient_material_is_a_draw() {
    let mut searcher = Searcher::new(1);
    for fen in [
        "8/8/4k3/8/8/3BK3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3NK3/8/8 b - - 0 1",
        "8/8/2b1k3/8/8/4K3/2B5/8 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let r = search(&mut searcher, &pos, depth(8));
        assert_eq!(score(&r), Score::Cp(0), "{fen}");
    }
}

#[test]
fn fifty_move_rule_draws_unless_the_last_move_mates() {
    let mut searcher = Searcher::new(1);
    // A queen up, but every move is the hundredth ply without capture or pawn move.
    let pos = Position::from_fen("7k/8/8/8/8/8/8/K3Q3 w - - 99 80").unwrap();
    let r = search(&mut searcher, &pos, depth(6));
    assert_eq!(score(&r), Score::Cp(0));
    // Here the hundredth ply can be checkmate, which wins.
    let pos = Position::from_fen("7k/8/6K1/8/8/8/8/4Q3 w - - 99 80").unwrap();
    let r = search(&mut searcher, &pos, depth(6));
    assert_eq!(score(&r), Score::Mate(1));
}

/// Black, a queen down, may claim nothing before the third occurrence: after one cycle of
/// king moves White just plays on; after two, returning to the same position draws.
#[test]
fn repetitions_count_the_game_history() {
    let cycle = ["h8g8", "a1b1", "g8h8", "b1a1"];
    let play = |cycles: usize| {
        let mut pos = Position::from_fen("7k/8/8/8/8/8/8/K3Q3 b - - 0 1").unwrap();
        for _ in 0..cycles {
            for m in cycle {
                let mv = pos.parse_uci_move(m).unwrap();
                pos.make_move(mv);
            }
        }
        pos
    };
    let mut searcher = Searcher::new(1);
    let r = search(&mut searcher, &play(1), depth(6));
    match score(&r) {
        Score::Cp(v) => assert!(v < -500, "one earlier cycle is no draw yet: {v}"),
        s => panic!("unexpected {s:?}"),
    }
    searcher.clear();
    let pos = play(2);
    let r = search(&mut searcher, &pos, depth(6));
    assert_eq!(score(&r), Score::Cp(0));
    assert_eq!(r.best, Some(pos.parse_uci_move("h8g8").unwrap()));
}

#[test]
fn searchmoves_are_honoured() {
    let mut searcher = Searcher::new(1);
    let pos = Position::startpos();
    let allowed: Vec<Move> = ["a2a3", "h2h3"]
        .iter()
        .map(|m| pos.parse_uci_move(m).unwrap())
        .collect();
    let limits = Limits {
        depth: Some(6),
        searchmoves: allowed.clone(),
        multipv: 3,
        ..Limits::default()
    };
    let mut firsts = Vec::new();
    let r = searcher.search(&pos, &limits, &SearchControl::default(), &mut |e| {
        if let SearchEvent::Info(i) = e {
            firsts.push(i.pv[0]);
        }
    });
    assert!(allowed.contains(&r.best.unwrap()));
    assert!(firsts.iter().all(|m| allowed.contains(m)));
    // A tactic outside the allowed moves is not played: Qxd8 is not among them.
    let pos = Position::from_fen("3q3k/8/8/8/8/8/8/3Q3K w - - 0 1").unwrap();
    let allowed = vec![pos.parse_uci_move("h1g1").unwrap()];
    let limits = Limits {
        depth: Some(5),
        searchmoves: allowed.clone(),
        multipv: 1,
        ..Limits::default()
    };
    let r = search(&mut searcher, &pos, limits);
    assert_eq!(r.best, Some(allowed[0]));
}

#[test]
fn node_limit_is_exact() {
    let mut searcher = Searcher::new(16);
    for n in [1_000, 12_345, 100_000] {
        searcher.clear();
        let limits = Limits {
            nodes: Some(n),
            multipv: 1,
            ..Limits::default()
        };
        let r = search(&mut searcher, &Position::startpos(), limits);
        assert_eq!(r.nodes, n);
        assert!(r.best.is_some());
    }
}

#[test]
fn stop_flag_ends_the_search_with_a_legal_move() {
    let mut searcher = Searcher::new(1);
    let pos = Position::startpos();
    let control = SearchControl::default();
    control
        .stop
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let r = searcher.search(&pos, &Limits::default(), &control, &mut |_| {});
    assert!(pos.legal_moves().contains(r.best.unwrap()));
    // Without limits only the stop flag ends it: at its first reading, after 1,024 nodes
    // (the first iterations from the start position may all fit below that).
    assert!(r.nodes < 2_048, "{} nodes after stop", r.nodes);
}

/// Over random game positions: the best move, the PV and the ponder move are legal.
#[test]
fn best_move_and_pv_are_always_legal() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    let mut searcher = Searcher::new(4);
    let mut searched = 0;
    while searched < 300 {
        let mut pos = Position::startpos();
        let plies = 4 + rng.next_u64() % 80;
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.make_move(legal[(rng.next_u64() % legal.len() as u64) as usize]);
        }
        if pos.legal_moves().is_empty() {
            continue;
        }
        searched += 1;
        let limits = Limits {
            nodes: Some(1 + rng.next_u64() % 3_000),
            multipv: 1 + (rng.next_u64() % 3) as usize,
            ..Limits::default()
        };
        let r = search(&mut searcher, &pos, limits);
        let best = r.best.expect("legal moves exist");
        assert!(
            pos.legal_moves().contains(best),
            "{}: {best:?}",
            pos.to_fen()
        );
        if let Some(info) = &r.info {
            assert_eq!(info.pv.first(), Some(&best), "{}", pos.to_fen());
            let mut p = pos.clone();
            for &mv in &info.pv {
                assert!(
                    p.legal_moves().contains(mv),
                    "{}: PV {:?}",
                    pos.to_fen(),
                    info.pv
                );
                p.make_move(mv);
            }
        }
        if let Some(ponder) = r.ponder {
            let mut p = pos.clone();
            p.make_move(best);
            assert!(p.legal_moves().contains(ponder), "{}", pos.to_fen());
        }
    }
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let mut searcher = Searcher::new(16);
    let pos = Position::startpos();
    let limits = Limits {
        depth: Some(8),
        multipv: 3,
        ..Limits::default()
    };
    let mut last = Vec::new();
    searcher.search(&pos, &limits, &SearchControl::default(), &mut |e| {
        if let SearchEvent::Info(i) = e {
            if i.depth == 8 && i.bound == ladya::search::Bound::Exact {
                last.push(i);
            }
        }
    });
    let lines: Vec<_> = last.iter().rev().take(3).rev().collect();
    assert_eq!(
        lines.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    let cp = |s: Score| match s {
        Score::Cp(v) => v,
        s => panic!("no mate expected: {s:?}"),
    };
    assert!(cp(lines[0].score) >= cp(lines[1].score));
    assert!(cp(lines[1].score) >= cp(lines[2].score));
    assert_ne!(lines[0].pv[0], lines[1].pv[0]);
    assert_ne!(lines[1].pv[0], lines[2].pv[0]);
    assert_ne!(lines[0].pv[0], lines[2].pv[0]);
}

#[test]
fn mate_limit_stops_once_the_mate_is_found() {
    let mut searcher = Searcher::new(16);
    let pos =
        Position::from_fen("r4kr1/1b2R1n1/pq4p1/4Q3/1p4P1/5P2/PPP4P/1K2R3 w - - 1 0").unwrap();
    let limits = Limits {
        mate: Some(2),
        multipv: 1,
        ..Limits::default()
    };
    let r = search(&mut searcher, &pos, limits);
    assert_eq!(score(&r), Score::Mate(2));
    assert!(r.info.unwrap().depth < 20);
}

/// `go mate N` in a position without such a mate ends on its own after 2N + slack plies
/// instead of searching until `stop`.
#[test]
fn mate_limit_without_a_mate_ends_at_its_depth_cap() {
    let mut searcher = Searcher::new(16);
    let limits = Limits {
        mate: Some(1),
        multipv: 1,
        ..Limits::default()
    };
    let r = search(&mut searcher, &Position::startpos(), limits);
    assert!(r.best.is_some());
    // 2 x 1 + MATE_SEARCH_EXTRA_PLIES (8 in search/params.rs).
    assert_eq!(r.info.unwrap().depth, 10);
    // A depth limit below the cap still wins.
    let limits = Limits {
        mate: Some(3),
        depth: Some(4),
        multipv: 1,
        ..Limits::default()
    };
    let r = search(&mut searcher, &Position::startpos(), limits);
    assert_eq!(r.info.unwrap().depth, 4);
}

/// While pondering the clock does not run; after ponderhit the budget applies from then.
#[test]
fn pondering_ignores_the_clock_until_ponderhit() {
    use ladya::search::TimeBudget;
    use std::sync::atomic::Ordering;
    use std::time::{Duration, Instant};
    let mut searcher = Searcher::new(16);
    let pos = Position::startpos();
    let control = SearchControl::default();
    control.pondering.store(true, Ordering::Relaxed);
    let limits = Limits {
        time: Some(TimeBudget {
            soft: Duration::from_millis(20),
            hard: Duration::from_millis(50),
        }),
        multipv: 1,
        ..Limits::default()
    };
    let start = Instant::now();
    let ponderhit = Duration::from_millis(400);
    let r = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(ponderhit);
            control.pondering.store(false, Ordering::Relaxed);
        });
        searcher.search(&pos, &limits, &control, &mut |_| {})
    });
    let took = start.elapsed();
    assert!(took >= ponderhit, "stopped while pondering after {took:?}");
    assert!(took < ponderhit + Duration::from_millis(1_000), "{took:?}");
    assert!(pos.legal_moves().contains(r.best.unwrap()));
}
