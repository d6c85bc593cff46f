//! `protect-paths`: denies reads and writes of sensitive files, path
//! traversal out of the project, and (with `allowed_write_roots`) writes
//! outside given roots. Each path is judged twice: as written (`~` and
//! `$HOME` expanded, relative to the event's `cwd`, `.` and `..` applied as
//! text) and as the kernel walks it (symlinks followed component by
//! component, `..` applied to where they led; see `resolve`). Either
//! reading being protected denies. Deny globs match case-insensitively;
//! roots are compared component by component, so `/out` never admits
//! `/out-other`.

use std::path::{Component, Path, PathBuf};

use crate::command::resolve::{MAX_LINKS, absolute, lexical, literal_prefix, walk};
pub use crate::command::tools::Access;
use crate::command::tools::{R_CODE_TOOLS, READ_TOOLS, SHELL_TOOLS, WRITE_TOOLS, paths_of};
use crate::guard::{Call, Context, Entry, Guard, Verdict, options};
use crate::own_files::OwnFiles;
use code::Judge as _;
use hookrun_sh::expand;
use path_lists::{ALLOW, READ_DENY, WRITE_DENY};
use serde::Deserialize;

/// Options of `protect-paths`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Globs (`*`, `**`, `?`; `~/` expanded) that replace the default
    /// read-and-write deny list.
    pub deny: Option<Vec<String>>,
    #[serde(default)]
    pub extra_deny: Vec<String>,
    /// Globs that replace the default write-only deny list.
    pub write_deny: Option<Vec<String>>,
    #[serde(default)]
    pub extra_write_deny: Vec<String>,
    /// When set, writes must resolve inside one of these directories
    /// (relative ones are resolved against the project directory).
    pub allowed_write_roots: Option<Vec<String>>,
    /// Deny paths that use `..` to leave the project (default true).
    pub deny_traversal: Option<bool>,
    /// Globs exempt from the deny lists (not from traversal or roots);
    /// replace the default list. `./` anchors a glob at the project.
    pub allow: Option<Vec<String>>,
    #[serde(default)]
    pub extra_allow: Vec<String>,
    /// Judge the paths shell commands read and write through redirections
    /// and file tools (`cat`, `cp`, `tee`, `sed -i`, `dd`, …; default true).
    pub shell: Option<bool>,
    /// Judge the literal paths R code reads and writes (deputy's
    /// `run_r_code`, and `Rscript -e`/`R -e` in shell commands when
    /// `shell` is on; default true). The shell commands R runs are judged
    /// when `shell` is on too.
    pub r_code: Option<bool>,
    /// Deny writes to hookrun's own files (its config layers, trust list,
    /// audit log and key, the agent settings that register it) and reads
    /// of the audit key (default true; see `own_files`).
    pub own_files: Option<bool>,
}

/// The compiled rules: globs expanded (`~/`) and split once, at load.
#[derive(Debug)]
pub struct ProtectPaths {
    deny: Vec<(String, crate::glob::PathGlob)>,
    write_deny: Vec<(String, crate::glob::PathGlob)>,
    /// Allow globs matching anywhere (compiled) and anchored at the
    /// project (`./`, compiled per check).
    allow: Vec<crate::glob::PathGlob>,
    allow_in_project: Vec<String>,
    roots: Option<Vec<String>>,
    home: PathBuf,
    deny_traversal: bool,
    shell: bool,
    r_code: bool,
    own_files: bool,
}

impl ProtectPaths {
    #[must_use]
    pub fn new(o: Options) -> Self {
        Self::with_home(o, home())
    }

    /// Like [`new`](Self::new) with `~` and `$HOME` meaning `home`.
    #[must_use]
    pub fn with_home(o: Options, home: PathBuf) -> Self {
        let owned = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let mut deny = o.deny.unwrap_or_else(|| owned(READ_DENY));
        deny.extend(o.extra_deny);
        let mut write_deny = o.write_deny.unwrap_or_else(|| owned(WRITE_DENY));
        write_deny.extend(o.extra_write_deny);
        let mut allow = o.allow.unwrap_or_else(|| owned(ALLOW));
        allow.extend(o.extra_allow);
        let compile = |v: Vec<String>| -> Vec<(String, crate::glob::PathGlob)> {
            v.into_iter()
                .map(|g| {
                    let compiled = glob(&expand(&g, &home));
                    (g, compiled)
                })
                .collect()
        };
        let (in_project, anywhere): (Vec<String>, Vec<String>) =
            allow.into_iter().partition(|g| g.starts_with("./"));
        ProtectPaths {
            deny: compile(deny),
            write_deny: compile(write_deny),
            allow: compile(anywhere).into_iter().map(|(_, g)| g).collect(),
            allow_in_project: in_project,
            roots: o.allowed_write_roots,
            home,
            deny_traversal: o.deny_traversal.unwrap_or(true),
            shell: o.shell.unwrap_or(true),
            r_code: o.r_code.unwrap_or(true),
            own_files: o.own_files.unwrap_or(true),
        }
    }

    /// Why an access to a path is denied, or `None`. `cwd` resolves
    /// relative paths; `project` bounds traversal and relative roots.
    #[must_use]
    pub fn check(&self, raw: &str, access: Access, cwd: &Path, project: &Path) -> Option<String> {
        let own = OwnFiles::default();
        Judging {
            guard: self,
            own: &own,
        }
        .judge(raw, false, access, cwd, project, self.deny_traversal)
    }

    /// Like [`check`](Self::check) for a glob pattern: its literal prefix
    /// (the directory it searches) is judged like a path, and the whole
    /// pattern against the deny lists (so `**/.env` is a read of `.env`).
    ///
    /// Brace alternatives are judged one by one (`{.env,x}`), and a last
    /// component that is a glob by the sensitive names it could match
    /// (`.env*`, `.[e]nv`, `id_*` match `.env`, `id_rsa`: a search filter
    /// is judged by the files it would let through).
    #[must_use]
    pub fn check_pattern(
        &self,
        pattern: &str,
        access: Access,
        cwd: &Path,
        project: &Path,
    ) -> Option<String> {
        let own = OwnFiles::default();
        Judging {
            guard: self,
            own: &own,
        }
        .check_pattern(pattern, access, cwd, project)
    }

    /// The deny glob a path matches (case-insensitively), unless an allow
    /// glob exempts it.
    fn denied(&self, p: &Path, access: Access, project: &[PathBuf], home: &Path) -> Option<&str> {
        let text = p.display().to_string().to_lowercase();
        let comps: Vec<&str> = text.split('/').filter(|c| !c.is_empty()).collect();
        let lists = if access == Access::Write {
            [&self.deny, &self.write_deny]
        } else {
            [&self.deny, &self.deny]
        };
        let (g, _) = lists
            .iter()
            .flat_map(|l| l.iter())
            .find(|(_, glob)| glob.matches(&comps))?;
        if self.allow.iter().any(|a| a.matches(&comps)) {
            return None;
        }
        let holds_home = project
            .iter()
            .any(|p| p.parent().is_none() || home.starts_with(p));
        if !holds_home {
            let anchored = self.allow_in_project.iter().any(|a| {
                let rest = a.trim_start_matches("./");
                project
                    .iter()
                    .any(|p| glob(&format!("{}/{rest}", p.display())).matches(&comps))
            });
            if anchored {
                return None;
            }
        }
        Some(g)
    }
}

/// A path glob matched case-insensitively (paths are lowercased too).
fn glob(pattern: &str) -> crate::glob::PathGlob {
    crate::glob::PathGlob::new(&pattern.to_lowercase())
}

fn home() -> PathBuf {
    std::env::var_os("HOME").map_or_else(|| PathBuf::from("/root"), PathBuf::from)
}

fn expand(pattern: &str, home: &Path) -> String {
    match pattern.strip_prefix("~/") {
        Some(rest) => format!("{}/{rest}", home.display()),
        None => pattern.to_owned(),
    }
}

/// `doctor`'s proof that the guard holds: reading a `.env` is blocked, a
/// harmless file is read. Both are named in a scratch directory.
const CANARIES: &[crate::guard::Canary] = {
    use crate::guard::{Canary, CanaryTool::Read, Expect};
    &[
        Canary {
            event: "PreToolUse",
            tool: Read,
            input: ".env",
            output: None,
            expect: Expect::Blocked,
        },
        Canary {
            event: "PreToolUse",
            tool: Read,
            input: "notes.txt",
            output: None,
            expect: Expect::Allowed,
        },
    ]
};

/// The registry entry of `protect-paths`.
pub const ENTRY: Entry = Entry {
    name: "protect-paths",
    summary: "denies reads/writes of sensitive files, traversal, writes outside roots",
    example: " --option 'allowed_write_roots=[\"/work\"]'",
    canaries: CANARIES,
    build: |o| Ok(Box::new(ProtectPaths::new(options("protect-paths", o)?))),
};

impl Guard for ProtectPaths {
    fn evaluate(&self, call: &Call<'_>, ctx: &Context<'_>) -> Verdict {
        // Cursor's Tab completions read a file (and send its content to a
        // model) outside any tool call: a read of its `file_path`.
        let tab_read = call.event == "BeforeTabFileRead";
        if !matches!(call.event, "PreToolUse" | "PermissionRequest") && !tab_read {
            return Verdict::Pass;
        }
        let (project, own) = (ctx.project, ctx.own());
        let judging = Judging { guard: self, own };
        let tool = call.tool.to_ascii_lowercase();
        if SHELL_TOOLS.contains(&tool.as_str()) {
            if !self.shell {
                return Verdict::Pass;
            }
            return code::shell_command(&judging, call, project, self.r_code);
        }
        if R_CODE_TOOLS.contains(&tool.as_str()) {
            if !self.r_code {
                return Verdict::Pass;
            }
            return code::r_code(&judging, call, project, self.shell, self.deny_traversal);
        }
        let access = if tab_read || READ_TOOLS.contains(&tool.as_str()) {
            Access::Read
        } else if WRITE_TOOLS.contains(&tool.as_str()) {
            Access::Write
        } else {
            return Verdict::Pass;
        };
        let empty = serde_json::Map::new();
        let input = call.input_object().unwrap_or(&empty);
        let cwd = Path::new(call.cwd);
        let cwd = if cwd.is_absolute() {
            cwd.to_path_buf()
        } else {
            project.join(cwd)
        };
        for p in paths_of(&tool, input) {
            let why = if p.pattern {
                judging.check_pattern(&p.text, access, &cwd, project)
            } else {
                judging.judge(&p.text, false, access, &cwd, project, self.deny_traversal)
            };
            if let Some(why) = why {
                return Verdict::Deny(why);
            }
        }
        Verdict::Pass
    }
}

/// protect-paths' rules for one event, with that run's own files.
struct Judging<'a> {
    guard: &'a ProtectPaths,
    own: &'a OwnFiles,
}

impl Judging<'_> {
    /// The first sensitive name the last component of `pattern` could
    /// match, judged as a path in the pattern's directory.
    fn could_match(
        &self,
        pattern: &str,
        access: Access,
        cwd: &Path,
        project: &Path,
    ) -> Option<String> {
        sensitive_names::matched_by(pattern)
            .into_iter()
            .find_map(|path| {
                self.judge(&path, false, access, cwd, project, false)
                    .map(|why| format!("`{pattern}` could match `{path}`: {why}"))
            })
    }
}

impl code::Judge for Judging<'_> {
    fn judge(
        &self,
        raw: &str,
        pattern: bool,
        access: Access,
        cwd: &Path,
        project: &Path,
        deny_traversal: bool,
    ) -> Option<String> {
        let g = self.guard;
        let home = &g.home;
        let target = if pattern {
            literal_prefix(raw)
        } else {
            raw.to_owned()
        };
        let abs = absolute(&target, cwd, home);
        let walked = walk(&abs);
        let complete = walked.complete;
        let mut readings = vec![lexical(&abs)];
        if walked.path != readings[0] {
            readings.push(walked.path);
        }
        let project_abs = absolute(&project.display().to_string(), cwd, home);
        let project_forms = [lexical(&project_abs), walk(&project_abs).path];
        let verb = if access == Access::Read {
            "read"
        } else {
            "write"
        };
        if g.own_files
            && let Some(why) =
                own_files::denied(self.own, raw, &readings, access, &project_forms[0])
        {
            return Some(why);
        }
        let mut listed = readings.clone();
        if pattern {
            listed.push(lexical(&absolute(raw, cwd, home)));
        }
        for r in &listed {
            if let Some(g) = g.denied(r, access, &project_forms, home) {
                let shown = r.display();
                return Some(format!(
                    "{verb} of a sensitive path: `{raw}` (as `{shown}`, matches `{g}`)"
                ));
            }
        }
        let inside = |p: &Path, roots: &[PathBuf]| roots.iter().any(|r| p.starts_with(r));
        let uses_dotdot = Path::new(raw)
            .components()
            .any(|c| c == Component::ParentDir);
        let bounded =
            (deny_traversal && uses_dotdot) || (access == Access::Write && g.roots.is_some());
        if bounded && !complete {
            return Some(format!(
                "`{raw}` cannot be resolved (a symlink loop, more than {MAX_LINKS} links, or an \
                 unreadable component), so it cannot be shown to stay inside"
            ));
        }
        if deny_traversal && uses_dotdot {
            if let Some(out) = readings.iter().find(|r| !inside(r, &project_forms)) {
                return Some(format!(
                    "path traversal out of the project: `{raw}` resolves to `{}`, outside `{}`",
                    out.display(),
                    project.display()
                ));
            }
        }
        if access == Access::Write {
            if let Some(roots) = &g.roots {
                let forms: Vec<PathBuf> = roots
                    .iter()
                    .flat_map(|r| {
                        let abs = absolute(r, &project_forms[0], home);
                        [lexical(&abs), walk(&abs).path]
                    })
                    .collect();
                if let Some(out) = readings.iter().find(|r| !inside(r, &forms)) {
                    return Some(format!(
                        "write outside the allowed roots: `{raw}` resolves to `{}` (allowed: {})",
                        out.display(),
                        roots.join(", ")
                    ));
                }
            }
        }
        None
    }

    fn check_pattern(
        &self,
        pattern: &str,
        access: Access,
        cwd: &Path,
        project: &Path,
    ) -> Option<String> {
        expand::braces(pattern).iter().find_map(|p| {
            self.judge(p, true, access, cwd, project, self.guard.deny_traversal)
                .or_else(|| self.could_match(p, access, cwd, project))
        })
    }

    fn home(&self) -> &Path {
        &self.guard.home
    }
}

mod code;
mod own_files;
mod path_lists;
mod sensitive_names;
mod shell_paths;
#[cfg(test)]
mod tests;
