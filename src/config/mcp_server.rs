//! An MCP server as config knows it: a leaf, so that the readers of
//! agents' files (which name an agent's own servers) and the model share
//! it without depending on each other.

use std::path::PathBuf;

/// An MCP server `mcp_tool` hooks may call: declared in a trusted hookrun
/// config (`[mcp_servers.NAME]`) or where an agent configures its own.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct McpServer {
    pub name: String,
    pub transport: McpTransport,
    /// The file that declares it.
    pub file: PathBuf,
}

/// How an MCP server is reached.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum McpTransport {
    /// A process started by hookrun, spoken to over its stdin and stdout.
    Stdio {
        command: String,
        args: Vec<String>,
        env: Vec<(String, String)>,
    },
    /// A streamable-HTTP endpoint.
    Http {
        url: String,
        headers: Vec<(String, String)>,
    },
}
