//! A hook's two output streams, drained together, and the kills that make
//! them close when something still holds them after the hook's end.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use tokio::time::{Instant, sleep_until};

use crate::os::{GroupGuard, Stop};

/// How long to wait for pipes to close once a group and the processes
/// holding its pipes have been SIGKILLed.
const PIPE_CLOSE_AFTER_KILL: Duration = Duration::from_millis(200);

/// How many times the group and the holders of its pipes are killed before
/// the pipes are given up on: a holder can fork between the search for
/// holders and their kill, and its child then holds the pipes in turn.
const KILL_ROUNDS: usize = 3;

type Drain<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// The two output streams being drained concurrently with everything else.
pub(super) struct Streams<'a> {
    pub(super) out: Drain<'a>,
    pub(super) err: Drain<'a>,
    pub(super) out_done: bool,
    pub(super) err_done: bool,
}

impl Streams<'_> {
    pub(super) fn done(&self) -> bool {
        self.out_done && self.err_done
    }

    /// Drains until both streams close (`true`) or the deadline (`false`).
    pub(super) async fn until(&mut self, deadline: Instant) -> bool {
        while !self.done() {
            tokio::select! {
                () = &mut self.out, if !self.out_done => self.out_done = true,
                () = &mut self.err, if !self.err_done => self.err_done = true,
                () = sleep_until(deadline) => return false,
            }
        }
        true
    }
}

/// Waits for the pipes to close after a kill, killing the group and the
/// holders of its pipes again while they stay open, a few rounds at most:
/// then hookrun goes on without them, so nothing hangs.
pub(super) async fn kill_until_closed(guard: Option<&GroupGuard>, streams: &mut Streams<'_>) {
    for round in 0..KILL_ROUNDS {
        if round > 0
            && let Some(g) = guard
        {
            g.signal(Stop::Kill);
        }
        if streams.until(Instant::now() + PIPE_CLOSE_AFTER_KILL).await {
            return;
        }
    }
}
