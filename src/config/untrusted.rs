//! What an untrusted project file (found by discovery, not on the user's
//! trust list) may do: add guards, nothing else.
//!
//! Its hooks run and can deny, ask, block, stop and add context, but they
//! are marked `Origin::untrusted`, so that:
//!
//! - their answers lose everything that would let a tool call through or
//!   change it (`allow`, `updatedInput` and every other rewrite:
//!   `pipeline::restrict`): a hook that rewrites the input could route a
//!   command around the user's guard, and one that allows skips the
//!   agent's own permission prompt;
//! - they never take the place of a user's identical hook in dedup
//!   (`select`), which would otherwise let a copy with `fail_mode = "open"`
//!   or a tiny timeout replace the user's closed guard.
//!
//! Its file-wide settings, which would change the user's hooks, are dropped
//! with a notice: `disable_all_hooks`, `[limits]` (a tiny `max_event_bytes`
//! fails every event), `audit_log` / `audit_key_file` (the user's audit
//! trail), `order`, `[telemetry]` (it would send every event, tool inputs
//! and reasons, to an address of the file's choosing), and `[mcp_servers]`
//! (each a program hookrun would start; its `mcp_tool` hooks may call the
//! servers the user declares). `[defaults] fail_mode` applies to the file's own
//! hooks only, so it needs no rule; a closed default only adds strictness
//! and is kept.
//!
//! An untrusted file that cannot be used (a syntax error, an unknown key)
//! is skipped whole, with a notice on every event: it could only have
//! added guards, so skipping it never removes one of the user's, and a
//! broken file written into the project cannot stop the user's own
//! layers from running.

use std::path::Path;

use super::layer::Layer;
use super::model::{Action, Hook};
use crate::diagnostic::{Code, Diagnostic};

/// `check`'s findings for an untrusted project file: each file-wide
/// setting it ignores (the notice `restrict` gives) and each hook that
/// cannot do what it is configured for, so that a guard that is off is
/// never checked green.
pub(super) fn findings(hooks: &[Hook], notices: &[Diagnostic], path: &Path) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = notices
        .iter()
        .filter(|n| n.code == Code::Untrusted)
        .cloned()
        .collect();
    for hook in hooks.iter().filter(|h| h.origin.file == path) {
        let Action::Builtin(b) = &hook.action else {
            continue;
        };
        // A guard whose whole effect is a rewrite (`updatedToolOutput`),
        // which an untrusted file loses: there it runs and changes nothing.
        if !b.only_rewrites() {
            continue;
        }
        out.push(
            Diagnostic::new(
                Code::Untrusted,
                path,
                format!(
                    "`{}` only rewrites, and this project config is not on the trust list: it may only add guards, so `{}` runs and changes nothing",
                    hook.display_name(),
                    b.name
                ),
            )
            .at(hook.origin.line_col)
            .key(hook.origin.key.clone())
            .fix(format!("review the file, then `hookrun trust {}`", path.display())),
        );
    }
    out
}

/// Restricts one untrusted layer in place.
pub(super) fn restrict(layer: &mut Layer, path: &Path) {
    let mut ignored: Vec<&str> = Vec::new();
    if layer.disable_all.take() == Some(true) {
        ignored.push("`disable_all_hooks`");
    }
    if layer.limits.take().is_some() {
        ignored.push("`[limits]`");
    }
    if layer.audit_log.take().is_some() {
        ignored.push("`audit_log`");
    }
    if layer.audit_key_file.take().is_some() {
        ignored.push("`audit_key_file`");
    }
    if layer.order.take().is_some() | !std::mem::take(&mut layer.order_by_event).is_empty() {
        ignored.push("`order`");
    }
    if layer.telemetry.take().is_some() {
        // It would send every event somewhere.
        ignored.push("`[telemetry]`");
    }
    if !std::mem::take(&mut layer.mcp_servers).is_empty() {
        // A server is a program hookrun would start for the file.
        ignored.push("`[mcp_servers]`");
    }
    layer.policy = false;
    for hook in &mut layer.hooks {
        hook.origin.untrusted = true;
    }
    if !ignored.is_empty() {
        layer.notices.push(Diagnostic::new(
            Code::Untrusted,
            path,
            format!(
                "project config not trusted, so {} ignored: it may only add guards (review it, then `hookrun trust {}`)",
                ignored.join(", "),
                path.display()
            ),
        ));
    }
}

/// The notice for an untrusted project file that cannot be used and is
/// skipped: the finding (file, line, key, fix) with why it was skipped.
pub(super) fn skipped(finding: Diagnostic) -> Diagnostic {
    let fix = finding
        .fix
        .as_ref()
        .map(|f| format!("; {f}"))
        .unwrap_or_default();
    let mut notice = finding.clone();
    notice.code = Code::Untrusted;
    notice.severity = Code::Untrusted.severity();
    notice.message = format!(
        "untrusted project config skipped, it cannot be used: {}{fix}; the other config files ran without it (fix it, then review it and `hookrun trust {}`)",
        finding.message,
        finding.file.display()
    );
    notice
}
