//! Search threads that live between searches: a [`Worker`] is a thread parked on a
//! channel, woken for each job (a search) and parked again after it, so a `go` costs a
//! message rather than a thread start (and, where the hand-crafted evaluation runs, its
//! thread-local pawn hash survives from move to move).

use super::SEARCH_STACK_BYTES;
use crossbeam_channel::{unbounded, Sender};
use std::io;
use std::thread;

/// Work for a search thread.
pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// A thread with the search's stack size that runs the jobs it is sent, one after the
/// other, and waits for the next in between. Dropping it lets the thread end once its
/// current job is done (nobody waits for that: a search is told to stop separately).
#[derive(Debug)]
pub struct Worker {
    name: String,
    jobs: Sender<Job>,
}

impl Worker {
    /// Starts a parked thread called `name`.
    pub fn spawn(name: String) -> io::Result<Worker> {
        let (jobs, queue) = unbounded::<Job>();
        thread::Builder::new()
            .name(name.clone())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                for job in queue {
                    job();
                }
            })?;
        Ok(Worker { name, jobs })
    }

    /// Hands `job` to the thread. A thread that died (a job panicked) is replaced by a
    /// new one first; `Err` only when no thread can be started.
    pub fn run(&mut self, job: Job) -> io::Result<()> {
        let Err(returned) = self.jobs.send(job) else {
            return Ok(());
        };
        *self = Worker::spawn(self.name.clone())?;
        self.jobs
            .send(returned.into_inner())
            .map_err(|_| io::Error::other("the new search thread ended at once"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossbeam_channel::bounded;

    #[test]
    fn one_thread_runs_every_job_and_a_dead_one_is_replaced() {
        let mut worker = Worker::spawn("test-worker".into()).unwrap();
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
