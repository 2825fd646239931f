//! The resume record `OUT.progress`: the settings that decide the games and how far the
//! run got (see the module documentation of `datagen`).

use super::DatagenConfig;
use crate::data::DataError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Version of the sidecar's layout.
const SIDECAR_VERSION: u32 = 1;

/// The settings a sidecar holds and how far its run got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Sidecar {
    format: String,
    seed: u64,
    nodes: u64,
    random_plies: usize,
    /// `max_opening_score`: a number, or `none`.
    opening_balance: String,
    openings_hash: u64,
    openings_name: String,
    /// `hce`, or `nnue:` and the network's hash.
    evaluation: String,
    /// Most pieces of the tables that adjudicate games; 0 without.
    tablebases: u32,
    pub(super) games_done: usize,
    pub(super) bytes: u64,
}

impl Sidecar {
    pub(super) fn new(cfg: &DatagenConfig, games_done: usize, bytes: u64) -> Sidecar {
        Sidecar {
            format: cfg.format.name().to_string(),
            seed: cfg.seed,
            nodes: cfg.nodes,
            random_plies: cfg.random_plies,
            opening_balance: opening_balance_name(cfg.max_opening_score),
            openings_hash: openings_hash(&cfg.openings),
            openings_name: cfg.openings_name.clone(),
            evaluation: evaluation_name(cfg),
            tablebases: if cfg.tablebase_adjudication {
                crate::tablebase::max_pieces()
            } else {
                0
            },
            games_done,
            bytes,
        }
    }

    pub(super) fn to_text(&self) -> String {
        format!(
            "# ladya datagen progress: the settings of the run writing the file next to this\n\
             # one and how far it got. Delete it to start a new run appended to the file.\n\
             version={SIDECAR_VERSION}\nformat={}\nseed={}\nnodes={}\nrandom_plies={}\n\
             max_opening_score={}\nopenings_hash={:016x}\nopenings={}\nevaluation={}\n\
             tablebases={}\ngames_done={}\nbytes={}\n",
            self.format,
            self.seed,
            self.nodes,
            self.random_plies,
            self.opening_balance,
            self.openings_hash,
            self.openings_name,
            self.evaluation,
            self.tablebases,
            self.games_done,
            self.bytes
        )
    }

    pub(super) fn parse(text: &str) -> Result<Sidecar, String> {
        let mut map = BTreeMap::new();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (k, v) = line
                .split_once('=')
                .ok_or_else(|| format!("line '{line}' is not key=value"))?;
            map.insert(k, v);
        }
        let get = |k: &str| map.get(k).copied().ok_or_else(|| format!("no {k}"));
        fn num<T: std::str::FromStr>(k: &str, v: &str) -> Result<T, String> {
            v.parse().map_err(|_| format!("{k}={v} is not a number"))
        }
        let version: u32 = num("version", get("version")?)?;
        if version != SIDECAR_VERSION {
            return Err(format!(
                "version {version} (this build reads {SIDECAR_VERSION})"
            ));
        }
        Ok(Sidecar {
            format: get("format")?.to_string(),
            seed: num("seed", get("seed")?)?,
            nodes: num("nodes", get("nodes")?)?,
            random_plies: num("random_plies", get("random_plies")?)?,
            // Sidecars from before the balance check started games from any opening.
            opening_balance: get("max_opening_score").unwrap_or("none").to_string(),
            openings_hash: u64::from_str_radix(get("openings_hash")?, 16)
                .map_err(|_| "openings_hash is not hexadecimal".to_string())?,
            openings_name: get("openings")?.to_string(),
            // Sidecars from before networks were all of hand-crafted runs.
            evaluation: get("evaluation").unwrap_or("hce").to_string(),
            // Sidecars from before tablebase adjudication had none.
            tablebases: num("tablebases", get("tablebases").unwrap_or("0"))?,
            games_done: num("games_done", get("games_done")?)?,
            bytes: num("bytes", get("bytes")?)?,
        })
    }

    /// The first setting that differs from `now`'s.
    pub(super) fn mismatch(&self, now: &Sidecar) -> Option<(&'static str, String, String)> {
        let checks = [
            ("format", self.format.clone(), now.format.clone()),
            ("seed", self.seed.to_string(), now.seed.to_string()),
            ("nodes", self.nodes.to_string(), now.nodes.to_string()),
            (
                "evaluation",
                self.evaluation.clone(),
                now.evaluation.clone(),
            ),
            (
                "tablebase adjudication up to pieces",
                self.tablebases.to_string(),
                now.tablebases.to_string(),
            ),
            (
                "random plies",
                self.random_plies.to_string(),
                now.random_plies.to_string(),
            ),
            (
                "largest opening score",
                self.opening_balance.clone(),
                now.opening_balance.clone(),
            ),
            (
                "openings",
                format!(
                    "'{}' (hash {:016x})",
                    self.openings_name, self.openings_hash
                ),
                format!("'{}' (hash {:016x})", now.openings_name, now.openings_hash),
            ),
        ];
        checks.into_iter().find_map(|(field, a, b)| {
            let differs = if field == "openings" {
                self.openings_hash != now.openings_hash
            } else {
                a != b
            };
            differs.then_some((field, a, b))
        })
    }
}

/// How the sidecar writes `max_opening_score`.
fn opening_balance_name(max: Option<i32>) -> String {
    max.map_or("none".to_string(), |cp| cp.to_string())
}

/// How the sidecar names the evaluation of a run.
fn evaluation_name(cfg: &DatagenConfig) -> String {
    match &cfg.network {
        Some(net) => format!("nnue:{:016x}", net.header().hash),
        None => "hce".to_string(),
    }
}

/// FNV-1a over the opening lines: the sidecar notices a changed openings file.
fn openings_hash(openings: &[String]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for line in openings {
        for &b in line.as_bytes().iter().chain(b"\n") {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The sidecar of the output `out`: `OUT.progress`.
pub fn sidecar_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_os_string();
    name.push(".progress");
    PathBuf::from(name)
}

pub(super) fn write_sidecar(path: &Path, sidecar: &Sidecar) -> Result<(), DataError> {
    let mut tmp = path.as_os_str().to_os_string();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, sidecar.to_text()).map_err(|e| DataError::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| DataError::io(path, e))
}
