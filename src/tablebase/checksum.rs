//! The checksum every published Syzygy file carries in its last 16 bytes, so that a
//! table whose contents were damaged (a bad download, a failing disk) is left out
//! before the prober follows offsets through it.
//!
//! The scheme is the one of Ronald de Man's generator (`tbcheck`): the file without its
//! last 16 bytes is cut into 16 MiB pieces, each piece is hashed with CityHashCrc256,
//! and the 32-byte digests, one after the other, are hashed with CityHashCrc128; the 16
//! bytes of that hash are what the file ends with. CityHash is Google's published hash
//! family (Geoff Pike and Jyrki Alakuijala, MIT licence); this is our implementation of
//! the two members the scheme uses, for little-endian byte order as the files are
//! written. It is checked end to end by the 70 tables of `../shared/data/syzygy`, which
//! all verify, and by copies with one byte changed, which do not.

use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The files are hashed in pieces of this many bytes.
const PIECE: usize = 1 << 24;
/// Bytes of checksum at the end of a file.
pub const CHECKSUM_BYTES: u64 = 16;

const K0: u64 = 0xc3a5_c85c_97cb_3127;
const K1: u64 = 0xb492_b66f_be98_f273;
const K2: u64 = 0x9ae1_6a3b_2f90_404f;
const K3: u64 = 0xc949_d7c7_509e_6557;
const K_MUL: u64 = 0x9ddf_ea08_eb38_2d69;

/// Whether the file's last 16 bytes are the checksum of the rest. `Err` for a file that
/// cannot be read.
pub fn verify(path: &Path) -> std::io::Result<bool> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    if len < CHECKSUM_BYTES {
        return Ok(false);
    }
    let mut remaining = len - CHECKSUM_BYTES;
    let mut digests = Vec::new();
    let mut piece = vec![0u8; remaining.min(PIECE as u64) as usize];
    while remaining > 0 {
        let n = remaining.min(PIECE as u64) as usize;
        file.read_exact(&mut piece[..n])?;
        for word in crc256(&piece[..n]) {
            digests.extend_from_slice(&word.to_le_bytes());
        }
        remaining -= n as u64;
    }
    let mut stored = [0u8; CHECKSUM_BYTES as usize];
    file.read_exact(&mut stored)?;
    let (lo, hi) = crc128(&digests);
    Ok(stored[..8] == lo.to_le_bytes() && stored[8..] == hi.to_le_bytes())
}

#[inline]
fn fetch64(s: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"))
}

#[inline]
fn fetch32(s: &[u8], i: usize) -> u64 {
    u64::from(u32::from_le_bytes(s[i..i + 4].try_into().expect("4 bytes")))
}

#[inline]
fn shift_mix(v: u64) -> u64 {
    v ^ (v >> 47)
}

/// Mixes two words into one (CityHash's `Hash128to64` on the pair).
#[inline]
fn mix16(lo: u64, hi: u64) -> u64 {
    let mut a = (lo ^ hi).wrapping_mul(K_MUL);
    a ^= a >> 47;
    let mut b = (hi ^ a).wrapping_mul(K_MUL);
    b ^= b >> 47;
    b.wrapping_mul(K_MUL)
}

fn hash_0_to_16(s: &[u8]) -> u64 {
    let len = s.len();
    if len > 8 {
        let a = fetch64(s, 0);
        let b = fetch64(s, len - 8);
        return mix16(a, b.wrapping_add(len as u64).rotate_right(len as u32)) ^ b;
    }
    if len >= 4 {
        let a = fetch32(s, 0);
        return mix16((len as u64).wrapping_add(a << 3), fetch32(s, len - 4));
    }
    if len > 0 {
        let (a, b, c) = (s[0] as u32, s[len >> 1] as u32, s[len - 1] as u32);
        let y = a.wrapping_add(b << 8);
        let z = (len as u32).wrapping_add(c << 2);
        return shift_mix(u64::from(y).wrapping_mul(K2) ^ u64::from(z).wrapping_mul(K3))
            .wrapping_mul(K2);
    }
    K2
}

/// Two words from 32 bytes at `s[i..]` and two seeds.
#[inline]
fn weak32(s: &[u8], i: usize, a: u64, b: u64) -> (u64, u64) {
    let (w, x, y, z) = (
        fetch64(s, i),
        fetch64(s, i + 8),
        fetch64(s, i + 16),
        fetch64(s, i + 24),
    );
    let mut a = a.wrapping_add(w);
    let mut b = b.wrapping_add(a).wrapping_add(z).rotate_right(21);
    let c = a;
    a = a.wrapping_add(x).wrapping_add(y);
    b = b.wrapping_add(a.rotate_right(44));
    (a.wrapping_add(z), b.wrapping_add(c))
}

/// CityHash's 128-bit hash of short inputs (under 128 bytes) with a seed.
fn murmur128(s: &[u8], seed: (u64, u64)) -> (u64, u64) {
    let len = s.len();
    let (mut a, mut b) = seed;
    let (mut c, mut d);
    if len <= 16 {
        a = shift_mix(a.wrapping_mul(K1)).wrapping_mul(K1);
        c = b.wrapping_mul(K1).wrapping_add(hash_0_to_16(s));
        d = shift_mix(a.wrapping_add(if len >= 8 { fetch64(s, 0) } else { c }));
    } else {
        c = mix16(fetch64(s, len - 8).wrapping_add(K1), a);
        d = mix16(
            b.wrapping_add(len as u64),
            c.wrapping_add(fetch64(s, len - 16)),
        );
        a = a.wrapping_add(d);
        let mut p = 0;
        while p + 16 < len {
            a ^= shift_mix(fetch64(s, p).wrapping_mul(K1)).wrapping_mul(K1);
            a = a.wrapping_mul(K1);
            b ^= a;
            c ^= shift_mix(fetch64(s, p + 8).wrapping_mul(K1)).wrapping_mul(K1);
            c = c.wrapping_mul(K1);
            d ^= c;
            p += 16;
        }
    }
    let a2 = mix16(a, c);
    let b2 = mix16(d, b);
    (a2 ^ b2, mix16(b2, a2))
}

/// The state of CityHash's 64-byte rounds.
struct Rounds {
    x: u64,
    y: u64,
    z: u64,
    v: (u64, u64),
    w: (u64, u64),
}

impl Rounds {
    /// One round over the 64 bytes at `s[p..]`.
    #[inline]
    fn round(&mut self, s: &[u8], p: usize) {
        self.x = self
            .x
            .wrapping_add(self.y)
            .wrapping_add(self.v.0)
            .wrapping_add(fetch64(s, p + 8))
            .rotate_right(37)
            .wrapping_mul(K1);
        self.y = self
            .y
            .wrapping_add(self.v.1)
            .wrapping_add(fetch64(s, p + 48))
            .rotate_right(42)
            .wrapping_mul(K1);
        self.x ^= self.w.1;
        self.y = self
            .y
            .wrapping_add(self.v.0)
            .wrapping_add(fetch64(s, p + 40));
        self.z = self
            .z
            .wrapping_add(self.w.0)
            .rotate_right(33)
            .wrapping_mul(K1);
        self.v = weak32(
            s,
            p,
            self.v.1.wrapping_mul(K1),
            self.x.wrapping_add(self.w.0),
        );
        self.w = weak32(
            s,
            p + 32,
            self.z.wrapping_add(self.w.1),
            self.y.wrapping_add(fetch64(s, p + 16)),
        );
        std::mem::swap(&mut self.z, &mut self.x);
    }
}

/// CityHash128 with a seed.
fn city128_seeded(s: &[u8], seed: (u64, u64)) -> (u64, u64) {
    let len = s.len();
    if len < 128 {
        return murmur128(s, seed);
    }
    let (x, y) = seed;
    let z = (len as u64).wrapping_mul(K1);
    let v0 = (y ^ K1)
        .rotate_right(49)
        .wrapping_mul(K1)
        .wrapping_add(fetch64(s, 0));
    let v1 = v0
        .rotate_right(42)
        .wrapping_mul(K1)
        .wrapping_add(fetch64(s, 8));
    let w0 = y
        .wrapping_add(z)
        .rotate_right(35)
        .wrapping_mul(K1)
        .wrapping_add(x);
    let w1 = x
        .wrapping_add(fetch64(s, 88))
        .rotate_right(53)
        .wrapping_mul(K1);
    let mut r = Rounds {
        x,
        y,
        z,
        v: (v0, v1),
        w: (w0, w1),
    };
    let mut p = 0;
    let mut left = len;
    loop {
        r.round(s, p);
        r.round(s, p + 64);
        p += 128;
        left -= 128;
        if left < 128 {
            break;
        }
    }
    let Rounds {
        mut x,
        mut y,
        mut z,
        mut v,
        mut w,
    } = r;
    x = x.wrapping_add(v.0.wrapping_add(z).rotate_right(49).wrapping_mul(K0));
    z = z.wrapping_add(w.0.rotate_right(37).wrapping_mul(K0));
    // The last `left` bytes, in 32-byte blocks from the end (the first block may reach
    // back into bytes already hashed).
    let end = p + left;
    let mut done = 0;
    while done < left {
        done += 32;
        y = x
            .wrapping_add(y)
            .rotate_right(42)
            .wrapping_mul(K0)
            .wrapping_add(v.1);
        w.0 = w.0.wrapping_add(fetch64(s, end - done + 16));
        x = x.wrapping_mul(K0).wrapping_add(w.0);
        z = z.wrapping_add(w.1).wrapping_add(fetch64(s, end - done));
        w.1 = w.1.wrapping_add(v.0);
        v = weak32(s, end - done, v.0.wrapping_add(z), v.1);
    }
    x = mix16(x, v.0);
    y = mix16(y.wrapping_add(z), w.0);
    (
        mix16(x.wrapping_add(v.1), w.1).wrapping_add(y),
        mix16(x.wrapping_add(w.1), y.wrapping_add(v.1)),
    )
}

/// CityHash128.
fn city128(s: &[u8]) -> (u64, u64) {
    let len = s.len();
    if len >= 16 {
        city128_seeded(&s[16..], (fetch64(s, 0) ^ K3, fetch64(s, 8)))
    } else if len >= 8 {
        let seed = (
            fetch64(s, 0) ^ (len as u64).wrapping_mul(K0),
            fetch64(s, len - 8) ^ K1,
        );
        city128_seeded(&[], seed)
    } else {
        city128_seeded(s, (K0, K1))
    }
}

/// CRC-32C (Castagnoli, reflected, no inversion) of a word's 8 bytes in little-endian
/// order, continuing `crc`: the SSE 4.2 `crc32` instruction on 64 bits.
#[inline]
fn crc32c_word(crc: u64, word: u64) -> u64 {
    let mut c = crc as u32;
    for byte in word.to_le_bytes() {
        c = CRC_TABLE[((c ^ u32::from(byte)) & 0xff) as usize] ^ (c >> 8);
    }
    u64::from(c)
}

const CRC_TABLE: [u32; 256] = crc_table();

const fn crc_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut n = 0;
    while n < 256 {
        let mut c = n as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0x82f6_3b78
            } else {
                c >> 1
            };
            k += 1;
        }
        table[n] = c;
        n += 1;
    }
    table
}

/// CityHashCrc256 of at least 240 bytes.
fn crc256_long(s: &[u8], seed: u32) -> [u64; 4] {
    let len = s.len();
    let mut a = fetch64(s, 56).wrapping_add(K0);
    let mut b = fetch64(s, 96).wrapping_add(K0);
    let mut c = mix16(b, len as u64);
    let mut d = fetch64(s, 120).wrapping_mul(K0).wrapping_add(len as u64);
    let (r0, r1) = (c, d);
    let mut e = fetch64(s, 184).wrapping_add(u64::from(seed));
    let mut f = u64::from(seed);
    let (mut g, mut h, mut i, mut j) = (0u64, 0u64, 0u64, 0u64);
    let mut t = c.wrapping_add(d);
    let mut p = 0;
    let mut block = |p: usize, mul: u64, z: u32| {
        let step = |word: u64, rot: u32, at: usize| {
            word.rotate_right(rot ^ z)
                .wrapping_mul(mul)
                .wrapping_add(fetch64(s, p + at))
        };
        let old_a = a;
        (a, b, c, d, e) = (
            step(b, 41, 0),
            step(c, 27, 8),
            step(d, 41, 16),
            step(e, 33, 24),
            step(t, 25, 32),
        );
        t = old_a;
        f = crc32c_word(f, a);
        g = crc32c_word(g, b);
        h = crc32c_word(h, c);
        i = crc32c_word(i, d);
        j = crc32c_word(j, e);
    };
    // 240 bytes a step, in six 40-byte blocks of alternating multipliers...
    let steps = len / 240;
    for _ in 0..steps {
        for k in 0..6 {
            let (mul, z) = if k % 2 == 0 { (1, 1) } else { (K0, 0) };
            block(p, mul, z);
            p += 40;
        }
    }
    // ...then whole 40-byte blocks, and a last one ending at the end of the input.
    let mut left = len - steps * 240;
    while left >= 40 {
        block(p, K0, 0);
        p += 40;
        left -= 40;
    }
    if left > 0 {
        block(p + left - 40, K0, 0);
    }
    j = j.wrapping_add(i << 32);
    a = mix16(a, j);
    h = h.wrapping_add(g << 32);
    b = b.wrapping_add(h);
    c = mix16(c, f).wrapping_add(i);
    d = mix16(d, e.wrapping_add(r0));
    j = j.wrapping_add(e);
    i = i.wrapping_add(mix16(h, t));
    e = mix16(a, d).wrapping_add(j);
    f = mix16(b, c).wrapping_add(a);
    g = mix16(j, i).wrapping_add(c);
    let out0 = e.wrapping_add(f).wrapping_add(g).wrapping_add(h);
    a = shift_mix(a.wrapping_add(g).wrapping_mul(K0))
        .wrapping_mul(K0)
        .wrapping_add(b);
    let out1 = r1.wrapping_add(a).wrapping_add(out0);
    a = shift_mix(a.wrapping_mul(K0))
        .wrapping_mul(K0)
        .wrapping_add(c);
    let out2 = a.wrapping_add(out1);
    a = shift_mix(a.wrapping_add(e).wrapping_mul(K0)).wrapping_mul(K0);
    [out0, out1, out2, a.wrapping_add(out2)]
}

/// CityHashCrc256.
fn crc256(s: &[u8]) -> [u64; 4] {
    if s.len() >= 240 {
        crc256_long(s, 0)
    } else {
        let mut buf = [0u8; 240];
        buf[..s.len()].copy_from_slice(s);
        crc256_long(&buf, !(s.len() as u32))
    }
}

/// CityHashCrc128.
fn crc128(s: &[u8]) -> (u64, u64) {
    if s.len() <= 900 {
        city128(s)
    } else {
        let r = crc256(s);
        (r[2], r[3])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32c_matches_the_standard_check_value() {
        // The catalogued CRC-32C of "123456789" is 0xe3069283 with the usual inversion
        // before and after; the instruction form leaves both to the caller.
        let data = b"12345678";
        let word = u64::from_le_bytes(*data);
        let raw = crc32c_word(0xffff_ffff, word) as u32;
        let mut c = raw;
        c = CRC_TABLE[((c ^ u32::from(b'9')) & 0xff) as usize] ^ (c >> 8);
        assert_eq!(!c, 0xe306_9283);
    }

    #[test]
    fn hashes_depend_on_every_byte_and_length() {
        let data: Vec<u8> = (0..2001u32).map(|i| (i * 7 + 3) as u8).collect();
        for len in [
            0, 3, 8, 16, 17, 100, 127, 128, 200, 239, 240, 500, 900, 901, 2000,
        ] {
            let s = &data[..len];
            let base = (city128(s), crc256(s));
            if len > 0 {
                let mut changed = s.to_vec();
                changed[len / 2] ^= 1;
                assert_ne!(base, (city128(&changed), crc256(&changed)), "len {len}");
            }
            let longer = &data[..len + 1];
            assert_ne!(base.0, city128(longer), "len {len}");
        }
    }
}
