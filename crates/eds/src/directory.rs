//! The Sternverzeichnis under the text Sternenkarte: every star as
//! "Nr. Xko Yko" and, for the viewer's own stars, the name; four entries a
//! line, two spaces apart, each line's end trimmed.
//!
//! Only the lines holding one of the viewer's own stars differ from the
//! public directory, so [`Directory`] writes the public one once for a
//! month's reports and each viewer's copies every other line from it.

use crate::columns::{push_int, push_left};
use std::collections::BTreeMap;
use std::ops::Range;

const PER_LINE: usize = 4;

/// The public directory of a star list (`[number, x, y]`, as the view's map).
pub struct Directory {
    stars: Vec<[i64; 3]>,
    text: String,
    /// `lines[i]` is the text of stars `4i..4i+4`, its newline included.
    lines: Vec<Range<usize>>,
}

impl Directory {
    pub fn new(stars: &[[i64; 3]]) -> Directory {
        let none = BTreeMap::new();
        let mut text = String::with_capacity(stars.len() * 27);
        let mut lines = Vec::with_capacity(stars.len().div_ceil(PER_LINE));
        for chunk in stars.chunks(PER_LINE) {
            let start = text.len();
            push_line(&mut text, chunk, &none);
            lines.push(start..text.len());
        }
        Directory {
            stars: stars.to_vec(),
            text,
            lines,
        }
    }
}

/// Appends the directory of `stars` with the viewer's own star `names`,
/// copying from `public` the lines without an own star. A public directory
/// made from another star list is not used.
pub fn push(
    s: &mut String,
    public: Option<&Directory>,
    stars: &[[i64; 3]],
    names: &BTreeMap<i64, &str>,
) {
    let Some(public) = public.filter(|d| d.stars == stars) else {
        for chunk in stars.chunks(PER_LINE) {
            push_line(s, chunk, names);
        }
        return;
    };
    for (chunk, line) in stars.chunks(PER_LINE).zip(&public.lines) {
        if chunk.iter().any(|[n, _, _]| names.contains_key(n)) {
            push_line(s, chunk, names);
        } else {
            s.push_str(public.text.get(line.clone()).unwrap_or_default());
        }
    }
}

fn push_line(s: &mut String, chunk: &[[i64; 3]], names: &BTreeMap<i64, &str>) {
    let start = s.len();
    for (k, &[n, x, y]) in chunk.iter().enumerate() {
        if k > 0 {
            s.push_str("  ");
        }
        push_int(s, n, 4);
        s.push(' ');
        push_int(s, x, 3);
        s.push(' ');
        push_int(s, y, 3);
        s.push(' ');
        push_left(s, names.get(&n).copied().unwrap_or_default(), 12);
    }
    let keep = s[start..].trim_end().len();
    s.truncate(start + keep);
    s.push('\n');
}
