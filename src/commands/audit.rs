//! `hookrun audit verify PATH`.

use crate::error::{Error, ExitStatus};
use crate::output;

/// Verifies the chain; exit 0 when intact, an error naming the first broken
/// line otherwise.
///
/// # Errors
/// The log cannot be read, or a line breaks the chain.
pub fn verify(path: &std::path::Path) -> Result<ExitStatus, Error> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        what: format!("cannot read audit log `{}`", path.display()),
        source,
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let lines = crate::audit::verify(&text).map_err(|b| Error::AuditBroken {
        path: path.to_owned(),
        line: b.line,
        why: b.why,
    })?;
    output::print(&format!(
        "{}: {lines} lines, hash chain intact\n",
        path.display()
    ));
    Ok(0)
}
