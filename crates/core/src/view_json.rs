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
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};
use serde_json::Value;
use std::io::{self, Write};
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
    // A `Value`'s objects are sorted already (no `preserve_order`).
    write_pretty(v, depth, Keys::AsGiven).unwrap_or_default()
}

/// [`pretty_at`] of `serde_json::to_value(v)`; `None` if `v` does not
/// serialise (a map with non-string keys).
///
/// Written without building the `Value` where it can be: each object's
/// fields are written as they come and sorted in place when the object
/// ends if they came out of order (issue 22 item 4: the `Value` tree, built
/// for its sorted keys and dropped, was half of making a report's view).
/// Where the two could differ (a key that needs escaping, whose escaped and
/// plain texts sort apart; a key given twice, which the `Value` keeps once),
/// the `Value` is built after all.
pub fn pretty_of<T: Serialize + ?Sized>(v: &T, depth: usize) -> Option<String> {
    write_pretty(v, depth, Keys::Sorted)
        .or_else(|| serde_json::to_value(v).ok().map(|v| pretty_at(&v, depth)))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Keys {
    AsGiven,
    Sorted,
}

fn write_pretty<T: Serialize + ?Sized>(v: &T, depth: usize, keys: Keys) -> Option<String> {
    let mut out = Pretty {
        buf: Vec::with_capacity(256),
        current: depth,
        has_value: false,
        keys,
        objects: Vec::new(),
        fields: Vec::new(),
        scratch: Vec::new(),
        exact: true,
    };
    let mut ser = serde_json::Serializer::with_formatter(std::io::sink(), &mut out);
    v.serialize(&mut ser).ok()?;
    if !out.exact {
        return None;
    }
    // serde_json writes UTF-8 only, and fields are moved whole.
    String::from_utf8(out.buf).ok()
}

/// serde_json's `PrettyFormatter` (two spaces) with its indentation
/// starting at `current` levels instead of none (each newline it writes
/// between tokens is followed by the indentation, so starting deeper is
/// exactly what [`nest`] makes of its output), writing into its own buffer
/// so that an object's fields can be reordered once it ends.
struct Pretty {
    buf: Vec<u8>,
    current: usize,
    has_value: bool,
    keys: Keys,
    /// Where each object being written starts in `fields`, innermost
    /// last.
    objects: Vec<usize>,
    /// The fields of the objects being written, outermost first: one
    /// stack for all, so that an object costs no allocation of its own.
    fields: Vec<Field>,
    /// The ended object's text while its fields are put in order, kept
    /// from object to object for its room.
    scratch: Vec<u8>,
    /// False once the output may differ from the `Value` path's.
    exact: bool,
}

/// Where one field of an object lies in the buffer: `"key": value`.
struct Field {
    start: usize,
    /// The key's text, quotes excluded.
    key: Range<usize>,
    end: usize,
}

impl Pretty {
    /// The field being written, if its object is being sorted.
    fn open_field(&mut self) -> Option<&mut Field> {
        let from = *self.objects.last()?;
        self.fields.get_mut(from..)?.last_mut()
    }

    fn indent(&mut self) {
        self.buf.resize(self.buf.len() + 2 * self.current, b' ');
    }

    fn open(&mut self, b: &[u8]) {
        self.current += 1;
        self.has_value = false;
        self.buf.extend_from_slice(b);
    }

    fn close(&mut self, b: &[u8]) {
        self.current -= 1;
        if self.has_value {
            self.buf.push(b'\n');
            self.indent();
        }
        self.buf.extend_from_slice(b);
    }

    fn item(&mut self, first: bool) {
        self.buf
            .extend_from_slice(if first { b"\n" } else { b",\n" });
        self.indent();
    }

    /// Puts the ended object's fields in key order, as a `Value`'s map
    /// keeps them. Every field but the first follows the same separator, so
    /// the fields are cut out and joined again with it.
    /// The fields are those of `self.fields` from `from` on, dropped
    /// once the object is written.
    fn sort_fields(&mut self, from: usize) {
        let buf = &self.buf;
        let fields = self.fields.get_mut(from..).unwrap_or_default();
        let key = |f: &Field| buf.get(f.key.clone()).unwrap_or_default();
        let in_order = fields.windows(2).all(|w| key(&w[0]) < key(&w[1]));
        if in_order || fields.is_empty() {
            self.fields.truncate(from);
            return;
        }
        let first = fields[0].start;
        self.scratch.clear();
        self.scratch
            .extend_from_slice(self.buf.get(first..).unwrap_or_default());
        self.buf.truncate(first);
        let tail = &self.scratch;
        let key_of = |f: &Field| {
            tail.get(f.key.start - first..f.key.end - first)
                .unwrap_or_default()
        };
        fields.sort_by(|a, b| key_of(a).cmp(key_of(b)));
        if fields.windows(2).any(|w| key_of(&w[0]) == key_of(&w[1])) {
            self.exact = false;
        }
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                self.buf.extend_from_slice(b",\n");
                self.buf.resize(self.buf.len() + 2 * self.current, b' ');
            }
            self.buf
                .extend_from_slice(tail.get(f.start - first..f.end - first).unwrap_or_default());
        }
        self.fields.truncate(from);
    }
}

/// Every method writes to the formatter's own buffer: serde_json writes
/// nothing to its writer but through its formatter.
impl Formatter for &mut Pretty {
    fn write_null<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        CompactFormatter.write_null(&mut self.buf)
    }

    fn write_bool<W: ?Sized + Write>(&mut self, _: &mut W, v: bool) -> io::Result<()> {
        CompactFormatter.write_bool(&mut self.buf, v)
    }

    fn write_i8<W: ?Sized + Write>(&mut self, _: &mut W, v: i8) -> io::Result<()> {
        CompactFormatter.write_i8(&mut self.buf, v)
    }

    fn write_i16<W: ?Sized + Write>(&mut self, _: &mut W, v: i16) -> io::Result<()> {
        CompactFormatter.write_i16(&mut self.buf, v)
    }

    fn write_i32<W: ?Sized + Write>(&mut self, _: &mut W, v: i32) -> io::Result<()> {
        CompactFormatter.write_i32(&mut self.buf, v)
    }

    fn write_i64<W: ?Sized + Write>(&mut self, _: &mut W, v: i64) -> io::Result<()> {
        CompactFormatter.write_i64(&mut self.buf, v)
    }

    fn write_i128<W: ?Sized + Write>(&mut self, _: &mut W, v: i128) -> io::Result<()> {
        CompactFormatter.write_i128(&mut self.buf, v)
    }

    fn write_u8<W: ?Sized + Write>(&mut self, _: &mut W, v: u8) -> io::Result<()> {
        CompactFormatter.write_u8(&mut self.buf, v)
    }

    fn write_u16<W: ?Sized + Write>(&mut self, _: &mut W, v: u16) -> io::Result<()> {
        CompactFormatter.write_u16(&mut self.buf, v)
    }

    fn write_u32<W: ?Sized + Write>(&mut self, _: &mut W, v: u32) -> io::Result<()> {
        CompactFormatter.write_u32(&mut self.buf, v)
    }

    fn write_u64<W: ?Sized + Write>(&mut self, _: &mut W, v: u64) -> io::Result<()> {
        CompactFormatter.write_u64(&mut self.buf, v)
    }

    fn write_u128<W: ?Sized + Write>(&mut self, _: &mut W, v: u128) -> io::Result<()> {
        CompactFormatter.write_u128(&mut self.buf, v)
    }

    fn write_f32<W: ?Sized + Write>(&mut self, _: &mut W, v: f32) -> io::Result<()> {
        CompactFormatter.write_f32(&mut self.buf, v)
    }

    fn write_f64<W: ?Sized + Write>(&mut self, _: &mut W, v: f64) -> io::Result<()> {
        CompactFormatter.write_f64(&mut self.buf, v)
    }

    fn write_number_str<W: ?Sized + Write>(&mut self, _: &mut W, v: &str) -> io::Result<()> {
        CompactFormatter.write_number_str(&mut self.buf, v)
    }

    fn begin_string<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        CompactFormatter.begin_string(&mut self.buf)
    }

    fn end_string<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        CompactFormatter.end_string(&mut self.buf)
    }

    fn write_string_fragment<W: ?Sized + Write>(&mut self, _: &mut W, v: &str) -> io::Result<()> {
        CompactFormatter.write_string_fragment(&mut self.buf, v)
    }

    fn write_char_escape<W: ?Sized + Write>(&mut self, _: &mut W, v: CharEscape) -> io::Result<()> {
        CompactFormatter.write_char_escape(&mut self.buf, v)
    }

    fn write_raw_fragment<W: ?Sized + Write>(&mut self, _: &mut W, v: &str) -> io::Result<()> {
        CompactFormatter.write_raw_fragment(&mut self.buf, v)
    }

    fn begin_array<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.open(b"[");
        Ok(())
    }

    fn end_array<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.close(b"]");
        Ok(())
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, _: &mut W, first: bool) -> io::Result<()> {
        self.item(first);
        Ok(())
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        if self.keys == Keys::Sorted {
            self.objects.push(self.fields.len());
        }
        self.open(b"{");
        Ok(())
    }

    fn end_object<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        if let Some(from) = self.objects.pop() {
            self.sort_fields(from);
        }
        self.close(b"}");
        Ok(())
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, _: &mut W, first: bool) -> io::Result<()> {
        self.item(first);
        let at = self.buf.len();
        if !self.objects.is_empty() {
            self.fields.push(Field {
                start: at,
                key: at..at,
                end: at,
            });
        }
        Ok(())
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        let end = self.buf.len();
        let Some(f) = self.open_field() else {
            return Ok(());
        };
        // Inside the quotes every key is written with.
        f.key = f.start + 1..end.saturating_sub(1).max(f.start + 1);
        let key = f.key.clone();
        if self.buf.get(key).is_none_or(|k| k.contains(&b'\\')) {
            self.exact = false;
        }
        Ok(())
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.buf.extend_from_slice(b": ");
        Ok(())
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        let end = self.buf.len();
        if let Some(f) = self.open_field() {
            f.end = end;
        }
        Ok(())
    }
}

impl ViewJson {
    /// `view` as the JSON report writes it; `None` for a view that does not
    /// serialise (a map with non-string keys: a ruleset bug that its schema
    /// test catches).
    pub fn of<T: Serialize>(view: &T) -> Option<ViewJson> {
        pretty_of(view, 1).map(ViewJson::of_text)
    }

    fn of_text(text: String) -> ViewJson {
        ViewJson {
            pieces: Vec::new(),
            tail: text,
        }
        .done()
    }

    pub fn of_value(v: &Value) -> ViewJson {
        ViewJson::of_text(pretty_at(v, 1))
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

    /// A tree whose objects give their fields in any order, repeated keys
    /// included, as a struct or a `HashMap` may.
    enum Tree {
        Leaf(Value),
        Arr(Vec<Tree>),
        Obj(Vec<(String, Tree)>),
    }

    impl Serialize for Tree {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{SerializeMap, SerializeSeq};
            match self {
                Tree::Leaf(v) => v.serialize(s),
                Tree::Arr(items) => {
                    let mut seq = s.serialize_seq(Some(items.len()))?;
                    items.iter().try_for_each(|t| seq.serialize_element(t))?;
                    seq.end()
                }
                Tree::Obj(fields) => {
                    let mut map = s.serialize_map(Some(fields.len()))?;
                    fields
                        .iter()
                        .try_for_each(|(k, t)| map.serialize_entry(k, t))?;
                    map.end()
                }
            }
        }
    }

    /// The direct writer against the `Value` path it stands for, on seeded
    /// random trees whose keys sort differently as text and as quoted text
    /// ("a" and "a!"), hold non-ASCII, need escaping or repeat.
    #[test]
    fn pretty_of_is_pretty_at_of_the_value() {
        let mut seed: u64 = 4;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        const KEYS: [&str; 9] = ["a", "a!", "a b", "B", "é", "", "z", "k\"q", "ab"];
        fn gen(next: &mut dyn FnMut(u64) -> u64, depth: u32, escapes: bool) -> Tree {
            match next(if depth > 3 { 3 } else { 6 }) {
                0 => Tree::Leaf(json!(next(1000) as f64 / 7.0)),
                1 => Tree::Leaf(json!(["x", "\n", "é"][next(3) as usize])),
                2 => Tree::Leaf(Value::Null),
                3 => Tree::Arr(
                    (0..next(4))
                        .map(|_| gen(next, depth + 1, escapes))
                        .collect(),
                ),
                _ => Tree::Obj(
                    (0..next(6))
                        .map(|_| {
                            let k = KEYS[next(if escapes { 9 } else { 7 }) as usize];
                            (k.to_string(), gen(next, depth + 1, escapes))
                        })
                        .collect(),
                ),
            }
        }
        let (mut direct, mut fallback) = (0, 0);
        for i in 0..4_000 {
            let t = gen(&mut next, 0, i % 4 == 0);
            let v = serde_json::to_value(&t).unwrap();
            let depth = i % 4;
            assert_eq!(pretty_of(&t, depth).unwrap(), pretty_at(&v, depth));
            match write_pretty(&t, depth, Keys::Sorted) {
                Some(text) => {
                    assert_eq!(text, pretty_at(&v, depth), "{v}");
                    direct += 1;
                }
                None => fallback += 1,
            }
            assert_eq!(ViewJson::of(&t).unwrap().text(), pretty_at(&v, 1), "{v}");
        }
        // Both paths were taken, the direct one most.
        assert!(direct > 2_000 && fallback > 100, "{direct} {fallback}");
        #[derive(Serialize)]
        struct Unsorted {
            zeta: u32,
            alpha: Vec<u32>,
            #[serde(rename = "Mid")]
            mid: Option<u32>,
        }
        let u = Unsorted {
            zeta: 1,
            alpha: vec![],
            mid: None,
        };
        assert_eq!(
            write_pretty(&u, 1, Keys::Sorted).unwrap(),
            "{\n    \"Mid\": null,\n    \"alpha\": [],\n    \"zeta\": 1\n  }"
        );
    }
}
