//! The agent versions hookrun is tested with: `doctor` judges an
//! installed agent by its dialect's row (`Setup::tested`, D012). The live
//! ones are the versions `scripts/live` pins
//! (`scripts/live_agents/versions.py`), and a test keeps the two equal;
//! the others are what the fixture tests were written from.

pub(crate) use crate::dialect::setup::{How, Tested};
use crate::install::agent::Agent;

/// The row of `agent`.
#[must_use]
pub(crate) fn of(agent: Agent) -> Tested {
    crate::dialect::setup(agent).tested
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let pins = [
            (Agent::Claude, "CLAUDE_CODE"),
            (Agent::Codex, "CODEX"),
            (Agent::Gemini, "GEMINI_CLI"),
            (Agent::Qwen, "QWEN_CODE"),
        ];
        for (agent, name) in pins {
            let row = of(agent);
            assert_eq!(row.how, How::Live, "{name}");
            assert_eq!(
                row.versions,
                [pinned(&text, name).as_str()],
                "{agent:?}'s dialect and scripts/live_agents/versions.py disagree on {name}"
            );
        }
        let live = Agent::ALL
            .iter()
            .filter(|a| of(**a).how == How::Live)
            .count();
        assert_eq!(live, pins.len(), "a live row without a pin in versions.py");
    }
}
