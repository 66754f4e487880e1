//! A report's typed view kept as the JSON text the report mail carries
//! (issue 22 item 5), not as a `serde_json::Value` tree.
//!
//! A turn's reports are all held until they are mailed, and a view of a
//! large map as a `Value` costs many times its text (a map node, a `String`
//! key and a 32-byte `Value` per field). The text is also mostly the same
//! from viewer to viewer (the public map), so it is made of pieces, some of
//! which several reports share (`Arc<str>` ranges), and is flattened only
//! when one JSON report is written.
//!
//! The text is exactly what `serde_json::to_vec_pretty` writes for the
//! view's `Value` one level down in an object (the `view` field of the JSON
//! report): keys sorted (no `preserve_order`), two spaces of indentation,
//! every line after the first indented two more. So the JSON report's bytes
//! are the same as when it held the `Value`.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::ops::Range;
use std::sync::Arc;

#[derive(Clone, Debug)]
struct Piece {
    text: Arc<str>,
    range: Range<usize>,
}

impl Piece {
    fn as_str(&self) -> &str {
        self.text.get(self.range.clone()).unwrap_or("")
    }
}

/// A view's JSON text, in pieces (see the module's documentation).
#[derive(Clone, Debug, Default)]
pub struct ViewJson {
    pieces: Vec<Piece>,
    /// Text not yet made a piece (the builder's tail).
    tail: String,
}

/// `text` (pretty JSON at the top level) indented as the value of a
/// field `depth` levels down: serde_json escapes every control character
/// in a string, so each newline of its output is one it put between tokens.
pub fn nest(text: &str, depth: usize) -> String {
    let pad = format!("\n{}", "  ".repeat(depth));
    text.replace('\n', &pad)
}

/// `v` as pretty JSON, `depth` levels down: [`nest`] of
/// `serde_json::to_string_pretty(v)`, written in one pass by a formatter
/// whose indentation starts `depth` levels in (the copy `nest` makes was a
/// share of every report's view, issue 22 item 4).
pub fn pretty_at(v: &Value, depth: usize) -> String {
    let mut out = Vec::with_capacity(128);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Nested::at(depth));
    // A `Value` always serialises (its map keys are strings) into a `Vec`.
    if v.serialize(&mut ser).is_err() {
        return String::new();
    }
    // serde_json writes UTF-8 only.
    String::from_utf8(out).unwrap_or_default()
}

/// serde_json's `PrettyFormatter` (two spaces) with its indentation
/// starting at `current` levels instead of none: each newline it writes
/// between tokens is followed by the indentation, so starting deeper is
/// exactly what [`nest`] makes of its output.
struct Nested {
    current: usize,
    has_value: bool,
}

impl Nested {
    fn at(depth: usize) -> Nested {
        Nested {
            current: depth,
            has_value: false,
        }
    }

    fn indent<W: ?Sized + std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        for _ in 0..self.current {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn open<W: ?Sized + std::io::Write>(&mut self, w: &mut W, b: &[u8]) -> std::io::Result<()> {
        self.current += 1;
        self.has_value = false;
        w.write_all(b)
    }

    fn close<W: ?Sized + std::io::Write>(&mut self, w: &mut W, b: &[u8]) -> std::io::Result<()> {
        self.current -= 1;
        if self.has_value {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        w.write_all(b)
    }

    fn item<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent(w)
    }
}

impl serde_json::ser::Formatter for Nested {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

impl ViewJson {
    /// `view` as the JSON report writes it; `None` for a view that does not
    /// serialise (a map with non-string keys: a ruleset bug that its schema
    /// test catches).
    pub fn of<T: Serialize>(view: &T) -> Option<ViewJson> {
        serde_json::to_value(view)
            .ok()
            .map(|v| ViewJson::of_value(&v))
    }

    pub fn of_value(v: &Value) -> ViewJson {
        let mut j = ViewJson::default();
        j.push_str(&pretty_at(v, 1));
        j.done()
    }

    /// Appends text of this report only.
    pub fn push_str(&mut self, s: &str) {
        self.tail.push_str(s);
    }

    /// Appends `range` of `text`, which other reports hold too.
    pub fn push_shared(&mut self, text: &Arc<str>, range: Range<usize>) {
        if range.is_empty() {
            return;
        }
        self.flush();
        self.pieces.push(Piece {
            text: Arc::clone(text),
            range,
        });
    }

    fn flush(&mut self) {
        if !self.tail.is_empty() {
            let text: Arc<str> = Arc::from(std::mem::take(&mut self.tail));
            let range = 0..text.len();
            self.pieces.push(Piece { text, range });
        }
    }

    /// Ends the building: the last text of this report's own becomes a
    /// piece of its exact size.
    pub fn done(mut self) -> ViewJson {
        self.flush();
        self
    }

    fn parts(&self) -> impl Iterator<Item = &str> {
        self.pieces
            .iter()
            .map(Piece::as_str)
            .chain(std::iter::once(self.tail.as_str()))
    }

    pub fn len(&self) -> usize {
        self.parts().map(str::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The whole text (one report's worth: write it, then drop it).
    pub fn text(&self) -> String {
        let mut s = String::with_capacity(self.len());
        for p in self.parts() {
            s.push_str(p);
        }
        s
    }

    /// The view as a `Value`, for a reader that walks it (a test, echeck).
    pub fn value(&self) -> Result<Value, serde_json::Error> {
        serde_json::from_str(&self.text())
    }
}

impl PartialEq for ViewJson {
    fn eq(&self, other: &ViewJson) -> bool {
        self.len() == other.len() && self.text() == other.text()
    }
}

impl Eq for ViewJson {}

/// As the `Value` it is the text of, so that a serialised [`crate::Report`]
/// reads as it did when the view was a `Value`.
impl Serialize for ViewJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value()
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }
}

impl<'de> Deserialize<'de> for ViewJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ViewJson, D::Error> {
        Value::deserialize(d).map(|v| ViewJson::of_value(&v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The one-pass writer against what it replaced (`nest` of serde_json's
    /// pretty text) on seeded random values: nested and empty arrays and
    /// objects, strings with escapes, numbers of every kind.
    #[test]
    fn pretty_at_is_nest_of_the_pretty_text() {
        let mut seed: u64 = 22;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        fn gen(next: &mut dyn FnMut(u64) -> u64, depth: u32) -> Value {
            match next(if depth > 3 { 6 } else { 8 }) {
                0 => Value::Null,
                1 => json!(next(2) == 1),
                2 => json!(next(1000) as i64 - 500),
                3 => json!(next(1000) as f64 / 7.0),
                4 => json!(["a\nb", "\"q\"", "é\t\u{1}", "", "x"][next(5) as usize]),
                5 => json!(u64::MAX - next(3)),
                6 => Value::Array((0..next(4)).map(|_| gen(next, depth + 1)).collect()),
                _ => Value::Object(
                    (0..next(4))
                        .map(|k| (format!("k{}", (k + next(3)) % 5), gen(next, depth + 1)))
                        .collect(),
                ),
            }
        }
        for _ in 0..3_000 {
            let v = gen(&mut next, 0);
            for depth in 0..5 {
                let pretty = serde_json::to_string_pretty(&v).unwrap();
                assert_eq!(pretty_at(&v, depth), nest(&pretty, depth), "{v}");
            }
        }
        assert_eq!(
            pretty_at(&json!({"a": [], "b": {}}), 1),
            "{\n    \"a\": [],\n    \"b\": {}\n  }"
        );
    }
}
