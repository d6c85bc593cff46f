//! Whether the `serve --http` server a registration hands its events to
//! answers (`GET /readyz`) and takes the registration's token (`GET
//! /metrics`, which needs it as events do). A server that does not answer fails every event: where
//! the agent's fail-safe is on, every blocking event is blocked; elsewhere
//! the event goes on unguarded.

use std::time::Duration;

/// How long the server gets to answer: a ready server answers at once.
const READY_LIMIT: Duration = Duration::from_secs(5);

/// `Ok` when the server at `url` (a base URL or a `…/hooks/NAME` endpoint)
/// answers `/readyz` with `200`; else why not.
pub(crate) fn ready(url: &str, token_env: Option<&str>) -> Result<(), String> {
    let base = crate::server_client::base_url(url);
    let agent = crate::server_client::client(READY_LIMIT);
    let get = |path: &str, token: Option<&str>| {
        let mut call = agent.get(&format!("{base}{path}"));
        if let Some(token) = token {
            call = call.header("Authorization", &format!("Bearer {token}"));
        }
        call.call()
            .map(|r| r.status().as_u16())
            .map_err(|e| match e {
                ureq::Error::Timeout(_) => format!("no answer within {} s", READY_LIMIT.as_secs()),
                e => e.to_string(),
            })
    };
    match get("/readyz", None)? {
        200 => {}
        status => return Err(format!("it answers {status} to /readyz")),
    }
    let Some(var) = token_env else {
        return Ok(());
    };
    let token = std::env::var(var).map_err(|_| {
        format!("the token variable `{var}` is not set here, so no request carries a token")
    })?;
    // The probes need no token; the metrics need the events' token.
    match get("/metrics", Some(token.trim()))? {
        401 => Err(format!("it refuses the token in `{var}` (401)")),
        _ => Ok(()),
    }
}
