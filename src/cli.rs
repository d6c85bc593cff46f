//! The command line. Doc comments are the help text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::config::FailMode;

mod doctor;
mod on_error;
mod setup;
mod trust;
pub(crate) use doctor::{DoctorArgs, DoctorFormat, DoctorScope};
pub(crate) use on_error::OnError;
pub(crate) use setup::{ConfigCommand, InitArgs, InstallArgs};
pub(crate) use trust::TrustArgs;

/// One hook runner for every coding agent: reads a hooks config and one
/// event as JSON on stdin, runs the matching hooks concurrently, merges
/// their answers and prints one decision.
#[derive(Debug, Parser)]
#[command(name = "hookrun", version, propagate_version = true)]
pub(crate) struct Cli {
    /// When to colour output: auto (a terminal, and NO_COLOR unset),
    /// always or never.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHEN",
        default_value = "auto"
    )]
    pub color: crate::output::colour::ColorWhen,

    #[command(subcommand)]
    pub command: Command,
}

// The subcommands. (Plain comments: a doc comment here would become help text.)
//
// `defer`: a subcommand's arguments are built only when that subcommand is
// parsed (or help, completions or the man page walk the whole tree), so
// `hookrun run`, started once per event, does not build the other ten.
// A deferred `Args` struct's own doc comment would be applied after the
// variant's and replace the subcommand's help text, so the `Args` structs
// below carry plain comments.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub(crate) enum Command {
    /// Run the hooks matching the event on stdin and print one decision.
    #[command(after_help = concat!(
        "Examples:\n",
        "  hookrun run --config hooks.example.toml < examples/pre-tool-use-rm.json\n",
        "  hookrun run --config ~/.claude/settings.json --report - < event.json",
    ))]
    Run(RunArgs),
    /// Validate and lint hook configs (TOML and Claude Code JSON).
    ///
    /// Errors (exit 1) are what makes a config fail or silently lose hooks;
    /// warnings (exit 0, or 1 with --strict) are what rarely means what its
    /// author thinks. Every finding has a stable code, a location and, where
    /// there is one, a fix.
    #[command(after_help = concat!(
        "Examples:\n",
        "  hookrun check hooks.toml\n",
        "  hookrun check --format github ~/.claude/settings.json .claude/settings.json\n",
        "  hookrun check --format sarif . > hookrun.sarif\n",
        "  cat settings.json | hookrun check -",
    ))]
    Check(CheckArgs),
    /// Show which hooks run for an event, and why; with --run, run them and
    /// show each answer and every merge step.
    ///
    /// The event comes from stdin, or from flags.
    #[command(after_help = concat!(
        "Examples:\n",
        "  hookrun explain -c hooks.toml --event PreToolUse --tool Bash --input '{\"command\":\"rm -rf /\"}'\n",
        "  hookrun explain -c settings.json --event SessionStart --set source=resume\n",
        "  hookrun explain -c hooks.toml --run < event.json",
    ))]
    Explain(ExplainArgs),
    /// Run policy test files (`*.test.toml`) against the real hooks.
    ///
    /// Each case runs hermetically (a temporary working directory, a time
    /// limit) through the same code path as `run`, and is compared with its
    /// expectations. Ends with `N passed, N failed`; exit 0 only when all pass.
    #[command(after_help = concat!(
        "Examples:\n",
        "  hookrun test examples/\n",
        "  hookrun test --format junit hooks.test.toml > junit.xml",
    ))]
    Test(TestArgs),
    /// Convert hook configs: Claude Code / Codex JSON, Gemini and Cursor
    /// JSON to hookrun TOML; hookrun TOML to Claude Code JSON or (`--to
    /// gemini`) Gemini's.
    ///
    /// The direction follows the input (`.json` or a leading `{` is JSON;
    /// Gemini and Cursor files are recognised by their event names). What
    /// cannot be carried over is listed on stderr.
    #[command(after_help = concat!(
        "Examples:\n",
        "  hookrun convert .claude/settings.json > hookrun.toml\n",
        "  hookrun convert hookrun.toml > hooks.json",
    ))]
    Convert(ConvertArgs),
    /// Handle many events in one process: JSON Lines in, JSON Lines out.
    ///
    /// Each stdin line is an event; each gets one stdout line, in order:
    /// {"seq":N,"exit_code":C,"stdout":"…","stderr":"…"}, exactly what
    /// `run` would print. The config is reloaded when its files change.
    Serve(ServeArgs),
    /// Post the event on stdin to a `hookrun serve --http` server and answer
    /// as it answers (its body on stdout, its Hookrun-Exit-Code as the exit
    /// code): a command hook for agents that only run commands.
    ///
    /// No answer (unreachable, too slow, an error status) is hookrun's own
    /// failure: the event is blocked where it can be, saying why, unless
    /// --on-error allow.
    #[command(after_help = concat!(
        "Examples:\n",
        "  hookrun forward --url http://127.0.0.1:8787 --dialect codex\n",
        "  hookrun forward --url https://policy.example.com --token-file ~/.hookrun-token --dialect copilot --event preToolUse",
    ))]
    Forward(ForwardArgs),
    /// Run one built-in hook as an ordinary command hook (for Claude Code
    /// settings and other agents): the event on stdin, the answer on stdout.
    #[command(after_help = builtin_examples())]
    Builtin(BuiltinArgs),
    /// Trust a project's hookrun.toml: let it do more than add guards.
    ///
    /// Without trust, a project config found without --config may only add
    /// guards (docs/discovery.md). Trust holds for the file's current
    /// content only: an edit drops it. The list is
    /// $XDG_CONFIG_HOME/hookrun/trusted.toml.
    #[command(after_help = concat!(
        "Examples:\n",
        "  hookrun trust ./hookrun.toml\n",
        "  hookrun trust --list\n",
        "  hookrun trust --remove ./hookrun.toml",
    ))]
    Trust(TrustArgs),
    /// Write a starter `hookrun.toml` (built-in guards that need nothing
    /// else) and its policy test file `hookrun.test.toml`.
    #[command(after_help = concat!(
        "Examples:\n",
        "  hookrun init\n",
        "  hookrun init ~/.config/hookrun",
    ))]
    Init(InitArgs),
    /// Register hookrun in an agent's own settings file, for every event
    /// the hookrun config uses (docs/install.md).
    ///
    /// Idempotent; the original file is backed up first (FILE.hookrun-backup)
    /// and `--uninstall` removes exactly what was added.
    #[command(after_help = concat!(
        "Examples:\n",
        "  hookrun install --agent claude\n",
        "  hookrun install --agent gemini --scope project --dry-run\n",
        "  hookrun install --agent cursor --uninstall",
    ))]
    Install(InstallArgs),
    /// Prove the installed setup guards: find every registration of
    /// hookrun in the agents' settings, report broken wiring, and fire
    /// canary events through each registered command the way its agent
    /// runs it (docs/doctor.md).
    ///
    /// Exit 0 when every guard the config promises holds in every
    /// registration found; 1 otherwise, or when a registration is broken.
    #[command(after_help = concat!(
        "Examples:\n",
        "  hookrun doctor\n",
        "  hookrun doctor --agent claude --scope project --no-hooks\n",
        "  hookrun doctor --format json",
    ))]
    Doctor(DoctorArgs),
    /// Print the effective config: every file read, in discovery order, and
    /// every hook with the file it came from.
    #[command(after_help = concat!(
        "Examples:\n",
        "  hookrun config\n",
        "  hookrun config show -c hookrun.toml",
    ))]
    Config(ConfigArgs),
    /// The audit log.
    #[command(subcommand)]
    Audit(AuditCommand),
    /// Print the JSON Schema of hookrun's TOML config, for editors.
    Schema,
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print a man page (roff): hookrun's own, or one subcommand's; with
    /// --all, write every page into a directory.
    #[command(after_help = concat!(
        "Examples:\n",
        "  hookrun man > hookrun.1\n",
        "  hookrun man test > hookrun-test.1\n",
        "  hookrun man --all share/man/man1",
    ))]
    Man(ManArgs),
}

// Options of `hookrun man`.
#[derive(Debug, Args, Clone)]
pub(crate) struct ManArgs {
    /// The subcommand whose page to print (`hookrun-SUBCOMMAND(1)`)
    /// [default: the top-level page].
    #[arg(value_name = "SUBCOMMAND", conflicts_with = "all")]
    pub subcommand: Option<String>,

    /// Write hookrun.1 and one hookrun-SUBCOMMAND.1 per subcommand (and
    /// per nested one, e.g. hookrun-audit-verify.1) into DIR.
    #[arg(long, value_name = "DIR")]
    pub all: Option<PathBuf>,
}

// Options of `hookrun config`.
#[derive(Debug, Args, Clone)]
pub(crate) struct ConfigArgs {
    #[command(subcommand)]
    pub action: Option<ConfigCommand>,

    /// Config files, as for `run` [default: discovery, as `run` does].
    #[arg(long = "config", short = 'c', value_name = "PATH", global = true)]
    pub configs: Vec<PathBuf>,
}

// Options of `hookrun serve`.
#[derive(Debug, Args, Clone)]
#[group(id = "transport", required = true, multiple = false, args = ["stdio", "http"])]
pub(crate) struct ServeArgs {
    /// Read events from stdin and write decisions to stdout, one line each.
    #[arg(long)]
    pub stdio: bool,

    /// Answer events over HTTP on ADDR (`127.0.0.1:8787`; port 0 takes a
    /// free port): `POST /hooks/{dialect}`, `GET /healthz`, `GET /readyz`
    /// (docs/serve.md). Prints `listening on http://HOST:PORT` on stderr
    /// when ready.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<String>,

    /// With --http: every request needs `Authorization: Bearer TOKEN`, the
    /// token being the first line of this file.
    #[arg(long, value_name = "PATH", requires = "http")]
    pub token_file: Option<PathBuf>,

    /// With --http: serve an address reachable beyond this machine without
    /// a --token-file.
    #[arg(long, requires = "http")]
    pub allow_remote: bool,

    /// With --http: serve HTTPS with this certificate chain (PEM).
    #[arg(long, value_name = "PEM", requires_all = ["http", "tls_key"])]
    pub tls_cert: Option<PathBuf>,

    /// With --http: the private key of --tls-cert (PEM).
    #[arg(long, value_name = "PEM", requires_all = ["http", "tls_cert"])]
    pub tls_key: Option<PathBuf>,

    /// With --http: seconds a client gets to send a request's headers, and
    /// again its body (and to finish a TLS handshake); a slower one is cut
    /// off.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds, requires = "http")]
    pub read_timeout: std::time::Duration,

    /// With --http: events evaluated at once; more wait in a queue.
    #[arg(long, value_name = "N", default_value = "64", value_parser = clap::value_parser!(u32).range(1..), requires = "http")]
    pub max_in_flight: u32,

    /// With --http: events that may wait for a place; one more is answered
    /// with hookrun's own block (the server is overloaded).
    #[arg(long, value_name = "N", default_value = "256", requires = "http")]
    pub max_queued: u32,

    /// With --http: seconds the events under way get to finish after
    /// SIGTERM (or SIGINT) before their hooks are stopped.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds, requires = "http")]
    pub grace: std::time::Duration,

    #[command(flatten)]
    pub run: RunArgs,
}

// Options of `hookrun forward`.
#[derive(Debug, Args, Clone)]
pub(crate) struct ForwardArgs {
    /// The server: its base URL (`http://127.0.0.1:8787`; the event goes to
    /// `URL/hooks/{dialect}`), or a whole `…/hooks/NAME` endpoint.
    #[arg(long, value_name = "URL")]
    pub url: String,
    /// The caller's dialect, as for `run` [default: `auto`, recognised by the
    /// server from the event].
    #[arg(long, value_enum, value_name = "NAME")]
    pub dialect: Option<crate::dialect::Dialect>,
    /// The event name, when the JSON has none (as `run --event`).
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
    /// A file whose first line is the server's bearer token.
    #[arg(long, value_name = "PATH", conflicts_with = "token_env")]
    pub token_file: Option<PathBuf>,
    /// An environment variable holding the server's bearer token (what
    /// `install --url --token-env` registers).
    #[arg(long, value_name = "VAR")]
    pub token_env: Option<String>,
    /// Seconds to wait for the server's answer.
    #[arg(long, value_name = "SECONDS", default_value = "600", value_parser = parse_seconds)]
    pub timeout: std::time::Duration,
    /// Seconds to wait for the caller to close stdin.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = parse_seconds)]
    pub stdin_timeout: std::time::Duration,
    #[command(flatten)]
    pub on_error: OnErrorArg,
}

/// `hookrun builtin NAME`'s help: the registry's guards.
fn builtin_names() -> String {
    let names: Vec<&str> = hookrun_guards::names().collect();
    format!("The built-in guard: {}", names.join(", "))
}

/// `hookrun builtin`'s examples: one line per guard of the registry.
fn builtin_examples() -> String {
    let lines: Vec<String> = hookrun_guards::REGISTRY
        .iter()
        .map(|e| format!("  hookrun builtin {}{}", e.name, e.example))
        .collect();
    format!("Examples:\n{}", lines.join("\n"))
}

// Options of `hookrun builtin`.
#[derive(Debug, Args, Clone)]
pub(crate) struct BuiltinArgs {
    #[arg(value_name = "NAME", help = builtin_names())]
    pub name: String,

    /// One option, KEY=VALUE; VALUE is JSON, or else a string. Repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub option: Vec<String>,

    /// All options as one JSON object.
    #[arg(long, value_name = "JSON")]
    pub options: Option<String>,

    /// `warn`: report what it would do, and allow.
    #[arg(long, value_enum, default_value = "enforce")]
    pub mode: crate::builtin::Mode,

    /// The event name, when the JSON has no `hook_event_name`.
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,

    /// As for `run`.
    #[arg(long, value_enum, value_name = "MODE")]
    pub fail_mode: Option<FailMode>,

    #[command(flatten)]
    pub on_error: OnErrorArg,

    /// The agent whose format JSON config files are in (claude, codex,
    /// gemini, cursor, copilot), for a file whose path and content do not
    /// say it: several agents name their file `hooks.json` [default: from
    /// the path, else the content].
    #[arg(long, value_enum, value_name = "AGENT")]
    pub config_format: Option<crate::dialect::Dialect>,
}

/// `hookrun audit …`.
#[derive(Debug, Subcommand, Clone)]
pub(crate) enum AuditCommand {
    /// Check an audit log's hash chain, naming every problem.
    ///
    /// Every torn, edited, removed, inserted or reordered line is named, one
    /// problem per line, then a summary; an intact log's head (HASH:LINES) is
    /// printed to record elsewhere (docs/audit.md). Exit 1 when anything is
    /// wrong.
    Verify {
        /// The log file.
        path: PathBuf,

        /// The key the log was sealed with (`audit_key_file`): required for
        /// keyed lines, and then every line must be keyed.
        #[arg(long, value_name = "PATH")]
        key_file: Option<PathBuf>,

        /// A head recorded earlier (HASH:LINES, as printed by a previous
        /// verify): the log must still have line LINES, with hash HASH.
        /// Catches lines cut from the end. Repeatable.
        #[arg(long, value_name = "HASH:LINES")]
        expect: Vec<crate::audit::Expect>,
    },
}

// Options of `hookrun convert`.
#[derive(Debug, Args, Clone)]
pub(crate) struct ConvertArgs {
    /// The file to convert.
    #[arg(value_name = "PATH")]
    pub path: PathBuf,

    /// Exit 1 when anything could not be carried over.
    #[arg(long)]
    pub strict: bool,

    /// For TOML input: the agent whose hooks file to write (Claude Code's
    /// settings shape by default; gemini, cursor and copilot write theirs,
    /// each timeout in that agent's unit).
    #[arg(long, value_enum, value_name = "AGENT")]
    pub to: Option<crate::dialect::Dialect>,

    /// The agent whose format JSON config files are in (claude, codex,
    /// gemini, cursor, copilot), for a file whose path and content do not
    /// say it: several agents name their file `hooks.json` [default: from
    /// the path, else the content].
    #[arg(long, value_enum, value_name = "AGENT")]
    pub config_format: Option<crate::dialect::Dialect>,
}

// `--on-error`, shared by the commands agents run as hooks: what `run`
// and `serve` answer when hookrun itself cannot evaluate an event
// (`HOOKRUN_ON_ERROR` too). It lives on the command line and in the
// environment, never in a config file: the file that would hold it may be
// the one that cannot be read. (A plain comment: a doc comment on a
// flattened `Args` struct would become the about text of every command
// that flattens it.)
#[derive(Debug, Args, Clone, Copy)]
pub(crate) struct OnErrorArg {
    /// What hookrun answers when it cannot evaluate everything configured
    /// (a config or layer it cannot read, a handler type it cannot run, a
    /// resource limit, its own error): `block` blocks the events that can
    /// block, in the caller's shape, saying where and why (on Stop only
    /// while `stop_hook_active` is false; on PostToolUse the output is
    /// withheld); `allow` reports the error and lets the event through.
    #[arg(
        long = "on-error",
        value_enum,
        value_name = "WHAT",
        env = "HOOKRUN_ON_ERROR",
        default_value = "block"
    )]
    pub value: OnError,
}

impl OnErrorArg {
    /// Whether hookrun's own failure blocks (`--on-error block`).
    #[must_use]
    pub(crate) fn blocks(self) -> bool {
        self.value == OnError::Block
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum TestFormat {
    /// A line per case, then `N passed, N failed`.
    Text,
    /// JUnit XML: a testsuite per file, a testcase per case.
    Junit,
    /// A JSON array of case results.
    Json,
    /// GitHub Actions workflow commands: an error annotation per failure.
    Github,
}

// Options of `hookrun test`.
#[derive(Debug, Args, Clone)]
pub(crate) struct TestArgs {
    /// Test files, or directories searched for `*.test.toml` [default: the current directory].
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Run only the cases whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,

    /// Output format on stdout; with junit and json, the summary goes to
    /// stderr.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TestFormat,

    /// The agent whose format JSON config files are in (claude, codex,
    /// gemini, cursor, copilot), for a file whose path and content do not
    /// say it: several agents name their file `hooks.json` [default: from
    /// the path, else the content].
    #[arg(long, value_enum, value_name = "AGENT")]
    pub config_format: Option<crate::dialect::Dialect>,
}

/// Output formats of `explain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ExplainFormat {
    Text,
    Json,
}

// Options of `hookrun explain`.
#[derive(Debug, Args, Clone)]
pub(crate) struct ExplainArgs {
    /// Config files, as for `run`.
    #[arg(long = "config", short = 'c', value_name = "PATH")]
    pub configs: Vec<PathBuf>,

    /// The event name (required when the event is built from flags).
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,

    /// The tool name (`tool_name`) of a tool event.
    #[arg(long, value_name = "NAME")]
    pub tool: Option<String>,

    /// The tool input (`tool_input`), a JSON object.
    #[arg(long, value_name = "JSON")]
    pub input: Option<String>,

    /// Any other event field; VALUE is JSON, or else a string. Repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,

    /// Also run the hooks and show their answers and the merge.
    #[arg(long)]
    pub run: bool,

    /// The agent the event comes from, as `run --dialect` (default:
    /// recognised from the event, else Claude Code): its events and answers,
    /// and the hooks it runs itself from its own files, which `run` leaves
    /// out.
    #[arg(long, value_enum, value_name = "AGENT")]
    pub dialect: Option<crate::dialect::Dialect>,

    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ExplainFormat,

    /// As for `run`.
    #[arg(long, value_enum, value_name = "MODE")]
    pub fail_mode: Option<FailMode>,

    /// The agent whose format JSON config files are in (claude, codex,
    /// gemini, cursor, copilot), for a file whose path and content do not
    /// say it: several agents name their file `hooks.json` [default: from
    /// the path, else the content].
    #[arg(long, value_enum, value_name = "AGENT")]
    pub config_format: Option<crate::dialect::Dialect>,
}

// Options of `hookrun check`.
#[derive(Debug, Args, Clone)]
pub(crate) struct CheckArgs {
    /// Config files, layered as `run` layers them. A directory stands for
    /// the config files hookrun recognises in it (hookrun.toml,
    /// *.hookrun.toml and each agent's settings or hooks file below it);
    /// `-` reads one config (JSON or TOML) from stdin. Without any: the
    /// same discovery as `run`.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Output format (sarif: SARIF 2.1.0; junit: a test case per file).
    #[arg(long, value_enum, default_value = "text")]
    pub format: crate::output::findings::FindingsFormat,

    /// Exit 1 on warnings too.
    #[arg(long)]
    pub strict: bool,

    /// The project, as the agent names it: where relative hook scripts are
    /// resolved, and whose `hookrun.toml` is the project file whose trust
    /// W015 reports [default: $CLAUDE_PROJECT_DIR, else the current directory].
    #[arg(long, value_name = "DIR")]
    pub project_dir: Option<PathBuf>,

    /// The agent whose format JSON config files are in (claude, codex,
    /// gemini, cursor, copilot), for a file whose path and content do not
    /// say it: several agents name their file `hooks.json` [default: from
    /// the path, else the content].
    #[arg(long, value_enum, value_name = "AGENT")]
    pub config_format: Option<crate::dialect::Dialect>,
}

// Options of `hookrun run`.
#[derive(Debug, Args, Clone)]
pub(crate) struct RunArgs {
    /// A config file: hookrun TOML, Claude Code settings JSON, or Codex's,
    /// Gemini CLI's, Cursor's or Copilot's hooks file. Repeatable;
    /// files layer in order. Without it: the user config
    /// ($XDG_CONFIG_HOME/hookrun/hookrun.toml), $HOOKRUN_CONFIG, else
    /// Claude Code's settings layers, then <project>/hookrun.toml, which
    /// may only add guards unless trusted (docs/discovery.md).
    #[arg(long = "config", short = 'c', value_name = "PATH")]
    pub configs: Vec<PathBuf>,

    /// The event name, when the JSON has no `hook_event_name` (or to override
    /// it): any agent's own name (`preToolUse`, `BeforeTool`,
    /// `beforeShellExecution`, …), mapped as the event's own field would be.
    /// A name that is no agent's event and that no hook is configured under
    /// is an error (a block when a hook fails closed).
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,

    /// The caller's dialect (default: recognised from the event): claude,
    /// codex, pydantic-deep, gemini, cursor, copilot.
    #[arg(long, value_enum, value_name = "NAME")]
    pub dialect: Option<crate::dialect::Dialect>,

    /// The agent whose format JSON config files are in (claude, codex,
    /// gemini, cursor, copilot), for a file whose path and content do not
    /// say it: several agents name their file `hooks.json` [default: from
    /// the path, else the content].
    #[arg(long, value_enum, value_name = "AGENT")]
    pub config_format: Option<crate::dialect::Dialect>,

    /// The fail mode of hooks whose config cannot say it (Claude Code JSON)
    /// and the default for TOML files that do not set one.
    #[arg(long, value_enum, value_name = "MODE")]
    pub fail_mode: Option<FailMode>,

    #[command(flatten)]
    pub on_error: OnErrorArg,

    /// Write a JSON report of every configured hook (matched or skipped and
    /// why, exit status, duration, answer) to FILE, or to stderr with `-`.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,

    /// Append one hash-chained JSON line per event to this file (overrides
    /// `[defaults] audit_log`).
    #[arg(long, value_name = "PATH")]
    pub audit_log: Option<PathBuf>,

    /// Seal audit lines with HMAC-SHA256 under the key in this file
    /// (overrides `[defaults] audit_key_file`); see `audit verify --key-file`.
    #[arg(long, value_name = "PATH", env = "HOOKRUN_AUDIT_KEY_FILE")]
    pub audit_key_file: Option<PathBuf>,

    /// Seconds to wait for the caller to close stdin before giving up
    /// (exit 1, or 2 where a guard fails closed): a finite number from 0 to
    /// 2147483.647 (the cap of hook timeouts).
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = parse_seconds)]
    pub stdin_timeout: std::time::Duration,

    /// Largest event accepted on stdin, in bytes [default: 67108864].
    #[arg(long, value_name = "BYTES")]
    pub max_event_bytes: Option<usize>,

    /// Bytes of each hook's stdout and of its stderr kept [default: 1048576].
    #[arg(long, value_name = "BYTES")]
    pub max_output_bytes: Option<usize>,
}

/// The largest number of seconds a duration flag takes: the cap of hook
/// timeouts (Claude Code's `2^31 - 1` ms), far inside what `Duration` holds.
const MAX_SECONDS: f64 = 2_147_483.647;

/// Parses a duration flag in seconds at parse time, so that NaN, infinities,
/// negative and huge values are a usage error rather than a panic when the
/// `Duration` is built.
fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !secs.is_finite() || !(0.0..=MAX_SECONDS).contains(&secs) {
        return Err(format!(
            "`{s}` seconds is out of range: give a finite number from 0 to {MAX_SECONDS}"
        ));
    }
    std::time::Duration::try_from_secs_f64(secs).map_err(|e| format!("`{s}`: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn seconds_flags_refuse_what_no_duration_holds() {
        for bad in ["1e20", "NaN", "inf", "-inf", "-1", "2147484", "x", ""] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_seconds("0").unwrap(), std::time::Duration::ZERO);
        assert_eq!(
            parse_seconds("1.5").unwrap(),
            std::time::Duration::from_millis(1500)
        );
    }

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }
}
