//! `hookrun install`: the file I/O around `install`'s pure edit. A backup
//! is made before the first edit of a file that existed; `--uninstall`
//! puts that backup back byte for byte when nothing else changed since,
//! and removes a file `install` created.

use std::path::{Path, PathBuf};

use crate::cli::{InstallArgs, OnError};
use crate::config::{self, FailMode, LoadOptions};
use crate::error::{Error, ExitStatus};
use crate::install::events::Registration;
use crate::install::location::{self, Homes};
use crate::install::{self as setup, Agent, Invocation, Scope, Server, portable, shape, text};
use crate::output;

/// Runs `install` (or `--uninstall`); exit 0 when done or nothing to do.
///
/// # Errors
/// No config to register, a settings file that is not JSON or not the
/// agent's shape, or a file that cannot be read or written.
pub(crate) fn execute(args: &InstallArgs) -> Result<ExitStatus, Error> {
    let project = std::env::current_dir().map_err(|source| Error::Io {
        what: "cannot read the current directory".into(),
        source,
    })?;
    if args.scope == Scope::Local && !location::has_local(args.agent) {
        return Err(Error::Usage(format!(
            "{} has no local settings file (only Claude Code has one, .claude/settings.local.json): use --scope user for a registration of this machine's, --scope project for one the project shares",
            args.agent.as_str()
        )));
    }
    let file = location::settings_file(args.agent, args.scope, &project, &Homes::from_env())
        .ok_or_else(|| Error::Usage("HOME is not set: cannot find the user's settings".into()))?;
    if args.uninstall {
        return uninstall(&file, args.agent, args.dry_run);
    }
    if let Some(lock) = crate::dialect::setup(args.agent)
        .quirks
        .machine_lock
        .and_then(|lock| lock())
        && !args.dry_run
    {
        return Err(Error::Usage(format!("{}; {}", lock.message, lock.fix)));
    }
    if let Some(url) = &args.url
        && !(url.starts_with("http://") || url.starts_with("https://"))
    {
        return Err(Error::Usage(format!(
            "--url `{url}` is not an http:// or https:// URL of a `hookrun serve --http` server"
        )));
    }
    let (config_path, named) = config_to_register(args, &project)?;
    if args.move_hooks {
        super::install_move::move_hooks(&file, args.agent, &config_path, args.dry_run)?;
    }
    let config = config::load(
        std::slice::from_ref(&config_path),
        LoadOptions {
            explicit: true,
            default_fail_mode: FailMode::Open,
            format: None,
            foreign: crate::dialect::convert::HOOKS_FILES,
        },
    )?;
    let (regs, warnings) = crate::install::events::registrations(&config, args.agent);
    for w in &warnings {
        output::diagnostic(&format!("warning: {w}"));
    }
    if regs.is_empty() {
        return Err(Error::Usage(format!(
            "`{}` has no hook on an event {} has: nothing to register",
            config_path.display(),
            args.agent.as_str()
        )));
    }
    let old = read_optional(&file)?;
    let root = match &old {
        Some(t) if !t.trim().is_empty() => Some(text::parse(t).map_err(|m| settings(&file, m))?),
        _ => None,
    };
    let program = crate::install::program::detect();
    portable::check_program(
        args.agent,
        args.scope,
        &program.word,
        program.machine_specific.as_deref(),
    )
    .map_err(Error::Usage)?;
    let program = said(program);
    // A forwarded event is evaluated on the server, with its config.
    let config_word = if named && args.url.is_none() {
        let project = std::fs::canonicalize(&project).unwrap_or(project);
        Some(
            portable::config_word(args.agent, args.scope, &project, &config_path)
                .map_err(Error::Usage)?,
        )
    } else {
        None
    };
    let handlers = handlers(args, &regs, &program, config_word.as_deref());
    let new = shape::install(
        root.clone().unwrap_or_else(|| shape::skeleton(args.agent)),
        args.agent,
        &handlers,
    )
    .map_err(|m| settings(&file, m))?;
    let events: Vec<&str> = regs.iter().map(|r| r.event.as_str()).collect();
    let command = shown_command(&handlers);
    if root.as_ref() == Some(&new) {
        output::print(&format!(
            "{} already registers `{command}` on {}; nothing changed\n",
            file.display(),
            events.join(", ")
        ));
        return Ok(0);
    }
    let style = old
        .as_deref()
        .filter(|t| !t.trim().is_empty())
        .map(text::style_of)
        .unwrap_or_default();
    let new_text = text::render(&new, &style);
    if args.dry_run {
        output::print(&format!(
            "would write {}:\n{}",
            file.display(),
            diff(old.as_deref().unwrap_or(""), &new_text)
        ));
        return Ok(0);
    }
    let backup = location::backup_of(&file);
    if old.is_some() && !backup.exists() {
        std::fs::copy(&file, &backup).map_err(|source| io(&backup, "cannot write", source))?;
    }
    write(&file, &new_text)?;
    output::print(&format!(
        "registered `{command}` on {} in {}{}\n",
        events.join(", "),
        file.display(),
        if backup.exists() {
            format!(" (original kept as {})", backup.display())
        } else {
            String::new()
        }
    ));
    Ok(0)
}

/// hookrun's handler for each event: the command (with `--event` where the
/// agent's payloads name none, `--on-error allow` when asked), or with
/// `--url` the server (an `http` handler where the agent runs one on the
/// event, else `hookrun forward`); the timeout, and the agent's own
/// fail-safe unless `--on-error allow`.
fn handlers(
    args: &InstallArgs,
    regs: &[Registration],
    program: &str,
    config: Option<&str>,
) -> Vec<shape::Handler> {
    let allow = args.on_error == OnError::Allow;
    let server = args.url.as_deref().map(|url| Server {
        url,
        token_env: args.token_env.as_deref(),
    });
    let http = crate::dialect::setup(args.agent).file.http;
    regs.iter()
        .map(|r| {
            let run = match server {
                Some(s) if http && crate::events::runs_http(&r.model) => shape::Run::Http {
                    url: crate::server_client::hooks_endpoint(s.url, args.agent.as_str()),
                    token_env: s.token_env.map(str::to_owned),
                },
                _ => shape::Run::Command(setup::command(
                    program,
                    args.agent,
                    &Invocation {
                        event: setup::agent::names_event(args.agent).then_some(r.event.as_str()),
                        allow_errors: allow,
                        config,
                        server,
                    },
                )),
            };
            shape::Handler {
                event: r.event.clone(),
                run,
                timeout_secs: r.timeout_secs,
                fail_closed: if allow {
                    None
                } else {
                    setup::fail_safe::fail_closed(args.agent, &r.model)
                },
            }
        })
        .collect()
}

/// What to show the user: the command every handler has (or the first
/// with `--event …` where each event has its own), or the server's URL.
fn shown_command(handlers: &[shape::Handler]) -> String {
    let shown = |h: &shape::Handler| match &h.run {
        shape::Run::Command(c) => c.clone(),
        shape::Run::Http { url, .. } => format!("http {url}"),
    };
    let first = handlers.first().map(shown).unwrap_or_default();
    if handlers.iter().all(|h| shown(h) == first) {
        first
    } else if let Some((head, tail)) = first.split_once(" --event ") {
        let rest = tail.find(' ').map_or("", |i| &tail[i..]);
        format!("{head} --event EVENT{rest}")
    } else {
        let mut all: Vec<String> = Vec::new();
        for s in handlers.iter().map(shown) {
            if !all.contains(&s) {
                all.push(s);
            }
        }
        all.join("` and `")
    }
}

/// The config whose events to register, and whether the user named it
/// (the command then names it too, as `portable::config_word` says;
/// otherwise `run` finds it by discovery).
fn config_to_register(args: &InstallArgs, project: &Path) -> Result<(PathBuf, bool), Error> {
    if let Some(p) = &args.config {
        let abs = std::fs::canonicalize(p).map_err(|source| Error::ConfigRead {
            path: p.clone(),
            source,
        })?;
        return Ok((abs, true));
    }
    let path = match args.scope {
        Scope::Project | Scope::Local => Some(project.join("hookrun.toml")),
        Scope::User => config::user_dir().map(|d| d.join("hookrun.toml")),
    };
    match path {
        Some(p) if p.is_file() => Ok((p, false)),
        Some(p) => Err(Error::Usage(format!(
            "no hookrun config at `{}`: write one with `hookrun init {}`, or name one with --config",
            p.display(),
            crate::dirs::dir_of(&p).display()
        ))),
        None => Err(Error::Usage(
            "neither XDG_CONFIG_HOME nor HOME is set: name the config with --config".into(),
        )),
    }
}

/// How the command names hookrun (`install::program`), its warning or
/// note printed here, once.
fn said(program: crate::install::program::Program) -> String {
    if let Some(why) = &program.machine_specific {
        output::diagnostic(&format!("warning: {why}"));
    }
    if let Some(note) = &program.note {
        output::diagnostic(&format!("note: {note}"));
    }
    program.word
}

/// `--uninstall`: hookrun's handlers out; the backup back when nothing
/// else changed since; the file removed when `install` created it.
fn uninstall(file: &Path, agent: Agent, dry_run: bool) -> Result<ExitStatus, Error> {
    let Some(old) = read_optional(file)? else {
        output::print(&format!(
            "{} does not exist: nothing to remove\n",
            file.display()
        ));
        return Ok(0);
    };
    let root = text::parse(&old).map_err(|m| settings(file, m))?;
    let (after, removed) = shape::uninstall(root, agent);
    if removed == 0 {
        output::print(&format!(
            "{} has no hookrun registration: nothing to remove\n",
            file.display()
        ));
        return Ok(0);
    }
    let backup = location::backup_of(file);
    let original = read_optional(&backup)?;
    let unchanged_since = original
        .as_deref()
        .is_some_and(|b| text::parse(b).is_ok_and(|b| b == after));
    let (what, new_text) = match original {
        Some(b) if unchanged_since => (
            format!("restored {} from {}", file.display(), backup.display()),
            Some(b),
        ),
        None if shape::is_bare(&after, agent) => (
            format!("removed {} (hookrun had created it)", file.display()),
            None,
        ),
        kept => (
            format!(
                "removed {removed} hookrun registration(s) from {}{}",
                file.display(),
                if kept.is_some() {
                    format!("; the file changed since, so {} is kept", backup.display())
                } else {
                    String::new()
                }
            ),
            Some(text::render(&after, &text::style_of(&old))),
        ),
    };
    if dry_run {
        output::print(&format!(
            "would have {what}:\n{}",
            diff(&old, new_text.as_deref().unwrap_or(""))
        ));
        return Ok(0);
    }
    match &new_text {
        Some(t) => write(file, t)?,
        None => std::fs::remove_file(file).map_err(|source| io(file, "cannot remove", source))?,
    }
    if unchanged_since {
        std::fs::remove_file(&backup).map_err(|source| io(&backup, "cannot remove", source))?;
    }
    output::print(&format!("{what}\n"));
    Ok(0)
}

/// The lines that differ, between the common head and tail: `-` old,
/// `+` new.
fn diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let mut out = format!("@@ line {} @@\n", head + 1);
    for l in &a[head..a.len() - tail] {
        out.push_str(&format!("-{l}\n"));
    }
    for l in &b[head..b.len() - tail] {
        out.push_str(&format!("+{l}\n"));
    }
    out
}

fn read_optional(path: &Path) -> Result<Option<String>, Error> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(io(path, "cannot read", source)),
    }
}

/// Writes through a temporary file in the same directory, renamed over
/// the target, so the agent never reads a half-written settings file.
fn write(path: &Path, content: &str) -> Result<(), Error> {
    let dir = crate::dirs::dir_of(path);
    std::fs::create_dir_all(&dir).map_err(|source| io(&dir, "cannot create", source))?;
    let tmp = location::backup_of(path).with_extension("hookrun-tmp");
    std::fs::write(&tmp, content).map_err(|source| io(&tmp, "cannot write", source))?;
    std::fs::rename(&tmp, path).map_err(|source| io(path, "cannot write", source))
}

fn settings(path: &Path, message: String) -> Error {
    Error::Settings {
        path: path.to_owned(),
        message,
    }
}

fn io(path: &Path, what: &str, source: std::io::Error) -> Error {
    Error::Io {
        what: format!("{what} `{}`", path.display()),
        source,
    }
}
