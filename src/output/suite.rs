//! Rendering `hookrun test` results: a line per case and a closing
//! `N passed, N failed`, or for CI systems JUnit XML, JSON or GitHub
//! workflow annotations.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::output::colour::Paint;
use crate::output::workflow::{escape_data, escape_prop};
use crate::output::xml::escape;

/// The result of one case.
#[derive(Debug, Clone)]
pub(crate) struct CaseResult {
    pub suite: PathBuf,
    pub name: String,
    pub passed: bool,
    /// One line per difference between expected and observed.
    pub diffs: Vec<String>,
    /// For a failed case: which hook decided and what it said, and what was
    /// dropped (an untrusted file's rewrite), one line each.
    pub why: Vec<String>,
    /// The case's line in its test file, where known.
    pub line: Option<usize>,
    pub duration: Duration,
}

impl CaseResult {
    /// A case that could not run at all (bad test file, bad config).
    #[must_use]
    pub(crate) fn broken(suite: &Path, name: &str, why: &str) -> Self {
        CaseResult {
            suite: suite.to_owned(),
            name: name.to_owned(),
            passed: false,
            diffs: vec![why.to_owned()],
            why: Vec::new(),
            line: None,
            duration: Duration::ZERO,
        }
    }
}

/// `N passed, N failed`.
#[must_use]
pub(crate) fn summary(results: &[CaseResult]) -> String {
    let failed = results.iter().filter(|r| !r.passed).count();
    format!("{} passed, {failed} failed", results.len() - failed)
}

/// The text report; `paint` colours the PASS / FAIL markers.
#[must_use]
pub(crate) fn text(results: &[CaseResult], paint: Paint) -> String {
    let mut out = String::new();
    for r in results {
        let ms = r.duration.as_secs_f64() * 1000.0;
        let _ = writeln!(
            out,
            "{} {}: {} ({ms:.0} ms)",
            if r.passed {
                paint.green("PASS")
            } else {
                paint.red("FAIL")
            },
            r.suite.display(),
            r.name
        );
        for d in r.diffs.iter().chain(&r.why) {
            let _ = writeln!(out, "    {d}");
        }
    }
    out.push_str(&summary(results));
    out.push('\n');
    out
}

/// A JSON array with one object per case: its file, name, whether it
/// passed, each difference and its duration.
#[must_use]
pub(crate) fn json(results: &[CaseResult]) -> String {
    let cases: Vec<serde_json::Value> = results
        .iter()
        .map(|r| {
            serde_json::json!({
                "file": r.suite.display().to_string(),
                "name": r.name,
                "passed": r.passed,
                "failures": r.diffs,
                "why": r.why,
                "line": r.line,
                "duration_ms": u64::try_from(r.duration.as_millis()).unwrap_or(u64::MAX),
            })
        })
        .collect();
    serde_json::to_string_pretty(&cases).unwrap_or_default() + "\n"
}

/// GitHub Actions workflow commands: one `::error` annotation per failed
/// case, on its test file, then the summary line.
#[must_use]
pub(crate) fn github(results: &[CaseResult]) -> String {
    let mut out = String::new();
    for r in results.iter().filter(|r| !r.passed) {
        let _ = writeln!(
            out,
            "::error file={}{},title={}::{}",
            escape_prop(&r.suite.display().to_string()),
            r.line.map(|l| format!(",line={l}")).unwrap_or_default(),
            escape_prop(&format!("hookrun test: {}", r.name)),
            escape_data(
                &r.diffs
                    .iter()
                    .chain(&r.why)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        );
    }
    out.push_str(&summary(results));
    out.push('\n');
    out
}

/// JUnit XML: one `<testsuite>` per test file.
#[must_use]
pub(crate) fn junit(results: &[CaseResult]) -> String {
    let failures = results.iter().filter(|r| !r.passed).count();
    let total: f64 = results.iter().map(|r| r.duration.as_secs_f64()).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"hookrun\" tests=\"{}\" failures=\"{failures}\" time=\"{total:.3}\">",
        results.len()
    );
    let mut suites: Vec<&PathBuf> = results.iter().map(|r| &r.suite).collect();
    suites.dedup();
    for suite in suites {
        let cases: Vec<&CaseResult> = results.iter().filter(|r| &r.suite == suite).collect();
        let name = escape(&suite.display().to_string());
        let f = cases.iter().filter(|r| !r.passed).count();
        let t: f64 = cases.iter().map(|r| r.duration.as_secs_f64()).sum();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{name}\" tests=\"{}\" failures=\"{f}\" time=\"{t:.3}\">",
            cases.len()
        );
        for c in cases {
            let _ = write!(
                out,
                "    <testcase name=\"{}\" classname=\"{name}\" time=\"{:.3}\"",
                escape(&c.name),
                c.duration.as_secs_f64()
            );
            if c.passed {
                out.push_str("/>\n");
            } else {
                let first = c.diffs.first().map(String::as_str).unwrap_or("failed");
                let _ = writeln!(
                    out,
                    ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>",
                    escape(first),
                    escape(
                        &c.diffs
                            .iter()
                            .chain(&c.why)
                            .cloned()
                            .collect::<Vec<_>>()
                            .join("\n")
                    )
                );
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
