//! `dangerous-commands`: blocks shell commands that destroy a system, by
//! looking at the commands a command line runs (see `shell.rs`), through
//! `sudo`/`env`/`command` wrappers, `bash -c '…'`, `eval`, `$(…)` and
//! pipelines — not by one regex over the raw text.

use serde::Deserialize;

use crate::command::targets::catastrophic;
use crate::command::tools::{R_CODE_TOOLS, SHELL_TOOLS};
use crate::command::wrappers::{Runs, is_assignment, program, unwrap, unwrap_fed};
use crate::command::writes::redirects;
use crate::guard::{Call, Context, Entry, Guard, Verdict, options};
use categories::{Categories, Selection};
use destructive::fed_destructive;
use hookrun_code::r as r_code;
use hookrun_sh::{self as shell, Command, Pipeline};

mod categories;
mod checked;
mod cwd;
pub(crate) mod destructive;
mod inline;
mod limits;
mod obscured;
mod piped;
mod r_uses;
mod shape;
mod sourced;
mod vars;
mod words;

pub use limits::MAX_INPUT;
use limits::{MAX_NESTING, too_deep, too_long};
use piped::{dash_c_script, runs_stdin};
use sourced::SHELLS;
use sourced::Sourced;

/// Options of `dangerous-commands`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Regexes that replace the built-in rules (tested on each command the
    /// line runs, as `program arg…`).
    pub patterns: Option<Vec<String>>,
    /// Regexes added to the built-in rules.
    #[serde(default)]
    pub extra_patterns: Vec<String>,
    /// Named categories switched on (`"all"`, or names): `categories/`.
    pub categories: Option<Selection>,
}

/// The compiled rule set.
#[derive(Debug)]
pub struct DangerousCommands {
    builtin_rules: bool,
    patterns: Vec<regex::Regex>,
    categories: Categories,
}

impl DangerousCommands {
    /// # Errors
    /// A pattern that does not compile.
    pub fn new(options: Options) -> Result<Self, String> {
        let builtin_rules = options.patterns.is_none();
        let categories = Categories::new(options.categories.as_ref())?;
        let patterns = options
            .patterns
            .unwrap_or_default()
            .into_iter()
            .chain(options.extra_patterns)
            .map(|p| {
                regex::Regex::new(&p)
                    .map_err(|e| format!("pattern `{p}` is not a valid regex: {e}"))
            })
            .collect::<Result<_, _>>()?;
        Ok(DangerousCommands {
            builtin_rules,
            patterns,
            categories,
        })
    }

    /// Why the command line is dangerous, or `None`.
    #[must_use]
    pub fn check(&self, line: &str) -> Option<String> {
        if let Some(why) = too_long(line.len()) {
            return Some(why);
        }
        reset(line.len());
        let why = self.parsed(line, 0);
        reset(0);
        why
    }

    /// Why R code (deputy's `run_r_code`) is dangerous, or `None`: the
    /// commands it runs, the files it deletes and writes, judged as the
    /// same commands given to the shell tool (`r_code`).
    #[must_use]
    pub fn check_r(&self, code: &str) -> Option<String> {
        if let Some(why) = too_long(code.len()) {
            return Some(why);
        }
        reset(code.len());
        let why = r_uses::judged(code, &|t| self.check_nested(t, 0));
        reset(0);
        why
    }

    /// Checks a command given as argv (Codex's `["bash", "-lc", "…"]`).
    #[must_use]
    pub fn check_argv(&self, argv: &[String]) -> Option<String> {
        let len = argv.iter().map(|a| a.len() + 1).sum();
        if let Some(why) = too_long(len) {
            return Some(why);
        }
        reset(len);
        let cmd = Command {
            words: argv.to_vec(),
            ..Command::default()
        };
        let why = self.script(&[vec![cmd]], 0);
        reset(0);
        why
    }

    /// Parses `text` found at `depth` and checks it, refusing what nests
    /// deeper than the guard follows before looking into any of it.
    /// Pipelines are checked as they are parsed, so memory holds one at
    /// a time.
    fn parsed(&self, text: &str, depth: usize) -> Option<String> {
        let too_deep_at = |nesting: usize| depth.saturating_add(nesting) > MAX_NESTING;
        let (found, nesting) = shell::each_pipeline(text, |pipeline, nesting| {
            if too_deep_at(nesting) {
                return Some(too_deep());
            }
            self.script(&[pipeline], depth)
        });
        // Text without a whole pipeline can still nest too deep (`$($(…`).
        found.or_else(|| too_deep_at(nesting).then(too_deep))
    }

    fn script(&self, pipelines: &[Pipeline], depth: usize) -> Option<String> {
        if depth > MAX_NESTING {
            return Some(too_deep());
        }
        for pipeline in pipelines {
            for code in sourced::sourced(pipeline) {
                let why = match code {
                    Sourced::Text(text) => self.check_nested(text, depth),
                    Sourced::Piped(s) if depth + 1 + s.nesting > MAX_NESTING => Some(too_deep()),
                    Sourced::Piped(s) => self.script(&s.pipelines, depth + 1),
                };
                if why.is_some() {
                    return why;
                }
            }
            if let Some(why) = self.pipeline(pipeline, depth) {
                return Some(why);
            }
        }
        None
    }

    fn pipeline(&self, pipeline: &Pipeline, depth: usize) -> Option<String> {
        // Upstream commands already looked at for an earlier stage that
        // runs its stdin: each is looked at once (`… | sh | sh | sh` would
        // otherwise check the same text once per stage).
        let mut seen = 0;
        for (i, cmd) in pipeline.iter().enumerate() {
            if let Some(why) = shape::refused(cmd, self.builtin_rules) {
                return Some(why);
            }
            for sub in &cmd.substitutions {
                if let Some(why) = self.check_nested(sub, depth) {
                    return Some(why);
                }
            }
            let (runs, fed) = unwrap_fed(&cmd.words);
            vars::follow(&cmd.words);
            if let Runs::Argv(argv) = &runs {
                cwd::follow(argv);
            }
            let argv = match runs {
                Runs::Argv(argv) => argv,
                Runs::Script(text) => {
                    if let Some(why) = self.check_nested(&text, depth) {
                        let by = cmd.words.iter().find(|w| !is_assignment(w));
                        let by = by.map(|w| program(w)).unwrap_or_default();
                        return Some(format!("`{by}` runs a shell command line: {why}"));
                    }
                    Vec::new()
                }
            };
            // `env -C / rm -rf etc`: the wrapper's directory, for this
            // command only.
            let moved = cwd::wrapper_dir(&cmd.words).map(|d| cwd::enter(&d));
            let why = self.command(&argv, cmd, depth);
            if let Some(before) = moved {
                cwd::restore(before);
            }
            if why.is_some() {
                return why;
            }
            if self.builtin_rules
                && fed
                && let Some(why) = fed_destructive(&argv)
            {
                return Some(why);
            }
            if self.builtin_rules && i > 0 && runs_stdin(&argv) {
                let upstream = pipeline.get(seen..i).unwrap_or_default();
                seen = i;
                // `x="rm -rf /"; echo "$x" | sh`: the words as echoed.
                let upstream = vars::as_echoed(upstream);
                let check = |t: &str| self.check_nested(t, depth);
                if let Some(why) = piped::piped_into(&upstream, &argv[0], &check) {
                    return Some(why);
                }
            }
        }
        None
    }

    fn check_nested(&self, text: &str, depth: usize) -> Option<String> {
        if checked::is_clean(text, depth + 1) {
            return None;
        }
        // A nested script starts with no known directory or variable, so
        // what it was found to be does not depend on where it was reached.
        let (dir, assigned) = (cwd::take(), vars::take());
        let why = self.parsed(text, depth + 1);
        cwd::restore(dir);
        vars::restore(assigned);
        if why.is_none() {
            checked::mark_clean(text, depth + 1);
        }
        why
    }

    fn command(&self, argv: &[String], cmd: &Command, depth: usize) -> Option<String> {
        if !self.patterns.is_empty() {
            // Joined only when there are patterns: on a long command the
            // copy would cost as much as the command.
            let line = argv.join(" ");
            if let Some(re) = self.patterns.iter().find(|re| re.is_match(&line)) {
                return Some(format!(
                    "`{line}` matches the blocked pattern `{}`",
                    re.as_str()
                ));
            }
        }
        let Some(first) = argv.first() else {
            return self
                .builtin_rules
                .then(|| redirects(&words::redirect_targets(cmd)))
                .flatten();
        };
        let prog = program(first);
        // Variables the line assigned, braces, then the directory it moved
        // to: the words the program really gets.
        let reads_whole = SHELLS.contains(&prog.as_str()) || prog == "eval";
        let expanded = vars::expand_words(argv, !reads_whole);
        if let Some(full) = &expanded
            && let Some(name) = full.first()
            && name != first
            && !name.contains('$')
        {
            // `x="sudo rm -rf /"; $x`: a command name the line spelled out.
            return self.command(&unwrap(full), cmd, depth);
        }
        let argv = expanded.as_deref().unwrap_or(argv);
        let braced = words::braced(&argv[1..]);
        let args = braced.as_deref().unwrap_or(&argv[1..]);
        if self.builtin_rules
            && let Some(why) = piped::substituted_code(&prog, cmd)
        {
            return Some(why);
        }
        // Code run by a shell or `eval`: look inside.
        if SHELLS.contains(&prog.as_str()) || prog == "eval" {
            let script = if prog == "eval" {
                Some(args.join(" "))
            } else {
                dash_c_script(args)
            };
            if let Some(s) = script {
                if let Some(why) = self.check_nested(&s, depth) {
                    return Some(why);
                }
            } else if prog != "eval" {
                // `sh <<EOF … EOF`, `bash <<< "…"`: the shell runs its stdin.
                for body in &cmd.here {
                    if let Some(why) = self.check_nested(body, depth) {
                        return Some(why);
                    }
                }
            }
        }
        // `alias x='rm -rf /'`: an alias's value is code the shell runs
        // where the alias is used.
        if prog == "alias" {
            for value in args
                .iter()
                .filter_map(|a| a.split_once('=').map(|(_, v)| v))
            {
                if let Some(why) = self.check_nested(value, depth) {
                    return Some(format!("an alias runs a command: {why}"));
                }
            }
        }
        if self.builtin_rules
            && let Some(why) =
                inline::inline_program(&prog, args, cmd, &|t| self.check_nested(t, depth))
        {
            return Some(why);
        }
        if let Some(why) = self.categories.check(&prog, args, catastrophic) {
            return Some(why);
        }
        if !self.builtin_rules {
            return None;
        }
        if let Some(why) = redirects(&words::redirect_targets(cmd)) {
            return Some(why);
        }
        match cwd::resolve_operands(&prog, args) {
            Some(resolved) => destructive::rules(first, &resolved),
            None => destructive::rules(first, args),
        }
    }
}

/// Starts (and ends) one check: nothing found in an earlier one is kept,
/// and the R reader's budget is sized for an input of `len` bytes.
fn reset(len: usize) {
    checked::reset();
    cwd::reset();
    vars::reset();
    r_code::reset(len);
}

/// `doctor`'s proof that the guard holds: a recursive delete of `/` is
/// blocked, `ls` goes through.
const CANARIES: &[crate::guard::Canary] = {
    use crate::guard::{Canary, CanaryTool::Shell, Expect};
    &[
        Canary {
            event: "PreToolUse",
            tool: Shell,
            input: "rm -rf /",
            output: None,
            expect: Expect::Blocked,
        },
        Canary {
            event: "PreToolUse",
            tool: Shell,
            input: "ls",
            output: None,
            expect: Expect::Allowed,
        },
    ]
};

/// The registry entry of `dangerous-commands`.
pub const ENTRY: Entry = Entry {
    name: "dangerous-commands",
    summary: "denies shell commands that destroy a system",
    example: "",
    canaries: CANARIES,
    build: |o| {
        Ok(Box::new(DangerousCommands::new(options(
            "dangerous-commands",
            o,
        )?)?))
    },
};

impl Guard for DangerousCommands {
    fn evaluate(&self, call: &Call<'_>, _ctx: &Context<'_>) -> Verdict {
        let tool = call.tool.to_ascii_lowercase();
        let guard_event = matches!(call.event, "PreToolUse" | "PermissionRequest");
        let empty = serde_json::Map::new();
        let input = call.input_object().unwrap_or(&empty);
        let top = call.command;
        if !guard_event && top.is_none() {
            return Verdict::Pass;
        }
        if guard_event && R_CODE_TOOLS.contains(&tool.as_str()) {
            let code = input.get("code").and_then(serde_json::Value::as_str);
            return match code.and_then(|code| self.check_r(code)) {
                Some(why) => Verdict::Deny(format!("dangerous R code: {why}")),
                None => Verdict::Pass,
            };
        }
        if top.is_none() && !SHELL_TOOLS.contains(&tool.as_str()) {
            return Verdict::Pass;
        }
        let command = input.get("command").or_else(|| input.get("cmd")).or(top);
        let why = match command {
            Some(serde_json::Value::String(line)) => self.check(line),
            Some(serde_json::Value::Array(argv)) => {
                let argv: Vec<String> = argv
                    .iter()
                    .filter_map(|a| a.as_str().map(str::to_owned))
                    .collect();
                self.check_argv(&argv)
            }
            _ => None,
        };
        why.map_or(Verdict::Pass, |w| {
            Verdict::Deny(format!("dangerous command: {w}"))
        })
    }
}
