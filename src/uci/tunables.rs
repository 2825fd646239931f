//! The search's tunables as UCI options, in a `--features tune` build only: `uci` lists
//! each as a `spin`, `setoption` sets it for the searches that follow. The tuner
//! (`tools/spsa.py`, or OpenBench's SPSA) plays games between builds set apart this way.

use super::options::OptionError;
use crate::search::params::{TunableSpec, TUNABLES};

/// The `option name … type spin …` lines of the tunables.
pub fn uci_lines() -> impl Iterator<Item = String> {
    TUNABLES.iter().map(|t| {
        format!(
            "option name {} type spin default {} min {} max {}",
            t.name, t.default, t.min, t.max
        )
    })
}

/// The tunable called `name` (case-insensitively), if there is one.
pub fn find(name: &str) -> Option<&'static TunableSpec> {
    TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))
}

/// Sets tunable `t` to `value`, an integer within its range.
pub fn set(t: &'static TunableSpec, value: Option<&str>) -> Result<(), OptionError> {
    let value = value.ok_or(OptionError::MissingValue(t.name))?;
    match value.trim().parse::<i32>() {
        Ok(v) if (t.min..=t.max).contains(&v) => {
            t.value.set(v);
            Ok(())
        }
        _ => Err(OptionError::BadValue {
            name: t.name,
            value: value.to_string(),
            expected: format!("an integer from {} to {}", t.min, t.max),
        }),
    }
}
