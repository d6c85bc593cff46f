//! What an administrator's `requirements.toml` (`/etc/codex`) makes of
//! the hooks `install` writes: with `allow_managed_hooks_only = true`
//! Codex runs only the hooks of its managed layers (the `[hooks]` tables
//! of `requirements.toml` itself, MDM and cloud requirements), so a
//! registration in `~/.codex` or a project is never run; with `[features]
//! hooks = false` Codex runs no hook at all. `install` cannot write there
//! (the file is the administrator's): it refuses, saying what to ask for,
//! and `doctor` reports the same (D011).

use std::path::Path;

use crate::dialect::setup::Skipped;

/// Where Codex reads the machine's requirements and managed config.
pub(crate) const DIR: &str = "/etc/codex";

/// Why Codex will not run a hook of the user's or a project's on this
/// machine, if its requirements say so.
pub(crate) fn lock() -> Option<Skipped> {
    lock_in(Path::new(DIR))
}

/// As [`lock`], for the requirements in `dir`.
pub(crate) fn lock_in(dir: &Path) -> Option<Skipped> {
    let file = dir.join("requirements.toml");
    let text = std::fs::read_to_string(&file).ok()?;
    lock_of(&text, &file)
}

/// As [`lock`], for the text of the requirements file `file`; a file that
/// is not TOML locks nothing here (Codex reports it itself).
pub(crate) fn lock_of(text: &str, file: &Path) -> Option<Skipped> {
    let table: toml::Table = toml::from_str(text).ok()?;
    let shown = file.display();
    let hooks_off = table
        .get("features")
        .and_then(|f| f.get("hooks"))
        .and_then(toml::Value::as_bool)
        == Some(false);
    if hooks_off {
        return Some(Skipped::new(
            format!("Codex runs no hook on this machine: `{shown}` sets `[features] hooks = false`"),
            "ask the machine's administrator to allow hooks; a registration anywhere else is never run".to_owned(),
        ));
    }
    let managed_only = table
        .get("allow_managed_hooks_only")
        .and_then(toml::Value::as_bool)
        == Some(true);
    managed_only.then(|| {
        Skipped::new(
            format!(
                "Codex runs only managed hooks on this machine: `{shown}` sets `allow_managed_hooks_only = true`, so a hook in the user's or a project's files never runs"
            ),
            format!(
                "ask the machine's administrator to register hookrun in `{shown}` (its `[hooks]` tables take the entries of a `hooks.json`; `hookrun install --agent codex --dry-run` shows them)"
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn managed_only_and_hooks_off_lock_the_user_out_and_nothing_else_does() {
        let file = Path::new("/etc/codex/requirements.toml");
        let only = lock_of("allow_managed_hooks_only = true\n", file).expect("locked");
        assert!(
            only.message.contains("allow_managed_hooks_only"),
            "{only:?}"
        );
        let off = lock_of("[features]\nhooks = false\n", file).expect("locked");
        assert!(off.message.contains("hooks = false"), "{off:?}");
        for open in [
            "",
            "allow_managed_hooks_only = false\n",
            "[features]\nhooks = true\n",
            "not toml [",
        ] {
            assert_eq!(lock_of(open, file), None, "{open:?}");
        }
    }
}
