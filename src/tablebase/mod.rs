//! Syzygy endgame tablebases: win/draw/loss (WDL) and distance-to-zeroing (DTZ) probes.
//!
//! The probing itself is the `pyrrhic-rs` crate (a Rust port of Pyrrhic, itself Fathom's
//! descendant); nothing outside this module sees its types. It keeps one global set of
//! tables per process, so this module does too: [`load`] replaces the set, [`probe_wdl`]
//! and [`probe_root`] read it from any thread. Files are checked before the prober sees
//! them (`files.rs`): a missing folder, a file given as a folder, a table cut short, with
//! a foreign header or whose checksum fails is reported and left out, and the other
//! tables are used.
//!
//! What the tables answer, and only for positions without castling rights:
//! - WDL: the result with best play, where a *cursed win* is a win that the fifty-move
//!   rule turns into a draw and a *blessed loss* the same loss saved by it;
//! - DTZ, at the root: for every legal move, how many plies until the next capture or
//!   pawn move with best play, which is what ranks the moves of a won ending.

mod checksum;
mod files;
mod probe;

pub use checksum::verify as verify_checksum;
pub use files::{is_empty_path, Scan, TableFile, TableKind, TbError, MAX_TABLE_PIECES};
pub use probe::{MoveProbe, RootProbe, Wdl};

use probe::Adapter;
use pyrrhic_rs::TableBases;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{RwLock, RwLockReadGuard};

/// The loaded tables: the prober's handle and the private folder its files are in.
struct Loaded {
    tables: TableBases<Adapter>,
    // Dropped after the prober, which still has the files open until then.
    _staging: files::Staging,
}

/// The process's tables (the prober itself is a global).
static ACTIVE: RwLock<Option<Loaded>> = RwLock::new(None);
/// Most pieces of any loaded table; 0 with none. Read on every search node that could
/// probe, so it is an atomic rather than behind the lock.
static MAX_PIECES: AtomicU32 = AtomicU32::new(0);

/// What [`load`] found.
#[derive(Debug, Default)]
pub struct LoadReport {
    /// WDL tables now in use.
    pub wdl: usize,
    /// DTZ tables now in use.
    pub dtz: usize,
    /// Most pieces of any WDL table in use (0: no tables).
    pub max_pieces: u32,
    /// Folders and files left out, each with the reason.
    pub errors: Vec<TbError>,
    /// Tables in use whose checksum was not verified (a set over `VERIFY_BUDGET_BYTES`).
    pub unverified: usize,
}

impl LoadReport {
    /// The line a user sees, e.g. `found 70 tablebases, up to 4 pieces`.
    pub fn summary(&self) -> String {
        let mut line = format!(
            "found {} tablebases ({} WDL, {} DTZ), up to {} pieces",
            self.wdl + self.dtz,
            self.wdl,
            self.dtz,
            self.max_pieces
        );
        if self.unverified > 0 {
            line += &format!(
                "; {} of them unverified (checksums are checked for the first {} GiB)",
                self.unverified,
                files::VERIFY_BUDGET_BYTES >> 30
            );
        }
        line
    }
}

fn active() -> RwLockReadGuard<'static, Option<Loaded>> {
    ACTIVE.read().unwrap_or_else(|e| e.into_inner())
}

/// Replaces the loaded tables with those in `spec` (folders separated as in `PATH`);
/// an empty `spec` or `<empty>` unloads them. Never fails as a whole: what could not be
/// used is in the report's `errors`.
pub fn load(spec: &str) -> LoadReport {
    let mut guard = ACTIVE.write().unwrap_or_else(|e| e.into_inner());
    MAX_PIECES.store(0, Ordering::SeqCst);
    // The prober allows one set at a time: the old one goes first.
    *guard = None;
    let mut scan = files::scan(spec);
    let mut report = LoadReport {
        errors: std::mem::take(&mut scan.errors),
        ..LoadReport::default()
    };
    if scan.tables.is_empty() {
        return report;
    }
    let staging = match files::Staging::new(&scan) {
        Ok(s) => s,
        Err(e) => {
            report.errors.push(e);
            return report;
        }
    };
    match TableBases::<Adapter>::new(staging.prober_path()) {
        Ok(tables) => {
            let (wdl, dtz) = scan.counts();
            report.wdl = wdl;
            report.dtz = dtz;
            report.unverified = scan.unverified;
            report.max_pieces = tables.max_pieces().min(scan.max_pieces());
            MAX_PIECES.store(report.max_pieces, Ordering::SeqCst);
            *guard = Some(Loaded {
                tables,
                _staging: staging,
            });
        }
        Err(e) => report.errors.push(TbError::Setup(format!(
            "the prober refused the tables: {e:?}"
        ))),
    }
    report
}

/// Most pieces (kings included) of a position the loaded tables can answer; 0 when no
/// tables are loaded.
#[inline]
pub fn max_pieces() -> u32 {
    MAX_PIECES.load(Ordering::Relaxed)
}

/// The WDL value of `pos` for the side to move, or `None` (no table, castling rights,
/// too many pieces, a table missing or unreadable).
pub fn probe_wdl(pos: &crate::board::Position) -> Option<Wdl> {
    if !probe::probeable(pos, max_pieces()) {
        return None;
    }
    let guard = active();
    probe::wdl(&guard.as_ref()?.tables, pos)
}

/// The DTZ ranking of every legal move of `pos`, or `None` (as for [`probe_wdl`], or a
/// DTZ table missing). Needs the halfmove clock of `pos` for the fifty-move rule.
pub fn probe_root(pos: &crate::board::Position) -> Option<RootProbe> {
    if !probe::probeable(pos, max_pieces()) {
        return None;
    }
    // The prober's root probe is not safe to run twice at once: take the lock alone.
    let guard = ACTIVE.write().unwrap_or_else(|e| e.into_inner());
    probe::root(&guard.as_ref()?.tables, pos)
}

/// What the tables say about a root position: the moves worth searching and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// The best-ranked legal moves (see [`RootProbe::best_moves`]).
    pub moves: Vec<crate::chess_move::Move>,
    /// The root's value for the side to move.
    pub wdl: Wdl,
    /// Its distance to zeroing, when the DTZ tables are there.
    pub dtz: Option<i32>,
}

/// The root moves worth searching in a position the tables hold; with the WDL tables
/// alone, the moves that keep the best WDL value. `None` when the tables cannot tell
/// or the game is over.
pub fn rank_root(pos: &crate::board::Position, fifty_move_rule: bool) -> Option<RootRanking> {
    if !probe::probeable(pos, max_pieces()) {
        return None;
    }
    if let Some(root) = probe_root(pos) {
        return (!root.moves.is_empty()).then(|| RootRanking {
            moves: root.best_moves(fifty_move_rule),
            wdl: root.wdl,
            dtz: Some(root.dtz),
        });
    }
    let mut ranked = Vec::new();
    for &mv in pos.legal_moves().as_slice() {
        let mut child = pos.clone_without_history();
        child.make_move(mv);
        let wdl = if child.is_checkmate() {
            Wdl::Win
        } else {
            probe_wdl(&child)?.flip()
        };
        ranked.push((probe::wdl_rank(wdl, fifty_move_rule), wdl, mv));
    }
    let best = ranked.iter().map(|r| r.0).max()?;
    let wdl = ranked.iter().find(|r| r.0 == best)?.1;
    Some(RootRanking {
        moves: ranked
            .into_iter()
            .filter(|r| r.0 == best)
            .map(|r| r.2)
            .collect(),
        wdl,
        dtz: None,
    })
}
