//! Which tools the guards look at, and where a tool's input names paths:
//! the tool families of every agent, lowercased.

use serde_json::{Map, Value};

/// Shell tools of every agent (lowercased): Claude Code `Bash`,
/// pydantic-deep `execute`, deputy `run_bash`/`bash`, Gemini
/// `run_shell_command`, Codex `shell`/`exec_command`, Cursor terminals.
pub(super) const SHELL_TOOLS: &[&str] = &[
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
/// File tools that read.
pub(super) const READ_TOOLS: &[&str] = &[
    "read",
    "read_file",
    "notebookread",
    "read_many_files",
    "view",
    "glob",
    "grep",
    "ls",
    "list_directory",
];
/// File tools that write.
pub(super) const WRITE_TOOLS: &[&str] = &[
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
];

/// Every path a file tool's input names.
pub(super) fn paths_of(tool: &str, input: &Map<String, Value>) -> Vec<String> {
    let mut out: Vec<String> = PATH_KEYS
        .iter()
        .filter_map(|k| input.get(*k).and_then(Value::as_str).map(str::to_owned))
        .collect();
    for key in ["paths", "file_paths"] {
        if let Some(Value::Array(a)) = input.get(key) {
            out.extend(a.iter().filter_map(|v| v.as_str().map(str::to_owned)));
        }
    }
    if tool == "apply_patch" {
        let patch = input
            .get("input")
            .or_else(|| input.get("patch"))
            .and_then(Value::as_str)
            .unwrap_or("");
        for line in patch.lines() {
            for prefix in [
                "*** Add File: ",
                "*** Update File: ",
                "*** Delete File: ",
                "*** Move to: ",
            ] {
                if let Some(p) = line.strip_prefix(prefix) {
                    out.push(p.trim().to_owned());
                }
            }
        }
    }
    out
}
