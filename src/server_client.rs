//! hookrun's side of a `serve --http` server, for `forward` and `doctor`:
//! the endpoint of a dialect, the HTTP client, and the bearer token from a
//! file or a variable (`serve --http --token-file` reads its own the same
//! way).

use std::time::Duration;

/// The header `hookrun forward` sends: the answer is printed as a command
/// hook's output, so the server answers `{"exit_code", "stdout",
/// "stderr"}`, what `run` would exit with and print on each stream, byte for
/// byte (as `serve --stdio` answers). Without it the body is what the
/// caller's `http` handler reads (`Protocol::http_body`: for Claude Code,
/// always JSON).
pub(crate) const AS_COMMAND_HEADER: &str = "hookrun-command";

/// A server's endpoint for a dialect: `url` itself when it names one
/// (`…/hooks/NAME`), else `URL/hooks/{dialect}`.
pub(crate) fn hooks_endpoint(url: &str, dialect: &str) -> String {
    let base = url.trim_end_matches('/');
    if base.contains("/hooks/") {
        base.to_owned()
    } else {
        format!("{base}/hooks/{dialect}")
    }
}

/// The client of a `serve --http` server: every status read as an answer
/// (not an error), no redirect followed, the whole exchange bounded by
/// `timeout`, TLS verified against the platform's trust store (which
/// `SSL_CERT_FILE` can extend).
pub(crate) fn client(timeout: Duration) -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .max_redirects(0)
        .http_status_as_error(false)
        .tls_config(
            ureq::tls::TlsConfig::builder()
                .root_certs(ureq::tls::RootCerts::PlatformVerifier)
                .build(),
        )
        .build();
    ureq::Agent::new_with_config(config)
}

/// The token in the environment variable `var`.
pub(crate) fn token_from_env(var: &str) -> Result<String, String> {
    match std::env::var(var) {
        Ok(t) if !t.trim().is_empty() => Ok(t.trim().to_owned()),
        Ok(_) => Err(format!("the token variable `{var}` is empty")),
        Err(_) => Err(format!("the token variable `{var}` is not set")),
    }
}

/// The token on the first line of `path` (the server's and the client's
/// `--token-file`).
pub(crate) fn read_token(path: &std::path::Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the token file `{}`: {e}", path.display()))?;
    let token = text.lines().next().unwrap_or("").trim();
    if token.is_empty() {
        return Err(format!(
            "the token file `{}` has no token on its first line",
            path.display()
        ));
    }
    Ok(token.to_owned())
}
