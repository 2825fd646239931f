//! Move-generator benchmarks: legal generation, make+unmake, and perft.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ladya::perft::perft;
use ladya::{GenType, MoveList, Position};

const POSITIONS: [(&str, &str); 4] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("promotions", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"),
];

fn movegen(c: &mut Criterion) {
    for (name, fen) in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        c.bench_function(&format!("legal_moves/{name}"), |b| {
            b.iter(|| black_box(&pos).legal_moves())
        });
        c.bench_function(&format!("noisy_moves/{name}"), |b| {
            b.iter(|| {
                let mut list = MoveList::new();
                black_box(&pos).generate(GenType::Noisy, &mut list);
                list
            })
        });
        c.bench_function(&format!("count_moves/{name}"), |b| {
            b.iter(|| black_box(&pos).count_legal_moves())
        });
    }
}

fn make_unmake(c: &mut Criterion) {
    for (name, fen) in POSITIONS {
        let mut pos = Position::from_fen(fen).unwrap();
        let moves = pos.legal_moves();
        c.bench_function(&format!("make_unmake_all/{name}"), |b| {
            b.iter(|| {
                for &mv in &moves {
                    pos.make_move(mv);
                    pos.unmake_move();
                }
            })
        });
    }
}

fn perft_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let mut start = Position::startpos();
    group.bench_function("startpos_5", |b| b.iter(|| perft(&mut start, 5)));
    let mut kiwi = Position::from_fen(POSITIONS[1].1).unwrap();
    group.bench_function("kiwipete_4", |b| b.iter(|| perft(&mut kiwi, 4)));
    group.finish();
}

criterion_group!(benches, movegen, make_unmake, perft_bench);
criterion_main!(benches);
