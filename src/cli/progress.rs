//! Progress of long terminal jobs: a bar with rate and ETA (indicatif) when stderr is a
//! terminal, plain lines every few seconds when it is not (a log file, CI).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Time between two plain progress lines.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

/// The progress of one job of a known size.
pub struct Progress {
    bar: Option<ProgressBar>,
    label: String,
    unit: &'static str,
    total: u64,
    done: u64,
    started: Instant,
    last_line: Instant,
}

/// True when progress may be drawn as a bar: stderr is a terminal and this is not CI.
pub fn bar_wanted() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

impl Progress {
    /// A job of `total` steps of `unit` (`positions`, `games`, `nodes`).
    pub fn new(label: &str, total: u64, unit: &'static str) -> Progress {
        let bar = bar_wanted().then(|| {
            let template = format!(
                "{label} {{bar:40.cyan/blue}} {{pos}}/{{len}} {unit} {{per_sec}} ETA {{eta}} {{msg}}"
            );
            let style = ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            let bar = ProgressBar::new(total).with_style(style);
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        let now = Instant::now();
        Progress {
            bar,
            label: label.to_string(),
            unit,
            total,
            done: 0,
            started: now,
            last_line: now,
        }
    }

    /// `steps` more are done.
    pub fn inc(&mut self, steps: u64) {
        self.done += steps;
        match &self.bar {
            Some(bar) => bar.inc(steps),
            None if self.last_line.elapsed() >= PLAIN_EVERY => {
                self.last_line = Instant::now();
                eprintln!("{}", self.line());
            }
            None => {}
        }
    }

    /// `done` steps are done in all (for jobs that report a count, not steps).
    pub fn set(&mut self, done: u64) {
        let steps = done.saturating_sub(self.done);
        self.inc(steps);
    }

    /// Runs `f` (which prints to stdout) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// A note shown beside the bar (the game being analysed).
    pub fn message(&self, text: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(text);
        }
    }

    /// Prints a line without breaking the bar.
    pub fn println(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    fn line(&self) -> String {
        let secs = self.started.elapsed().as_secs_f64().max(1e-9);
        let rate = self.done as f64 / secs;
        let eta = if rate > 0.0 && self.total > self.done {
            format!(", ETA {:.0} s", (self.total - self.done) as f64 / rate)
        } else {
            String::new()
        };
        format!(
            "{}: {}/{} {} ({:.1}/s{eta})",
            self.label, self.done, self.total, self.unit, rate
        )
    }

    /// Ends the bar (or prints the last plain line).
    pub fn finish(self) {
        match &self.bar {
            Some(bar) => bar.finish_and_clear(),
            None => eprintln!("{}", self.line()),
        }
    }
}
