//! Every weight of the evaluation, in one place.
//!
//! The fixed constants at the top are set by hand (they shape the nonlinear parts: game
//! phase, king attack units, endgame scaling, mop-up). The table `WEIGHTS` at the bottom
//! is linear in the evaluation and is rewritten by the Texel tuner (`ladya-tune`); its
//! layout is in `layout.rs`.
//!
//! Current weights: tuned from the hand-set starting values on the 605,350 Stockfish 15.1
//! self-play positions (`../shared/data/tuning/sf15_5k_nodes.txt.xz`, decompressed to
//! /tmp/tune/sf15.txt; last 10% of lines held out) with
//! `cargo run --release --bin tune -- /tmp/tune/sf15.txt --epochs 500 --lambda 0.7 --lr 2
//! --reg 1e-8 --out src/eval/params.rs`: K = 0.006547, mean squared error against the
//! results 0.092711 -> 0.088804 (training), 0.091185 -> 0.088348 (held out).
//! Against the hand-set starting weights (same search): +111 +- 29 Elo, SPRT [0, 5]
//! accepted after 415 games at 8+0.08 (W214 L85 D116, UHO openings).
//!
//! A retune on these positions plus 306,095 of Ladya's own (`ladya datagen`, see
//! `docs/development.md`) fitted the self-play held-out set better (0.080656 -> 0.080081) and the
//! Stockfish one slightly worse (0.088605 -> 0.088681); it was not adopted.

use super::layout::*;
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

// ---- Term-group switches ---------------------------------------------------------------
//
// Each group of terms can be switched off here; a build with one switch `false` is the
// evaluation without that group, played against the full one for the group's SPRT
// (`make ablate STEP=USE_KING_SAFETY EXE=...`). Linear groups are switched off by zeroing
// their weights, so the other weights are not re-tuned without them.

/// Doubled, isolated, backward, supported and phalanx pawns.
/// Measured: +42.8 +- 27.1 Elo (400 games at 8+0.08, W160 L111 D129; SPRT [0, 5] stopped
/// at its 400-game cap, undecided at LLR 1.08: a 40-Elo group needs about 1,100 games to
/// reach the bound, but the interval already excludes zero). Played in three pieces on
/// the same shuffled openings, the LLR computed over all 200 pairs as one run.
pub const USE_PAWN_STRUCTURE: bool = true;
/// Passed pawns: by rank, supported, free path, blocked, king distances.
/// Measured: +152.6 +- 36.7 Elo (322 games at 8+0.08, W196 L63 D63; SPRT [0, 5] H1
/// accepted, LLR 2.95). Played in two pieces: 222 games, then the same shuffled openings
/// from pair 111 on; the LLR is computed over all 161 pairs as one run.
pub const USE_PASSED_PAWNS: bool = true;
/// Mobility of knights, bishops, rooks and queens on safe squares.
/// Measured: +159.8 +- 38.1 Elo (201 games at 8+0.08, W116 L30 D55; SPRT [0, 5] H1
/// accepted, LLR 2.97).
pub const USE_MOBILITY: bool = true;
/// Bishop pair, outposts, minor behind pawn, rooks and queens on files, seventh rank,
/// trapped pieces.
/// Measured: +86.9 +- 31.0 Elo (200 games at 8+0.08, W91 L42 D67; SPRT [0, 5] stopped at
/// its 200-game cap, undecided at LLR 1.88; the interval excludes zero).
pub const USE_PIECE_TERMS: bool = true;
/// King danger from attack units, pawn shield and storm, open files at the king.
/// Measured: +213.1 +- 50.2 Elo (194 games at 8+0.08, W132 L26 D36; SPRT [0, 5] H1
/// accepted, LLR 2.97).
pub const USE_KING_SAFETY: bool = true;
/// Pieces attacked by pawns and by lesser pieces, hanging pieces, pawn-push threats.
/// Measured: +100.0 +- 35.3 Elo (200 games at 8+0.08, W96 L40 D64; SPRT [0, 5] stopped at
/// its 200-game cap, undecided at LLR 1.73; the interval excludes zero).
pub const USE_THREATS: bool = true;
/// Tempo for the side to move.
/// Measured: +6.9 +- 51.3 Elo (100 games at 8+0.08, W29 L27 D44; SPRT [0, 5] stopped at
/// its 100-game cap, LLR 0.03): too small to see at this sample size.
pub const USE_TEMPO: bool = true;
/// Scaling of drawish endgames towards zero.
/// Measured: -10.4 +- 42.7 Elo (100 games at 8+0.08, W25 L28 D47; SPRT [0, 5] stopped at
/// its 100-game cap, LLR -0.14): no effect visible at this sample size. Drawish material
/// endings are rare from the match openings; the group is kept for its draw recognition
/// (KR v KB, opposite bishops), which the evaluation tests check position by position.
pub const USE_ENDGAME_SCALING: bool = true;
/// Mop-up: drive the lone king to the edge.
/// Measured by playouts rather than games (lone-king endings are too rare from the match
/// openings to show in a score): from 30 random K+B+N v K starts, the engine on both sides
/// at 150,000 nodes a move, it mates 30/30 with mop-up and 19/30 without (nine fifty-move
/// draws, a stalemate, a piece lost). K+Q and K+R mate 30/30 either way.
/// `tests/endgames.rs` keeps ten of these starts.
pub const USE_MOPUP: bool = true;

/// The weights the evaluation scores with: `WEIGHTS` with the sections of switched-off
/// groups set to zero.
pub const ACTIVE_WEIGHTS: [S; NUM_PARAMS] = active_weights();

const fn active_weights() -> [S; NUM_PARAMS] {
    // (switch, first section, first section after the group)
    let groups = [
        (USE_PAWN_STRUCTURE, PAWN_DOUBLED, PASSED_RANK),
        (USE_PASSED_PAWNS, PASSED_RANK, KNIGHT_MOBILITY),
        (USE_MOBILITY, KNIGHT_MOBILITY, BISHOP_PAIR),
        (USE_PIECE_TERMS, BISHOP_PAIR, KING_DANGER),
        (USE_KING_SAFETY, KING_DANGER, THREAT_BY_PAWN),
        (USE_THREATS, THREAT_BY_PAWN, TEMPO),
        (USE_TEMPO, TEMPO, NUM_PARAMS),
    ];
    let mut w = WEIGHTS;
    let mut g = 0;
    while g < groups.len() {
        let (on, start, end) = groups[g];
        let mut i = start;
        while !on && i < end {
            w[i] = S(0, 0);
            i += 1;
        }
        g += 1;
    }
    w
}

// BEGIN TUNED WEIGHTS (rewritten by the tuner; do not edit the markers)
/// The tuned weights, section by section as listed in `layout::SECTIONS`.
#[rustfmt::skip]
pub const WEIGHTS: [S; NUM_PARAMS] = [
    // MATERIAL
    S(59, 94), S(330, 298), S(352, 307), S(445, 520), S(1023, 933),
    // PST_PAWN
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-15, 7), S(-6, 12), S(-4, 8), S(2, 10), S(-11, 14), S(4, 10), S(12, 0), S(-15, 4),
    S(-11, 4), S(-8, 10), S(-3, 1), S(-3, 14), S(-4, 6), S(-2, 10), S(2, -2), S(-9, -4),
    S(-5, 12), S(-7, 17), S(5, -3), S(6, 4), S(10, 8), S(5, 9), S(7, 10), S(-10, 0),
    S(-4, 17), S(-2, 11), S(-2, 1), S(8, 6), S(15, -9), S(8, 11), S(1, 17), S(0, 8),
    S(12, 23), S(2, 29), S(0, 22), S(11, 26), S(-4, 18), S(7, 18), S(4, 29), S(10, 16),
    S(-3, 10), S(3, 33), S(2, 38), S(2, 33), S(4, 33), S(1, 22), S(3, 33), S(1, -8),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // PST_KNIGHT
    S(-31, -29), S(-22, -21), S(-22, -13), S(-18, -15), S(-20, -19), S(-23, -29), S(-24, -21), S(-30, -30),
    S(-23, -27), S(-19, -19), S(-15, -16), S(-12, -11), S(-19, -12), S(-19, -16), S(-7, -13), S(-24, -23),
    S(-25, -16), S(-18, -12), S(-16, -4), S(-4, -2), S(-8, -2), S(-10, -12), S(-16, -17), S(-21, -23),
    S(-20, -15), S(-17, -19), S(-3, -9), S(-2, 0), S(-2, 4), S(-7, -8), S(-10, -9), S(-8, -17),
    S(-10, -13), S(-11, -9), S(-11, 5), S(-2, 0), S(0, -7), S(4, 0), S(-3, -9), S(-6, -16),
    S(-21, -22), S(-16, -16), S(-14, -8), S(-1, -5), S(1, -1), S(-5, -11), S(-10, -13), S(-22, -20),
    S(-29, -26), S(-22, -16), S(-9, -13), S(-9, -10), S(-10, -9), S(-9, -14), S(-19, -19), S(-26, -27),
    S(-37, -34), S(-28, -27), S(-22, -23), S(-14, -15), S(-15, -13), S(-20, -21), S(-24, -26), S(-34, -32),
    // PST_BISHOP
    S(-9, -6), S(0, -22), S(-15, -19), S(-14, -8), S(-14, -10), S(-15, -14), S(-12, -18), S(-22, -16),
    S(-12, -11), S(-7, -7), S(3, -18), S(-16, -6), S(-14, -11), S(-10, -16), S(0, -11), S(-6, -20),
    S(-6, -9), S(-2, -6), S(-9, -5), S(-8, -6), S(-16, 0), S(3, -6), S(1, -9), S(-5, -14),
    S(-9, -10), S(-3, -2), S(-4, 7), S(-10, 1), S(4, -2), S(-12, 0), S(-11, -12), S(-12, -17),
    S(-11, -9), S(-7, -5), S(-11, -6), S(-4, 2), S(-6, 3), S(-3, -12), S(-5, -6), S(-13, -5),
    S(-17, -14), S(-17, -10), S(-15, -2), S(-3, -7), S(2, 5), S(-2, -6), S(-11, -11), S(-2, -5),
    S(-14, -18), S(-12, -6), S(-9, -5), S(-8, -9), S(-8, -10), S(-8, -7), S(-13, -8), S(-18, -12),
    S(-19, -14), S(-15, -15), S(-12, -11), S(-11, -8), S(-10, -5), S(-13, -15), S(-15, -13), S(-17, -16),
    // PST_ROOK
    S(-5, -5), S(-1, -7), S(-1, -9), S(-1, -5), S(1, -14), S(-5, -8), S(8, -6), S(-14, -4),
    S(-15, -1), S(-6, 2), S(1, -1), S(3, -3), S(2, -1), S(-7, -7), S(-9, -3), S(-5, -1),
    S(-7, -1), S(-5, 1), S(1, 7), S(-7, 0), S(-1, -2), S(-3, 0), S(2, -4), S(-6, -4),
    S(-3, 12), S(-4, 5), S(6, 5), S(-1, 3), S(0, 3), S(-2, 3), S(-4, 2), S(3, 4),
    S(-2, 9), S(-2, 6), S(4, 1), S(0, -1), S(3, 6), S(1, 4), S(1, -4), S(6, 0),
    S(3, 4), S(5, 5), S(0, 3), S(-2, 1), S(4, 1), S(2, 1), S(3, -1), S(5, -1),
    S(2, -2), S(1, -5), S(0, 1), S(1, -2), S(-3, -2), S(-1, -2), S(-5, -7), S(2, -4),
    S(4, 6), S(4, 4), S(9, 10), S(4, 6), S(-1, 0), S(3, 5), S(2, 4), S(-2, 0),
    // PST_QUEEN
    S(-2, -17), S(-1, -18), S(-4, -20), S(-3, -17), S(-4, -13), S(-11, -17), S(-6, -16), S(-10, -20),
    S(-8, -18), S(-1, -13), S(3, -12), S(3, -10), S(1, -13), S(-4, -10), S(1, -15), S(-3, -15),
    S(2, -12), S(-1, -7), S(-6, -4), S(-6, -5), S(-9, -4), S(-3, -7), S(6, -9), S(-10, -14),
    S(-16, -11), S(-1, -4), S(-4, -6), S(-3, 2), S(-6, -4), S(-4, 0), S(-8, -7), S(-9, -12),
    S(-12, -12), S(-12, -7), S(-1, -3), S(-11, -3), S(7, 5), S(3, 0), S(1, -3), S(-5, -9),
    S(-7, -15), S(-5, -6), S(-2, -4), S(-2, 0), S(2, 0), S(7, 2), S(0, -8), S(6, -5),
    S(0, -10), S(-4, -7), S(2, -5), S(2, -2), S(-1, -5), S(-1, -9), S(-1, -8), S(-2, -10),
    S(-2, -15), S(-5, -15), S(-3, -13), S(-2, -8), S(-5, -10), S(-4, -13), S(-5, -16), S(-5, -17),
    // PST_KING
    S(-5, -51), S(6, -42), S(18, -30), S(-8, -31), S(-6, -29), S(-14, -33), S(-3, -39), S(-3, -41),
    S(-7, -35), S(-8, -31), S(-3, -24), S(-4, -20), S(-9, -23), S(-18, -23), S(-4, -21), S(-1, -39),
    S(-20, -32), S(-15, -22), S(-17, -16), S(-16, -12), S(-20, -12), S(-22, -14), S(-23, -16), S(-20, -35),
    S(-29, -21), S(-30, -21), S(-28, -3), S(-28, 6), S(-29, 3), S(-29, -6), S(-32, -23), S(-33, -29),
    S(-40, -27), S(-38, -15), S(-39, -6), S(-41, 2), S(-42, -4), S(-39, -8), S(-37, -14), S(-40, -33),
    S(-49, -27), S(-49, -26), S(-50, -12), S(-50, -10), S(-51, -13), S(-49, -16), S(-47, -16), S(-49, -30),
    S(-59, -40), S(-60, -29), S(-60, -26), S(-61, -23), S(-60, -17), S(-60, -26), S(-59, -27), S(-60, -41),
    S(-70, -49), S(-70, -40), S(-70, -33), S(-70, -25), S(-70, -24), S(-69, -30), S(-70, -39), S(-70, -47),
    // PAWN_DOUBLED
    S(-8, -22),
    // PAWN_ISOLATED
    S(-1, -5), S(-9, -17),
    // PAWN_BACKWARD
    S(-1, -1), S(-7, -10),
    // PAWN_SUPPORTED
    S(0, 0), S(0, 0), S(8, 9), S(3, 6), S(12, 1), S(30, 25), S(55, 61), S(0, 0),
    // PAWN_PHALANX
    S(0, 0), S(3, 3), S(4, 4), S(6, 6), S(12, 22), S(35, 42), S(59, 59), S(0, 0),
    // PASSED_RANK
    S(0, 0), S(-5, 12), S(-18, 10), S(-12, 21), S(13, 47), S(32, 81), S(73, 115), S(0, 0),
    // PASSED_SUPPORTED
    S(8, 2),
    // PASSED_FREE_PATH
    S(0, 0), S(-6, 5), S(-7, 11), S(-10, 9), S(-5, 15), S(6, 35), S(21, 62), S(0, 0),
    // PASSED_BLOCKED
    S(0, 0), S(-7, -4), S(1, -10), S(-4, -9), S(4, -12), S(-3, -5), S(-2, -21), S(0, 0),
    // PASSED_OWN_KING
    S(4, 22), S(4, 27), S(9, 13), S(10, 0), S(0, -9), S(-4, -15), S(7, -18), S(5, -15),
    // PASSED_THEIR_KING
    S(3, -26), S(11, -22), S(6, -6), S(5, 9), S(9, 20), S(3, 26), S(3, 20), S(-3, 26),
    // KNIGHT_MOBILITY
    S(-30, -24), S(-16, -25), S(-8, -8), S(-3, 10), S(5, 13), S(9, 17), S(12, 19), S(20, 20),
    S(27, 17),
    // BISHOP_MOBILITY
    S(-29, -34), S(-26, -28), S(-11, -14), S(-9, 1), S(-3, 1), S(0, 6), S(3, 13), S(6, 16),
    S(9, 11), S(11, 17), S(15, 16), S(22, 19), S(30, 25), S(34, 27),
    // ROOK_MOBILITY
    S(-15, -32), S(-9, -26), S(-5, -21), S(-6, -12), S(-6, -3), S(-6, 3), S(-2, 4), S(-7, 11),
    S(2, 16), S(3, 20), S(8, 22), S(10, 21), S(5, 30), S(11, 29), S(16, 23),
    // QUEEN_MOBILITY
    S(-11, -22), S(-9, -20), S(-7, -18), S(-11, -18), S(-9, -19), S(-6, -13), S(-7, -9), S(-3, -8),
    S(-4, -5), S(-2, -2), S(-1, -1), S(-1, 0), S(-3, -1), S(5, 5), S(-1, 12), S(4, 11),
    S(6, 13), S(9, 13), S(8, 16), S(8, 12), S(10, 16), S(7, 14), S(11, 22), S(9, 17),
    S(11, 22), S(12, 24), S(13, 28), S(15, 31),
    // BISHOP_PAIR
    S(30, 48),
    // BISHOP_PAWNS
    S(-3, 1),
    // KNIGHT_OUTPOST
    S(10, -5), S(19, 11),
    // BISHOP_OUTPOST
    S(5, -7), S(14, 13),
    // MINOR_BEHIND_PAWN
    S(4, 16),
    // ROOK_FILE
    S(11, 0), S(19, 3),
    // QUEEN_FILE
    S(6, 4), S(1, -2),
    // ROOK_SEVENTH
    S(9, 19),
    // ROOK_TRAPPED
    S(-33, -8),
    // BISHOP_TRAPPED
    S(-79, -78),
    // KING_DANGER
    S(-23, 3), S(-7, -17), S(-25, -5), S(-21, -3), S(-22, -9), S(-24, -7), S(-26, -13), S(-30, -12),
    S(-32, -19), S(-38, -15), S(-55, -24), S(-67, -24), S(-81, -21), S(-96, -23), S(-124, -26), S(-148, -27),
    S(-173, -34), S(-195, -35), S(-216, -35), S(-241, -38), S(-265, -40), S(-294, -42), S(-321, -44), S(-351, -46),
    S(-383, -47), S(-416, -50), S(-449, -52), S(-485, -54), S(-522, -56), S(-560, -58), S(-600, -60), S(-600, -62),
    S(-600, -64), S(-600, -66), S(-600, -68), S(-600, -70), S(-600, -72), S(-600, -74), S(-600, -76), S(-600, -78),
    // KING_SHIELD
    S(-12, 16), S(13, -6), S(5, 2), S(-3, -5), S(-5, -5), S(1, -2), S(2, 1), S(0, 0),
    S(-14, 15), S(13, -10), S(8, 3), S(0, -3), S(-9, 1), S(-4, -9), S(3, 3), S(0, 0),
    // KING_STORM
    S(-3, 4), S(-1, 32), S(-11, -4), S(-20, -4), S(-8, -1), S(-4, 0), S(-3, -3), S(0, 0),
    // KING_STORM_BLOCKED
    S(0, 0), S(0, 0), S(-17, -3), S(5, -13), S(2, -12), S(5, -1), S(13, 7), S(0, 0),
    // KING_OPEN_FILE
    S(-5, -5), S(-8, -25),
    // THREAT_BY_PAWN
    S(0, 0), S(41, 38), S(49, 40), S(66, 45), S(55, 45), S(0, 0),
    // THREAT_BY_MINOR
    S(4, 14), S(16, 23), S(18, 18), S(44, 23), S(36, 37), S(0, 0),
    // THREAT_BY_ROOK
    S(4, 21), S(17, 27), S(18, 26), S(2, 11), S(41, 38), S(0, 0),
    // THREAT_BY_KING
    S(19, 34),
    // HANGING
    S(6, 5),
    // THREAT_PAWN_PUSH
    S(9, 12),
    // TEMPO
    S(19, 11),
];
// END TUNED WEIGHTS
