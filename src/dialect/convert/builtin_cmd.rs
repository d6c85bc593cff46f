//! `hookrun builtin NAME …` command lines read back as the built-in hook
//! they run, so a converted hooks file turns into `builtin = NAME` again
//! (Claude Code's reader and the Gemini/Cursor/Copilot one share it).

use serde_json::Value;

/// `hookrun builtin NAME [--options JSON] [--option K=V]... [--mode M]`,
/// read back into a built-in hook: (name, options, mode). Anything else on
/// the line keeps it an ordinary command.
pub fn builtin_of(command: &str) -> Option<(String, Option<toml::Value>, Option<String>)> {
    let pipelines = hookrun_sh::parse(command);
    let [pipeline] = pipelines.as_slice() else {
        return None;
    };
    let [cmd] = pipeline.as_slice() else {
        return None;
    };
    if !cmd.redirects.is_empty() || !cmd.substitutions.is_empty() {
        return None;
    }
    let mut words = cmd.words.iter();
    if words.next()?.rsplit('/').next()? != "hookrun" || words.next()? != "builtin" {
        return None;
    }
    let name = words.next()?.clone();
    let mut options = serde_json::Map::new();
    let mut mode = None;
    while let Some(flag) = words.next() {
        let value = words.next()?;
        match flag.as_str() {
            "--options" => match serde_json::from_str(value).ok()? {
                Value::Object(m) => options.extend(m),
                _ => return None,
            },
            "--option" => {
                let (k, v) = value.split_once('=')?;
                options.insert(
                    k.to_owned(),
                    serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.to_owned())),
                );
            }
            "--mode" => mode = Some(value.clone()),
            _ => return None,
        }
    }
    let options = (!options.is_empty())
        .then(|| toml::Value::try_from(Value::Object(options)).ok())
        .flatten();
    Some((name, options, mode.filter(|m| m != "enforce")))
}
