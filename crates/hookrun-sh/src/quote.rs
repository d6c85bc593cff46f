//! ANSI-C quoting, `$'…'`: every escape bash decodes, so `$'\x72\x6d'` is
//! read as the `rm` it runs.

/// Decodes the inside of `$'…'` (`src` starts after the opening quote)
/// into `out`, up to and including the closing quote or the end of the
/// input; returns how many bytes it read.
///
/// A NUL byte (`\0`, `\x00`, `\c@`) ends the string there, as in bash,
/// which keeps words as C strings: `$'/etc\x00/tmp'` is `/etc`.
pub(super) fn ansi_c(src: &[u8], out: &mut Vec<u8>) -> usize {
    let start = out.len();
    let mut cur = Cursor { src, i: 0 };
    while let Some(c) = cur.next() {
        match c {
            b'\'' => break,
            b'\\' => escape(&mut cur, out),
            other => out.push(other),
        }
    }
    if let Some(nul) = out[start..].iter().position(|&b| b == 0) {
        out.truncate(start + nul);
    }
    cur.i
}

struct Cursor<'a> {
    src: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.src.get(self.i).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    /// Up to `max` digits in `radix`: their value and how many there were.
    fn digits(&mut self, radix: u32, max: u32) -> Option<(u32, u32)> {
        let mut value: Option<(u32, u32)> = None;
        for _ in 0..max {
            let Some(d) = self.peek().and_then(|c| char::from(c).to_digit(radix)) else {
                break;
            };
            self.i += 1;
            let (v, n) = value.unwrap_or((0, 0));
            value = Some((v.saturating_mul(radix).saturating_add(d), n + 1));
        }
        value
    }
}

/// One escape after its backslash.
fn escape(cur: &mut Cursor<'_>, out: &mut Vec<u8>) {
    let Some(e) = cur.next() else {
        out.push(b'\\');
        return;
    };
    let simple = match e {
        b'a' => Some(0x07),
        b'b' => Some(0x08),
        b'e' | b'E' => Some(0x1b),
        b'f' => Some(0x0c),
        b'n' => Some(b'\n'),
        b'r' => Some(b'\r'),
        b't' => Some(b'\t'),
        b'v' => Some(0x0b),
        b'\\' | b'\'' | b'"' | b'?' => Some(e),
        _ => None,
    };
    if let Some(b) = simple {
        out.push(b);
        return;
    }
    match e {
        // `\NNN`: one to three octal digits, a byte.
        b'0'..=b'7' => {
            let first = u32::from(e - b'0');
            let v = cur
                .digits(8, 2)
                .map_or(first, |(v, n)| first * 8u32.pow(n) + v);
            out.push(low_byte(v));
        }
        b'x' => match cur.digits(16, 2) {
            Some((v, _)) => out.push(low_byte(v)),
            None => out.extend_from_slice(b"\\x"),
        },
        b'u' | b'U' => {
            let max = if e == b'u' { 4 } else { 8 };
            match cur.digits(16, max).and_then(|(v, _)| char::from_u32(v)) {
                Some(ch) => {
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                None => out.extend_from_slice(&[b'\\', e]),
            }
        }
        // `\cX`: the control character of X.
        b'c' => match cur.next() {
            Some(x) => out.push(x & 0x1f),
            None => out.extend_from_slice(b"\\c"),
        },
        other => out.extend_from_slice(&[b'\\', other]),
    }
}

fn low_byte(v: u32) -> u8 {
    v.to_le_bytes()[0]
}
