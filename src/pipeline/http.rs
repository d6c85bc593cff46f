//! An `http` hook, as Claude Code runs one: the event POSTed to the URL as
//! JSON (`Content-Type: application/json`, the configured headers), no
//! redirect followed, TLS verified. A 2xx response's body is the hook's
//! answer, read as a command's JSON stdout (an empty body is `{}`); plain
//! text, any other status (even with a deny in the body), an unreachable
//! server, a body over the output cap or the timeout are the hook's
//! failure, which its fail mode turns into a notice or a block. There is
//! no exit-code route: a block must be in the JSON.
//!
//! In a header value `$VAR` and `${VAR}` are replaced by the variable's
//! value only for names listed in `allowed_env_vars`; any other is
//! replaced by nothing, so a config cannot send the user's secrets
//! anywhere by naming them.
//!
//! The request runs on a thread of its own while the event's commands run
//! (the runtime that drives them is single-threaded and must not wait on
//! a socket); nothing of it is set up for an event without http hooks.

use std::time::{Duration, Instant};

/// One request to make, owned so that it can run on a thread of its own.
#[derive(Debug, Clone)]
pub(super) struct Request {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: std::sync::Arc<Vec<u8>>,
    pub timeout: Duration,
    /// The largest body read; a longer one is a failure.
    pub cap: usize,
    /// Why the request may not be sent at all (Claude Code's
    /// `allowedHttpHookUrls`): the hook then fails without one.
    pub refused: Option<String>,
    /// Only public and loopback addresses may be reached (an http hook's
    /// URL, from a config); a model API the user's environment names is
    /// reached wherever it is.
    pub public_only: bool,
}

/// How a request ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Outcome {
    /// A 2xx status and its body, empty as `{}`.
    Answered(Vec<u8>),
    /// No answer within the timeout.
    TimedOut,
    /// No answer the hook's rules accept, and why.
    Failed(String),
}

/// A request's outcome and how long it took.
pub(super) type Done = (Outcome, Duration);

/// Starts `request` on a thread of its own; the handle gives its outcome.
///
/// # Errors
/// The thread cannot start (the request is then a failed one).
pub(super) fn start(request: Request) -> Result<std::thread::JoinHandle<Done>, String> {
    std::thread::Builder::new()
        .name("hookrun-http".into())
        .spawn(move || {
            let started = Instant::now();
            (post(&request), started.elapsed())
        })
        .map_err(|e| format!("could not start a thread for the request: {e}"))
}

/// The header values with `$VAR` / `${VAR}` filled in for the names in
/// `allowed` (from `env`), and replaced by nothing for any other name.
pub(super) fn expand_headers(
    headers: &[(String, String)],
    allowed: &[String],
    env: &dyn Fn(&str) -> Option<String>,
) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(k, v)| (k.clone(), expand(v, allowed, env)))
        .collect()
}

/// One value with its variables filled in (see [`expand_headers`]).
fn expand(value: &str, allowed: &[String], env: &dyn Fn(&str) -> Option<String>) -> String {
    crate::config::fill_header_vars(value, &mut |name| {
        if allowed.iter().any(|a| a == name) {
            env(name).unwrap_or_default()
        } else {
            String::new()
        }
    })
}

/// Whether an address is one an http hook may reach: loopback, or public.
fn public_or_loopback(ip: std::net::IpAddr) -> bool {
    use std::net::IpAddr;
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            v4.is_loopback()
                || !(v4.is_private()
                    || v4.is_link_local()
                    || v4.is_unspecified()
                    || v4.is_broadcast()
                    || a == 0
                    || (a == 100 && (64..128).contains(&b)))
        }
        IpAddr::V6(v6) => {
            if v6.is_loopback() {
                return true;
            }
            if let Some(v4) = v6.to_ipv4_mapped() {
                return public_or_loopback(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            !(v6.is_unspecified() || (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80)
        }
    }
}

/// ureq's own resolver, refusing every answer that holds an address an
/// http hook may not reach, as Claude Code refuses it: one that is not
/// public (private, link-local, unique-local, shared, unspecified), by
/// itself or as what the name resolves to; loopback is allowed, for a
/// server on this machine. The check is made on the very addresses the
/// client then connects to. (ureq's resolver interface is its
/// `unversioned` one: the lock file pins the version it was written
/// against.)
#[derive(Debug, Default)]
struct PublicOnly {
    inner: ureq::unversioned::resolver::DefaultResolver,
    /// Off: every address the name resolves to is fine.
    enforce: bool,
}

impl ureq::unversioned::resolver::Resolver for PublicOnly {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: ureq::unversioned::transport::NextTimeout,
    ) -> Result<ureq::unversioned::resolver::ResolvedSocketAddrs, ureq::Error> {
        let addresses = self.inner.resolve(uri, config, timeout)?;
        let Some(a) = addresses
            .iter()
            .find(|a| self.enforce && !public_or_loopback(a.ip()))
        else {
            return Ok(addresses);
        };
        let host = uri.host().unwrap_or("");
        let what = if host
            .trim_matches(['[', ']'])
            .parse::<std::net::IpAddr>()
            .is_ok()
        {
            format!("{host} is not a public address")
        } else {
            format!("{host} resolves to {} (private/link-local address)", a.ip())
        };
        Err(ureq::Error::Io(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!(
                "HTTP hook blocked: {what}. Loopback (127.0.0.1, ::1) is allowed for local dev."
            ),
        )))
    }
}

/// The POST itself.
fn post(request: &Request) -> Outcome {
    if let Some(why) = &request.refused {
        return Outcome::Failed(why.clone());
    }
    let config = ureq::Agent::config_builder()
        .timeout_global(Some(request.timeout))
        .max_redirects(0)
        .http_status_as_error(false)
        .user_agent(concat!("hookrun/", env!("CARGO_PKG_VERSION")))
        .tls_config(
            ureq::tls::TlsConfig::builder()
                .root_certs(ureq::tls::RootCerts::PlatformVerifier)
                .build(),
        )
        .build();
    let agent = ureq::Agent::with_parts(
        config,
        ureq::unversioned::transport::DefaultConnector::default(),
        PublicOnly {
            inner: ureq::unversioned::resolver::DefaultResolver::default(),
            enforce: request.public_only,
        },
    );
    let mut call = agent
        .post(&request.url)
        .header("Content-Type", "application/json");
    for (name, value) in &request.headers {
        call = call.header(name, value);
    }
    let response = match call.send(&request.body[..]) {
        Ok(r) => r,
        Err(ureq::Error::Timeout(_)) => return Outcome::TimedOut,
        Err(e) => return Outcome::Failed(format!("the request failed: {e}")),
    };
    let status = response.status();
    if status.is_redirection() {
        return Outcome::Failed(format!(
            "answered with a redirect ({status}), which is not followed"
        ));
    }
    if !status.is_success() {
        return Outcome::Failed(format!("answered with status {status}"));
    }
    let limit = u64::try_from(request.cap).unwrap_or(u64::MAX);
    match response
        .into_body()
        .with_config()
        .limit(limit.saturating_add(1))
        .read_to_vec()
    {
        Ok(body) if body.len() > request.cap => too_large(request.cap),
        Ok(body) if body.iter().all(u8::is_ascii_whitespace) => Outcome::Answered(b"{}".to_vec()),
        Ok(body) => Outcome::Answered(body),
        Err(ureq::Error::Timeout(_)) => Outcome::TimedOut,
        Err(ureq::Error::BodyExceedsLimit(_)) => too_large(request.cap),
        Err(e) => Outcome::Failed(format!("reading the answer failed: {e}")),
    }
}

fn too_large(cap: usize) -> Outcome {
    Outcome::Failed(format!(
        "answered with a body over {cap} bytes (`limits.max_output_bytes`)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_and_loopback_addresses_are_reached() {
        for ok in ["127.0.0.1", "::1", "8.8.8.8", "2606:4700::1111"] {
            let ip: std::net::IpAddr = ok.parse().expect("ip");
            assert!(public_or_loopback(ip), "{ok}");
        }
        for blocked in [
            "10.0.0.1",
            "192.168.1.20",
            "172.16.0.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "fe80::1",
            "fd00::1",
            "::ffff:10.0.0.1",
        ] {
            let ip: std::net::IpAddr = blocked.parse().expect("ip");
            assert!(!public_or_loopback(ip), "{blocked}");
        }
    }

    fn env(name: &str) -> Option<String> {
        match name {
            "TOKEN" => Some("s3cret".into()),
            "HOME" => Some("/home/u".into()),
            _ => None,
        }
    }

    #[test]
    fn only_allowed_variables_are_filled_in() {
        let allowed = vec!["TOKEN".to_owned()];
        let e = |v: &str| expand(v, &allowed, &env);
        assert_eq!(e("Bearer $TOKEN"), "Bearer s3cret");
        assert_eq!(e("Bearer ${TOKEN}!"), "Bearer s3cret!");
        // Not listed: replaced by nothing, never sent.
        assert_eq!(e("x $HOME y"), "x  y");
        assert_eq!(e("x ${HOME}y"), "x y");
        // Listed but unset: nothing.
        let allowed = vec!["UNSET".to_owned()];
        assert_eq!(expand("[$UNSET]", &allowed, &env), "[]");
        // No name: the `$` stays.
        assert_eq!(expand("cost $5 or $", &[], &env), "cost $5 or $");
        assert_eq!(expand("${unclosed", &[], &env), "${unclosed");
    }
}
