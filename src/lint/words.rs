//! A hook command's words as a POSIX shell would pass them to the program:
//! split on unquoted blanks, quotes and backslashes removed, and the few
//! variables whose value `check` knows expanded where the shell expands
//! them (not inside single quotes). So `"$CLAUDE_PROJECT_DIR"/hooks/x.sh`
//! and `'/path with spaces/x.sh'` name the files they run.

use std::path::Path;

/// The values `check` substitutes; any other variable is left as written,
/// and a word that still holds `$` is not a path `check` can judge.
pub(super) struct Vars {
    pub project_dir: String,
    pub home: Option<String>,
    pub config_dir: String,
}

impl Vars {
    pub(super) fn new(project_dir: &Path, config_file: &Path) -> Self {
        Vars {
            project_dir: project_dir.display().to_string(),
            home: std::env::var("HOME").ok().filter(|h| !h.is_empty()),
            config_dir: crate::config::placeholder::config_dir(config_file)
                .display()
                .to_string(),
        }
    }

    fn get(&self, name: &str) -> Option<&str> {
        match name {
            // Gemini CLI sets both to the project directory.
            "CLAUDE_PROJECT_DIR" | "GEMINI_PROJECT_DIR" => Some(&self.project_dir),
            "HOME" => self.home.as_deref(),
            "HOOKRUN_CONFIG_DIR" => Some(&self.config_dir),
            _ => None,
        }
    }
}

/// Splits `command` into words, expanding `$NAME`, `${NAME}` and a leading
/// `~` (unquoted, alone or before `/`) from `vars`.
pub(super) fn split(command: &str, vars: &Vars) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut started = false;
    let mut chars = command.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                started = true;
                word.extend(chars.by_ref().take_while(|&q| q != '\''));
            }
            '"' => {
                started = true;
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        '$' => dollar(&mut chars, vars, &mut word),
                        other => word.push(other),
                    }
                }
            }
            '\\' => {
                started = true;
                word.extend(chars.next());
            }
            '$' => {
                started = true;
                dollar(&mut chars, vars, &mut word);
            }
            '~' if !started && matches!(chars.peek(), None | Some('/')) => {
                started = true;
                match &vars.home {
                    Some(h) => word.push_str(h),
                    None => word.push('~'),
                }
            }
            c if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            other => {
                started = true;
                word.push(other);
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// After a `$`: a known variable's value, else the text as written.
fn dollar(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, vars: &Vars, word: &mut String) {
    let braced = chars.peek() == Some(&'{');
    if braced {
        chars.next();
    }
    let mut name = String::new();
    while let Some(&n) = chars.peek() {
        if n.is_ascii_alphanumeric() || n == '_' {
            name.push(n);
            chars.next();
        } else {
            break;
        }
    }
    let closed = braced && chars.peek() == Some(&'}');
    if closed {
        chars.next();
    }
    match vars.get(&name) {
        Some(value) if !braced || closed => word.push_str(value),
        _ => {
            word.push('$');
            if braced {
                word.push('{');
            }
            word.push_str(&name);
            if closed {
                word.push('}');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> Vars {
        Vars {
            project_dir: "/p".into(),
            home: Some("/h".into()),
            config_dir: "/c d".into(),
        }
    }

    #[test]
    fn quotes_backslashes_and_known_variables() {
        let v = vars();
        assert_eq!(
            split(r#""$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh a\ b"#, &v),
            ["/p/.claude/hooks/check.sh", "a b"]
        );
        assert_eq!(
            split("'/x y/s.sh' ${HOOKRUN_CONFIG_DIR}/z ~/q ~u $HOME", &v),
            ["/x y/s.sh", "/c d/z", "/h/q", "~u", "/h"]
        );
    }

    #[test]
    fn single_quotes_and_unknown_variables_stay_as_written() {
        let v = vars();
        assert_eq!(
            split("'$HOME/x' $OTHER/y ${NOPE}/z $(pwd)/w", &v),
            ["$HOME/x", "$OTHER/y", "${NOPE}/z", "$(pwd)/w"]
        );
    }
}
