//! The secret shapes `redact-secrets` knows, in one table. Patterns follow
//! the rules of the gitleaks scanner (MIT), written for the `regex` crate
//! (linear time, no look-around): where a rule has a group named `s`, only
//! that group is redacted (the key of `PASSWORD=...` stays readable).
//!
//! Rules for values of generic keys (`PASSWORD=`, `token: "..."`) skip
//! placeholders, see [`is_placeholder`].

/// How a rule's match is checked before it is redacted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Check {
    /// The shape alone is enough (a known prefix or structure).
    Shape,
    /// The value of a secret-named key: placeholders are skipped.
    Value,
    /// An unquoted value (YAML): placeholders and bare words (`string`,
    /// `Required`, `AccessToken`: types and identifiers) are skipped.
    Bare,
}

/// One secret shape: its name (shown in the redaction marker), its regex,
/// its anchors, and how a match is checked.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rule {
    pub name: &'static str,
    pub pattern: &'static str,
    /// Literals of which every match holds at least one, compared
    /// ignoring ASCII case: a text with none of them cannot match, so the
    /// rule's regex is neither compiled nor run on it.
    pub anchors: &'static [&'static str],
    pub check: Check,
}

const fn rule(
    name: &'static str,
    pattern: &'static str,
    anchors: &'static [&'static str],
    check: Check,
) -> Rule {
    Rule {
        name,
        pattern,
        anchors,
        check,
    }
}

/// The anchors of the secret-named keys (`secret_key!`, and the upper-case
/// names of `PASSWORD=` assignments): each alternative holds one.
const SECRET_KEY_WORDS: &[&str] = &[
    "pass",
    "secret",
    "token",
    "apikey",
    "api_key",
    "api-key",
    "accesskey",
    "access_key",
    "access-key",
    "privatekey",
    "private_key",
    "private-key",
    "authkey",
    "auth_key",
    "auth-key",
    "credentials",
];

/// Key names whose values are secrets, as the end of the key
/// (`db_password`, `GITHUB_TOKEN`, `clientSecret`), case-insensitive.
macro_rules! secret_key {
    () => {
        r"[a-z0-9_.-]*?(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|auth[_-]?key)"
    };
}

/// The default rules, most specific first: when two matches overlap, the
/// earlier rule names the redaction.
pub(super) const RULES: &[Rule] = &[
    rule(
        "private-key",
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\:,-]*)",
        &["private key"],
        Check::Shape,
    ),
    rule(
        "aws-access-key-id",
        r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z2-7]{16}\b",
        &[
            "a3t", "akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "aipa", "anpa", "anva",
            "apka",
        ],
        Check::Shape,
    ),
    rule(
        "aws-secret-access-key",
        r#"(?i)(?:aws_?secret_?(?:access_?)?key|secret_?access_?key|aws_?secret)["']?\s*(?::|=|=>)\s*["']?(?P<s>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)"#,
        &["secret"],
        Check::Shape,
    ),
    rule(
        "github-token",
        r"gh[pousr]_[A-Za-z0-9]{36,255}\b",
        &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
        Check::Shape,
    ),
    rule(
        "github-fine-grained-token",
        r"github_pat_[A-Za-z0-9_]{22,255}",
        &["github_pat_"],
        Check::Shape,
    ),
    rule(
        "gitlab-token",
        r"gl(?:pat|ptt|dt|rt|cbt|ft|imt|soat|agent)-[A-Za-z0-9_-]{20,}",
        &[
            "glpat-", "glptt-", "gldt-", "glrt-", "glcbt-", "glft-", "glimt-", "glsoat-",
            "glagent-",
        ],
        Check::Shape,
    ),
    rule(
        "slack-token",
        r"xox[abeoprs]-[A-Za-z0-9-]{10,}",
        &["xox"],
        Check::Shape,
    ),
    rule(
        "slack-app-token",
        r"xapp-\d-[A-Z0-9]+-\d+-[A-Za-z0-9]+",
        &["xapp-"],
        Check::Shape,
    ),
    rule(
        "slack-webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}",
        &["hooks.slack.com/"],
        Check::Shape,
    ),
    rule(
        "stripe-key",
        r"\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,255}\b",
        &["sk_", "rk_"],
        Check::Shape,
    ),
    rule(
        "stripe-webhook-secret",
        r"whsec_[A-Za-z0-9+/=]{24,}",
        &["whsec_"],
        Check::Shape,
    ),
    rule(
        "google-api-key",
        r"AIza[0-9A-Za-z_-]{35}",
        &["aiza"],
        Check::Shape,
    ),
    rule(
        "anthropic-key",
        r"sk-ant-[A-Za-z0-9_-]{20,}",
        &["sk-ant-"],
        Check::Shape,
    ),
    rule(
        "openai-key",
        r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}",
        &["sk-"],
        Check::Shape,
    ),
    rule(
        "openai-legacy-key",
        r"\bsk-[A-Za-z0-9]{20,}\b",
        &["sk-"],
        Check::Shape,
    ),
    rule(
        "npm-token",
        r"\bnpm_[A-Za-z0-9]{36}\b",
        &["npm_"],
        Check::Shape,
    ),
    rule(
        "pypi-token",
        r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}",
        &["pypi-"],
        Check::Shape,
    ),
    rule(
        "huggingface-token",
        r"\bhf_[A-Za-z0-9]{34,40}\b",
        &["hf_"],
        Check::Shape,
    ),
    rule(
        "sendgrid-key",
        r"\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b",
        &["sg."],
        Check::Shape,
    ),
    rule(
        "azure-storage-key",
        r#"(?i)(?:AccountKey|SharedAccessKey|azure_?storage_?(?:account_?)?key|azure_?(?:account_?)?key)["']?\s*(?::|=)\s*["']?(?P<s>[A-Za-z0-9+/]{40,86}={0,2})"#,
        &["accountkey", "sharedaccesskey", "azure"],
        Check::Shape,
    ),
    rule(
        "azure-sas-signature",
        r"[?&]sig=(?P<s>[A-Za-z0-9%+/=]{30,})",
        &["sig="],
        Check::Shape,
    ),
    rule(
        "twilio-api-key",
        r"\bSK[0-9a-fA-F]{32}\b",
        &["sk"],
        Check::Shape,
    ),
    rule(
        "twilio-credentials",
        r"\bAC[0-9a-f]{32}[:\s]+[0-9a-f]{32}\b",
        &["ac"],
        Check::Shape,
    ),
    rule(
        "twilio-auth-token",
        r#"(?i)twilio[a-z0-9_.-]{0,20}?(?:auth_?)?token["']?\s*(?::|=)\s*["']?(?P<s>[0-9a-f]{32})\b"#,
        &["twilio"],
        Check::Shape,
    ),
    rule(
        "jwt",
        r"\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}",
        &["eyj"],
        Check::Shape,
    ),
    rule(
        "url-password",
        r#"\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:/?#@'"]*:(?P<s>[^\s:/?#@'"]+)@[A-Za-z0-9\[]"#,
        &["://"],
        Check::Value,
    ),
    rule(
        "secret-assignment",
        r#"(?i)(?:\b|--)(?:export\s+)?[A-Za-z0-9_.-]*?(?:PASS|PASSWORD|PASSWD|PASSPHRASE|SECRET|SECRET_KEY|TOKEN|AUTHTOKEN|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|AUTH_KEY|CREDENTIALS)=(?P<s>"[^"\r\n]*"|'[^'\r\n]*'|[^\s'"`;&|)(]+)(?:[\s'"`;&|)]|$)"#,
        SECRET_KEY_WORDS,
        Check::Value,
    ),
    rule(
        "secret-assignment",
        concat!(
            r"(?i)\b",
            secret_key!(),
            r#"["']?\s*(?::|=|:=|=>)\s*(?P<s>"[^"\r\n]{0,200}"|'[^'\r\n]{0,200}')"#
        ),
        SECRET_KEY_WORDS,
        Check::Value,
    ),
    rule(
        "secret-assignment",
        concat!(
            r"(?im)^[ \t]*-?[ \t]*",
            secret_key!(),
            r"[ \t]*:[ \t]+(?P<s>[A-Za-z0-9_+/=.@!%^*~-]{1,200})[ \t]*\r?$"
        ),
        SECRET_KEY_WORDS,
        Check::Bare,
    ),
];

/// Values of secret-named keys that are not secrets: shorter than 6
/// characters; empty or quotes only; one character repeated (`xxxxxx`,
/// `******`); a reference (`$VAR`, `${VAR}`, `%VAR%`, `{{ var }}`,
/// `<your-token>`, `[REDACTED]`); a path or URL; or a word that marks an
/// example (`changeme`, `example`, `placeholder`, `your...`, `dummy`,
/// `redacted`, `xxx`, `***`, `...`, `password`, `secret`, type names).
#[must_use]
pub(super) fn is_placeholder(value: &str) -> bool {
    let v = value.trim();
    if v.chars().count() < 6 || v.chars().any(char::is_whitespace) {
        return true;
    }
    let mut chars = v.chars();
    if let Some(first) = chars.next()
        && chars.all(|c| c == first)
    {
        return true;
    }
    if ["$", "%", "<", "{", "[", "/", "~/", "./", "../", "\\"]
        .iter()
        .any(|p| v.starts_with(p))
        || v.contains("://")
        || is_attribute_path(v)
    {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    const MARKS: &[&str] = &[
        "changeme",
        "change_me",
        "change-me",
        "example",
        "placeholder",
        "your",
        "dummy",
        "redacted",
        "xxx",
        "***",
        "...",
        "<",
        "${",
        "{{",
        "replace",
        "insert",
    ];
    const WORDS: &[&str] = &[
        "password",
        "passwd",
        "secret",
        "token",
        "string",
        "str",
        "none",
        "null",
        "nil",
        "undefined",
        "required",
        "optional",
        "hidden",
        "masked",
        "default",
        "boolean",
        "number",
    ];
    const FILES: &[&str] = &[
        ".pem", ".key", ".json", ".txt", ".yaml", ".yml", ".toml", ".env",
    ];
    MARKS.iter().any(|m| lower.contains(m))
        || WORDS.contains(&lower.as_str())
        || FILES.iter().any(|f| lower.ends_with(f))
}

/// A bare word is a type or an identifier, not a secret: letters and `_`
/// only (`string`, `AccessToken`, `from_env`).
#[must_use]
pub(super) fn is_bare_word(value: &str) -> bool {
    value.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
}

/// A dotted path of identifiers (`settings.TOKEN`, `os.environ.get`,
/// `self.password`): code naming where a secret is, not the secret.
fn is_attribute_path(v: &str) -> bool {
    let ident = |p: &str| {
        p.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    v.contains('.') && v.split('.').all(ident)
}

/// Whether a match of `check` with this secret value is redacted.
#[must_use]
pub(super) fn accepts(check: Check, value: &str) -> bool {
    match check {
        Check::Shape => true,
        Check::Value => !is_placeholder(value),
        Check::Bare => !is_placeholder(value) && !is_bare_word(value),
    }
}
