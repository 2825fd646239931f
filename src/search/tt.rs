//! The transposition table: a lock-free hash of search results shared by the whole search.
//!
//! Each entry is two `AtomicU64`: the packed data and `key ^ data` (the "XOR trick"). A
//! reader accepts an entry only when its two words XOR back to the position's key, so a
//! torn write by another thread (two words from different stores) reads as a miss and never
//! as wrong data. Four 16-byte entries make a 64-byte cluster, one cache line. Any table
//! size works: the index is `key * clusters >> 64`, not a power-of-two mask.

use super::{DECISIVE, MAX_DEPTH};
use crate::chess_move::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Entries per cluster (one cache line).
const CLUSTER_SIZE: usize = 4;
/// Ages wrap at this (6 bits).
const AGE_CYCLE: u8 = 64;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    /// The true score is at most the stored one (fail low).
    Upper = 1,
    /// The true score is at least the stored one (fail high).
    Lower = 2,
    /// The true score.
    Exact = 3,
}

impl TtBound {
    /// What `best`, the result of a fail-soft search within (`alpha`, `beta`), is.
    pub fn of(best: i32, alpha: i32, beta: i32) -> TtBound {
        if best >= beta {
            TtBound::Lower
        } else if best > alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        }
    }

    /// Whether `score` with this bound settles the window (`alpha`, `beta`) without a
    /// search: it is exact, or a lower bound at or above beta, or an upper bound at or
    /// below alpha.
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            TtBound::Exact => true,
            TtBound::Lower => score >= beta,
            TtBound::Upper => score <= alpha,
        }
    }
}

/// A decoded table entry.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    /// The best (or refuting) move found, `Move::NONE` if none. Not checked for legality.
    pub mv: Move,
    /// The score, already converted back from "mate in n from here" to "mate at ply".
    pub score: i32,
    /// The static evaluation of the position.
    pub eval: i32,
    /// The depth of the search that produced the score (0 for quiescence).
    pub depth: i32,
    /// What the score means.
    pub bound: TtBound,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(C, align(64))]
struct Cluster {
    slots: [Slot; CLUSTER_SIZE],
}

/// Packed layout: move 0-15, score 16-31, eval 32-47, depth 48-55, bound 56-57, age 58-63.
fn pack(mv: Move, score: i32, eval: i32, depth: u8, bound: TtBound, age: u8) -> u64 {
    mv.to_bits() as u64
        | (score as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | (depth as u64) << 48
        | (bound as u64) << 56
        | (age as u64 & 63) << 58
}

fn data_depth(d: u64) -> u8 {
    (d >> 48) as u8
}

fn data_bound(d: u64) -> u8 {
    (d >> 56) as u8 & 3
}

fn data_age(d: u64) -> u8 {
    (d >> 58) as u8
}

/// A score as stored: mate and tablebase scores count from this node, not from the root.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= DECISIVE {
        score + ply as i32
    } else if score <= -DECISIVE {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score seen from `ply`.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= DECISIVE {
        score - ply as i32
    } else if score <= -DECISIVE {
        score + ply as i32
    } else {
        score
    }
}

/// Asks the kernel to back the table with 2 MB pages, before its first touch. A probe is
/// a random access into megabytes: with 4 KB pages nearly every one also misses the TLB,
/// and the page walk costs as much as the cache miss (the prefetch stalled on it). Only a
/// hint: the pages stay small where transparent huge pages are off or short. (Not under
/// Miri, which has no `madvise`: the hint changes nothing it could check.)
#[cfg(all(target_os = "linux", not(miri)))]
#[allow(unsafe_code)]
fn advise_huge_pages(start: *const u8, len: usize) {
    // SAFETY: sysconf reads a constant of the system and touches no memory of ours.
    let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096);
    let first = (start as usize).next_multiple_of(page);
    let end = (start as usize + len) / page * page;
    if end > first {
        // SAFETY: the range is whole pages inside the table's own allocation, and
        // MADV_HUGEPAGE changes how pages are backed, never their contents; a refusal
        // (EINVAL where huge pages are unsupported) is harmless and ignored.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(any(not(target_os = "linux"), miri))]
fn advise_huge_pages(_start: *const u8, _len: usize) {}

/// The transposition table.
pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    /// Shared by the threads of a parallel search; only the main thread moves it on.
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of (at most) `mb` megabytes, at least one cluster. When the memory cannot
    /// be had, the size is halved until it can (so a huge `Hash` never aborts the engine).
    pub fn new(mb: usize) -> TranspositionTable {
        let mut count =
            (mb.max(1).saturating_mul(1024 * 1024) / std::mem::size_of::<Cluster>()).max(1);
        let mut clusters: Vec<Cluster> = Vec::new();
        while clusters.try_reserve_exact(count).is_err() && count > 1 {
            count /= 2;
        }
        advise_huge_pages(
            clusters.as_ptr().cast(),
            count * std::mem::size_of::<Cluster>(),
        );
        clusters.resize_with(count, Cluster::default);
        TranspositionTable {
            clusters,
            age: AtomicU8::new(0),
        }
    }

    /// The table's size in megabytes (less than asked for when memory was short).
    pub fn size_mb(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>() / (1024 * 1024)
    }

    /// Empties every entry and resets the age.
    pub fn clear(&self) {
        for cluster in &self.clusters {
            for slot in &cluster.slots {
                slot.check.store(0, Ordering::Relaxed);
                slot.data.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let age = self.age.load(Ordering::Relaxed);
        self.age.store((age + 1) % AGE_CYCLE, Ordering::Relaxed);
    }

    /// The current age.
    #[inline]
    fn age(&self) -> u8 {
        self.age.load(Ordering::Relaxed)
    }

    fn cluster(&self, key: u64) -> &Cluster {
        let index = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[index]
    }

    /// Starts loading `key`'s cluster into the cache. The search calls it as soon as the
    /// picker hands out a move (with `Position::key_after`) and again once it is made, so
    /// that the child's probe finds the line there: the probe was a fifth of `bench`'s
    /// time, mostly waiting for memory.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let cluster: *const Cluster = self.cluster(key);
            // SAFETY: a prefetch only hints the cache and cannot fault; the address is a
            // cluster of this table; SSE, which the instruction needs, is part of every
            // x86-64 CPU.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    cluster.cast::<i8>(),
                    std::arch::x86_64::_MM_HINT_T0,
                )
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, with mate scores seen from `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for slot in &self.cluster(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data != key || data_bound(data) == 0 {
                continue;
            }
            let bound = match data_bound(data) {
                1 => TtBound::Upper,
                2 => TtBound::Lower,
                _ => TtBound::Exact,
            };
            return Some(TtEntry {
                mv: Move::from_bits(data as u16),
                score: score_from_tt((data >> 16) as u16 as i16 as i32, ply),
                eval: (data >> 32) as u16 as i16 as i32,
                depth: data_depth(data) as i32,
                bound,
            });
        }
        None
    }

    /// Stores a search result. Replaces the entry of the same position, else the entry
    /// whose depth is least worth keeping (shallow, or from an older search).
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: TtBound,
    ) {
        let cluster = self.cluster(key);
        let mut victim = &cluster.slots[0];
        let mut victim_worth = i32::MAX;
        for slot in &cluster.slots {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key || data_bound(data) == 0 {
                victim = slot;
                // Keep a deeper result of the same position unless the new one is exact.
                if check ^ data == key
                    && data_bound(data) != 0
                    && bound != TtBound::Exact
                    && depth + 3 < data_depth(data) as i32
                    && data_age(data) == self.age()
                {
                    return;
                }
                let mv = if mv.is_none() && check ^ data == key {
                    Move::from_bits(data as u16)
                } else {
                    mv
                };
                self.write(victim, key, ply, mv, score, eval, depth, bound);
                return;
            }
            let age_gap = (AGE_CYCLE + self.age() - data_age(data)) % AGE_CYCLE;
            let worth = data_depth(data) as i32 - 8 * age_gap as i32;
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        self.write(victim, key, ply, mv, score, eval, depth, bound);
    }

    #[allow(clippy::too_many_arguments)]
    fn write(
        &self,
        slot: &Slot,
        key: u64,
        ply: usize,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: TtBound,
    ) {
        let depth = depth.clamp(0, MAX_DEPTH as i32 + 8) as u8;
        let data = pack(mv, score_to_tt(score, ply), eval, depth, bound, self.age());
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Per-mille use by entries of the current search, from the first 1,000 entries.
    pub fn hashfull(&self) -> u32 {
        let mut used: u32 = 0;
        let mut seen = 0;
        for cluster in self.clusters.iter().take(1000 / CLUSTER_SIZE) {
            for slot in &cluster.slots {
                let data = slot.data.load(Ordering::Relaxed);
                seen += 1;
                if data_bound(data) != 0 && data_age(data) == self.age() {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let mv = Move::new(Square::E2, Square::E4);
        tt.store(0xDEAD_BEEF_1234_5678, 3, mv, -150, 42, 7, TtBound::Lower);
        let e = tt.probe(0xDEAD_BEEF_1234_5678, 3).expect("stored");
        assert_eq!((e.mv, e.score, e.eval, e.depth), (mv, -150, 42, 7));
        assert_eq!(e.bound, TtBound::Lower);
        assert!(tt.probe(0x1234, 3).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        let mate_at_ply_10 = super::super::MATE - 10;
        tt.store(77, 4, Move::NONE, mate_at_ply_10, 0, 5, TtBound::Exact);
        // Seen from ply 2 the same mate is two plies nearer: it is found at ply 8.
        assert_eq!(tt.probe(77, 2).unwrap().score, mate_at_ply_10 + 2);
    }

    #[test]
    #[cfg_attr(miri, ignore = "megabytes of table: hours under Miri")]
    fn any_size_works_and_clusters_fill_a_cache_line() {
        assert_eq!(std::mem::size_of::<Cluster>(), 64);
        for mb in [1, 3, 5, 17] {
            let tt = TranspositionTable::new(mb);
            for k in 0..10_000u64 {
                let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                tt.store(key, 0, Move::NONE, 1, 1, 1, TtBound::Exact);
            }
            assert!(tt.hashfull() > 0);
            tt.clear();
            assert_eq!(tt.hashfull(), 0);
            assert_eq!(tt.size_mb(), mb);
        }
    }
}
