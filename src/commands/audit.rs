//! `hookrun audit verify PATH`.

use crate::output;

/// Verifies the chain; exit 0 when intact, 1 naming the first broken line.
#[must_use]
pub fn verify(path: &std::path::Path) -> u8 {
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            output::error(
                &format!("cannot read audit log `{}`: {e}", path.display()),
                false,
            );
            return 1;
        }
    };
    match crate::audit::verify(&text) {
        Ok(n) => {
            output::print(&format!(
                "{}: {n} lines, hash chain intact\n",
                path.display()
            ));
            0
        }
        Err(b) => {
            output::error(
                &format!("{}:{}: this line {}", path.display(), b.line, b.why),
                false,
            );
            1
        }
    }
}
