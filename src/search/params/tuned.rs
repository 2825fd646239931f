//! The value behind a tunable: a constant in the shipped build, an atomic a tuner sets
//! in a `--features tune` build. Either way the search reads it with `.get()`.

/// OpenBench's SPSA learning rate at the end of a run, the same for every tunable.
pub const R_END: f64 = 0.002;

/// A tunable's value.
#[cfg(not(feature = "tune"))]
#[derive(Clone, Copy, Debug)]
pub struct Tuned(i32);

#[cfg(not(feature = "tune"))]
impl Tuned {
    /// The value `v`.
    pub const fn new(v: i32) -> Tuned {
        Tuned(v)
    }

    /// The value.
    #[inline(always)]
    pub const fn get(&self) -> i32 {
        self.0
    }
}

/// A tunable's value, which `setoption` changes.
#[cfg(feature = "tune")]
#[derive(Debug)]
pub struct Tuned(std::sync::atomic::AtomicI32);

#[cfg(feature = "tune")]
impl Tuned {
    /// The value `v` at start-up.
    pub const fn new(v: i32) -> Tuned {
        Tuned(std::sync::atomic::AtomicI32::new(v))
    }

    /// The value now.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Sets the value (searches that start afterwards use it).
    pub fn set(&self, v: i32) {
        self.0.store(v, std::sync::atomic::Ordering::Relaxed)
    }
}

/// One tunable: its name (the UCI option's), value, default, range and SPSA step.
#[derive(Debug)]
pub struct TunableSpec {
    /// The constant's name, also the option's.
    pub name: &'static str,
    /// Where the value lives.
    pub value: &'static Tuned,
    /// The shipped value.
    pub default: i32,
    /// Smallest value.
    pub min: i32,
    /// Largest value.
    pub max: i32,
    /// SPSA's perturbation at the end of a run, in the value's units.
    pub c_end: f64,
}

impl TunableSpec {
    /// The line OpenBench's SPSA tab takes: `name, int, value, min, max, c_end, r_end`.
    pub fn openbench_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name,
            self.value.get(),
            self.min,
            self.max,
            self.c_end,
            R_END
        )
    }
}
