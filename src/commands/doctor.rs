//! `hookrun doctor`: picks the registrations asked about, has `doctor`
//! judge them and fire their canaries, and prints the report.

use crate::cli::{DoctorArgs, DoctorFormat, DoctorScope};
use crate::config;
use crate::doctor::{self, Report, agents, examine, fire};
use crate::error::{Error, ExitStatus};
use crate::install::agent::{Agent, Scope};
use crate::install::location::Homes;
use crate::lint::installed;
use crate::output;

/// Runs `doctor`: exit 0 when every registration is sound and every
/// canary holds, 1 otherwise.
///
/// # Errors
/// The working directory cannot be read, a scratch directory cannot be
/// made, or hookrun was interrupted.
pub(crate) fn execute(args: &DoctorArgs) -> Result<ExitStatus, Error> {
    let project = config::project_dir()
        .ok_or_else(|| Error::Usage("cannot read the current directory".into()))?;
    let homes = Homes::from_env();
    let found: Vec<installed::Registration> = installed::registrations(&project, &homes)
        .into_iter()
        .filter(|r| args.agent.is_empty() || args.agent.contains(&r.agent))
        .filter(|r| match args.scope {
            None => true,
            Some(DoctorScope::User) => r.scope == Scope::User,
            Some(DoctorScope::Project) => r.scope != Scope::User,
        })
        .collect();
    let scratch = tempfile::Builder::new()
        .prefix("hookrun-doctor-")
        .tempdir()
        .map_err(|source| Error::Io {
            what: "cannot make a scratch directory".into(),
            source,
        })?;
    let mut report = Report {
        problems: examine::unreadable_settings(&project, &homes, &args.agent),
        agents: Vec::new(),
        registrations: Vec::new(),
        canaries: Vec::new(),
        skipped: Vec::new(),
        command_hooks: Vec::new(),
        ok: false,
    };
    let registered: Vec<Agent> = Agent::ALL
        .into_iter()
        .filter(|a| found.iter().any(|r| r.agent == *a))
        .collect();
    let path_var = std::env::var_os("PATH");
    report.agents = agents::probe(&registered, path_var.as_deref(), &project)?;
    report
        .problems
        .extend(doctor::version_problems(&report.agents));
    let mut plans = Vec::new();
    for g in &examine::group(&found) {
        let (reg, plan) = examine::examine(g, &project, args.no_hooks, &mut report)?;
        plans.push((report.registrations.len(), plan));
        report.registrations.push(reg);
    }
    if !args.no_hooks && !report.command_hooks.is_empty() && args.format == DoctorFormat::Text {
        output::print(&doctor::render_command_hooks(&report.command_hooks));
    }
    for (i, plan) in plans {
        let mut results = fire::fire(
            &plan,
            &project,
            scratch.path(),
            args.no_hooks,
            &mut report.skipped,
        )?;
        if let Some(p) = doctor::canaries_failed(&results) {
            report.registrations[i].problems.push(p);
        }
        report.canaries.append(&mut results);
    }
    report.ok = report.healthy();
    match args.format {
        DoctorFormat::Text => output::print(&doctor::render_text(&report)),
        DoctorFormat::Json => {
            let text = serde_json::to_string_pretty(&report).unwrap_or_default();
            output::print(&format!("{text}\n"));
        }
    }
    Ok(u8::from(!report.ok))
}
