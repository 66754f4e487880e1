//! Where a game file's values are (issue 19 items 2 and 4): the file is
//! read a second time into a tree of `toml::Spanned` nodes, so that an
//! error found after parsing — a time zone, a duration, a duplicate
//! player, a ruleset's unknown map or player count — names the file, the
//! line and the column of the value at fault, like a syntax error does.

use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Range;
use toml::Spanned;

/// A value of the file with the spans of everything inside it.
#[derive(Debug)]
pub enum Node {
    Table(BTreeMap<String, Spanned<Node>>),
    Array(Vec<Spanned<Node>>),
    Leaf(toml::Value),
}

/// The toml crate's marker for a datetime, delivered as a one-key map.
const DATETIME: &str = "$__toml_private_datetime";

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Node;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a TOML value")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
                Ok(Node::Leaf(v.into()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
                Ok(Node::Leaf(v.into()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Node, E> {
                i64::try_from(v)
                    .map(|v| Node::Leaf(v.into()))
                    .map_err(E::custom)
            }
            fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
                Ok(Node::Leaf(v.into()))
            }
            fn visit_str<E>(self, v: &str) -> Result<Node, E> {
                Ok(Node::Leaf(v.into()))
            }
            fn visit_string<E>(self, v: String) -> Result<Node, E> {
                Ok(Node::Leaf(v.into()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = seq.next_element()? {
                    v.push(x);
                }
                Ok(Node::Array(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
                let mut t = BTreeMap::new();
                while let Some(k) = map.next_key::<String>()? {
                    if k == DATETIME {
                        let s: String = map.next_value()?;
                        return Ok(Node::Leaf(toml::Value::String(s)));
                    }
                    let v: Spanned<Node> = map.next_value()?;
                    t.insert(k, v);
                }
                Ok(Node::Table(t))
            }
        }
        d.deserialize_any(V)
    }
}

/// One step of a path into the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// `["schedule", "timezone"]` as a path.
pub fn keys(k: &[&str]) -> Vec<Seg> {
    k.iter().map(|k| Seg::Key((*k).to_string())).collect()
}

/// A game file's text and its span tree (`None` when the text does not
/// parse: then the parser's own message has the position).
pub struct FileSpans<'a> {
    text: &'a str,
    root: Option<Node>,
}

impl<'a> FileSpans<'a> {
    pub fn new(text: &'a str) -> FileSpans<'a> {
        FileSpans {
            text,
            root: toml::from_str::<Node>(text).ok(),
        }
    }

    fn node(&self, path: &[Seg]) -> Option<(&Node, Option<Range<usize>>)> {
        let mut node = self.root.as_ref()?;
        let mut span = None;
        for seg in path {
            let next = match (seg, node) {
                (Seg::Key(k), Node::Table(t)) => t.get(k)?,
                (Seg::Index(i), Node::Array(a)) => a.get(*i)?,
                _ => return None,
            };
            span = Some(next.span());
            node = next.get_ref();
        }
        Some((node, span))
    }

    /// The span of the value at `path`.
    pub fn span(&self, path: &[Seg]) -> Option<Range<usize>> {
        self.node(path).and_then(|(_, s)| s)
    }

    /// The path of the first string equal to `value` under `path`.
    pub fn find_str(&self, path: &[Seg], value: &str) -> Option<Vec<Seg>> {
        fn walk(n: &Node, value: &str, at: &mut Vec<Seg>) -> bool {
            match n {
                Node::Leaf(toml::Value::String(s)) => s == value,
                Node::Leaf(_) => false,
                Node::Table(t) => t.iter().any(|(k, v)| {
                    at.push(Seg::Key(k.clone()));
                    let found = walk(v.get_ref(), value, at);
                    if !found {
                        at.pop();
                    }
                    found
                }),
                Node::Array(a) => a.iter().enumerate().any(|(i, v)| {
                    at.push(Seg::Index(i));
                    let found = walk(v.get_ref(), value, at);
                    if !found {
                        at.pop();
                    }
                    found
                }),
            }
        }
        let (node, _) = self.node(path)?;
        let mut at = path.to_vec();
        walk(node, value, &mut at).then_some(at)
    }

    /// The index of each `[[players]]` entry whose `id` is `id` (ignoring case).
    pub fn players_with_id(&self, id: &str) -> Vec<usize> {
        let Some((Node::Array(a), _)) = self.node(&keys(&["players"])) else {
            return Vec::new();
        };
        a.iter()
            .enumerate()
            .filter(|(_, p)| match p.get_ref() {
                Node::Table(t) => t.get("id").is_some_and(|v| {
                    matches!(v.get_ref(), Node::Leaf(toml::Value::String(s)) if s.eq_ignore_ascii_case(id))
                }),
                _ => false,
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// Whether the table at `path` has the key `key`.
    pub fn has_key(&self, path: &[Seg], key: &str) -> bool {
        matches!(self.node(path), Some((Node::Table(t), _)) if t.contains_key(key))
    }

    /// How many `[[players]]` entries the file has.
    pub fn player_count(&self) -> usize {
        match self.node(&keys(&["players"])) {
            Some((Node::Array(a), _)) => a.len(),
            _ => 0,
        }
    }

    /// `file:line:column` of the value at `path`, or `file` alone.
    pub fn place(&self, file: &str, path: Option<&[Seg]>) -> String {
        match path.and_then(|p| self.span(p)) {
            Some(r) => {
                let (line, col) = line_col(self.text, r.start);
                format!("{file}:{line}:{col}")
            }
            None => file.to_string(),
        }
    }
}

/// 1-based line and column (in characters) of byte `offset`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_point_at_values_in_tables_and_arrays() {
        let text = "id = \"g\"\n[schedule]\ntimezone = \"Europe/Pariss\"\n\n[[players]]\nid = \"a\"\n[[players]]\nid = \"b\"\nemail = \"x\"\nstart = 2026-01-01T00:00:00Z\n";
        let s = FileSpans::new(text);
        assert_eq!(
            s.place("g.toml", Some(&keys(&["schedule", "timezone"]))),
            "g.toml:3:12"
        );
        assert_eq!(s.players_with_id("B"), vec![1]);
        let p = vec![
            Seg::Key("players".into()),
            Seg::Index(1),
            Seg::Key("email".into()),
        ];
        assert_eq!(s.place("g.toml", Some(&p)), "g.toml:9:9");
        assert_eq!(s.find_str(&[], "x"), Some(p));
        assert_eq!(s.place("g.toml", None), "g.toml");
        assert_eq!(s.player_count(), 2);
    }
}
