//! Finds the magic numbers for rook and bishop attacks and writes them, together with the
//! filled attack table, into `OUT_DIR/magics.rs`.
//!
//! The search is driven by `rand_xoshiro` with a fixed seed, so every build produces the
//! same numbers. Doing it here costs nothing at start-up and lets the tables be `static`.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Write as _;

#[allow(dead_code)]
mod rays {
    include!("src/attacks/rays.rs");
}
use rays::*;

/// The fixed seed of the magic search.
const MAGIC_SEED: u64 = 0x4C41_4459_415F_4D47; // "LADYA_MG"

struct Found {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// Every subset of `mask` (Carry-Rippler enumeration).
fn subsets(mask: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    out
}

fn find_magic(
    sq: usize,
    dirs: &[(i32, i32); 4],
    rng: &mut Xoshiro256PlusPlus,
    table: &mut Vec<u64>,
) -> Found {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let occs = subsets(mask);
    let attacks: Vec<u64> = occs.iter().map(|&o| ray_attacks(sq, o, dirs)).collect();
    let size = 1usize << bits;
    let mut used = vec![0u64; size];
    let mut epoch = vec![0u32; size];
    let mut tries = 0u32;
    loop {
        // Sparse random numbers make good magics.
        let magic = rng.next_u64() & rng.next_u64() & rng.next_u64();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        tries += 1;
        let mut ok = true;
        for (occ, &att) in occs.iter().zip(&attacks) {
            let idx = (occ.wrapping_mul(magic) >> shift) as usize;
            if epoch[idx] != tries {
                epoch[idx] = tries;
                used[idx] = att;
            } else if used[idx] != att {
                ok = false;
                break;
            }
        }
        if ok {
            let offset = table.len();
            table.resize(offset + size, 0);
            for (occ, &att) in occs.iter().zip(&attacks) {
                let idx = (occ.wrapping_mul(magic) >> shift) as usize;
                table[offset + idx] = att;
            }
            return Found {
                mask,
                magic,
                shift,
                offset,
            };
        }
    }
}

/// The network the binary embeds: `LADYA_EVALFILE` when set (the Makefile's `EVALFILE=`,
/// as OpenBench builds a test with a network), else `nets/default.nnue`. Its path reaches
/// `src/nnue/network.rs` as `LADYA_NETWORK`, so no file in the tree changes.
fn embedded_network() {
    println!("cargo:rerun-if-env-changed=LADYA_EVALFILE");
    let root = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let path = match std::env::var_os("LADYA_EVALFILE").filter(|p| !p.is_empty()) {
        Some(p) => root.join(p),
        None => root.join("nets").join("default.nnue"),
    };
    if !path.is_file() {
        panic!("the network to embed, {}, is not a file", path.display());
    }
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rustc-env=LADYA_NETWORK={}", path.display());
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/attacks/rays.rs");
    embedded_network();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(MAGIC_SEED);
    let mut table = Vec::new();
    let rooks: Vec<Found> = (0..64)
        .map(|sq| find_magic(sq, &ROOK_DIRS, &mut rng, &mut table))
        .collect();
    let bishops: Vec<Found> = (0..64)
        .map(|sq| find_magic(sq, &BISHOP_DIRS, &mut rng, &mut table))
        .collect();

    let mut out = String::new();
    for (name, found) in [("ROOK_MAGICS", &rooks), ("BISHOP_MAGICS", &bishops)] {
        writeln!(out, "/// Magic entries, one per square.").unwrap();
        writeln!(out, "pub static {name}: [Magic; 64] = [").unwrap();
        for f in found {
            writeln!(
                out,
                "    Magic {{ mask: 0x{:016X}, magic: 0x{:016X}, shift: {}, offset: {} }},",
                f.mask, f.magic, f.shift, f.offset
            )
            .unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    writeln!(
        out,
        "/// All slider attack sets, indexed through the magic entries."
    )
    .unwrap();
    writeln!(out, "pub static SLIDER_ATTACKS: [u64; {}] = [", table.len()).unwrap();
    for chunk in table.chunks(8) {
        out.push_str("    ");
        for v in chunk {
            write!(out, "0x{v:X},").unwrap();
        }
        out.push('\n');
    }
    writeln!(out, "];").unwrap();
    let dir = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    std::fs::write(dir.join("magics.rs"), out).unwrap();
    std::fs::write(dir.join("zobrist_keys.rs"), zobrist_keys()).unwrap();
}

/// The fixed seed of the Zobrist keys.
const ZOBRIST_SEED: u64 = 0x4C41_4459_415F_5A42; // "LADYA_ZB"

/// Zobrist keys: 12 x 64 piece-square keys, 16 castling-rights keys (one per set of rights,
/// so a change of rights is one XOR), 8 en-passant file keys and the side-to-move key.
fn zobrist_keys() -> String {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(ZOBRIST_SEED);
    let mut out = String::new();
    writeln!(out, "/// Piece-square keys, indexed by piece then square.").unwrap();
    writeln!(out, "pub static PIECE_SQUARE: [[u64; 64]; 12] = [").unwrap();
    for _ in 0..12 {
        out.push_str("    [");
        for _ in 0..64 {
            write!(out, "0x{:016X},", rng.next_u64()).unwrap();
        }
        out.push_str("],\n");
    }
    writeln!(out, "];").unwrap();
    // Castling keys: the key of a set of rights is the XOR of its single-right keys,
    // and no rights hash to zero.
    let singles: Vec<u64> = (0..4).map(|_| rng.next_u64()).collect();
    writeln!(out, "/// Keys of the 16 sets of castling rights (bit 0 White short, 1 White long, 2 Black short, 3 Black long).").unwrap();
    writeln!(out, "pub static CASTLING: [u64; 16] = [").unwrap();
    for set in 0..16 {
        let key = (0..4)
            .filter(|b| set >> b & 1 != 0)
            .fold(0u64, |k, b| k ^ singles[b]);
        writeln!(out, "    0x{key:016X},").unwrap();
    }
    writeln!(out, "];").unwrap();
    writeln!(out, "/// En-passant keys, by file.").unwrap();
    writeln!(out, "pub static EN_PASSANT: [u64; 8] = [").unwrap();
    for _ in 0..8 {
        writeln!(out, "    0x{:016X},", rng.next_u64()).unwrap();
    }
    writeln!(out, "];").unwrap();
    writeln!(out, "/// XORed in when Black is to move.").unwrap();
    writeln!(out, "pub const SIDE: u64 = 0x{:016X};", rng.next_u64()).unwrap();
    out
}
