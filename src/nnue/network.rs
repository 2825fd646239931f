//! The quantized network: its weights, its file format and the embedded default network.
//!
//! File format (little-endian), a 64-byte header and the weights:
//!
//! | bytes  | field                                                              |
//! |--------|--------------------------------------------------------------------|
//! | 0..8   | magic `LADYANUE`                                                   |
//! | 8..12  | format version (`u32`, 1)                                          |
//! | 12..16 | inputs per perspective (`u32`, 768 times the king buckets)         |
//! | 16..20 | hidden neurons per perspective (`u32`)                             |
//! | 20..24 | output buckets (`u32`: 1, or [`OUTPUT_BUCKETS`])                    |
//! | 24..28 | activation (`u32`, 1 = SCReLU)                                     |
//! | 28..32 | QA, the accumulator's quantization (`u32`)                         |
//! | 32..36 | QB, the output weights' quantization (`u32`)                       |
//! | 36..40 | evaluation scale, centipawns per unit of output (`u32`)            |
//! | 40..48 | FNV-1a 64 hash of every byte after the header (`u64`)              |
//! | 48..52 | king buckets (`u32`: 0 none, 1 [`KingBuckets::Mirrored4`])          |
//! | 52..64 | zero                                                               |
//!
//! Then the input weights (`i16`, one row of `HIDDEN` per input: the king buckets' sets
//! one after the other), the accumulator biases
//! (`HIDDEN` x `i16`), the output weights (per bucket `2 x HIDDEN` x `i16`, side to move
//! first) and the output biases (per bucket an `i32`, in units of `QA * QB`).
//!
//! # Output buckets
//! A network may have one output neuron per bucket of material (pieces on the board,
//! kings included): the same accumulators, read by the weights of the bucket the
//! position is in, so the last layer can weigh the features differently in the
//! middlegame and in endings at no cost in speed. Files with one bucket (generation 1)
//! still load, and so do files without king buckets (every generation up to 17).

use super::features::KingBuckets;
use std::sync::{Arc, OnceLock};

/// Hidden neurons per perspective.
pub const HIDDEN: usize = 256;
/// Quantization of the accumulator: 1.0 in the float network is `QA` here.
pub const QA: i32 = 255;
/// Quantization of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output (the trainer's sigmoid scale).
pub const EVAL_SCALE: i32 = 400;
/// Output buckets of a bucketed network (see [`output_bucket`]).
pub const OUTPUT_BUCKETS: usize = 8;

/// The output bucket of a position with `pieces` pieces (kings included) in a network
/// with `buckets` buckets: four piece counts a bucket, 2-5 pieces in the first, 30-32 in
/// the last.
#[inline(always)]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    if buckets == 1 {
        0
    } else {
        (pieces.saturating_sub(2) as usize / 4).min(buckets - 1)
    }
}

const MAGIC: &[u8; 8] = b"LADYANUE";
const VERSION: u32 = 1;
const ACTIVATION_SCRELU: u32 = 1;
const HEADER_BYTES: usize = 64;
/// Header bytes 12..40 for a network with `kings` king buckets and `buckets` output
/// buckets: inputs, hidden, buckets, activation, QA, QB, scale.
const fn architecture(kings: KingBuckets, buckets: usize) -> [u32; 7] {
    [
        kings.inputs() as u32,
        HIDDEN as u32,
        buckets as u32,
        ACTIVATION_SCRELU,
        QA as u32,
        QB as u32,
        EVAL_SCALE as u32,
    ]
}

/// Bytes after the header of a network with `kings` king buckets and `buckets` output
/// buckets.
const fn body_bytes(kings: KingBuckets, buckets: usize) -> usize {
    2 * (kings.inputs() * HIDDEN + HIDDEN + buckets * 2 * HIDDEN) + 4 * buckets
}
/// The largest output weight whose product with a clamped activation fits an `i16`.
const MAX_OUTPUT_WEIGHT: i16 = (i16::MAX as i32 / QA) as i16;

/// The network the binary carries: `nets/default.nnue` (see `nets/README.md`), or the file
/// a build names with `EVALFILE=` (`build.rs`).
static EMBEDDED: &[u8] = include_bytes!(env!("LADYA_NETWORK"));

/// Why a file is not a network this engine can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file could not be read.
    Io(String),
    /// Shorter or longer than the header says.
    Size {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// Not a Ladya network file.
    Magic,
    /// A format version this build does not read.
    Version(u32),
    /// Another architecture than this build's.
    Architecture(String),
    /// The weights do not match the header's hash (a corrupt file).
    Hash,
    /// An output weight too large for the integer inference.
    OutputWeight(i16),
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetworkError::Io(e) => write!(f, "cannot read the network: {e}"),
            NetworkError::Size { expected, found } => {
                write!(f, "network file has {found} bytes, expected {expected}")
            }
            NetworkError::Magic => write!(f, "not a Ladya network (bad magic)"),
            NetworkError::Version(v) => write!(f, "network format version {v} (this build reads {VERSION})"),
            NetworkError::Architecture(a) => write!(f, "network architecture {a} (this build runs 768 or 768x4 (king buckets) -> {HIDDEN}x2 -> 1 or {OUTPUT_BUCKETS} buckets, SCReLU, QA {QA}, QB {QB}, scale {EVAL_SCALE})"),
            NetworkError::Hash => write!(f, "network weights do not match their hash (corrupt file)"),
            NetworkError::OutputWeight(w) => write!(f, "output weight {w} out of range (|w| <= {MAX_OUTPUT_WEIGHT})"),
        }
    }
}

impl std::error::Error for NetworkError {}

/// What the header of a network file says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetworkHeader {
    /// Hidden neurons per perspective.
    pub hidden: u32,
    /// Output buckets.
    pub buckets: u32,
    /// The inputs' king buckets.
    pub kings: KingBuckets,
    /// FNV-1a 64 hash of the weights.
    pub hash: u64,
}

/// The quantized weights.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// `kings.inputs()` rows of `HIDDEN`.
    pub(super) feature_weights: Vec<i16>,
    pub(super) feature_bias: Vec<i16>,
    /// Per bucket, the side to move's half first.
    pub(super) output_weights: Vec<i16>,
    /// Per bucket.
    pub(super) output_bias: Vec<i32>,
    pub(super) buckets: usize,
    pub(super) kings: KingBuckets,
    header: NetworkHeader,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({:016x})", self.header.hash)
    }
}

/// FNV-1a, 64 bits: a hash of the weights in the header, so a corrupt file is caught.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

impl Network {
    /// Reads a network from the bytes of its file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_BYTES {
            return Err(NetworkError::Size {
                expected: HEADER_BYTES + body_bytes(KingBuckets::None, OUTPUT_BUCKETS),
                found: bytes.len(),
            });
        }
        if &bytes[0..8] != MAGIC {
            return Err(NetworkError::Magic);
        }
        let version = read_u32(bytes, 8);
        if version != VERSION {
            return Err(NetworkError::Version(version));
        }
        let arch = [12, 16, 20, 24, 28, 32, 36].map(|at| read_u32(bytes, at));
        let buckets = arch[2] as usize;
        let king_code = read_u32(bytes, 48);
        let kings = KingBuckets::from_code(king_code);
        if ![1, OUTPUT_BUCKETS].contains(&buckets)
            || kings.is_none_or(|kings| arch != architecture(kings, buckets))
        {
            return Err(NetworkError::Architecture(format!(
                "{}->{}x2->{} activation {}, QA {}, QB {}, scale {}, king buckets {}",
                arch[0], arch[1], arch[2], arch[3], arch[4], arch[5], arch[6], king_code
            )));
        }
        let kings = kings.expect("checked");
        if bytes.len() != HEADER_BYTES + body_bytes(kings, buckets) {
            return Err(NetworkError::Size {
                expected: HEADER_BYTES + body_bytes(kings, buckets),
                found: bytes.len(),
            });
        }
        let hash = u64::from_le_bytes(bytes[40..48].try_into().expect("8 bytes"));
        let body = &bytes[HEADER_BYTES..];
        if fnv1a(body) != hash {
            return Err(NetworkError::Hash);
        }
        let mut words = body
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let feature_weights: Vec<i16> = words.by_ref().take(kings.inputs() * HIDDEN).collect();
        let feature_bias: Vec<i16> = words.by_ref().take(HIDDEN).collect();
        let output_weights: Vec<i16> = words.by_ref().take(buckets * 2 * HIDDEN).collect();
        let output_bias = body[body.len() - 4 * buckets..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if let Some(&w) = output_weights
            .iter()
            .find(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16)
        {
            return Err(NetworkError::OutputWeight(w));
        }
        Ok(Network {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            buckets,
            kings,
            header: NetworkHeader {
                hidden: HIDDEN as u32,
                buckets: buckets as u32,
                kings,
                hash,
            },
        })
    }

    /// Reads a network file.
    pub fn load(path: &std::path::Path) -> Result<Network, NetworkError> {
        let bytes = std::fs::read(path)
            .map_err(|e| NetworkError::Io(format!("{}: {e}", path.display())))?;
        Network::from_bytes(&bytes)
    }

    /// The bytes of a network file holding these weights (the trainer's export).
    /// `feature_weights` is `kings.inputs()` rows of `HIDDEN`; `output_weights` per bucket
    /// the side to move's half first; `output_bias` per bucket (its length is the number
    /// of buckets), in units of `QA * QB`.
    pub fn file_bytes(
        kings: KingBuckets,
        feature_weights: &[i16],
        feature_bias: &[i16],
        output_weights: &[i16],
        output_bias: &[i32],
    ) -> Vec<u8> {
        let buckets = output_bias.len();
        assert_eq!(feature_weights.len(), kings.inputs() * HIDDEN);
        assert_eq!(feature_bias.len(), HIDDEN);
        assert_eq!(output_weights.len(), buckets * 2 * HIDDEN);
        let mut body = Vec::with_capacity(body_bytes(kings, buckets));
        for w in feature_weights
            .iter()
            .chain(feature_bias)
            .chain(output_weights)
        {
            body.extend_from_slice(&w.to_le_bytes());
        }
        for b in output_bias {
            body.extend_from_slice(&b.to_le_bytes());
        }
        let mut bytes = Vec::with_capacity(HEADER_BYTES + body.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        for v in architecture(kings, buckets) {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.extend_from_slice(&fnv1a(&body).to_le_bytes());
        bytes.extend_from_slice(&kings.code().to_le_bytes());
        bytes.resize(HEADER_BYTES, 0);
        bytes.extend_from_slice(&body);
        bytes
    }

    /// The quantized weights in the order of the file: input weights (`kings().inputs()`
    /// rows of `HIDDEN`), accumulator biases, output weights (per bucket, side to move first) and
    /// output biases (per bucket). The trainer reads them to warm-start from a network.
    pub fn weights(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (
            &self.feature_weights,
            &self.feature_bias,
            &self.output_weights,
            &self.output_bias,
        )
    }

    /// The inputs' king buckets.
    pub fn kings(&self) -> KingBuckets {
        self.kings
    }

    /// What the header said.
    pub fn header(&self) -> NetworkHeader {
        self.header
    }
}

/// The network embedded in the binary, parsed once.
pub fn default_network() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| {
        Arc::new(Network::from_bytes(EMBEDDED).expect("the embedded network is valid"))
    })
    .clone()
}
