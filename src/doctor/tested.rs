//! The agent versions hookrun is tested with: the one table `doctor`
//! judges an installed agent by (D012). The live ones are the versions
//! `scripts/live` pins (`scripts/live_agents/versions.py`), and a test
//! keeps the two equal; the others are what the fixture tests were
//! written from.

use serde::Serialize;

use crate::install::agent::Agent;

/// How hookrun's tests know an agent's version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum How {
    /// The real agent, run by `scripts/live` against a mock of its model.
    Live,
    /// Payloads and answers written from the agent's documentation or
    /// package, replayed by the test suite; the agent itself never ran.
    Fixtures,
}

impl How {
    #[must_use]
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            How::Live => "live",
            How::Fixtures => "fixtures",
        }
    }
}

/// One agent's row.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tested {
    pub agent: Agent,
    /// The agent's launcher, as its installer puts it on PATH.
    pub program: &'static str,
    /// The versions its tests ran with, as `PROGRAM --version` prints them.
    /// Empty: no version of the program was run.
    pub versions: &'static [&'static str],
    pub how: How,
    /// What the tests rest on, as shown next to an untested version.
    pub basis: &'static str,
}

/// Every agent hookrun registers in, in `Agent::ALL` order.
pub(crate) const TESTED: [Tested; 5] = [
    Tested {
        agent: Agent::Claude,
        program: "claude",
        versions: &["2.1.332"],
        how: How::Live,
        basis: "`scripts/live` and the conformance suite",
    },
    Tested {
        agent: Agent::Codex,
        program: "codex",
        versions: &["0.171.0"],
        how: How::Live,
        basis: "`scripts/live`",
    },
    Tested {
        agent: Agent::Gemini,
        program: "gemini",
        versions: &["0.61.0"],
        how: How::Live,
        basis: "`scripts/live`",
    },
    Tested {
        agent: Agent::Cursor,
        program: "cursor-agent",
        versions: &[],
        how: How::Fixtures,
        basis: "fixtures written from Cursor's hooks documentation; no version of `cursor-agent` has run them",
    },
    Tested {
        agent: Agent::Copilot,
        program: "copilot",
        versions: &["1.0.102"],
        how: How::Fixtures,
        basis: "fixtures written from the documentation and the `@github/copilot` package it was read from",
    },
];

/// The row of `agent`; a row missing from the table (a test forbids it)
/// would read as no version tested.
#[must_use]
pub(crate) fn of(agent: Agent) -> Tested {
    TESTED
        .iter()
        .find(|t| t.agent == agent)
        .copied()
        .unwrap_or(Tested {
            agent,
            program: agent.as_str(),
            versions: &[],
            how: How::Fixtures,
            basis: "no tests",
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_has_its_own_row() {
        for agent in Agent::ALL {
            assert_eq!(
                TESTED.iter().filter(|t| t.agent == agent).count(),
                1,
                "{agent:?}"
            );
        }
        assert_eq!(TESTED.len(), Agent::ALL.len());
    }

    /// `NAME = "VERSION"` of the live harness's pins.
    fn pinned(text: &str, name: &str) -> String {
        let re = regex::Regex::new(&format!(r#"(?m)^{name}\s*=\s*"([^"]+)"\s*$"#))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        re.captures(text)
            .and_then(|c| c.get(1))
            .map(|m| m.as_str().to_owned())
            .unwrap_or_else(|| panic!("versions.py pins no {name}"))
    }

    #[test]
    fn the_live_rows_are_the_versions_the_live_harness_pins() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/live_agents/versions.py"
        );
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for (agent, name) in [
            (Agent::Claude, "CLAUDE_CODE"),
            (Agent::Codex, "CODEX"),
            (Agent::Gemini, "GEMINI_CLI"),
        ] {
            let row = of(agent);
            assert_eq!(row.how, How::Live, "{name}");
            assert_eq!(
                row.versions,
                [pinned(&text, name).as_str()],
                "src/doctor/tested.rs and scripts/live_agents/versions.py disagree on {name}"
            );
        }
        let live = TESTED.iter().filter(|t| t.how == How::Live).count();
        assert_eq!(live, 3, "a live row without a pin in versions.py");
    }
}
