//! `hookrun forward --url URL`: a command hook for agents that only run
//! commands, answered by a `hookrun serve --http` server. The event on
//! stdin is posted to `URL/hooks/{dialect}` (`auto` without `--dialect`,
//! `?event=` with `--event`); a `200` answer's body is printed as it came
//! and its `Hookrun-Exit-Code` is the exit code, so the agent gets exactly
//! what `run` on the server's machine would have given it.
//!
//! No answer (the server unreachable, too slow, an error status, no exit
//! code) is hookrun's own failure, under the trust rule: where the event can
//! block it is blocked in the caller's shape, saying why, unless
//! `--on-error allow`, which reports it and lets the event through.

use std::time::Duration;

use crate::cli::ForwardArgs;
use crate::error::{Error, ExitStatus};
use crate::output;

/// The largest answer read back: `run`'s cap on a hook's output.
const MAX_ANSWER_BYTES: u64 = 1024 * 1024;

/// Forwards the event on stdin and answers as the server did.
///
/// # Errors
/// The event cannot be read from stdin (then `run`'s own block applies).
pub(crate) fn execute(args: &ForwardArgs) -> Result<ExitStatus, Error> {
    let limits = crate::config::Limits::default();
    let raw = crate::event::read_stdin(limits.max_event_bytes, args.stdin_timeout)?;
    match post(args, &raw) {
        Ok(answer) => {
            output::emit(&answer);
            Ok(answer.exit_code)
        }
        Err(why) => {
            let e =
                Error::Unanswered(format!("{}: {why}", args.url)).closed_if(args.on_error.blocks());
            if !e.blocks() {
                return Err(e);
            }
            let answer =
                crate::session::unevaluated_answer(&raw, &e, args.event.as_deref(), args.dialect);
            output::emit(&answer);
            Ok(answer.exit_code)
        }
    }
}

/// The endpoint an event goes to: `URL` itself when it names one
/// (`…/hooks/NAME`), else `URL/hooks/{dialect}`; with `?event=` when given.
fn endpoint(args: &ForwardArgs) -> String {
    let dialect = args
        .dialect
        .and_then(|d| clap::ValueEnum::to_possible_value(&d))
        .map_or_else(|| "auto".to_owned(), |p| p.get_name().to_owned());
    let mut url = crate::server_client::hooks_endpoint(&args.url, &dialect);
    if let Some(event) = &args.event {
        let sep = if url.contains('?') { '&' } else { '?' };
        let event: String = url_encoded(event);
        url.push(sep);
        url.push_str(&format!("event={event}"));
    }
    url
}

/// `text` with everything but unreserved characters percent-encoded.
fn url_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The server's answer: its exit code and body; `Err` says why there is
/// none.
fn post(args: &ForwardArgs, raw: &[u8]) -> Result<crate::rendered::Rendered, String> {
    let token = match (&args.token_file, &args.token_env) {
        (Some(path), _) => Some(crate::server_client::read_token(path)?),
        (None, Some(var)) => Some(crate::server_client::token_from_env(var)?),
        (None, None) => None,
    };
    let mut call = crate::server_client::client(args.timeout)
        .post(&endpoint(args))
        .header("Content-Type", "application/json")
        .header(crate::server_client::AS_COMMAND_HEADER, "1");
    if let Some(token) = &token {
        call = call.header("Authorization", &format!("Bearer {token}"));
    }
    // The agent's trace context, so that the server's span of the event is
    // a child of the agent's (docs/telemetry.md).
    if let Some((parent, state)) = crate::telemetry::parent_from_env() {
        call = call.header("traceparent", &parent);
        if let Some(state) = state {
            call = call.header("tracestate", &state);
        }
    }
    let response = call.send(raw).map_err(|e| match e {
        ureq::Error::Timeout(_) => format!("no answer within {}", seconds(args.timeout)),
        e => format!("the request failed: {e}"),
    })?;
    let status = response.status();
    if !status.is_success() {
        return Err(format!("answered with status {status}"));
    }
    let code = response
        .headers()
        .get(crate::server_client::EXIT_CODE_HEADER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<ExitStatus>().ok())
        .ok_or_else(|| {
            "the answer has no `Hookrun-Exit-Code` header: it is not a hookrun server".to_owned()
        })?;
    let body = response
        .into_body()
        .with_config()
        .limit(MAX_ANSWER_BYTES)
        .read_to_string()
        .map_err(|e| format!("reading the answer failed: {e}"))?;
    crate::server_client::read_command_answer(code, &body)
}

fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}
