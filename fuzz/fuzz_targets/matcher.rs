//! The matcher: any pattern, in either syntax, against any tool name;
//! compiling and matching never panic and never run away.
#![no_main]
use hookrun::internals::events::NameSet;
use hookrun::internals::matcher::{Matcher, Syntax};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (pattern, query) = text.split_once('\0').unwrap_or((text, "Bash"));
    for syntax in [Syntax::Claude, Syntax::Regex] {
        let matcher = Matcher::with_syntax(pattern, syntax);
        for names in [NameSet::Narrow, NameSet::Wide] {
            let _ = matcher.regex_error(names);
            let _ = matcher.listed_names(names);
            let _ = matcher.matches(names, query);
        }
    }
});
