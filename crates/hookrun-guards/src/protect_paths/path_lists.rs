//! The default lists of `protect-paths`: what is denied to read, to write,
//! and what is exempt.

/// Sensitive to read and to write.
pub(crate) const READ_DENY: &[&str] = &[
    "**/.ssh",
    "**/.ssh/**",
    "**/.env",
    "**/.env.*",
    "**/.aws/credentials",
    "**/.config/gcloud",
    "**/.config/gcloud/**",
    "**/application_default_credentials.json",
    "/etc/shadow",
    "/etc/gshadow",
];

/// Sensitive to write (on top of `READ_DENY`).
pub(crate) const WRITE_DENY: &[&str] = &[
    "/etc/passwd",
    "/etc/group",
    "/etc/sudoers",
    "/etc/sudoers.d/**",
    "/etc/cron*",
    "/etc/cron*/**",
    "/var/spool/cron/**",
    "**/.bashrc",
    "**/.bash_profile",
    "**/.bash_login",
    "**/.bash_logout",
    "**/.profile",
    "**/.zshrc",
    "**/.zprofile",
    "**/.zshenv",
    "**/.zlogin",
    "**/.config/fish/config.fish",
];

/// Exempt from the deny lists: templates that hold no secrets, and (`./`,
/// anchored at the project) shell start-up files kept in a project, which
/// are only templates there. `./` entries never apply when the project is
/// the home directory, `/`, or holds the home directory.
pub(crate) const ALLOW: &[&str] = &[
    "**/.env.example",
    "**/.env.sample",
    "**/.env.template",
    "**/.env.dist",
    "./**/.bashrc",
    "./**/.bash_profile",
    "./**/.bash_login",
    "./**/.bash_logout",
    "./**/.profile",
    "./**/.zshrc",
    "./**/.zprofile",
    "./**/.zshenv",
    "./**/.zlogin",
    "./**/.config/fish/config.fish",
];
