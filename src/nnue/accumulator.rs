//! Accumulators: the first layer's sums, kept up to date move by move.
//!
//! The search pushes each move (or null move) before making it and pops after unmaking
//! it. A push only records which inputs change (at most two off, two on); the sums are
//! computed when an evaluation asks for them, from the nearest computed entry below, so
//! positions the search leaves without evaluating (cut-offs, TT hits) cost nothing.
//!
//! With king buckets, a king move that changes its side's [`Orientation`] changes every
//! input of that side's perspective: that perspective is recomputed from the position
//! when an evaluation asks for it, and only the other one follows the move's delta. Each
//! entry therefore keeps both perspectives' orientation and whether each is computed.
//! The recomputation starts from the sums that perspective last had in the same
//! orientation (a cache of one per orientation, kept beside the stack), adding and
//! removing only the pieces that differ: a few rows instead of one per piece.

use super::features::{feature_index, KingBuckets, Orientation};
use super::network::{Network, HIDDEN};
use super::output;
use crate::bitboard::Bitboard;
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

/// Whether the AVX-512 build of the network code runs where the CPU has AVX-512BW (32
/// lanes of `i16`), before the AVX2 one. `ladya bench` on an Intel Xeon with AVX-512
/// (Sapphire Rapids), user time, seven runs alternating with the AVX2 build on the idle
/// machine: medians 2.22 s against 2.32 s (1.045x), and as much in five runs beside a
/// match; the same nodes. The same code as the other builds, compiled for wider lanes:
/// the scores are the same (the test below).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub const USE_AVX512: bool = true;

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
            let orientation = net.kings.orientation(side, pos.king(side));
            let mut sums = CachedSums::empty(net);
            sums.update(net, pos, side, orientation);
            acc.values[side.index()] = sums.values;
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

#[inline(always)]
fn sub_row(values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (v, &w) in values.iter_mut().zip(row) {
        *v = v.wrapping_sub(w);
    }
}

/// A perspective's sums as last computed in one orientation, and the pieces they count
/// (by [`Piece::index`]).
#[derive(Clone, Copy)]
struct CachedSums {
    values: [i16; HIDDEN],
    pieces: [Bitboard; 12],
}

impl CachedSums {
    /// The sums of an empty board.
    fn empty(net: &Network) -> CachedSums {
        CachedSums {
            values: net
                .feature_bias
                .as_slice()
                .try_into()
                .expect("HIDDEN biases"),
            pieces: [Bitboard::EMPTY; 12],
        }
    }

    /// Brings the sums to the pieces of `pos`, seen from `side` in `orientation` (the
    /// one these sums are kept for), adding and removing the pieces that differ.
    #[inline(always)]
    fn update(&mut self, net: &Network, pos: &Position, side: Color, orientation: Orientation) {
        for piece in Piece::ALL {
            let now = pos.colored(piece.color(), piece.kind());
            let was = self.pieces[piece.index()];
            for sq in now & !was {
                add_row(
                    &mut self.values,
                    row(net, feature_index(side, orientation, piece, sq)),
                );
            }
            for sq in was & !now {
                sub_row(
                    &mut self.values,
                    row(net, feature_index(side, orientation, piece, sq)),
                );
            }
            self.pieces[piece.index()] = now;
        }
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

    /// The square the king of `color` moves to, if this delta moves it.
    fn king_target(&self, color: Color) -> Option<Square> {
        let king = Piece::new(color, PieceType::King).index() as u8;
        self.on[..self.n_on as usize]
            .iter()
            .find(|&&(piece, _)| piece == king)
            .map(|&(_, sq)| Square::new(sq as usize))
    }

    /// `dst = src` plus this delta, for one perspective seen in `orientation`, in one
    /// pass.
    #[inline(always)]
    fn apply(
        &self,
        net: &Network,
        side: Color,
        orientation: Orientation,
        src: &[i16; HIDDEN],
        dst: &mut [i16; HIDDEN],
    ) {
        let feature = |(piece, sq): (u8, u8)| {
            feature_index(
                side,
                orientation,
                Piece::ALL[piece as usize],
                Square::new(sq as usize),
            )
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
                    sub_row(dst, row(net, feature(off)));
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
    /// How each perspective sees the board here (by colour).
    orientation: [Orientation; 2],
    /// Whether each perspective's sums are up to date (by colour).
    computed: [bool; 2],
}

/// The accumulators along the current line of play: entry 0 is the root, one more per
/// move (or null move) made since.
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    top: usize,
    /// The king buckets of the network the stack was last reset with.
    kings: KingBuckets,
    /// Each perspective's sums as last computed in each orientation (by colour, then
    /// [`Orientation::index`]), where a refresh starts from.
    cache: Vec<CachedSums>,
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
            kings: KingBuckets::None,
            cache: Vec::new(),
        }
    }

    /// Starts again from `pos` (the search root).
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        let acc = Accumulator::refresh(net, pos);
        self.kings = net.kings;
        self.cache.clear();
        if net.kings != KingBuckets::None {
            self.cache
                .resize(2 * Orientation::COUNT, CachedSums::empty(net));
        }
        self.entries.clear();
        self.entries.push(Entry {
            acc,
            delta: Delta::default(),
            orientation: Color::ALL.map(|side| net.kings.orientation(side, pos.king(side))),
            computed: [true; 2],
        });
        self.top = 0;
    }

    fn push(&mut self, delta: Delta, mover: Color) {
        self.top += 1;
        if self.top == self.entries.len() {
            let below = self.entries[self.top - 1];
            self.entries.push(below);
        }
        let mut orientation = self.entries[self.top - 1].orientation;
        if self.kings != KingBuckets::None {
            if let Some(king) = delta.king_target(mover) {
                orientation[mover.index()] = self.kings.orientation(mover, king);
            }
        }
        let e = &mut self.entries[self.top];
        e.delta = delta;
        e.orientation = orientation;
        e.computed = [false; 2];
    }

    /// Records `mv`, to be called just before `pos.make_move(mv)`.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, mv: Move) {
        self.push(Delta::of_move(pos, mv), pos.side_to_move());
    }

    /// Records a null move (nothing changes but the side to move).
    #[inline]
    pub fn push_null(&mut self) {
        // Either colour: an empty delta moves no king.
        self.push(Delta::default(), Color::White);
    }

    /// Forgets the last push, to be called with the matching unmake.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop below the root");
        self.top = self.top.saturating_sub(1);
    }

    /// The accumulator of the current position (`pos`), brought up to date.
    pub fn current(&mut self, net: &Network, pos: &Position) -> &Accumulator {
        self.bring_up_to_date(net, pos);
        &self.entries[self.top].acc
    }

    /// Brings the top entry up to date. Inlined into every build of
    /// [`AccumulatorStack::evaluate`], so the AVX2 one adds 16 lanes at once and the
    /// AVX-512 one 32.
    #[inline(always)]
    fn bring_up_to_date(&mut self, net: &Network, pos: &Position) {
        debug_assert_eq!(
            net.kings, self.kings,
            "evaluated with another network than reset"
        );
        match self.kings {
            KingBuckets::None => self.follow_deltas(net),
            _ => self.follow_deltas_or_refresh(net, pos),
        }
    }

    /// Without king buckets: both perspectives from the nearest computed entry up to the
    /// top, move by move (a perspective's orientation never changes, and both are always
    /// computed together). A path of its own because the per-perspective one below costs
    /// 2% more instructions in `ladya bench`.
    #[inline(always)]
    fn follow_deltas(&mut self, net: &Network) {
        if self.entries[self.top].computed[0] {
            return;
        }
        let mut base = self.top;
        while !self.entries[base].computed[0] {
            base -= 1;
        }
        for i in base + 1..=self.top {
            let (below, here) = self.entries.split_at_mut(i);
            let (src, dst) = (&below[i - 1].acc, &mut here[0]);
            for side in Color::ALL {
                let s = side.index();
                let none = Orientation::default();
                dst.delta
                    .apply(net, side, none, &src.values[s], &mut dst.acc.values[s]);
            }
            dst.computed = [true; 2];
        }
    }

    /// With king buckets: each perspective from its nearest computed entry up to the
    /// top, or from `pos` (the top's position) when its king changed orientation on the
    /// way.
    #[inline(always)]
    fn follow_deltas_or_refresh(&mut self, net: &Network, pos: &Position) {
        for side in Color::ALL {
            let s = side.index();
            if self.entries[self.top].computed[s] {
                continue;
            }
            let mut base = self.top;
            let mut refresh = false;
            while !self.entries[base].computed[s] {
                if self.entries[base].orientation[s] != self.entries[base - 1].orientation[s] {
                    refresh = true;
                    break;
                }
                base -= 1;
            }
            if refresh {
                // The entries between keep their stale sums: one of them, evaluated
                // later as the top, finds the same change below it and refreshes too.
                let e = &mut self.entries[self.top];
                let orientation = e.orientation[s];
                let cached = &mut self.cache[s * Orientation::COUNT + orientation.index()];
                cached.update(net, pos, side, orientation);
                e.acc.values[s] = cached.values;
                e.computed[s] = true;
                continue;
            }
            for i in base + 1..=self.top {
                let (below, here) = self.entries.split_at_mut(i);
                let (src, dst) = (&below[i - 1].acc, &mut here[0]);
                dst.delta.apply(
                    net,
                    side,
                    dst.orientation[s],
                    &src.values[s],
                    &mut dst.acc.values[s],
                );
                dst.computed[s] = true;
            }
        }
    }

    /// The network's score of the current position (`pos`) for the side to move.
    ///
    /// The default build targets any x86-64 (SSE2, 8 lanes of `i16`); on a CPU with AVX2
    /// the same code runs compiled for it, with twice the lanes (measured: [`USE_AVX2`]),
    /// and with AVX-512BW four times (measured: [`USE_AVX512`]).
    #[inline]
    #[allow(unsafe_code)]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if USE_AVX512 && std::arch::is_x86_feature_detected!("avx512bw") {
            // SAFETY: the CPU has just been checked to support AVX-512BW (which implies
            // AVX-512F), the only features the function enables.
            return unsafe { self.evaluate_avx512(net, pos) };
        }
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
        self.bring_up_to_date(net, pos);
        let pieces = pos.occupied().count();
        let (acc, side) = (&self.entries[self.top].acc, pos.side_to_move());
        output::evaluate(net, acc.side(side), acc.side(!side), pieces)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2(&mut self, net: &Network, pos: &Position) -> i32 {
        self.evaluate_portable(net, pos)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn evaluate_avx512(&mut self, net: &Network, pos: &Position) -> i32 {
        self.evaluate_portable(net, pos)
    }

    /// The accumulator of the current position recomputed from scratch equals the
    /// incremental one (a test helper).
    pub fn matches_refresh(&mut self, net: &Network, pos: &Position) -> bool {
        let fresh = Accumulator::refresh(net, pos);
        self.current(net, pos).values == fresh.values
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::{default_network, evaluate_from_scratch};
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// One build of [`AccumulatorStack::evaluate`].
    type Build = (
        &'static str,
        fn(&mut AccumulatorStack, &Network, &Position) -> i32,
    );

    /// Which builds of the evaluation this CPU can run.
    #[allow(unsafe_code)]
    fn builds() -> Vec<Build> {
        let mut builds: Vec<Build> = vec![("portable", |s, n, p| s.evaluate_portable(n, p))];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2, checked just above.
                builds.push(("avx2", |s, n, p| unsafe { s.evaluate_avx2(n, p) }));
            }
            if std::arch::is_x86_feature_detected!("avx512bw") {
                // SAFETY: the CPU supports AVX-512BW (and so AVX-512F), checked just above.
                builds.push(("avx512", |s, n, p| unsafe { s.evaluate_avx512(n, p) }));
            }
        }
        builds
    }

    #[test]
    fn every_build_of_the_evaluation_scores_alike_along_random_games() {
        let net = default_network();
        let builds = builds();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for _ in 0..20 {
            let mut pos = Position::startpos();
            // One stack per build, each brought up to date by its own code.
            let mut stacks: Vec<AccumulatorStack> =
                builds.iter().map(|_| AccumulatorStack::new()).collect();
            for s in &mut stacks {
                s.reset(&net, &pos);
            }
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
                for s in &mut stacks {
                    s.push_move(&pos, mv);
                }
                pos.make_move(mv);
                // Not every position is evaluated, as in a search: the stacks catch up.
                if rng.next_u64() % 3 == 0 {
                    continue;
                }
                let want = evaluate_from_scratch(&net, &pos);
                for ((name, eval), s) in builds.iter().zip(&mut stacks) {
                    assert_eq!(
                        eval(s, &net, &pos),
                        want,
                        "{name} build at {}",
                        pos.to_fen()
                    );
                }
            }
        }
    }
}
