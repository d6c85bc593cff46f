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
