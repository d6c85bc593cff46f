//! `hookrun run|builtin|serve …` commands found in a config (what `hookrun
//! install` registers in agents' settings, or what people write by hand):
//! read by hookrun's own command line definition, so a flag, a `--config`
//! path, a built-in name or its options that `hookrun` would refuse on
//! every event is a finding now, not a failing hook later.
//!
//! This reads `crate::cli` (a declaration of the command line, no logic):
//! keeping a second table of flags here would drift from the real one.

use std::path::{Path, PathBuf};

use clap::Parser;
use clap::error::{ContextKind, ContextValue, ErrorKind};

use crate::cli::{Cli, Command};
use crate::config::{Code, Diagnostic, Hook};

/// Lints `words` (the command split as a shell would) when it runs hookrun.
pub(super) fn lint(hook: &Hook, words: &[String], project_dir: &Path, out: &mut Vec<Diagnostic>) {
    let Some(program) = words.first() else {
        return;
    };
    if program.rsplit('/').next() != Some("hookrun")
        || !matches!(
            words.get(1).map(String::as_str),
            Some("run" | "builtin" | "serve")
        )
    {
        return;
    }
    let sub = &words[1];
    let cli = match Cli::try_parse_from(words) {
        Ok(cli) => cli,
        Err(e) => {
            out.push(parse_error(hook, sub, &e));
            return;
        }
    };
    let configs = match &cli.command {
        Command::Run(a) => &a.configs,
        Command::Serve(s) => &s.run.configs,
        Command::Builtin(b) => {
            let built = crate::builtin::options_from_args(b.options.as_deref(), &b.option)
                .and_then(|o| crate::builtin::Builtin::new(&b.name, o, b.mode));
            if let Err(why) = built {
                let d = hook.diagnostic(
                    Code::BadBuiltin,
                    format!("`hookrun builtin` in this command fails on every event: {why}"),
                );
                out.push(d.fix("fix the name or options (`hookrun builtin --help`)"));
            }
            return;
        }
        _ => return,
    };
    let Some(missing) = missing_config(configs, project_dir) else {
        return;
    };
    let message = format!(
        "this hookrun registration names the config `{}`, which does not exist: every event it runs for fails",
        missing.display()
    );
    out.push(
        hook.diagnostic(Code::ScriptMissing, message)
            .fix("fix the path, or run `hookrun install` again with the right --config"),
    );
}

/// The finding for words clap refuses: the offending flag and clap's own
/// suggestion when there is one.
fn parse_error(hook: &Hook, sub: &str, e: &clap::Error) -> Diagnostic {
    let context = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => v.first().cloned(),
        _ => None,
    };
    let (message, fix) = if e.kind() == ErrorKind::UnknownArgument {
        let flag = context(ContextKind::InvalidArg).unwrap_or_default();
        (
            format!(
                "`hookrun {sub}` has no argument `{flag}`: it exits with a usage error on every event"
            ),
            context(ContextKind::SuggestedArg).map(|s| format!("did you mean `{s}`?")),
        )
    } else {
        // clap's own first line, without its `error: ` prefix.
        let text = e.to_string();
        let first = text.lines().next().unwrap_or_default();
        (
            format!(
                "`hookrun {sub}` refuses this command line, so it fails on every event: {}",
                first.trim_start_matches("error: ")
            ),
            None,
        )
    };
    let d = hook.diagnostic(Code::BadInvocation, message);
    d.fix(fix.unwrap_or_else(|| format!("see `hookrun {sub} --help`")))
}

/// The first `--config` file that does not exist (relative ones resolved
/// against the project directory; one still holding a variable is skipped).
fn missing_config(configs: &[PathBuf], project_dir: &Path) -> Option<PathBuf> {
    configs
        .iter()
        .map(|p| {
            // Without `.` components: `gone.toml`, not `././gone.toml`.
            project_dir
                .join(p)
                .components()
                .filter(|c| !matches!(c, std::path::Component::CurDir))
                .collect::<PathBuf>()
        })
        .find(|p| !p.to_string_lossy().contains('$') && !p.exists())
}
