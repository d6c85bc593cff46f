//! Choosing which configured hooks run for an event, pure:
//! matching, Claude Code's dedup (first position, last config), the `if`
//! rule, and the handlers hookrun will not run.

use serde::Serialize;

use crate::config::{Action, Config};
use crate::event::Event;
use crate::matcher::{self, MatchPath};

/// Why a hook that is configured for the event does not run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Skip {
    NoMatch,
    /// An identical handler earlier in the merge order runs instead (with
    /// this one's settings, if this one is the last copy).
    Duplicate {
        runs_as: usize,
    },
    IfRule {
        rule: String,
    },
    /// `if` can only be evaluated on tool events; elsewhere the hook never runs.
    IfOnNonToolEvent {
        rule: String,
    },
    Unsupported {
        kind: String,
    },
    /// Claude Code skips http hooks on SessionStart and Setup.
    HttpOnStart,
}

/// One configured hook's fate for this event.
#[derive(Debug, Clone, Serialize)]
pub struct Considered {
    /// Index into `Config::hooks`.
    pub hook: usize,
    pub matched: bool,
    #[serde(rename = "match_path", serialize_with = "ser_path")]
    pub path: MatchPath,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip: Option<Skip>,
}

fn ser_path<S: serde::Serializer>(p: &MatchPath, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match p {
        MatchPath::NoMatcherField => "event_has_no_matcher",
        MatchPath::All => "match_all",
        MatchPath::Names => "names",
        MatchPath::Regex => "regex",
        MatchPath::InvalidRegex => "invalid_regex",
    })
}

/// A hook that will run: at the position of its first copy, with the
/// settings of its last copy.
#[derive(Debug, Clone)]
pub struct Selected {
    /// The hook whose settings are used.
    pub hook: usize,
    /// The first copy's index (the position in config order).
    pub position: usize,
    /// Set when the hook must not be spawned (a settings hook naming
    /// `${CLAUDE_PLUGIN_ROOT}`): it becomes a non-blocking error.
    pub not_run: Option<String>,
}

/// The selection for one event.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub query: Option<String>,
    pub considered: Vec<Considered>,
    pub selected: Vec<Selected>,
    pub notices: Vec<String>,
    /// Hooks that match the event but that hookrun cannot run (`http`,
    /// `prompt`, `agent`, `mcp_tool` handlers), each said with its file
    /// and key.
    pub unevaluated: Vec<String>,
}

/// Selects the hooks of `config` that run for `event`.
#[must_use]
pub fn select(config: &Config, event: &Event) -> Plan {
    let mut plan = Plan::default();
    let names = event.info.map_or(crate::events::NameSet::Wide, |i| i.names);
    plan.query = event
        .info
        .and_then(|i| crate::events::query_value(i, &event.fields));
    if event.info.is_none() && config.hooks.iter().any(|h| h.listens_to(&event.name)) {
        plan.notices.push(format!(
            "`{}` is not an event hookrun knows; its hooks run with their matchers ignored and their answers passed through",
            event.name
        ));
    }
    let mut by_key: Vec<(&str, usize)> = Vec::new();
    let dedups = crate::dialect::protocol(event.dialect).dedups();
    for (i, hook) in config.hooks.iter().enumerate() {
        if !hook.listens_to(&event.name) {
            continue;
        }
        let (matched, path) = matcher::matches(hook.matcher.as_ref(), names, plan.query.as_deref());
        if path == MatchPath::InvalidRegex {
            let pattern = hook
                .matcher
                .as_ref()
                .map(|m| m.pattern())
                .unwrap_or_default();
            plan.notices.push(format!(
                "{} `{}`: matcher `{pattern}` is not a valid regex, so it never matches",
                hook.origin.file.display(),
                hook.origin.key
            ));
        }
        let mut entry = Considered {
            hook: i,
            matched,
            path,
            skip: (!matched).then_some(Skip::NoMatch),
        };
        if matched {
            if dedups && let Some(&(_, slot)) = by_key.iter().find(|(k, _)| *k == hook.dedup_key) {
                let first = plan.selected[slot].position;
                // The last copy's settings win, except that an untrusted
                // copy never replaces the user's (its fail mode, timeout).
                if !hook.origin.untrusted || config.hooks[plan.selected[slot].hook].origin.untrusted
                {
                    plan.selected[slot].hook = i;
                }
                entry.skip = Some(Skip::Duplicate { runs_as: first });
            } else {
                by_key.push((&hook.dedup_key, plan.selected.len()));
                plan.selected.push(Selected {
                    hook: i,
                    position: i,
                    not_run: None,
                });
            }
        }
        plan.considered.push(entry);
    }
    let tool_event = event.info.is_some_and(|i| i.tool_event);
    let tool_name = event.str_field("tool_name");
    let cwd = event.str_field("cwd");
    let empty = serde_json::Map::new();
    let tool_input = event.tool_input().unwrap_or(&empty);
    let mut keep = Vec::new();
    for mut sel in std::mem::take(&mut plan.selected) {
        let hook = &config.hooks[sel.hook];
        let skip = if let Some(rule) = &hook.if_rule {
            if !tool_event {
                Some(Skip::IfOnNonToolEvent { rule: rule.clone() })
            } else if crate::if_rule::admits(rule, tool_name, tool_input, cwd) {
                None
            } else {
                Some(Skip::IfRule { rule: rule.clone() })
            }
        } else {
            None
        };
        let skip = match (&hook.action, skip) {
            (Action::Unsupported { kind }, None) => {
                // A handler that would run but that hookrun cannot run: what
                // it would have answered is unknown (the trust rule decides).
                plan.unevaluated.push(format!(
                    "{} `{}`: hookrun cannot run {kind}s, so this event was not fully evaluated",
                    hook.origin.file.display(),
                    hook.origin.key
                ));
                Some(Skip::Unsupported { kind: kind.clone() })
            }
            (Action::Http { .. }, None) if !crate::events::runs_http(&event.name) => {
                Some(Skip::HttpOnStart)
            }
            (_, skip) => skip,
        };
        if let Some(skip) = skip {
            if let Some(c) = plan.considered.iter_mut().find(|c| c.hook == sel.position) {
                c.skip = Some(skip);
            }
            continue;
        }
        if matches!(hook.action, Action::Prompt { .. } | Action::Agent { .. })
            && matches!(event.name.as_str(), "SessionStart" | "Setup")
        {
            // Claude Code's prompt and agent hooks fail there (a model
            // cannot be asked before the session is set up).
            sel.not_run = Some(format!(
                "{} are not supported on {}",
                hook.action
                    .kind_phrase()
                    .trim_start_matches("a ")
                    .trim_start_matches("an ")
                    .replace(" hook", " hooks"),
                event.name
            ));
        }
        if let Action::Command { command, args } = &hook.action {
            let text_has = |needle: &str| {
                command.contains(needle) || args.iter().flatten().any(|a| a.contains(needle))
            };
            if hook.origin.plugin_root.is_none()
                && (text_has("${CLAUDE_PLUGIN_ROOT}") || text_has("${CLAUDE_PLUGIN_DATA}"))
            {
                sel.not_run = Some(
                    "Hook command references ${CLAUDE_PLUGIN_ROOT} but the hook is not associated with a plugin".to_owned(),
                );
            }
        }
        keep.push(sel);
    }
    // Claude Code runs an event's handlers by type (commands, then prompt,
    // agent, http and mcp_tool hooks), and merges them in that order.
    keep.sort_by_key(|sel| kind_rank(&config.hooks[sel.hook].action));
    plan.selected = keep;
    plan
}

/// A handler type's place in Claude Code's order of running an event's
/// handlers (a sort is stable: config order within a type).
fn kind_rank(action: &Action) -> u8 {
    match action {
        Action::Command { .. } | Action::Builtin(_) | Action::Unsupported { .. } => 0,
        Action::Prompt { .. } => 1,
        Action::Agent { .. } => 2,
        Action::Http { .. } => 3,
        Action::McpTool { .. } => 4,
    }
}
