//! Checking one case's evaluation against its expectations, pure: each
//! difference becomes one line of the report.

use serde::Deserialize;
use serde_json::Value;

use crate::decision::Decision;
use crate::events::Family;

/// What a case expects; everything is optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Expect {
    /// `allow`, `deny`, `ask`, `defer`, `block` or `none`.
    pub decision: Option<String>,
    /// A regex searched in the reasons.
    pub reason: Option<String>,
    /// Regexes that must each match some context.
    pub contexts: Option<Vec<String>>,
    /// The rewritten tool input, exactly.
    pub updated_input: Option<toml::Table>,
    /// The rewritten tool output (`updatedToolOutput` or
    /// `updatedMCPToolOutput`), exactly.
    pub updated_tool_output: Option<toml::Value>,
    /// Hooks (by name or command) that must have run / must not have run.
    pub ran: Option<Vec<String>>,
    pub not_ran: Option<Vec<String>>,
    #[serde(rename = "continue")]
    pub continue_: Option<bool>,
    pub exit_code: Option<u8>,
    /// A regex searched in the system message.
    pub system_message: Option<String>,
}

/// What a case observed, in the terms of its expectations.
#[derive(Debug, Clone)]
pub(crate) struct Observed<'a> {
    pub family: Family,
    pub decision: &'a Decision,
    pub exit_code: u8,
    pub system_message: String,
    /// Names and commands of the hooks that ran.
    pub ran: Vec<(String, String)>,
}

/// The decision word of an observed result.
#[must_use]
pub(crate) fn decision_word(family: Family, d: &Decision) -> String {
    if let Some(r) = &d.request {
        return r
            .get("behavior")
            .and_then(Value::as_str)
            .unwrap_or("none")
            .to_owned();
    }
    match (family, d.permission) {
        (Family::PreTool | Family::Generic, Some(p)) => p.as_str().to_owned(),
        _ if d.blocked => "block".to_owned(),
        _ => "none".to_owned(),
    }
}

/// Compares an observation with the expectations; each returned line is
/// one difference, empty when the case passes.
#[must_use]
pub(crate) fn compare(expect: &Expect, seen: &Observed<'_>) -> Vec<String> {
    let mut diffs = Vec::new();
    let d = seen.decision;
    if let Some(want) = &expect.decision {
        let got = decision_word(seen.family, d);
        if &got != want {
            diffs.push(format!("decision: expected {want:?}, got {got:?}"));
        }
    }
    let reasons = d.reasons.join("\n");
    if let Some(pattern) = &expect.reason {
        if !regex_finds(pattern, &reasons, &mut diffs, "reason") {
            diffs.push(format!("reason: /{pattern}/ not found in {reasons:?}"));
        }
    }
    for pattern in expect.contexts.iter().flatten() {
        if !d
            .contexts
            .iter()
            .any(|c| regex_finds(pattern, c, &mut Vec::new(), "context"))
        {
            diffs.push(format!(
                "contexts: no context matches /{pattern}/ (contexts: {:?})",
                d.contexts
            ));
        }
    }
    if let Some(want) = &expect.updated_input {
        let want = serde_json::to_value(want).unwrap_or(Value::Null);
        let got = d.updated_input.clone().map_or(Value::Null, Value::Object);
        if want != got {
            diffs.push(format!("updated_input: expected {want}, got {got}"));
        }
    }
    if let Some(want) = &expect.updated_tool_output {
        let want = serde_json::to_value(want).unwrap_or(Value::Null);
        let got = d
            .specific
            .get("updatedToolOutput")
            .or_else(|| d.specific.get("updatedMCPToolOutput"))
            .cloned()
            .unwrap_or(Value::Null);
        if want != got {
            diffs.push(format!("updated_tool_output: expected {want}, got {got}"));
        }
    }
    let ran = |name: &str| seen.ran.iter().any(|(n, c)| n == name || c == name);
    for name in expect.ran.iter().flatten() {
        if !ran(name) {
            let names: Vec<&str> = seen.ran.iter().map(|(n, _)| n.as_str()).collect();
            diffs.push(format!("ran: `{name}` did not run (ran: {names:?})"));
        }
    }
    for name in expect.not_ran.iter().flatten() {
        if ran(name) {
            diffs.push(format!("not_ran: `{name}` ran"));
        }
    }
    if let Some(want) = expect.continue_ {
        let got = !d.prevent_continuation;
        if want != got {
            diffs.push(format!("continue: expected {want}, got {got}"));
        }
    }
    if let Some(want) = expect.exit_code {
        if want != seen.exit_code {
            diffs.push(format!(
                "exit_code: expected {want}, got {}",
                seen.exit_code
            ));
        }
    }
    if let Some(pattern) = &expect.system_message {
        if !regex_finds(pattern, &seen.system_message, &mut diffs, "system_message") {
            diffs.push(format!(
                "system_message: /{pattern}/ not found in {:?}",
                seen.system_message
            ));
        }
    }
    diffs
}

/// What one hook's answer decided, in a few words with its reason: a block
/// (exit 2 or `decision`), a permission decision, a rewrite, or its failure.
/// `None` when it decided nothing.
#[must_use]
pub(crate) fn said(a: &crate::answer::Answer) -> Option<String> {
    if let Some(text) = &a.blocking_error {
        return Some(format!("blocked: {text}"));
    }
    if let Some(json) = &a.json {
        let hso = json.get("hookSpecificOutput");
        let field = |k: &str| hso.and_then(|h| h.get(k)).and_then(Value::as_str);
        if let Some(d) = field("permissionDecision") {
            let reason = field("permissionDecisionReason").unwrap_or("");
            return Some(format!("answered {d}: {reason}"));
        }
        if json.get("decision").and_then(Value::as_str) == Some("block") {
            let reason = json.get("reason").and_then(Value::as_str).unwrap_or("");
            return Some(format!("blocked: {reason}"));
        }
        if json.get("continue") == Some(&Value::Bool(false)) {
            return Some("stopped the agent (`continue: false`)".to_owned());
        }
        for k in ["updatedInput", "updatedToolOutput", "updatedMCPToolOutput"] {
            if hso.and_then(|h| h.get(k)).is_some() {
                return Some(format!("rewrote the call (`{k}`)"));
            }
        }
        if let Some(c) = field("additionalContext") {
            return Some(format!("added context: {c}"));
        }
    }
    if let Some(n) = &a.notice {
        return Some(format!("failed: {n}"));
    }
    a.plain_stdout
        .as_ref()
        .filter(|p| !p.is_empty())
        .map(|p| format!("printed (context, where the event takes it): {p}"))
}

fn regex_finds(pattern: &str, text: &str, diffs: &mut Vec<String>, what: &str) -> bool {
    match fancy_regex::Regex::new(pattern) {
        Ok(re) => re.is_match(text).unwrap_or(false),
        Err(e) => {
            diffs.push(format!("{what}: /{pattern}/ is not a valid regex: {e}"));
            true
        }
    }
}
