//! `serve`'s input: any bytes, cut into lines with a cap and fed in chunks
//! of any size, give the same lines however they are chunked, none longer
//! than the cap, and each line gives an event or an error, never a panic
//! (not UTF-8, over-long, not JSON).
#![no_main]
use hookrun::internals::event::{split_all, Line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&[cap, chunk], input)) = data.split_first_chunk::<2>() else {
        return;
    };
    let (cap, chunk) = (usize::from(cap), usize::from(chunk).max(1));
    let lines = split_all(input, cap, chunk);
    assert_eq!(lines, split_all(input, cap, input.len().max(1)));
    for line in lines {
        if let Line::Complete(bytes) = line {
            assert!(bytes.len() <= cap && !bytes.contains(&b'\n'));
            let _ = hookrun::internals::dialect::read_event_as(bytes, None, None);
        }
    }
});
