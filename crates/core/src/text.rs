//! Lexical helpers shared by the order parsers.
//!
//! Real mail clients put tabs, non-breaking spaces, a BOM or CRLF between
//! tokens; every parser sees lines already normalised by [`normalize_line`].
//! Rulesets write their grammars with `nom` (re-exported here so every crate
//! uses the same version) and drive them line by line with [`parse_lines`].

pub use nom;

use crate::orders::Parsed;

/// Tabs, NBSP, narrow NBSP and other Unicode spaces become one ASCII space; a
/// BOM and trailing CR vanish; runs of spaces collapse; the ends are trimmed.
pub fn normalize_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut space = false;
    for c in line.chars() {
        let c = match c {
            '\u{feff}' | '\r' | '\u{200b}' => continue,
            c if c.is_whitespace() => ' ',
            c => c,
        };
        if c == ' ' {
            if !space && !out.is_empty() {
                out.push(' ');
            }
            space = true;
        } else {
            out.push(c);
            space = false;
        }
    }
    if out.ends_with(' ') {
        out.pop();
    }
    out
}

/// The numbered, normalised, non-empty lines of an order block (1-based).
pub fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, String)> + '_ {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, normalize_line(l)))
        .filter(|(_, l)| !l.is_empty())
}

/// A grammar for one line of orders. `&mut self` lets a parser keep context
/// between lines (the current section of an EDS Befehlsblatt, say).
pub trait LineParser {
    type Order;

    /// A comment line, never an order. Default: starts with `#`.
    fn is_comment(&self, line: &str) -> bool {
        line.starts_with('#')
    }

    /// Parse one normalised line into zero or more orders and diagnostics,
    /// pushing them into `out` with the given line number.
    fn parse_line(&mut self, line_no: usize, line: &str, out: &mut Parsed<Self::Order>);
}

/// Drive a [`LineParser`] over a whole block: never stops at the first error.
pub fn parse_lines<P: LineParser>(parser: &mut P, text: &str) -> Parsed<P::Order> {
    let mut out = Parsed::new();
    for (no, line) in numbered_lines(text) {
        if parser.is_comment(&line) {
            continue;
        }
        parser.parse_line(no, &line, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_what_mail_clients_send() {
        assert_eq!(normalize_line("\u{feff}F_11\u{a0}\tM_12  \r"), "F_11 M_12");
        assert_eq!(normalize_line("   "), "");
    }

    struct Words;
    impl LineParser for Words {
        type Order = String;
        fn parse_line(&mut self, no: usize, line: &str, out: &mut Parsed<String>) {
            if line.starts_with("BAD") {
                out.error(no, line, "bad");
            } else {
                out.push(no, line, line.to_string());
            }
        }
    }

    #[test]
    fn parse_lines_keeps_going_after_errors() {
        let p = parse_lines(&mut Words, "A\n\nBAD 1\n# comment\nB\nBAD 2");
        assert_eq!(p.orders.iter().map(|o| o.line).collect::<Vec<_>>(), vec![1, 5]);
        assert_eq!(p.diagnostics.iter().map(|d| d.line).collect::<Vec<_>>(), vec![3, 6]);
    }
}
