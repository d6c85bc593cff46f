//! What both sides of a `serve --http` server share, and the client side
//! for `forward` and `doctor`: the headers and the answer a command hook
//! gets (written by the server, read by `forward`), a server's base URL and
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

/// The header of every answer: the exit code `run` would have used.
pub(crate) const EXIT_CODE_HEADER: &str = "hookrun-exit-code";

/// What `run` exits with and prints on each stream, as one JSON object:
/// the answer to a command hook's request (`AS_COMMAND_HEADER`), and each
/// line of `serve --stdio` (which adds `seq`).
#[must_use]
pub(crate) fn command_answer(
    answer: &crate::rendered::Rendered,
) -> serde_json::Map<String, serde_json::Value> {
    let mut out = serde_json::Map::new();
    out.insert("exit_code".into(), answer.exit_code.into());
    out.insert("stdout".into(), answer.stdout.clone().into());
    out.insert("stderr".into(), answer.stderr.join("\n").into());
    out
}

/// [`command_answer`] read back: the server's answer to a command hook,
/// its exit code the header's (`code`).
///
/// # Errors
/// The body is not such an object: not a hookrun server.
pub(crate) fn read_command_answer(
    code: u8,
    body: &str,
) -> Result<crate::rendered::Rendered, String> {
    let v: serde_json::Value =
        serde_json::from_str(body).map_err(|e| format!("the answer is not hookrun's JSON: {e}"))?;
    let text = |key: &str| {
        v.get(key)
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| format!("the answer has no `{key}`: it is not a hookrun server"))
    };
    let stderr = text("stderr")?;
    Ok(crate::rendered::Rendered {
        stdout: text("stdout")?,
        stderr: stderr.lines().map(str::to_owned).collect(),
        exit_code: code,
    })
}

/// A server's base URL: `url` without its `/hooks/NAME` endpoint, if it
/// names one.
#[must_use]
pub(crate) fn base_url(url: &str) -> &str {
    url.split_once("/hooks/")
        .map_or(url, |(base, _)| base)
        .trim_end_matches('/')
}

/// A server's endpoint for a dialect: `url` itself when it names one
/// (`…/hooks/NAME`), else `URL/hooks/{dialect}`.
pub(crate) fn hooks_endpoint(url: &str, dialect: &str) -> String {
    let url = url.trim_end_matches('/');
    if url.contains("/hooks/") {
        url.to_owned()
    } else {
        format!("{url}/hooks/{dialect}")
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
