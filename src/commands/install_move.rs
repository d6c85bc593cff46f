//! `hookrun install --move`: the agent's own hooks in the settings file
//! being installed into become hooks of hookrun's config (by `convert`),
//! so that hookrun runs them, once, and the agent runs only hookrun. The
//! settings file and the config are each backed up before their first
//! edit, as `install` does; `--dry-run` prints both changes and writes
//! nothing.

use std::path::Path;

use serde_json::Value;

use crate::error::Error;
use crate::install::location;
use crate::install::{Agent, shape, text};
use crate::output;

/// Moves the agent's hooks from `file` into `config` (a hookrun TOML
/// file); nothing to do when `file` holds none. Returns whether anything
/// moved.
///
/// # Errors
/// A config that is not hookrun TOML, a settings file that is not the
/// agent's JSON or cannot be converted, or a file that cannot be written.
pub(super) fn move_hooks(
    file: &Path,
    agent: Agent,
    config: &Path,
    dry_run: bool,
) -> Result<bool, Error> {
    if let Some(own) = crate::dialect::setup(agent).quirks.own_file {
        return Err(Error::Usage(format!(
            "{} keeps hookrun's registration in a file of its own ({own}), so it holds no hooks to move; move another hooks file's hooks with `hookrun convert FILE` and delete that file",
            crate::install::agent_own::agent_name(agent)
        )));
    }
    if config.extension().is_none_or(|e| e != "toml") {
        return Err(Error::Usage(format!(
            "--move writes the moved hooks into hookrun's TOML config, and `{}` is not one: name a `.toml` config with --config",
            config.display()
        )));
    }
    let Some(old) = std::fs::read_to_string(file)
        .ok()
        .filter(|t| !t.trim().is_empty())
    else {
        return Ok(false);
    };
    let settings = |m: String| Error::Settings {
        path: file.to_owned(),
        message: m,
    };
    let root = text::parse(&old).map_err(settings)?;
    let (mut theirs, _) = shape::uninstall(root.clone(), agent);
    let has_hooks = theirs
        .get("hooks")
        .and_then(Value::as_object)
        .is_some_and(|h| !h.is_empty());
    if !has_hooks {
        return Ok(false);
    }
    let converted =
        crate::dialect::convert::hooks_to_toml(&theirs, agent.dialect()).map_err(settings)?;
    if !converted.warnings.is_empty() {
        // A hook left behind would be lost with the file's `hooks`.
        return Err(settings(format!(
            "--move cannot carry every hook of this file, so nothing was changed: {}",
            converted.warnings.join("; ")
        )));
    }
    // The agent keeps only hookrun's registrations (`install` writes them
    // next); everything else in the file stays as it was.
    if let Some(obj) = theirs.as_object_mut() {
        obj.shift_remove("hooks");
    }
    let old_config = std::fs::read_to_string(config).map_err(|source| Error::ConfigRead {
        path: config.to_owned(),
        source,
    })?;
    let moved = format!(
        "\n# Moved from {} by `hookrun install --move`: {} runs hookrun, and hookrun runs these.\n{}",
        file.display(),
        crate::install::agent_own::agent_name(agent),
        converted
            .text
            .lines()
            .skip_while(|l| l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let new_config = format!(
        "{}{moved}\n",
        old_config.trim_end_matches('\n').to_owned() + "\n"
    );
    let new_settings = text::render(&theirs, &text::style_of(&old));
    if dry_run {
        output::print(&format!(
            "would move the hooks of {} into {}:\n{moved}\n",
            file.display(),
            config.display()
        ));
        return Ok(true);
    }
    for (path, content) in [(config, &new_config), (file, &new_settings)] {
        let backup = location::backup_of(path);
        if !backup.exists() {
            std::fs::copy(path, &backup).map_err(|source| Error::Io {
                what: format!("cannot write `{}`", backup.display()),
                source,
            })?;
        }
        write(path, content)?;
    }
    output::print(&format!(
        "moved the hooks of {} into {} (originals kept as {} and {})\n",
        file.display(),
        config.display(),
        location::backup_of(file).display(),
        location::backup_of(config).display()
    ));
    Ok(true)
}

/// Writes through a temporary file renamed over the target, as `install`
/// does, so that neither the agent nor `run` reads a half-written file.
fn write(path: &Path, content: &str) -> Result<(), Error> {
    let io = |p: &Path| {
        let what = format!("cannot write `{}`", p.display());
        move |source| Error::Io { what, source }
    };
    let tmp = location::backup_of(path).with_extension("hookrun-tmp");
    std::fs::write(&tmp, content).map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}
