//! Between our positions and moves and the prober's bitboards and results.

use crate::bitboard::Bitboard;
use crate::board::Position;
use crate::chess_move::Move;
use crate::movegen::attacks;
use crate::types::{Color, PieceType, Square};
use pyrrhic_rs::{DtzProbeValue, EngineAdapter, TableBases, WdlProbeResult};

/// The value of a position for the side to move, with best play by both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost.
    Loss,
    /// Lost, but the fifty-move rule comes first: a draw under that rule.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but not before the fifty-move rule: a draw under that rule.
    CursedWin,
    /// Won.
    Win,
}

impl Wdl {
    /// -2 (loss) to 2 (win), as python-chess and the Syzygy tools write it.
    pub fn as_i32(self) -> i32 {
        self as i32 - 2
    }

    /// The value for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }

    fn from_pyrrhic(w: WdlProbeResult) -> Wdl {
        match w {
            WdlProbeResult::Loss => Wdl::Loss,
            WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
            WdlProbeResult::Draw => Wdl::Draw,
            WdlProbeResult::CursedWin => Wdl::CursedWin,
            WdlProbeResult::Win => Wdl::Win,
        }
    }

    /// The sign a distance with this value carries: positive for the winning side.
    fn sign(self) -> i32 {
        self.as_i32().signum()
    }
}

impl std::fmt::Display for Wdl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed win",
            Wdl::Win => "win",
        })
    }
}

/// One legal move of a root position, as the tables see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveProbe {
    /// The move.
    pub mv: Move,
    /// The value after it, for the side that plays it, counting the fifty-move rule from
    /// the root's halfmove clock.
    pub wdl: Wdl,
    /// Plies to the next capture or pawn move after it, plus this move, signed for the
    /// side that plays it (positive when winning); 1 for a winning capture, pawn move
    /// or mate, 0 for a draw.
    pub dtz: i32,
}

/// A root position and its legal moves, as the tables see them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootProbe {
    /// The position's value for the side to move, with the fifty-move rule counted from
    /// its halfmove clock.
    pub wdl: Wdl,
    /// Plies to the next capture or pawn move with best play, signed as above (0 when
    /// drawn or stalemated, -1 when mated).
    pub dtz: i32,
    /// Every legal move (none when mated or stalemated).
    pub moves: Vec<MoveProbe>,
}

/// Whether `pos` is one the tables could hold: no castling rights, few enough pieces.
#[inline]
pub fn probeable(pos: &Position, max_pieces: u32) -> bool {
    max_pieces > 0 && pos.castling().is_empty() && pos.occupied().count() <= max_pieces
}

/// The prober's bitboards of `pos`: white, black, kings, queens, rooks, bishops,
/// knights, pawns.
fn boards(pos: &Position) -> [u64; 8] {
    let p = |k| pos.pieces(k).0;
    [
        pos.color(Color::White).0,
        pos.color(Color::Black).0,
        p(PieceType::King),
        p(PieceType::Queen),
        p(PieceType::Rook),
        p(PieceType::Bishop),
        p(PieceType::Knight),
        p(PieceType::Pawn),
    ]
}

fn ep_index(pos: &Position) -> u32 {
    pos.en_passant().map_or(0, |sq| sq.index() as u32)
}

pub(super) fn wdl(tables: &TableBases<Adapter>, pos: &Position) -> Option<Wdl> {
    let [w, b, k, q, r, bi, n, p] = boards(pos);
    let white = pos.side_to_move() == Color::White;
    tables
        .probe_wdl(w, b, k, q, r, bi, n, p, ep_index(pos), white)
        .ok()
        .map(Wdl::from_pyrrhic)
}

pub(super) fn root(tables: &TableBases<Adapter>, pos: &Position) -> Option<RootProbe> {
    let [w, b, k, q, r, bi, n, p] = boards(pos);
    let white = pos.side_to_move() == Color::White;
    let rule50 = u32::from(pos.halfmove_clock());
    let probe = tables
        .probe_root(w, b, k, q, r, bi, n, p, rule50, ep_index(pos), white)
        .ok()?;
    let root = match probe.root {
        // Mated counts as -1, the mirror of the mating move's 1 (as python-chess has it).
        DtzProbeValue::Checkmate => {
            return Some(RootProbe {
                wdl: Wdl::Loss,
                dtz: -1,
                moves: Vec::new(),
            })
        }
        DtzProbeValue::Stalemate => {
            return Some(RootProbe {
                wdl: Wdl::Draw,
                dtz: 0,
                moves: Vec::new(),
            })
        }
        DtzProbeValue::Failed => return None,
        DtzProbeValue::DtzResult(r) => r,
    };
    let legal = pos.legal_moves();
    let mut moves = Vec::with_capacity(probe.num_moves);
    for value in &probe.moves[..probe.num_moves] {
        let DtzProbeValue::DtzResult(m) = value else {
            return None;
        };
        let promotion = match m.promotion {
            pyrrhic_rs::Piece::Queen => Some(PieceType::Queen),
            pyrrhic_rs::Piece::Rook => Some(PieceType::Rook),
            pyrrhic_rs::Piece::Bishop => Some(PieceType::Bishop),
            pyrrhic_rs::Piece::Knight => Some(PieceType::Knight),
            _ => None,
        };
        let mv = legal.as_slice().iter().copied().find(|mv| {
            mv.from().index() == m.from_square as usize
                && mv.to().index() == m.to_square as usize
                && mv.promotion_piece() == promotion
        })?;
        let wdl = Wdl::from_pyrrhic(m.wdl);
        moves.push(MoveProbe {
            mv,
            wdl,
            dtz: wdl.sign() * i32::from(m.dtz),
        });
    }
    // The prober lists the moves it could make; every legal move must be there.
    if moves.len() != legal.len() {
        return None;
    }
    let wdl = Wdl::from_pyrrhic(root.wdl);
    Some(RootProbe {
        wdl,
        dtz: wdl.sign() * i32::from(root.dtz),
        moves,
    })
}

/// The prober's window on our attack tables.
#[derive(Clone)]
pub(super) struct Adapter;

fn sq(square: u64) -> Square {
    Square::new(square as usize & 63)
}

impl EngineAdapter for Adapter {
    fn pawn_attacks(color: pyrrhic_rs::Color, square: u64) -> u64 {
        let color = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        attacks::pawn_attacks(color, sq(square)).0
    }
    fn knight_attacks(square: u64) -> u64 {
        attacks::knight_attacks(sq(square)).0
    }
    fn bishop_attacks(square: u64, occupied: u64) -> u64 {
        attacks::bishop_attacks(sq(square), Bitboard(occupied)).0
    }
    fn rook_attacks(square: u64, occupied: u64) -> u64 {
        attacks::rook_attacks(sq(square), Bitboard(occupied)).0
    }
    fn queen_attacks(square: u64, occupied: u64) -> u64 {
        attacks::queen_attacks(sq(square), Bitboard(occupied)).0
    }
    fn king_attacks(square: u64) -> u64 {
        attacks::king_attacks(sq(square)).0
    }
}

impl RootProbe {
    /// The moves that rank best: those that keep the win and convert soonest (under the
    /// fifty-move rule where `fifty_move_rule` is on, so a cursed win counts as a draw
    /// but is still preferred to one), else those that keep the draw, else those that
    /// resist longest. Searching only these, the engine never spoils a won ending and
    /// never loses a drawn one.
    pub fn best_moves(&self, fifty_move_rule: bool) -> Vec<Move> {
        let rank = |m: &MoveProbe| match (m.wdl, fifty_move_rule) {
            (Wdl::Win, _) | (Wdl::CursedWin, false) => 1000 - m.dtz.abs(),
            (Wdl::CursedWin, true) => 1,
            (Wdl::Draw, _) => 0,
            (Wdl::BlessedLoss, true) => -1,
            (Wdl::Loss, _) | (Wdl::BlessedLoss, false) => -1000 + m.dtz.abs(),
        };
        let best = self.moves.iter().map(rank).max().unwrap_or(0);
        self.moves
            .iter()
            .filter(|m| rank(m) == best)
            .map(|m| m.mv)
            .collect()
    }
}

/// A WDL value as a rank, where the fifty-move rule may make cursed wins draws.
pub(super) fn wdl_rank(wdl: Wdl, fifty_move_rule: bool) -> i32 {
    match (wdl, fifty_move_rule) {
        (Wdl::Win, _) | (Wdl::CursedWin, false) => 3,
        (Wdl::CursedWin, true) => 1,
        (Wdl::Draw, _) => 0,
        (Wdl::BlessedLoss, true) => -1,
        (Wdl::Loss, _) | (Wdl::BlessedLoss, false) => -3,
    }
}
