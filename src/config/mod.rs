//! The validated hook configuration, and loading it from layered files.
//!
//! Two wire formats feed one model: hookrun's TOML (`toml_file.rs`, strict:
//! unknown keys are errors) and Claude Code's settings JSON (`claude.rs`,
//! loaded by Claude Code's own lenient rules, with every drop reported).
//! Other agents' hooks files reach it through the readers the dialect layer
//! passes in `LoadOptions::foreign` (`readers.rs` says why).
//! After loading, nothing invalid can reach the executor: matchers are
//! compiled, timeouts are durations, commands are non-empty.

mod claude;
mod discover;
mod foreign;
pub(crate) mod json_locate;
mod layer;
mod mcp_server;
mod model;
pub(crate) mod own_files;
pub(crate) mod placeholder;
mod provider;
mod readers;
mod telemetry_table;
pub(crate) use crate::diagnostic::{Code, Diagnostic, Severity};
mod toml_file;
mod toml_raw;
mod toml_shape;
pub(crate) mod trust;
mod untrusted;

use std::path::{Path, PathBuf};

use crate::error::Error;

use crate::dirs::Homes;
pub(crate) use discover::same_file;
pub use discover::{Found, Source};
pub(crate) use discover::{
    discover, discover_for, in_directory, looked_for, paths, project_dir, project_file, user_dir,
};
use layer::Layer;
pub use model::{Action, Config, FailMode, LoadOptions};
pub(crate) use model::{Hook, Limits, Order, Origin, Unreadable, fill_header_vars};
pub(crate) use model::{McpServer, McpTransport, Provider};
use own_files::{OwnFiles, Sources};
pub(crate) use readers::{Foreign, ForeignAction, ForeignFiles, ForeignHook, ShapeRules, Skipped};
pub(crate) use telemetry_table::{OtlpProtocol, TelemetryTable};
/// Loads and layers config files in order, as Claude Code does: hook lists
/// appended, `disableAllHooks` takes the last value set, dedup happens per
/// event (docs/configuration.md).
///
/// # Errors
/// A file that is missing, unreadable or does not parse; an invalid TOML
/// file (the first such file: see [`Config::complete`]).
pub fn load(paths: &[PathBuf], options: LoadOptions) -> Result<Config, Error> {
    let files: Vec<Found> = paths
        .iter()
        .map(|p| Found {
            path: p.clone(),
            source: Source::Explicit,
        })
        .collect();
    load_found(&files, options)?.complete()
}

/// Loads discovered files: as [`load`], with a project file off the user's
/// trust list restricted to adding guards (`untrusted`). Trust is decided
/// on the very bytes that are parsed, so a file swapped after the check
/// cannot borrow its trust.
///
/// A layer that cannot be loaded never takes the others with it: an
/// untrusted project file that is missing or invalid is skipped with a
/// notice (it could only have added guards), and any other such layer is
/// listed in `Config::unreadable`, next to what the readable layers say.
///
/// # Errors
/// None today: every failure is in the config; the `Result` is the
/// callers' contract.
pub fn load_found(files: &[Found], options: LoadOptions) -> Result<Config, Error> {
    let mut config = Config::default();
    let (trust, trust_problem) = if files.iter().any(|f| f.source == Source::Project) {
        trust::TrustList::load()
    } else {
        (trust::TrustList::default(), None)
    };
    if let Some(why) = trust_problem {
        config.notices.push(Diagnostic::new(
            Code::Untrusted,
            why,
            "the trust list cannot be read: every project config is untrusted",
        ));
    }
    let mut disable_all: Option<bool> = None;
    let mut mcp_approval = claude::mcp::Approval::default();
    let mut policy_disable = false;
    let mut closed_default = false;
    for Found { path, source } in files {
        let loaded = read_text(path).map(|text| {
            let untrusted = *source == Source::Project && !trust.allows(path, text.as_bytes());
            (untrusted, parse_layer(path, &text, options))
        });
        let (untrusted, mut layer) = match loaded {
            Ok((untrusted, Ok(layer))) => (untrusted, layer),
            Ok((true, Err(e))) => {
                config.notices.push(untrusted::skipped(finding_of(path, e)));
                config.untrusted_files.push(path.clone());
                continue;
            }
            Ok((false, Err(error))) | Err(error) => {
                config.unreadable.push(Unreadable {
                    path: path.clone(),
                    error: std::sync::Arc::new(error),
                });
                continue;
            }
        };
        if untrusted {
            untrusted::restrict(&mut layer, path);
            config.untrusted_files.push(path.clone());
        }
        take_mcp_servers(&mut config, &mut layer, &mut mcp_approval);
        closed_default |= layer.closed_default;
        if let Some(d) = layer.disable_all {
            disable_all = Some(d);
            if layer.policy {
                policy_disable = d;
            }
        }
        if let Some(a) = layer.audit_log {
            config.audit_log = Some(a);
        }
        if let Some(t) = layer.telemetry {
            config
                .telemetry
                .get_or_insert_with(Default::default)
                .layer(t);
        }
        if let Some(k) = layer.audit_key_file {
            config.audit_key_file = Some(k);
        }
        if let Some(o) = layer.order {
            config.order = o;
        }
        config.order_by_event.extend(layer.order_by_event);
        if layer.hookrun_plugin.is_some() {
            config.hookrun_plugin = layer.hookrun_plugin;
        }
        let policy = &mut config.http_policy;
        if let Some(urls) = layer.http_urls {
            policy.urls.get_or_insert_with(Vec::new).extend(urls);
            policy.urls_managed |= layer.policy;
        }
        if let Some(vars) = layer.http_env_vars {
            policy.env_vars.get_or_insert_with(Vec::new).extend(vars);
            policy.env_vars_managed |= layer.policy;
        }
        if let Some(l) = layer.limits {
            l.apply(&mut config.limits);
        }

        config.hooks.extend(layer.hooks);
        config.notices.extend(layer.notices);
        config.warnings.extend(layer.warnings);
        config.files.push(path.clone());
    }
    if policy_disable {
        config.hooks.clear();
    } else if disable_all == Some(true) {
        config.hooks.retain(|h| h.origin.policy);
    }
    config.off = policy_disable || disable_all == Some(true);
    add_agent_mcp_servers(&mut config, &mcp_approval, &trust);
    config.own_files = own_files(&config, options.foreign);
    config.any_closed = options.default_fail_mode == FailMode::Closed
        || closed_default
        || config.hooks.iter().any(|h| h.fail_mode == FailMode::Closed);
    // With no file at all, the caller says so, naming where it looked.
    if config.hooks.is_empty() && !config.off && config.unreadable.is_empty() && !files.is_empty() {
        config.notices.push(no_hooks(&config.files));
    }
    Ok(config)
}

/// A layer's MCP servers (replacing earlier ones of the same name) and its
/// approval of Claude Code project servers.
fn take_mcp_servers(config: &mut Config, layer: &mut Layer, approval: &mut claude::mcp::Approval) {
    if let Some(a) = layer.mcp_approval.take() {
        approval.merge(a);
    }
    for server in std::mem::take(&mut layer.mcp_servers) {
        config.mcp_servers.retain(|s| s.name != server.name);
        config.mcp_servers.push(server);
    }
}

/// The servers Claude Code connects from the project's `.mcp.json`, where
/// an `mcp_tool` hook names one no hookrun config declares (nothing is
/// read for a config without such hooks).
fn add_agent_mcp_servers(
    config: &mut Config,
    approval: &claude::mcp::Approval,
    trust: &trust::TrustList,
) {
    let wanted = |config: &Config| {
        config.hooks.iter().any(|h| {
            matches!(&h.action, Action::McpTool { server, .. }
                if !config.mcp_servers.iter().any(|s| &s.name == server))
        })
    };
    if !wanted(config) {
        return;
    }
    let Some(project) = project_dir() else {
        return;
    };
    // What Claude Code's own settings approve counts, whichever of them
    // hookrun was given: the servers are the ones the agent connects.
    let mut approval = approval.clone();
    for path in discover::claude_layers(Some(&project)) {
        if let Ok(Ok(serde_json::Value::Object(root))) =
            std::fs::read(&path).map(|b| serde_json::from_slice::<serde_json::Value>(&b))
        {
            approval.merge(claude::mcp::Approval::of(&root));
        }
    }
    let loaded;
    let trust = if trust.entries.is_empty() {
        loaded = trust::TrustList::load().0;
        &loaded
    } else {
        trust
    };
    for server in claude::mcp::project_servers(&project, &approval, &|p, b| trust.allows(p, b)) {
        if !config.mcp_servers.iter().any(|s| s.name == server.name) {
            config.mcp_servers.push(server);
        }
    }
}

/// hookrun's own files for a loaded config: the files read, the user
/// config path and `$HOOKRUN_CONFIG`'s files whether read or not, the trust
/// list and the audit files.
#[must_use]
pub(crate) fn own_files(config: &Config, agents: &'static dyn ForeignFiles) -> OwnFiles {
    let mut named: Vec<PathBuf> = discover::user_dir()
        .map(|d| d.join("hookrun.toml"))
        .into_iter()
        .collect();
    if let Some(list) = std::env::var_os("HOOKRUN_CONFIG").filter(|v| !v.is_empty()) {
        named.extend(std::env::split_paths(&list));
    }
    let sources = Sources {
        configs: &config.files,
        named,
        trust_list: trust::list_path(),
        audit_log: config.audit_log.as_deref(),
        audit_key: config.audit_key_file.as_deref(),
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    OwnFiles::gather(&sources, Homes::from_env(), agents, &cwd)
}

/// The notice for a config that defines no hook at all (an empty file, `{}`,
/// a file caught empty mid-save): every event would pass unguarded without
/// a word. Turning hookrun off on purpose is said with the off switch.
#[must_use]
pub(crate) fn no_hooks(files: &[PathBuf]) -> Diagnostic {
    let file = files.last().cloned().unwrap_or_default();
    let read = match files {
        [] => "no config file was found".to_owned(),
        [_] => "this file defines no hook".to_owned(),
        _ => format!(
            "none of the config files ({}) defines a hook",
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Diagnostic::new(
        Code::NoHooks,
        file,
        format!(
            "{read}: nothing guards this event; set `disable_all_hooks = true` (TOML) or `\"disableAllHooks\": true` (JSON) to turn hooks off on purpose"
        ),
    )
}

/// The JSON Schema of hookrun's TOML config.
#[must_use]
pub(crate) fn toml_schema() -> serde_json::Value {
    toml_raw::schema()
}

fn read_text(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|source| Error::ConfigRead {
        path: path.to_owned(),
        source,
    })
}

/// Parses one file's text, whatever its format.
fn parse_layer(path: &Path, text: &str, options: LoadOptions) -> Result<Layer, Error> {
    if text.trim().is_empty() {
        // An empty file (often one caught mid-save) defines no hook, in any
        // format: said by `load`, never a parse error that fails open.
        return Ok(Layer::default());
    }
    if is_toml(path, text) {
        return toml_file::load(path, text, options);
    }
    match options.foreign.agent_of_file(path, text, options.format) {
        Ok(agent) if agent.is_claude_like() => {
            let mut layer = claude::load(path, text, options, options.foreign.shape_rules(agent))?;
            if options.foreign.ignores_if(agent) {
                foreign::drop_if(path, text, agent, &mut layer);
            }
            Ok(layer)
        }
        Ok(agent) => match options.foreign.read(agent, text) {
            Some(f) => foreign::layer(path, text, f, options),
            None => claude::load(path, text, options, ShapeRules::CLAUDE),
        },
        Err(why) => foreign::layer(path, text, Err(why), options),
    }
}

/// `check`'s W015 findings for `path` read as the project file `run` reads:
/// nothing when the user trusted its content (or it cannot be read, which
/// `check` reports already), else each setting and guard it cannot apply.
#[must_use]
pub(crate) fn untrusted_findings(path: &Path, options: LoadOptions) -> Vec<Diagnostic> {
    let found = [Found {
        path: path.to_owned(),
        source: Source::Project,
    }];
    let Ok(config) = load_found(&found, options) else {
        return Vec::new();
    };
    if config.untrusted_files.is_empty() || !config.files.iter().any(|f| f == path) {
        return Vec::new();
    }
    untrusted::findings(&config.hooks, &config.notices, path)
}

/// The name `check` gives the config it reads from stdin (`-`), in findings
/// and reports.
pub(crate) const STDIN_NAME: &str = "<stdin>";

/// Loads every file for `check`: a file that cannot be used becomes a
/// finding instead of stopping the load, every drop and lint of the loaders
/// is a finding, and `disableAllHooks` is not applied, so every hook is
/// seen. The path [`STDIN_NAME`] is the text `stdin` (already read), its
/// format told by its content since it has no file name.
#[must_use]
pub fn load_for_check(
    paths: &[PathBuf],
    stdin: Option<&str>,
    options: LoadOptions,
) -> (Config, Vec<Diagnostic>) {
    let mut config = Config::default();
    let mut findings = Vec::new();
    let mut off = false;
    let mut mcp_approval = claude::mcp::Approval::default();
    for path in paths {
        let given = stdin.filter(|_| path.as_os_str() == STDIN_NAME);
        let (mut layer, errors) = read_layer_all(path, given, options);
        off |= layer.disable_all == Some(true);
        take_mcp_servers(&mut config, &mut layer, &mut mcp_approval);
        config.hooks.extend(layer.hooks);
        if layer.hookrun_plugin.is_some() {
            config.hookrun_plugin = layer.hookrun_plugin;
        }
        findings.extend(layer.notices);
        findings.extend(layer.warnings);
        findings.extend(errors.into_iter().map(|e| finding_of(path, e)));
        config.files.push(path.clone());
    }
    add_agent_mcp_servers(&mut config, &mcp_approval, &trust::TrustList::default());
    let broken = findings.iter().any(|f| f.severity == Severity::Error);
    if config.hooks.is_empty() && !off && !broken && !paths.is_empty() {
        findings.push(no_hooks(&config.files));
    }
    (config, findings)
}

/// Reads and parses one file, with every error of a TOML file (`check`).
/// The layer holds what could be read.
fn read_layer_all(path: &Path, given: Option<&str>, options: LoadOptions) -> (Layer, Vec<Error>) {
    let text = match given.map_or_else(|| read_text(path), |t| Ok(t.to_owned())) {
        Ok(text) => text,
        Err(e) => return (Layer::default(), vec![e]),
    };
    if !text.trim().is_empty() && is_toml(path, &text) {
        return toml_file::load_all(path, &text, options);
    }
    match parse_layer(path, &text, options) {
        Ok(layer) => (layer, Vec::new()),
        Err(e) => (Layer::default(), vec![e]),
    }
}

/// A loading error as a finding of `check`.
fn finding_of(path: &Path, e: Error) -> Diagnostic {
    match e {
        Error::Config(p) => {
            let mut d =
                Diagnostic::new(p.code, path, p.message.clone()).at(p.at.line.zip(p.at.column));
            d.key = p.key.clone();
            d.fix = p.fix.clone();
            d
        }
        e => Diagnostic::new(Code::Unreadable, path, e.to_string()),
    }
}

fn is_toml(path: &Path, text: &str) -> bool {
    match path.extension().and_then(|e| e.to_str()) {
        Some("toml") => true,
        Some("json") => false,
        _ => !text.trim_start().starts_with('{'),
    }
}
