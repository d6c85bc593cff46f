//! `hookrun builtin NAME`: one built-in as an ordinary command hook.

use std::sync::Arc;

use crate::builtin::Builtin;
use crate::cli::BuiltinArgs;
use crate::config::{Action, Config, FailMode, Hook, Origin};
use crate::error::{Error, ExitStatus};
use crate::event;
use crate::output;
use crate::pipeline;

/// Runs the built-in on the event on stdin; prints and exits like `run`.
///
/// # Errors
/// Bad options or a bad event: a block unless `--on-error allow` (and even
/// then under `--fail-mode closed`).
pub(crate) fn execute(args: &BuiltinArgs) -> Result<ExitStatus, Error> {
    let blocks = args.on_error.blocks() || args.fail_mode == Some(FailMode::Closed);
    let built = crate::builtin::options_from_args(args.options.as_deref(), &args.option)
        .and_then(|options| Builtin::new(&args.name, options, args.mode))
        .map_err(|why| Error::Usage(why).closed_if(blocks));
    match built {
        Ok(builtin) => run(args, builtin).map_err(|e| e.closed_if(blocks)),
        // The event is still unread: a block can be in its shape.
        Err(e) if e.blocks() => Ok(crate::session::block_unread_event(
            &e,
            args.event.as_deref(),
            None,
            std::time::Duration::from_secs(30),
        )),
        Err(e) => Err(e),
    }
}

fn run(args: &BuiltinArgs, builtin: Builtin) -> Result<ExitStatus, Error> {
    let raw = event::read_capped(
        std::io::stdin().lock(),
        crate::config::Limits::default().max_event_bytes,
    )?;
    let event = crate::dialect::read_event(&raw, args.event.as_deref())?;
    let hook = Hook {
        name: None,
        events: vec![event.name.clone()],
        matcher: None,
        action: Action::Builtin(Arc::new(builtin)),
        timeout: None,
        fail_mode: args.fail_mode.unwrap_or(FailMode::Open),
        fail_mode_from_on_failure: false,
        fail_mode_explicit: args.fail_mode.is_some(),
        input: None,
        is_async: false,
        env: Vec::new(),
        if_rule: None,
        origin: Origin {
            file: "(command line)".into(),
            key: args.name.clone(),
            line_col: None,
            plugin_root: None,
            policy: false,
            untrusted: false,
        },
        dedup_key: args.name.clone(),
    };
    let mut config = Config {
        hooks: vec![hook],
        ..Config::default()
    };
    // No config file is read, but the user's, the trust list and the
    // agents' settings are hookrun's all the same.
    config.own_files = crate::config::own_files(&config, crate::dialect::convert::HOOKS_FILES);
    let eval = pipeline::evaluate(&config, &event, &pipeline::Context::from_env(0))?;
    output::emit(&eval.rendered);
    Ok(eval.rendered.exit_code)
}
