//! Which tools the guards look at, and where a tool's input names paths:
//! the tool families of every agent, lowercased.

use serde_json::{Map, Value};

/// Whether a file tool reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

/// Shell tools of every agent (lowercased): Claude Code `Bash`,
/// pydantic-deep `execute`, deputy `run_bash`/`bash`, Gemini
/// `run_shell_command`, Codex `shell`/`exec_command`, Cursor terminals.
pub(crate) const SHELL_TOOLS: &[&str] = &[
    "bash",
    "execute",
    "run_bash",
    "tool_run_bash",
    "run_shell_command",
    "shell",
    "exec_command",
    "local_shell",
    "container.exec",
    "run_terminal_cmd",
    "terminal",
];
/// Tools that run R code given in their `code` key, in the agent's own R
/// session (deputy's `run_r_code`): the guards read it as R (`r_code`),
/// judging the commands it runs and the files it touches as the shell and
/// file tools' would be judged.
pub(crate) const R_CODE_TOOLS: &[&str] = &["run_r_code"];
/// File tools that read (deputy's: `read_file`, `read_csv`,
/// `read_markdown`, `list_files`, `glob_files`, `grep_files`).
pub(crate) const READ_TOOLS: &[&str] = &[
    "read",
    "read_file",
    "read_csv",
    "read_markdown",
    "list_files",
    "glob_files",
    "grep_files",
    "notebookread",
    "read_many_files",
    "view",
    "glob",
    "grep",
    "ls",
    "list_directory",
    "list_dir",
    "search_file_content",
    "grep_search",
    "file_search",
    "view_image",
];
/// File tools that write.
pub(crate) const WRITE_TOOLS: &[&str] = &[
    "write",
    "edit",
    "multiedit",
    "notebookedit",
    "write_file",
    "edit_file",
    "hashline_edit",
    "multi_edit",
    "replace",
    "create_file",
    "str_replace_editor",
    "str_replace_based_edit_tool",
    "apply_patch",
    "delete_file",
];
/// Keys that hold a path in file tools' inputs.
const PATH_KEYS: &[&str] = &[
    "file_path",
    "path",
    "notebook_path",
    "absolute_path",
    "filePath",
    "target_file",
    "dir_path",
    "relative_workspace_path",
];
/// Keys that hold a list of paths.
const PATH_LIST_KEYS: &[&str] = &["paths", "file_paths", "absolute_paths"];
/// Keys that hold a glob pattern (or a list of them), relative to the
/// tool's directory (`path`/`dir_path`, else the `cwd`). Grep's `pattern`
/// is a regular expression and is not one of them; Glob's and deputy's
/// `glob_files`' `pattern` is a glob (`GLOB_PATTERN_TOOLS`).
const GLOB_KEYS: &[&str] = &["glob", "include", "include_pattern"];
/// Tools whose `pattern` is a glob relative to their directory (deputy's
/// `list_files` and `grep_files` take a regular expression there).
const GLOB_PATTERN_TOOLS: &[&str] = &["glob", "glob_files"];

/// One path a tool's input names: a path, or a glob pattern whose literal
/// prefix is the directory it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Named {
    pub text: String,
    pub pattern: bool,
}

/// Every path a file tool's input names.
pub(crate) fn paths_of(tool: &str, input: &Map<String, Value>) -> Vec<Named> {
    let path = |text: &str| Named {
        text: text.to_owned(),
        pattern: false,
    };
    let mut out: Vec<Named> = PATH_KEYS
        .iter()
        .filter_map(|k| input.get(*k).and_then(Value::as_str).map(path))
        .collect();
    for key in PATH_LIST_KEYS {
        out.extend(strings(input.get(*key)).into_iter().map(path));
    }
    let base = ["path", "dir_path", "relative_workspace_path"]
        .iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str));
    let mut globs = Vec::new();
    for key in GLOB_KEYS {
        globs.extend(strings(input.get(*key)));
    }
    if GLOB_PATTERN_TOOLS.contains(&tool) {
        globs.extend(strings(input.get("pattern")));
    }
    for g in globs {
        let text = match base {
            Some(b) if !g.starts_with('/') && !g.starts_with('~') => {
                format!("{}/{g}", b.trim_end_matches('/'))
            }
            _ => g.to_owned(),
        };
        out.push(Named {
            text,
            pattern: true,
        });
    }
    if tool == "apply_patch" {
        let patch = input
            .get("input")
            .or_else(|| input.get("patch"))
            .and_then(Value::as_str)
            .unwrap_or("");
        out.extend(patch_paths(patch).into_iter().map(|p| path(&p)));
    }
    out
}

/// The files a Codex patch (`*** Begin Patch` …) adds, updates, deletes
/// or moves to.
pub(crate) fn patch_paths(patch: &str) -> Vec<String> {
    const PREFIXES: &[&str] = &[
        "*** Add File: ",
        "*** Update File: ",
        "*** Delete File: ",
        "*** Move to: ",
    ];
    patch
        .lines()
        .filter_map(|line| PREFIXES.iter().find_map(|p| line.strip_prefix(p)))
        .map(|p| p.trim().to_owned())
        .collect()
}

/// A string, or the strings of an array (other values ignored).
fn strings(v: Option<&Value>) -> Vec<&str> {
    match v {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}
