//! The position: piece bitboards plus a mailbox, side to move, castling rights, en passant,
//! clocks, Zobrist keys and cached check information.
//!
//! This module knows the rules of chess and nothing else: no search, no evaluation, no UCI.

mod castling;
mod cycle;
mod fen;
mod invariant;
mod make_move;
mod psq;
mod san;
pub mod zobrist;

pub use castling::{CastleSide, CastlingRights};
pub(crate) use fen::write_board;
pub use fen::FenError;
pub use invariant::BrokenInvariant;
pub use psq::{PsqTable, ZERO_PSQ};
pub use san::SanError;

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks,
    pawn_attacks_bb, rook_attacks, rook_rays,
};
use crate::bitboard::Bitboard;
use crate::chess_move::Move;
use crate::types::{Color, Piece, PieceType, Square};
use std::fmt;

/// The squares one side attacks, by the kind of piece that attacks them: what a piece of
/// the other side standing on one of them risks (a knight attacked by a pawn is lost unless
/// it moves; one attacked by a queen may be defended).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AttackMap {
    /// The squares its pawns capture on.
    pub pawns: Bitboard,
    /// The squares its knights and bishops attack.
    pub minors: Bitboard,
    /// The squares its rooks attack.
    pub rooks: Bitboard,
    /// The squares any of its pieces attacks, queens and king included.
    pub all: Bitboard,
}

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The position's hash keys, as [`Position::keys`] keeps them incrementally and
/// [`Position::compute_keys`] finds them from scratch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keys {
    /// The Zobrist key of the whole position.
    pub key: u64,
    /// The key of the pawns alone.
    pub pawn: u64,
    /// Per colour, the key of its other pieces (king included).
    pub non_pawn: [u64; 2],
}

/// What `make_move` must remember so that `unmake_move` can restore the position.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    captured: Option<Piece>,
    castling: u8,
    ep: Option<Square>,
    halfmove: u16,
    keys: Keys,
    psq: [i32; 2],
    checkers: Bitboard,
    pinned: Bitboard,
}

/// A chess position with the history of the moves made on it (for unmake and repetitions).
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 64],
    pieces: [Bitboard; 6],
    colors: [Bitboard; 2],
    side: Color,
    castling: CastlingRights,
    /// For each square, the castling rights that survive a move from or to it.
    castle_mask: [u8; 64],
    ep: Option<Square>,
    halfmove: u16,
    fullmove: u16,
    keys: Keys,
    checkers: Bitboard,
    pinned: Bitboard,
    /// The installed value table and the sums of its two lanes over all pieces.
    psq_table: &'static PsqTable,
    psq: [i32; 2],
    history: Vec<Undo>,
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    fn empty() -> Position {
        Position {
            board: [None; 64],
            pieces: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            side: Color::White,
            castling: CastlingRights::default(),
            castle_mask: [0xF; 64],
            ep: None,
            halfmove: 0,
            fullmove: 1,
            keys: Keys::default(),
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            psq_table: &ZERO_PSQ,
            psq: [0; 2],
            history: Vec::with_capacity(256),
        }
    }

    // ---- Accessors -------------------------------------------------------------------

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on a square.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// All pieces of a type, both colours.
    #[inline(always)]
    pub fn pieces(&self, kind: PieceType) -> Bitboard {
        self.pieces[kind.index()]
    }

    /// All pieces of a colour.
    #[inline(always)]
    pub fn color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// The pieces of one colour and type.
    #[inline(always)]
    pub fn colored(&self, color: Color, kind: PieceType) -> Bitboard {
        self.pieces[kind.index()] & self.colors[color.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The king square of a colour.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.colored(color, PieceType::King).lsb()
    }

    /// Bishops and queens of a colour.
    #[inline(always)]
    pub fn diagonal_sliders(&self, color: Color) -> Bitboard {
        (self.pieces[PieceType::Bishop.index()] | self.pieces[PieceType::Queen.index()])
            & self.colors[color.index()]
    }

    /// Rooks and queens of a colour.
    #[inline(always)]
    pub fn orthogonal_sliders(&self, color: Color) -> Bitboard {
        (self.pieces[PieceType::Rook.index()] | self.pieces[PieceType::Queen.index()])
            & self.colors[color.index()]
    }

    /// The castling rights.
    #[inline(always)]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The en-passant square, kept only when a pawn of the side to move can capture there.
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    /// Plies since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The move number, starting at 1 and counting up after Black's move.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The Zobrist key of the position.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.keys.key
    }

    /// The Zobrist key of the pawns alone (for a pawn-structure cache).
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.keys.pawn
    }

    /// The Zobrist key of `color`'s pieces other than pawns (king included): what that
    /// side's piece placement looks like, whatever the pawns do.
    #[inline(always)]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.keys.non_pawn[color.index()]
    }

    /// Every incrementally kept key, to check against [`Position::compute_keys`].
    pub fn keys(&self) -> Keys {
        self.keys
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// True when the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Pieces of the side to move pinned to their own king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// The number of moves made since the position was set up.
    #[inline(always)]
    pub fn ply_count(&self) -> usize {
        self.history.len()
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv).filter(|m| !m.is_none())
    }

    /// The piece captured by the last move, if any.
    pub fn last_captured(&self) -> Option<Piece> {
        self.history.last().and_then(|u| u.captured)
    }

    /// A copy without the move history: cheap to make, but it cannot unmake past its
    /// start or see repetitions before it.
    pub fn clone_without_history(&self) -> Position {
        Position {
            history: Vec::with_capacity(64),
            ..*self
        }
    }

    /// Forgets the move history (keeps the position). Unmake is impossible past this point,
    /// and repetitions before it are no longer seen.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    // ---- Incremental piece-square sums -----------------------------------------------

    /// Installs the value table whose sums make/unmake keep up to date, and sums it over
    /// the pieces now on the board.
    pub fn set_psq_table(&mut self, table: &'static PsqTable) {
        self.psq_table = table;
        self.psq = self.psq_from_scratch();
    }

    /// The installed value table (`ZERO_PSQ` until one is installed).
    #[inline(always)]
    pub fn psq_table(&self) -> &'static PsqTable {
        self.psq_table
    }

    /// The sums of the two lanes of the installed table over all pieces.
    #[inline(always)]
    pub fn psq(&self) -> [i32; 2] {
        self.psq
    }

    /// The sums of `psq()` recomputed from the board (for tests and installation).
    pub fn psq_from_scratch(&self) -> [i32; 2] {
        let mut sum = [0; 2];
        for sq in self.occupied() {
            let piece = self.board[sq.index()].expect("occupied square has a piece");
            let v = self.psq_table.0[piece.index()][sq.index()];
            sum[0] += v[0];
            sum[1] += v[1];
        }
        sum
    }

    // ---- Attacks ---------------------------------------------------------------------

    /// All pieces of both colours that attack `sq`, given the occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        (pawn_attacks(Color::White, sq) & self.colored(Color::Black, PieceType::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.colored(Color::White, PieceType::Pawn))
            | (knight_attacks(sq) & self.pieces(PieceType::Knight))
            | (king_attacks(sq) & self.pieces(PieceType::King))
            | (bishop_attacks(sq, occ)
                & (self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen)))
            | (rook_attacks(sq, occ)
                & (self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen)))
    }

    /// True when a piece of `by` attacks `sq`, given the occupancy `occ`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.color(by);
        // Sliders are looked up only when one stands on an empty-board ray of `sq`.
        let orth = self.orthogonal_sliders(by);
        let diag = self.diagonal_sliders(by);
        (knight_attacks(sq) & self.pieces(PieceType::Knight) & them).any()
            || (pawn_attacks(!by, sq) & self.pieces(PieceType::Pawn) & them).any()
            || (king_attacks(sq) & self.pieces(PieceType::King) & them).any()
            || ((rook_rays(sq) & orth).any() && (rook_attacks(sq, occ) & orth).any())
            || ((bishop_rays(sq) & diag).any() && (bishop_attacks(sq, occ) & diag).any())
    }

    /// The squares `by` attacks, by the kind of attacker, with the board's occupancy: where
    /// a piece of the other side standing still could be taken, and by what.
    pub fn attack_map(&self, by: Color) -> AttackMap {
        let occ = self.occupied();
        let pawns = pawn_attacks_bb(by, self.colored(by, PieceType::Pawn));
        let mut minors = Bitboard::EMPTY;
        for sq in self.colored(by, PieceType::Knight) {
            minors |= knight_attacks(sq);
        }
        for sq in self.colored(by, PieceType::Bishop) {
            minors |= bishop_attacks(sq, occ);
        }
        let mut rooks = Bitboard::EMPTY;
        for sq in self.colored(by, PieceType::Rook) {
            rooks |= rook_attacks(sq, occ);
        }
        let mut queens = Bitboard::EMPTY;
        for sq in self.colored(by, PieceType::Queen) {
            queens |= bishop_attacks(sq, occ) | rook_attacks(sq, occ);
        }
        AttackMap {
            pawns,
            minors,
            rooks,
            all: pawns | minors | rooks | queens | king_attacks(self.king(by)),
        }
    }

    /// Every square a piece of `by` attacks (the squares its pawns capture on, not those
    /// they push to), with the board's occupancy.
    pub fn attacked_by(&self, by: Color) -> Bitboard {
        self.attack_map(by).all
    }

    /// Recomputes the checkers and pinned pieces of the side to move.
    #[inline]
    fn update_check_info(&mut self) {
        (self.checkers, self.pinned) = self.compute_check_info();
    }

    /// The checkers of the side to move and its pieces pinned to its king.
    #[inline]
    fn compute_check_info(&self) -> (Bitboard, Bitboard) {
        let us = self.side;
        let them = !us;
        let ksq = self.king(us);
        let occ = self.occupied();
        let mut checkers = ((knight_attacks(ksq) & self.pieces(PieceType::Knight))
            | (pawn_attacks(us, ksq) & self.pieces(PieceType::Pawn)))
            & self.color(them);
        let mut pinned = Bitboard::EMPTY;
        let orth = self.orthogonal_sliders(them) & rook_rays(ksq);
        let diag = self.diagonal_sliders(them) & bishop_rays(ksq);
        let mut snipers = Bitboard::EMPTY;
        if orth.any() {
            snipers |= rook_attacks(ksq, self.color(them)) & orth;
        }
        if diag.any() {
            snipers |= bishop_attacks(ksq, self.color(them)) & diag;
        }
        for sniper in snipers {
            let blockers = between(ksq, sniper) & occ;
            if blockers.is_empty() {
                checkers |= sniper;
            } else if !blockers.more_than_one() {
                pinned |= blockers & self.color(us);
            }
        }
        (checkers, pinned)
    }

    // ---- Keys ------------------------------------------------------------------------

    /// The Zobrist, pawn and non-pawn keys computed from scratch.
    pub fn compute_keys(&self) -> Keys {
        let mut key = 0;
        let mut pawn = 0;
        let mut non_pawn = [0; 2];
        for sq in self.occupied() {
            let piece = self.board[sq.index()].expect("occupied square has a piece");
            let k = zobrist::PIECE_SQUARE[piece.index()][sq.index()];
            key ^= k;
            if piece.kind() == PieceType::Pawn {
                pawn ^= k;
            } else {
                non_pawn[piece.color().index()] ^= k;
            }
        }
        key ^= zobrist::CASTLING[self.castling.bits() as usize];
        if let Some(ep) = self.ep {
            key ^= zobrist::EN_PASSANT[ep.file().index()];
        }
        if self.side == Color::Black {
            key ^= zobrist::SIDE;
        }
        Keys {
            key,
            pawn,
            non_pawn,
        }
    }

    // ---- Draw rules ------------------------------------------------------------------

    /// True when the current position occurred before since the last irreversible move,
    /// looking back at most `max_back` plies (`usize::MAX` for the whole history).
    /// `count` is how many earlier occurrences are required (1 for "repeated once", 2 for a
    /// threefold repetition).
    pub fn repetitions(&self, count: usize, max_back: usize) -> bool {
        let window = (self.halfmove as usize).min(max_back);
        self.occurs_before(self.history.len(), self.keys.key, window, count)
    }

    /// True when `key` stands at least `count` times among the positions before
    /// `history[end]` (the current position when `end` is the history's length), looking
    /// back at most `window` plies, with the same side to move.
    fn occurs_before(&self, end: usize, key: u64, window: usize, count: usize) -> bool {
        let limit = window.min(end);
        let mut seen = 0;
        let mut i = 4;
        while i <= limit {
            if self.history[end - i].keys.key == key {
                seen += 1;
                if seen >= count {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// True when neither side can possibly mate: K v K, K+minor v K, and kings with bishops
    /// that all stand on squares of one colour.
    pub fn insufficient_material(&self) -> bool {
        let heavy = self.pieces(PieceType::Pawn)
            | self.pieces(PieceType::Rook)
            | self.pieces(PieceType::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.pieces(PieceType::Knight);
        let bishops = self.pieces(PieceType::Bishop);
        if (knights | bishops).count() <= 1 {
            return true;
        }
        const DARK: u64 = 0xAA55_AA55_AA55_AA55;
        knights.is_empty() && ((bishops.0 & DARK) == 0 || (bishops.0 & !DARK) == 0)
    }

    // ---- Consistency ---------------------------------------------------------------------

    /// Checks every invariant the position keeps: mailbox and bitboards agree, one king each,
    /// keys and check information equal their from-scratch values, the side not to move is
    /// not in check. Returns the first broken invariant.
    pub fn validate(&self) -> Result<(), BrokenInvariant> {
        let mut seen = Bitboard::EMPTY;
        for (i, bb) in self.pieces.iter().enumerate() {
            if (*bb & seen).any() {
                return Err(BrokenInvariant::OverlappingPieces(PieceType::ALL[i]));
            }
            seen |= *bb;
        }
        if seen != self.occupied() || (self.colors[0] & self.colors[1]).any() {
            return Err(BrokenInvariant::ColourBitboards);
        }
        for sq in Square::ALL {
            let from_bb = PieceType::ALL
                .iter()
                .find(|k| self.pieces(**k).has(sq))
                .map(|&k| {
                    let color = if self.color(Color::White).has(sq) {
                        Color::White
                    } else {
                        Color::Black
                    };
                    Piece::new(color, k)
                });
            if from_bb != self.board[sq.index()] {
                return Err(BrokenInvariant::Mailbox(sq));
            }
        }
        if self.psq != self.psq_from_scratch() {
            return Err(BrokenInvariant::PieceSquareSums);
        }
        for c in Color::ALL {
            if self.colored(c, PieceType::King).count() != 1 {
                return Err(BrokenInvariant::KingCount(c));
            }
        }
        if self.compute_keys() != self.keys() {
            return Err(BrokenInvariant::Keys);
        }
        if self.compute_check_info() != (self.checkers, self.pinned) {
            return Err(BrokenInvariant::CheckInfo);
        }
        if self.is_attacked(self.king(!self.side), self.side, self.occupied()) {
            return Err(BrokenInvariant::WaitingSideInCheck);
        }
        Ok(())
    }

    /// The position mirrored top to bottom with the colours swapped (White's pieces become
    /// Black's on the mirrored squares; castling rights, en passant and side swap too).
    /// Used to test that the evaluation is symmetric.
    pub fn color_flipped(&self) -> Position {
        let mut p = Position::empty();
        p.psq_table = self.psq_table;
        for sq in self.occupied() {
            let piece = self.board[sq.index()].expect("occupied square has a piece");
            p.put_piece(Piece::new(!piece.color(), piece.kind()), sq.flip_rank());
        }
        p.side = !self.side;
        for c in Color::ALL {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling.rook(c, side) {
                    p.castling
                        .set(!c, side, rook.flip_rank(), self.king(c).flip_rank());
                }
            }
        }
        p.init_castle_mask();
        p.ep = self.ep.map(Square::flip_rank);
        p.halfmove = self.halfmove;
        p.fullmove = self.fullmove;
        p.keys = p.compute_keys();
        p.update_check_info();
        p
    }

    /// Sets `castle_mask` from the king and rook squares of the current rights.
    fn init_castle_mask(&mut self) {
        self.castle_mask = [0xF; 64];
        for c in Color::ALL {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling.rook(c, side) {
                    let bit = CastlingRights::bit(c, side);
                    self.castle_mask[rook.index()] &= !bit;
                    self.castle_mask[self.king(c).index()] &= !bit;
                }
            }
        }
    }

    // ---- Low-level piece placement (no key or check updates) ---------------------------

    /// Places a piece, keeping the piece-square sums.
    #[inline(always)]
    fn put_piece(&mut self, piece: Piece, sq: Square) {
        self.put_piece_raw(piece, sq);
        let v = self.psq_table.0[piece.index()][sq.index()];
        self.psq[0] += v[0];
        self.psq[1] += v[1];
    }

    /// Removes a piece, keeping the piece-square sums.
    #[inline(always)]
    fn remove_piece(&mut self, piece: Piece, sq: Square) {
        self.remove_piece_raw(piece, sq);
        let v = self.psq_table.0[piece.index()][sq.index()];
        self.psq[0] -= v[0];
        self.psq[1] -= v[1];
    }

    /// Places a piece without touching the sums (unmake restores them from the undo).
    #[inline(always)]
    fn put_piece_raw(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = Some(piece);
        self.pieces[piece.kind().index()] |= sq;
        self.colors[piece.color().index()] |= sq;
    }

    /// Removes a piece without touching the sums (unmake restores them from the undo).
    #[inline(always)]
    fn remove_piece_raw(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = None;
        self.pieces[piece.kind().index()] ^= sq;
        self.colors[piece.color().index()] ^= sq;
    }
}

impl fmt::Display for Position {
    /// The board as a diagram, then the FEN and the key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, " +---+---+---+---+---+---+---+---+")?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = self.board[rank * 8 + file].map_or(' ', Piece::char);
                write!(f, " | {c}")?;
            }
            writeln!(f, " | {}", rank + 1)?;
            writeln!(f, " +---+---+---+---+---+---+---+---+")?;
        }
        writeln!(f, "   a   b   c   d   e   f   g   h")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", self.to_fen())?;
        write!(f, "Key: {:016X}", self.keys.key)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
