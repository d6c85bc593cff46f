//! `hookrun explain`: why each hook does or does not run for an event.

use std::io::IsTerminal;

use serde_json::{Map, Value};

use crate::cli::{ExplainArgs, ExplainFormat};
use crate::config::{self, FailMode, LoadOptions};
use crate::error::{Error, ExitStatus};
use crate::event::{self, Event};
use crate::output;
use crate::pipeline;

/// Runs `explain`; the exit code is 0.
///
/// # Errors
/// A bad config, event or flag.
pub(crate) fn execute(args: &ExplainArgs) -> Result<ExitStatus, Error> {
    let found = config::discover(&args.configs);
    let options = LoadOptions {
        explicit: args.fail_mode.is_some(),
        default_fail_mode: args.fail_mode.unwrap_or(FailMode::Open),
        format: args.config_format,
        foreign: crate::dialect::convert::HOOKS_FILES,
    };
    let mut config = config::load_found(&found, options)?.complete()?;
    crate::session::drop_registrations(&mut config, &found);
    let event = read_event(args)?;
    // What `run` would do for the event's agent: without the hooks that
    // agent runs itself.
    let config = crate::session::for_event(&config, &event);
    let config = &*config;
    let plan = crate::select::select(config, &event);
    let eval = if args.run {
        Some(pipeline::evaluate(
            config,
            &event,
            &pipeline::Context::from_env(0),
        )?)
    } else {
        None
    };
    let explanation = crate::explain::explain(config, &event, &plan, eval.as_ref());
    let text = match args.format {
        ExplainFormat::Text => output::explain::text(
            &explanation,
            output::colour::Paint {
                on: output::colour_stdout(),
            },
        ),
        ExplainFormat::Json => {
            serde_json::to_string_pretty(&explanation).unwrap_or_default() + "\n"
        }
    };
    output::print(&text);
    Ok(0)
}

/// The event: built from the flags when any describes it (or stdin is a
/// terminal), else read from stdin.
fn read_event(args: &ExplainArgs) -> Result<Event, Error> {
    let from_flags = args.tool.is_some()
        || args.input.is_some()
        || !args.set.is_empty()
        || std::io::stdin().is_terminal();
    if !from_flags {
        let raw = event::read_capped(
            std::io::stdin().lock(),
            config::Limits::default().max_event_bytes,
        )?;
        return crate::dialect::read_event_as(&raw[..], args.event.as_deref(), args.dialect);
    }
    let Some(name) = &args.event else {
        return Err(Error::Usage(
            "name the event with `--event NAME` (or pipe an event on stdin)".into(),
        ));
    };
    let mut partial = Map::new();
    partial.insert("hook_event_name".into(), Value::String(name.clone()));
    if let Some(tool) = &args.tool {
        partial.insert("tool_name".into(), Value::String(tool.clone()));
    }
    if let Some(input) = &args.input {
        let v: Value = serde_json::from_str(input)
            .map_err(|e| Error::Usage(format!("--input is not valid JSON: {e}")))?;
        if !v.is_object() {
            return Err(Error::Usage(
                "--input must be a JSON object (the tool input)".into(),
            ));
        }
        partial.insert("tool_input".into(), v);
    } else if args.tool.is_some() {
        partial.insert("tool_input".into(), Value::Object(Map::new()));
    }
    for pair in &args.set {
        let Some((k, v)) = pair.split_once('=') else {
            return Err(Error::Usage(format!("--set `{pair}` is not KEY=VALUE")));
        };
        let value = serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.to_owned()));
        partial.insert(k.to_owned(), value);
    }
    let cwd = std::env::current_dir()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let bytes = serde_json::to_vec(&event::complete(&partial, &cwd))
        .map_err(|e| Error::Event(e.to_string()))?;
    crate::dialect::read_event_as(bytes, None, args.dialect)
}
