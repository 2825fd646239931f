//! Every weight of the evaluation, in one place.
//!
//! The fixed constants at the top are set by hand (they shape the nonlinear parts: game
//! phase, king attack units, endgame scaling, mop-up). The table `WEIGHTS` at the bottom
//! is linear in the evaluation and is rewritten by the Texel tuner (`ladya-tune`); its
//! layout is in `layout.rs`.

use super::layout::NUM_PARAMS;
use super::score::S;

/// Nominal piece values in centipawns, pawn to king, for exchange arithmetic in the search
/// (SEE, delta pruning) and for endgame material tests. The evaluation's own material
/// weights are the tuned `MATERIAL` section of `WEIGHTS`.
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Game-phase weight of each piece type (pawn to king); 24 at the start.
pub const PHASE_WEIGHTS: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the starting position: full middlegame.
pub const PHASE_MAX: i32 = 24;

/// Endgame scale factors are out of this.
pub const SCALE_NORMAL: i32 = 128;
/// Pawnless, the stronger side has less than a rook of pieces: cannot win.
pub const SCALE_NO_WIN: i32 = 0;
/// Pawnless, a rook-or-more up by at most a bishop against at most a minor (KR v KB/KN).
pub const SCALE_PAWNLESS_VS_MINOR: i32 = 16;
/// Pawnless, up by at most a bishop otherwise (KRB v KR, KQ v KRB...).
pub const SCALE_PAWNLESS: i32 = 56;
/// Opposite-coloured bishops and no other pieces.
pub const SCALE_OCB_ONLY: i32 = 48;
/// Opposite-coloured bishops with other pieces.
pub const SCALE_OCB: i32 = 100;
/// The stronger side has a single pawn and the weaker side has pieces: often a draw.
pub const SCALE_ONE_PAWN: i32 = 96;

/// King attack units per piece attacking the king zone, by attacker type.
pub const KS_ATTACKER_UNITS: [i32; 6] = [0, 2, 2, 3, 5, 0];
/// King attack units per safe check available, by checking piece type.
pub const KS_SAFE_CHECK_UNITS: [i32; 6] = [0, 4, 3, 4, 4, 0];
/// Attack units per two attacks on king-zone squares.
pub const KS_ZONE_ATTACK_UNITS: i32 = 1;
/// Attack units per king-zone square attacked and not defended except by the king.
pub const KS_WEAK_SQUARE_UNITS: i32 = 1;
/// Units are halved when the attacker has no queen.
pub const KS_NO_QUEEN_DIVISOR: i32 = 2;

/// Mop-up (lone king): bonus per step the weak king stands from the centre.
pub const MOPUP_EDGE: i32 = 20;
/// Mop-up: bonus per step the kings stand closer than 7 apart.
pub const MOPUP_KINGS_CLOSE: i32 = 10;
/// Mop-up with bishop and knight: bonus per step the weak king stands closer than 7 to a
/// corner of the bishop's colour.
pub const MOPUP_BN_CORNER: i32 = 30;
/// Mop-up: a flat bonus so that the winning side prefers keeping mating material.
pub const MOPUP_BASE: i32 = 200;

// BEGIN TUNED WEIGHTS (rewritten by the tuner; do not edit the markers)
/// The tuned weights, section by section as listed in `layout::SECTIONS`.
#[rustfmt::skip]
pub const WEIGHTS: [S; NUM_PARAMS] = [
    // MATERIAL
    S(82, 94), S(337, 281), S(365, 297), S(477, 512), S(1025, 936),
    // PST_PAWN
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 5), S(0, 5), S(0, 5), S(0, 5), S(0, 5), S(0, 5), S(0, 5), S(0, 5),
    S(0, 10), S(0, 10), S(0, 10), S(10, 10), S(10, 10), S(0, 10), S(0, 10), S(0, 10),
    S(0, 15), S(0, 15), S(0, 15), S(10, 15), S(10, 15), S(0, 15), S(0, 15), S(0, 15),
    S(0, 20), S(0, 20), S(0, 20), S(0, 20), S(0, 20), S(0, 20), S(0, 20), S(0, 20),
    S(0, 25), S(0, 25), S(0, 25), S(0, 25), S(0, 25), S(0, 25), S(0, 25), S(0, 25),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // PST_KNIGHT
    S(-30, -30), S(-25, -25), S(-20, -20), S(-15, -15), S(-15, -15), S(-20, -20), S(-25, -25), S(-30, -30),
    S(-25, -25), S(-20, -20), S(-15, -15), S(-10, -10), S(-10, -10), S(-15, -15), S(-20, -20), S(-25, -25),
    S(-20, -20), S(-15, -15), S(-10, -10), S(-5, -5), S(-5, -5), S(-10, -10), S(-15, -15), S(-20, -20),
    S(-15, -15), S(-10, -10), S(-5, -5), S(0, 0), S(0, 0), S(-5, -5), S(-10, -10), S(-15, -15),
    S(-15, -15), S(-10, -10), S(-5, -5), S(0, 0), S(0, 0), S(-5, -5), S(-10, -10), S(-15, -15),
    S(-20, -20), S(-15, -15), S(-10, -10), S(-5, -5), S(-5, -5), S(-10, -10), S(-15, -15), S(-20, -20),
    S(-25, -25), S(-20, -20), S(-15, -15), S(-10, -10), S(-10, -10), S(-15, -15), S(-20, -20), S(-25, -25),
    S(-30, -30), S(-25, -25), S(-20, -20), S(-15, -15), S(-15, -15), S(-20, -20), S(-25, -25), S(-30, -30),
    // PST_BISHOP
    S(-18, -18), S(-15, -15), S(-12, -12), S(-9, -9), S(-9, -9), S(-12, -12), S(-15, -15), S(-18, -18),
    S(-15, -15), S(-12, -12), S(-9, -9), S(-6, -6), S(-6, -6), S(-9, -9), S(-12, -12), S(-15, -15),
    S(-12, -12), S(-9, -9), S(-6, -6), S(-3, -3), S(-3, -3), S(-6, -6), S(-9, -9), S(-12, -12),
    S(-9, -9), S(-6, -6), S(-3, -3), S(0, 0), S(0, 0), S(-3, -3), S(-6, -6), S(-9, -9),
    S(-9, -9), S(-6, -6), S(-3, -3), S(0, 0), S(0, 0), S(-3, -3), S(-6, -6), S(-9, -9),
    S(-12, -12), S(-9, -9), S(-6, -6), S(-3, -3), S(-3, -3), S(-6, -6), S(-9, -9), S(-12, -12),
    S(-15, -15), S(-12, -12), S(-9, -9), S(-6, -6), S(-6, -6), S(-9, -9), S(-12, -12), S(-15, -15),
    S(-18, -18), S(-15, -15), S(-12, -12), S(-9, -9), S(-9, -9), S(-12, -12), S(-15, -15), S(-18, -18),
    // PST_ROOK
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // PST_QUEEN
    S(-6, -18), S(-5, -15), S(-4, -12), S(-3, -9), S(-3, -9), S(-4, -12), S(-5, -15), S(-6, -18),
    S(-5, -15), S(-4, -12), S(-3, -9), S(-2, -6), S(-2, -6), S(-3, -9), S(-4, -12), S(-5, -15),
    S(-4, -12), S(-3, -9), S(-2, -6), S(-1, -3), S(-1, -3), S(-2, -6), S(-3, -9), S(-4, -12),
    S(-3, -9), S(-2, -6), S(-1, -3), S(0, 0), S(0, 0), S(-1, -3), S(-2, -6), S(-3, -9),
    S(-3, -9), S(-2, -6), S(-1, -3), S(0, 0), S(0, 0), S(-1, -3), S(-2, -6), S(-3, -9),
    S(-4, -12), S(-3, -9), S(-2, -6), S(-1, -3), S(-1, -3), S(-2, -6), S(-3, -9), S(-4, -12),
    S(-5, -15), S(-4, -12), S(-3, -9), S(-2, -6), S(-2, -6), S(-3, -9), S(-4, -12), S(-5, -15),
    S(-6, -18), S(-5, -15), S(-4, -12), S(-3, -9), S(-3, -9), S(-4, -12), S(-5, -15), S(-6, -18),
    // PST_KING
    S(0, -48), S(10, -40), S(10, -32), S(0, -24), S(0, -24), S(0, -32), S(10, -40), S(0, -48),
    S(-10, -40), S(-10, -32), S(-10, -24), S(-10, -16), S(-10, -16), S(-10, -24), S(-10, -32), S(-10, -40),
    S(-20, -32), S(-20, -24), S(-20, -16), S(-20, -8), S(-20, -8), S(-20, -16), S(-20, -24), S(-20, -32),
    S(-30, -24), S(-30, -16), S(-30, -8), S(-30, 0), S(-30, 0), S(-30, -8), S(-30, -16), S(-30, -24),
    S(-40, -24), S(-40, -16), S(-40, -8), S(-40, 0), S(-40, 0), S(-40, -8), S(-40, -16), S(-40, -24),
    S(-50, -32), S(-50, -24), S(-50, -16), S(-50, -8), S(-50, -8), S(-50, -16), S(-50, -24), S(-50, -32),
    S(-60, -40), S(-60, -32), S(-60, -24), S(-60, -16), S(-60, -16), S(-60, -24), S(-60, -32), S(-60, -40),
    S(-70, -48), S(-70, -40), S(-70, -32), S(-70, -24), S(-70, -24), S(-70, -32), S(-70, -40), S(-70, -48),
    // PAWN_DOUBLED
    S(-10, -20),
    // PAWN_ISOLATED
    S(-5, -10), S(-12, -15),
    // PAWN_BACKWARD
    S(-5, -5), S(-12, -10),
    // PAWN_SUPPORTED
    S(0, 0), S(0, 0), S(8, 5), S(10, 8), S(15, 12), S(25, 25), S(50, 50), S(0, 0),
    // PAWN_PHALANX
    S(0, 0), S(3, 0), S(5, 2), S(8, 5), S(15, 12), S(30, 30), S(60, 60), S(0, 0),
    // PASSED_RANK
    S(0, 0), S(0, 5), S(0, 10), S(5, 20), S(15, 35), S(30, 70), S(60, 120), S(0, 0),
    // PASSED_SUPPORTED
    S(5, 10),
    // PASSED_FREE_PATH
    S(0, 0), S(0, 0), S(0, 5), S(0, 10), S(5, 20), S(10, 40), S(20, 70), S(0, 0),
    // PASSED_BLOCKED
    S(0, 0), S(0, 0), S(0, -5), S(0, -10), S(-5, -15), S(-10, -25), S(-15, -35), S(0, 0),
    // PASSED_OWN_KING
    S(0, 10), S(0, 6), S(0, 2), S(0, -2), S(0, -6), S(0, -10), S(0, -14), S(0, -18),
    // PASSED_THEIR_KING
    S(0, -20), S(0, -14), S(0, -8), S(0, -2), S(0, 4), S(0, 10), S(0, 16), S(0, 22),
    // KNIGHT_MOBILITY
    S(-21, -21), S(-15, -15), S(-9, -9), S(-3, -3), S(2, 2), S(8, 8), S(14, 14), S(20, 20),
    S(26, 26),
    // BISHOP_MOBILITY
    S(-28, -28), S(-23, -23), S(-18, -18), S(-12, -12), S(-7, -7), S(-2, -2), S(2, 2), S(7, 7),
    S(12, 12), S(17, 17), S(22, 22), S(27, 27), S(32, 32), S(37, 37),
    // ROOK_MOBILITY
    S(-12, -30), S(-10, -25), S(-8, -20), S(-6, -15), S(-4, -10), S(-2, -5), S(0, 0), S(2, 5),
    S(4, 10), S(6, 15), S(8, 20), S(10, 25), S(12, 30), S(14, 35), S(16, 40),
    // QUEEN_MOBILITY
    S(-11, -22), S(-10, -20), S(-9, -18), S(-8, -16), S(-7, -14), S(-6, -12), S(-5, -10), S(-4, -8),
    S(-3, -6), S(-2, -4), S(-1, -2), S(0, 0), S(0, 1), S(1, 3), S(2, 5), S(3, 7),
    S(4, 9), S(5, 11), S(6, 13), S(7, 15), S(8, 17), S(9, 19), S(10, 21), S(11, 23),
    S(12, 25), S(13, 27), S(14, 29), S(15, 31),
    // BISHOP_PAIR
    S(25, 50),
    // BISHOP_PAWNS
    S(-1, -3),
    // KNIGHT_OUTPOST
    S(15, 5), S(30, 15),
    // BISHOP_OUTPOST
    S(10, 3), S(20, 8),
    // MINOR_BEHIND_PAWN
    S(8, 2),
    // ROOK_FILE
    S(10, 5), S(25, 10),
    // QUEEN_FILE
    S(2, 2), S(5, 5),
    // ROOK_SEVENTH
    S(10, 25),
    // ROOK_TRAPPED
    S(-40, -10),
    // BISHOP_TRAPPED
    S(-80, -80),
    // KING_DANGER
    S(0, 0), S(0, -2), S(-2, -4), S(-6, -6), S(-10, -8), S(-16, -10), S(-24, -12), S(-32, -14),
    S(-42, -16), S(-54, -18), S(-66, -20), S(-80, -22), S(-96, -24), S(-112, -26), S(-130, -28), S(-150, -30),
    S(-170, -32), S(-192, -34), S(-216, -36), S(-240, -38), S(-266, -40), S(-294, -42), S(-322, -44), S(-352, -46),
    S(-384, -48), S(-416, -50), S(-450, -52), S(-486, -54), S(-522, -56), S(-560, -58), S(-600, -60), S(-600, -62),
    S(-600, -64), S(-600, -66), S(-600, -68), S(-600, -70), S(-600, -72), S(-600, -74), S(-600, -76), S(-600, -78),
    // KING_SHIELD
    S(-15, 0), S(0, 0), S(10, 0), S(5, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-25, 0), S(0, 0), S(15, 0), S(8, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // KING_STORM
    S(0, 0), S(0, 0), S(0, 0), S(-20, 0), S(-10, 0), S(-5, 0), S(0, 0), S(0, 0),
    // KING_STORM_BLOCKED
    S(0, 0), S(0, 0), S(0, 0), S(-5, 0), S(-2, 0), S(0, 0), S(0, 0), S(0, 0),
    // KING_OPEN_FILE
    S(-10, 0), S(-20, 0),
    // THREAT_BY_PAWN
    S(0, 0), S(50, 40), S(50, 40), S(70, 50), S(70, 50), S(0, 0),
    // THREAT_BY_MINOR
    S(5, 15), S(20, 20), S(20, 20), S(40, 30), S(40, 40), S(0, 0),
    // THREAT_BY_ROOK
    S(3, 15), S(15, 25), S(15, 25), S(0, 10), S(40, 40), S(0, 0),
    // THREAT_BY_KING
    S(5, 30),
    // HANGING
    S(30, 20),
    // THREAT_PAWN_PUSH
    S(15, 10),
    // TEMPO
    S(20, 10),
];
// END TUNED WEIGHTS
