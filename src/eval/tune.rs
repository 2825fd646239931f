//! The Texel tuner: fits every linear weight of the evaluation to game results.
//!
//! Each position is traced once; the trace makes the evaluation a linear function of the
//! weights (`scale * Σ count_i * (phase * mg_i + (1 - phase) * eg_i) + mop-up`, with phase
//! and scale frozen at their values under the starting weights). The tuner first fits the
//! constant `K` of the sigmoid `1 / (1 + e^(-K * eval))` to the results, then minimises the
//! mean squared error between that sigmoid and the target with full-batch Adam over all
//! weights at once, and finally writes the weights back into `params.rs` as Rust source.
//!
//! Data: lines `FEN | score | result`, with `score` a centipawn score from White's view
//! (used only when `lambda > 0`) and `result` 1.0, 0.5 or 0.0 for White. The last
//! `holdout` share of the lines is held out (the positions of one game are consecutive,
//! so a line-range split keeps games apart).

use super::layout::{NUM_PARAMS, SECTIONS};
use super::params::{PHASE_MAX, SCALE_NORMAL, WEIGHTS};
use super::trace;
use crate::board::Position;

use std::fmt;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// The marker lines in `params.rs` between which the tuner writes the weights.
const BEGIN_MARKER: &str = "// BEGIN TUNED WEIGHTS";
/// See `BEGIN_MARKER`.
const END_MARKER: &str = "// END TUNED WEIGHTS";

/// What to tune on and how.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The data file (`FEN | score | result` per line).
    pub data: PathBuf,
    /// Use at most this many lines (from the start of the file).
    pub max_positions: Option<usize>,
    /// The share of lines held out for validation, taken from the end.
    pub holdout: f64,
    /// Full-batch Adam steps.
    pub epochs: usize,
    /// Adam learning rate, in centipawns per step.
    pub learning_rate: f64,
    /// Target = `lambda * sigmoid(score) + (1 - lambda) * result`.
    pub lambda: f64,
    /// L2 pull of every weight towards its starting value (per centipawn squared), so
    /// that weights the data rarely exercises (far-advanced pieces, rare mobility counts)
    /// stay near their hand-set priors instead of fitting noise.
    pub regularization: f64,
    /// Where to write the tuned weights (a copy of `params.rs` with the table replaced);
    /// nothing is written when `None`.
    pub params_out: Option<PathBuf>,
    /// The `params.rs` whose non-tuned parts are kept.
    pub params_in: PathBuf,
}

/// A tuner failure.
#[derive(Debug)]
pub enum TuneError {
    /// Reading or writing a file failed.
    Io(PathBuf, std::io::Error),
    /// A data line could not be parsed.
    BadLine(usize, String),
    /// `params.rs` lacks the marker lines.
    NoMarkers(PathBuf),
    /// No usable positions.
    NoData,
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            TuneError::BadLine(n, why) => write!(f, "data line {n}: {why}"),
            TuneError::NoMarkers(p) => write!(f, "{}: tuned-weight markers not found", p.display()),
            TuneError::NoData => write!(f, "no usable positions"),
        }
    }
}

impl std::error::Error for TuneError {}

/// Errors before and after tuning.
#[derive(Clone, Debug)]
pub struct TuneReport {
    /// Training positions.
    pub train_positions: usize,
    /// Held-out positions.
    pub holdout_positions: usize,
    /// The fitted sigmoid constant.
    pub k: f64,
    /// Mean squared error against the game results, before: (training, held out).
    pub before: (f64, f64),
    /// The same after tuning.
    pub after: (f64, f64),
    /// The tuned weights, `(mg, eg)` per weight.
    pub weights: Vec<(f64, f64)>,
}

/// One traced position.
struct Sample {
    /// Range of this position in `Data::terms`.
    start: u32,
    len: u32,
    /// Middlegame share, 0..1.
    phase: f64,
    /// Endgame scale, 0..1.
    scale: f64,
    /// Constant part (mop-up), centipawns from White's view.
    offset: f64,
    /// Game result for White.
    result: f64,
    /// Engine score from White's view.
    score: f64,
}

/// Traced positions with their net (White minus Black) counts.
#[derive(Default)]
struct Data {
    samples: Vec<Sample>,
    terms: Vec<(u16, i16)>,
}

impl Data {
    fn push(&mut self, pos: &Position, result: f64, score: f64) {
        let t = trace(pos);
        if t.insufficient_material {
            return;
        }
        let start = self.terms.len() as u32;
        self.terms
            .extend(t.net_counts().map(|(i, n)| (i as u16, n as i16)));
        self.samples.push(Sample {
            start,
            len: self.terms.len() as u32 - start,
            phase: f64::from(t.phase) / f64::from(PHASE_MAX),
            scale: f64::from(t.scale) / f64::from(SCALE_NORMAL),
            offset: f64::from(t.mopup),
            result,
            score,
        });
    }

    fn terms(&self, s: &Sample) -> &[(u16, i16)] {
        &self.terms[s.start as usize..(s.start + s.len) as usize]
    }

    /// The linear evaluation of a sample, White's view.
    fn eval(&self, s: &Sample, w: &[(f64, f64)]) -> f64 {
        let mut mg = 0.0;
        let mut eg = 0.0;
        for &(i, n) in self.terms(s) {
            mg += w[i as usize].0 * f64::from(n);
            eg += w[i as usize].1 * f64::from(n);
        }
        (mg * s.phase + eg * (1.0 - s.phase)) * s.scale + s.offset
    }

    /// Mean squared error against the results.
    fn error(&self, w: &[(f64, f64)], k: f64) -> f64 {
        if self.samples.is_empty() {
            return 0.0;
        }
        let sum: f64 = self
            .samples
            .iter()
            .map(|s| (s.result - sigmoid(k * self.eval(s, w))).powi(2))
            .sum();
        sum / self.samples.len() as f64
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Parses one `FEN | score | result` line.
fn parse_line(line: &str) -> Result<(Position, f64, f64), String> {
    let mut parts = line.split('|').map(str::trim);
    let (Some(fen), Some(score), Some(result)) = (parts.next(), parts.next(), parts.next()) else {
        return Err("expected FEN | score | result".into());
    };
    let pos = Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
    let score: f64 = score.parse().map_err(|_| format!("bad score {score:?}"))?;
    let result: f64 = result
        .parse()
        .map_err(|_| format!("bad result {result:?}"))?;
    Ok((pos, score, result))
}

/// Reads and traces the data; returns (training, held out).
fn load(cfg: &TuneConfig) -> Result<(Data, Data), TuneError> {
    let io = |e| TuneError::Io(cfg.data.clone(), e);
    let file = std::fs::File::open(&cfg.data).map_err(io)?;
    let mut lines = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(io)?;
        if !line.trim().is_empty() {
            lines.push(line);
        }
        if cfg.max_positions.is_some_and(|m| lines.len() >= m) {
            break;
        }
    }
    let split = lines.len() - (lines.len() as f64 * cfg.holdout) as usize;
    let (mut train, mut held) = (Data::default(), Data::default());
    for (n, line) in lines.iter().enumerate() {
        let (pos, score, result) = parse_line(line).map_err(|e| TuneError::BadLine(n + 1, e))?;
        let data = if n < split { &mut train } else { &mut held };
        data.push(&pos, result, score);
    }
    if train.samples.is_empty() {
        return Err(TuneError::NoData);
    }
    Ok((train, held))
}

/// The K that minimises the error of the starting weights (golden-section search).
fn fit_k(data: &Data, w: &[(f64, f64)]) -> f64 {
    let (mut lo, mut hi) = (0.0005f64, 0.05f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if data.error(w, a) < data.error(w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Tunes the weights; `progress` receives a line of text now and then, `on_epoch` the
/// number of epochs done after each (for a progress bar).
pub fn tune(
    cfg: &TuneConfig,
    progress: &mut dyn FnMut(&str),
    on_epoch: &mut dyn FnMut(usize),
) -> Result<TuneReport, TuneError> {
    let (train, held) = load(cfg)?;
    progress(&format!(
        "loaded {} training and {} held-out positions, {} weights",
        train.samples.len(),
        held.samples.len(),
        NUM_PARAMS
    ));
    let start: Vec<(f64, f64)> = WEIGHTS
        .iter()
        .map(|s| (f64::from(s.mg()), f64::from(s.eg())))
        .collect();
    let mut w = start.clone();
    let k = fit_k(&train, &w);
    let before = (train.error(&w, k), held.error(&w, k));
    progress(&format!(
        "K = {k:.6}; error before: train {:.6}, held out {:.6}",
        before.0, before.1
    ));

    let targets: Vec<f64> = train
        .samples
        .iter()
        .map(|s| cfg.lambda * sigmoid(k * s.score) + (1.0 - cfg.lambda) * s.result)
        .collect();
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![(0.0, 0.0); NUM_PARAMS];
    let mut v = vec![(0.0, 0.0); NUM_PARAMS];
    let n = train.samples.len() as f64;
    for epoch in 1..=cfg.epochs {
        let mut grad = vec![(0.0f64, 0.0f64); NUM_PARAMS];
        for (s, &target) in train.samples.iter().zip(&targets) {
            let p = sigmoid(k * train.eval(s, &w));
            // d(error)/d(eval) for this sample, spread over the weights it uses.
            let d = -2.0 * (target - p) * p * (1.0 - p) * k * s.scale / n;
            let (dmg, deg) = (d * s.phase, d * (1.0 - s.phase));
            for &(i, c) in train.terms(s) {
                let c = f64::from(c);
                grad[i as usize].0 += dmg * c;
                grad[i as usize].1 += deg * c;
            }
        }
        let reg = 2.0 * cfg.regularization;
        for (g, (w, w0)) in grad.iter_mut().zip(w.iter().zip(&start)) {
            g.0 += reg * (w.0 - w0.0);
            g.1 += reg * (w.1 - w0.1);
        }
        let t = epoch as i32;
        let step = |g: f64, m: &mut f64, v: &mut f64, w: &mut f64| {
            *m = beta1 * *m + (1.0 - beta1) * g;
            *v = beta2 * *v + (1.0 - beta2) * g * g;
            let mhat = *m / (1.0 - beta1.powi(t));
            let vhat = *v / (1.0 - beta2.powi(t));
            *w -= cfg.learning_rate * mhat / (vhat.sqrt() + eps);
        };
        for i in 0..NUM_PARAMS {
            let (mi, vi, wi) = (&mut m[i], &mut v[i], &mut w[i]);
            step(grad[i].0, &mut mi.0, &mut vi.0, &mut wi.0);
            step(grad[i].1, &mut mi.1, &mut vi.1, &mut wi.1);
        }
        on_epoch(epoch);
        if epoch % 50 == 0 || epoch == cfg.epochs {
            progress(&format!(
                "epoch {epoch}: train {:.6}, held out {:.6}",
                train.error(&w, k),
                held.error(&w, k)
            ));
        }
    }
    let after = (train.error(&w, k), held.error(&w, k));
    progress(&format!(
        "error after: train {:.6}, held out {:.6}",
        after.0, after.1
    ));
    if let Some(out) = &cfg.params_out {
        write_params(&cfg.params_in, out, &w)?;
        progress(&format!("wrote {}", out.display()));
    }
    Ok(TuneReport {
        train_positions: train.samples.len(),
        holdout_positions: held.samples.len(),
        k,
        before,
        after,
        weights: w,
    })
}

/// The weight table as Rust source, one commented section after another.
pub fn weights_source(w: &[(f64, f64)]) -> String {
    let mut out = String::new();
    out.push_str("/// The tuned weights, section by section as listed in `layout::SECTIONS`.\n");
    out.push_str("#[rustfmt::skip]\npub const WEIGHTS: [S; NUM_PARAMS] = [\n");
    for &(name, start, len) in SECTIONS {
        out.push_str(&format!("    // {name}\n"));
        for row in w[start..start + len].chunks(8) {
            let cells: Vec<String> = row
                .iter()
                .map(|&(mg, eg)| format!("S({}, {}),", mg.round() as i32, eg.round() as i32))
                .collect();
            out.push_str(&format!("    {}\n", cells.join(" ")));
        }
    }
    out.push_str("];\n");
    out
}

/// Copies `params_in` to `params_out` with the weight table between the markers replaced.
fn write_params(params_in: &Path, params_out: &Path, w: &[(f64, f64)]) -> Result<(), TuneError> {
    let text = std::fs::read_to_string(params_in)
        .map_err(|e| TuneError::Io(params_in.to_path_buf(), e))?;
    let (Some(b), Some(e)) = (text.find(BEGIN_MARKER), text.find(END_MARKER)) else {
        return Err(TuneError::NoMarkers(params_in.to_path_buf()));
    };
    let begin_line_end = b + text[b..].find('\n').map_or(text.len() - b, |i| i + 1);
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..begin_line_end]);
    out.push_str(&weights_source(w));
    out.push_str(&text[e..]);
    std::fs::write(params_out, out).map_err(|e| TuneError::Io(params_out.to_path_buf(), e))
}

/// The error of the current weights on a data file, for checking a tuning run: (K, MSE).
pub fn current_error(data: &Path, max_positions: Option<usize>) -> Result<(f64, f64), TuneError> {
    let cfg = TuneConfig {
        data: data.to_path_buf(),
        max_positions,
        holdout: 0.0,
        epochs: 0,
        learning_rate: 0.0,
        lambda: 0.0,
        regularization: 0.0,
        params_out: None,
        params_in: PathBuf::new(),
    };
    let (train, _) = load(&cfg)?;
    let w: Vec<(f64, f64)> = WEIGHTS
        .iter()
        .map(|s| (f64::from(s.mg()), f64::from(s.eg())))
        .collect();
    let k = fit_k(&train, &w);
    Ok((k, train.error(&w, k)))
}
