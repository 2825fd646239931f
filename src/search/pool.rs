//! Search threads that live between searches: a [`SearchThread`] is a thread parked on a
//! channel, woken for each job (a search) and parked again after it, so a `go` costs a
//! message rather than a thread start (and, where the hand-crafted evaluation runs, its
//! thread-local pawn hash survives from move to move).

use super::SEARCH_STACK_BYTES;
use crossbeam_channel::{unbounded, Sender};
use std::io;
use std::thread;

/// Work for a search thread.
pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// The nice value of a yielding helper (Linux: 0 is normal, 19 the lowest priority).
#[cfg(target_os = "linux")]
const YIELDING_NICE: i32 = 19;

/// How a worker thread competes for the cores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// As every other thread of the process.
    Normal,
    /// Below the process's other threads (Linux: nice 19). For helpers when there are
    /// more search threads than cores: at normal priority they take turns with the main
    /// search thread and with the threads that read `stop` and print `bestmove`, which
    /// then wait for a core (8 threads on 2 cores: `stop` answered in 21 ms at worst and
    /// 4.6 ms median over 60 searches; with the helpers below, 4.5 ms and 0.6 ms).
    Yielding,
}

impl Priority {
    /// `Yielding` when `threads` search threads would be more than the cores.
    pub fn for_threads(threads: usize) -> Priority {
        let cores = thread::available_parallelism().map_or(1, |n| n.get());
        if threads > cores {
            Priority::Yielding
        } else {
            Priority::Normal
        }
    }

    /// Applies the priority to the calling thread (best effort: where the system has no
    /// per-thread priority, or refuses, the thread runs as it is).
    #[allow(unsafe_code)]
    fn apply(self) {
        #[cfg(target_os = "linux")]
        if self == Priority::Yielding {
            // SAFETY: `gettid` has no preconditions; `setpriority` with `PRIO_PROCESS`
            // and a thread id changes only that thread's nice value and reports failure
            // through its return value, which is ignored (the thread then keeps its
            // priority).
            unsafe {
                let tid = libc::gettid() as libc::id_t;
                libc::setpriority(libc::PRIO_PROCESS, tid, YIELDING_NICE);
            }
        }
    }
}

/// A thread with the search's stack size that runs the jobs it is sent, one after the
/// other, and waits for the next in between. Dropping it lets the thread end once its
/// current job is done (nobody waits for that: a search is told to stop separately).
#[derive(Debug)]
pub struct SearchThread {
    name: String,
    priority: Priority,
    jobs: Sender<Job>,
}

impl SearchThread {
    /// Starts a parked thread called `name`.
    pub fn spawn(name: String, priority: Priority) -> io::Result<SearchThread> {
        let (jobs, queue) = unbounded::<Job>();
        thread::Builder::new()
            .name(name.clone())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                priority.apply();
                for job in queue {
                    job();
                }
            })?;
        Ok(SearchThread {
            name,
            priority,
            jobs,
        })
    }

    /// Its priority.
    pub fn priority(&self) -> Priority {
        self.priority
    }

    /// Hands `job` to the thread. A thread that died (a job panicked) is replaced by a
    /// new one first; `Err` only when no thread can be started.
    pub fn run(&mut self, job: Job) -> io::Result<()> {
        let Err(returned) = self.jobs.send(job) else {
            return Ok(());
        };
        *self = SearchThread::spawn(self.name.clone(), self.priority)?;
        self.jobs
            .send(returned.into_inner())
            .map_err(|_| io::Error::other("the new search thread ended at once"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossbeam_channel::bounded;

    /// The nice value of the calling thread (Linux).
    #[cfg(target_os = "linux")]
    fn own_nice() -> i32 {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
        // Fields after the command name, which is in parentheses: nice is the 19th field
        // of the line, the 17th after the name.
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        after.split(' ').nth(16).unwrap().parse().unwrap()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn yielding_workers_run_below_normal_ones() {
        let base = own_nice();
        let (tx, rx) = bounded(2);
        for priority in [Priority::Normal, Priority::Yielding] {
            let tx = tx.clone();
            let mut worker = SearchThread::spawn("test-nice".into(), priority).unwrap();
            worker
                .run(Box::new(move || tx.send((priority, own_nice())).unwrap()))
                .unwrap();
        }
        // The two threads answer in either order.
        let mut got = [rx.recv().unwrap(), rx.recv().unwrap()];
        got.sort_by_key(|(p, _)| *p == Priority::Yielding);
        assert_eq!(got, [(Priority::Normal, base), (Priority::Yielding, 19)]);
        let cores = thread::available_parallelism().unwrap().get();
        assert_eq!(Priority::for_threads(cores), Priority::Normal);
        assert_eq!(Priority::for_threads(cores + 1), Priority::Yielding);
    }

    #[test]
    fn one_thread_runs_every_job_and_a_dead_one_is_replaced() {
        let mut worker = SearchThread::spawn("test-worker".into(), Priority::Normal).unwrap();
        let (tx, rx) = bounded(4);
        for i in 0..3 {
            let tx = tx.clone();
            worker
                .run(Box::new(move || {
                    tx.send((i, thread::current().id())).unwrap();
                }))
                .unwrap();
        }
        let ids: Vec<_> = (0..3).map(|_| rx.recv().unwrap()).collect();
        assert_eq!(ids.iter().map(|r| r.0).collect::<Vec<_>>(), [0, 1, 2]);
        assert!(ids.iter().all(|r| r.1 == ids[0].1), "one thread for all");

        worker.run(Box::new(|| panic!("a job that fails"))).unwrap();
        // Until the panic has ended the thread, a job may still be queued to it and be
        // lost with it; afterwards a job reaches a fresh thread.
        let mut answered = None;
        for _ in 0..200 {
            let tx = tx.clone();
            worker
                .run(Box::new(move || {
                    let _ = tx.send((9, thread::current().id()));
                }))
                .unwrap();
            if let Ok(r) = rx.recv_timeout(std::time::Duration::from_millis(20)) {
                answered = Some(r);
                break;
            }
        }
        let (n, id) = answered.expect("a job ran after the panic");
        assert_eq!(n, 9);
        assert_ne!(id, ids[0].1, "a new thread");
    }
}
