//! Reading a settings file's JSON and writing it back in the file's own
//! style (indent, final newline), so that an edit shows as the lines
//! hookrun added and nothing else.

use serde::Serialize;
use serde_json::Value;

/// How a file is laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Style {
    pub indent: String,
    pub final_newline: bool,
}

impl Default for Style {
    /// What the agents write themselves: two spaces and a final newline.
    fn default() -> Self {
        Style {
            indent: "  ".into(),
            final_newline: true,
        }
    }
}

/// The style of an existing file: the indent of its first indented line.
#[must_use]
pub(crate) fn style_of(text: &str) -> Style {
    let indent = text
        .lines()
        .skip(1)
        .map(|l| &l[..l.len() - l.trim_start().len()])
        .find(|i| !i.is_empty())
        .unwrap_or("  ")
        .to_owned();
    Style {
        indent,
        final_newline: text.is_empty() || text.ends_with('\n'),
    }
}

/// Parses a settings file; an error names the line and column.
///
/// # Errors
/// The text is not JSON.
pub(crate) fn parse(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| {
        let what = e.to_string();
        let what = what.split(" at line ").next().unwrap_or(&what).to_owned();
        format!(
            "line {}, column {}: not valid JSON: {what}",
            e.line(),
            e.column()
        )
    })
}

/// The value as text in this style.
#[must_use]
pub(crate) fn render(value: &Value, style: &Style) -> String {
    let mut buf = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(style.indent.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, formatter);
    // Serializing a `Value` into memory cannot fail.
    let _ = value.serialize(&mut ser);
    let mut text = String::from_utf8_lossy(&buf).into_owned();
    if style.final_newline {
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn style_round_trips() {
        let text = "{\n    \"a\": [\n        1\n    ]\n}";
        let style = style_of(text);
        assert_eq!(style.indent, "    ");
        assert!(!style.final_newline);
        assert_eq!(render(&parse(text).expect("json"), &style), text);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("{\n  \"a\": 1,\n}\n").expect_err("bad");
        assert!(e.starts_with("line 3, column 1"), "{e}");
    }
}
