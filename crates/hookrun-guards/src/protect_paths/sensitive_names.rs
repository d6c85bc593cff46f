//! Sensitive file names a glob could let through: a search filter
//! (`.env*`, `.[e]nv`, `id_*`) is judged by the protected files it could
//! match, not only by its text. Pure: `paths.rs` judges each candidate.

/// File names the default deny lists protect, as examples of what a glob
/// in a search filter could match.
const SENSITIVE_NAMES: &[&str] = &[
    ".env",
    ".env.local",
    ".env.production",
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
    "credentials",
    ".netrc",
    ".pgpass",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    "shadow",
    "authorized_keys",
    ".bashrc",
    ".zshrc",
    ".profile",
];

/// The paths in `pattern`'s directory whose names its last component
/// matches. A bare wildcard (`*`, `**/*`) is every file: listing or
/// searching a tree is not refused, only a filter aimed at secrets; and as
/// in bash, a leading wildcard does not match a dot file.
pub(crate) fn matched_by(pattern: &str) -> Vec<String> {
    let (dir, last) = match pattern.rsplit_once('/') {
        Some((d, l)) => (format!("{d}/"), l),
        None => (String::new(), pattern),
    };
    if last.chars().all(|c| matches!(c, '*' | '?')) {
        return Vec::new();
    }
    let Some(re) = hookrun_sh::glob::component_regex(last) else {
        return Vec::new();
    };
    SENSITIVE_NAMES
        .iter()
        .filter(|name| re.is_match(name) && (last.starts_with('.') || !name.starts_with('.')))
        .map(|name| format!("{dir}{name}"))
        .collect()
}
