//! `hookrun trust`: add, remove or list entries of the user's trust list
//! (`config::trust`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::cli::TrustArgs;
use crate::config::trust::{self, TrustList};
use crate::error::{Error, ExitStatus};
use crate::output;

/// Runs `trust`; exit 1 when `--remove` finds nothing to remove.
///
/// # Errors
/// No config home can be named, the trust list or the file cannot be read,
/// or the list cannot be written.
pub(crate) fn execute(args: &TrustArgs) -> Result<ExitStatus, Error> {
    let list_path = trust::list_path().ok_or_else(|| {
        Error::Usage("cannot place the trust list: neither XDG_CONFIG_HOME nor HOME is set".into())
    })?;
    let mut list = TrustList::read(&list_path).map_err(Error::Usage)?;
    let Some(path) = args.path.as_deref().filter(|_| !args.list) else {
        output::print(&render_list(&list));
        return Ok(0);
    };
    let save = |list: &TrustList| list.write(&list_path).map_err(Error::Usage);
    if args.remove {
        let path = absolute(path);
        if !list.remove(&path) {
            output::print(&format!("{} was not trusted\n", path.display()));
            return Ok(1);
        }
        save(&list)?;
        output::print(&format!("{} is no longer trusted\n", path.display()));
        return Ok(0);
    }
    // The path discovery reads the file by: absolute, links resolved.
    let path = std::fs::canonicalize(path).map_err(|source| Error::Io {
        what: format!("cannot read `{}`", path.display()),
        source,
    })?;
    let content = std::fs::read(&path).map_err(|source| Error::Io {
        what: format!("cannot read `{}`", path.display()),
        source,
    })?;
    list.add(&path, &content);
    save(&list)?;
    output::print(&format!(
        "trusted {} (sha256 {}); any edit drops this trust\n",
        path.display(),
        trust::digest(&content)
    ));
    Ok(0)
}

/// A path made absolute without touching the file, which may be gone.
fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_owned())
}

/// One line per entry: whether the file still has the content trusted.
fn render_list(list: &TrustList) -> String {
    let mut out = String::new();
    for e in &list.entries {
        let status = match std::fs::read(&e.path) {
            Ok(c) if trust::digest(&c) == e.sha256 => "trusted",
            Ok(_) => "changed",
            Err(_) => "missing",
        };
        let _ = writeln!(out, "{status}\t{}", e.path.display());
    }
    out
}
