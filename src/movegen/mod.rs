//! Legal move generation with check and pin masks (no make-and-test).
//!
//! One generic generator feeds a [`MoveSink`]: a [`MoveList`] expands the target sets into
//! moves, a counter just adds up their sizes (perft's bulk counting). Separate noisy and
//! quiet passes let a staged move picker ask for captures first.
//!
//! Noisy moves are all captures (en passant and capturing promotions included) and queen
//! promotions; quiet moves are everything else (under-promotions without capture, castling).

mod move_list;

/// The attack tables live below both `board` and `movegen` (`crate::attacks`); the old
/// paths `movegen::attacks` and `movegen::rays` still name them.
pub use crate::attacks::{self, rays};
pub use move_list::{MoveList, MAX_MOVES};

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::board::{CastleSide, Position};
use crate::chess_move::{Move, MoveKind};
use crate::types::{Color, File, PieceType, Rank, Square};
use std::fmt;

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenType {
    /// Every legal move.
    All,
    /// Captures and queen promotions.
    Noisy,
    /// Every legal move that is not noisy.
    Quiet,
}

/// Receives generated moves as target sets, so a counter never builds the moves.
pub trait MoveSink {
    /// Normal moves of the piece on `from` to each square of `targets`.
    fn targets(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves to each square of `targets` from the square `delta` behind it.
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8);
    /// Promotions to each of `pieces` on each square of `targets`, from `delta` behind it.
    fn promotions(&mut self, targets: Bitboard, delta: i8, pieces: &[PieceType]);
    /// One special move (en passant, castling).
    fn special(&mut self, mv: Move);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            self.push(Move::new(Square::new((to as i8 - delta) as usize), to));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i8, pieces: &[PieceType]) {
        for to in targets {
            let from = Square::new((to as i8 - delta) as usize);
            for &p in pieces {
                self.push(Move::promotion(from, to, p));
            }
        }
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Counts moves without building them.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn targets(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _delta: i8, pieces: &[PieceType]) {
        self.0 += targets.count() as u64 * pieces.len() as u64;
    }
    #[inline(always)]
    fn special(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

const ALL_PROMOTIONS: [PieceType; 4] = [
    PieceType::Queen,
    PieceType::Knight,
    PieceType::Rook,
    PieceType::Bishop,
];
const UNDER_PROMOTIONS: [PieceType; 3] = [PieceType::Knight, PieceType::Rook, PieceType::Bishop];

#[inline(always)]
fn shift(bb: Bitboard, delta: i8) -> Bitboard {
    if delta > 0 {
        Bitboard(bb.0 << delta)
    } else {
        Bitboard(bb.0 >> -delta)
    }
}

/// Generates the legal moves of `pos` into `sink`: noisy ones if `NOISY`, quiet ones if `QUIET`.
#[inline(always)]
pub fn generate<S: MoveSink, const NOISY: bool, const QUIET: bool>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    let them = !us;
    let ours = pos.color(us);
    let theirs = pos.color(them);
    let occ = ours | theirs;
    let ksq = pos.king(us);
    let checkers = pos.checkers();

    // Step 1. The king, to squares no enemy attacks once the king has left its square
    // (so a slider checking along a line also covers the square behind the king).
    let mut king_targets = king_attacks(ksq) & !ours;
    if !NOISY {
        king_targets &= !theirs;
    }
    if !QUIET {
        king_targets &= theirs;
    }
    let occ_without_king = occ ^ ksq;
    let mut legal_king = Bitboard::EMPTY;
    for to in king_targets {
        if !pos.is_attacked(to, them, occ_without_king) {
            legal_king |= to;
        }
    }
    sink.targets(ksq, legal_king);

    // In double check only the king moves.
    if checkers.more_than_one() {
        return;
    }

    // Step 2. The check mask: in check, other pieces must capture the checker or block.
    let check_mask = match checkers.single() {
        Some(checker) => between(ksq, checker) | checker,
        None => Bitboard::FULL,
    };
    let mut target = check_mask & !ours;
    if !NOISY {
        target &= !theirs;
    }
    if !QUIET {
        target &= theirs;
    }
    let pinned = pos.pinned();
    let in_check = checkers.any();

    // Step 3. Knights: a pinned knight never moves.
    for from in pos.colored(us, PieceType::Knight) - pinned {
        sink.targets(from, knight_attacks(from) & target);
    }

    // Step 4. Sliders: a pinned slider moves only along its pin line, and never in check.
    let diagonal = pos.diagonal_sliders(us);
    let orthogonal = pos.orthogonal_sliders(us);
    for from in diagonal - pinned {
        sink.targets(from, bishop_attacks(from, occ) & target);
    }
    for from in orthogonal - pinned {
        sink.targets(from, rook_attacks(from, occ) & target);
    }
    if !in_check {
        for from in diagonal & pinned {
            sink.targets(from, bishop_attacks(from, occ) & target & line(ksq, from));
        }
        for from in orthogonal & pinned {
            sink.targets(from, rook_attacks(from, occ) & target & line(ksq, from));
        }
    }

    // Step 5. Pawns: free pawns in bulk, pinned ones one by one along their pin line.
    let pawns = pos.colored(us, PieceType::Pawn);
    pawn_moves::<S, NOISY, QUIET>(sink, us, pawns - pinned, check_mask, !occ, theirs);
    if !in_check {
        for from in pawns & pinned {
            pawn_moves::<S, NOISY, QUIET>(
                sink,
                us,
                Bitboard::from(from),
                line(ksq, from),
                !occ,
                theirs,
            );
        }
    }

    // Step 6. En passant, tested by removing both pawns and looking for attacks on the
    // king: this covers pins and the rank on which both pawns shield the king.
    if NOISY {
        if let Some(ep) = pos.en_passant() {
            let cap_sq = Square::from_coords(ep.file(), us.relative_rank(Rank::R5));
            for from in pawn_attacks(them, ep) & pawns {
                let occ2 = (occ ^ from ^ cap_sq) | ep;
                let leapers =
                    checkers & (pos.pieces(PieceType::Knight) | pos.pieces(PieceType::Pawn));
                if (leapers - Bitboard::from(cap_sq)).is_empty()
                    && (rook_attacks(ksq, occ2) & pos.orthogonal_sliders(them)).is_empty()
                    && (bishop_attacks(ksq, occ2) & pos.diagonal_sliders(them)).is_empty()
                {
                    sink.special(Move::en_passant(from, ep));
                }
            }
        }
    }

    // Step 7. Castling: king and rook paths empty (but for the two castling pieces), no
    // square the king stands on or crosses attacked. The rook is lifted off the board for
    // the attack test, as in Chess960 it may have been shielding the king's target square.
    if QUIET && !in_check && pos.castling().bits() & (0b11 << (2 * us as u8)) != 0 {
        for side in CastleSide::ALL {
            let Some(rook) = pos.castling().rook(us, side) else {
                continue;
            };
            let (path, king_path) = pos.castling().paths(us, side);
            if (path & occ).any() {
                continue;
            }
            let occ2 = occ ^ ksq ^ rook;
            if king_path
                .into_iter()
                .all(|sq| !pos.is_attacked(sq, them, occ2))
            {
                sink.special(Move::castling(ksq, rook));
            }
        }
    }
}

/// Pawn pushes, captures and promotions of `pawns`, restricted to `allow`.
#[inline(always)]
fn pawn_moves<S: MoveSink, const NOISY: bool, const QUIET: bool>(
    sink: &mut S,
    us: Color,
    pawns: Bitboard,
    allow: Bitboard,
    empty: Bitboard,
    theirs: Bitboard,
) {
    let (up, left, right): (i8, i8, i8) = match us {
        Color::White => (8, 7, 9),
        Color::Black => (-8, -9, -7),
    };
    let rank7 = Bitboard::rank(us.relative_rank(Rank::R7));
    let rank3 = Bitboard::rank(us.relative_rank(Rank::R3));
    let not_a = !Bitboard::file(File::A);
    let not_h = !Bitboard::file(File::H);
    let promoting = pawns & rank7;
    let normal = pawns - rank7;

    if QUIET {
        let push1 = shift(normal, up) & empty;
        let push2 = shift(push1 & rank3, up) & empty;
        sink.pawn_moves(push1 & allow, up);
        sink.pawn_moves(push2 & allow, 2 * up);
    }
    if NOISY {
        sink.pawn_moves(shift(normal & not_a, left) & theirs & allow, left);
        sink.pawn_moves(shift(normal & not_h, right) & theirs & allow, right);
    }
    if promoting.any() {
        let push = shift(promoting, up) & empty & allow;
        if NOISY {
            sink.promotions(push, up, &[PieceType::Queen]);
            sink.promotions(
                shift(promoting & not_a, left) & theirs & allow,
                left,
                &ALL_PROMOTIONS,
            );
            sink.promotions(
                shift(promoting & not_h, right) & theirs & allow,
                right,
                &ALL_PROMOTIONS,
            );
        }
        if QUIET {
            sink.promotions(push, up, &UNDER_PROMOTIONS);
        }
    }
}

/// Why a move given as text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in UCI notation.
    Syntax(String),
    /// The text is a move, but not a legal one here.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "'{s}' is not a move in UCI notation"),
            MoveError::Illegal(s) => write!(f, "illegal move '{s}'"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Position {
    /// Generates legal moves of the given type into `list` (appending).
    pub fn generate(&self, gen: GenType, list: &mut MoveList) {
        match gen {
            GenType::All => generate::<_, true, true>(self, list),
            GenType::Noisy => generate::<_, true, false>(self, list),
            GenType::Quiet => generate::<_, false, true>(self, list),
        }
    }

    /// All legal moves.
    #[inline(always)]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate::<_, true, true>(self, &mut list);
        list
    }

    /// The number of legal moves, counted without building them.
    #[inline(always)]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter(0);
        generate::<_, true, true>(self, &mut counter);
        counter.0
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// True when the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// True when the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_move()
    }

    /// True when `mv` is legal here (for moves from untrusted sources such as the
    /// transposition table or an opening book).
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.is_none() {
            return false;
        }
        match self.piece_on(mv.from()) {
            Some(p) if p.color() == self.side_to_move() => {}
            _ => return false,
        }
        let mut list = MoveList::new();
        let gen = if self.is_noisy_candidate(mv) {
            GenType::Noisy
        } else {
            GenType::Quiet
        };
        self.generate(gen, &mut list);
        list.contains(mv)
    }

    /// Which generator would produce `mv` if it were legal.
    fn is_noisy_candidate(&self, mv: Move) -> bool {
        match mv.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castling => false,
            MoveKind::Promotion if mv.promotion_piece() == Some(PieceType::Queen) => true,
            _ => self
                .piece_on(mv.to())
                .is_some_and(|p| p.color() != self.side_to_move()),
        }
    }

    /// Parses a move in UCI notation and checks it is legal. Castling is accepted both as
    /// the king's two-square move (`e1g1`) and as king takes rook (`e1h1`); promotions
    /// need their piece letter (`e7e8q`).
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(syntax());
        }
        let from = Square::parse(&text[0..2]).ok_or_else(syntax)?;
        let to = Square::parse(&text[2..4]).ok_or_else(syntax)?;
        let promo = match text[4..].chars().next() {
            None => None,
            Some(c) => match PieceType::from_char(c) {
                Some(
                    p
                    @ (PieceType::Knight | PieceType::Bishop | PieceType::Rook | PieceType::Queen),
                ) => Some(p),
                _ => return Err(syntax()),
            },
        };
        self.legal_moves()
            .as_slice()
            .iter()
            .copied()
            .find(|mv| {
                mv.from() == from
                    && mv.promotion_piece() == promo
                    && (mv.to() == to
                        || (mv.is_castling() && mv.castling_king_target() == to && {
                            // e1g1 means castling only when the king really moves two files
                            // (or more), or not at all (c1c1 with the king on c1 in Chess960);
                            // a one-file king move is a normal move.
                            let d = (from.file() as i8 - to.file() as i8).abs();
                            d >= 2
                                || d == 0
                                || self.piece_on(to).is_none()
                                    && !self.legal_moves().contains(Move::new(from, to))
                        }))
            })
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }
}
