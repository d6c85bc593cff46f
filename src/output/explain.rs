//! Rendering `explain` for people.

use std::fmt::Write as _;

use crate::explain::Explanation;
use crate::output::colour::Paint;

/// The text form of an explanation; `paint` colours its headings and the
/// matched / not matched markers.
#[must_use]
pub(crate) fn text(e: &Explanation, paint: Paint) -> String {
    let mut out = String::new();
    let _ = write!(out, "{} {}", paint.bold("event"), e.event);
    if !e.known_event {
        out.push_str(" (not an event hookrun knows: matchers are ignored)");
    }
    match (e.query_field, &e.query) {
        (Some(field), Some(q)) => {
            let _ = writeln!(out, " · matcher field `{field}` = {q:?}");
        }
        _ => out.push_str(" · no matcher field: every hook of the event runs\n"),
    }
    let _ = writeln!(
        out,
        "config: {}",
        if e.config_files.is_empty() {
            "(none)".to_owned()
        } else {
            e.config_files.join(", ")
        }
    );
    if e.hooks.is_empty() {
        let _ = writeln!(out, "\nno hook is configured for {}", e.event);
    }
    for h in &e.hooks {
        let _ = writeln!(
            out,
            "\n{} — {} `{}`",
            paint.bold(&format!("#{} {}", h.index, h.name)),
            h.location,
            h.key
        );
        let _ = writeln!(
            out,
            "   {}: {}",
            if h.matched {
                paint.green("matched")
            } else {
                paint.style("2", "not matched")
            },
            h.why
        );
        if let Some(s) = &h.skipped {
            let _ = writeln!(out, "   skipped: {s}");
        }
        if h.matched && h.skipped.is_none() {
            let _ = writeln!(out, "   plan: {}", h.plan);
        }
        if let Some(r) = &h.ran {
            let _ = writeln!(out, "   ran: {r}");
        }
    }
    if !e.merge_steps.is_empty() {
        let _ = writeln!(out, "\n{}", paint.bold("merge, in config order:"));
        for s in &e.merge_steps {
            let _ = writeln!(out, "   after #{} {}: {}", s.after, s.name, s.summary);
        }
    }
    if let Some(r) = &e.result {
        let _ = writeln!(out, "\n{} exit {}", paint.bold("result:"), r.exit_code);
        let _ = writeln!(
            out,
            "   stdout: {}",
            if r.stdout.is_empty() {
                "(empty)"
            } else {
                &r.stdout
            }
        );
        for line in &r.stderr {
            let _ = writeln!(out, "   stderr: {line}");
        }
    }
    if !e.notices.is_empty() && e.result.is_none() {
        out.push_str("\nnotices:\n");
        for n in &e.notices {
            let _ = writeln!(out, "   {n}");
        }
    }
    out
}
