//! Accumulators: the first layer's sums, kept up to date move by move.
//!
//! The search pushes each move (or null move) before making it and pops after unmaking
//! it. A push only records which inputs change (at most two off, two on); the sums are
//! computed when an evaluation asks for them, from the nearest computed entry below, so
//! positions the search leaves without evaluating (cut-offs, TT hits) cost nothing.

use super::features::feature_index;
use super::network::{Network, HIDDEN};
use super::output;
use crate::board::Position;
use crate::chess_move::{Move, MoveKind};
use crate::types::{Color, Piece, PieceType, Square};

/// Whether the search's evaluations run the AVX2 build of the network code where the CPU
/// has AVX2 (see [`AccumulatorStack::evaluate`]). `ladya bench`, five runs alternating
/// with the build without it (AMD EPYC, the other core busy with a match): median
/// 1,927,734 nps against 1,790,160 (1.08x); the same nodes. The whole engine built for
/// `x86-64-v3` gained about as much, so the network code is where AVX2 pays.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub const USE_AVX2: bool = true;

/// The first layer's sums for both perspectives (indexed by colour).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Accumulator {
    values: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// The sums for `pos` from scratch.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            values: [[0; HIDDEN]; 2],
        };
        for side in Color::ALL {
            let values = &mut acc.values[side.index()];
            values.copy_from_slice(&net.feature_bias);
            for sq in pos.occupied() {
                let piece = pos.piece_on(sq).expect("occupied");
                add_row(values, row(net, feature_index(side, piece, sq)));
            }
        }
        acc
    }

    /// The sums seen from `side`.
    #[inline(always)]
    pub fn side(&self, side: Color) -> &[i16; HIDDEN] {
        &self.values[side.index()]
    }

    /// The score in centipawns for `side` (the side to move), in a position with `pieces`
    /// pieces on the board (kings included).
    #[inline]
    pub fn evaluate(&self, net: &Network, side: Color, pieces: u32) -> i32 {
        output::evaluate(net, self.side(side), self.side(!side), pieces)
    }
}

#[inline(always)]
fn row(net: &Network, feature: usize) -> &[i16; HIDDEN] {
    net.feature_weights[feature * HIDDEN..(feature + 1) * HIDDEN]
        .try_into()
        .expect("HIDDEN weights")
}

#[inline(always)]
fn add_row(values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (v, &w) in values.iter_mut().zip(row) {
        *v = v.wrapping_add(w);
    }
}

/// The inputs a move turns off and on.
#[derive(Clone, Copy, Default)]
struct Delta {
    on: [(u8, u8); 2],
    off: [(u8, u8); 2],
    n_on: u8,
    n_off: u8,
}

impl Delta {
    fn on(&mut self, piece: Piece, sq: Square) {
        self.on[self.n_on as usize] = (piece.index() as u8, sq.index() as u8);
        self.n_on += 1;
    }

    fn off(&mut self, piece: Piece, sq: Square) {
        self.off[self.n_off as usize] = (piece.index() as u8, sq.index() as u8);
        self.n_off += 1;
    }

    /// What `mv` changes in `pos` (before it is made).
    fn of_move(pos: &Position, mv: Move) -> Delta {
        let mut d = Delta::default();
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = pos.piece_on(from) else {
            return d;
        };
        let us = piece.color();
        match mv.kind() {
            MoveKind::Normal => {
                if let Some(victim) = pos.piece_on(to) {
                    d.off(victim, to);
                }
                d.off(piece, from);
                d.on(piece, to);
            }
            MoveKind::Promotion => {
                if let Some(victim) = pos.piece_on(to) {
                    d.off(victim, to);
                }
                d.off(piece, from);
                let kind = mv.promotion_piece().unwrap_or(PieceType::Queen);
                d.on(Piece::new(us, kind), to);
            }
            MoveKind::EnPassant => {
                d.off(
                    Piece::new(!us, PieceType::Pawn),
                    Square::from_coords(to.file(), from.rank()),
                );
                d.off(piece, from);
                d.on(piece, to);
            }
            MoveKind::Castling => {
                let rook = Piece::new(us, PieceType::Rook);
                d.off(piece, from);
                d.off(rook, to);
                d.on(piece, mv.castling_king_target());
                d.on(rook, mv.castling_rook_target());
            }
        }
        d
    }

    /// `dst = src` plus this delta, for one perspective, in one pass.
    #[inline(always)]
    fn apply(&self, net: &Network, side: Color, src: &[i16; HIDDEN], dst: &mut [i16; HIDDEN]) {
        let feature = |(piece, sq): (u8, u8)| {
            feature_index(side, Piece::ALL[piece as usize], Square::new(sq as usize))
        };
        match (self.n_on, self.n_off) {
            (1, 1) => {
                let (a, s) = (
                    row(net, feature(self.on[0])),
                    row(net, feature(self.off[0])),
                );
                for i in 0..HIDDEN {
                    dst[i] = src[i].wrapping_add(a[i]).wrapping_sub(s[i]);
                }
            }
            (1, 2) => {
                let a = row(net, feature(self.on[0]));
                let (s0, s1) = (
                    row(net, feature(self.off[0])),
                    row(net, feature(self.off[1])),
                );
                for i in 0..HIDDEN {
                    dst[i] = src[i]
                        .wrapping_add(a[i])
                        .wrapping_sub(s0[i])
                        .wrapping_sub(s1[i]);
                }
            }
            _ => {
                *dst = *src;
                for &on in &self.on[..self.n_on as usize] {
                    add_row(dst, row(net, feature(on)));
                }
                for &off in &self.off[..self.n_off as usize] {
                    for (v, &w) in dst.iter_mut().zip(row(net, feature(off))) {
                        *v = v.wrapping_sub(w);
                    }
                }
            }
        }
    }
}

#[derive(Clone, Copy)]
struct Entry {
    acc: Accumulator,
    /// How this entry differs from the one below it.
    delta: Delta,
    computed: bool,
}

/// The accumulators along the current line of play: entry 0 is the root, one more per
/// move (or null move) made since.
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    top: usize,
}

impl Default for AccumulatorStack {
    fn default() -> Self {
        AccumulatorStack::new()
    }
}

impl AccumulatorStack {
    /// An empty stack; [`AccumulatorStack::reset`] it on a position before use.
    pub fn new() -> AccumulatorStack {
        AccumulatorStack {
            entries: Vec::new(),
            top: 0,
        }
    }

    /// Starts again from `pos` (the search root).
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        let acc = Accumulator::refresh(net, pos);
        self.entries.clear();
        self.entries.push(Entry {
            acc,
            delta: Delta::default(),
            computed: true,
        });
        self.top = 0;
    }

    fn push(&mut self, delta: Delta) {
        self.top += 1;
        if self.top == self.entries.len() {
            let below = self.entries[self.top - 1];
            self.entries.push(below);
        }
        let e = &mut self.entries[self.top];
        e.delta = delta;
        e.computed = false;
    }

    /// Records `mv`, to be called just before `pos.make_move(mv)`.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, mv: Move) {
        self.push(Delta::of_move(pos, mv));
    }

    /// Records a null move (nothing changes but the side to move).
    #[inline]
    pub fn push_null(&mut self) {
        self.push(Delta::default());
    }

    /// Forgets the last push, to be called with the matching unmake.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop below the root");
        self.top = self.top.saturating_sub(1);
    }

    /// The accumulator of the current position, brought up to date.
    pub fn current(&mut self, net: &Network) -> &Accumulator {
        self.bring_up_to_date(net);
        &self.entries[self.top].acc
    }

    /// Computes the entries from the nearest computed one up to the top. Inlined into
    /// both builds of [`AccumulatorStack::evaluate`], so the AVX2 one adds 16 lanes at once.
    #[inline(always)]
    fn bring_up_to_date(&mut self, net: &Network) {
        if !self.entries[self.top].computed {
            let mut base = self.top;
            while !self.entries[base].computed {
                base -= 1;
            }
            for i in base + 1..=self.top {
                let (below, here) = self.entries.split_at_mut(i);
                let (src, dst) = (&below[i - 1].acc, &mut here[0]);
                for side in Color::ALL {
                    dst.delta.apply(
                        net,
                        side,
                        &src.values[side.index()],
                        &mut dst.acc.values[side.index()],
                    );
                }
                dst.computed = true;
            }
        }
    }

    /// The network's score of the current position (`pos`) for the side to move.
    ///
    /// The default build targets any x86-64 (SSE2, 8 lanes of `i16`); on a CPU with AVX2
    /// the same code runs compiled for it, with twice the lanes (measured: [`USE_AVX2`]).
    #[inline]
    #[allow(unsafe_code)]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if USE_AVX2 && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been checked to support AVX2, the only feature the
            // function enables.
            return unsafe { self.evaluate_avx2(net, pos) };
        }
        self.evaluate_portable(net, pos)
    }

    #[inline(always)]
    fn evaluate_portable(&mut self, net: &Network, pos: &Position) -> i32 {
        self.bring_up_to_date(net);
        let pieces = pos.occupied().count();
        let (acc, side) = (&self.entries[self.top].acc, pos.side_to_move());
        output::evaluate(net, acc.side(side), acc.side(!side), pieces)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2(&mut self, net: &Network, pos: &Position) -> i32 {
        self.evaluate_portable(net, pos)
    }

    /// The accumulator of the current position recomputed from scratch equals the
    /// incremental one (a test helper).
    pub fn matches_refresh(&mut self, net: &Network, pos: &Position) -> bool {
        let fresh = Accumulator::refresh(net, pos);
        self.current(net).values == fresh.values
    }
}
