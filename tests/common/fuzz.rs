//! A small seeded fuzzer for `tests/fuzz.rs`, on stable Rust and with no crate beyond
//! `rand_xoshiro`: a runner that feeds cases to a check with a watchdog for hangs, and a
//! mutator of byte strings in the style of libFuzzer's (bit flips, insertions, deletions,
//! copies, dictionary tokens, splices with another corpus entry, long runs, non-ASCII).
//!
//! Every case draws from its own generator, seeded from the test's seed and the case
//! number, so a failure names the two numbers that rebuild its input, and the message
//! shows the input itself.
#![allow(dead_code)]

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Debug;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

/// The generator every case draws from.
pub type Rng = Xoshiro256PlusPlus;

/// The generator of case `case` of a test seeded with `seed`.
pub fn case_rng(seed: u64, case: u64) -> Rng {
    Rng::seed_from_u64(seed ^ case.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A number in `0..n` (`n > 0`).
pub fn below(rng: &mut Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// True one time in `n`.
pub fn one_in(rng: &mut Rng, n: usize) -> bool {
    below(rng, n) == 0
}

/// A random element of a non-empty slice.
pub fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[below(rng, items.len())]
}

/// The longest input quoted in a failure message, in characters of its `Debug` form.
const QUOTE_CHARS: usize = 3000;

fn quoted<I: Debug>(input: &I) -> String {
    let text = format!("{input:?}");
    match text.char_indices().nth(QUOTE_CHARS) {
        Some((cut, _)) => format!(
            "{}... ({} characters in all)",
            &text[..cut],
            text.chars().count()
        ),
        None => text,
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}

/// Runs `cases` cases: `gen` builds each input, `check` returns `Err` with a reason when
/// the input was handled wrongly. A panic (in either) or a case running longer than
/// `hang` fails the test with the input and how to rebuild it. Returns the time taken.
pub fn fuzz<I, G, C>(
    name: &str,
    seed: u64,
    cases: u64,
    hang: Duration,
    gen: G,
    check: C,
) -> Duration
where
    I: Debug + 'static,
    G: Fn(&mut Rng) -> I + Send + Sync + 'static,
    C: Fn(&I) -> Result<(), String> + Send + 'static,
{
    let source = format!("seed {seed:#x}");
    run(
        name,
        &source,
        cases,
        hang,
        move |case| gen(&mut case_rng(seed, case)),
        check,
    )
}

/// Runs `check` on each of `inputs` (inputs that once failed), like [`fuzz`].
pub fn regressions<I, C>(name: &str, inputs: Vec<I>, hang: Duration, check: C)
where
    I: Debug + Clone + Send + Sync + 'static,
    C: Fn(&I) -> Result<(), String> + Send + 'static,
{
    let cases = inputs.len() as u64;
    let gen = move |case: u64| inputs[case as usize].clone();
    run(name, "the regression list", cases, hang, gen, check);
}

/// The runner behind [`fuzz`] and [`regressions`]: `gen` builds the input of a case
/// from its number.
fn run<I, G, C>(name: &str, source: &str, cases: u64, hang: Duration, gen: G, check: C) -> Duration
where
    I: Debug + 'static,
    G: Fn(u64) -> I + Send + Sync + 'static,
    C: Fn(&I) -> Result<(), String> + Send + 'static,
{
    let gen = Arc::new(gen);
    let progress = Arc::new(AtomicU64::new(0));
    let (tx, rx) = mpsc::channel();
    let worker_gen = gen.clone();
    let worker_progress = progress.clone();
    // A hung case cannot be interrupted: the worker is left behind and the test fails.
    thread::Builder::new()
        .name(format!("fuzz-{name}"))
        .spawn(move || {
            let start = Instant::now();
            for case in 0..cases {
                worker_progress.store(case, Ordering::Relaxed);
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    let input = worker_gen(case);
                    check(&input)
                }));
                let failure = match outcome {
                    Ok(Ok(())) => continue,
                    Ok(Err(why)) => why,
                    Err(payload) => format!("panicked: {}", panic_text(&*payload)),
                };
                let _ = tx.send(Err((case, failure)));
                return;
            }
            let _ = tx.send(Ok(start.elapsed()));
        })
        .expect("spawn the fuzz worker");

    let describe = |case: u64| -> String {
        match catch_unwind(AssertUnwindSafe(|| quoted(&gen(case)))) {
            Ok(text) => text,
            Err(_) => "(the generator panicked)".to_string(),
        }
    };
    let mut last = (u64::MAX, Instant::now());
    loop {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(Ok(elapsed)) => {
                println!("fuzz {name}: {cases} cases in {elapsed:.2?} ({source})");
                return elapsed;
            }
            Ok(Err((case, failure))) => panic!(
                "fuzz {name}: case {case} of {source} failed: {failure}\n  \
                 input: {}",
                describe(case)
            ),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                panic!("fuzz {name}: the worker thread died")
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let case = progress.load(Ordering::Relaxed);
                if case != last.0 {
                    last = (case, Instant::now());
                } else if last.1.elapsed() > hang {
                    panic!(
                        "fuzz {name}: case {case} of {source} hangs (over {hang:?})\n  \
                         input: {}",
                        describe(case)
                    );
                }
            }
        }
    }
}

/// Bytes worth trying in place of any other: controls, delimiters, high bytes.
const SPECIAL_BYTES: &[u8] = &[
    0, 1, b'\t', b'\n', b'\r', b' ', b'"', b'#', b'$', b'%', b'(', b')', b'*', b'+', b'-', b'.',
    b'/', b'0', b'1', b'8', b'9', b':', b';', b'=', b'?', b'[', b'\\', b']', b'{', b'}', 0x7f,
    0x80, 0xc3, 0xe2, 0xf0, 0xff,
];

/// Text that is not ASCII, whole or broken: accents, chess symbols, a byte-order mark,
/// zero-width and line-separator characters, a NUL, an astral-plane character, and
/// UTF-8 cut short.
const NON_ASCII: &[&[u8]] = &[
    "é".as_bytes(),
    "♞".as_bytes(),
    "♔".as_bytes(),
    "\u{feff}".as_bytes(),
    "\u{200b}".as_bytes(),
    "\u{2028}".as_bytes(),
    "\u{a0}".as_bytes(),
    "\u{3000}".as_bytes(),
    "\0".as_bytes(),
    "𝄞".as_bytes(),
    "Ω".as_bytes(),
    "ｅ４".as_bytes(),
    &[0xe2, 0x99],
    &[0xf0, 0x9d],
    &[0xc3],
    &[0xed, 0xa0, 0x80],
];

/// Numbers at the edges of the integer types the parsers read into.
const EXTREME_NUMBERS: &[&str] = &[
    "0",
    "-0",
    "-1",
    "+1",
    "255",
    "256",
    "32767",
    "65535",
    "65536",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "1e9",
    "0x10",
    "1.5",
];

/// A seeded mutator: a dictionary of tokens that mean something to the parser under test
/// and a corpus to splice with.
pub struct Mutator {
    /// Tokens inserted or written over the input.
    pub dict: Vec<Vec<u8>>,
    /// Inputs to splice with.
    pub corpus: Vec<Vec<u8>>,
}

impl Mutator {
    /// A mutator with `dict` tokens and `corpus` inputs.
    pub fn new(dict: &[&str], corpus: &[String]) -> Mutator {
        Mutator {
            dict: dict.iter().map(|t| t.as_bytes().to_vec()).collect(),
            corpus: corpus.iter().map(|c| c.as_bytes().to_vec()).collect(),
        }
    }

    /// A corpus entry mutated 1 to 8 times (fewer more often).
    pub fn mutated(&self, rng: &mut Rng) -> Vec<u8> {
        let mut data = pick(rng, &self.corpus).clone();
        self.mutate_some(rng, &mut data);
        data
    }

    /// Applies 1 to 8 mutations to `data` (fewer more often).
    pub fn mutate_some(&self, rng: &mut Rng, data: &mut Vec<u8>) {
        let rounds = 1 + (rng.next_u64().trailing_zeros() as usize).min(7);
        for _ in 0..rounds {
            self.mutate(rng, data);
        }
    }

    /// [`Mutator::mutated`] as text, with invalid UTF-8 replaced as a reader would.
    pub fn mutated_text(&self, rng: &mut Rng) -> String {
        String::from_utf8_lossy(&self.mutated(rng)).into_owned()
    }

    /// Applies one random mutation to `data`.
    pub fn mutate(&self, rng: &mut Rng, data: &mut Vec<u8>) {
        let len = data.len();
        let at = below(rng, len + 1);
        match below(rng, 16) {
            // A flipped bit.
            0 if len > 0 => data[at.min(len - 1)] ^= 1 << below(rng, 8),
            // A byte replaced by a random or a special one.
            1 if len > 0 => data[at.min(len - 1)] = rng.next_u64() as u8,
            2 if len > 0 => data[at.min(len - 1)] = *pick(rng, SPECIAL_BYTES),
            // Random bytes inserted.
            3 => {
                let n = 1 + below(rng, 8);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
                data.splice(at..at, bytes);
            }
            // A range deleted (sometimes a long one).
            4 if len > 0 => {
                let max = if one_in(rng, 4) { len } else { 16.min(len) };
                let n = 1 + below(rng, max);
                let from = below(rng, len - n + 1);
                data.drain(from..from + n);
            }
            // A range copied elsewhere.
            5 if len > 0 => {
                let n = 1 + below(rng, 32.min(len));
                let from = below(rng, len - n + 1);
                let copy = data[from..from + n].to_vec();
                data.splice(at..at, copy);
            }
            // A dictionary token inserted or written over a range.
            6 | 7 if !self.dict.is_empty() => {
                let token = pick(rng, &self.dict).clone();
                let end = if below(rng, 16) < 7 {
                    at
                } else {
                    (at + below(rng, 8)).min(len)
                };
                data.splice(at..end, token);
            }
            // Spliced with another corpus entry.
            8 if !self.corpus.is_empty() => {
                let other = pick(rng, &self.corpus);
                let cut = below(rng, other.len() + 1);
                data.truncate(at);
                data.extend_from_slice(&other[cut..]);
            }
            // Cut short.
            9 => data.truncate(at),
            // A long run of one byte or of digits: very long tokens.
            10 => {
                let n = 64 + below(rng, 4096);
                let run: Vec<u8> = if one_in(rng, 2) {
                    vec![*pick(rng, b"9aQe/-( {[\"0"); n]
                } else {
                    (0..n).map(|_| b'0' + below(rng, 10) as u8).collect()
                };
                data.splice(at..at, run);
            }
            // Non-ASCII text.
            11 => {
                let s = pick(rng, NON_ASCII).to_vec();
                data.splice(at..at, s);
            }
            // An extreme number written over a run of digits, or inserted.
            12 => {
                let digits = data[at..].iter().take_while(|b| b.is_ascii_digit()).count();
                let n = pick(rng, EXTREME_NUMBERS).as_bytes().to_vec();
                data.splice(at..at + digits, n);
            }
            // An ASCII letter's case swapped.
            13 if len > 0 => {
                let i = at.min(len - 1);
                data[i] = if data[i].is_ascii_lowercase() {
                    data[i].to_ascii_uppercase()
                } else {
                    data[i].to_ascii_lowercase()
                };
            }
            // A whitespace-separated token deleted, duplicated or moved.
            14 => {
                let mut tokens: Vec<Vec<u8>> =
                    data.split(|b| *b == b' ').map(<[u8]>::to_vec).collect();
                let i = below(rng, tokens.len());
                match below(rng, 3) {
                    0 => {
                        tokens.remove(i);
                    }
                    1 => {
                        let t = tokens[i].clone();
                        tokens.insert(i, t);
                    }
                    _ => {
                        let j = below(rng, tokens.len());
                        tokens.swap(i, j);
                    }
                }
                *data = tokens.join(&b' ');
            }
            // Two bytes swapped.
            _ if len > 1 => {
                let j = below(rng, len);
                data.swap(at.min(len - 1), j);
            }
            _ => data.push(*pick(rng, SPECIAL_BYTES)),
        }
    }
}

/// A random string of up to `max_len` characters from `alphabet`, with now and then any
/// character at all.
pub fn random_text(rng: &mut Rng, alphabet: &str, max_len: usize) -> String {
    let chars: Vec<char> = alphabet.chars().collect();
    let len = below(rng, max_len + 1);
    (0..len)
        .map(|_| {
            if one_in(rng, 20) {
                char::from_u32(below(rng, 0x11_0000) as u32).unwrap_or('\u{fffd}')
            } else {
                *pick(rng, &chars)
            }
        })
        .collect()
}
