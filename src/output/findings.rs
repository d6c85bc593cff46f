//! Rendering `check`'s findings: text for people (colour only on a
//! terminal), JSON, GitHub workflow annotations, SARIF and JUnit XML.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::json;

use crate::config::{Diagnostic, Severity};
use crate::output::findings_junit;
use crate::output::sarif;
use crate::output::workflow::{escape_data, escape_prop};

/// How findings are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FindingsFormat {
    Text,
    Json,
    Github,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
    /// JUnit XML: a test case per file checked.
    Junit,
}

/// What was checked, beside the findings: the JUnit report has a case per
/// file, and `--strict` decides whether its warnings fail.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Checked<'a> {
    pub files: &'a [PathBuf],
    pub tally: Tally,
    pub strict: bool,
}

/// Counts of a check run.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Tally {
    pub files: usize,
    pub errors: usize,
    pub warnings: usize,
}

impl Tally {
    #[must_use]
    pub(crate) fn of(files: usize, findings: &[Diagnostic]) -> Self {
        let errors = findings
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        Tally {
            files,
            errors,
            warnings: findings.len() - errors,
        }
    }
}

/// Renders findings in `format`.
#[must_use]
pub(crate) fn render(
    findings: &[Diagnostic],
    checked: Checked<'_>,
    format: FindingsFormat,
    colour: bool,
) -> String {
    let tally = checked.tally;
    match format {
        FindingsFormat::Text => text(findings, tally, colour),
        FindingsFormat::Json => {
            let v = json!({"files": tally.files, "errors": tally.errors, "warnings": tally.warnings, "findings": findings});
            serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
        }
        FindingsFormat::Github => github(findings, tally),
        FindingsFormat::Sarif => sarif::render(findings),
        FindingsFormat::Junit => findings_junit::render(findings, checked.files, checked.strict),
    }
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

fn summary(t: Tally) -> String {
    format!(
        "checked {}: {}, {}",
        plural(t.files, "file"),
        plural(t.errors, "error"),
        plural(t.warnings, "warning")
    )
}

fn text(findings: &[Diagnostic], tally: Tally, colour: bool) -> String {
    let paint = |code: &str, s: &str| {
        if colour {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    };
    let mut out = String::new();
    for d in findings {
        let label = match d.severity {
            Severity::Error => paint("1;31", &format!("error[{}]", d.code.as_str())),
            Severity::Warning => paint("1;33", &format!("warning[{}]", d.code.as_str())),
        };
        let _ = writeln!(out, "{label}: {}", d.message);
        let key = d
            .key
            .as_ref()
            .map(|k| format!(" at `{k}`"))
            .unwrap_or_default();
        let _ = writeln!(out, "  {} {}{key}", paint("1;34", "-->"), d.location());
        if let Some(fix) = &d.fix {
            let _ = writeln!(out, "  {} {fix}", paint("1;36", "= fix:"));
        }
        out.push('\n');
    }
    out.push_str(&summary(tally));
    out.push('\n');
    out
}

/// `::error file=F,line=L,col=C,title=T::message` (workflow commands).
fn github(findings: &[Diagnostic], tally: Tally) -> String {
    let mut out = String::new();
    for d in findings {
        let level = if d.severity == Severity::Error {
            "error"
        } else {
            "warning"
        };
        let mut props = format!("file={}", escape_prop(&d.file.display().to_string()));
        if let Some(l) = d.line {
            let _ = write!(props, ",line={l}");
        }
        if let Some(c) = d.column {
            let _ = write!(props, ",col={c}");
        }
        let _ = write!(
            props,
            ",title={}",
            escape_prop(&format!("{} {}", d.code.as_str(), d.code.title()))
        );
        let _ = writeln!(out, "::{level} {props}::{}", escape_data(&d.full_message()));
    }
    out.push_str(&summary(tally));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Code;

    #[test]
    fn github_annotations_escape_their_fields() {
        let d = Diagnostic::new(Code::UnknownKey, "a,b.toml", "bad: x\ny")
            .at(Some((3, 1)))
            .key("hooks[0].x");
        let out = render(
            &[d],
            Checked {
                files: &[],
                tally: Tally {
                    files: 1,
                    errors: 1,
                    warnings: 0,
                },
                strict: false,
            },
            FindingsFormat::Github,
            false,
        );
        assert!(out.starts_with("::error file=a%2Cb.toml,line=3,col=1,title=E002 unknown key::`hooks[0].x`: bad: x%0Ay\n"), "{out}");
    }
}
