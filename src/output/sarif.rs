//! `check --format sarif`: findings as a SARIF 2.1.0 log, the format code
//! scanning dashboards (GitHub's among them) import. Minimal but valid:
//! one run, a rule per code seen, a result per finding.

use std::path::Path;

use serde_json::{Value, json};

use crate::config::{Diagnostic, Severity};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The SARIF log of `findings`, pretty-printed, ending in a newline.
#[must_use]
pub(crate) fn render(findings: &[Diagnostic]) -> String {
    let mut codes: Vec<_> = findings.iter().map(|d| d.code).collect();
    codes.sort_by_key(|c| c.as_str());
    codes.dedup();
    let rules: Vec<Value> = codes
        .iter()
        .map(|c| {
            json!({
                "id": c.as_str(),
                "shortDescription": {"text": c.title()},
                "defaultConfiguration": {"level": level(c.severity())},
            })
        })
        .collect();
    let results: Vec<Value> = findings
        .iter()
        .map(|d| {
            let mut physical = json!({"artifactLocation": {"uri": uri(&d.file)}});
            if let Some(line) = d.line {
                let mut region = json!({"startLine": line});
                if let Some(column) = d.column {
                    region["startColumn"] = json!(column);
                }
                physical["region"] = region;
            }
            json!({
                "ruleId": d.code.as_str(),
                "ruleIndex": codes.iter().position(|c| *c == d.code),
                "level": level(d.severity),
                "message": {"text": d.full_message()},
                "locations": [{"physicalLocation": physical}],
            })
        })
        .collect();
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "hookrun",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&log).unwrap_or_default() + "\n"
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// A path as a URI reference: relative paths stay relative (dashboards
/// resolve them against the checkout), absolute ones become `file://`
/// URIs. Bytes outside the unreserved set and `/` are percent-encoded, so
/// `<stdin>` and spaces make a valid URI too.
fn uri(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut out = String::with_capacity(text.len());
    if path.is_absolute() {
        out.push_str("file://");
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded_and_absolute_paths_are_file_uris() {
        assert_eq!(uri(Path::new("a b/<stdin>.json")), "a%20b/%3Cstdin%3E.json");
        assert_eq!(uri(Path::new("/tmp/x.toml")), "file:///tmp/x.toml");
    }
}
