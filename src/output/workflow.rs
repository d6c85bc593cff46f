//! GitHub Actions workflow commands (`::error file=…::message`): escaping
//! as the runner unescapes, shared by `check` and `test`.

/// A workflow command's message.
#[must_use]
pub(crate) fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value: also `:` and `,`.
#[must_use]
pub(crate) fn escape_prop(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}
