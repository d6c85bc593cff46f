//! `hookrun init`: a starter config, its policy test file and the schema
//! its `#:schema` line names, so that a new user starts from something that
//! passes `check --strict` and `test` and is safe in any project.

use std::path::{Path, PathBuf};

use crate::cli::InitArgs;
use crate::error::{Error, ExitStatus};
use crate::output;

/// The starter config: built-in guards only, a commented script hook.
pub(crate) const STARTER: &str = include_str!("hookrun.toml");
/// Its policy tests (`hookrun test`).
pub(crate) const STARTER_TESTS: &str = include_str!("hookrun.test.toml");

/// The files `init` writes, by name, with their content.
fn files() -> [(&'static str, String); 3] {
    let schema =
        serde_json::to_string_pretty(&crate::config::toml_schema()).unwrap_or_default() + "\n";
    [
        ("hookrun.toml", STARTER.to_owned()),
        ("hookrun.test.toml", STARTER_TESTS.to_owned()),
        ("hookrun.schema.json", schema),
    ]
}

/// Runs `init`: exit 0 with the files written, 1 when one exists and
/// `--force` is not given (nothing is written then).
///
/// # Errors
/// The directory cannot be created or a file cannot be written.
pub(crate) fn execute(args: &InitArgs) -> Result<ExitStatus, Error> {
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    let files = files();
    let existing: Vec<PathBuf> = files
        .iter()
        .map(|(name, _)| dir.join(name))
        .filter(|p| p.exists())
        .collect();
    if !existing.is_empty() && !args.force {
        output::diagnostic(&format!(
            "init: {} already exist{}; nothing written (--force overwrites)",
            existing
                .iter()
                .map(|p| format!("`{}`", p.display()))
                .collect::<Vec<_>>()
                .join(", "),
            if existing.len() == 1 { "s" } else { "" }
        ));
        return Ok(1);
    }
    std::fs::create_dir_all(&dir).map_err(|source| io_error(&dir, source))?;
    let mut written = String::new();
    for (name, content) in &files {
        let path = dir.join(name);
        write_replacing(&path, content).map_err(|source| io_error(&path, source))?;
        written.push_str(&format!("wrote {}\n", path.display()));
    }
    if !args.no_trust && !is_user_dir(&dir) {
        written.push_str(&trust_starter(&dir.join("hookrun.toml"))?);
    }
    written.push_str(
        "next: `hookrun test` to run its policy tests, `hookrun install --agent claude --scope project` (or codex, gemini, cursor, copilot; `--scope user` for a config in ~/.config/hookrun) to wire it in\n",
    );
    output::print(&written);
    Ok(0)
}

/// Writes `content` to `path` through a new file renamed over it, so that a
/// link placed at `path` (by whoever wrote the project) is replaced, never
/// written through: `init --force` changes no file but the ones it names.
fn write_replacing(path: &Path, content: &str) -> std::io::Result<()> {
    let dir = crate::dirs::dir_of(path);
    let mut tmp = tempfile::NamedTempFile::new_in(&dir)?;
    std::io::Write::write_all(&mut tmp, content.as_bytes())?;
    // A new temporary file is 0600; a config is as readable as any file.
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o644);
    tmp.as_file().set_permissions(mode)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Whether `dir` is hookrun's user config directory, whose `hookrun.toml`
/// is the user's own and needs no trust entry.
fn is_user_dir(dir: &Path) -> bool {
    let canonical = |p: &Path| std::fs::canonicalize(p).ok();
    crate::config::user_dir()
        .is_some_and(|u| canonical(&u).is_some() && canonical(&u) == canonical(dir))
}

/// Adds the starter config `init` just wrote to the user's trust list, so
/// that as a project file it runs with full rights (`redact-secrets`
/// rewrites output only in a trusted file). What is trusted is the content
/// `init` wrote, not whatever the path holds now: the entry is the digest of
/// [`STARTER`], so a file swapped in after the write (or an older file that
/// `--force` replaced) borrows nothing, and any later edit drops the trust
/// until `hookrun trust` is run on the file again.
fn trust_starter(path: &Path) -> Result<String, Error> {
    let list_path = crate::config::trust::list_path().ok_or_else(|| {
        Error::Usage(format!(
            "wrote the files, but cannot place the trust list (neither XDG_CONFIG_HOME nor HOME is set), so `{}` is untrusted; run `hookrun init --no-trust` to skip trusting it",
            path.display()
        ))
    })?;
    let fail = |why: String| {
        Error::Usage(format!(
            "wrote the files, but `{}` could not be trusted: {why}; `hookrun trust {}` trusts it",
            path.display(),
            path.display()
        ))
    };
    let mut list = crate::config::trust::TrustList::read(&list_path).map_err(fail)?;
    let absolute = std::fs::canonicalize(path).map_err(|e| fail(e.to_string()))?;
    list.add(&absolute, STARTER.as_bytes());
    list.write(&list_path).map_err(fail)?;
    Ok(format!(
        "trusted {} as written (any edit drops this trust: review it, then `hookrun trust` it again; --no-trust skips this)\n",
        absolute.display()
    ))
}

fn io_error(path: &Path, source: std::io::Error) -> Error {
    Error::Io {
        what: format!("cannot write `{}`", path.display()),
        source,
    }
}
