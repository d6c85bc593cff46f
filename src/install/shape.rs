//! The edit itself: hookrun's handlers added to, or taken out of, an
//! agent's hooks JSON, every other key and handler left as it was.
//!
//! Claude Code, Codex and Gemini nest handlers in matcher groups
//! (`hooks.EVENT[].hooks[]`); Cursor and Copilot list handlers directly
//! under the event, in a `{"version": 1, "hooks": …}` file. hookrun's
//! handlers have no matcher: hookrun matches each hook itself.

use serde_json::{Map, Value, json};

use super::agent::Agent;
use super::agent::is_registration;

/// One handler of hookrun's to write: the agent's event, what it runs, the
/// timeout in seconds, and the key and value asking the agent to block
/// when the handler fails (`agent::fail_closed`), if any.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Handler {
    pub event: String,
    pub run: Run,
    pub timeout_secs: u64,
    pub fail_closed: Option<(&'static str, Value)>,
}

/// What a handler of hookrun's runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Run {
    /// A command (`hookrun run …`, `hookrun forward …`).
    Command(String),
    /// Claude Code's `http` handler posting to a `serve --http` endpoint,
    /// with the bearer token from an environment variable the handler is
    /// allowed to read.
    Http {
        url: String,
        token_env: Option<String>,
    },
}

/// Whether `key` is one `install` writes on a handler of the agent's,
/// whatever it runs: on a handler of hookrun's such keys are `install`'s to
/// set or take off; every other key (a `statusMessage` the user added)
/// stays.
fn managed(agent: Agent, key: &str) -> bool {
    let f = file(agent);
    key == f.command_key
        || key == f.timeout_key
        || ["type", "name", "url", "headers", "allowedEnvVars"].contains(&key)
        || FAIL_CLOSED_KEYS.contains(&key)
}

/// The keys `install` may write to ask an agent to block on a failure.
const FAIL_CLOSED_KEYS: &[&str] = &["onFailure", "failClosed", "failMode"];

/// The shape of the agent's hooks file, as its dialect gives it.
fn file(agent: Agent) -> crate::dialect::setup::HooksFile {
    crate::dialect::setup(agent).file
}

/// Whether the agent nests handlers in matcher groups.
fn nested(agent: Agent) -> bool {
    file(agent).nested
}

/// The key holding a handler's shell command.
fn command_key(agent: Agent) -> &'static str {
    file(agent).command_key
}

/// The timeout key and value in the agent's unit (seconds, or
/// milliseconds).
fn timeout(agent: Agent, secs: u64) -> (&'static str, Value) {
    let f = file(agent);
    let value = if f.timeout_millis {
        secs.saturating_mul(1000)
    } else {
        secs
    };
    (f.timeout_key, json!(value))
}

/// A new file's content before any hook: with the format version of the
/// agents whose files carry one.
#[must_use]
pub(crate) fn skeleton(agent: Agent) -> Value {
    match file(agent).version {
        Some(v) => json!({"version": v}),
        None => json!({}),
    }
}

/// Whether a file holds nothing but what `skeleton` gives: a file
/// `install` created, once its hooks are gone.
#[must_use]
pub(crate) fn is_bare(root: &Value, agent: Agent) -> bool {
    root == &skeleton(agent) || root.as_object().is_some_and(Map::is_empty)
}

fn new_handler(agent: Agent, handler: &Handler) -> Value {
    let (tkey, tval) = timeout(agent, handler.timeout_secs);
    let mut h = Map::new();
    match &handler.run {
        Run::Command(command) => {
            if file(agent).typed {
                h.insert("type".into(), json!("command"));
            }
            if let Some(name) = file(agent).handler_name {
                h.insert("name".into(), json!(name));
            }
            h.insert(command_key(agent).into(), json!(command));
        }
        Run::Http { url, token_env } => {
            h.insert("type".into(), json!("http"));
            h.insert("url".into(), json!(url));
            if let Some(var) = token_env {
                h.insert(
                    "headers".into(),
                    json!({"Authorization": format!("Bearer ${{{var}}}")}),
                );
                h.insert("allowedEnvVars".into(), json!([var]));
            }
        }
    }
    h.insert(tkey.into(), tval);
    if let Some((key, value)) = &handler.fail_closed {
        h.insert((*key).into(), value.clone());
    }
    Value::Object(h)
}

/// `old`, a handler of hookrun's, rewritten as `new`: each key `install`
/// manages takes the new value (or goes, where the new handler has none),
/// in its place; the user's own keys stay where they were; new keys come
/// last.
fn rewritten(agent: Agent, old: &Value, new: Value) -> Value {
    let (Some(old), Value::Object(mut new)) = (old.as_object(), new) else {
        return old.clone();
    };
    let mut out = Map::new();
    for (k, v) in old {
        if !managed(agent, k) {
            out.insert(k.clone(), v.clone());
        } else if let Some(v) = new.shift_remove(k) {
            out.insert(k.clone(), v);
        }
    }
    out.extend(new);
    Value::Object(out)
}

fn is_ours(agent: Agent, handler: &Value) -> bool {
    let by_command = handler
        .get(command_key(agent))
        .and_then(Value::as_str)
        .is_some_and(|c| is_registration(c, agent));
    let by_url = handler.get("type").and_then(Value::as_str) == Some("http")
        && handler
            .get("url")
            .and_then(Value::as_str)
            .is_some_and(|u| super::agent::is_http_registration(u, agent));
    by_command || by_url
}

/// Takes hookrun's handlers out of one event's list; groups left empty by
/// that go too. Returns how many were taken.
fn remove_ours(agent: Agent, list: &mut Vec<Value>) -> usize {
    let before = count_ours(agent, list);
    if nested(agent) {
        list.retain_mut(|group| {
            let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                return true;
            };
            let had = handlers.len();
            handlers.retain(|h| !is_ours(agent, h));
            !(handlers.is_empty() && had > 0)
        });
    } else {
        list.retain(|h| !is_ours(agent, h));
    }
    before
}

fn count_ours(agent: Agent, list: &[Value]) -> usize {
    if nested(agent) {
        list.iter()
            .filter_map(|g| g.get("hooks").and_then(Value::as_array))
            .flatten()
            .filter(|h| is_ours(agent, h))
            .count()
    } else {
        list.iter().filter(|h| is_ours(agent, h)).count()
    }
}

/// The first of hookrun's handlers in an event's list.
fn first_ours(agent: Agent, list: &mut [Value]) -> Option<&mut Value> {
    if nested(agent) {
        list.iter_mut()
            .filter_map(|g| g.get_mut("hooks").and_then(Value::as_array_mut))
            .flatten()
            .find(|h| is_ours(agent, h))
    } else {
        list.iter_mut().find(|h| is_ours(agent, h))
    }
}

fn hooks_of(root: &mut Value) -> Result<&mut Map<String, Value>, String> {
    let obj = root
        .as_object_mut()
        .ok_or("the top level is not a JSON object")?;
    obj.entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or_else(|| "`hooks` is not an object keyed by event name".to_owned())
}

/// `root` with hookrun registered on exactly these events: a handler of
/// hookrun's already there is updated in place (command, timeout, the
/// fail-closed key) and duplicates dropped; one on an event no longer used
/// is removed.
/// Applying it twice gives what applying it once gave.
///
/// # Errors
/// The file's shape is not the agent's (the top level or `hooks` is not an
/// object, an event's value is not a list).
pub(crate) fn install(mut root: Value, agent: Agent, regs: &[Handler]) -> Result<Value, String> {
    if !nested(agent) {
        if let Some(obj) = root.as_object_mut() {
            obj.entry("version").or_insert(json!(1));
        }
    }
    let hooks = hooks_of(&mut root)?;
    let stale: Vec<String> = hooks
        .keys()
        .filter(|e| !regs.iter().any(|r| &r.event == *e))
        .cloned()
        .collect();
    for event in stale {
        strip_event(hooks, agent, &event);
    }
    for reg in regs {
        let list = hooks
            .entry(reg.event.clone())
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .ok_or_else(|| format!("`hooks.{}` is not a list", reg.event))?;
        if let Some(handler) = first_ours(agent, list) {
            let updated = rewritten(agent, handler, new_handler(agent, reg));
            // Drop every copy, then put the updated one back where the
            // first was.
            *handler = json!({"hookrun-placeholder": true});
            remove_ours(agent, list);
            put_back(agent, list, updated);
        } else if nested(agent) {
            list.push(json!({"hooks": [new_handler(agent, reg)]}));
        } else {
            list.push(new_handler(agent, reg));
        }
    }
    Ok(root)
}

/// Replaces the placeholder `install` left with the updated handler.
fn put_back(agent: Agent, list: &mut [Value], updated: Value) {
    let marker = json!({"hookrun-placeholder": true});
    let slot = if nested(agent) {
        list.iter_mut()
            .filter_map(|g| g.get_mut("hooks").and_then(Value::as_array_mut))
            .flatten()
            .find(|h| **h == marker)
    } else {
        list.iter_mut().find(|h| **h == marker)
    };
    if let Some(slot) = slot {
        *slot = updated;
    }
}

/// Takes hookrun's handlers out of one event; the event goes too when
/// that leaves it empty.
fn strip_event(hooks: &mut Map<String, Value>, agent: Agent, event: &str) -> usize {
    let Some(list) = hooks.get_mut(event).and_then(Value::as_array_mut) else {
        return 0;
    };
    let removed = remove_ours(agent, list);
    if removed > 0 && list.is_empty() {
        hooks.shift_remove(event);
    }
    removed
}

/// `root` without hookrun's handlers, and how many there were; events
/// and a `hooks` object left empty by that go too, so that a file
/// `install` only added to comes back as it was.
#[must_use]
pub(crate) fn uninstall(mut root: Value, agent: Agent) -> (Value, usize) {
    let Some(obj) = root.as_object_mut() else {
        return (root, 0);
    };
    let Some(hooks) = obj.get_mut("hooks").and_then(Value::as_object_mut) else {
        return (root, 0);
    };
    let events: Vec<String> = hooks.keys().cloned().collect();
    let removed: usize = events.iter().map(|e| strip_event(hooks, agent, e)).sum();
    if removed > 0 && hooks.is_empty() {
        obj.shift_remove("hooks");
    }
    (root, removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reg(event: &str, secs: u64, command: &str) -> Handler {
        Handler {
            event: event.into(),
            run: Run::Command(command.into()),
            timeout_secs: secs,
            fail_closed: None,
        }
    }

    #[test]
    fn install_keeps_other_hooks_and_is_idempotent() {
        let before = json!({"model": "x", "hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "mine.sh"}]}
        ]}});
        let c = "hookrun run --dialect claude";
        let regs = [reg("PreToolUse", 15, c), reg("PostToolUse", 15, c)];
        let once = install(before.clone(), Agent::Claude, &regs).expect("install");
        let twice = install(once.clone(), Agent::Claude, &regs).expect("install");
        assert_eq!(once, twice);
        assert_eq!(
            once["hooks"]["PreToolUse"][0],
            before["hooks"]["PreToolUse"][0]
        );
        assert_eq!(
            once["hooks"]["PreToolUse"][1]["hooks"][0]["command"],
            "hookrun run --dialect claude"
        );
        let (back, removed) = uninstall(once, Agent::Claude);
        assert_eq!(removed, 2);
        assert_eq!(back, before);
    }

    #[test]
    fn reinstall_updates_in_place_and_drops_unused_events() {
        let c = "hookrun run --dialect gemini";
        let regs = [reg("BeforeTool", 15, c), reg("AfterTool", 15, c)];
        let first = install(json!({}), Agent::Gemini, &regs).expect("install");
        assert_eq!(
            first["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"],
            15000
        );
        let moved = "/opt/hookrun run --dialect gemini";
        let second =
            install(first, Agent::Gemini, &[reg("BeforeTool", 20, moved)]).expect("install");
        assert_eq!(
            second["hooks"]["BeforeTool"][0]["hooks"][0]["command"],
            moved
        );
        assert_eq!(
            second["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"],
            20000
        );
        assert!(second["hooks"].get("AfterTool").is_none());
    }

    #[test]
    fn flat_files_get_a_version_and_come_back_bare() {
        let regs = [reg("preToolUse", 15, "hookrun run --dialect copilot")];
        let done = install(skeleton(Agent::Copilot), Agent::Copilot, &regs).expect("install");
        assert_eq!(
            done,
            json!({"version": 1, "hooks": {"preToolUse": [
                {"type": "command", "bash": "hookrun run --dialect copilot", "timeoutSec": 15}
            ]}})
        );
        let (back, _) = uninstall(done, Agent::Copilot);
        assert!(is_bare(&back, Agent::Copilot));
    }

    #[test]
    fn a_wrong_shape_is_an_error() {
        let regs = [reg("PreToolUse", 15, "hookrun")];
        assert!(install(json!([]), Agent::Claude, &regs).is_err());
        assert!(install(json!({"hooks": []}), Agent::Claude, &regs).is_err());
        assert!(install(json!({"hooks": {"PreToolUse": {}}}), Agent::Claude, &regs).is_err());
    }

    #[test]
    fn the_fail_closed_key_is_written_and_taken_off_in_place() {
        let c = "hookrun run --dialect claude";
        let mut pre = reg("PreToolUse", 15, c);
        pre.fail_closed = Some(("onFailure", json!("block")));
        let blocking = install(json!({}), Agent::Claude, &[pre]).expect("install");
        assert_eq!(
            blocking["hooks"]["PreToolUse"][0]["hooks"][0],
            json!({"type": "command", "command": c, "timeout": 15, "onFailure": "block"})
        );
        let allow = "hookrun run --dialect claude --on-error allow";
        let open =
            install(blocking, Agent::Claude, &[reg("PreToolUse", 15, allow)]).expect("install");
        assert_eq!(
            open["hooks"]["PreToolUse"][0]["hooks"][0],
            json!({"type": "command", "command": allow, "timeout": 15})
        );
    }

    #[test]
    fn an_http_registration_replaces_the_command_and_back_keeping_the_users_keys() {
        let c = "hookrun run --dialect claude";
        let mut pre = reg("PreToolUse", 15, c);
        pre.fail_closed = Some(("onFailure", json!("block")));
        let first = install(json!({}), Agent::Claude, std::slice::from_ref(&pre)).expect("install");
        let mut edited = first;
        edited["hooks"]["PreToolUse"][0]["hooks"][0]["statusMessage"] = json!("checking");
        let mut http = pre.clone();
        http.run = Run::Http {
            url: "http://127.0.0.1:8787/hooks/claude".into(),
            token_env: Some("HOOKRUN_TOKEN".into()),
        };
        let served = install(edited, Agent::Claude, std::slice::from_ref(&http)).expect("install");
        assert_eq!(
            served["hooks"]["PreToolUse"][0]["hooks"],
            json!([{"type": "http", "timeout": 15, "onFailure": "block", "statusMessage": "checking",
                    "url": "http://127.0.0.1:8787/hooks/claude",
                    "headers": {"Authorization": "Bearer ${HOOKRUN_TOKEN}"},
                    "allowedEnvVars": ["HOOKRUN_TOKEN"]}])
        );
        let again = install(served.clone(), Agent::Claude, &[http]).expect("install");
        assert_eq!(again, served);
        let back = install(served, Agent::Claude, &[pre]).expect("install");
        assert_eq!(
            back["hooks"]["PreToolUse"][0]["hooks"],
            json!([{"type": "command", "timeout": 15, "onFailure": "block", "statusMessage": "checking", "command": c}])
        );
        let (bare, removed) = uninstall(back, Agent::Claude);
        assert_eq!(removed, 1);
        assert!(is_bare(&bare, Agent::Claude));
    }
}
