//! Commands about hookrun itself: the config schema, completions, the man page.

use clap::CommandFactory;

use crate::cli::{Cli, ManArgs};
use crate::error::{Error, ExitStatus};
use crate::output;

/// `hookrun schema`: the JSON Schema of the TOML config.
///
/// # Errors
/// None: the schema is generated.
pub(crate) fn schema() -> Result<ExitStatus, Error> {
    output::print(
        &(serde_json::to_string_pretty(&crate::config::toml_schema()).unwrap_or_default() + "\n"),
    );
    Ok(0)
}

/// `hookrun completions SHELL`.
///
/// # Errors
/// None: completions are generated.
pub(crate) fn completions(shell: clap_complete::Shell) -> Result<ExitStatus, Error> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "hookrun", &mut buf);
    output::print(&String::from_utf8_lossy(&buf));
    Ok(0)
}

/// `hookrun man [SUBCOMMAND] [--all DIR]`: man pages generated from the
/// CLI definition. One page per subcommand, named as git names its own
/// (`hookrun-test(1)`), so `man hookrun-test` finds it once installed.
///
/// # Errors
/// An unknown subcommand, a page that cannot be rendered, or a directory
/// that cannot be written.
pub(crate) fn man(args: &ManArgs) -> Result<ExitStatus, Error> {
    let mut top = Cli::command();
    top.build();
    if let Some(dir) = &args.all {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io {
            what: format!("cannot create `{}`", dir.display()),
            source,
        })?;
        let mut written = 0;
        for (name, cmd) in pages(&top, "hookrun") {
            let path = dir.join(format!("{name}.1"));
            std::fs::write(&path, render(cmd)?).map_err(|source| Error::Io {
                what: format!("cannot write `{}`", path.display()),
                source,
            })?;
            written += 1;
        }
        output::diagnostic(&format!("wrote {written} man pages into {}", dir.display()));
        return Ok(0);
    }
    let page = match &args.subcommand {
        None => top,
        Some(sub) => {
            let wanted = format!("hookrun-{sub}");
            pages(&top, "hookrun")
                .into_iter()
                .find(|(name, _)| *name == wanted)
                .map(|(_, cmd)| cmd)
                .ok_or_else(|| {
                    Error::Usage(format!(
                        "no subcommand `{sub}` (hookrun man --all DIR writes every page)"
                    ))
                })?
        }
    };
    output::print(&String::from_utf8_lossy(&render(page)?));
    Ok(0)
}

/// Every page of the tree: `hookrun`, then `hookrun-SUB` and
/// `hookrun-SUB-NESTED`, each command renamed so its page's NAME and
/// SYNOPSIS read as the page's own name. `help` is skipped: it has no page.
fn pages(cmd: &clap::Command, name: &str) -> Vec<(String, clap::Command)> {
    let mut out = vec![(name.to_owned(), cmd.clone().name(name.to_owned()))];
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let sub_name = format!("{name}-{}", sub.get_name());
        out.extend(pages(sub, &sub_name));
    }
    out
}

fn render(cmd: clap::Command) -> Result<Vec<u8>, Error> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut buf)
        .map_err(|e| Error::Internal(format!("cannot render the man page: {e}")))?;
    Ok(buf)
}
