//! Files of packed records: nothing but [`RECORD_BYTES`]-byte records back to back, no
//! header, so files concatenate (`cat a.bin b.bin > c.bin`) and a writer may append to any
//! well-formed file. A length that is not a multiple of the record size means a torn or
//! foreign file, and every reader here says so instead of guessing.

use super::packed::{PackedPosition, RECORD_BYTES};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Bytes read from disk at a time.
const READ_BLOCK: usize = 1 << 20;

/// A failure to read or write a data file.
#[derive(Debug)]
pub enum DataError {
    /// The operating system refused (open, read, write, metadata).
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file's length is not a whole number of records: a torn tail or not a data file.
    PartialRecord {
        /// The file.
        path: PathBuf,
        /// Its length in bytes.
        bytes: u64,
    },
    /// A games file ([`super::games`]) that does not read back.
    Games {
        /// The file.
        path: PathBuf,
        /// Where and why.
        source: super::games::GamesError,
    },
}

impl DataError {
    /// An IO error on `path`.
    pub fn io(path: &Path, source: io::Error) -> DataError {
        DataError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            DataError::PartialRecord { path, bytes } => write!(
                f,
                "{}: {bytes} bytes is not a whole number of {RECORD_BYTES}-byte records \
                 ({} records and {} bytes over): a torn tail or not a packed data file",
                path.display(),
                bytes / RECORD_BYTES as u64,
                bytes % RECORD_BYTES as u64
            ),
            DataError::Games { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for DataError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DataError::Io { source, .. } => Some(source),
            DataError::PartialRecord { .. } => None,
            DataError::Games { source, .. } => Some(source),
        }
    }
}

/// The number of records in the file at `path`, or an error when its length is not a
/// whole number of records. A missing file holds 0 records.
pub fn record_count(path: &Path) -> Result<u64, DataError> {
    match std::fs::metadata(path) {
        Ok(meta) => whole_records(path, meta.len()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(0),
        Err(e) => Err(DataError::io(path, e)),
    }
}

fn whole_records(path: &Path, bytes: u64) -> Result<u64, DataError> {
    if !bytes.is_multiple_of(RECORD_BYTES as u64) {
        return Err(DataError::PartialRecord {
            path: path.to_path_buf(),
            bytes,
        });
    }
    Ok(bytes / RECORD_BYTES as u64)
}

/// Appends records to a file through a buffer. Call [`PackedWriter::finish`] (or
/// [`PackedWriter::flush`]) to see write errors; dropping the writer flushes silently.
pub struct PackedWriter {
    path: PathBuf,
    out: BufWriter<File>,
    written: u64,
    existing: u64,
}

impl PackedWriter {
    /// Opens `path` for appending (creating it), after checking that what is already there
    /// is a whole number of records.
    pub fn append(path: &Path) -> Result<PackedWriter, DataError> {
        let existing = record_count(path)?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| DataError::io(path, e))?;
        Ok(PackedWriter {
            path: path.to_path_buf(),
            out: BufWriter::with_capacity(READ_BLOCK, file),
            written: 0,
            existing,
        })
    }

    /// Creates `path`, replacing any file there.
    pub fn create(path: &Path) -> Result<PackedWriter, DataError> {
        let file = File::create(path).map_err(|e| DataError::io(path, e))?;
        Ok(PackedWriter {
            path: path.to_path_buf(),
            out: BufWriter::with_capacity(READ_BLOCK, file),
            written: 0,
            existing: 0,
        })
    }

    /// Records that were in the file before this writer opened it.
    pub fn existing(&self) -> u64 {
        self.existing
    }

    /// Records written by this writer.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Appends one record.
    pub fn write(&mut self, record: &PackedPosition) -> Result<(), DataError> {
        self.out
            .write_all(record.as_bytes())
            .map_err(|e| DataError::io(&self.path, e))?;
        self.written += 1;
        Ok(())
    }

    /// Appends records in order.
    pub fn write_all(&mut self, records: &[PackedPosition]) -> Result<(), DataError> {
        records.iter().try_for_each(|r| self.write(r))
    }

    /// Pushes the buffer to the file.
    pub fn flush(&mut self) -> Result<(), DataError> {
        self.out.flush().map_err(|e| DataError::io(&self.path, e))
    }

    /// Flushes and closes; returns the number of records written.
    pub fn finish(mut self) -> Result<u64, DataError> {
        self.flush()?;
        Ok(self.written)
    }
}

/// Reads a file of records in chunks, for files too large to hold at once.
pub struct PackedReader {
    path: PathBuf,
    file: File,
    records: u64,
    read: u64,
    buf: Vec<u8>,
}

impl PackedReader {
    /// Opens `path`; its length must be a whole number of records.
    pub fn open(path: &Path) -> Result<PackedReader, DataError> {
        let file = File::open(path).map_err(|e| DataError::io(path, e))?;
        let bytes = file.metadata().map_err(|e| DataError::io(path, e))?.len();
        let records = whole_records(path, bytes)?;
        Ok(PackedReader {
            path: path.to_path_buf(),
            file,
            records,
            read: 0,
            buf: Vec::new(),
        })
    }

    /// Records in the file.
    pub fn len(&self) -> u64 {
        self.records
    }

    /// Whether the file holds no record.
    pub fn is_empty(&self) -> bool {
        self.records == 0
    }

    /// Replaces `chunk` with the next up to `max` records; returns how many (0 at the end).
    pub fn read_chunk(
        &mut self,
        chunk: &mut Vec<PackedPosition>,
        max: usize,
    ) -> Result<usize, DataError> {
        chunk.clear();
        let n = (self.records - self.read).min(max as u64) as usize;
        self.buf.resize(n * RECORD_BYTES, 0);
        self.file.read_exact(&mut self.buf).map_err(|e| {
            if e.kind() == io::ErrorKind::UnexpectedEof {
                // The file shrank under us: report what we saw.
                DataError::PartialRecord {
                    path: self.path.clone(),
                    bytes: self.records * RECORD_BYTES as u64,
                }
            } else {
                DataError::io(&self.path, e)
            }
        })?;
        chunk.extend(self.buf.chunks_exact(RECORD_BYTES).map(|b| {
            PackedPosition::from_bytes(b.try_into().expect("chunks_exact gives whole records"))
        }));
        self.read += n as u64;
        Ok(n)
    }

    /// An iterator over chunks of up to `size` records.
    pub fn chunks(self, size: usize) -> Chunks {
        Chunks {
            reader: self,
            size: size.max(1),
            failed: false,
        }
    }
}

/// The chunks of a [`PackedReader`]; stops after the first error.
pub struct Chunks {
    reader: PackedReader,
    size: usize,
    failed: bool,
}

impl Iterator for Chunks {
    type Item = Result<Vec<PackedPosition>, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let mut chunk = Vec::new();
        match self.reader.read_chunk(&mut chunk, self.size) {
            Ok(0) => None,
            Ok(_) => Some(Ok(chunk)),
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

/// Reads a whole file of records into memory (what the trainer does: 32 bytes a record,
/// so 10M records take 320 MB). Records are not validated.
pub fn read_all(path: &Path) -> Result<Vec<PackedPosition>, DataError> {
    let mut reader = PackedReader::open(path)?;
    let mut all = Vec::with_capacity(reader.len() as usize);
    let mut chunk = Vec::new();
    while reader.read_chunk(&mut chunk, READ_BLOCK / RECORD_BYTES)? > 0 {
        all.extend_from_slice(&chunk);
    }
    Ok(all)
}

/// Writes `records` to a new file at `path`, replacing any file there.
pub fn write_all(path: &Path, records: &[PackedPosition]) -> Result<(), DataError> {
    let mut writer = PackedWriter::create(path)?;
    writer.write_all(records)?;
    writer.finish().map(|_| ())
}

/// Unpacks the games file `input` into packed records appended to `output` (created when
/// missing). Nothing is written when a game does not read back.
pub fn unpack_file(input: &Path, output: &Path) -> Result<super::games::UnpackReport, DataError> {
    let bytes = std::fs::read(input).map_err(|e| DataError::io(input, e))?;
    let mut records = Vec::new();
    let report = super::games::unpack(&bytes, &mut |p| records.push(p)).map_err(|source| {
        DataError::Games {
            path: input.to_path_buf(),
            source,
        }
    })?;
    let mut writer = PackedWriter::append(output)?;
    writer.write_all(&records)?;
    writer.finish()?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::GameResult;
    use crate::Position;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("ladya-data-file-{}-{name}", std::process::id()))
    }

    #[test]
    fn append_then_read_back_in_chunks() {
        let path = temp("append");
        let _ = std::fs::remove_file(&path);
        let pos = Position::startpos();
        let records: Vec<_> = (0..10)
            .map(|i| PackedPosition::new(&pos, i * 10, GameResult::Draw))
            .collect();
        let mut w = PackedWriter::append(&path).unwrap();
        w.write_all(&records[..4]).unwrap();
        assert_eq!(w.finish().unwrap(), 4);
        let mut w = PackedWriter::append(&path).unwrap();
        assert_eq!(w.existing(), 4);
        w.write_all(&records[4..]).unwrap();
        w.finish().unwrap();
        assert_eq!(record_count(&path).unwrap(), 10);
        let chunks: Vec<_> = PackedReader::open(&path)
            .unwrap()
            .chunks(3)
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            chunks.iter().map(Vec::len).collect::<Vec<_>>(),
            [3, 3, 3, 1]
        );
        assert_eq!(chunks.concat(), records);
        assert_eq!(read_all(&path).unwrap(), records);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_torn_file_is_a_typed_error() {
        let path = temp("torn");
        std::fs::write(&path, [0u8; 70]).unwrap();
        match read_all(&path) {
            Err(DataError::PartialRecord { bytes: 70, .. }) => {}
            other => panic!("{other:?}"),
        }
        assert!(PackedWriter::append(&path).is_err());
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(read_all(&path), Err(DataError::Io { .. })));
    }
}
