//! Unit tests of the qwen dialect.

use super::tools::matcher_regex;
use crate::events::NameSet;
use crate::matcher::{Matcher, Syntax};

/// Whether a Qwen Code matcher, read into hookrun's regex syntax, selects
/// the tool.
fn selects(pattern: &str, tool: &str) -> bool {
    let regex = matcher_regex(true, pattern);
    regex.is_empty()
        || Matcher::with_syntax(&regex, Syntax::Regex)
            .matches(NameSet::Wide, tool)
            .0
}

#[test]
fn matchers_select_as_qwen_code_selects() {
    // (matcher, tool_name, selected) as Qwen Code 0.24.4's matchesHookPattern decides.
    let rows = [
        ("", "run_shell_command", true),
        ("*", "write_file", true),
        (".*", "edit", true),
        // Any of a tool's names, exactly.
        ("Bash", "run_shell_command", true),
        ("Shell", "run_shell_command", true),
        ("ShellTool", "run_shell_command", true),
        ("Write", "write_file", true),
        ("replace", "edit", true),
        ("Bash", "write_file", false),
        // Otherwise an unanchored regex on the canonical name.
        ("shell", "run_shell_command", true),
        ("bash", "run_shell_command", false),
        ("^write_file$|^edit$", "run_shell_command", false),
        ("^write_file$|^edit$", "edit", true),
        // Alternatives, each by any name, then as one regex.
        ("Edit|Shell", "run_shell_command", true),
        ("Edit|Shell", "read_file", false),
        ("Read| *", "glob", true),
        // A regex that does not compile keeps the exact names only.
        ("[", "[", true),
        ("[", "run_shell_command", false),
    ];
    for (pattern, tool, want) in rows {
        assert_eq!(selects(pattern, tool), want, "{pattern:?} on {tool}");
    }
}

#[test]
fn off_tool_events_match_without_tool_aliases() {
    let regex = matcher_regex(false, "Bash");
    let m = Matcher::with_syntax(&regex, Syntax::Regex);
    assert!(!m.matches(NameSet::Wide, "run_shell_command").0);
    assert!(m.matches(NameSet::Wide, "startup-Bash").0, "still a regex");
}
