//! The staged move picker: moves come out in the order most likely to cause a cutoff, and
//! each stage is generated only when the previous ones did not cut.
//!
//! Order: TT move → good captures (MVV-LVA and capture history, SEE ≥ 0) → two killers → counter move → quiet
//! moves by history → bad captures. Moves that are not from the generator (TT move,
//! killers, counter) are checked with `is_legal_fast` and skipped later when generated.

use super::history::{History, QuietContext};
use super::legal::is_legal_fast;
use super::params::{
    CAPTURE_HISTORY_DIVISOR, SEE_VALUES, THREAT_ORDER_MINOR, THREAT_ORDER_QUEEN, THREAT_ORDER_ROOK,
    USE_HISTORY_ORDERING, USE_QS_SEE_PRUNING, USE_THREAT_ORDERING,
};
use super::see::see_ge;
use crate::bitboard::Bitboard;
use crate::board::{AttackMap, Position};
use crate::chess_move::Move;
use crate::movegen::{GenType, MoveList, MAX_MOVES};
use crate::types::PieceType;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    TtMove,
    GenNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    Counter,
    GenQuiet,
    Quiet,
    BadNoisy,
    Done,
}

/// True for the moves the generator counts as noisy: captures and queen promotions.
#[inline]
pub fn is_generated_noisy(pos: &Position, mv: Move) -> bool {
    pos.is_capture(mv) || mv.promotion_piece() == Some(PieceType::Queen)
}

/// MVV-LVA: the most valuable victim first, the least valuable attacker among equals.
#[inline]
fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    let victim = pos.captured_by(mv).map_or(0, |k| SEE_VALUES[k.index()]);
    let attacker = pos
        .piece_on(mv.from())
        .map_or(0, |p| p.kind().index() as i32);
    let promo = mv.promotion_piece().map_or(0, |k| SEE_VALUES[k.index()]);
    (victim + promo) * 8 - attacker
}

/// Where each kind of the side to move's pieces stands attacked by a cheaper enemy piece:
/// a minor piece by a pawn, a rook by a pawn or a minor piece, the queen by any of those or
/// a rook. Such a piece is lost unless it moves (or is defended by more than its worth).
struct Danger {
    minor: Bitboard,
    rook: Bitboard,
    queen: Bitboard,
}

impl Danger {
    fn of(them: &AttackMap) -> Danger {
        Danger {
            minor: them.pawns,
            rook: them.pawns | them.minors,
            queen: them.pawns | them.minors | them.rooks,
        }
    }

    /// The ordering bonus of a quiet move of a `kind` piece: a piece en prise that moves
    /// away from the danger first, one that walks into it last.
    #[inline]
    fn bonus(&self, kind: PieceType, mv: Move) -> i32 {
        let (squares, value) = match kind {
            PieceType::Knight | PieceType::Bishop => (self.minor, THREAT_ORDER_MINOR),
            PieceType::Rook => (self.rook, THREAT_ORDER_ROOK),
            PieceType::Queen => (self.queen, THREAT_ORDER_QUEEN),
            _ => return 0,
        };
        value * (squares.has(mv.from()) as i32 - squares.has(mv.to()) as i32)
    }
}

/// The low bits of a keyed score: the move's index, counted down so that the first of
/// equal scores is the largest.
const INDEX_MASK: usize = MAX_MOVES - 1;
const INDEX_BITS: u32 = MAX_MOVES.trailing_zeros();
const _: () = assert!(MAX_MOVES.is_power_of_two());
/// The score of a move already handed out.
const PICKED: i32 = i32::MIN;

/// A move's ordering score with its index in the list in the low byte: ordered as the
/// scores are (ties by index), and unique, so the maximum names its move. History scores
/// stay within a few times `HISTORY_MAX` and MVV-LVA within thousands, far from overflow.
#[inline]
fn keyed(score: i32, index: usize) -> i32 {
    debug_assert!(index <= INDEX_MASK && score.unsigned_abs() < 1 << (30 - INDEX_BITS));
    (score << INDEX_BITS) | (INDEX_MASK - index) as i32
}

/// Hands out the moves of one node, one at a time.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// What quiet moves' history is read under: the moves one and two plies back, the
    /// squares the opponent attacks.
    quiet: QuietContext,
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    bad: MoveList,
    bad_index: usize,
    noisy_only: bool,
    skip_quiets: bool,
}

impl MovePicker {
    /// A picker for a full-width node.
    pub fn new(tt_move: Move, killers: [Move; 2], counter: Move) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            counter,
            quiet: QuietContext::default(),
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            bad: MoveList::new(),
            bad_index: 0,
            noisy_only: false,
            skip_quiets: false,
        }
    }

    /// Orders quiet moves by their history under `quiet` (the moves before them, the
    /// squares the opponent attacks).
    pub fn with_context(mut self, quiet: QuietContext) -> MovePicker {
        self.quiet = quiet;
        self
    }

    /// A picker for quiescence: TT move (if noisy) and captures that do not lose material.
    pub fn noisy(tt_move: Move) -> MovePicker {
        let mut p = MovePicker::new(tt_move, [Move::NONE; 2], Move::NONE);
        p.noisy_only = true;
        p.skip_quiets = true;
        p
    }

    /// True while the picker hands out the moves that were ordered first (TT move, good
    /// captures, killers, counter move), which reductions treat more gently.
    pub fn in_early_stages(&self) -> bool {
        self.stage <= Stage::GenQuiet
    }

    fn select_best(&mut self) -> Option<Move> {
        // Every score carries its move's index in its low byte (`keyed`), so one maximum
        // over the list (which the compiler vectorises) names the move: no second search
        // for it, no swaps. Picked moves drop to `PICKED`. Equal scores go in generation
        // order.
        let top = self.scores[..self.moves.len()]
            .iter()
            .copied()
            .max()
            .unwrap_or(PICKED);
        if top == PICKED {
            return None;
        }
        let i = INDEX_MASK - (top & INDEX_MASK as i32) as usize;
        self.scores[i] = PICKED;
        Some(self.moves[i])
    }

    fn is_special(&self, mv: Move) -> bool {
        mv == self.tt_move || mv == self.killers[0] || mv == self.killers[1] || mv == self.counter
    }

    /// The next move to search, or `None` when the node is exhausted.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenNoisy;
                    let tt = self.tt_move;
                    if is_legal_fast(pos, tt) && (!self.noisy_only || is_generated_noisy(pos, tt)) {
                        return Some(tt);
                    }
                    self.tt_move = Move::NONE;
                }
                Stage::GenNoisy => {
                    self.moves.clear();
                    pos.generate(GenType::Noisy, &mut self.moves);
                    for i in 0..self.moves.len() {
                        let mv = self.moves[i];
                        let learnt = history.capture_score(pos, mv) / CAPTURE_HISTORY_DIVISOR;
                        self.scores[i] = keyed(mvv_lva(pos, mv) + learnt, i);
                    }
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => match self.select_best() {
                    Some(mv) if mv == self.tt_move => {}
                    Some(mv) => {
                        if see_ge(pos, mv, 0) {
                            return Some(mv);
                        }
                        if !self.noisy_only {
                            self.bad.push(mv);
                        } else if !USE_QS_SEE_PRUNING {
                            return Some(mv);
                        }
                    }
                    None => {
                        self.stage = if self.noisy_only {
                            Stage::Done
                        } else {
                            Stage::Killer1
                        };
                    }
                },
                Stage::Killer1 | Stage::Killer2 => {
                    let k = self.killers[(self.stage == Stage::Killer2) as usize];
                    self.stage = if self.stage == Stage::Killer1 {
                        Stage::Killer2
                    } else {
                        Stage::Counter
                    };
                    let repeated = self.stage == Stage::Counter && k == self.killers[0];
                    if !self.skip_quiets
                        && !repeated
                        && k != self.tt_move
                        && !is_generated_noisy(pos, k)
                        && is_legal_fast(pos, k)
                    {
                        return Some(k);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenQuiet;
                    let c = self.counter;
                    if !self.skip_quiets
                        && c != self.tt_move
                        && c != self.killers[0]
                        && c != self.killers[1]
                        && !is_generated_noisy(pos, c)
                        && is_legal_fast(pos, c)
                    {
                        return Some(c);
                    }
                }
                Stage::GenQuiet => {
                    self.stage = Stage::Quiet;
                    self.moves.clear();
                    if !self.skip_quiets {
                        pos.generate(GenType::Quiet, &mut self.moves);
                        let side = pos.side_to_move();
                        // A node of the main search has the opponent's attacks already.
                        let danger = USE_THREAT_ORDERING.then(|| {
                            Danger::of(&self.quiet.attacks.unwrap_or_else(|| pos.attack_map(!side)))
                        });
                        for i in 0..self.moves.len() {
                            let mv = self.moves[i];
                            let score = match pos.piece_on(mv.from()) {
                                Some(piece) if USE_HISTORY_ORDERING => {
                                    history.quiet_score(side, piece, mv, &self.quiet)
                                        + danger.as_ref().map_or(0, |d| d.bonus(piece.kind(), mv))
                                }
                                _ => 0,
                            };
                            self.scores[i] = keyed(score, i);
                        }
                    }
                }
                Stage::Quiet => {
                    if self.skip_quiets {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    match self.select_best() {
                        Some(mv) if self.is_special(mv) => {}
                        Some(mv) => return Some(mv),
                        None => self.stage = Stage::BadNoisy,
                    }
                }
                Stage::BadNoisy => {
                    if self.bad_index < self.bad.len() {
                        self.bad_index += 1;
                        return Some(self.bad[self.bad_index - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    /// With no history learnt, a knight a pawn attacks is moved away before any other
    /// quiet move is tried, and a queen's step onto a square a pawn covers comes last.
    #[test]
    fn a_piece_attacked_by_a_pawn_moves_first() {
        if !USE_THREAT_ORDERING {
            return;
        }
        // Black's d4 pawn attacks the knight on c3.
        let pos =
            Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3p4/2N5/PPPQPPPP/R1B1KBNR w KQkq - 0 3")
                .unwrap();
        let history = History::default();
        let mut picker = MovePicker::new(Move::NONE, [Move::NONE; 2], Move::NONE);
        let mut seen = Vec::new();
        while let Some(mv) = picker.next(&pos, &history) {
            if !is_generated_noisy(&pos, mv) {
                seen.push(mv);
            }
        }
        let knight_moves = seen.iter().filter(|mv| mv.from() == Square::C3).count();
        assert_eq!(knight_moves, 6, "{seen:?}");
        assert!(
            seen[..knight_moves]
                .iter()
                .all(|mv| mv.from() == Square::C3),
            "{seen:?}"
        );
        // The queen's steps onto e3 (the d4 pawn) and h6 (the g7 pawn) come last.
        let last_two: Vec<_> = seen[seen.len() - 2..].iter().map(|mv| mv.to()).collect();
        assert_eq!(last_two, [Square::E3, Square::H6], "{seen:?}");
        assert!(seen[seen.len() - 2..]
            .iter()
            .all(|mv| mv.from() == Square::D2));
    }

    /// Two captures of the same pawn come out by MVV-LVA (the pawn's capture first) until
    /// capture history has learnt that the knight's works; then the knight's comes first.
    #[test]
    fn capture_history_reorders_captures_of_equal_victims() {
        let pos =
            Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 0 2")
                .unwrap();
        let by_pawn = Move::new(Square::D4, Square::E5);
        let by_knight = Move::new(Square::F3, Square::E5);
        let first_capture = |history: &History| {
            let mut picker = MovePicker::new(Move::NONE, [Move::NONE; 2], Move::NONE);
            picker.next(&pos, history).unwrap()
        };
        let mut history = History::default();
        assert_eq!(first_capture(&history), by_pawn);
        history.update_capture(
            &pos,
            by_knight,
            crate::search::params::HISTORY_BONUS_MAX.get(),
        );
        history.update_capture(
            &pos,
            by_pawn,
            -crate::search::params::HISTORY_BONUS_MAX.get(),
        );
        let expected = if crate::search::params::USE_CAPTURE_HISTORY {
            by_knight
        } else {
            by_pawn
        };
        assert_eq!(first_capture(&history), expected);
    }

    /// Every legal move comes out exactly once, whatever the TT move, killers and counter.
    #[test]
    fn picks_every_legal_move_once() {
        let fens = [
            crate::board::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let history = History::default();
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let legal = pos.legal_moves();
            let extras = [
                Move::NONE,
                legal[0],
                legal[legal.len() - 1],
                Move::new(Square::A1, Square::H8),
            ];
            for &tt in &extras {
                for &k in &extras {
                    let mut picker = MovePicker::new(tt, [k, legal[legal.len() / 2]], legal[1]);
                    let mut seen = Vec::new();
                    while let Some(mv) = picker.next(&pos, &history) {
                        seen.push(mv);
                    }
                    let mut a: Vec<u16> = seen.iter().map(|m| m.to_bits()).collect();
                    let mut b: Vec<u16> = legal.as_slice().iter().map(|m| m.to_bits()).collect();
                    a.sort();
                    b.sort();
                    assert_eq!(a, b, "{fen} tt {tt:?} killer {k:?}");
                }
            }
        }
    }

    /// Quiet moves come out by history score, highest first, and equal scores in the
    /// order the generator made them (the picker's ties are deterministic).
    #[test]
    fn quiet_moves_come_out_by_score_then_generation_order() {
        let pos = Position::from_fen(crate::board::START_FEN).unwrap();
        let side = pos.side_to_move();
        let mut generated = MoveList::new();
        pos.generate(GenType::Quiet, &mut generated);
        let mut history = History::default();
        // Some moves rewarded, some punished, most left at zero (ties).
        for (i, &mv) in generated.as_slice().iter().enumerate().step_by(3) {
            let piece = pos.piece_on(mv.from()).unwrap();
            let delta = if i % 2 == 0 {
                300 + 10 * i as i32
            } else {
                -500
            };
            history.update_quiet(side, piece, mv, &QuietContext::default(), delta);
        }
        let none = QuietContext::default();
        let score =
            |mv: Move| history.quiet_score(side, pos.piece_on(mv.from()).unwrap(), mv, &none);
        let mut expected: Vec<Move> = generated.as_slice().to_vec();
        expected.sort_by_key(|&mv| std::cmp::Reverse(score(mv))); // stable: ties keep order
        let mut picker = MovePicker::new(Move::NONE, [Move::NONE; 2], Move::NONE);
        let mut seen = Vec::new();
        while let Some(mv) = picker.next(&pos, &history) {
            seen.push(mv);
        }
        assert_eq!(seen, expected);
        assert!(score(seen[0]) > 0 && score(seen[seen.len() - 1]) < 0);
    }
}
