//! Basic mates are won over the board: the engine plays K+Q, K+R and K+B+N against a lone
//! king, both sides searching a fixed node budget per move as in a game, and the strong side
//! must deliver mate before the fifty-move rule, a repetition or a stalemate ends the game.
//!
//! The budget is 150,000 nodes a move, under a tenth of a second at this engine's speed and
//! less than it spends per move at 10+0.1, so "works at normal time controls" is checked
//! with a margin.

use ladya::search::{Limits, SearchControl, Searcher};
use ladya::Position;

const NODES_PER_MOVE: u64 = 150_000;

/// Plays the position out with the engine on both sides. Returns the number of moves the
/// strong side (the side to move at the start) needed to mate, or how the game ended.
fn play_out(fen: &str) -> Result<usize, String> {
    let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut searcher = Searcher::new(16);
    let limits = Limits {
        nodes: Some(NODES_PER_MOVE),
        multipv: 1,
        ..Limits::default()
    };
    let mut moves = Vec::new();
    for ply in 0..200usize {
        if pos.is_checkmate() {
            return if ply % 2 == 1 {
                Ok(ply.div_ceil(2))
            } else {
                Err(format!("the lone king mated?! {}", moves.join(" ")))
            };
        }
        if pos.is_stalemate() {
            return Err(format!("stalemate after {}", moves.join(" ")));
        }
        if pos.halfmove_clock() >= 100 {
            return Err(format!("fifty-move rule after {}", moves.join(" ")));
        }
        if pos.repetitions(2, usize::MAX) {
            return Err(format!("threefold repetition after {}", moves.join(" ")));
        }
        if pos.insufficient_material() {
            return Err(format!("material lost after {}", moves.join(" ")));
        }
        let control = SearchControl::default();
        let r = searcher.search(&pos, &limits, &control, &mut |_| {});
        let best = r.best.expect("a live position has a best move");
        assert!(pos.legal_moves().contains(best), "{fen}: illegal {best:?}");
        moves.push(best.to_string());
        pos.make_move(best);
    }
    Err(format!("no mate in 100 moves: {}", moves.join(" ")))
}

fn assert_mates(fen: &str) {
    match play_out(fen) {
        Ok(n) => {
            eprintln!("{fen}: mate in {n} moves");
            assert!(n <= 50, "{fen}: mate took {n} moves");
        }
        Err(e) => panic!("{fen}: {e}"),
    }
}

#[test]
fn king_and_queen_mate_the_lone_king() {
    assert_mates("8/8/8/4k3/8/8/8/KQ6 w - - 0 1");
}

#[test]
fn king_and_rook_mate_the_lone_king() {
    assert_mates("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
}

/// Both bishop colours, the weak king in the centre: the mate must come in the corner of the
/// bishop's colour, up to 33 moves away with best play.
#[test]
fn king_bishop_and_knight_mate_the_lone_king() {
    assert_mates("8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1");
    assert_mates("8/8/3k4/8/8/8/8/4KBN1 w - - 0 1");
}
