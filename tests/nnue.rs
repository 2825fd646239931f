//! The evaluation network: incremental accumulators, the file format, the trainer.

mod common;

use ladya::data::{GameResult, PackedPosition};
use ladya::nnue::{
    default_network, evaluate_from_scratch, output_bucket, AccumulatorStack, KingBuckets, Network,
    NetworkError, HIDDEN, INPUTS, OUTPUT_BUCKETS,
};
use ladya::train::{export, float_eval, HeldOut, Model, Shape, TrainConfig};
use ladya::Position;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A network with random weights (every input matters, unlike a trained one's near-zero
/// rows), so a wrong incremental update cannot hide.
fn random_network(seed: u64) -> (Model, Network) {
    random_network_with(seed, OUTPUT_BUCKETS)
}

fn random_network_with(seed: u64, buckets: usize) -> (Model, Network) {
    random_shaped(seed, Shape::new(KingBuckets::None, buckets))
}

fn random_shaped(seed: u64, shape: Shape) -> (Model, Network) {
    let model = Model::random(&mut Xoshiro256PlusPlus::seed_from_u64(seed), shape);
    let net = Network::from_bytes(&export(&model)).expect("the export loads");
    (model, net)
}

/// Starts with castling, en passant and promotions to come, standard and Chess960.
fn starts() -> Vec<Position> {
    let mut fens: Vec<String> = vec![
        ladya::START_FEN.into(),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".into(),
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1".into(),
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8".into(),
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1".into(),
        // En passant on the first move.
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3".into(),
        "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3".into(),
        "8/8/3p4/KPp4r/1R2Pp1k/8/6P1/8 b - e3 0 1".into(),
    ];
    let chess960 = common::read_perft_file("perft/perft960.epd");
    fens.extend(chess960.iter().take(20).map(|c| c.fen.clone()));
    fens.iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect()
}

#[test]
fn incremental_accumulator_equals_a_refresh_after_every_move_null_move_and_unmake() {
    let (_, net) = random_network(7);
    walk_and_compare(&net, 11);
}

#[test]
fn with_king_buckets_too_across_king_moves_that_change_the_bucket_or_the_mirror() {
    let (_, net) = random_shaped(8, Shape::new(KingBuckets::Mirrored4, OUTPUT_BUCKETS));
    assert_eq!(net.kings(), KingBuckets::Mirrored4);
    walk_and_compare(&net, 12);
    // One stack for networks of both layouts in turn, as `EvalFile` changes between
    // searches: each reset starts afresh.
    let (_, plain) = random_network(9);
    let mut stack = AccumulatorStack::new();
    for (i, pos) in walked(13, 60, 20).iter().enumerate() {
        let net = if i % 2 == 0 { &net } else { &plain };
        stack.reset(net, pos);
        for mv in pos.legal_moves().as_slice().iter().take(8) {
            let mut after = pos.clone();
            stack.push_move(&after, *mv);
            after.make_move(*mv);
            assert_eq!(
                stack.evaluate(net, &after),
                evaluate_from_scratch(net, &after)
            );
            stack.pop();
        }
    }
}

/// Random walks from [`starts`], moves, null moves and unmakes, checking the incremental
/// accumulators against a refresh now and then (and evaluating through the search's path
/// in between, several pushes at a time).
fn walk_and_compare(net: &Network, seed: u64) {
    let net = net.clone();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut stack = AccumulatorStack::new();
    let (mut plies, mut kinds, mut turns) = (0, [0usize; 4], 0);
    let starts = starts();
    while plies < 10_000 {
        let mut pos = starts[(rng.next_u64() % starts.len() as u64) as usize].clone();
        stack.reset(&net, &pos);
        // Some evaluations are skipped on purpose: several pushes then one catch-up.
        let mut depth = 0;
        for _ in 0..120 {
            let moves = pos.legal_moves();
            let roll = rng.next_u64() % 10;
            if roll < 2 && depth > 0 {
                if pos.last_move().is_some() {
                    pos.unmake_move();
                } else {
                    pos.unmake_null_move();
                }
                stack.pop();
                depth -= 1;
            } else if roll == 2 && !pos.in_check() {
                stack.push_null();
                pos.make_null_move();
                depth += 1;
            } else if moves.is_empty() {
                break;
            } else {
                // Special moves are rare in random play: prefer them when there are some.
                let special: Vec<_> = moves
                    .as_slice()
                    .iter()
                    .copied()
                    .filter(|m| m.kind() != ladya::MoveKind::Normal)
                    .collect();
                let mv = if !special.is_empty() && rng.next_u64() % 4 != 0 {
                    special[(rng.next_u64() % special.len() as u64) as usize]
                } else {
                    moves[(rng.next_u64() % moves.len() as u64) as usize]
                };
                let kind = match mv.kind() {
                    ladya::MoveKind::Castling => 1,
                    ladya::MoveKind::EnPassant => 2,
                    ladya::MoveKind::Promotion => 3,
                    ladya::MoveKind::Normal => 0,
                };
                kinds[kind] += 1;
                let us = pos.side_to_move();
                let before = net.kings().orientation(us, pos.king(us));
                stack.push_move(&pos, mv);
                pos.make_move(mv);
                turns += usize::from(net.kings().orientation(us, pos.king(us)) != before);
                depth += 1;
            }
            plies += 1;
            let check = rng.next_u64() % 3;
            if check == 1 {
                // The search's path computes the entries (its AVX2 build where the CPU
                // has AVX2); the refresh below then compares what it computed.
                assert_eq!(
                    stack.evaluate(&net, &pos),
                    evaluate_from_scratch(&net, &pos),
                    "after ply {plies}: {}",
                    pos.to_fen()
                );
            }
            if check != 0 {
                assert!(
                    stack.matches_refresh(&net, &pos),
                    "after ply {plies}: {}",
                    pos.to_fen()
                );
            }
        }
        assert!(stack.matches_refresh(&net, &pos), "{}", pos.to_fen());
    }
    // The walk really met every kind of move.
    assert!(kinds.iter().all(|&n| n > 20), "moves by kind: {kinds:?}");
    // With king buckets, the walk met many king moves that changed a perspective's inputs.
    assert!(
        (net.kings() == KingBuckets::None) == (turns == 0) && (turns == 0 || turns > 100),
        "{turns} king moves changed the orientation"
    );
}

/// Every `every`-th position of a random game of `plies` from each of [`starts`].
fn walked(seed: u64, plies: usize, every: usize) -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut positions = Vec::new();
    for start in starts() {
        let mut pos = start;
        for ply in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply % every == 0 {
                positions.push(pos.clone());
            }
            pos.make_move(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
    }
    positions
}

/// `pos` mirrored left to right (no castling rights: they do not survive the mirror).
fn mirrored(pos: &Position) -> Position {
    let fen = pos.to_fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = fields[0]
        .split('/')
        .map(|rank| {
            let mut squares = String::new();
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(n) => squares.push_str(&"1".repeat(n as usize)),
                    None => squares.push(c),
                }
            }
            squares.chars().rev().collect()
        })
        .collect();
    let ep = match fields[3] {
        "-" => "-".to_string(),
        sq => {
            let file = (b'h' - (sq.as_bytes()[0] - b'a')) as char;
            format!("{file}{}", &sq[1..])
        }
    };
    let fen = format!("{} {} - {} 0 1", board.join("/"), fields[1], ep);
    Position::from_fen(&fen).unwrap()
}

#[test]
fn a_network_split_into_king_buckets_evaluates_as_it_did_on_the_folded_board() {
    // Each bucket starts as a copy of the one set of inputs: with both kings on the a- to
    // d-files the split network evaluates a position exactly as the network it came
    // from, and with both on the e- to h-files as that network evaluates the mirror image
    // (the board each side sees). The float network and the quantized one alike.
    let (model, net) = random_network(31);
    let split = model
        .clone()
        .with_king_buckets(KingBuckets::Mirrored4, false)
        .unwrap();
    assert_eq!(split.kings(), KingBuckets::Mirrored4);
    let split_net = Network::from_bytes(&export(&split)).unwrap();
    let (mut same_side, mut mixed) = (0, 0);
    for pos in walked(33, 200, 1) {
        let east = |c| pos.king(c).index() % 8 >= 4;
        let (white, black) = (east(ladya::Color::White), east(ladya::Color::Black));
        if white != black {
            mixed += 1;
            continue;
        }
        let seen = if white { mirrored(&pos) } else { pos.clone() };
        let (a, b) = (
            PackedPosition::new(&pos, 0, GameResult::Draw),
            PackedPosition::new(&seen, 0, GameResult::Draw),
        );
        // The same sums, added in another order (the mirror lists the pieces in another
        // order): equal to float rounding.
        let (x, y) = (float_eval(&split, &a), float_eval(&model, &b));
        assert!((x - y).abs() < 1e-3, "{}: {x} {y}", pos.to_fen());
        assert_eq!(
            evaluate_from_scratch(&split_net, &pos),
            evaluate_from_scratch(&net, &seen),
            "{}",
            pos.to_fen()
        );
        same_side += 1;
    }
    assert!(same_side > 1000 && mixed > 100, "{same_side} and {mixed}");
    // Split once is enough: a split network cannot be split again into another layout,
    // and splitting into the layout it has changes nothing.
    assert!(split
        .clone()
        .with_king_buckets(KingBuckets::None, false)
        .is_err());
    let again = split
        .clone()
        .with_king_buckets(KingBuckets::Mirrored4, false)
        .unwrap();
    assert!(export(&again) == export(&split));
    // Factorised, the old set is the shared one and the buckets' own rows start at zero:
    // the very same network.
    let factorised = model
        .clone()
        .with_king_buckets(KingBuckets::Mirrored4, true)
        .unwrap();
    assert!(factorised.shape().factorised);
    assert!(export(&factorised) == export(&split));
    let dir = std::env::temp_dir().join(format!("ladya-kings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    factorised.save_weights(&dir.join("f.float")).unwrap();
    assert_eq!(
        Model::load_init(&dir.join("f.float")).unwrap().shape(),
        factorised.shape()
    );
    // A factorised run trains and exports a king-bucketed network the engine loads.
    let cfg = TrainConfig {
        epochs: 2,
        batch_size: 256,
        held_out: HeldOut::Share(0.1),
        out_dir: dir.join("run"),
        king_buckets: KingBuckets::Mirrored4,
        factorise: true,
        ..TrainConfig::default()
    };
    let mut losses = Vec::new();
    let trained = ladya::train::train(
        &cfg,
        &sample_positions(),
        Some((factorised, 0)),
        &mut |r| losses.push(r.validation_loss),
        &mut |_, _| {},
    )
    .unwrap();
    assert!(losses.iter().all(|l| l.is_finite()), "{losses:?}");
    let trained_net = Network::from_bytes(&export(&trained)).unwrap();
    assert_eq!(trained_net.kings(), KingBuckets::Mirrored4);
    // The trainer's two sets of rows evaluate as their sums, which the network file holds.
    let summed = trained.unfactorised();
    assert!(!summed.shape().factorised);
    assert!(export(&summed) == export(&trained));
    for pos in walked(34, 40, 5) {
        let packed = PackedPosition::new(&pos, 0, GameResult::Draw);
        let (x, y) = (float_eval(&trained, &packed), float_eval(&summed, &packed));
        assert!((x - y).abs() < 1e-3, "{}: {x} {y}", pos.to_fen());
    }
    // Its float weights and checkpoints load back as what they are.
    split.save_weights(&dir.join("split.float")).unwrap();
    let loaded = Model::load_init(&dir.join("split.float")).unwrap();
    assert_eq!(loaded.shape(), split.shape());
    assert!(export(&loaded) == export(&split));
    split.save_checkpoint(&dir.join("split.ckpt"), 1).unwrap();
    let (ckpt, _) = Model::load_checkpoint(&dir.join("split.ckpt")).unwrap();
    assert_eq!(ckpt.shape(), split.shape());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn quantized_network_agrees_with_the_float_one() {
    // Positions along random games, so captures bring every amount of material (and so
    // every output bucket) onto the board.
    let positions = walked(17, 300, 7);
    for shape in Shape::ALL {
        let buckets = shape.buckets;
        let (model, net) = random_shaped(3, shape);
        assert_eq!(net.header().buckets as usize, buckets);
        assert_eq!(net.header().kings, shape.kings);
        let mut seen = vec![false; buckets];
        for pos in &positions {
            seen[output_bucket(pos.occupied().count(), buckets)] = true;
            let packed = PackedPosition::new(pos, 0, GameResult::Draw);
            let float = float_eval(&model, &packed);
            let int = evaluate_from_scratch(&net, pos) as f32;
            // Rounded weights and two truncating divisions: 2.6 cp at most over these
            // 2,230 evaluations; a wrong weight or bucket is off by far more.
            assert!(
                (float - int).abs() <= 3.0 + float.abs() * 0.02,
                "{shape}, {}: float {float}, int {int}",
                pos.to_fen()
            );
        }
        assert!(seen.iter().all(|&s| s), "buckets met: {seen:?}");
    }
}

#[test]
fn the_embedded_network_loads_and_evaluates_symmetrically() {
    let net = default_network();
    for pos in starts().into_iter().take(5) {
        let flipped = pos.color_flipped();
        assert_eq!(
            evaluate_from_scratch(&net, &pos),
            evaluate_from_scratch(&net, &flipped),
            "{}",
            pos.to_fen()
        );
    }
}

#[test]
fn bad_network_files_are_typed_errors() {
    let (model, _) = random_network(5);
    let good = export(&model);
    assert!(matches!(
        Network::from_bytes(&good[..100]),
        Err(NetworkError::Size { .. })
    ));
    assert!(matches!(
        Network::from_bytes(&good[..10]),
        Err(NetworkError::Size { .. })
    ));
    assert!(matches!(
        Network::from_bytes(&[]),
        Err(NetworkError::Size { .. })
    ));
    let mut foreign = good.clone();
    foreign[0..8].copy_from_slice(b"NNUEFILE");
    assert_eq!(
        Network::from_bytes(&foreign).err(),
        Some(NetworkError::Magic)
    );
    let mut corrupt = good.clone();
    let n = corrupt.len();
    corrupt[n / 2] ^= 0x40;
    assert_eq!(
        Network::from_bytes(&corrupt).err(),
        Some(NetworkError::Hash)
    );
    let mut other_arch = good.clone();
    other_arch[16] = 7; // hidden size
    assert!(matches!(
        Network::from_bytes(&other_arch),
        Err(NetworkError::Architecture(_))
    ));
    let mut kings = good.clone();
    kings[48] = 9; // an unknown king-bucket layout
    assert!(matches!(
        Network::from_bytes(&kings),
        Err(NetworkError::Architecture(_))
    ));
    let (split, _) = random_shaped(6, Shape::new(KingBuckets::Mirrored4, OUTPUT_BUCKETS));
    let mut inputs_disagree = export(&split);
    inputs_disagree[48] = 0; // 3,072 inputs but no king buckets
    assert!(matches!(
        Network::from_bytes(&inputs_disagree),
        Err(NetworkError::Architecture(_))
    ));
    let mut version = good.clone();
    version[8] = 9;
    assert_eq!(
        Network::from_bytes(&version).err(),
        Some(NetworkError::Version(9))
    );
    assert!(matches!(
        Network::load(std::path::Path::new("/nonexistent/net.nnue")),
        Err(NetworkError::Io(_))
    ));
}

/// A few thousand positions from the engine's own self-play, for the trainer.
fn sample_positions() -> Vec<PackedPosition> {
    include_str!("data/selfplay_sample.txt")
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            let pos = Position::from_fen(f[0].trim()).unwrap();
            PackedPosition::new(
                &pos,
                f[1].trim().parse().unwrap(),
                GameResult::parse(f[2]).unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_warm_start_with_no_training_exports_the_same_network_bit_for_bit() {
    let positions = sample_positions();
    let dir = std::env::temp_dir().join(format!("ladya-warm-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = TrainConfig {
        epochs: 0,
        batch_size: 256,
        out_dir: dir.clone(),
        ..TrainConfig::default()
    };
    let no_steps = |model: Model, buckets: usize| {
        let cfg = TrainConfig {
            output_buckets: buckets,
            ..cfg.clone()
        };
        let out = ladya::train::train(
            &cfg,
            &positions,
            Some((model, 0)),
            &mut |_| {},
            &mut |_, _| {},
        );
        export(&out.unwrap())
    };
    // From the shipped network's file (its integers divided back to floats)...
    let shipped = std::fs::read("nets/default.nnue").unwrap();
    let net = Network::from_bytes(&shipped).unwrap();
    let buckets = net.header().buckets as usize;
    let from_file = Model::load_init(std::path::Path::new("nets/default.nnue")).unwrap();
    assert!(
        no_steps(from_file, buckets) == shipped,
        "the shipped network changed"
    );
    // ...from a one-bucket network...
    let (_, one) = random_network_with(11, 1);
    let bytes = Network::file_bytes(
        one.kings(),
        one.weights().0,
        one.weights().1,
        one.weights().2,
        one.weights().3,
    );
    assert!(
        no_steps(Model::from_network(&one), 1) == bytes,
        "a one-bucket network changed"
    );
    // ...and from float weights, which are kept exactly.
    let (model, _) = random_network(12);
    let floats = dir.join("random.float");
    model.save_weights(&floats).unwrap();
    assert!(
        no_steps(Model::load_init(&floats).unwrap(), OUTPUT_BUCKETS) == export(&model),
        "float weights changed"
    );
    // A checkpoint serves as a starting point too; anything else is a typed error.
    model.save_checkpoint(&dir.join("ckpt.bin"), 3).unwrap();
    assert!(
        no_steps(
            Model::load_init(&dir.join("ckpt.bin")).unwrap(),
            OUTPUT_BUCKETS
        ) == export(&model)
    );
    std::fs::write(dir.join("junk.float"), b"LADYFLT1 not weights").unwrap();
    assert!(Model::load_init(&dir.join("junk.float")).is_err());
    std::fs::write(dir.join("junk.txt"), b"hello").unwrap();
    assert!(Model::load_init(&dir.join("junk.txt")).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

/// Writes `floats` as a float weights file (the trainer's `.float` format).
fn write_float_file(path: &std::path::Path, floats: &[f32]) {
    let mut bytes = b"LADYFLT1".to_vec();
    bytes.extend_from_slice(&(floats.len() as u64).to_le_bytes());
    for x in floats {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_narrower_network_widens_to_the_same_evaluation() {
    // A random network (every input matters) cut down to its first half of neurons, then
    // widened back by `load_init`, evaluates exactly as the full network with the second
    // half's output weights set to zero: the new neurons' output weights are zero, the old
    // ones are where they were, in the float network and the quantized one alike.
    let dir = std::env::temp_dir().join(format!("ladya-widen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (model, _) = random_network(21);
    model.save_weights(&dir.join("full.float")).unwrap();
    let bytes = std::fs::read(dir.join("full.float")).unwrap();
    let floats: Vec<f32> = bytes[16..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let half = HIDDEN / 2;
    let (input_weights, rest) = floats.split_at(INPUTS * HIDDEN);
    let (biases, rest) = rest.split_at(HIDDEN);
    let (output_weights, output_biases) = rest.split_at(OUTPUT_BUCKETS * 2 * HIDDEN);
    // Rows of HIDDEN: each input's weights, the biases, each bucket's two output halves.
    let rows = || {
        input_weights
            .chunks_exact(HIDDEN)
            .chain(std::iter::once(biases))
            .chain(output_weights.chunks_exact(HIDDEN))
    };
    let mut narrow: Vec<f32> = rows().flat_map(|row| row[..half].to_vec()).collect();
    narrow.extend_from_slice(output_biases);
    let mut masked = floats.clone();
    for half_row in masked[INPUTS * HIDDEN + HIDDEN..]
        .chunks_exact_mut(HIDDEN)
        .take(OUTPUT_BUCKETS * 2)
    {
        half_row[half..].fill(0.0);
    }
    write_float_file(&dir.join("narrow.float"), &narrow);
    write_float_file(&dir.join("masked.float"), &masked);
    let widened = Model::load_init(&dir.join("narrow.float")).unwrap();
    let masked = Model::load_init(&dir.join("masked.float")).unwrap();
    assert_eq!(widened.buckets(), OUTPUT_BUCKETS);
    let (wide_net, masked_net) = (
        Network::from_bytes(&export(&widened)).unwrap(),
        Network::from_bytes(&export(&masked)).unwrap(),
    );
    assert!(
        wide_net != masked_net,
        "the new neurons' input weights are random"
    );
    let mut evaluated = 0;
    for pos in walked(23, 200, 1) {
        let packed = PackedPosition::new(&pos, 0, GameResult::Draw);
        assert_eq!(
            float_eval(&widened, &packed).to_bits(),
            float_eval(&masked, &packed).to_bits(),
            "{}",
            pos.to_fen()
        );
        assert_eq!(
            evaluate_from_scratch(&wide_net, &pos),
            evaluate_from_scratch(&masked_net, &pos)
        );
        evaluated += 1;
    }
    assert!(evaluated > 1000);
    // A file wider than this build, or of no width at all, is a typed error.
    let mut wider = floats.clone();
    wider.extend(std::iter::repeat_n(0.0, INPUTS + 1 + 2 * OUTPUT_BUCKETS));
    write_float_file(&dir.join("wider.float"), &wider);
    assert!(Model::load_init(&dir.join("wider.float")).is_err());
    write_float_file(&dir.join("empty.float"), &[]);
    assert!(Model::load_init(&dir.join("empty.float")).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_warm_start_begins_where_its_network_left_off() {
    // One epoch from the trained network is already better than one from random weights.
    let positions = sample_positions();
    let dir = std::env::temp_dir().join(format!("ladya-warm-loss-{}", std::process::id()));
    let cfg = TrainConfig {
        epochs: 1,
        batch_size: 256,
        lr: 0.0005,
        held_out: HeldOut::Share(0.1),
        out_dir: dir.clone(),
        ..TrainConfig::default()
    };
    let mut losses = Vec::new();
    let warm = Model::load_init(std::path::Path::new("nets/default.nnue")).unwrap();
    for start in [None, Some((warm, 0))] {
        ladya::train::train(
            &cfg,
            &positions,
            start,
            &mut |r| losses.push(r.validation_loss),
            &mut |_, _| {},
        )
        .unwrap();
    }
    assert!(losses[1] < losses[0] * 0.8, "random then warm: {losses:?}");
    assert!(ladya::train::Model::load_init(&dir.join("epoch-1.float")).is_ok());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_tiny_training_run_lowers_the_loss_and_exports_a_loadable_network() {
    let positions = sample_positions();
    assert!(positions.len() >= 3000);
    let dir = std::env::temp_dir().join(format!("ladya-train-test-{}", std::process::id()));
    let cfg = TrainConfig {
        epochs: 6,
        batch_size: 256,
        lr: 0.002,
        held_out: HeldOut::Share(0.1),
        threads: 2,
        seed: 5,
        out_dir: dir.clone(),
        ..TrainConfig::default()
    };
    let mut losses = Vec::new();
    let halfway = dir.join("after-epoch-3.bin");
    let model = ladya::train::train(
        &cfg,
        &positions,
        None,
        &mut |r| {
            losses.push(r.validation_loss);
            // The checkpoint on disk is still epoch 3's when epoch 4 reports.
            if r.epoch == 4 {
                std::fs::copy(dir.join("checkpoint.bin"), &halfway).unwrap();
            }
        },
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(losses.len(), 6);
    assert!(losses[5] < losses[0] * 0.9, "validation losses {losses:?}");
    Network::from_bytes(&export(&model)).unwrap();
    assert!(Network::load(&dir.join("epoch-6.nnue")).is_ok());
    // The same seed and threads give the same network.
    let again = ladya::train::train(&cfg, &positions, None, &mut |_| {}, &mut |_, _| {}).unwrap();
    assert!(export(&again) == export(&model), "a rerun differs");
    // A run resumed from epoch 3's checkpoint ends with the same network.
    let (ckpt, done) = Model::load_checkpoint(&halfway).unwrap();
    assert_eq!(done, 3);
    let mut resumed_epochs = Vec::new();
    let resumed = ladya::train::train(
        &cfg,
        &positions,
        Some((ckpt, done)),
        &mut |r| resumed_epochs.push(r.epoch),
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(resumed_epochs, [4, 5, 6]);
    assert!(
        export(&resumed) == export(&model),
        "the resumed run differs"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_held_out_count_validates_on_exactly_the_last_positions() {
    // A share is rounded down (`--validation`); a count (`--validation-positions`) is not,
    // so the generation script names the newest games' positions exactly.
    assert_eq!(HeldOut::Share(0.0035).of(45_103_000), 157_860);
    assert_eq!(HeldOut::Positions(170_610).of(45_103_000), 170_610);
    assert_eq!(HeldOut::Positions(0).of(100), 1);
    let positions = sample_positions();
    let dir = std::env::temp_dir().join(format!("ladya-held-out-{}", std::process::id()));
    let held = 333;
    let cfg = TrainConfig {
        epochs: 1,
        batch_size: 256,
        held_out: HeldOut::Positions(held),
        out_dir: dir.clone(),
        ..TrainConfig::default()
    };
    let mut reported = Vec::new();
    let model = ladya::train::train(
        &cfg,
        &positions,
        None,
        &mut |r| reported.push(r.validation_loss),
        &mut |_, _| {},
    )
    .unwrap();
    let tail = &positions[positions.len() - held..];
    let expected = ladya::train::loss_on(&model, tail, cfg.lambda, cfg.threads);
    assert!(
        (reported[0] - expected).abs() <= 1e-12 * expected,
        "reported {} on the last {held}, recomputed {expected}",
        reported[0]
    );
    let one_more = &positions[positions.len() - held - 1..];
    assert_ne!(
        ladya::train::loss_on(&model, one_more, cfg.lambda, cfg.threads),
        expected
    );
    // More held out than there is data is refused, not a panic.
    let too_many = TrainConfig {
        held_out: HeldOut::Positions(usize::MAX),
        ..cfg
    };
    let refused = ladya::train::train(&too_many, &positions, None, &mut |_| {}, &mut |_, _| {});
    assert!(matches!(
        refused,
        Err(ladya::train::TrainError::TooLittleData {
            held_out: usize::MAX,
            ..
        })
    ));
    std::fs::remove_dir_all(&dir).ok();
}
