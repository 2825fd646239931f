//! The engine's UCI options: one declarative table, the current values, and typed errors
//! for `setoption`.
//!
//! HOW TO ADD AN OPTION (e.g. the book's `OwnBook`, `BookFile`, `BookDepth`, `BookVariety`):
//! 1. add one line to the `uci_options!` table: its [`OptionId`] variant, its handle and
//!    kind, name, default and range (`OwnBook, OWN_BOOK: CheckOption { name: "OwnBook",
//!    default: false };`); the variant, the handle and its `OPTIONS` entry all come from it;
//! 2. read the value where you need it with `options.check(OWN_BOOK)`,
//!    `options.spin(BOOK_DEPTH)` or `options.string(BOOK_FILE)`: a misspelt option, or a
//!    spin read as a string, is a compile error, not a silent 0 or a panic;
//! 3. if setting it must *do* something at once (load a file, resize a table), add an arm
//!    to `Engine::apply_option` in `uci/engine.rs`; returning an error there rejects the
//!    value and restores the old one.
//!
//! `uci` lists the options in table order; `setoption` matches names case-insensitively and
//! validates values against the table, so nothing else needs to change.

use crate::book::{BUILTIN_BOOK, DEFAULT_BOOK_DEPTH, MAX_BOOK_DEPTH};
use std::fmt;

/// Declares the options from one table: the [`OptionId`] enum (a variant each, in table
/// order), a typed handle constant each (`HASH: SpinOption`, read with
/// [`Options::spin`]), and [`OPTIONS`], the table `uci` lists and `setoption` checks.
macro_rules! uci_options {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident, $handle:ident: $ty:ident { $($field:ident: $value:expr),* };
    )*) => {
        /// Every option, in the order of [`OPTIONS`]: how the engine reads a value.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum OptionId {
            $($(#[doc = $doc])* $variant,)*
        }
        $(
            $(#[doc = $doc])*
            pub const $handle: $ty = $ty { id: OptionId::$variant, $($field: $value),* };
        )*
        /// Every option the engine announces, in the order `uci` lists them.
        pub const OPTIONS: &[OptionSpec] = &[$($handle.spec()),*];
    };
}

/// What kind of option, with its default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check`: a boolean.
    Check {
        /// Value at start-up.
        default: bool,
    },
    /// `type spin`: an integer in `min..=max`.
    Spin {
        /// Value at start-up.
        default: i64,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// `type button`: no value, pressing it does something.
    Button,
    /// `type string`: free text (file names; case is kept).
    String {
        /// Value at start-up.
        default: &'static str,
    },
}

/// One option as announced to the GUI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// How the engine refers to it.
    pub id: OptionId,
    /// The name, as announced (matching is case-insensitive).
    pub name: &'static str,
    /// Its type, default and range.
    pub kind: OptionKind,
}

/// A `check` option: [`Options::check`] reads it as a `bool`.
#[derive(Clone, Copy, Debug)]
pub struct CheckOption {
    /// Its place in [`OPTIONS`].
    pub id: OptionId,
    /// The name, as announced.
    pub name: &'static str,
    /// Value at start-up.
    pub default: bool,
}

/// A `spin` option: [`Options::spin`] reads it as an `i64`.
#[derive(Clone, Copy, Debug)]
pub struct SpinOption {
    /// Its place in [`OPTIONS`].
    pub id: OptionId,
    /// The name, as announced.
    pub name: &'static str,
    /// Value at start-up.
    pub default: i64,
    /// Smallest accepted value.
    pub min: i64,
    /// Largest accepted value.
    pub max: i64,
}

/// A `string` option: [`Options::string`] reads it as a `&str`.
#[derive(Clone, Copy, Debug)]
pub struct StringOption {
    /// Its place in [`OPTIONS`].
    pub id: OptionId,
    /// The name, as announced.
    pub name: &'static str,
    /// Value at start-up.
    pub default: &'static str,
}

/// A `button`: no value to read.
#[derive(Clone, Copy, Debug)]
pub struct ButtonOption {
    /// Its place in [`OPTIONS`].
    pub id: OptionId,
    /// The name, as announced.
    pub name: &'static str,
}

impl CheckOption {
    /// Its line in the table.
    pub const fn spec(self) -> OptionSpec {
        OptionSpec {
            id: self.id,
            name: self.name,
            kind: OptionKind::Check {
                default: self.default,
            },
        }
    }
}

impl SpinOption {
    /// Its line in the table.
    pub const fn spec(self) -> OptionSpec {
        OptionSpec {
            id: self.id,
            name: self.name,
            kind: OptionKind::Spin {
                default: self.default,
                min: self.min,
                max: self.max,
            },
        }
    }
}

impl StringOption {
    /// Its line in the table.
    pub const fn spec(self) -> OptionSpec {
        OptionSpec {
            id: self.id,
            name: self.name,
            kind: OptionKind::String {
                default: self.default,
            },
        }
    }
}

impl ButtonOption {
    /// Its line in the table.
    pub const fn spec(self) -> OptionSpec {
        OptionSpec {
            id: self.id,
            name: self.name,
            kind: OptionKind::Button,
        }
    }
}

/// Default transposition table size in MB.
pub const DEFAULT_HASH_MB: i64 = 16;
/// Largest transposition table in MB.
pub const MAX_HASH_MB: i64 = 65_536;
/// Default time reserved per move for the GUI and the operating system, in ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: i64 = 30;

// Every option the engine announces, once, in the order `uci` lists them: its variant of
// `OptionId`, its typed handle and its line in `OPTIONS` all come from this table.
uci_options! {
    /// `Hash`: transposition table size in MB.
    Hash, HASH: SpinOption { name: "Hash", default: DEFAULT_HASH_MB, min: 1, max: MAX_HASH_MB };
    // Search threads (Lazy SMP, `search::Searcher::set_threads`).
    /// `Threads`: search threads.
    Threads, THREADS: SpinOption {
        name: "Threads",
        default: 1,
        min: 1,
        max: crate::search::MAX_THREADS as i64
    };
    /// `Clear Hash`: a button that empties the table.
    ClearHash, CLEAR_HASH: ButtonOption { name: "Clear Hash" };
    /// `Ponder`: the GUI may let the engine think on the opponent's time.
    Ponder, PONDER: CheckOption { name: "Ponder", default: false };
    /// `MultiPV`: lines reported.
    MultiPv, MULTI_PV: SpinOption { name: "MultiPV", default: 1, min: 1, max: 256 };
    /// `Move Overhead`: ms kept back per move.
    MoveOverhead, MOVE_OVERHEAD: SpinOption {
        name: "Move Overhead",
        default: DEFAULT_MOVE_OVERHEAD_MS,
        min: 0,
        max: 5000
    };
    /// `UCI_Chess960`: castling moves as king-takes-rook.
    Chess960, CHESS960: CheckOption { name: "UCI_Chess960", default: false };
    // The opening book (`book::BookPlayer`). Off by default: tournament managers that
    // bring their own openings must not be surprised.
    /// `OwnBook`: play from the opening book.
    OwnBook, OWN_BOOK: CheckOption { name: "OwnBook", default: false };
    /// `BookFile`: the book.
    BookFile, BOOK_FILE: StringOption { name: "BookFile", default: BUILTIN_BOOK };
    /// `BookDepth`: book moves up to this ply.
    BookDepth, BOOK_DEPTH: SpinOption {
        name: "BookDepth",
        default: DEFAULT_BOOK_DEPTH as i64,
        min: 0,
        max: MAX_BOOK_DEPTH as i64
    };
    /// `BookVariety`: choose among book moves by weight.
    BookVariety, BOOK_VARIETY: CheckOption { name: "BookVariety", default: true };
    // The evaluation: the network (embedded, or another file) or the hand-crafted one.
    /// `UseNNUE`: the network, or the hand-crafted evaluation.
    UseNnue, USE_NNUE: CheckOption { name: "UseNNUE", default: crate::nnue::USE_NNUE_BY_DEFAULT };
    /// `EvalFile`: the network file.
    EvalFile, EVAL_FILE: StringOption { name: "EvalFile", default: EMBEDDED_NETWORK };
    // Endgame tablebases (`tablebase`, `search::TablebaseSettings`), named as every
    // engine names them so GUIs and tournament managers fill them in.
    /// `SyzygyPath`: folders of Syzygy tablebases.
    SyzygyPath, SYZYGY_PATH: StringOption { name: "SyzygyPath", default: "<empty>" };
    /// `SyzygyProbeDepth`: least remaining depth to probe the largest tables.
    SyzygyProbeDepth, SYZYGY_PROBE_DEPTH: SpinOption {
        name: "SyzygyProbeDepth",
        default: 1,
        min: 1,
        max: 100
    };
    /// `SyzygyProbeLimit`: most pieces of a probed position.
    SyzygyProbeLimit, SYZYGY_PROBE_LIMIT: SpinOption {
        name: "SyzygyProbeLimit",
        default: crate::tablebase::MAX_TABLE_PIECES as i64,
        min: 0,
        max: crate::tablebase::MAX_TABLE_PIECES as i64
    };
    /// `Syzygy50MoveRule`: cursed wins are draws.
    Syzygy50MoveRule, SYZYGY_50_MOVE_RULE: CheckOption { name: "Syzygy50MoveRule", default: true };
    // Win/draw/loss chances beside the score, as GUIs show them (`search::wdl`).
    /// `UCI_ShowWDL`: `wdl W D L` (per mille, for the side to move) in `info` lines.
    ShowWdl, SHOW_WDL: CheckOption { name: "UCI_ShowWDL", default: false };
    // Playing weaker (`search::strength`), with the names GUIs send.
    /// `UCI_LimitStrength`: play at `UCI_Elo`.
    LimitStrength, LIMIT_STRENGTH: CheckOption { name: "UCI_LimitStrength", default: false };
    /// `UCI_Elo`: the strength to play at.
    Elo, ELO: SpinOption {
        name: "UCI_Elo",
        default: crate::search::strength::MIN_ELO as i64,
        min: crate::search::strength::MIN_ELO as i64,
        max: crate::search::strength::MAX_ELO as i64
    };
    /// `Skill Level`: 0-20, the same weakening on a coarser scale.
    SkillLevel, SKILL_LEVEL: SpinOption { name: "Skill Level", default: 20, min: 0, max: 20 };
    /// `StrengthSeed`: seed of the weakened move choice (0: a new one each move).
    StrengthSeed, STRENGTH_SEED: SpinOption {
        name: "StrengthSeed",
        default: 0,
        min: 0,
        max: i32::MAX as i64
    };
}

/// The `EvalFile` value that names the network built into the binary.
pub const EMBEDDED_NETWORK: &str = "<embedded>";

/// A current option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// Of a check option.
    Check(bool),
    /// Of a spin option.
    Spin(i64),
    /// Of a string option.
    Text(String),
    /// A button has no value.
    Button,
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    UnknownOption(String),
    /// The option needs a value and none was given.
    MissingValue(&'static str),
    /// The value does not fit the option's type or range.
    BadValue {
        /// The option.
        name: &'static str,
        /// The value given.
        value: String,
        /// What would have been accepted.
        expected: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::UnknownOption(name) => write!(f, "no such option '{name}'"),
            OptionError::MissingValue(name) => write!(f, "option '{name}' needs a value"),
            OptionError::BadValue {
                name,
                value,
                expected,
            } => write!(
                f,
                "invalid value '{value}' for option '{name}' (expected {expected})"
            ),
        }
    }
}

impl std::error::Error for OptionError {}

impl OptionSpec {
    /// The `option name … type …` line of the `uci` answer.
    pub fn uci_line(&self) -> String {
        let name = self.name;
        match self.kind {
            OptionKind::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            OptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Button => format!("option name {name} type button"),
            OptionKind::String { default } => {
                let default = if default.is_empty() {
                    "<empty>"
                } else {
                    default
                };
                format!("option name {name} type string default {default}")
            }
        }
    }

    fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionKind::Check { default } => OptionValue::Check(default),
            OptionKind::Spin { default, .. } => OptionValue::Spin(default),
            OptionKind::Button => OptionValue::Button,
            OptionKind::String { default } => OptionValue::Text(default.to_string()),
        }
    }

    /// Checks `value` against the option's type and range.
    fn parse_value(&self, value: Option<&str>) -> Result<OptionValue, OptionError> {
        let name = self.name;
        let value = value.map(str::trim);
        let bad = |value: &str, expected: String| OptionError::BadValue {
            name,
            value: value.to_string(),
            expected,
        };
        match self.kind {
            OptionKind::Button => Ok(OptionValue::Button),
            OptionKind::Check { .. } => {
                let v = value.ok_or(OptionError::MissingValue(name))?;
                match v.to_ascii_lowercase().as_str() {
                    "true" => Ok(OptionValue::Check(true)),
                    "false" => Ok(OptionValue::Check(false)),
                    _ => Err(bad(v, "true or false".to_string())),
                }
            }
            OptionKind::Spin { min, max, .. } => {
                let v = value.ok_or(OptionError::MissingValue(name))?;
                match v.parse::<i64>() {
                    Ok(n) if (min..=max).contains(&n) => Ok(OptionValue::Spin(n)),
                    _ => Err(bad(v, format!("an integer from {min} to {max}"))),
                }
            }
            OptionKind::String { .. } => {
                let v = value.unwrap_or("");
                // GUIs send `<empty>` for an empty string.
                let v = if v == "<empty>" { "" } else { v };
                Ok(OptionValue::Text(v.to_string()))
            }
        }
    }
}

/// The table of options with their current values.
#[derive(Clone, Debug)]
pub struct Options {
    values: Vec<OptionValue>,
}

impl Default for Options {
    fn default() -> Self {
        Options::new()
    }
}

impl Options {
    /// All options at their defaults.
    pub fn new() -> Options {
        Options {
            values: OPTIONS.iter().map(OptionSpec::default_value).collect(),
        }
    }

    /// The option called `name` (any case, surrounding spaces ignored).
    pub fn find(name: &str) -> Option<&'static OptionSpec> {
        let name = name.trim();
        OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name))
    }

    fn index(name: &str) -> Option<usize> {
        OPTIONS
            .iter()
            .position(|o| o.name.eq_ignore_ascii_case(name))
    }

    fn value(&self, id: OptionId) -> &OptionValue {
        &self.values[id as usize]
    }

    /// The value of a check option.
    pub fn check(&self, option: CheckOption) -> bool {
        matches!(self.value(option.id), OptionValue::Check(true))
    }

    /// The value of a spin option.
    pub fn spin(&self, option: SpinOption) -> i64 {
        match self.value(option.id) {
            OptionValue::Spin(n) => *n,
            // Values are made from the table's kinds, and each handle makes its own line.
            other => unreachable!("{} holds {other:?}", option.name),
        }
    }

    /// The value of a string option.
    pub fn string(&self, option: StringOption) -> &str {
        match self.value(option.id) {
            OptionValue::Text(s) => s,
            other => unreachable!("{} holds {other:?}", option.name),
        }
    }

    /// Validates and stores a value. Returns the option (for its canonical name) and the
    /// value it had before, so the caller can restore it if applying the new one fails.
    pub fn set(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(&'static OptionSpec, OptionValue), OptionError> {
        let i = Options::index(name.trim())
            .ok_or_else(|| OptionError::UnknownOption(name.trim().to_string()))?;
        let spec = &OPTIONS[i];
        let new = spec.parse_value(value)?;
        let old = std::mem::replace(&mut self.values[i], new);
        Ok((spec, old))
    }

    /// Puts back a value returned by `set`.
    pub fn restore(&mut self, spec: &OptionSpec, old: OptionValue) {
        self.values[spec.id as usize] = old;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_values_are_case_insensitive() {
        let mut o = Options::new();
        o.set("hash", Some("32")).unwrap();
        assert_eq!(o.spin(HASH), 32);
        o.set("  move overhead ", Some(" 100 ")).unwrap();
        assert_eq!(o.spin(MOVE_OVERHEAD), 100);
        o.set("uci_chess960", Some("TRUE")).unwrap();
        assert!(o.check(CHESS960));
    }

    #[test]
    fn bad_values_leave_the_option_unchanged() {
        let mut o = Options::new();
        assert!(o.set("Hash", Some("0")).is_err());
        assert!(o.set("Hash", Some("65537")).is_err());
        assert!(o.set("Hash", Some("lots")).is_err());
        assert!(o.set("Hash", None).is_err());
        assert!(o.set("Ponder", Some("yes")).is_err());
        assert!(o.set("Nonsense", Some("1")).is_err());
        assert_eq!(o.spin(HASH), DEFAULT_HASH_MB);
        assert!(!o.check(PONDER));
    }

    #[test]
    fn ids_follow_the_table_order() {
        for (i, spec) in OPTIONS.iter().enumerate() {
            assert_eq!(spec.id as usize, i, "{}", spec.name);
        }
        // Every value starts as its handle's default.
        let o = Options::new();
        for spec in OPTIONS {
            let value = o.value(spec.id).clone();
            assert_eq!(value, spec.default_value(), "{}", spec.name);
        }
        assert_eq!(o.string(EVAL_FILE), EMBEDDED_NETWORK);
        assert_eq!(o.spin(THREADS), 1);
    }

    #[test]
    fn uci_lines() {
        assert_eq!(
            OPTIONS[0].uci_line(),
            "option name Hash type spin default 16 min 1 max 65536"
        );
        assert_eq!(
            Options::find("clear hash").unwrap().uci_line(),
            "option name Clear Hash type button"
        );
    }
}
