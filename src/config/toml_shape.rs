//! Every shape error of a hookrun TOML file, not only serde's first: the
//! file without its hooks, then each `[[hooks]]` entry on its own, are
//! deserialized from the parsed (spanned) document, so `check` names each
//! unknown key and wrong type with its line. `run` still stops at the
//! first; this only runs once the whole file has failed.

use toml::Spanned;
use toml::de::{DeTable, DeValue, Deserializer, ValueDeserializer};

use super::toml_raw::{RawFile, RawHook};

/// One part's error: the file's own keys, or hook `i`.
pub(super) enum Failure {
    File(serde_path_to_error::Error<toml::de::Error>),
    Hook(usize, serde_path_to_error::Error<toml::de::Error>),
}

/// The error of each part that fails, in file order.
pub(super) fn every_error(table: Spanned<DeTable<'_>>) -> Vec<Failure> {
    let span = table.span();
    let mut root = table.into_inner();
    let hooks = root.remove("hooks");
    let mut out = Vec::new();
    let file = Deserializer::from(Spanned::new(span, root));
    if let Err(e) = serde_path_to_error::deserialize::<_, RawFile>(file) {
        out.push(Failure::File(e));
    }
    let Some(hooks) = hooks else {
        return out;
    };
    // Hooks that are not a list of tables: the whole-file error says so.
    if let DeValue::Array(items) = hooks.into_inner() {
        for (i, item) in items.into_iter().enumerate() {
            let de = ValueDeserializer::from(item);
            if let Err(e) = serde_path_to_error::deserialize::<_, RawHook>(de) {
                out.push(Failure::Hook(i, e));
            }
        }
    }
    out
}
