//! Quoted-printable (RFC 2045 §6.7), written as the `quoted_printable`
//! crate's `encode` writes it (text mode, lines of 76 characters), byte for
//! byte: the same soft line breaks at the same places, the same escapes,
//! a space or tab before a line end escaped.
//!
//! Why not call it: it builds a `String` a `char` at a time, checking each
//! one's UTF-8 length, and was 4.5 % of the inbox's instructions (the
//! French confirmations are quoted-printable) and a share of every turn's
//! report mails (issue 22 items 1 and 4). Here the runs of bytes that need
//! no escape, most of a French text, are copied as slices.
//! `tests::qp_is_quoted_printables` runs both on seeded random texts built
//! to hit every branch: the 76th column, a CR without LF, a space or tab at
//! a line's end, `=`, bytes above 127.

/// Characters on an encoded line, its soft break's `=` included.
const LIMIT: usize = 76;

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn needs_encoding(c: u8) -> bool {
    !matches!(c, b'\t' | b' '..=b'~') || c == b'='
}

/// `input` in quoted-printable, a CRLF in it staying a line end.
pub(crate) fn encode(input: &[u8]) -> Vec<u8> {
    // The crate's first guess, not more: a French text outgrows it by a
    // few per cent and doubles once either way, and a larger guess that
    // still falls short doubles into more (a 10 MB confirmation's peak went
    // from 4.9 to 5.5 times the mail with an eighth more here,
    // big_order_mail_peak_rss_bounded).
    let mut w = Writer {
        out: Vec::with_capacity(input.len()),
        on_line: 0,
        backup: 0,
    };
    let mut was_cr = false;
    let mut i = 0;
    while i < input.len() {
        let byte = input[i];
        i += 1;
        if was_cr {
            if byte == b'\n' {
                w.escape_trailing_space_or_tab();
                w.out.extend_from_slice(b"\r\n");
                w.on_line = 0;
                was_cr = false;
                continue;
            }
            w.append(b"=0D");
        }
        if byte == b'\r' {
            was_cr = true;
            continue;
        }
        was_cr = false;
        if LIMIT - w.on_line >= 3 && !needs_encoding(byte) {
            // A run of plain bytes, kept two columns short of the limit
            // so that an escape or a soft break still fits after it.
            let start = i - 1;
            let cap = input.len().min(start + (LIMIT - w.on_line - 2));
            let mut end = i;
            while end < cap && !needs_encoding(input[end]) {
                end += 1;
            }
            w.out.extend_from_slice(&input[start..end]);
            w.on_line += end - start;
            // The crate's choice: after a run, a soft break that no longer
            // fits goes at the end of the run, not before its last byte.
            w.backup = w.out.len();
            i = end;
            continue;
        }
        match byte {
            b'=' => w.append(b"=3D"),
            b'\t' | b' '..=b'~' => w.append(&[byte]),
            _ => w.append(&[
                b'=',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 15)],
            ]),
        }
    }
    if was_cr {
        w.append(b"=0D");
    } else {
        w.escape_trailing_space_or_tab();
    }
    w.out
}

struct Writer {
    out: Vec<u8>,
    /// Characters on the current encoded line.
    on_line: usize,
    /// Where the last thing appended starts: a soft break that does not
    /// fit at the end of a full line goes there.
    backup: usize,
}

impl Writer {
    fn append(&mut self, piece: &[u8]) {
        if self.on_line + piece.len() > LIMIT {
            if self.on_line == LIMIT {
                self.on_line = self.out.len() - self.backup;
                self.out.splice(self.backup..self.backup, *b"=\r\n");
            } else {
                self.out.extend_from_slice(b"=\r\n");
                self.on_line = 0;
            }
        }
        self.out.extend_from_slice(piece);
        self.on_line += piece.len();
        self.backup = self.out.len() - piece.len();
    }

    /// A space or tab may not end an encoded line (RFC 2045 §6.7 rule 3).
    fn escape_trailing_space_or_tab(&mut self) {
        let escaped: &[u8] = match self.out.last() {
            Some(b' ') => b"=20",
            Some(b'\t') => b"=09",
            _ => return,
        };
        self.out.pop();
        self.on_line -= 1;
        self.append(escaped);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    fn same(input: &[u8]) {
        assert_eq!(
            String::from_utf8_lossy(&encode(input)),
            String::from_utf8_lossy(&quoted_printable::encode(input)),
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }

    #[test]
    fn qp_is_quoted_printables() {
        let pieces: [&[u8]; 14] = [
            b"a",
            b"Ordre accept\xc3\xa9 ",
            b" ",
            b"\t",
            b"=",
            b"\r\n",
            b"\r",
            b"\n",
            b"\xc3\xa9",
            b"\x00",
            b"\x7f",
            b"\xff",
            b"Befehl: Flotte 12 nach Stern 40",
            b"x",
        ];
        let mut rng = Rng(0x2045);
        for _ in 0..40_000 {
            let mut input = Vec::new();
            let n = rng.below(40);
            for _ in 0..n {
                input.extend_from_slice(pieces[rng.below(pieces.len())]);
            }
            same(&input);
        }
        // Every column of the limit, with each kind of byte there.
        for k in 60..160 {
            for tail in [
                &b""[..],
                b" ",
                b"\t",
                b" \r\n",
                b"\t\r\nx",
                b"=",
                b"\xc3\xa9",
                b"\r",
                b"ab ",
            ] {
                let mut input = vec![b'a'; k];
                input.extend_from_slice(tail);
                same(&input);
                let mut input = b"=".repeat(k / 3);
                input.extend_from_slice(tail);
                same(&input);
                let mut input = b"\xc3\xa9".repeat(k / 2);
                input.extend_from_slice(tail);
                input.extend_from_slice(&[b'b'; 80]);
                same(&input);
            }
        }
        same(b"");
        same(&b"Le tour 3 est r\xc3\xa9solu.\r\n".repeat(2_000));
    }
}
