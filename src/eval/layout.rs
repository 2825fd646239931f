//! Where each weight lives in the one flat weight table `params::WEIGHTS`.
//!
//! Every evaluation term is a section of consecutive entries (a single weight, or a table
//! indexed by rank, mobility count, distance, …). The evaluation adds "this side has `n`
//! of entry `i`"; scoring multiplies by the weight, tracing records the count, and the
//! tuner sees the evaluation as linear in the weights.

macro_rules! layout {
    ($($name:ident : $len:expr),* $(,)?) => {
        /// Every section: its name, first index and length, in table order.
        pub const SECTIONS: &[(&str, usize, usize)] = &[$((stringify!($name), $name, $len)),*];
        layout!(@offsets 0usize; $($name : $len,)*);
    };
    (@offsets $off:expr;) => {
        /// The number of weights.
        pub const NUM_PARAMS: usize = $off;
    };
    (@offsets $off:expr; $name:ident : $len:expr, $($rest:tt)*) => {
        #[doc = concat!("First index of the `", stringify!($name), "` section.")]
        pub const $name: usize = $off;
        layout!(@offsets $off + $len; $($rest)*);
    };
}

layout! {
    // Material, pawn to queen.
    MATERIAL: 5,
    // Piece-square tables from the owner's side (a1 = own queen-side corner), contiguous
    // in piece order so that `PST_PAWN + 64 * kind` addresses any of them.
    PST_PAWN: 64,
    PST_KNIGHT: 64,
    PST_BISHOP: 64,
    PST_ROOK: 64,
    PST_QUEEN: 64,
    PST_KING: 64,
    // Pawn structure (cached by pawn key). [0] on a closed file, [1] on a half-open one.
    PAWN_DOUBLED: 1,
    PAWN_ISOLATED: 2,
    PAWN_BACKWARD: 2,
    // By relative rank.
    PAWN_SUPPORTED: 8,
    PAWN_PHALANX: 8,
    PASSED_RANK: 8,
    PASSED_SUPPORTED: 1,
    // Passed pawns, depending on pieces: by relative rank.
    PASSED_FREE_PATH: 8,
    PASSED_BLOCKED: 8,
    // By king distance to the stop square, counted (rank - 2) times.
    PASSED_OWN_KING: 8,
    PASSED_THEIR_KING: 8,
    // Mobility by number of safe squares reached.
    KNIGHT_MOBILITY: 9,
    BISHOP_MOBILITY: 14,
    ROOK_MOBILITY: 15,
    QUEEN_MOBILITY: 28,
    // Pieces.
    BISHOP_PAIR: 1,
    BISHOP_PAWNS: 1,
    // [0] outpost not defended by a pawn, [1] defended.
    KNIGHT_OUTPOST: 2,
    BISHOP_OUTPOST: 2,
    MINOR_BEHIND_PAWN: 1,
    // [0] half-open file, [1] open file.
    ROOK_FILE: 2,
    QUEEN_FILE: 2,
    ROOK_SEVENTH: 1,
    ROOK_TRAPPED: 1,
    BISHOP_TRAPPED: 1,
    // King safety: by attack units (see `params::KS_*`), nonlinear through the table.
    KING_DANGER: 40,
    // Own pawn in front of the king by relative rank (0 = none); [8..] on the king's file.
    KING_SHIELD: 16,
    // Nearest enemy pawn in front of the king by relative rank (0 = none).
    KING_STORM: 8,
    KING_STORM_BLOCKED: 8,
    // Files at the king without own pawns: [0] half-open, [1] open.
    KING_OPEN_FILE: 2,
    // Threats, by the type of the piece attacked.
    THREAT_BY_PAWN: 6,
    THREAT_BY_MINOR: 6,
    THREAT_BY_ROOK: 6,
    THREAT_BY_KING: 1,
    HANGING: 1,
    THREAT_PAWN_PUSH: 1,
    // For the side to move.
    TEMPO: 1,
}
