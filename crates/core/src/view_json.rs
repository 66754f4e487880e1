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

/// `v` as pretty JSON, `depth` levels down (see [`nest`]).
pub fn pretty_at(v: &Value, depth: usize) -> String {
    // A `Value` always serialises (its map keys are strings).
    let text = serde_json::to_string_pretty(v).unwrap_or_default();
    nest(&text, depth)
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
