//! An `mcp_tool` hook's call: tool `tool` of the MCP server `server`,
//! with the hook's `input` (its `${path}` references filled from the
//! event, [`expand_input`]) as the arguments.
//!
//! What the answer means, as under Claude Code:
//! - the result's content is read as text: each text item's text, any
//!   other item as `[image]`, `[audio]`, `[resource]`, `[resource_link]`,
//!   joined by a blank line. `structuredContent` is not read (Claude Code
//!   does not read it either: a tool meant for hooks answers in text);
//! - text that is a JSON object acts as a command hook's JSON stdout
//!   ([`Outcome::Answered`]); any other text has no effect
//!   ([`Outcome::Dropped`]), and is no failure;
//! - a result marked `isError` gives no verdict: it is the hook's failure,
//!   its text (or "MCP tool returned an error") the reason, so that the
//!   hook's fail mode decides (open: a notice; closed: a block);
//! - a server that cannot be started, crashes, never answers `initialize`
//!   or writes what is not JSON-RPC is a failure naming the server; no
//!   answer within the hook's timeout (connecting, `initialize` and the
//!   call together) is [`Outcome::TimedOut`]; a text over the output cap is
//!   a failure.
//!
//! The client runs on a thread of its own with its own runtime (the
//! engine's runtime drives the hooks' processes on one thread and must not
//! wait on a server), started by the first call of the process: a process
//! that makes none sets up nothing. It keeps one connection per server, so
//! that `serve` starts a server once and reuses it across events (a server
//! that died is started again by the next call), and `run` keeps it for
//! its one event; [`shutdown`] ends them all when the process ends.
//!
//! A stdio server is started by hookrun as the leader of a process group
//! of its own (the OS seam's [`crate::os::new_group`]), with its stderr
//! kept apart (the last lines say why it failed; hookrun's stdout is the
//! decision), and is killed as a whole tree: at [`shutdown`], and when a
//! call to it timed out with no other call to it under way (its state is
//! then unknown, so the next call starts it afresh).

// The engine's `mcp_tool` handler calls this module; until it is plugged
// in, only the tests do.

mod http;
mod input;
pub(crate) use input::expand_input;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientConfig, ContentBlock, Implementation,
};
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Map, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};

use crate::os;

/// How hookrun reaches a server.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Transport {
    /// A program hookrun starts, speaking newline-delimited JSON-RPC on
    /// its stdin and stdout. `env` is set on top of hookrun's environment.
    Stdio {
        command: String,
        args: Vec<String>,
        env: Vec<(String, String)>,
        cwd: Option<std::path::PathBuf>,
    },
    /// MCP's streamable HTTP: JSON-RPC POSTed to `url`, answered as JSON or
    /// as an SSE stream.
    Http {
        url: String,
        headers: Vec<(String, String)>,
    },
}

/// A configured server: its name (what messages call it) and how to reach
/// it. Two servers are one connection only when both are the same.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Server {
    pub name: String,
    pub transport: Transport,
}

/// One tool call to make, owned so that it can run off the caller's thread.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub server: Server,
    pub tool: String,
    pub arguments: Map<String, Value>,
    /// Connecting, `initialize` and the call together.
    pub timeout: Duration,
    /// The largest result text accepted; a longer one is a failure.
    pub cap: usize,
}

/// How a call ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The result's text, a JSON object: read as a command's JSON stdout.
    Answered(Vec<u8>),
    /// Plain text (or none): no effect, and no failure.
    Dropped,
    /// No answer within the timeout.
    TimedOut,
    /// No answer the hook's rules accept, and why (naming server and tool).
    Failed(String),
}

/// A call's outcome and how long it took.
pub(crate) type Done = (Outcome, Duration);

/// Starts `call` on a thread of its own; the handle gives its outcome.
///
/// # Errors
/// The thread cannot start (the call is then a failed one).
pub(crate) fn start(call: Call) -> Result<std::thread::JoinHandle<Done>, String> {
    std::thread::Builder::new()
        .name("hookrun-mcp-call".into())
        .spawn(move || {
            let started = Instant::now();
            (run(call), started.elapsed())
        })
        .map_err(|e| format!("could not start a thread for the MCP call: {e}"))
}

/// Ends every server this process started (stdio servers' whole process
/// trees are killed and reaped) and the client's thread. Nothing is done
/// in a process that made no call. A later call starts afresh.
pub(crate) fn shutdown() {
    let hub = HUB.lock().unwrap_or_else(PoisonError::into_inner).take();
    let Some(hub) = hub else { return };
    let (tx, rx) = std::sync::mpsc::channel();
    let servers = Arc::clone(&hub.servers);
    hub.handle.spawn(async move {
        let slots: Vec<Slot> = servers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain()
            .map(|(_, slot)| slot)
            .collect();
        for slot in slots {
            if let Some(conn) = slot.lock().await.take() {
                conn.close().await;
            }
        }
        let _ = tx.send(());
    });
    // Bounded: each stdio server is killed, not asked, and reaped within
    // a second of that.
    let _ = rx.recv_timeout(Duration::from_secs(5));
    let _ = hub.stop.send(());
    if let Some(thread) = hub.thread {
        let _ = thread.join();
    }
}

/// What a tool's result means for the hook (see the module's notes).
fn read_result(result: &CallToolResult, cap: usize, what: &str) -> Outcome {
    let mut text = String::new();
    for (i, item) in result.content.iter().enumerate() {
        if i > 0 {
            text.push_str("\n\n");
        }
        match item {
            ContentBlock::Text(t) => text.push_str(&t.text),
            other => {
                // `[image]`, `[audio]`, `[resource]`, `[resource_link]`:
                // the item's own `type`.
                let kind = serde_json::to_value(other)
                    .ok()
                    .and_then(|v| v.get("type").and_then(Value::as_str).map(str::to_owned));
                text.push('[');
                text.push_str(kind.as_deref().unwrap_or("content"));
                text.push(']');
            }
        }
        if text.len() > cap {
            return Outcome::Failed(format!(
                "{what} answered with more than {cap} bytes of text (`limits.max_output_bytes`)"
            ));
        }
    }
    if result.is_error == Some(true) {
        let why = if text.is_empty() {
            "MCP tool returned an error".to_owned()
        } else {
            text
        };
        return Outcome::Failed(format!("{what} returned an error: {why}"));
    }
    let trimmed = crate::answer::js_trim(&text);
    match serde_json::from_str::<Value>(trimmed) {
        Ok(Value::Object(_)) => Outcome::Answered(trimmed.as_bytes().to_vec()),
        _ => Outcome::Dropped,
    }
}

/// The client's thread: its runtime and the connection to each server.
struct Hub {
    handle: tokio::runtime::Handle,
    servers: Servers,
    stop: tokio::sync::oneshot::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// One server's connection, if it is up; calls to the server wait here
/// while it is being connected, so that it is started once.
type Slot = Arc<tokio::sync::Mutex<Option<Conn>>>;

/// Every server's slot, by server.
type Servers = Arc<Mutex<HashMap<Server, Slot>>>;

/// The running hub, set up by the first call.
static HUB: Mutex<Option<Hub>> = Mutex::new(None);

/// The hub's runtime handle and server map, the hub started if needed.
fn hub() -> Result<(tokio::runtime::Handle, Servers), String> {
    let mut hub = HUB.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(h) = hub.as_ref() {
        return Ok((h.handle.clone(), Arc::clone(&h.servers)));
    }
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("hookrun-mcp".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .thread_stack_size(os::BLOCKING_STACK)
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = ready_tx.send(Err(e.to_string()));
                    return;
                }
            };
            let _ = ready_tx.send(Ok(runtime.handle().clone()));
            let _ = runtime.block_on(stopped);
            // A blocking read of an HTTP server that never answers is not
            // waited for.
            runtime.shutdown_timeout(Duration::from_millis(200));
        })
        .map_err(|e| format!("could not start the MCP client's thread: {e}"))?;
    let handle = ready_rx
        .recv()
        .map_err(|_| "the MCP client's thread ended at start".to_owned())?
        .map_err(|e| format!("could not start the MCP client's runtime: {e}"))?;
    let servers = Arc::new(Mutex::new(HashMap::new()));
    *hub = Some(Hub {
        handle: handle.clone(),
        servers: Arc::clone(&servers),
        stop,
        thread: Some(thread),
    });
    Ok((handle, servers))
}

/// Runs one call on the hub and waits for its outcome.
fn run(call: Call) -> Outcome {
    let what = format!("MCP tool `{}` of server `{}`", call.tool, call.server.name);
    let (handle, servers) = match hub() {
        Ok(h) => h,
        Err(e) => return Outcome::Failed(format!("{what} could not be called: {e}")),
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    handle.spawn(async move {
        let _ = tx.send(call_on_hub(call, servers).await);
    });
    rx.blocking_recv().unwrap_or_else(|_| {
        Outcome::Failed(format!(
            "{what} could not be called: the MCP client was shut down"
        ))
    })
}

/// A call, on the hub's runtime: the server's connection (made if there
/// is none, or made again if it died), then the tool call, all within the
/// call's timeout.
async fn call_on_hub(call: Call, servers: Servers) -> Outcome {
    let what = format!("MCP tool `{}` of server `{}`", call.tool, call.server.name);
    let slot = Arc::clone(
        servers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(call.server.clone())
            .or_default(),
    );
    let deadline = tokio::time::Instant::now() + call.timeout;
    let connected = tokio::time::timeout_at(deadline, async {
        let mut conn = slot.lock().await;
        if conn.as_mut().is_some_and(|c| !c.alive()) {
            if let Some(dead) = conn.take() {
                dead.close().await;
            }
        }
        if conn.is_none() {
            *conn = Some(Conn::open(&call.server, call.cap).await?);
        }
        conn.as_ref()
            .map(|c| {
                (
                    c.service.peer().clone(),
                    Arc::clone(&c.busy),
                    Arc::clone(&c.why),
                )
            })
            .ok_or_else(|| "no connection".to_owned())
    })
    .await;
    let (peer, busy, why) = match connected {
        Err(_) => return Outcome::TimedOut,
        Ok(Err(e)) => {
            return Outcome::Failed(format!(
                "MCP server `{}` could not be used for tool `{}`: {e}",
                call.server.name, call.tool
            ));
        }
        Ok(Ok(c)) => c,
    };
    busy.fetch_add(1, Ordering::SeqCst);
    let mut params = CallToolRequestParams::new(call.tool.clone());
    params.arguments = Some(call.arguments);
    let answered = tokio::time::timeout_at(deadline, peer.call_tool(params)).await;
    let others = busy.fetch_sub(1, Ordering::SeqCst) - 1;
    match answered {
        Ok(Ok(result)) => read_result(&result, call.cap, &what),
        Ok(Err(e)) => {
            let mut conn = slot.lock().await;
            if let Some(child) = conn.as_mut().and_then(|c| c.child.as_mut()) {
                child.settle().await;
            }
            let reason = conn
                .as_mut()
                .and_then(Conn::failure)
                .or_else(|| lock(&why).clone())
                .unwrap_or_else(|| service_reason(&e));
            if conn.as_mut().is_some_and(|c| !c.alive()) {
                if let Some(dead) = conn.take() {
                    dead.close().await;
                }
            }
            Outcome::Failed(format!("{what} failed: {reason}"))
        }
        Err(_) => {
            if others == 0 {
                // Its state is unknown: the next call starts it afresh.
                let mut conn = slot.lock().await;
                // The same connection (not one made since), idle.
                if conn.as_ref().is_some_and(|c| {
                    Arc::ptr_eq(&c.busy, &busy) && c.busy.load(Ordering::SeqCst) == 0
                }) {
                    if let Some(stuck) = conn.take() {
                        stuck.close().await;
                    }
                }
            }
            Outcome::TimedOut
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Why `initialize` failed, in the transport's own words (rmcp's wrapper
/// names Rust types).
fn init_reason(e: &rmcp::service::ClientInitializeError) -> String {
    match e {
        rmcp::service::ClientInitializeError::TransportError { error, .. } => {
            transport_reason(error)
        }
        other => other.to_string(),
    }
}

/// Why a call failed, in the transport's own words where it was the
/// transport.
fn service_reason(e: &rmcp::ServiceError) -> String {
    match e {
        rmcp::ServiceError::TransportSend(error) => transport_reason(error),
        rmcp::ServiceError::TransportClosed => "the connection to the server closed".to_owned(),
        other => other.to_string(),
    }
}

fn transport_reason(e: &rmcp::transport::DynamicTransportError) -> String {
    let text = e.error.to_string();
    text.strip_prefix("Client error: ")
        .map_or(text.clone(), str::to_owned)
}

/// How hookrun introduces itself in `initialize`.
fn client_info() -> ClientConfig {
    ClientConfig::new(
        rmcp::model::ClientCapabilities::default(),
        Implementation::new("hookrun", env!("CARGO_PKG_VERSION")),
    )
}

/// One connected server.
struct Conn {
    service: RunningService<RoleClient, ClientConfig>,
    /// Calls under way on it.
    busy: Arc<AtomicUsize>,
    /// Why the server broke the protocol, once it has (the stdio relay
    /// closes the connection then).
    why: Arc<Mutex<Option<String>>>,
    child: Option<Child>,
}

/// A stdio server's process: its group, its stderr's last bytes.
struct Child {
    process: tokio::process::Child,
    group: os::GroupGuard,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// The task keeping `stderr`, until it has been waited for.
    reading: Option<tokio::task::JoinHandle<()>>,
}

/// The most of a stdio server's stderr kept for messages.
const STDERR_KEPT: usize = 2048;

impl Conn {
    /// Starts (stdio) or reaches (HTTP) the server and initializes it.
    async fn open(server: &Server, cap: usize) -> Result<Conn, String> {
        match &server.transport {
            Transport::Stdio {
                command,
                args,
                env,
                cwd,
            } => Self::open_stdio(command, args, env, cwd.as_deref(), cap).await,
            Transport::Http { url, headers } => {
                let transport = http::transport(url, headers, line_limit(cap))?;
                let service = rmcp::ServiceExt::serve(client_info(), transport)
                    .await
                    .map_err(|e| format!("`initialize` failed: {}", init_reason(&e)))?;
                Ok(Conn {
                    service,
                    busy: Arc::default(),
                    why: Arc::default(),
                    child: None,
                })
            }
        }
    }

    async fn open_stdio(
        command: &str,
        args: &[String],
        env: &[(String, String)],
        cwd: Option<&std::path::Path>,
        cap: usize,
    ) -> Result<Conn, String> {
        let mut cmd = std::process::Command::new(command);
        cmd.args(args)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        if let Some(dir) = cwd {
            cmd.current_dir(dir);
        }
        os::new_group(&mut cmd);
        let mut cmd = tokio::process::Command::from(cmd);
        cmd.kill_on_drop(true);
        let mut process = cmd.spawn().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => format!("executable `{command}` not found in $PATH"),
            std::io::ErrorKind::PermissionDenied => format!("`{command}` is not executable"),
            _ => format!("cannot start `{command}`: {e}"),
        })?;
        let (Some(stdin), Some(stdout), Some(stderr)) = (
            process.stdin.take(),
            process.stdout.take(),
            process.stderr.take(),
        ) else {
            return Err(format!("`{command}` started without its pipes"));
        };
        let pid = process.id().unwrap_or(0);
        let group = os::GroupGuard::new(
            pid,
            os::OutputPipes::of(Some(&stdout), Some(&stderr)),
            &os::LiveGroups::default(),
        );
        let kept = Arc::new(Mutex::new(Vec::new()));
        let reading = tokio::spawn(keep_tail(stderr, Arc::clone(&kept)));
        let why = Arc::new(Mutex::new(None));
        let (ours, theirs) = tokio::io::duplex(64 * 1024);
        let (theirs_read, _theirs_write) = tokio::io::split(theirs);
        // rmcp reads the server's messages through the relay, which checks
        // each line first.
        tokio::spawn(relay(stdout, ours, line_limit(cap), Arc::clone(&why)));
        let mut child = Child {
            process,
            group,
            stderr: kept,
            reading: Some(reading),
        };
        match rmcp::ServiceExt::serve(client_info(), (theirs_read, stdin)).await {
            Ok(service) => Ok(Conn {
                service,
                busy: Arc::default(),
                why,
                child: Some(child),
            }),
            Err(e) => {
                child.settle().await;
                let broke = lock(&why).clone();
                let reason = broke
                    .or_else(|| child_failure(&mut child))
                    .unwrap_or_else(|| format!("`initialize` failed: {e}"));
                child.kill().await;
                Err(reason)
            }
        }
    }

    /// Whether the connection can take another call.
    fn alive(&mut self) -> bool {
        if self.service.is_closed() {
            return false;
        }
        match self.child.as_mut() {
            Some(child) => matches!(child.process.try_wait(), Ok(None)),
            None => true,
        }
    }

    /// Why a stdio server failed, if it did: it broke the protocol (and
    /// was then left), or it exited.
    fn failure(&mut self) -> Option<String> {
        let broke = lock(&self.why).clone();
        broke.or_else(|| self.child.as_mut().and_then(child_failure))
    }

    /// Ends the connection: a stdio server's tree is killed and reaped.
    async fn close(self) {
        let Conn { service, child, .. } = self;
        if let Some(child) = child {
            child.kill().await;
        }
        // An HTTP session is ended as rmcp ends it, within a bound.
        let _ = tokio::time::timeout(Duration::from_secs(1), service.cancel()).await;
    }
}

impl Child {
    /// Its connection closed: gives a server that is exiting a moment to
    /// be seen to exit, with its last stderr read, so that the failure can
    /// say how it ended.
    async fn settle(&mut self) {
        let _ = tokio::time::timeout(Duration::from_millis(500), self.process.wait()).await;
        if let Some(reading) = self.reading.take() {
            let _ = tokio::time::timeout(Duration::from_millis(200), reading).await;
        }
    }

    /// Kills the server's whole group (and whatever holds its pipes), then
    /// reaps it.
    async fn kill(mut self) {
        self.group.signal(os::Stop::Kill);
        let _ = tokio::time::timeout(Duration::from_secs(1), self.process.wait()).await;
        drop(self.group);
    }
}

/// Why a stdio server ended, with its last stderr line, if it has ended.
fn child_failure(child: &mut Child) -> Option<String> {
    let status = child.process.try_wait().ok().flatten()?;
    let how = match (status.code(), os::killed_by(&status)) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => format!("was killed by {}", os::signal_name(signal)),
        (None, None) => "ended".to_owned(),
    };
    let stderr = lock(&child.stderr);
    let text = String::from_utf8_lossy(&stderr);
    let last = text.lines().rev().find(|l| !l.trim().is_empty());
    Some(match last {
        Some(line) => format!("the server {how} (its stderr: {})", line.trim()),
        None => format!("the server {how}"),
    })
}

/// The longest line accepted from a stdio server (or body from an HTTP
/// one): the cap's text escaped in JSON (up to 6 bytes a byte) and the
/// message around it. It is set when the server is connected, from that
/// call's cap (`limits.max_output_bytes`, one for the whole config).
fn line_limit(cap: usize) -> usize {
    cap.saturating_mul(6).saturating_add(64 * 1024)
}

/// Passes the server's stdout to rmcp line by line, checking each: a line
/// that is not JSON, or is longer than `limit`, is recorded in `why` and
/// ends the connection, so that the call fails with that reason at once
/// (the server broke the protocol; waiting would only end in a timeout).
async fn relay(
    stdout: tokio::process::ChildStdout,
    mut to_rmcp: tokio::io::DuplexStream,
    limit: usize,
    why: Arc<Mutex<Option<String>>>,
) {
    let mut reader = tokio::io::BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut reader)
            .take(u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1))
            .read_until(b'\n', &mut line)
            .await;
        match read {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if line.len() > limit && !line.ends_with(b"\n") {
            *lock(&why) = Some(format!(
                "the server wrote a message over {limit} bytes (the answer is over \
                 `limits.max_output_bytes`)"
            ));
            break;
        }
        let text = String::from_utf8_lossy(&line);
        let trimmed = text.trim();
        if trimmed.is_empty() {
            continue;
        }
        if serde_json::from_str::<serde::de::IgnoredAny>(trimmed).is_err() {
            let shown: String = trimmed.chars().take(80).collect();
            *lock(&why) = Some(format!(
                "the server wrote what is not JSON-RPC on its stdout: `{shown}`"
            ));
            break;
        }
        if to_rmcp.write_all(&line).await.is_err() {
            break;
        }
        if !line.ends_with(b"\n") && to_rmcp.write_all(b"\n").await.is_err() {
            break;
        }
    }
    let _ = to_rmcp.shutdown().await;
}

/// Keeps the last [`STDERR_KEPT`] bytes of a server's stderr.
async fn keep_tail(mut stderr: tokio::process::ChildStderr, kept: Arc<Mutex<Vec<u8>>>) {
    let mut buf = [0u8; 4096];
    while let Ok(n) = stderr.read(&mut buf).await {
        if n == 0 {
            break;
        }
        let mut k = lock(&kept);
        k.extend_from_slice(&buf[..n]);
        if k.len() > STDERR_KEPT {
            let cut = k.len() - STDERR_KEPT;
            k.drain(..cut);
        }
    }
}

#[cfg(test)]
mod tests;
