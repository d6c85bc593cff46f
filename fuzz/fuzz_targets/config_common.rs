use std::path::PathBuf;

use hookrun::internals::config::{self, FailMode, LoadOptions};

/// Loads `data` as the file `name` in a private directory, both as the
/// runner loads it and as `check` does.
pub fn load(name: &str, data: &[u8]) {
    thread_local! {
        static DIR: PathBuf = {
            let dir = std::env::temp_dir().join(format!("hookrun-fuzz-{}", std::process::id()));
            let _ = std::fs::create_dir_all(&dir);
            dir
        };
    }
    let path = DIR.with(|d| d.join(name));
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let options = LoadOptions {
        explicit: false,
        default_fail_mode: FailMode::Open,
        format: None,
        foreign: hookrun::internals::convert::HOOKS_FILES,
    };
    let _ = config::load(std::slice::from_ref(&path), options);
    let _ = config::load_for_check(std::slice::from_ref(&path), None, options);
}
