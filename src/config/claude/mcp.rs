//! The MCP servers Claude Code connects, as `mcp_tool` hooks find them:
//! the project's `.mcp.json` (`{"mcpServers": {NAME: {...}}}`), each
//! server only where Claude Code itself would connect it — approved in its
//! settings (`enableAllProjectMcpServers`, `enabledMcpjsonServers`, and
//! never one in `disabledMcpjsonServers`) or the file is on hookrun's
//! trust list (`hookrun trust .mcp.json`). Starting a server is running a
//! program the project names, so an unapproved one is never started.

use std::path::Path;

use serde_json::Value;

use crate::config::model::{McpServer, McpTransport};

/// Claude Code's approval of project servers, merged across its settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Approval {
    pub(crate) all: bool,
    pub(crate) enabled: Vec<String>,
    pub(crate) disabled: Vec<String>,
}

impl Approval {
    /// What one settings file says.
    pub(crate) fn of(root: &serde_json::Map<String, Value>) -> Self {
        let list = |key: &str| -> Vec<String> {
            root.get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        };
        Approval {
            all: root.get("enableAllProjectMcpServers") == Some(&Value::Bool(true)),
            enabled: list("enabledMcpjsonServers"),
            disabled: list("disabledMcpjsonServers"),
        }
    }

    pub(crate) fn merge(&mut self, other: Approval) {
        self.all |= other.all;
        self.enabled.extend(other.enabled);
        self.disabled.extend(other.disabled);
    }

    fn admits(&self, name: &str, trusted: bool) -> bool {
        !self.disabled.iter().any(|d| d == name)
            && (trusted || self.all || self.enabled.iter().any(|e| e == name))
    }
}

/// The servers of `<project>/.mcp.json` that `approval` (or the trust
/// list, `trusted(path, bytes)`) admits; a file that is missing or not
/// JSON gives none (`check` names a server it lacks).
pub(crate) fn project_servers(
    project: &Path,
    approval: &Approval,
    trusted: &dyn Fn(&Path, &[u8]) -> bool,
) -> Vec<McpServer> {
    let path = project.join(".mcp.json");
    let Ok(bytes) = std::fs::read(&path) else {
        return Vec::new();
    };
    let trusted = trusted(&path, &bytes);
    let Ok(Value::Object(root)) = serde_json::from_slice::<Value>(&bytes) else {
        return Vec::new();
    };
    let Some(Value::Object(servers)) = root.get("mcpServers") else {
        return Vec::new();
    };
    servers
        .iter()
        .filter(|(name, _)| approval.admits(name, trusted))
        .filter_map(|(name, spec)| {
            Some(McpServer {
                name: name.clone(),
                transport: transport_of(spec)?,
                file: path.clone(),
            })
        })
        .collect()
}

/// A server entry's transport: `command` (stdio; `type` absent or
/// "stdio") or `url` (`type` "http"; Claude Code's older "sse" servers are
/// not spoken).
fn transport_of(spec: &Value) -> Option<McpTransport> {
    let pairs = |key: &str| -> Vec<(String, String)> {
        spec.get(key)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
            .collect()
    };
    match spec.get("type").and_then(Value::as_str) {
        None | Some("stdio") => Some(McpTransport::Stdio {
            command: spec.get("command")?.as_str()?.to_owned(),
            args: spec
                .get("args")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|a| a.as_str().map(str::to_owned))
                .collect(),
            env: pairs("env"),
        }),
        Some("http") => Some(McpTransport::Http {
            url: spec.get("url")?.as_str()?.to_owned(),
            headers: pairs("headers"),
        }),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_approved_or_trusted_servers_are_used() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::write(
            dir.path().join(".mcp.json"),
            r#"{"mcpServers": {"a": {"command": "a-mcp"}, "b": {"type": "http", "url": "https://b/mcp"}, "c": {"type": "sse", "url": "https://c"}}}"#,
        )
        .expect("write");
        let names = |approval: &Approval, trusted: bool| -> Vec<String> {
            project_servers(dir.path(), approval, &|_, _| trusted)
                .into_iter()
                .map(|s| s.name)
                .collect()
        };
        assert!(names(&Approval::default(), false).is_empty());
        let some = Approval {
            enabled: vec!["b".into()],
            ..Approval::default()
        };
        assert_eq!(names(&some, false), ["b"]);
        let all = Approval {
            all: true,
            disabled: vec!["a".into()],
            ..Approval::default()
        };
        assert_eq!(names(&all, false), ["b"]);
        // Trusted: every server it declares that hookrun speaks.
        assert_eq!(names(&Approval::default(), true), ["a", "b"]);
    }
}
