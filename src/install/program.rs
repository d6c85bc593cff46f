//! How a registration names hookrun: the shell word at the head of the
//! command `install` writes into an agent's settings. `hookrun` whenever
//! the agent's PATH lookup of `hookrun` reaches this very binary, since
//! that word works on every machine that has hookrun installed; otherwise
//! this binary's absolute path, which works here only, with the reason.
//! [`decide`] is the pure rule, [`detect`] gathers what it needs.

use std::path::{Component, Path, PathBuf};

/// Set by npm's Node launcher (`bin/hookrun` of the npm package) for the
/// binary it starts, as `PID:PATH`: the launcher's own pid and file. The
/// binary believes it only when PID is its parent, so the copy that hooks
/// and their children inherit says nothing about them.
pub(crate) const LAUNCHER_VAR: &str = "HOOKRUN_LAUNCHER";

/// What the command calls hookrun, and what the user should know about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Program {
    /// The shell word written at the head of the command.
    pub(crate) word: String,
    /// Why `word` works on this machine only (an absolute path); `None`
    /// when it is the portable `hookrun`.
    pub(crate) machine_specific: Option<String>,
    /// Something true of a portable `word` worth saying once, such as the
    /// Node start that npm's launcher adds to every event.
    pub(crate) note: Option<String>,
}

/// The first `hookrun` on PATH.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    /// The PATH entry it was found in, as PATH spells it.
    pub(crate) dir: PathBuf,
    /// The file it is, symlinks resolved; this binary's own path when it
    /// is a hard link to it (as npm's install script makes).
    pub(crate) file: PathBuf,
}

/// What [`decide`] needs, read from the process and its environment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Facts {
    /// This binary, symlinks resolved; `None` when the OS cannot say.
    pub(crate) exe: Option<PathBuf>,
    /// The first executable `hookrun` on PATH.
    pub(crate) on_path: Option<Found>,
    /// npm's launcher, symlinks resolved, when it started this process.
    pub(crate) launcher: Option<PathBuf>,
    /// `$HOME`, symlinks resolved.
    pub(crate) home: Option<PathBuf>,
}

/// What the launcher costs per event, said where the launcher is used.
const LAUNCHER_NOTE: &str = "each event starts Node before hookrun (about 65 ms)";

/// The rule. `hookrun` when the first `hookrun` on PATH is this binary,
/// or npm's launcher that started it; never a `node_modules/.bin` entry,
/// which npm and npx put on PATH only for the commands they run, not for
/// an agent's hooks. Otherwise this binary's absolute path, saying why.
#[must_use]
pub(crate) fn decide(facts: &Facts) -> Program {
    let Some(exe) = &facts.exe else {
        return Program {
            word: "hookrun".into(),
            machine_specific: None,
            note: Some(
                "the OS does not say which file this hookrun is, so the command names \
                 `hookrun` on PATH without checking that it is this one"
                    .into(),
            ),
        };
    };
    let portable = |note: Option<String>| Program {
        word: "hookrun".into(),
        machine_specific: None,
        note,
    };
    let why = match &facts.on_path {
        Some(found) if is_npm_bin_dir(&found.dir) => format!(
            "the first `hookrun` on PATH is in {}, which npm and npx put on PATH only \
             for the commands they run, not for an agent's hooks",
            found.dir.display()
        ),
        Some(found) if &found.file == exe => return portable(None),
        Some(found) if facts.launcher.as_ref() == Some(&found.file) => {
            return portable(Some(format!(
                "`hookrun` on PATH is npm's Node launcher ({}), not the native binary \
                 (the package's install script did not run or could not replace it): \
                 {LAUNCHER_NOTE}",
                found.file.display()
            )));
        }
        Some(found) => format!(
            "the first `hookrun` on PATH is another program ({})",
            found.file.display()
        ),
        None => "`hookrun` is not on PATH".into(),
    };
    let place = if exe
        .components()
        .any(|c| c == Component::Normal("node_modules".as_ref()))
    {
        "inside node_modules, which differs per machine, per install and per Node version"
    } else if facts.home.as_ref().is_some_and(|h| exe.starts_with(h)) {
        "under $HOME, which differs per machine and per user"
    } else {
        "where another machine may have no hookrun"
    };
    Program {
        word: hookrun_sh::word::word(&exe.display().to_string()),
        machine_specific: Some(format!(
            "{why}, so the command names this binary by its absolute path, {}, {place}",
            exe.display()
        )),
        note: None,
    }
}

/// [`decide`] for this process.
#[must_use]
pub(crate) fn detect() -> Program {
    decide(&Facts::from_env())
}

impl Facts {
    /// Read from this process: its executable, PATH, the launcher's note
    /// (when its pid is this process's parent) and HOME.
    #[must_use]
    pub(crate) fn from_env() -> Facts {
        let resolved = |p: &Path| std::fs::canonicalize(p).ok();
        let exe = std::env::current_exe().ok().and_then(|p| resolved(&p));
        let exe_meta = exe.as_ref().and_then(|e| std::fs::metadata(e).ok());
        let on_path = crate::os::find_on_path("hookrun", std::env::var_os("PATH").as_deref())
            .and_then(|candidate| {
                let meta = std::fs::metadata(&candidate).ok()?;
                let dir = candidate.parent()?.to_path_buf();
                let file = match (&exe, &exe_meta) {
                    (Some(e), Some(m)) if crate::os::same_file(&meta, m) => e.clone(),
                    _ => resolved(&candidate)?,
                };
                Some(Found { file, dir })
            });
        let launcher = std::env::var(LAUNCHER_VAR)
            .ok()
            .and_then(|v| launcher_of(&v, crate::os::parent_pid()?))
            .and_then(|p| resolved(&p));
        Facts {
            exe,
            on_path,
            launcher,
            home: std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .and_then(|h| resolved(Path::new(&h))),
        }
    }
}

/// The launcher's file from a `PID:PATH` value, when PID is `parent`.
fn launcher_of(value: &str, parent: u32) -> Option<PathBuf> {
    let (pid, path) = value.split_once(':')?;
    (pid.trim().parse::<u32>().ok()? == parent && !path.is_empty()).then(|| PathBuf::from(path))
}

/// Whether a PATH entry is a `node_modules/.bin` directory.
fn is_npm_bin_dir(dir: &Path) -> bool {
    let mut parts = dir.components().rev().filter(|c| *c != Component::CurDir);
    parts.next() == Some(Component::Normal(".bin".as_ref()))
        && parts.next() == Some(Component::Normal("node_modules".as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(exe: &str, on_path: Option<(&str, &str)>) -> Facts {
        Facts {
            exe: Some(exe.into()),
            on_path: on_path.map(|(dir, file)| Found {
                dir: dir.into(),
                file: file.into(),
            }),
            launcher: None,
            home: Some("/home/u".into()),
        }
    }

    #[test]
    fn this_binary_first_on_path_is_named_hookrun() {
        let p = decide(&facts(
            "/usr/lib/node_modules/hookrun/bin/hookrun",
            Some(("/usr/bin", "/usr/lib/node_modules/hookrun/bin/hookrun")),
        ));
        assert_eq!(
            p,
            Program {
                word: "hookrun".into(),
                machine_specific: None,
                note: None
            }
        );
    }

    #[test]
    fn the_launcher_that_started_it_is_hookrun_too_with_the_node_cost() {
        let launcher = "/home/u/.nvm/lib/node_modules/hookrun/bin/hookrun";
        let mut f = facts(
            "/home/u/.nvm/lib/node_modules/hookrun/node_modules/@hookrun/linux-x64/bin/hookrun",
            Some(("/home/u/.nvm/bin", launcher)),
        );
        f.launcher = Some(launcher.into());
        let p = decide(&f);
        assert_eq!(p.word, "hookrun");
        assert_eq!(p.machine_specific, None);
        let note = p.note.expect("a note");
        assert!(
            note.contains("Node launcher") && note.contains("65 ms"),
            "{note}"
        );
    }

    #[test]
    fn a_launcher_that_is_not_first_on_path_does_not_count() {
        let mut f = facts(
            "/x/node_modules/@hookrun/linux-x64/bin/hookrun",
            Some(("/usr/bin", "/usr/bin/hookrun")),
        );
        f.launcher = Some("/x/node_modules/hookrun/bin/hookrun".into());
        let p = decide(&f);
        assert_eq!(p.word, "/x/node_modules/@hookrun/linux-x64/bin/hookrun");
        let why = p.machine_specific.expect("machine-specific");
        assert!(why.contains("another program (/usr/bin/hookrun)"), "{why}");
        assert!(why.contains("inside node_modules"), "{why}");
    }

    #[test]
    fn not_on_path_names_the_absolute_path_and_where_it_lives() {
        let p = decide(&facts("/home/u/.cargo/bin/hookrun", None));
        assert_eq!(p.word, "/home/u/.cargo/bin/hookrun");
        let why = p.machine_specific.expect("machine-specific");
        assert!(why.starts_with("`hookrun` is not on PATH"), "{why}");
        assert!(why.contains("under $HOME"), "{why}");

        let p = decide(&facts("/opt/hookrun dir/hookrun", None));
        assert_eq!(p.word, "'/opt/hookrun dir/hookrun'");
        assert!(
            p.machine_specific
                .is_some_and(|w| w.contains("another machine"))
        );
    }

    #[test]
    fn node_modules_bin_on_path_is_never_trusted_even_when_it_is_this_binary() {
        let exe = "/p/node_modules/hookrun/bin/hookrun";
        for dir in [
            "/p/node_modules/.bin",
            "node_modules/.bin",
            "./node_modules/.bin/.",
        ] {
            let p = decide(&facts(exe, Some((dir, exe))));
            assert_eq!(p.word, exe, "{dir}");
            let why = p.machine_specific.expect("machine-specific");
            assert!(why.contains("npm and npx put on PATH only"), "{why}");
        }
        assert!(!is_npm_bin_dir(Path::new("/p/node_modules/.bin/sub")));
        assert!(!is_npm_bin_dir(Path::new("/p/.bin")));
    }

    #[test]
    fn an_unknown_executable_falls_back_to_the_portable_word_and_says_so() {
        let p = decide(&Facts::default());
        assert_eq!(p.word, "hookrun");
        assert_eq!(p.machine_specific, None);
        assert!(p.note.is_some());
    }

    #[test]
    fn the_launcher_note_counts_only_from_the_parent() {
        assert_eq!(
            launcher_of("41:/p/hookrun/bin/hookrun", 41),
            Some(PathBuf::from("/p/hookrun/bin/hookrun"))
        );
        assert_eq!(launcher_of("41:/p/a:b", 41), Some(PathBuf::from("/p/a:b")));
        assert_eq!(launcher_of("41:/p/hookrun/bin/hookrun", 7), None);
        assert_eq!(launcher_of("41:", 41), None);
        assert_eq!(launcher_of("/p/hookrun/bin/hookrun", 41), None);
    }
}
