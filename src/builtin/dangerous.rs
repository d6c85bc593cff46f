//! `dangerous-commands`: blocks shell commands that destroy a system, by
//! looking at the commands a command line runs (see `shell.rs`), through
//! `sudo`/`env`/`command` wrappers, `bash -c '…'`, `eval`, `$(…)` and
//! pipelines — not by one regex over the raw text.

use serde::Deserialize;

use super::categories::{Categories, Selection};
use super::guard::{Entry, Guard, Verdict, options};
use super::shell::{self, Command, Pipeline};
use super::destructive::{self, fed_destructive};
use super::writes::redirects;
use super::inline_code;
use super::obscured::{decoded_in, decoder};
use super::targets::{account_file, catastrophic, device_target};
use super::tools::SHELL_TOOLS;
use super::wrappers::{Runs, is_assignment, program, unwrap, unwrap_fed};
use crate::event::Event;

mod checked;
mod cwd;
mod sourced;

use sourced::Sourced;

/// How deep the guard follows shells in shells, `eval` and substitutions.
/// Deeper text is denied, never allowed unseen.
const MAX_NESTING: usize = 8;

/// The longest command line analysed: far above any real one (Linux caps
/// one argument at 128 KiB and a whole command line at 2 MiB), so only
/// text crafted to exhaust the guard is denied for its size.
pub const MAX_INPUT: usize = 16 << 20;

fn too_long(len: usize) -> Option<String> {
    (len > MAX_INPUT).then(|| {
        format!(
            "a command of {len} bytes is longer than the {} MiB the guard analyses",
            MAX_INPUT >> 20
        )
    })
}

fn too_deep() -> String {
    format!(
        "commands nested more than {MAX_NESTING} levels deep (shells, `eval`, substitutions) are more than the guard analyses"
    )
}

/// Shells: `… | sh` runs whatever comes in, `sh -c X` runs X.
const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "ksh", "dash", "fish", "csh", "tcsh", "ash", "mksh", "busybox",
];
/// Interpreters that run a program read from stdin.
const INTERPRETERS: &[&str] = &[
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "nodejs",
    "php",
    "lua",
    "deno",
    "bun",
    "pwsh",
    "osascript",
];
/// Programs that fetch from the network.
const DOWNLOADERS: &[&str] = &["curl", "wget", "fetch", "aria2c", "http", "https", "xh"];
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
        checked::reset();
        cwd::reset();
        let why = self.parsed(line, 0);
        checked::reset();
        cwd::reset();
        why
    }

    /// Checks a command given as argv (Codex's `["bash", "-lc", "…"]`).
    #[must_use]
    pub fn check_argv(&self, argv: &[String]) -> Option<String> {
        if let Some(why) = too_long(argv.iter().map(|a| a.len() + 1).sum()) {
            return Some(why);
        }
        checked::reset();
        cwd::reset();
        let cmd = Command {
            words: argv.to_vec(),
            ..Command::default()
        };
        let why = self.script(&[vec![cmd]], 0);
        checked::reset();
        cwd::reset();
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
            if self.builtin_rules
                && let Some(name) = &cmd.fork_bomb
            {
                return Some(format!(
                    "a fork bomb: function `{name}` starts copies of itself in a pipeline or in the background"
                ));
            }
            if self.builtin_rules
                && let Some((name, fields)) = &cmd.ifs_name
                && let Some(why) = destructive::rules(name, cmd.words.get(*fields..).unwrap_or_default())
            {
                return Some(why);
            }
            for sub in &cmd.substitutions {
                if let Some(why) = self.check_nested(sub, depth) {
                    return Some(why);
                }
            }
            let (runs, fed) = unwrap_fed(&cmd.words);
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
            if let Some(why) = self.command(&argv, cmd, depth) {
                return Some(why);
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
                if let Some(d) = upstream.iter().map(|c| unwrap(&c.words)).find(|a| {
                    a.first()
                        .is_some_and(|p| DOWNLOADERS.contains(&program(p).as_str()))
                }) {
                    return Some(format!(
                        "a download (`{}`) piped into `{}` runs code from the network unseen",
                        program(&d[0]),
                        program(&argv[0])
                    ));
                }
                if let Some(d) = upstream.iter().find_map(|c| decoder(&unwrap(&c.words))) {
                    return Some(format!(
                        "decoded text ({d}) piped into `{}` runs code the guard cannot read",
                        program(&argv[0])
                    ));
                }
                // `echo 'rm -rf /' | sh` runs the echoed text, and
                // `cat <<EOF | sh` the here-doc.
                for up in upstream {
                    for body in &up.here {
                        if let Some(why) = self.check_nested(body, depth) {
                            return Some(why);
                        }
                    }
                    let a = unwrap(&up.words);
                    let up_prog = a.first().map(|p| program(p)).unwrap_or_default();
                    if matches!(up_prog.as_str(), "echo" | "printf") {
                        if let Some(why) = self.check_nested(&a[1..].join(" "), depth) {
                            return Some(why);
                        }
                    }
                    // `awk 'BEGIN{print "rm -rf /"}' | sh`: what it prints.
                    if inline_code::is_awk(&up_prog)
                        && let Some(code) = inline_code::awk_program(&a[1..])
                    {
                        for printed in inline_code::awk_literals(code) {
                            if let Some(why) = self.check_nested(&printed, depth) {
                                return Some(why);
                            }
                        }
                    }
                }
            }
        }
        None
    }

    /// An interpreter's inline program or here-doc (`inline_code`): the
    /// strings it hands to a shell are checked as shell commands, and the
    /// paths handed to its delete calls as `rm -r` targets.
    fn inline_code(
        &self,
        prog: &str,
        args: &[String],
        cmd: &Command,
        depth: usize,
    ) -> Option<String> {
        let codes: Vec<String> = match inline_code::code_of(prog, args) {
            Some(code) => vec![code],
            None => cmd.here.clone(),
        };
        for code in &codes {
            for path in inline_code::deleted_paths(code) {
                if catastrophic(&path) || account_file(&path) {
                    return Some(format!("inline `{prog}` code deletes `{path}`"));
                }
            }
            for literal in inline_code::executed_literals(code) {
                if let Some(why) = self.check_nested(&literal, depth) {
                    return Some(format!("inline `{prog}` code runs a command: {why}"));
                }
            }
        }
        None
    }

    fn check_nested(&self, text: &str, depth: usize) -> Option<String> {
        if checked::is_clean(text, depth + 1) {
            return None;
        }
        // A nested script starts with no known directory, so what it was
        // found to be does not depend on where the outer one had moved.
        let outer = cwd::take();
        let why = self.parsed(text, depth + 1);
        cwd::restore(outer);
        if why.is_none() {
            checked::mark_clean(text, depth + 1);
        }
        why
    }

    fn command(&self, argv: &[String], cmd: &Command, depth: usize) -> Option<String> {
        let line = argv.join(" ");
        if let Some(re) = self.patterns.iter().find(|re| re.is_match(&line)) {
            return Some(format!(
                "`{line}` matches the blocked pattern `{}`",
                re.as_str()
            ));
        }
        let Some(first) = argv.first() else {
            return self.builtin_rules.then(|| redirects(cmd)).flatten();
        };
        let prog = program(first);
        let args = &argv[1..];
        // `bash <(curl …)`, `sh -c "$(curl …)"`: a download fed to a shell.
        if self.builtin_rules
            && (SHELLS.contains(&prog.as_str())
                || INTERPRETERS.contains(&prog.as_str())
                || prog == "eval")
        {
            for sub in &cmd.substitutions {
                let downloads = shell::parse(sub).iter().flatten().any(|c| {
                    unwrap(&c.words)
                        .first()
                        .is_some_and(|p| DOWNLOADERS.contains(&program(p).as_str()))
                });
                if downloads {
                    return Some(format!(
                        "a download (`{}`) run by `{prog}` runs code from the network unseen",
                        sub.trim()
                    ));
                }
                if !INTERPRETERS.contains(&prog.as_str())
                    && let Some(d) = decoded_in(sub)
                {
                    return Some(format!(
                        "decoded text ({d}) run by `{prog}` is code the guard cannot read"
                    ));
                }
            }
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
            for value in args.iter().filter_map(|a| a.split_once('=').map(|(_, v)| v)) {
                if let Some(why) = self.check_nested(value, depth) {
                    return Some(format!("an alias runs a command: {why}"));
                }
            }
        }
        if self.builtin_rules
            && INTERPRETERS.contains(&prog.as_str())
            && let Some(why) = self.inline_code(&prog, args, cmd, depth)
        {
            return Some(why);
        }
        if self.builtin_rules
            && inline_code::is_awk(&prog)
            && let Some(code) = inline_code::awk_program(args)
        {
            for file in inline_code::awk_written(code) {
                if let Some(why) = device_target(&file, &format!("inline `{prog}` code")) {
                    return Some(why);
                }
                if account_file(&file) {
                    return Some(format!("inline `{prog}` code overwrites `{file}`"));
                }
            }
            for command in inline_code::awk_commands(code) {
                if let Some(why) = self.check_nested(&command, depth) {
                    return Some(format!("inline `{prog}` code runs a command: {why}"));
                }
            }
        }
        if let Some(why) = self.categories.check(&prog, args, catastrophic) {
            return Some(why);
        }
        if !self.builtin_rules {
            return None;
        }
        if let Some(why) = redirects(cmd) {
            return Some(why);
        }
        if prog == "rm"
            && let Some(resolved) = cwd::resolve(args)
        {
            return destructive::rules(first, &resolved);
        }
        destructive::rules(first, args)
    }
}

/// The script of `sh -c SCRIPT`: options may come before and after `-c`,
/// be clustered (`-lc`, `-euc`), take a value (`-o pipefail`, `+O
/// extglob`, `--rcfile F`), and `--` ends them.
fn dash_c_script(args: &[String]) -> Option<String> {
    let (mut saw_c, mut skip_value) = (false, false);
    let mut operands = args.iter();
    for a in operands.by_ref() {
        if skip_value {
            skip_value = false;
        } else if a == "--" || a == "-" {
            break;
        } else if let Some(long) = a.strip_prefix("--") {
            skip_value = matches!(long, "rcfile" | "init-file");
        } else if let Some(flags) = a.strip_prefix('-').or_else(|| a.strip_prefix('+')) {
            saw_c |= a.starts_with('-') && flags.contains('c');
            skip_value = flags.contains(['o', 'O']);
        } else {
            return saw_c.then(|| a.clone());
        }
    }
    operands.next().filter(|_| saw_c).cloned()
}

/// Whether a command runs code read from its stdin (`sh`, `sudo bash -s`,
/// `python3`, `python3 -`, `source /dev/stdin`), as the last stage of a
/// pipeline does.
fn runs_stdin(argv: &[String]) -> bool {
    let Some(first) = argv.first() else {
        return false;
    };
    let prog = program(first);
    if SHELLS.contains(&prog.as_str()) {
        return dash_c_script(&argv[1..]).is_none();
    }
    if matches!(first.as_str(), "source" | ".") {
        return argv.get(1).is_some_and(|f| sourced::is_stdin(f));
    }
    INTERPRETERS.contains(&prog.as_str())
        && argv[1..]
            .iter()
            .all(|a| a.starts_with('-') && a != "-c" && a != "-e")
}


/// The registry entry of `dangerous-commands`.
pub const ENTRY: Entry = Entry {
    name: "dangerous-commands",
    summary: "denies shell commands that destroy a system",
    build: |o| {
        Ok(Box::new(DangerousCommands::new(options(
            "dangerous-commands",
            o,
        )?)?))
    },
};

impl Guard for DangerousCommands {
    fn evaluate(&self, event: &Event, _project: &std::path::Path) -> Verdict {
        let tool = event.str_field("tool_name").to_ascii_lowercase();
        let guard_event = matches!(event.name.as_str(), "PreToolUse" | "PermissionRequest");
        let empty = serde_json::Map::new();
        let input = event.tool_input().unwrap_or(&empty);
        let top = event.fields.get("command");
        if !guard_event && top.is_none() {
            return Verdict::Pass;
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

