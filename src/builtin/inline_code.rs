//! Code an interpreter runs from the command line (`python -c`, `perl -e`,
//! `node -e`, …) or from a here-doc: the guard cannot run it, so it looks
//! for what it can recognise — the string literals (a shell command handed
//! to `os.system`, `execSync`, `system`, backticks) and the paths handed to
//! the languages' delete calls (`shutil.rmtree`, `os.remove`, `fs.rmSync`,
//! `FileUtils.rm_rf`, Perl's `rmtree`/`unlink`). A best effort over text:
//! code that builds its strings at run time is not seen.

use std::sync::LazyLock;

/// The inline program of an interpreter's command line, if it has one.
pub(super) fn code_of(prog: &str, args: &[String]) -> Option<String> {
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
];

/// The string literals a program runs as commands: those handed straight to
/// a call in `EXEC_CALLS` (`os.system('…')`, `execSync("…")`) and backtick
/// literals (Ruby, Perl, PHP). Other literals are data (`print('rm -rf /')`).
pub(super) fn executed_literals(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let quote = chars[i];
        if !matches!(quote, '\'' | '"' | '`') {
            i += 1;
            continue;
        }
        let opened = i;
        let mut lit = String::new();
        let mut escaped = false;
        i += 1;
        while i < chars.len() {
            let d = chars[i];
            i += 1;
            if escaped {
                lit.push(d);
                escaped = false;
            } else if d == '\\' {
                escaped = true;
            } else if d == quote {
                break;
            } else {
                lit.push(d);
            }
        }
        if quote == '`' || called_by_exec(&chars[..opened]) {
            out.push(lit);
        }
    }
    out
}

/// Whether the text before a literal ends in an exec-like call's opening:
/// `system(`, `os.system (`, `execSync(`, Perl's `system ` without
/// parentheses.
fn called_by_exec(before: &[char]) -> bool {
    let mut j = before.len();
    while j > 0 && (before[j - 1].is_whitespace() || matches!(before[j - 1], '(' | '[')) {
        j -= 1;
    }
    let end = j;
    while j > 0 && (before[j - 1].is_alphanumeric() || before[j - 1] == '_') {
        j -= 1;
    }
    let name: String = before[j..end].iter().collect();
    EXEC_CALLS.contains(&name.as_str())
}

/// The literal paths handed to the languages' delete calls.
pub(super) fn deleted_paths(code: &str) -> Vec<String> {
    static DELETE: LazyLock<Option<regex::Regex>> = LazyLock::new(|| {
        regex::Regex::new(
            r#"(?:rmtree|remove|unlink|rmdir|removedirs|rmSync|rmdirSync|unlinkSync|rm_rf|rm_r|rm_f|remove_dir_all|remove_entry_secure)\s*\(?\s*(?:r|b|rb)?["']([^"']+)["']"#,
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

/// The names `awk` goes by.
pub(super) fn is_awk(prog: &str) -> bool {
    matches!(prog, "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk")
}

/// The program text of `awk [-F fs] [-v a=b] [--] 'PROGRAM' file…` (none
/// with `-f progfile`: the file is not read).
pub(super) fn awk_program(args: &[String]) -> Option<&str> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--" => return it.next().map(String::as_str),
            "-f" | "--file" => return None,
            "-F" | "-v" | "--field-separator" | "--assign" => {
                it.next();
            }
            _ if a.starts_with("-f") || a.starts_with("--file=") => return None,
            _ if a.starts_with('-') && a.len() > 1 => {}
            _ => return Some(a),
        }
    }
    None
}

/// What an awk program hands to a shell: the literal of `system("…")`,
/// the command of `print … | "cmd"` and of `"cmd" | getline`; and when
/// output is piped into a shell (`print "…" | "sh"`), every literal it
/// prints, which that shell runs.
pub(super) fn awk_commands(code: &str) -> Vec<String> {
    let literals = literals_with_context(code);
    let mut out = Vec::new();
    let mut to_shell = false;
    for (before, lit, after) in &literals {
        let piped_to = before.trim_end().ends_with('|') && !before.trim_end().ends_with("||");
        let getline = after.trim_start().starts_with('|')
            && after.trim_start()[1..]
                .trim_start_matches('&')
                .trim_start()
                .starts_with("getline");
        if piped_to || getline || called_by_exec(&before.chars().collect::<Vec<_>>()) {
            to_shell |= piped_to && is_shell_command(lit);
            out.push(lit.clone());
        }
    }
    if to_shell {
        out.extend(literals.into_iter().map(|(_, lit, _)| lit));
    }
    out
}

/// The files an awk program writes with `print … > "file"` or `>>`.
pub(super) fn awk_written(code: &str) -> Vec<String> {
    literals_with_context(code)
        .into_iter()
        .filter(|(before, _, _)| before.trim_end().ends_with('>'))
        .map(|(_, lit, _)| lit)
        .collect()
}

/// Whether a command line starts a shell reading its stdin (`sh`,
/// `bash -s`, `/bin/sh`).
fn is_shell_command(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or_default();
    let name = first.rsplit('/').next().unwrap_or(first);
    matches!(
        name,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" | "mksh"
    ) && !line.split_whitespace().any(|w| w == "-c")
}

/// Every quoted literal of an awk program: what it prints, when its
/// output is piped into a shell.
pub(super) fn awk_literals(code: &str) -> Vec<String> {
    literals_with_context(code)
        .into_iter()
        .map(|(_, lit, _)| lit)
        .collect()
}

/// Every double- or single-quoted literal of `code` with the text before
/// it (since the previous literal) and after it (up to the next one).
fn literals_with_context(code: &str) -> Vec<(String, String, String)> {
    let mut spans = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let quote = bytes[i];
        if !matches!(quote, '"' | '\'') {
            i += 1;
            continue;
        }
        let start = i;
        let mut lit = String::new();
        i += 1;
        while i < bytes.len() && bytes[i] != quote {
            if bytes[i] == '\\' && i + 1 < bytes.len() {
                i += 1;
            }
            lit.push(bytes[i]);
            i += 1;
        }
        i += 1;
        spans.push((start, i.min(bytes.len()), lit));
    }
    let text = |from: usize, to: usize| bytes[from..to.max(from)].iter().collect::<String>();
    let mut out = Vec::with_capacity(spans.len());
    for (k, (start, end, lit)) in spans.iter().enumerate() {
        let prev_end = if k == 0 { 0 } else { spans[k - 1].1 };
        let next_start = spans.get(k + 1).map_or(bytes.len(), |s| s.0);
        out.push((text(prev_end, *start), lit.clone(), text(*end, next_start)));
    }
    out
}
