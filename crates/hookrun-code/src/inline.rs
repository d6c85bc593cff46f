//! Code an interpreter runs from the command line (`python -c`, `perl -e`,
//! `node -e`, …) or from a here-doc: the guard cannot run it, so it looks
//! for what it can recognise — the string literals (a shell command handed
//! to `os.system`, `execSync`, `system`, backticks) and the paths handed to
//! the languages' delete calls (`shutil.rmtree`, `os.remove`, `fs.rmSync`,
//! `FileUtils.rm_rf`, Perl's `rmtree`/`unlink`). A best effort over text:
//! code that builds its strings at run time is not seen.

use std::sync::LazyLock;

use crate::literals::literals;
use hookrun_sh::word::quoted;

/// The inline program of an interpreter's command line, if it has one.
pub fn code_of(prog: &str, args: &[String]) -> Option<String> {
    let flags: &[&str] = match prog {
        p if p.starts_with("python") => &["-c"],
        "perl" | "ruby" => &["-e", "-E"],
        "node" | "nodejs" | "deno" | "bun" => &["-e", "--eval", "-p", "--print"],
        "php" => &["-r"],
        "lua" => &["-e"],
        _ => return None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if flags.contains(&a.as_str()) {
            return it.next().cloned();
        }
        // Clustered (`-Mstrict -e`, `-ne`): the code follows a cluster
        // ending in the flag's letter.
        if a.len() > 2
            && a.starts_with('-')
            && !a.starts_with("--")
            && flags.iter().any(|f| f.len() == 2 && a.ends_with(&f[1..]))
        {
            return it.next().cloned();
        }
    }
    None
}

/// Calls that hand a string to a shell (or run it as a command line).
const EXEC_CALLS: &[&str] = &[
    "system",
    "popen",
    "exec",
    "execSync",
    "execFileSync",
    "spawnSync",
    "spawn",
    "check_call",
    "check_output",
    "call",
    "run",
    "Popen",
    "getoutput",
    "getstatusoutput",
    "shell_exec",
    "passthru",
    "proc_open",
    "qx",
    "execute",
    "execv",
    "execve",
    "execvp",
    "execvpe",
    "execl",
    "execlp",
    "execle",
    "spawnv",
    "spawnvp",
    "spawnl",
    "spawnlp",
    "spawnlpe",
    "spawnle",
    "spawnve",
    "spawnvpe",
    "posix_spawn",
    "posix_spawnp",
];

/// The string literals a program runs as commands: those handed straight to
/// a call in `EXEC_CALLS` (`os.system('…')`, `execSync("…")`) and backtick
/// literals (Ruby, Perl, PHP). Other literals are data (`print('rm -rf /')`).
/// An argument list of literals (`subprocess.run(["rm", "-rf", "/"])`,
/// `execFileSync("rm", ["-rf", "/"])`, Perl's `system("rm", "-rf", "/")`)
/// is one command, its words quoted for the shell as the program passes
/// them.
pub fn executed_literals(code: &str) -> Vec<String> {
    let lits = literals(code);
    let mut out = quote_like_commands(code);
    let mut k = 0;
    while let Some(lit) = lits.get(k) {
        k += 1;
        if lit.quote == b'`' {
            out.push(lit.text.clone());
            continue;
        }
        if !called_by_exec(lit.before) {
            continue;
        }
        let mut words = vec![lit];
        while words.last().is_some_and(|w| in_list(w.after))
            && let Some(next) = lits.get(k)
        {
            words.push(next);
            k += 1;
        }
        out.push(match words.as_slice() {
            [one] => one.text.clone(),
            many => many
                .iter()
                .map(|w| quoted(&w.text))
                .collect::<Vec<_>>()
                .join(" "),
        });
    }
    out
}

/// Whether the text between two literals keeps them in one argument list
/// (`", "`, `", ["`).
fn in_list(between: &str) -> bool {
    !between.is_empty()
        && between
            .chars()
            .all(|c| c.is_whitespace() || matches!(c, ',' | '[' | ']'))
        && between.contains(',')
}

/// Whether the text before a literal ends in an exec-like call's opening:
/// `system(`, `os.system (`, `execSync(`, Perl's `system ` without
/// parentheses.
fn called_by_exec(before: &str) -> bool {
    let opening = before.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '(' | '['));
    if EXEC_CALLS.contains(&trailing_name(opening)) {
        return true;
    }
    // A later argument of a call still open (`os.spawnlp(os.P_WAIT, 'rm',
    // …)`).
    before
        .rfind('(')
        .filter(|&open| !before[open..].contains(')'))
        .is_some_and(|open| EXEC_CALLS.contains(&trailing_name(before[..open].trim_end())))
}

/// The identifier `text` ends with (`os.system` gives `system`).
fn trailing_name(text: &str) -> &str {
    let start = text
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |i| {
            i + text[i..].chars().next().map_or(1, char::len_utf8)
        });
    &text[start..]
}

/// Perl's and Ruby's command operators, which run their text as a shell
/// command line: `qx{…}`, `qx(…)`, `qx/…/` and Ruby's `%x(…)`; and
/// `system qw(rm -rf /)` / `exec qw(…)`, a word list handed to an exec
/// call.
fn quote_like_commands(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (op, at, body) in quote_like(code) {
        match op {
            "qx" | "%x" => out.push(body.to_owned()),
            _ if called_by_exec(&code[..at]) => out.push(
                body.split_whitespace()
                    .map(quoted)
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            _ => {}
        }
    }
    out
}

/// Every `qx`, `%x` and `qw` quote of `code`: the operator, where it
/// starts and its body (brackets pair up; other delimiters repeat).
fn quote_like(code: &str) -> Vec<(&'static str, usize, &str)> {
    let mut out = Vec::new();
    for op in ["qx", "%x", "qw"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(op).map(|i| i + from) {
            from = at + op.len();
            let word_start = !code[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
            let rest = code[from..].trim_start();
            let Some(open) = rest.chars().next() else {
                continue;
            };
            let delimiter = !open.is_alphanumeric()
                && !open.is_whitespace()
                && !matches!(open, '_' | ',' | ';' | '=' | ')');
            if !word_start || !delimiter {
                continue;
            }
            let close = match open {
                '(' => ')',
                '{' => '}',
                '[' => ']',
                '<' => '>',
                c => c,
            };
            let body_start = code.len() - rest.len() + open.len_utf8();
            if let Some(len) = code[body_start..].find(close) {
                out.push((op, at, &code[body_start..body_start + len]));
                from = body_start + len;
            }
        }
    }
    out
}

/// The literal paths handed to the languages' delete calls, also through a
/// call that wraps the path (`unlink glob("/etc/*")`, `FileUtils.rm_rf(
/// Dir.glob("/*"))`, `shutil.rmtree(pathlib.Path("/"))`).
pub fn deleted_paths(code: &str) -> Vec<String> {
    static DELETE: LazyLock<Option<regex::Regex>> = LazyLock::new(|| {
        regex::Regex::new(
            r#"(?:rmtree|remove|unlink|rmdir|removedirs|rmSync|rmdirSync|unlinkSync|rm_rf|rm_r|rm_f|remove_dir_all|remove_entry_secure)\s*\(?\s*(?:[\w.:]*\s*\(?\s*)?(?:r|b|rb)?["']([^"']+)["']"#,
        )
        .ok()
    });
    let Some(re) = DELETE.as_ref() else {
        return Vec::new();
    };
    re.captures_iter(code)
        .filter_map(|c| c.get(1).map(|m| m.as_str().to_owned()))
        .collect()
}
