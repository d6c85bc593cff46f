"""The agent versions the live harness pins: the one place to change them."""

CLAUDE_CODE = "2.1.332"
CODEX = "0.171.0"
GEMINI_CLI = "0.61.0"
QWEN_CODE = "0.24.4"
PYDANTIC_DEEP = "0.3.50"

# npm packages installed together into target/live/agents.
NPM_PACKAGES = {
    "claude": f"@anthropic-ai/claude-code@{CLAUDE_CODE}",
    "codex": f"@openai/codex@{CODEX}",
    "gemini": f"@google/gemini-cli@{GEMINI_CLI}",
    "qwen": f"@qwen-code/qwen-code@{QWEN_CODE}",
}

# PyPI pins for pydantic-deep's own hook runner (as bench-peers measured it).
PYDANTIC_PINS = [
    f"pydantic-deep=={PYDANTIC_DEEP}",
    "pydantic-ai-slim==2.62.0",
    "pydantic-ai-harness==0.62.0",
    "pydantic-ai-backend==0.2.37",
]
