//! A run: games played on threads and written in game-number order (a reorder buffer),
//! into a writer or into a file resumed through its sidecar.

use super::ending::leaves_a_game;
use super::game::{play_game, Game};
use super::sidecar::{sidecar_path, write_sidecar, Sidecar};
use super::{DatagenConfig, DatagenError, DatagenReport, Format, Progress};
use crate::board::{FenError, Position};
use crate::data::{DataError, RECORD_BYTES};
use crate::search::Searcher;
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Transposition table per game thread, in MB.
const HASH_MB: usize = 16;
/// Time between two progress reports.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// The position of an opening line, FEN or EPD: its first four fields (an EPD's operations
/// and a FEN's clocks are dropped; the game starts its own count).
pub(super) fn opening_position(line: &str) -> Result<Position, FenError> {
    let fields: Vec<&str> = line.split_whitespace().take(4).collect();
    Position::from_fen(&format!("{} 0 1", fields.join(" ")))
}

/// The openings of `cfg` that leave a game to play (the start position when there are
/// none at all); an error when there are some but every one is already over.
fn parse_openings(cfg: &DatagenConfig) -> Result<Vec<Position>, DatagenError> {
    let mut openings = Vec::with_capacity(cfg.openings.len());
    for (n, line) in cfg.openings.iter().enumerate() {
        let pos = opening_position(line).map_err(|e| DatagenError::Opening(n, e))?;
        // A mate, a stalemate or a dead draw is no start: every draw of it would be
        // drawn again, and a book of nothing else would never start a game.
        if leaves_a_game(&pos) {
            openings.push(pos);
        }
    }
    if openings.is_empty() {
        if !cfg.openings.is_empty() {
            return Err(DatagenError::NoPlayableOpening(cfg.openings.len()));
        }
        openings.push(Position::startpos());
    }
    Ok(openings)
}

/// Plays games `first..cfg.games` on `cfg.threads` threads and hands each to `sink` in
/// game-number order. Stops at the first error of `sink`.
fn play_games(
    cfg: &DatagenConfig,
    first: usize,
    sink: &mut dyn FnMut(&Game) -> Result<(), DatagenError>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<DatagenReport, DatagenError> {
    let openings = parse_openings(cfg)?;
    let threads = cfg.threads.max(1);
    let next = AtomicUsize::new(first);
    let stop = AtomicBool::new(false);
    let (tx, rx) = crossbeam_channel::unbounded::<(usize, Game)>();
    let mut report = DatagenReport {
        resumed_at: first,
        ..DatagenReport::default()
    };
    let start = Instant::now();
    let mut last_report = start;
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (openings, next, stop) = (&openings, &next, &stop);
            scope.spawn(move || {
                let mut searcher = Searcher::new(HASH_MB);
                searcher.set_network(cfg.network.clone());
                while !stop.load(Ordering::Relaxed) {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= cfg.games {
                        return;
                    }
                    let game = play_game(cfg, openings, n as u64, &mut searcher);
                    if tx.send((n, game)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        // The reorder buffer: games finished out of turn wait for their predecessors.
        let mut waiting = BTreeMap::new();
        let mut expected = first;
        for (n, game) in &rx {
            waiting.insert(n, game);
            while let Some(game) = waiting.remove(&expected) {
                if let Err(e) = sink(&game) {
                    failure = Some(e);
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                expected += 1;
                report.games += 1;
                report.positions += game.positions;
                report.results[2 - game.white_points as usize] += 1;
            }
            if last_report.elapsed() >= PROGRESS_EVERY {
                last_report = Instant::now();
                progress(&Progress {
                    games_done: expected,
                    games_total: cfg.games,
                    games_now: report.games,
                    positions_now: report.positions,
                    elapsed: start.elapsed(),
                });
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(report),
    }
}

/// Plays `cfg.games` games and writes their positions to `out` in game order, with no
/// sidecar (the whole run at once). `progress` gets a report every few seconds.
pub fn generate(
    cfg: &DatagenConfig,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&Progress),
) -> Result<DatagenReport, DatagenError> {
    let report = play_games(
        cfg,
        0,
        &mut |game| out.write_all(&game.bytes).map_err(DatagenError::Io),
        progress,
    )?;
    out.flush().map_err(DatagenError::Io)?;
    Ok(report)
}

/// Plays the games of `cfg` into the file `out`, resuming the run its sidecar records or
/// appending a new run after what the file holds (see the module documentation).
pub fn generate_file(
    cfg: &DatagenConfig,
    out: &Path,
    progress: &mut dyn FnMut(&Progress),
) -> Result<DatagenReport, DatagenError> {
    let sidecar_file = sidecar_path(out);
    let settings = Sidecar::new(cfg, 0, 0);
    // A new file may go to a new folder (as `train --out-dir` makes its own).
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| DataError::io(dir, e))?;
    }
    let file_bytes = match std::fs::metadata(out) {
        Ok(m) => m.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(DataError::io(out, e).into()),
    };
    let (first, start_bytes, dropped, appended_after) = match std::fs::read_to_string(&sidecar_file)
    {
        Ok(text) => {
            let recorded = Sidecar::parse(&text)
                .map_err(|why| DatagenError::BadSidecar(sidecar_file.clone(), why))?;
            if let Some((field, recorded, requested)) = recorded.mismatch(&settings) {
                return Err(DatagenError::Mismatch {
                    sidecar: sidecar_file,
                    field,
                    recorded,
                    requested,
                });
            }
            if file_bytes < recorded.bytes {
                return Err(DatagenError::ShortOutput {
                    path: out.to_path_buf(),
                    bytes: file_bytes,
                    recorded: recorded.bytes,
                });
            }
            (
                recorded.games_done,
                recorded.bytes,
                file_bytes - recorded.bytes,
                0,
            )
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if cfg.format == Format::Packed && !file_bytes.is_multiple_of(RECORD_BYTES as u64) {
                return Err(DataError::PartialRecord {
                    path: out.to_path_buf(),
                    bytes: file_bytes,
                }
                .into());
            }
            (0, file_bytes, 0, file_bytes)
        }
        Err(e) => return Err(DataError::io(&sidecar_file, e).into()),
    };
    // Check the openings before touching the file.
    parse_openings(cfg)?;
    let mut file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(out)
        .map_err(|e| DataError::io(out, e))?;
    file.set_len(start_bytes)
        .and_then(|_| file.seek(SeekFrom::Start(start_bytes)))
        .map_err(|e| DataError::io(out, e))?;
    let mut state = settings;
    state.games_done = first;
    state.bytes = start_bytes;
    write_sidecar(&sidecar_file, &state)?;
    let mut report = play_games(
        cfg,
        first,
        &mut |game| {
            file.write_all(&game.bytes)
                .map_err(|e| DataError::io(out, e))?;
            state.games_done += 1;
            state.bytes += game.bytes.len() as u64;
            write_sidecar(&sidecar_file, &state)?;
            Ok(())
        },
        progress,
    )?;
    report.dropped_bytes = dropped;
    report.appended_after = appended_after;
    Ok(report)
}
