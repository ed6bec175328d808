//! Independent jobs on a few threads, in order, under a deadline.
//!
//! The harness's stages that run one whole measurement per item (pairing a
//! reading's options, a matrix row) are independent of each other; this
//! runs them on `jobs` threads and gives the results back in item order, so
//! the output does not depend on the thread count. Once `deadline` has
//! passed no item starts (the first always runs, so a stage measures
//! something); the items not started come back as `None`.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// `f` applied to each item on `jobs` threads, in item order; `None` for
/// the items the deadline left unstarted.
pub fn map_until<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    deadline: Option<Instant>,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(k) else { break };
                    if k > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                        break;
                    }
                    let r = f(item);
                    done.lock().expect("no thread panics while holding the lock").push((k, r));
                }
            });
        }
    });
    let mut out: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    for (k, r) in done.into_inner().expect("threads are done") {
        out[k] = Some(r);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn results_come_back_in_item_order_whatever_the_thread_count() {
        let items: Vec<u64> = (0..50).collect();
        let one = map_until(&items, 1, None, |x| x * x);
        let four = map_until(&items, 4, None, |x| x * x);
        assert_eq!(one, four);
        assert_eq!(one[7], Some(49));
    }

    #[test]
    fn a_past_deadline_runs_only_the_first_item() {
        let items = [1, 2, 3];
        let past = Instant::now().checked_sub(Duration::from_secs(1));
        assert_eq!(map_until(&items, 2, past, |x| x + 1), vec![Some(2), None, None]);
    }
}
