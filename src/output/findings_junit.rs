//! `check --format junit`: one test suite "hookrun check" with a test case
//! per file checked, so CI test reports show each config as passed or
//! failed. Each error is a `<failure>`; warnings are lines of the case's
//! `<system-out>`, or failures too under `--strict`, as the exit code is.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::config::{Diagnostic, Severity};
use crate::output::xml::escape;

/// The JUnit XML report of `findings` over `files`. A finding about a file
/// that was not among them (the trust list, say) gets a case of its own.
#[must_use]
pub(crate) fn render(findings: &[Diagnostic], files: &[PathBuf], strict: bool) -> String {
    let mut cases: Vec<PathBuf> = Vec::new();
    for f in files.iter().chain(findings.iter().map(|d| &d.file)) {
        if !cases.contains(f) {
            cases.push(f.clone());
        }
    }
    let fails = |d: &Diagnostic| strict || d.severity == Severity::Error;
    let failures = findings.iter().filter(|d| fails(d)).count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"hookrun check\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">",
        cases.len()
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"hookrun check\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">",
        cases.len()
    );
    for file in &cases {
        let name = escape(&file.display().to_string());
        let _ = write!(
            out,
            "    <testcase classname=\"hookrun check\" name=\"{name}\" file=\"{name}\""
        );
        let own: Vec<&Diagnostic> = findings.iter().filter(|d| &d.file == file).collect();
        if own.is_empty() {
            out.push_str("/>\n");
            continue;
        }
        out.push_str(">\n");
        for d in own.iter().filter(|d| fails(d)) {
            let _ = writeln!(
                out,
                "      <failure message=\"{}\" type=\"{}\">{}</failure>",
                escape(&d.message),
                d.code.as_str(),
                escape(&line(d))
            );
        }
        let quiet: Vec<String> = own.iter().filter(|d| !fails(d)).map(|d| line(d)).collect();
        if !quiet.is_empty() {
            let _ = writeln!(
                out,
                "      <system-out>{}</system-out>",
                escape(&quiet.join("\n"))
            );
        }
        out.push_str("    </testcase>\n");
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// `warning[W004] file:4:11: message` with key and fix, one finding's text.
fn line(d: &Diagnostic) -> String {
    let label = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    format!(
        "{label}[{}] {}: {}",
        d.code.as_str(),
        d.location(),
        d.full_message()
    )
}
