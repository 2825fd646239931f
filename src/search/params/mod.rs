//! Every tunable number of the search, in one place.
//!
//! Margins are in centipawns, depths in plies. A change here changes `bench`.

pub use tuned::{TunableSpec, Tuned};

/// Declares the tunables: a constant each in the shipped build, a static each in a
/// `--features tune` build, and [`TUNABLES`] listing them.
macro_rules! tunables {
    ($($(#[doc = $doc:literal])* $name:ident: $default:literal, $min:literal..=$max:literal, $c_end:literal;)*) => {
        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "tune"))]
            pub const $name: Tuned = Tuned::new($default);
            $(#[doc = $doc])*
            #[cfg(feature = "tune")]
            pub static $name: Tuned = Tuned::new($default);
        )*
        /// Every tunable of the search, in declaration order.
        pub static TUNABLES: &[TunableSpec] = &[$(TunableSpec {
            name: stringify!($name),
            value: &$name,
            default: $default,
            min: $min,
            max: $max,
            c_end: $c_end as f64,
        }),*];
    };
}

mod tuned;

/// Deepest ply the search stack supports (iterations stop at `MAX_DEPTH`).
pub const MAX_PLY: usize = 128;

/// Nodes between two looks at the stop flag, the pondering flag and the clock.
pub const POLL_INTERVAL: u64 = 1024;

/// `go mate N` without a depth limit searches at most `2N + MATE_SEARCH_EXTRA_PLIES` plies:
/// a mate in N is 2N - 1 plies deep, and the slack lets a mate that pruning or
/// reductions hide at the nominal depth still be found. Without a cap, `go mate` in a
/// position with no such mate would search until `stop`.
pub const MATE_SEARCH_EXTRA_PLIES: u32 = 8;

/// Root moves are reported (`currmove`) only after this many milliseconds.
pub const CURRMOVE_AFTER_MS: u64 = 1000;

// ---- Aspiration windows --------------------------------------------------------------

/// Iterations from this depth on start with a narrow window around the last score.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;

// ---- Tunables ----------------------------------------------------------------------
//
// The search's margins and divisors, each with the range SPSA may move it in and its
// perturbation at the end of a run (`c_end`, in the value's units; OpenBench's
// convention). In the shipped build each is a constant, read with `.get()`, which the
// compiler folds, so `bench` is the same as with plain constants; a `--features tune`
// build makes each a `spin` UCI option (`tools/spsa.py`, OpenBench's SPSA tab), and
// `ladya tunables` prints them in OpenBench's format.

tunables! {
    /// Half-width of the first aspiration window.
    ASPIRATION_WINDOW: 20, 5..=60, 3;
    /// Reverse futility margin per ply of depth.
    RFP_MARGIN: 68, 30..=150, 6;
    /// Base null-move reduction.
    NMP_BASE_REDUCTION: 3, 1..=6, 1;
    /// One more ply of reduction per this many plies of depth.
    NMP_DEPTH_DIVISOR: 3, 2..=6, 1;
    /// One more ply of reduction per this many centipawns of eval above beta (at most 3).
    NMP_EVAL_DIVISOR: 210, 80..=400, 15;
    /// Futility margin: base.
    FUTILITY_BASE: 94, 30..=250, 10;
    /// Futility margin: per ply of depth.
    FUTILITY_PER_DEPTH: 94, 40..=200, 8;
    /// Quiet moves tried before the rest are pruned: `(LMP_BASE + d * d) / (2 - improving)`.
    LMP_BASE: 5, 1..=8, 1;
    /// SEE threshold for quiet moves, per ply of depth squared (negative).
    SEE_QUIET_MARGIN: -16, -80..=-5, 3;
    /// SEE threshold for captures, per ply of depth (negative).
    SEE_NOISY_MARGIN: -86, -200..=-20, 8;
    /// Late move reductions, in hundredths of a ply: constant part of
    /// `base + ln(depth) ln(moves) / divisor`.
    LMR_BASE: 79, 20..=150, 6;
    /// Late move reductions, in hundredths: divisor of the logarithmic part.
    LMR_DIVISOR: 222, 150..=350, 10;
    /// Late move reductions: history (butterfly plus continuation) is worth one ply per this
    /// much.
    LMR_HISTORY_DIVISOR: 8078, 2048..=16384, 500;
    /// Singular extensions: the other moves must fall this far below the stored score, per
    /// ply of depth.
    SE_MARGIN_PER_DEPTH: 3, 1..=8, 1;
    /// Delta pruning: a capture that cannot lift the score to alpha even with this margin is
    /// skipped.
    DELTA_MARGIN: 229, 50..=400, 15;
    /// The largest history bonus of one update.
    HISTORY_BONUS_MAX: 1465, 500..=3000, 100;
    /// History bonus per ply of depth squared.
    HISTORY_BONUS_SCALE: 15, 4..=40, 2;
    // The depth limits of the steps above (plies).
    /// Reverse futility pruning applies up to this depth.
    RFP_MAX_DEPTH: 6, 4..=12, 1;
    /// Null-move pruning needs at least this depth.
    NMP_MIN_DEPTH: 3, 1..=6, 1;
    /// Internal iterative reduction: depth at which a node without a TT move is reduced.
    IIR_MIN_DEPTH: 4, 2..=8, 1;
    /// Futility pruning of quiet moves applies up to this depth.
    FUTILITY_MAX_DEPTH: 8, 4..=12, 1;
    /// Late move pruning applies up to this depth.
    LMP_MAX_DEPTH: 7, 4..=12, 1;
    /// SEE pruning applies up to this depth.
    SEE_PRUNE_MAX_DEPTH: 7, 4..=12, 1;
    /// Late move reductions: minimum depth.
    LMR_MIN_DEPTH: 3, 1..=5, 1;
    /// Singular extensions: minimum depth.
    SE_MIN_DEPTH: 7, 5..=12, 1;
    /// Singular extensions: the stored entry may be this many plies shallower than the node.
    SE_TT_DEPTH_MARGIN: 2, 1..=6, 1;
    /// Time manager (`time.rs`): moves assumed left in a sudden-death game when `movestogo`
    /// is not given. The `TM_` tunables matter only on a clock: a tuning run at fixed
    /// nodes leaves them alone (`tools/spsa.py`).
    TM_MOVES_TO_GO: 30, 15..=50, 3;
    /// Time manager: share of the increment the soft limit spends on this move, per mille.
    TM_INCREMENT_SHARE: 750, 400..=1000, 50;
    /// Time manager: how many soft limits the hard limit allows, in hundredths.
    TM_HARD_PER_SOFT: 400, 200..=800, 30;
    /// Time manager: the soft limit's largest share of the hard limit, per mille.
    TM_SOFT_PER_HARD: 700, 400..=900, 40;
    /// Time manager: the clock reserve in increments, in hundredths.
    TM_RESERVE_INCREMENTS: 500, 100..=1000, 50;
}

// ---- Pruning and reductions ---------------------------------------------------------
//
// The centipawn margins here (and `ASPIRATION_WINDOW`, `DELTA_MARGIN`, the SEE margins) were
// tuned under the hand-crafted evaluation. The default network's scores run larger:
// on 951 of Stockfish's positions (every 600th of `../shared/data/tuning`), median |eval|
// 93 cp against the hand-crafted 79, standard deviation 291 against 236, least-squares
// slope 1.17 (generation 1: 1.11). Margins 15-20% wider would be the same in the
// network's units; that change has not been measured yet (an SPRT each).

/// Late move reductions: history changes a reduction by at most this many plies (the
/// butterfly table alone reaches it at its bound).
pub const LMR_HISTORY_MAX_PLIES: i32 = 2;

// ---- Quiescence ----------------------------------------------------------------------

// ---- History -------------------------------------------------------------------------

/// Quiet ordering: a minor piece attacked by a pawn that moves away is ordered this much
/// higher (in history units), one that moves where a pawn attacks it this much lower.
pub const THREAT_ORDER_MINOR: i32 = 8192;
/// Quiet ordering: the same for a rook and the pawns and minor pieces.
pub const THREAT_ORDER_ROOK: i32 = 12288;
/// Quiet ordering: the same for the queen and every cheaper piece.
pub const THREAT_ORDER_QUEEN: i32 = 16384;

/// History scores stay within +-this (the gravity formula keeps them there).
pub const HISTORY_MAX: i32 = 16384;

// ---- Correction history ------------------------------------------------------------

/// Entries per side of the pawn-structure correction table (`correction.rs`).
pub const CORRECTION_ENTRIES: usize = 16_384;
/// Entries hold corrections in `1 / CORRECTION_GRAIN` centipawns, so small errors blend.
pub const CORRECTION_GRAIN: i32 = 256;
/// The largest correction: 64 centipawns.
pub const CORRECTION_LIMIT: i32 = 64 * CORRECTION_GRAIN;
/// The largest weight (of 256) of one update: reached at depth 15.
pub const CORRECTION_WEIGHT_MAX: i32 = 16;

/// Piece values for SEE, MVV-LVA and delta pruning: pawn to king.
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

// ---- Step switches ---------------------------------------------------------------------
//
// Every step of the search can be switched off here. A build with one switch set to
// `false` is the "version without it" that the SPRT log in `negamax.rs` played against
// (`make ablate STEP=<SWITCH>` builds it, `make sprt STEP=<SWITCH>` plays the match). The
// compiler removes the dead branches, so the switches cost nothing in the real build.

/// Step 1 of `negamax`: extend checks by one ply.
pub const USE_CHECK_EXTENSION: bool = true;
/// Step 5 of `negamax`: mate distance pruning.
pub const USE_MATE_DISTANCE_PRUNING: bool = true;
/// Step 6 of `negamax`: cut off on a deep enough stored bound outside PV nodes.
pub const USE_TT_CUTOFFS: bool = true;
/// Step 7 of `negamax`: replace the static eval by a stored score whose bound allows it.
pub const USE_TT_EVAL_REFINE: bool = true;
/// Step 8 of `negamax`: reverse futility pruning.
pub const USE_REVERSE_FUTILITY: bool = true;
/// Step 9 of `negamax`: null-move pruning.
pub const USE_NULL_MOVE: bool = true;
/// Steps 8 and 9 of `negamax` stand aside where at least this many of the squares around
/// the side to move's king are attacked: a quiet threat of mate there is what neither a
/// static margin nor a null-move search that ends in quiescence can see.
pub const KING_FIRE_SQUARES: u32 = 3;
/// Step 10 of `negamax`: internal iterative reduction.
pub const USE_IIR: bool = true;
/// Step 12 of `negamax`: late move pruning.
pub const USE_LATE_MOVE_PRUNING: bool = true;
/// Step 12 of `negamax`: futility pruning.
pub const USE_FUTILITY: bool = true;
/// Step 12 of `negamax`: SEE pruning of moves that lose material.
pub const USE_SEE_PRUNING: bool = true;
/// Step 13 of `negamax`: singular extensions.
pub const USE_SINGULAR_EXTENSION: bool = true;
/// Step 13 of `negamax`: a stored move that is not singular, in a node whose stored
/// score is at or above beta, is searched a ply shallower.
pub const USE_SINGULAR_SHORTENING: bool = true;
/// Step 14 of `negamax`: late move reductions.
pub const USE_LMR: bool = true;
/// Step 11 of `negamax`: quiet moves of a piece attacked by a cheaper one are ordered by
/// whether they escape (`THREAT_ORDER_*`).
pub const USE_THREAT_ORDERING: bool = true;
/// Step 17 of `negamax`: killer moves in the picker.
pub const USE_KILLERS: bool = true;
/// Step 17 of `negamax`: the counter move in the picker.
pub const USE_COUNTER_MOVE: bool = true;
/// Step 17 of `negamax`: quiet moves ordered by history (otherwise generation order).
pub const USE_HISTORY_ORDERING: bool = true;
/// Step 5 of `qsearch`: captures that lose material (SEE < 0) are not searched.
pub const USE_QS_SEE_PRUNING: bool = true;
/// Step 5 of `qsearch`: delta pruning.
pub const USE_DELTA_PRUNING: bool = true;
/// Step 7 of `negamax` and step 4 of `qsearch`: the static evaluation corrected by what
/// searches of the same pawn structure found (correction history).
pub const USE_CORRECTION_HISTORY: bool = true;
/// Steps 11, 14 and 17 of `negamax`: continuation history (the replies that worked after
/// the moves one and two plies back) in quiet ordering and reductions.
pub const USE_CONT_HISTORY: bool = true;
/// Step 11 of `negamax`: the butterfly history of a quiet move is kept apart by whether it
/// leaves a square the opponent attacks and whether it reaches one (`history.rs`).
pub const USE_THREAT_HISTORY: bool = true;
/// Step 4 of `negamax`: a draw the side to move can reach by repeating with one move
/// raises alpha to the draw score.
pub const USE_UPCOMING_REPETITION: bool = true;
/// Step 7 of `negamax`: correction history also by each side's non-pawn pieces.
pub const USE_NON_PAWN_CORRECTION: bool = true;
/// Iterative deepening: aspiration windows.
pub const USE_ASPIRATION: bool = true;
