//! Paths named by code rather than by a file tool's input: the files a
//! shell command reads and writes (redirections, file tools, globs as bash
//! expands them) and those R code reads and writes (deputy's `run_r_code`),
//! each judged by protect-paths' rules through [`Judge`]. Apart from
//! `paths.rs` so that the rules and the readers of code stay two files.

use std::path::{Path, PathBuf};

use crate::command::resolve::absolute;
use crate::command::tools::Access;
use crate::guard::{Call, Verdict};
use crate::protect_paths::shell_paths;
use hookrun_code::r::{self as r_code, Act};
use hookrun_sh::expand;

/// protect-paths' rules, as the readers of code use them.
pub(crate) trait Judge {
    /// Why a path (or a glob, `pattern`) is denied for `access`, relative
    /// paths taken from `cwd`; `traversal`: judge `..` out of the project.
    fn judge(
        &self,
        raw: &str,
        pattern: bool,
        access: Access,
        cwd: &Path,
        project: &Path,
        traversal: bool,
    ) -> Option<String>;

    /// Why a glob pattern could reach a denied path.
    fn check_pattern(
        &self,
        raw: &str,
        access: Access,
        cwd: &Path,
        project: &Path,
    ) -> Option<String>;

    /// The home directory `~` stands for.
    fn home(&self) -> &Path;
}

/// A shell tool's command: each path it reads or writes is judged
/// against the deny lists and write roots. Traversal (`..`) is not
/// judged here: `cd ..`-style relative paths are everyday shell use,
/// and what they reach is still judged by the lists. `read_r`: read the
/// R code of `Rscript -e` too.
pub(crate) fn shell_command(
    j: &dyn Judge,
    call: &Call<'_>,
    project: &Path,
    read_r: bool,
) -> Verdict {
    let empty = serde_json::Map::new();
    let input = call.input_object().unwrap_or(&empty);
    let line_len = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.len(),
        serde_json::Value::Array(a) => a.iter().filter_map(|x| x.as_str()).map(str::len).sum(),
        _ => 0,
    };
    let command = input.get("command").or_else(|| input.get("cmd"));
    r_code::reset(command.map_or(0, line_len));
    let touched = match command {
        Some(serde_json::Value::String(line)) => shell_paths::touched(line, read_r),
        Some(serde_json::Value::Array(argv)) => {
            let argv: Vec<String> = argv
                .iter()
                .filter_map(|a| a.as_str().map(str::to_owned))
                .collect();
            shell_paths::touched_argv(&argv, read_r)
        }
        _ => return Verdict::Pass,
    };
    let cwd = event_cwd(call, input, project);
    match shell_paths_denied(j, touched, &cwd, project) {
        Some(why) => Verdict::Deny(format!("shell command: {why}")),
        None => Verdict::Pass,
    }
}

/// Why one of the paths a shell command touches is denied.
fn shell_paths_denied(
    j: &dyn Judge,
    touched: Vec<shell_paths::Touched>,
    cwd: &Path,
    project: &Path,
) -> Option<String> {
    let touched = touched.into_iter().flat_map(|t| {
        // `cat {.env,x}`, `cat .env{,}`: each word the braces make.
        let words = expand::braces(&t.text);
        words
            .into_iter()
            .map(move |text| shell_paths::Touched { text, ..t.clone() })
    });
    for t in touched {
        // A glob is judged as text (its directory, and as a whole) and
        // by the files the shell would expand it to here.
        let expanded = if t.pattern {
            hookrun_sh::glob::expand(&absolute(&t.text, cwd, j.home())).unwrap_or_default()
        } else {
            Vec::new()
        };
        let why = j
            .judge(&t.text, t.pattern, t.access, cwd, project, false)
            .or_else(|| {
                expanded.iter().find_map(|p| {
                    let p = p.display().to_string();
                    j.judge(&p, false, t.access, cwd, project, false)
                        .map(|why| format!("`{}` expands to `{p}`: {why}", t.text))
                })
            });
        if why.is_some() {
            return why;
        }
    }
    None
}

/// R code (deputy's `run_r_code`): each file it reads or writes with a
/// literal path is judged as the Read or Write tool's path would be;
/// its file operations (`unlink`, `file.copy`, …) as the shell
/// commands doing the same, and, with `shell` on, the shell commands
/// it runs.
pub(crate) fn r_code(
    j: &dyn Judge,
    call: &Call<'_>,
    project: &Path,
    shell: bool,
    deny_traversal: bool,
) -> Verdict {
    let empty = serde_json::Map::new();
    let input = call.input_object().unwrap_or(&empty);
    let Some(code) = input.get("code").and_then(serde_json::Value::as_str) else {
        return Verdict::Pass;
    };
    let cwd = event_cwd(call, input, project);
    r_code::reset(code.len());
    let why = r_code::each_use(code, &mut |u| {
        let why = match u.act {
            Act::Reads | Act::Writes if u.text.contains(['*', '?', '[']) => {
                j.check_pattern(&u.text, access(u.act), &cwd, project)
            }
            Act::Reads | Act::Writes => {
                j.judge(&u.text, false, access(u.act), &cwd, project, deny_traversal)
            }
            Act::Does => shell_paths_denied(j, shell_paths::touched(&u.text, true), &cwd, project),
            Act::Runs if shell => {
                shell_paths_denied(j, shell_paths::touched(&u.text, true), &cwd, project)
            }
            _ => None,
        };
        why.map(|w| format!("R `{}(…)`: {w}", u.by))
    });
    why.map_or(Verdict::Pass, Verdict::Deny)
}
/// The access an R use makes.
fn access(act: Act) -> Access {
    if act == Act::Reads {
        Access::Read
    } else {
        Access::Write
    }
}

/// The directory relative paths start from: the shell tool's own `workdir`
/// (Codex) or `dir_path` (Gemini) when given, else the event's `cwd`, else
/// the project.
fn event_cwd(
    call: &Call<'_>,
    input: &serde_json::Map<String, serde_json::Value>,
    project: &Path,
) -> PathBuf {
    let given = ["workdir", "dir_path", "directory"]
        .iter()
        .find_map(|k| input.get(*k).and_then(serde_json::Value::as_str))
        .unwrap_or(call.cwd);
    let cwd = Path::new(given);
    if cwd.is_absolute() {
        cwd.to_path_buf()
    } else {
        project.join(cwd)
    }
}
