//! Best-effort evaluation of a handler's `if` permission rule.
//!
//! Claude Code evaluates `if` with its own Bash parser and permission-rule
//! engine; hookrun reproduces the common forms and, like Claude Code, runs
//! the hook when a command cannot be parsed (fail open):
//!
//! - `Tool` — the call's tool name equals `Tool` (legacy names alias);
//! - `Bash(pattern)` / `PowerShell(pattern)` — `*` is any text, a trailing
//!   `:*` is a prefix; leading `VAR=value` words are stripped and each
//!   subcommand split at `&&`, `||`, `;`, `|` and newlines is tried;
//! - `Read(glob)`, `Edit(glob)`, `Write(glob)`, … — gitignore-style globs on
//!   the file path (`*`, `**`, `?`), relative to the event's `cwd`; a pattern
//!   without `/` matches the file name at any depth; `//abs` and `~/` anchor;
//! - `WebFetch(domain:example.com)` — the URL's host or a subdomain;
//! - any other `Tool(content)` — the tool name must match; the content is not
//!   evaluated and the hook runs.

use serde_json::{Map, Value};

/// Whether the rule admits this tool call. `tool_input` is the event's.
#[must_use]
pub(crate) fn admits(
    rule: &str,
    tool_name: &str,
    tool_input: &Map<String, Value>,
    cwd: &str,
) -> bool {
    let rule = rule.trim();
    let (tool, content) = match rule.find('(') {
        Some(open) if rule.ends_with(')') => (&rule[..open], Some(&rule[open + 1..rule.len() - 1])),
        _ => (rule, None),
    };
    if !tool_matches(tool.trim(), tool_name) {
        return false;
    }
    let Some(content) = content
        .map(str::trim)
        .filter(|c| !c.is_empty() && *c != "*")
    else {
        return true;
    };
    let text = |key: &str| tool_input.get(key).and_then(Value::as_str);
    match tool.trim() {
        "Bash" | "PowerShell" => text("command").is_none_or(|cmd| command_admits(content, cmd)),
        "Read" | "Write" | "Edit" | "MultiEdit" | "NotebookEdit" | "Glob" | "Grep" => {
            let path = text("file_path")
                .or_else(|| text("notebook_path"))
                .or_else(|| text("path"));
            path.is_none_or(|p| path_admits(content, p, cwd))
        }
        "WebFetch" => match (content.strip_prefix("domain:"), text("url")) {
            (Some(domain), Some(url)) => {
                host_of(url).is_some_and(|h| h == domain || h.ends_with(&format!(".{domain}")))
            }
            _ => true,
        },
        _ => true,
    }
}

fn tool_matches(rule_tool: &str, tool_name: &str) -> bool {
    if rule_tool == tool_name {
        return true;
    }
    // `mcp__server` admits every tool of that server, as permission rules do.
    if let Some(rest) = tool_name.strip_prefix(rule_tool)
        && rule_tool.starts_with("mcp__")
        && rest.starts_with("__")
    {
        return true;
    }
    crate::matcher::Matcher::new(rule_tool)
        .matches(crate::events::NameSet::Narrow, tool_name)
        .0
        && rule_tool
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `Bash(pattern)`: any subcommand of the command line matches the pattern.
fn command_admits(pattern: &str, command: &str) -> bool {
    let Some(parts) = split_subcommands(command) else {
        return true; // cannot parse: fail open, as Claude Code does
    };
    let (prefix, glob) = match pattern.strip_suffix(":*") {
        Some(p) => (true, p),
        None => (false, pattern),
    };
    parts.iter().any(|part| {
        let part = strip_assignments(part);
        if prefix {
            part == glob || part.starts_with(&format!("{glob} ")) || part.starts_with(glob)
        } else {
            hookrun_guards::glob::wildcard(glob.as_bytes(), part.as_bytes(), true)
        }
    })
}

/// Splits a command line into subcommands at unquoted `&&`, `||`, `;`, `|`,
/// newlines and the bodies of `$(...)`. `None` when quotes do not balance.
fn split_subcommands(command: &str) -> Option<Vec<String>> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut chars = command.chars().peekable();
    let (mut single, mut double) = (false, false);
    while let Some(c) = chars.next() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '\\' if !single => {
                current.push(c);
                if let Some(n) = chars.next() {
                    current.push(n);
                }
                continue;
            }
            ';' | '\n' | '|' | '&' | '(' | ')' | '`' if !single && !double => {
                if c == '&' && chars.peek() != Some(&'&') {
                    current.push(c);
                    continue;
                }
                if matches!(c, '|' | '&') && chars.peek() == Some(&c) {
                    chars.next();
                }
                if c == '(' && current.ends_with('$') {
                    current.pop();
                }
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if single || double {
        return None;
    }
    parts.push(current);
    Some(
        parts
            .into_iter()
            .map(|p| p.trim().to_owned())
            .filter(|p| !p.is_empty())
            .collect(),
    )
}

/// Drops leading `NAME=value` words (`FOO=1 git push` is `git push`).
fn strip_assignments(part: &str) -> &str {
    let mut rest = part.trim_start();
    loop {
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..word_end];
        let is_assignment = word.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        if !is_assignment || word_end == rest.len() {
            return rest;
        }
        rest = rest[word_end..].trim_start();
    }
}

fn path_admits(pattern: &str, path: &str, cwd: &str) -> bool {
    let home = std::env::var("HOME").unwrap_or_default();
    let glob = if let Some(abs) = pattern.strip_prefix("//") {
        format!("/{abs}")
    } else if let Some(rest) = pattern.strip_prefix("~/") {
        format!("{home}/{rest}")
    } else {
        pattern.trim_start_matches("./").to_owned()
    };
    if glob.starts_with('/') || !glob.contains('/') {
        // Absolute, or a bare name that matches at any depth.
        return hookrun_guards::glob::path_glob(&glob, path);
    }
    // A relative pattern with a `/` is anchored at the cwd (gitignore).
    let rel = path
        .strip_prefix(cwd)
        .and_then(|r| r.strip_prefix('/'))
        .unwrap_or(path);
    hookrun_guards::glob::path_glob(&format!("/{glob}"), &format!("/{rel}"))
}

fn host_of(url: &str) -> Option<&str> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit('@').next()?;
    Some(host.split(':').next().unwrap_or(host))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn bash(rule: &str, cmd: &str) -> bool {
        let input = json!({"command": cmd});
        admits(rule, "Bash", input.as_object().unwrap(), "/p")
    }

    #[test]
    fn bash_rules() {
        assert!(bash("Bash(git *)", "git status"));
        assert!(!bash("Bash(npm *)", "git status"));
        assert!(bash("Bash(git *)", "cd x && FOO=1 git push"));
        assert!(bash("Bash(npm run test:*)", "npm run test -- -x"));
        assert!(bash("Bash", "anything"));
        assert!(bash("Bash(rm *)", "echo $(rm -rf x)"));
        assert!(bash("Bash(git *)", "echo 'unbalanced"));
        assert!(!bash("Write", "git status"));
    }

    #[test]
    fn file_rules() {
        let input = json!({"file_path": "/p/src/a.ts"});
        let m = input.as_object().unwrap();
        assert!(admits("Edit(*.ts)", "Edit", m, "/p"));
        assert!(admits("Edit(src/**)", "Edit", m, "/p"));
        assert!(!admits("Edit(*.rs)", "Edit", m, "/p"));
        assert!(admits("Edit(//p/src/*.ts)", "Edit", m, "/p"));
        assert!(!admits("Edit(docs/*)", "Edit", m, "/p"));
    }

    #[test]
    fn other_rules() {
        let input = json!({"url": "https://api.example.com/x"});
        let m = input.as_object().unwrap();
        assert!(admits("WebFetch(domain:example.com)", "WebFetch", m, "/"));
        assert!(!admits("WebFetch(domain:other.org)", "WebFetch", m, "/"));
        let empty = Map::new();
        assert!(admits("mcp__memory", "mcp__memory__create", &empty, "/"));
        assert!(admits(
            "mcp__memory__create",
            "mcp__memory__create",
            &empty,
            "/"
        ));
        assert!(!admits("mcp__mem", "mcp__memory__create", &empty, "/"));
    }
}
