//! Config findings with stable codes: what `check` reports, and what `run`
//! turns into notices. One table, so a code never changes meaning.

use std::path::PathBuf;

use serde::Serialize;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

macro_rules! codes {
    ($($variant:ident => $code:literal, $sev:ident, $title:literal;)*) => {
        /// Every finding hookrun can report. Codes are stable: a code is
        /// never reused for another finding.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Code { $($variant,)* }

        impl Code {
            /// The stable code, e.g. `E003`.
            #[must_use]
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            #[must_use]
            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$sev,)* }
            }

            /// A short name of the finding, for tables and annotations.
            #[must_use]
            pub fn title(self) -> &'static str {
                match self { $(Code::$variant => $title,)* }
            }

            /// Every code, in order (for the README table and tests).
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];
        }
    };
}

codes! {
    Syntax => "E001", Error, "syntax error";
    UnknownKey => "E002", Error, "unknown key";
    WrongType => "E003", Error, "wrong type";
    BadRegex => "E004", Error, "matcher regex does not compile";
    MissingCommand => "E005", Error, "missing command";
    BadTimeout => "E006", Error, "timeout is not a positive number";
    WrongShape => "E007", Error, "wrong shape";
    GuardFileIgnored => "E008", Error, "one invalid guard entry disables the whole file";
    UnknownHandlerType => "E009", Error, "unknown handler type";
    Unreadable => "E010", Error, "config file cannot be read";
    BadBuiltin => "E011", Error, "unknown built-in or invalid built-in options";
    BadInvocation => "E012", Error, "a hookrun command line that hookrun refuses";
    NoSuchEvent => "E013", Error, "an event name in hookrun TOML that is not hookrun's name of an event";
    GuardScriptMissing => "E014", Error, "the script of a hook on an event that can block is missing";
    GuardScriptNotExecutable => "E015", Error, "the script of a hook on an event that can block is not executable";
    GuardJudgeUnavailable => "E016", Error, "a prompt or agent hook on an event that can block has no model to ask here";
    McpServerMissing => "E017", Error, "an mcp_tool hook names an MCP server that is not configured";
    UnknownEvent => "W001", Warning, "unknown event name";
    MatcherIgnored => "W002", Warning, "matcher on an event without a matcher field";
    PrefixMatcher => "W003", Warning, "exact-name matcher looks like a prefix";
    MillisTimeout => "W004", Warning, "timeout looks like milliseconds";
    ScriptMissing => "W005", Warning, "hook script is missing";
    ScriptNotExecutable => "W006", Warning, "hook script is not executable";
    GuardExit1 => "W007", Warning, "guard exits 1 but never 2";
    StopLoop => "W008", Warning, "Stop hook never checks stop_hook_active";
    Duplicate => "W009", Warning, "duplicate handler";
    Unsupported => "W010", Warning, "handler type hookrun does not run";
    PluginRootInSettings => "W011", Warning, "${CLAUDE_PLUGIN_ROOT} in a settings hook";
    NotBoolean => "W012", Warning, "disableAllHooks is not a boolean";
    AgentIgnoresKey => "W013", Warning, "a key the file's agent ignores";
    NoHooks => "W014", Warning, "the config defines no hook";
    Untrusted => "W015", Warning, "an untrusted project config tried more than adding guards";
    RunsTwice => "W016", Warning, "hookrun registered in settings and enabled as a plugin";
    AgentRunsIt => "W017", Warning, "a hook the agent runs itself";
    AgentRunsTwice => "W018", Warning, "a hook both an agent and hookrun run";
    EventNotRegistered => "W019", Warning, "a hook on an event hookrun is registered for in no agent";
    OneAgentsTool => "W020", Warning, "a matcher names one agent's tool";
    BuiltinsOnly => "W021", Warning, "HOOKRUN_BUILTINS_ONLY=1: command hooks are not run";
    HeaderVarNotAllowed => "W022", Warning, "an http hook's header names a variable allowed_env_vars does not list";
    JudgeUnavailable => "W023", Warning, "a prompt or agent hook has no model to ask here";
    TimeoutCapped => "W024", Warning, "a timeout longer than the agent gives a hook on its event";
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One finding about a config file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub file: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// The JSON/TOML path of the entry, e.g. `hooks.PreToolUse[0].hooks[1]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Diagnostic {
    #[must_use]
    pub fn new(code: Code, file: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            file: file.into(),
            line: None,
            column: None,
            key: None,
            message: message.into(),
            fix: None,
        }
    }

    #[must_use]
    pub fn at(mut self, line_col: Option<(usize, usize)>) -> Self {
        if let Some((l, c)) = line_col {
            self.line = Some(l);
            self.column = Some(c);
        }
        self
    }

    #[must_use]
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    #[must_use]
    pub fn fix(mut self, fix: impl Into<String>) -> Self {
        self.fix = Some(fix.into());
        self
    }

    /// The message with its key before it and its fix after it, for
    /// formats that have one text field per finding (annotations, SARIF).
    #[must_use]
    pub fn full_message(&self) -> String {
        let mut message = match &self.key {
            Some(k) => format!("`{k}`: {}", self.message),
            None => self.message.clone(),
        };
        if let Some(fix) = &self.fix {
            message.push_str(&format!("\nfix: {fix}"));
        }
        message
    }

    /// `file:line:column` (as far as known).
    #[must_use]
    pub fn location(&self) -> String {
        let mut s = self.file.display().to_string();
        if let Some(l) = self.line {
            s.push_str(&format!(":{l}"));
            if let Some(c) = self.column {
                s.push_str(&format!(":{c}"));
            }
        }
        s
    }
}

/// The one-line form used in `run`'s notices and stderr.
impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: ", self.location())?;
        if let Some(k) = &self.key {
            write!(f, "`{k}`: ")?;
        }
        write!(f, "{}", self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_prefixed_by_severity() {
        for (i, a) in Code::ALL.iter().enumerate() {
            let prefix = if a.severity() == Severity::Error {
                'E'
            } else {
                'W'
            };
            assert!(a.as_str().starts_with(prefix));
            assert!(Code::ALL[i + 1..].iter().all(|b| b.as_str() != a.as_str()));
        }
    }
}
