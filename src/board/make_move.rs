//! make/unmake of moves and null moves, with incremental Zobrist, pawn and non-pawn keys.

use super::{zobrist, Position, Undo};
use crate::attacks::pawn_attacks;
use crate::chess_move::{Move, MoveKind};
use crate::types::{Color, Piece, PieceType, Square};

impl Position {
    #[inline(always)]
    fn xor_piece_key(&mut self, piece: Piece, sq: Square) {
        let k = zobrist::PIECE_SQUARE[piece.index()][sq.index()];
        self.keys.key ^= k;
        if piece.kind() == PieceType::Pawn {
            self.keys.pawn ^= k;
        } else {
            self.keys.non_pawn[piece.color().index()] ^= k;
        }
    }

    /// Saves what unmake needs to restore the state before `mv` (the capture is filled in later).
    #[inline(always)]
    fn push_undo(&mut self, mv: Move) {
        self.history.push(Undo {
            mv,
            captured: None,
            castling: self.castling.bits(),
            ep: self.ep,
            halfmove: self.halfmove,
            keys: self.keys,
            psq: self.psq,
            checkers: self.checkers,
            pinned: self.pinned,
        });
    }

    /// Plays a legal move. The move must come from this position's legal move generator
    /// (or be checked with [`Position::is_legal`]); anything else corrupts the position.
    pub fn make_move(&mut self, mv: Move) {
        self.push_undo(mv);
        let us = self.side;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        let piece = self.board[from.index()].expect("make_move: no piece on the from square");
        let mut captured = None;

        self.halfmove = self.halfmove.saturating_add(1);
        if let Some(ep) = self.ep.take() {
            self.keys.key ^= zobrist::EN_PASSANT[ep.file().index()];
        }

        match mv.kind() {
            MoveKind::Normal => {
                if let Some(victim) = self.board[to.index()] {
                    self.remove_piece(victim, to);
                    self.xor_piece_key(victim, to);
                    captured = Some(victim);
                    self.halfmove = 0;
                }
                self.remove_piece(piece, from);
                self.put_piece(piece, to);
                self.xor_piece_key(piece, from);
                self.xor_piece_key(piece, to);
                if piece.kind() == PieceType::Pawn {
                    self.halfmove = 0;
                    // A double push leaves an en-passant square, kept only when an enemy
                    // pawn can take on it (see `zobrist` for the rule).
                    if from.index() ^ to.index() == 16 {
                        let ep = Square::new((from.index() + to.index()) / 2);
                        if (pawn_attacks(us, ep) & self.colored(them, PieceType::Pawn)).any() {
                            self.ep = Some(ep);
                            self.keys.key ^= zobrist::EN_PASSANT[ep.file().index()];
                        }
                    }
                }
            }
            MoveKind::Promotion => {
                if let Some(victim) = self.board[to.index()] {
                    self.remove_piece(victim, to);
                    self.xor_piece_key(victim, to);
                    captured = Some(victim);
                }
                let promoted = Piece::new(us, mv.promotion_piece().expect("promotion has a piece"));
                self.remove_piece(piece, from);
                self.xor_piece_key(piece, from);
                self.put_piece(promoted, to);
                self.xor_piece_key(promoted, to);
                self.halfmove = 0;
            }
            MoveKind::EnPassant => {
                let cap_sq = Square::from_coords(to.file(), from.rank());
                let victim = Piece::new(them, PieceType::Pawn);
                self.remove_piece(victim, cap_sq);
                self.xor_piece_key(victim, cap_sq);
                captured = Some(victim);
                self.remove_piece(piece, from);
                self.put_piece(piece, to);
                self.xor_piece_key(piece, from);
                self.xor_piece_key(piece, to);
                self.halfmove = 0;
            }
            MoveKind::Castling => {
                let rook = Piece::new(us, PieceType::Rook);
                let (king_to, rook_to) = (mv.castling_king_target(), mv.castling_rook_target());
                self.remove_piece(piece, from);
                self.remove_piece(rook, to);
                self.put_piece(piece, king_to);
                self.put_piece(rook, rook_to);
                self.xor_piece_key(piece, from);
                self.xor_piece_key(rook, to);
                self.xor_piece_key(piece, king_to);
                self.xor_piece_key(rook, rook_to);
            }
        }

        let rights =
            self.castling.bits() & self.castle_mask[from.index()] & self.castle_mask[to.index()];
        if rights != self.castling.bits() {
            self.keys.key ^= zobrist::CASTLING[self.castling.bits() as usize]
                ^ zobrist::CASTLING[rights as usize];
            self.castling.retain(rights);
        }

        if us == Color::Black {
            self.fullmove = self.fullmove.wrapping_add(1); // a FEN may start at 65535
        }
        self.side = them;
        self.keys.key ^= zobrist::SIDE;
        if let Some(last) = self.history.last_mut() {
            last.captured = captured;
        }
        self.update_check_info();
        debug_assert!(
            self.validate().is_ok(),
            "after {mv:?}: {:?}",
            self.validate()
        );
    }

    /// Takes back the last move made with `make_move`.
    pub fn unmake_move(&mut self) {
        let undo = self
            .history
            .pop()
            .expect("unmake_move without a move to take back");
        let mv = undo.mv;
        let them = self.side;
        let us = !them;
        self.side = us;
        if us == Color::Black {
            self.fullmove = self.fullmove.wrapping_sub(1);
        }
        let from = mv.from();
        let to = mv.to();
        match mv.kind() {
            MoveKind::Normal => {
                let piece = self.board[to.index()].expect("unmake: moved piece missing");
                self.remove_piece_raw(piece, to);
                self.put_piece_raw(piece, from);
                if let Some(victim) = undo.captured {
                    self.put_piece_raw(victim, to);
                }
            }
            MoveKind::Promotion => {
                let promoted = self.board[to.index()].expect("unmake: promoted piece missing");
                self.remove_piece_raw(promoted, to);
                self.put_piece_raw(Piece::new(us, PieceType::Pawn), from);
                if let Some(victim) = undo.captured {
                    self.put_piece_raw(victim, to);
                }
            }
            MoveKind::EnPassant => {
                let pawn = Piece::new(us, PieceType::Pawn);
                self.remove_piece_raw(pawn, to);
                self.put_piece_raw(pawn, from);
                self.put_piece_raw(
                    Piece::new(them, PieceType::Pawn),
                    Square::from_coords(to.file(), from.rank()),
                );
            }
            MoveKind::Castling => {
                let king = Piece::new(us, PieceType::King);
                let rook = Piece::new(us, PieceType::Rook);
                self.remove_piece_raw(king, mv.castling_king_target());
                self.remove_piece_raw(rook, mv.castling_rook_target());
                self.put_piece_raw(king, from);
                self.put_piece_raw(rook, to);
            }
        }
        self.castling.restore_bits(undo.castling);
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.keys = undo.keys;
        self.psq = undo.psq;
        self.checkers = undo.checkers;
        self.pinned = undo.pinned;
        debug_assert!(
            self.validate().is_ok(),
            "after undo of {mv:?}: {:?}",
            self.validate()
        );
    }

    /// Passes the move to the opponent (for null-move pruning). Must not be used in check.
    pub fn make_null_move(&mut self) {
        debug_assert!(!self.in_check(), "null move in check");
        self.push_undo(Move::NONE);
        if let Some(ep) = self.ep.take() {
            self.keys.key ^= zobrist::EN_PASSANT[ep.file().index()];
        }
        self.halfmove = self.halfmove.saturating_add(1);
        self.side = !self.side;
        self.keys.key ^= zobrist::SIDE;
        self.update_check_info();
    }

    /// Takes back a null move.
    pub fn unmake_null_move(&mut self) {
        let undo = self
            .history
            .pop()
            .expect("unmake_null_move without a null move");
        debug_assert!(undo.mv.is_none());
        self.side = !self.side;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.keys = undo.keys;
        self.checkers = undo.checkers;
        self.pinned = undo.pinned;
    }

    /// The Zobrist key the position would have after `mv`, without making it (for
    /// prefetching the transposition table). Approximate for castling-right and
    /// en-passant changes.
    pub fn key_after(&self, mv: Move) -> u64 {
        let from = mv.from();
        let to = mv.to();
        let Some(piece) = self.board[from.index()] else {
            return self.keys.key;
        };
        let mut key = self.keys.key ^ zobrist::SIDE;
        if let Some(ep) = self.ep {
            key ^= zobrist::EN_PASSANT[ep.file().index()];
        }
        if mv.kind() == MoveKind::Normal {
            if let Some(victim) = self.board[to.index()] {
                key ^= zobrist::PIECE_SQUARE[victim.index()][to.index()];
            }
        }
        key ^ zobrist::PIECE_SQUARE[piece.index()][from.index()]
            ^ zobrist::PIECE_SQUARE[piece.index()][to.index()]
    }

    /// The captured piece type if `mv` captures (en passant included).
    #[inline]
    pub fn captured_by(&self, mv: Move) -> Option<PieceType> {
        match mv.kind() {
            MoveKind::EnPassant => Some(PieceType::Pawn),
            MoveKind::Castling => None,
            _ => self.board[mv.to().index()].map(Piece::kind),
        }
    }

    /// True when `mv` captures something (en passant included).
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        self.captured_by(mv).is_some()
    }

    /// True when `mv` captures something or promotes.
    #[inline]
    pub fn is_noisy(&self, mv: Move) -> bool {
        mv.kind() == MoveKind::Promotion || self.captured_by(mv).is_some()
    }
}
