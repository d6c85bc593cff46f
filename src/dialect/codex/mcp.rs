//! The MCP servers Codex connects, as its `mcp_tool` hooks find them:
//! `[mcp_servers.NAME]` in `$CODEX_HOME/config.toml` (else
//! `~/.codex/config.toml`), and in the project's `.codex/config.toml` when
//! that user config trusts the project (Codex loads no project config
//! otherwise). A server is a program to start, so one Codex would not load
//! is never started.

use std::path::Path;

use crate::config::{McpServer, McpTransport};

/// The servers Codex has for a session in `project`, the project's over
/// the user's of the same name.
pub(crate) fn servers(project: &Path, homes: &crate::dirs::Homes) -> Vec<McpServer> {
    let Some(home) = homes.dir(Some(super::trust::HOME_VAR), ".codex") else {
        return Vec::new();
    };
    let user_file = home.join("config.toml");
    let user: toml::Table = std::fs::read_to_string(&user_file)
        .ok()
        .and_then(|t| toml::from_str(&t).ok())
        .unwrap_or_default();
    let mut out = of_table(&user, &user_file);
    if super::trust::project_trusted(&user, &super::trust::project_root(project)) {
        let file = project.join(".codex/config.toml");
        if let Some(table) = std::fs::read_to_string(&file)
            .ok()
            .and_then(|t| toml::from_str::<toml::Table>(&t).ok())
        {
            for server in of_table(&table, &file) {
                out.retain(|s| s.name != server.name);
                out.push(server);
            }
        }
    }
    out
}

/// The `[mcp_servers]` of one parsed `config.toml`; an entry that is
/// turned off (`enabled = false`) or names neither `command` nor `url` is
/// left out, as Codex leaves it.
pub(crate) fn of_table(config: &toml::Table, file: &Path) -> Vec<McpServer> {
    let Some(servers) = config.get("mcp_servers").and_then(toml::Value::as_table) else {
        return Vec::new();
    };
    let pairs = |spec: &toml::Table, key: &str| -> Vec<(String, String)> {
        spec.get(key)
            .and_then(toml::Value::as_table)
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
            .collect()
    };
    servers
        .iter()
        .filter_map(|(name, spec)| {
            let spec = spec.as_table()?;
            if spec.get("enabled").and_then(toml::Value::as_bool) == Some(false) {
                return None;
            }
            let transport = if let Some(command) = spec.get("command").and_then(toml::Value::as_str)
            {
                McpTransport::Stdio {
                    command: command.to_owned(),
                    args: spec
                        .get("args")
                        .and_then(toml::Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(|a| a.as_str().map(str::to_owned))
                        .collect(),
                    env: pairs(spec, "env"),
                }
            } else {
                let url = spec.get("url").and_then(toml::Value::as_str)?;
                let mut headers = pairs(spec, "http_headers");
                if let Some(var) = spec
                    .get("bearer_token_env_var")
                    .and_then(toml::Value::as_str)
                    && let Ok(token) = std::env::var(var)
                {
                    headers.push(("Authorization".to_owned(), format!("Bearer {token}")));
                }
                McpTransport::Http {
                    url: url.to_owned(),
                    headers,
                }
            };
            Some(McpServer {
                name: name.clone(),
                transport,
                file: file.to_path_buf(),
            })
        })
        .collect()
}
