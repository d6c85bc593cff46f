//! The event parser, under every dialect and with the dialect recognised
//! from the event itself: any bytes give an event or an error, never a panic.
#![no_main]
use hookrun::internals::dialect::Dialect;
use libfuzzer_sys::fuzz_target;

const DIALECTS: [Option<Dialect>; 7] = [
    None,
    Some(Dialect::Claude),
    Some(Dialect::Codex),
    Some(Dialect::PydanticDeep),
    Some(Dialect::Gemini),
    Some(Dialect::Cursor),
    Some(Dialect::Copilot),
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, raw)) = data.split_first() else {
        return;
    };
    let dialect = DIALECTS[usize::from(selector) % DIALECTS.len()];
    let forced = (selector & 0x80 != 0).then_some("PreToolUse");
    if let Ok(event) = hookrun::internals::dialect::read_event_as(raw, forced, dialect) {
        let _ = event.tool_input();
        let _ = event.str_field("tool_name");
    }
});
