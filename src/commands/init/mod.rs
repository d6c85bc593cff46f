//! `hookrun init`: a starter config, its policy test file and the schema
//! its `#:schema` line names, so that a new user starts from something that
//! passes `check --strict` and `test` and is safe in any project.

use std::path::{Path, PathBuf};

use crate::cli::InitArgs;
use crate::error::{Error, ExitStatus};
use crate::output;

/// The starter config: built-in guards only, a commented script hook.
pub const STARTER: &str = include_str!("hookrun.toml");
/// Its policy tests (`hookrun test`).
pub const STARTER_TESTS: &str = include_str!("hookrun.test.toml");

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
pub fn execute(args: &InitArgs) -> Result<ExitStatus, Error> {
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
        std::fs::write(&path, content).map_err(|source| io_error(&path, source))?;
        written.push_str(&format!("wrote {}\n", path.display()));
    }
    written.push_str(
        "next: `hookrun test` to run its policy tests, `hookrun install --agent claude --scope project` (or codex, gemini, cursor, copilot; `--scope user` for a config in ~/.config/hookrun) to wire it in\n",
    );
    output::print(&written);
    Ok(0)
}

fn io_error(path: &Path, source: std::io::Error) -> Error {
    Error::Io {
        what: format!("cannot write `{}`", path.display()),
        source,
    }
}
