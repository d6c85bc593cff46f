//! Claude Code's matcher rules, pure.
//!
//! A matcher is either a list of exact names (`Bash`, `Edit|Write`,
//! `Read, Grep` on most events) or, when it holds any other character, an
//! unanchored ECMAScript-style regex. Regexes are compiled with
//! `fancy-regex`, which delegates to the `regex` crate and adds the
//! look-around and back-references that JavaScript allows (`^(?!Bash).*`);
//! its backtrack limit keeps a hostile pattern from hanging a run.

use crate::events::NameSet;

/// Old tool names that Claude Code still accepts in name lists, mapped to the
/// current ones.
const LEGACY_ALIASES: &[(&str, &str)] = &[
    ("Task", "Agent"),
    ("KillShell", "TaskStop"),
    ("KillBash", "TaskStop"),
    ("ListPeers", "ListAgents"),
    ("Brief", "SendUserMessage"),
    ("ListMcpResources", "ListMcpResourcesTool"),
    ("ReadMcpResource", "ReadMcpResourceTool"),
    ("ReadMcpResourceDir", "ReadMcpResourceDirTool"),
    ("ProposeGoal", "SetGoal"),
];

/// Bounds the work one regex match may do, so a pattern built to backtrack
/// exponentially fails (and so does not match) instead of hanging hookrun.
const BACKTRACK_LIMIT: usize = 1_000_000;

/// A compiled matcher. Built once at config load; matching allocates nothing.
#[derive(Debug, Clone)]
pub struct Matcher {
    pattern: String,
    /// `None` when the pattern is a plain name list for every event, so it
    /// never needs a regex (most matchers: compiling them would dominate
    /// the load of a large config).
    regex: Option<Result<fancy_regex::Regex, String>>,
    /// `matcher_syntax = "regex"`: always an unanchored regex search (as
    /// pydantic-deep, deputy and Gemini match), never a names list.
    regex_only: bool,
}

/// How a config's matchers are read: Claude Code's exact-names-or-regex rule
/// unless the config says `matcher_syntax = "regex"`, never implied by the
/// caller.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    serde::Deserialize,
    serde::Serialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Syntax {
    /// Claude Code's rules: exact names, or an unanchored regex.
    #[default]
    Claude,
    /// Always an unanchored regex search (`exec` matches `execute`).
    Regex,
}

/// Tool families usable in matchers, so one config can guard every agent
/// (tool names are otherwise matched as the caller sent them): `@shell`, `@read`, `@write`, `@edit`, and `@code` for tools
/// that run code in the agent's own interpreter (deputy's `run_r_code`).
const FAMILIES: &[(&str, &str)] = &[
    (
        "@shell",
        "Bash|execute|run_bash|bash|tool_run_bash|run_shell_command|Shell|shell|exec_command|local_shell",
    ),
    (
        "@read",
        "Read|read_file|read_many_files|NotebookRead|view|read_csv|read_markdown|list_files|glob_files|grep_files",
    ),
    ("@write", "Write|write_file|create_file|NotebookEdit"),
    (
        "@edit",
        "Edit|MultiEdit|NotebookEdit|edit_file|hashline_edit|multi_edit|replace|str_replace_editor|apply_patch",
    ),
    ("@code", "run_r_code"),
];

/// Expands `@family` tokens into their tool names.
fn expand_families(pattern: &str) -> String {
    let mut out = pattern.to_owned();
    for (family, names) in FAMILIES {
        out = out.replace(family, names);
    }
    out
}

/// Which rule decided a match, for reports and `explain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchPath {
    /// The event has no matcher field, so the matcher is ignored.
    NoMatcherField,
    /// `*`, `""` or no matcher: matches everything.
    All,
    /// The pattern is a list of exact names.
    Names,
    /// The pattern is a regex.
    Regex,
    /// The pattern is a regex that does not compile: never matches.
    InvalidRegex,
}

impl Matcher {
    /// Compiles a matcher. A pattern that does not compile as a regex is kept:
    /// it may still be a valid name list, and where it is not it never matches.
    #[must_use]
    pub fn new(pattern: &str) -> Self {
        Self::with_syntax(pattern, Syntax::Claude)
    }

    /// Compiles a matcher read with the given syntax.
    #[must_use]
    pub fn with_syntax(pattern: &str, syntax: Syntax) -> Self {
        let pattern = expand_families(pattern);
        let regex_only = syntax == Syntax::Regex;
        let needs_regex = regex_only || !is_name_list(&pattern, NameSet::Narrow);
        let regex = needs_regex.then(|| {
            fancy_regex::RegexBuilder::new(&pattern)
                .backtrack_limit(BACKTRACK_LIMIT)
                .build()
                .map_err(|e| e.to_string())
        });
        Matcher {
            pattern,
            regex,
            regex_only,
        }
    }

    /// The pattern as written.
    #[must_use]
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// The syntax it was read with.
    #[must_use]
    pub fn syntax(&self) -> Syntax {
        if self.regex_only {
            Syntax::Regex
        } else {
            Syntax::Claude
        }
    }

    /// The compile error, when the pattern would be read as a regex and is
    /// not one, for the given name set.
    #[must_use]
    pub fn regex_error(&self, names: NameSet) -> Option<&str> {
        if is_match_all(&self.pattern) || (!self.regex_only && is_name_list(&self.pattern, names)) {
            return None;
        }
        self.regex
            .as_ref()
            .and_then(|r| r.as_ref().err())
            .map(String::as_str)
    }

    /// The names of a name-list matcher, trimmed; `None` for match-all and
    /// regex matchers.
    #[must_use]
    pub fn listed_names(&self, names: NameSet) -> Option<Vec<&str>> {
        if self.regex_only || is_match_all(&self.pattern) || !is_name_list(&self.pattern, names) {
            return None;
        }
        Some(
            self.pattern
                .split(separators(names))
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect(),
        )
    }

    /// Tests the query value of an event against this matcher.
    #[must_use]
    pub fn matches(&self, names: NameSet, query: &str) -> (bool, MatchPath) {
        if is_match_all(&self.pattern) {
            return (true, MatchPath::All);
        }
        if !self.regex_only && is_name_list(&self.pattern, names) {
            let hit = self
                .pattern
                .split(separators(names))
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .any(|name| name_equals(name, query));
            return (hit, MatchPath::Names);
        }
        match &self.regex {
            None => (false, MatchPath::Names),
            Some(Ok(re)) => {
                let hit =
                    regex_hits(re, query) || aliases_of(query).any(|alias| regex_hits(re, alias));
                (hit, MatchPath::Regex)
            }
            Some(Err(_)) => (false, MatchPath::InvalidRegex),
        }
    }
}

/// Matches an event against an optional matcher, honouring events without a
/// matcher field (`query` is `None`), which run every group.
#[must_use]
pub(crate) fn matches(
    matcher: Option<&Matcher>,
    names: NameSet,
    query: Option<&str>,
) -> (bool, MatchPath) {
    let Some(query) = query else {
        return (true, MatchPath::NoMatcherField);
    };
    match matcher {
        None => (true, MatchPath::All),
        Some(m) => m.matches(names, query),
    }
}

/// Matches like [`matches`] and says why, in words, for `explain`.
#[must_use]
pub(crate) fn explain(
    matcher: Option<&Matcher>,
    names: NameSet,
    query: Option<&str>,
) -> (bool, String) {
    let (hit, path) = matches(matcher, names, query);
    let pattern = matcher.map_or("", Matcher::pattern);
    let q = query.unwrap_or("");
    let why = match path {
        MatchPath::NoMatcherField if matcher.is_some() => {
            format!("the event has no matcher field, so matcher `{pattern}` is ignored")
        }
        MatchPath::NoMatcherField => "the event has no matcher field: every hook runs".to_owned(),
        MatchPath::All if matcher.is_none() => "no matcher: matches everything".to_owned(),
        MatchPath::All => format!("matcher `{pattern}` matches everything"),
        MatchPath::Names => {
            let listed = matcher
                .and_then(|m| m.listed_names(names))
                .unwrap_or_default();
            let list = listed
                .iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(", ");
            let alias = if hit && !listed.contains(&q) {
                " (through a legacy tool-name alias)"
            } else {
                ""
            };
            format!(
                "exact names [{list}] {} \"{q}\"{alias}",
                if hit { "include" } else { "do not include" }
            )
        }
        MatchPath::Regex => format!(
            "regex `{pattern}` {} \"{q}\" (unanchored search)",
            if hit { "matches" } else { "does not match" }
        ),
        MatchPath::InvalidRegex => {
            format!("matcher `{pattern}` is not a valid regex, so it never matches")
        }
    };
    (hit, why)
}

fn separators(names: NameSet) -> &'static [char] {
    match names {
        NameSet::Wide => &['|', ','],
        NameSet::Narrow => &['|'],
    }
}

fn is_match_all(pattern: &str) -> bool {
    pattern.is_empty() || pattern == "*"
}

fn is_name_list(pattern: &str, names: NameSet) -> bool {
    pattern.chars().all(|c| {
        c.is_ascii_alphanumeric()
            || c == '_'
            || c == '|'
            || (names == NameSet::Wide && matches!(c, ',' | ' ' | '-'))
    })
}

fn regex_hits(re: &fancy_regex::Regex, text: &str) -> bool {
    // A match that exceeds the backtrack limit counts as no match.
    re.is_match(text).unwrap_or(false)
}

/// The current name of a legacy name, or the name itself.
fn current_name(name: &str) -> &str {
    LEGACY_ALIASES
        .iter()
        .find(|(old, _)| *old == name)
        .map_or(name, |(_, new)| new)
}

/// The other names a tool name is known by.
fn aliases_of(name: &str) -> impl Iterator<Item = &'static str> + '_ {
    LEGACY_ALIASES
        .iter()
        .filter(move |(old, new)| *old == name || *new == name)
        .flat_map(move |(old, new)| [*old, *new].into_iter().filter(move |n| *n != name))
}

fn name_equals(listed: &str, query: &str) -> bool {
    listed == query || current_name(listed) == current_name(query)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(pattern: &str, query: &str) -> bool {
        Matcher::new(pattern).matches(NameSet::Wide, query).0
    }

    #[test]
    fn spec_table_on_session_start() {
        for (m, expected) in [
            ("startup", true),
            ("start", false),
            ("start.*", true),
            ("^start", true),
            ("ar.u", true),
            (".*", true),
            ("^startup$", true),
            ("Startup", false),
            ("startup|resume", true),
            ("resume|startup", true),
            ("startup|", true),
            ("startup, resume", true),
            (" startup ", true),
            ("start|up", false),
            ("art", false),
            ("startup-x", false),
            ("*", true),
            ("", true),
            ("[", false),
        ] {
            assert_eq!(hit(m, "startup"), expected, "matcher {m:?}");
        }
    }

    #[test]
    fn tool_names_and_aliases() {
        assert!(!hit("Edit", "NotebookEdit"));
        assert!(hit("Edit.*", "NotebookEdit"));
        assert!(!hit("mcp__memory", "mcp__memory__create_entities"));
        assert!(hit("mcp__memory__.*", "mcp__memory__create_entities"));
        assert!(!hit("mcp__brave-search", "mcp__brave-search__search"));
        assert!(hit("Task", "Agent"));
        assert!(hit("Agent", "Task"));
        assert!(hit("^(?!Bash).*Edit$", "NotebookEdit"));
        assert!(!hit("^(?!Bash).*Edit$", "BashEdit"));
    }

    #[test]
    fn regex_syntax_and_families() {
        let m = Matcher::with_syntax("exec", Syntax::Regex);
        assert!(m.matches(NameSet::Wide, "execute").0);
        assert!(!Matcher::new("exec").matches(NameSet::Wide, "execute").0);
        let shell = Matcher::new("@shell");
        for tool in ["Bash", "execute", "run_shell_command", "Shell"] {
            assert!(shell.matches(NameSet::Wide, tool).0, "{tool}");
        }
        assert!(!shell.matches(NameSet::Wide, "Read").0);
    }

    #[test]
    fn narrow_set_reads_commas_as_regex() {
        let m = Matcher::new("rate_limit, overloaded");
        assert!(!m.matches(NameSet::Narrow, "rate_limit").0);
        assert!(m.matches(NameSet::Wide, "rate_limit").0);
    }

    #[test]
    fn invalid_regex_is_reported_and_never_matches() {
        let m = Matcher::new("[");
        assert!(m.regex_error(NameSet::Wide).is_some());
        assert_eq!(
            m.matches(NameSet::Wide, "["),
            (false, MatchPath::InvalidRegex)
        );
        assert!(Matcher::new("Bash").regex_error(NameSet::Wide).is_none());
    }

    #[test]
    fn no_matcher_field_ignores_the_matcher() {
        let m = Matcher::new("Nothing");
        assert_eq!(
            matches(Some(&m), NameSet::Narrow, None),
            (true, MatchPath::NoMatcherField)
        );
    }

    #[test]
    fn catastrophic_pattern_does_not_hang() {
        let m = Matcher::new("^(a+)+\\1$");
        let text = "a".repeat(40) + "b";
        assert!(!m.matches(NameSet::Wide, &text).0);
    }
}
