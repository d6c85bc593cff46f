//! `hookrun run`: config → event → select → exec → answer → decision → output.

use crate::cli::RunArgs;
use crate::config::{self, Config, Discovery, FailMode, Hook, LoadOptions};
use crate::error::{Error, ExitStatus};
use crate::event::{self, Event};
use crate::launch::DEPTH_VAR;
use crate::output;
use crate::pipeline;

/// Nesting depth past which `run` refuses to start: a config that runs
/// `hookrun run` on itself would otherwise fork without end.
const MAX_DEPTH: u32 = 8;

/// Runs one event and returns the exit code. Never panics on bad input:
/// every problem becomes an `Error`, answered as a block where a guard fails
/// closed.
///
/// # Errors
/// A bad config, event or nesting depth, or an interruption.
pub fn execute(args: &RunArgs) -> Result<ExitStatus, Error> {
    let started = std::time::Instant::now();
    let cli_closed = args.fail_mode == Some(FailMode::Closed);
    let config = load_config(args).map_err(|e| e.closed_if(cli_closed))?;
    let depth = std::env::var(DEPTH_VAR)
        .ok()
        .and_then(|d| d.parse::<u32>().ok())
        .unwrap_or(0);
    if depth >= MAX_DEPTH {
        return Err(Error::Nested { depth }.closed_if(config.any_closed));
    }
    let timeout = std::time::Duration::from_secs_f64(args.stdin_timeout.max(0.001));
    let event = match event::read_stdin(config.limits.max_event_bytes, timeout)
        .and_then(|raw| crate::dialect::read_event_as(raw, args.event.as_deref(), args.dialect))
    {
        Ok(e) => e,
        Err(e) => {
            if let Some(path) = &config.audit_log {
                // A refused event is an event too: it leaves a line.
                let mut record = serde_json::Map::new();
                record.insert("time".into(), crate::clock::now_rfc3339().into());
                record.insert("error".into(), e.to_string().into());
                if let Err(why) =
                    crate::audit::append(path, config.audit_key_file.as_deref(), record)
                {
                    output::diagnostic(&why);
                }
            }
            return Err(e.closed_if(config.any_closed));
        }
    };
    // An agent that reads a block's whole stderr as the reason the model
    // sees would show these lints to the model: they stay with `check`.
    if !crate::dialect::protocol(event.dialect).stderr_is_reason() {
        for w in &config.warnings {
            output::diagnostic(&format!("warning: {w}"));
        }
    }
    if let Some(forced) = &args.event
        && event.info.is_none()
        && !config.hooks.iter().any(|h| h.events.contains(&event.name))
    {
        // A typo in `--event` would otherwise match nothing and allow.
        let near = crate::events::nearest(forced)
            .map(|n| format!("; did you mean `{n}`?"))
            .unwrap_or_default();
        return Err(Error::Usage(format!(
            "--event `{forced}` is no agent's event name, and no hook is configured under it{near}"
        ))
        .closed_if(config.any_closed));
    }
    run_event(&config, &event, depth, args.report.as_deref(), started)
}

pub(crate) fn load_config(args: &RunArgs) -> Result<Config, Error> {
    let (paths, discovery) = config::discover(&args.configs);
    let options = LoadOptions {
        explicit: args.fail_mode.is_some(),
        default_fail_mode: args.fail_mode.unwrap_or(FailMode::Open),
        format: args.config_format,
    };
    let mut config = config::load(&paths, options)?;
    if discovery == Discovery::ClaudeLayers {
        // Claude Code's settings register hookrun itself; running that
        // registration again would recurse.
        config.hooks.retain(|h| !is_self_registration(h));
    }
    if paths.is_empty() {
        output::diagnostic(
            "warning: no config found (no --config, $HOOKRUN_CONFIG, ./hookrun.toml or Claude Code settings); nothing to run",
        );
    }
    if let Some(p) = &args.audit_log {
        config.audit_log = Some(p.clone());
    }
    if let Some(k) = &args.audit_key_file {
        config.audit_key_file = Some(k.clone());
    }
    if let Some(v) = args.max_event_bytes {
        config.limits.max_event_bytes = v;
    }
    if let Some(v) = args.max_output_bytes {
        config.limits.max_output_bytes = v;
    }
    Ok(config)
}

fn is_self_registration(hook: &Hook) -> bool {
    let label = hook.label();
    let mut words = label.split_whitespace();
    let program = words.next().unwrap_or("");
    program.rsplit('/').next() == Some("hookrun") && words.next() == Some("run")
}

fn run_event(
    config: &Config,
    event: &Event,
    depth: u32,
    report_path: Option<&std::path::Path>,
    started: std::time::Instant,
) -> Result<ExitStatus, Error> {
    let (eval, rendered) = handle(config, event, depth, started)?;
    output::emit(&rendered);
    if let Some(path) = report_path {
        if let Err(source) = output::write_report(path, &eval.report(config, event)) {
            // The decision is already out; a lost report is reported, not fatal.
            output::diagnostic(
                &Error::Report {
                    path: path.to_owned(),
                    source,
                }
                .to_string(),
            );
        }
    }
    Ok(rendered.exit_code)
}

/// Evaluates one event and writes its audit line: what `run` and `serve`
/// share. An audit line that cannot be written is reported, and blocks
/// where a guard fails closed.
///
/// # Errors
/// hookrun's own failures (see `pipeline::evaluate`).
pub(crate) fn handle(
    config: &Config,
    event: &Event,
    depth: u32,
    started: std::time::Instant,
) -> Result<(pipeline::Evaluation, crate::rendered::Rendered), Error> {
    let eval = pipeline::evaluate(config, event, &pipeline::Context::from_env(depth))?;
    let mut rendered = eval.rendered.clone();
    if let Some(path) = &config.audit_log {
        let record = eval.audit_record(config, event, started.elapsed());
        if let Err(why) = crate::audit::append(path, config.audit_key_file.as_deref(), record) {
            if config.any_closed {
                let reason = format!("hookrun: {why}");
                let stdout = serde_json::json!({"decision": "block", "reason": reason}).to_string();
                rendered = crate::rendered::Rendered {
                    stdout,
                    stderr: vec![reason],
                    exit_code: 2,
                };
            } else {
                rendered.stderr.push(format!("hookrun: {why}"));
            }
        }
    }
    Ok((eval, rendered))
}
