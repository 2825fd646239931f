//! Finding and checking Syzygy table files before the prober sees them.
//!
//! The prober maps a file and follows the offsets written in it, so a file cut short or
//! with a foreign header could take the engine down. Every file named `*.rtbw`/`*.rtbz`
//! in the given folders is checked here (the table's name, its magic number, and the
//! length every Syzygy file has: 16 bytes more than a multiple of 64), and then the
//! checksum in its last 16 bytes (`checksum.rs`), which catches damage inside a file of
//! the right length; the good ones are linked into a private folder of this process, and
//! only that folder is handed over.

use super::checksum;
use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Magic number at the start of a WDL file, as its first four bytes.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
/// Magic number at the start of a DTZ file.
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];
/// The prober handles tables of up to this many pieces.
pub const MAX_TABLE_PIECES: u32 = 7;
/// Checksums are verified at load for this many bytes of tables, smallest files first:
/// every table up to 5 pieces (about 1 GB), in about 1.5 s on these machines (the hash
/// runs at about 700 MB/s). Larger sets (the 6-piece tables are 150 GB) would hold up
/// `setoption` for minutes, so their remaining files are used unverified, as other
/// engines use all of theirs.
pub const VERIFY_BUDGET_BYTES: u64 = 2 << 30;

/// A problem with one folder or file of `SyzygyPath`. The others are still used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TbError {
    /// The folder does not exist.
    MissingFolder(PathBuf),
    /// The path names a file, not a folder.
    NotAFolder(PathBuf),
    /// The folder exists but cannot be listed.
    Unreadable(PathBuf, String),
    /// A table file that is not a valid Syzygy table (cut short, wrong header, …).
    Corrupt(PathBuf, String),
    /// The private folder for the prober could not be made, or the prober refused.
    Setup(String),
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::MissingFolder(p) => write!(f, "SyzygyPath: no such folder {}", p.display()),
            TbError::NotAFolder(p) => {
                write!(f, "SyzygyPath: {} is a file, not a folder", p.display())
            }
            TbError::Unreadable(p, e) => {
                write!(f, "SyzygyPath: cannot read folder {}: {e}", p.display())
            }
            TbError::Corrupt(p, why) => {
                write!(f, "SyzygyPath: skipping {}: {why}", p.display())
            }
            TbError::Setup(e) => write!(f, "SyzygyPath: {e}"),
        }
    }
}

impl std::error::Error for TbError {}

/// Which of the two kinds of table a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TableKind {
    /// Win/draw/loss (`.rtbw`).
    Wdl,
    /// Distance to zeroing (`.rtbz`).
    Dtz,
}

/// A checked table file.
#[derive(Clone, Debug)]
pub struct TableFile {
    /// Where it is.
    pub path: PathBuf,
    /// Its length in bytes.
    pub bytes: u64,
    /// Its file name, e.g. `KQvK.rtbw`.
    pub name: String,
    /// WDL or DTZ.
    pub kind: TableKind,
    /// Pieces on the board in its positions, kings included.
    pub pieces: u32,
}

/// The tables found in a `SyzygyPath` value, and what was wrong with the rest.
#[derive(Debug, Default)]
pub struct Scan {
    /// Good tables, one per file name (the first folder that has it wins).
    pub tables: Vec<TableFile>,
    /// Tables among them whose checksum was not verified (beyond `VERIFY_BUDGET_BYTES`).
    pub unverified: usize,
    /// Problems, each to be reported; the good tables are used all the same.
    pub errors: Vec<TbError>,
}

impl Scan {
    /// Number of WDL and DTZ tables.
    pub fn counts(&self) -> (usize, usize) {
        let wdl = self
            .tables
            .iter()
            .filter(|t| t.kind == TableKind::Wdl)
            .count();
        (wdl, self.tables.len() - wdl)
    }

    /// The most pieces of any WDL table (0 when there are none).
    pub fn max_pieces(&self) -> u32 {
        self.tables
            .iter()
            .filter(|t| t.kind == TableKind::Wdl)
            .map(|t| t.pieces)
            .max()
            .unwrap_or(0)
    }
}

/// True for the values that mean "no tables": empty, or `<empty>` as GUIs send it.
pub fn is_empty_path(spec: &str) -> bool {
    let spec = spec.trim();
    spec.is_empty() || spec.eq_ignore_ascii_case("<empty>")
}

/// Lists and checks the tables in the folders of `spec` (separated by `:` on Unix and
/// `;` on Windows, the platform's `PATH` convention).
pub fn scan(spec: &str) -> Scan {
    let mut scan = Scan::default();
    if is_empty_path(spec) {
        return scan;
    }
    let mut by_name: BTreeMap<String, TableFile> = BTreeMap::new();
    for dir in std::env::split_paths(spec.trim()) {
        if dir.as_os_str().is_empty() {
            continue;
        }
        if !dir.exists() {
            scan.errors.push(TbError::MissingFolder(dir));
            continue;
        }
        if !dir.is_dir() {
            scan.errors.push(TbError::NotAFolder(dir));
            continue;
        }
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) => {
                scan.errors.push(TbError::Unreadable(dir, e.to_string()));
                continue;
            }
        };
        let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files {
            let Some((name, kind, pieces)) = table_name(&path) else {
                continue;
            };
            if by_name.contains_key(&name) {
                continue;
            }
            match check_file(&path, kind) {
                Ok(bytes) => {
                    let table = TableFile {
                        path,
                        bytes,
                        name: name.clone(),
                        kind,
                        pieces,
                    };
                    by_name.insert(name, table);
                }
                Err(why) => scan.errors.push(TbError::Corrupt(path, why)),
            }
        }
    }
    let tables: Vec<TableFile> = by_name.into_values().collect();
    scan.tables = verify_within_budget(tables, &mut scan);
    scan
}

/// The tables whose checksum holds, or that were not verified because the budget was
/// spent on smaller ones; the others go to `scan.errors`.
fn verify_within_budget(mut tables: Vec<TableFile>, scan: &mut Scan) -> Vec<TableFile> {
    tables.sort_by_key(|t| t.bytes);
    let mut spent = 0u64;
    let mut kept = Vec::with_capacity(tables.len());
    for table in tables {
        if spent + table.bytes > VERIFY_BUDGET_BYTES {
            scan.unverified += 1;
            kept.push(table);
            continue;
        }
        spent += table.bytes;
        match checksum::verify(&table.path) {
            Ok(true) => kept.push(table),
            Ok(false) => scan.errors.push(TbError::Corrupt(
                table.path,
                "its checksum does not match its contents (damaged file)".into(),
            )),
            Err(e) => scan
                .errors
                .push(TbError::Corrupt(table.path, e.to_string())),
        }
    }
    kept.sort_by(|a, b| a.name.cmp(&b.name));
    kept
}

/// The file name, kind and piece count of a Syzygy table file name such as `KRPvKR.rtbz`;
/// `None` for any other file.
fn table_name(path: &Path) -> Option<(String, TableKind, u32)> {
    let name = path.file_name()?.to_str()?;
    let (stem, ext) = name.rsplit_once('.')?;
    let kind = match ext {
        "rtbw" => TableKind::Wdl,
        "rtbz" => TableKind::Dtz,
        _ => return None,
    };
    let (white, black) = stem.split_once('v')?;
    let side_ok = |s: &str| s.starts_with('K') && s.chars().all(|c| "KQRBNP".contains(c));
    if !side_ok(white) || !side_ok(black) {
        return None;
    }
    let pieces = (white.len() + black.len()) as u32;
    if pieces > MAX_TABLE_PIECES {
        return None;
    }
    Some((name.to_string(), kind, pieces))
}

/// Checks what can be checked without reading the whole file: the magic number and the
/// length, which it returns.
fn check_file(path: &Path, kind: TableKind) -> Result<u64, String> {
    let meta = fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    let len = meta.len();
    if len < 64 + 16 || len % 64 != 16 {
        return Err(format!(
            "{len} bytes is not the length of a Syzygy table (cut short?)"
        ));
    }
    let mut magic = [0u8; 4];
    fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .map_err(|e| e.to_string())?;
    let expected = match kind {
        TableKind::Wdl => WDL_MAGIC,
        TableKind::Dtz => DTZ_MAGIC,
    };
    if magic != expected {
        return Err("not a Syzygy table (wrong magic number)".into());
    }
    Ok(len)
}

/// A private folder holding links to the checked tables; removed when dropped.
#[derive(Debug)]
pub struct Staging {
    dir: PathBuf,
    /// The folder as the prober is given it.
    prober_path: String,
}

impl Staging {
    /// Links every table of `scan` into a new private folder.
    pub fn new(scan: &Scan) -> Result<Staging, TbError> {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let name = format!("ladya-syzygy-{}-{n}", std::process::id());
        let (dir, prober_path) = staging_place(&name).ok_or_else(|| {
            TbError::Setup(format!(
                "no folder for the tables whose path the prober can read (temporary folder {})",
                std::env::temp_dir().display()
            ))
        })?;
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir)
            .map_err(|e| TbError::Setup(format!("cannot create {}: {e}", dir.display())))?;
        let staging = Staging { dir, prober_path };
        for table in &scan.tables {
            let target = fs::canonicalize(&table.path).unwrap_or_else(|_| table.path.clone());
            link(&target, &staging.dir.join(&table.name)).map_err(|e| {
                TbError::Setup(format!("cannot link {}: {e}", table.path.display()))
            })?;
        }
        Ok(staging)
    }

    /// The folder as the prober must be given it: the prober splits its path at every
    /// ':' (on every system), so a Windows path goes without its drive letter.
    pub fn prober_path(&self) -> &str {
        &self.prober_path
    }
}

/// Where the staging folder `name` goes, and its path for the prober (no ':' or ';').
#[cfg(not(windows))]
fn staging_place(name: &str) -> Option<(PathBuf, String)> {
    let dir = std::env::temp_dir().join(name);
    let text = dir
        .to_str()
        .filter(|s| !s.contains([':', ';']))?
        .to_string();
    Some((dir, text))
}

/// Where the staging folder `name` goes, and its path for the prober (no ':' or ';').
/// The prober would read `C:\Temp\x` as the two folders `C` and `\Temp\x`, so it gets the
/// path without its drive (`\Temp\x`), which Windows reads on the current directory's
/// drive: the temporary folder when it is on that drive, else a folder in the current
/// directory, given relative to it.
#[cfg(windows)]
fn staging_place(name: &str) -> Option<(PathBuf, String)> {
    let cwd = std::env::current_dir().ok()?;
    let drive = |p: &Path| -> Option<String> {
        let s = p.to_str()?;
        let s = s.strip_prefix(r"\\?\").unwrap_or(s);
        (s.as_bytes().get(1) == Some(&b':')).then(|| s[..2].to_ascii_uppercase())
    };
    let temp = std::env::temp_dir().join(name);
    let temp_text = temp.to_str()?;
    let temp_text = temp_text.strip_prefix(r"\\?\").unwrap_or(temp_text);
    if drive(&temp).is_some() && drive(&temp) == drive(&cwd) && !temp_text[2..].contains(';') {
        return Some((temp.clone(), temp_text[2..].to_string()));
    }
    (!name.contains([':', ';'])).then(|| (cwd.join(name), name.to_string()))
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

#[cfg(unix)]
fn link(target: &Path, at: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, at)
}

#[cfg(not(unix))]
fn link(target: &Path, at: &Path) -> std::io::Result<()> {
    fs::hard_link(target, at).or_else(|_| fs::copy(target, at).map(|_| ()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_recognised() {
        let t = |s: &str| table_name(Path::new(s)).map(|(_, k, p)| (k, p));
        assert_eq!(t("KQvK.rtbw"), Some((TableKind::Wdl, 3)));
        assert_eq!(t("/x/KRPvKR.rtbz"), Some((TableKind::Dtz, 5)));
        assert_eq!(t("KQvK.txt"), None);
        assert_eq!(t("README.rtbw"), None);
        assert_eq!(t("KQQQQvKQQ.rtbw"), None);
    }

    #[test]
    fn empty_paths() {
        assert!(is_empty_path(""));
        assert!(is_empty_path("<empty>"));
        assert!(is_empty_path("  "));
        assert!(!is_empty_path("/tmp"));
        assert!(scan("<empty>").tables.is_empty());
    }
}
