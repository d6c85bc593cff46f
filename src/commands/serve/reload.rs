//! `serve`'s config reloads. An editor saves in steps (truncate, then
//! write), and a reload that caught the file between them would run an
//! empty or half config. So a changed file is applied only once its size and
//! modification time have held still for [`SETTLE`], and a reload that does
//! not parse, or that would leave no hook where the last good config had
//! some, keeps the last good config and says why on stderr.
//!
//! Which files make the config is discovered again for every event, as
//! `run` discovers them (`config::discover`: a few `stat`s), so a project
//! `hookrun.toml` created (or removed) after the server started is a change
//! like an edit.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use crate::cli::RunArgs;
use crate::config::Config;
use crate::output;

/// How long a changed file's size and modification time must hold still
/// before it is read: longer than the gap between an editor's truncate and
/// its write, short enough that the event after a save waits little.
pub(super) const SETTLE: Duration = Duration::from_millis(100);

/// How often a changed file is looked at while it settles.
const POLL: Duration = Duration::from_millis(10);

/// How long one event waits for a file that keeps changing; past it the
/// event runs on the last good config and the next event looks again.
const SETTLE_LIMIT: Duration = Duration::from_secs(2);

/// Size and modification time of each config file (`None`: unreadable).
type Stamps = Vec<(PathBuf, Option<(u64, SystemTime)>)>;

/// The stamps of the files `run` would read now.
fn discovered(args: &RunArgs) -> Stamps {
    stamps(&crate::config::paths(&crate::config::discover(
        &args.configs,
    )))
}

fn stamps(paths: &[PathBuf]) -> Stamps {
    paths
        .iter()
        .map(|p| {
            let stamp = std::fs::metadata(p)
                .and_then(|m| Ok((m.len(), m.modified()?)))
                .ok();
            (p.clone(), stamp)
        })
        .collect()
}

/// The config in use and what it was loaded from.
pub(super) struct Live {
    pub config: Arc<Config>,
    /// The stamps of the config in use.
    applied: Stamps,
    /// Stamps that were refused: not read (nor reported) again until they change.
    refused: Option<Stamps>,
    /// Changed stamps seen, and since when they have held still.
    settling: Option<(Stamps, Instant)>,
}

impl Live {
    pub(super) fn new(config: Config, paths: &[PathBuf]) -> Self {
        Live {
            config: Arc::new(config),
            applied: stamps(paths),
            refused: None,
            settling: None,
        }
    }

    /// Whether the config in use was loaded from no file at all (`run` then
    /// warns on every event).
    pub(super) fn found_none(&self) -> bool {
        self.applied.is_empty()
    }

    /// Reloads the config when a file changed since it was loaded: waits
    /// (up to [`SETTLE_LIMIT`]) until the change has held still for
    /// [`SETTLE`], then loads it, unless it was refused before.
    pub(super) async fn refresh(&mut self, args: &RunArgs) {
        let give_up = Instant::now() + SETTLE_LIMIT;
        loop {
            let now = discovered(args);
            if now == self.applied || self.refused.as_ref() == Some(&now) {
                self.settling = None;
                return;
            }
            match &self.settling {
                Some((seen, since)) if *seen == now && since.elapsed() >= SETTLE => break,
                Some((seen, _)) if *seen == now => {}
                _ => self.settling = Some((now, Instant::now())),
            }
            if Instant::now() >= give_up {
                output::diagnostic(&format!(
                    "config not reloaded yet: {} keeps changing; the last good config stays until it holds still for {} ms",
                    self.changed(&discovered(args)),
                    SETTLE.as_millis()
                ));
                return;
            }
            tokio::time::sleep(POLL).await;
        }
        if let Some((now, _)) = self.settling.take() {
            self.apply(now, args);
        }
    }

    /// Loads the config as `run` would now. A result without hooks where the
    /// last good config had some is taken for a file caught mid-save and
    /// refused, unless the set of files itself changed (one was removed, as
    /// `run` would no longer read it, and stayed removed for [`SETTLE`]).
    fn apply(&mut self, now: Stamps, args: &RunArgs) {
        let same_files = now
            .iter()
            .map(|(p, _)| p)
            .eq(self.applied.iter().map(|(p, _)| p));
        let why = match crate::session::load_config(args) {
            // A layer that cannot be loaded (often one caught mid-save) is
            // not applied: the last good config holds every layer.
            // (No file found at all is no half-saved layer: it is applied,
            // and answered as `run` answers it.)
            Ok(c) if c.unreadable.iter().any(|u| !u.path.as_os_str().is_empty()) => c
                .complete()
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default(),
            Ok(c)
                if same_files && c.hooks.is_empty() && !c.off && !self.config.hooks.is_empty() =>
            {
                format!(
                    "{} now configures no hook at all (the last good config has {}); a file caught mid-save is not applied",
                    self.changed(&now),
                    self.config.hooks.len()
                )
            }
            Ok(c) => {
                self.config = Arc::new(c);
                self.applied = now;
                self.refused = None;
                output::diagnostic("config reloaded");
                return;
            }
            Err(e) => e.to_string(),
        };
        // One line per refusal, whatever the error's text holds.
        let why = why.replace('\n', " ");
        output::diagnostic(&format!(
            "config reload failed, keeping the last good config: {why}"
        ));
        self.refused = Some(now);
    }

    /// The files whose stamps differ from the config in use, or that are
    /// new or gone.
    fn changed(&self, now: &Stamps) -> String {
        let differs = |a: &Stamps, b: &Stamps| -> Vec<String> {
            a.iter()
                .filter(|s| !b.contains(s))
                .map(|(p, _)| format!("`{}`", p.display()))
                .collect()
        };
        let mut names = differs(now, &self.applied);
        for gone in differs(&self.applied, now) {
            if !names.contains(&gone) {
                names.push(gone);
            }
        }
        names.join(", ")
    }
}
