//! Byte-level decoding of one MIME text part: transfer encodings
//! (RFC 2045), charsets, line endings and format=flowed (RFC 3676).
//!
//! Why not take mail-parser's already decoded text: it decodes with the
//! declared charset and replaces invalid bytes, so a client that declares
//! UTF-8 but sends Latin-1 (common with old webmails and hand-written
//! scripts) would lose the accents of a French or German order. We re-decode
//! the part's raw bytes here with the rule "declared charset, then UTF-8 if
//! valid, then Latin-1 (Windows-1252)". The decoders are lenient: garbage
//! characters are skipped, never an error, because a player's mail must
//! always yield some text to answer about.

use std::borrow::Cow;

use mail_parser::decoders::charsets::map::charset_decoder;

/// Decodes base64, skipping anything outside the alphabet (line breaks,
/// spaces, garbage) and stopping at padding.
pub fn base64_lenient(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() / 4 * 3);
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    for &c in input {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                // Padding ends a quantum; restart cleanly for concatenated blobs.
                acc = 0;
                bits = 0;
                continue;
            }
            _ => continue,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// Decodes quoted-printable: `=XX` escapes, `=` soft line breaks (with CRLF,
/// LF or trailing whitespace before the break); malformed escapes are kept
/// literally, as RFC 2045 §6.7 recommends.
pub fn quoted_printable_lenient(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        let c = input[i];
        if c != b'=' {
            out.push(c);
            i += 1;
            continue;
        }
        // Soft line break: '=' followed by optional whitespace then a newline.
        let mut j = i + 1;
        while j < input.len() && (input[j] == b' ' || input[j] == b'\t') {
            j += 1;
        }
        if j < input.len() && (input[j] == b'\r' || input[j] == b'\n') {
            if input[j] == b'\r' && j + 1 < input.len() && input[j + 1] == b'\n' {
                j += 1;
            }
            i = j + 1;
            continue;
        }
        if j >= input.len() {
            // '=' at the very end: a soft break without newline.
            break;
        }
        if i + 2 < input.len() {
            if let (Some(h), Some(l)) = (hex(input[i + 1]), hex(input[i + 2])) {
                out.push(h << 4 | l);
                i += 3;
                continue;
            }
        }
        out.push(b'=');
        i += 1;
    }
    out
}

fn hex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Charsets that are "Latin" single-byte encodings, where valid UTF-8 with
/// non-ASCII characters is far more likely a lying label than real text
/// (`Ã©` is never what a player meant).
fn is_latin_label(label: &str) -> bool {
    matches!(
        label,
        "iso-8859-1"
            | "iso8859-1"
            | "iso_8859-1"
            | "latin1"
            | "latin-1"
            | "l1"
            | "iso-8859-15"
            | "iso8859-15"
            | "latin9"
            | "windows-1252"
            | "cp1252"
            | "x-cp1252"
            | "us-ascii"
            | "ascii"
    )
}

fn is_utf8_label(label: &str) -> bool {
    matches!(label, "utf-8" | "utf8" | "x-utf8" | "unicode-1-1-utf-8")
}

/// Windows-1252 (the superset of Latin-1 that mailers actually send: curly
/// quotes, euro sign and œ live in 0x80–0x9F).
pub fn windows_1252(bytes: &[u8]) -> String {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    bytes
        .iter()
        .map(|&b| match b {
            0x80..=0x9F => HIGH[usize::from(b - 0x80)],
            _ => char::from(b),
        })
        .collect()
}

/// Turns the bytes of a text part into a string: declared charset first
/// (except that a Latin label on valid non-ASCII UTF-8 is a lie), then UTF-8
/// if valid, then Windows-1252.
pub fn decode_charset(bytes: &[u8], declared: Option<&str>) -> String {
    decode_charset_cow(bytes, declared).into_owned()
}

/// [`decode_charset`] borrowing `bytes` when they are already the UTF-8 text
/// (the common case): a 10 MiB part is then not copied once more (issue 14
/// item 1).
pub fn decode_charset_cow<'a>(bytes: &'a [u8], declared: Option<&str>) -> Cow<'a, str> {
    let label = declared.map(|l| l.trim().trim_matches('"').to_ascii_lowercase());
    let utf8 = std::str::from_utf8(bytes).ok();
    match label.as_deref() {
        None => {}
        Some(l) if is_utf8_label(l) => {}
        Some(l) if is_latin_label(l) => {
            if let Some(s) = utf8.filter(|s| !s.is_ascii()) {
                return Cow::Borrowed(s);
            }
            return Cow::Owned(windows_1252(bytes));
        }
        Some(l) => {
            if let Some(decoder) = charset_decoder(l.as_bytes()) {
                return Cow::Owned(decoder(bytes));
            }
        }
    }
    match utf8 {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(windows_1252(bytes)),
    }
}

/// Removes a leading byte-order mark and turns CRLF and lone CR into LF.
pub fn normalize_text(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push('\n');
            }
            // A BOM in the middle (concatenated parts) is noise too.
            '\u{feff}' => {}
            _ => out.push(c),
        }
    }
    out
}

/// Undoes format=flowed (RFC 3676) on LF-normalised text: a line ending in a
/// space continues on the next line of the same quote depth; space-stuffing is
/// removed; the signature separator `-- ` is never a soft break. With
/// `delsp=yes` the trailing space of a soft break is deleted.
pub fn unflow(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    // (quote depth, accumulated content) of the paragraph being joined.
    let mut open: Option<(usize, String)> = None;
    let (body, trailing_newline) = match text.strip_suffix('\n') {
        Some(b) => (b, true),
        None => (text, false),
    };
    for line in body.split('\n') {
        let depth = line.bytes().take_while(|&b| b == b'>').count();
        let mut content = &line[depth..];
        if let Some(rest) = content.strip_prefix(' ') {
            content = rest;
        }
        let is_sig = content == "-- ";
        let soft = !is_sig && content.ends_with(' ');
        let piece = if soft && delsp {
            &content[..content.len() - 1]
        } else {
            content
        };
        match open.take() {
            Some((d, mut acc)) if d == depth => {
                acc.push_str(piece);
                if soft {
                    open = Some((d, acc));
                } else {
                    push_line(&mut out, d, &acc);
                }
            }
            previous => {
                if let Some((d, acc)) = previous {
                    push_line(&mut out, d, &acc);
                }
                if soft {
                    open = Some((depth, piece.to_owned()));
                } else {
                    push_line(&mut out, depth, piece);
                }
            }
        }
    }
    if let Some((d, acc)) = open {
        push_line(&mut out, d, &acc);
    }
    // push_line ends every line with a newline; keep the original ending.
    if !trailing_newline {
        out.pop();
    }
    out
}

fn push_line(out: &mut String, depth: usize, content: &str) {
    if depth > 0 {
        out.extend(std::iter::repeat_n('>', depth));
        out.push(' ');
    }
    out.push_str(content);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_skips_garbage_and_newlines() {
        assert_eq!(base64_lenient(b"SGVs\r\nbG8=\r\n"), b"Hello");
        assert_eq!(base64_lenient(b"SGVsbG8*!"), b"Hello");
    }

    #[test]
    fn quoted_printable_soft_breaks_and_bad_escapes() {
        assert_eq!(
            quoted_printable_lenient(b"caf=C3=A9 =\r\nau lait"),
            "café au lait".as_bytes()
        );
        assert_eq!(quoted_printable_lenient(b"a=ZZb="), b"a=ZZb");
        assert_eq!(quoted_printable_lenient(b"x=4"), b"x=4");
    }

    #[test]
    fn charset_rules() {
        assert_eq!(decode_charset(b"d\xe9j\xe0", Some("iso-8859-1")), "déjà");
        assert_eq!(decode_charset(b"\x93ok\x94", Some("windows-1252")), "“ok”");
        // Declared UTF-8 but Latin-1 bytes: falls back.
        assert_eq!(decode_charset(b"d\xe9j\xe0", Some("utf-8")), "déjà");
        // Declared Latin-1 but valid UTF-8: the label lies.
        assert_eq!(
            decode_charset("déjà".as_bytes(), Some("ISO-8859-1")),
            "déjà"
        );
        // Unknown label.
        assert_eq!(
            decode_charset("Grüße".as_bytes(), Some("x-klingon")),
            "Grüße"
        );
        assert_eq!(decode_charset(b"Gr\xfc\xdfe", Some("x-klingon")), "Grüße");
    }

    #[test]
    fn normalize_strips_bom_and_crlf() {
        assert_eq!(normalize_text("\u{feff}a\r\nb\rc\n"), "a\nb\nc\n");
    }

    #[test]
    fn unflow_joins_soft_breaks() {
        let text = "GAME g1 PLAYER alice \nPASSWORD pw\n>quoted \n>more\n-- \nsig\n";
        assert_eq!(
            unflow(text, false),
            "GAME g1 PLAYER alice PASSWORD pw\n> quoted more\n-- \nsig\n"
        );
        assert_eq!(unflow("ab \ncd", true), "abcd");
        assert_eq!(unflow(" >stuffed", false), ">stuffed");
    }
}
