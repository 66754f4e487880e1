//! What every report of one state shows alike (issue 22 item 5): the map's
//! rows as a viewer who sees no troops sees them, the TERRITOIRES table
//! written from them, and their JSON in the view. At 5,000 territories
//! that is most of each report (400 KB of text, the whole view), and a turn
//! of 200 players holds all its reports until they are mailed. So it is
//! rendered once per turn ([`crate::report::render_all`]), and each report
//! writes again only the rows whose troops its viewer sees: the text copies
//! the rest, the view shares it (`ViewJson` pieces).

use crate::state::Mark;
use crate::state::State;
use crate::table::{table_head, TableRows, Widths};
use crate::view::{public_rows, Index, MarkRow, PlayerRow, Stack, TerritoryRow, View};
use crate::world::TerrId;
use arbitre_core::view_json::{pretty_at, pretty_of};
use arbitre_core::ViewJson;
use serde_json::Value;
use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::Arc;

pub struct Public {
    /// Every territory, in map order.
    pub rows: Vec<TerritoryRow>,
    widths: Widths,
    /// The TERRITOIRES section (title, header, rows) and each row's range
    /// in it, continuation lines included.
    table: String,
    table_rows: Vec<Range<usize>>,
    /// The view's `territories` array as the JSON report writes it, and
    /// each element's range in it.
    json: Arc<str>,
    json_rows: Vec<Range<usize>>,
    /// The standings (the same in every view of the state) and their JSON.
    players: Vec<PlayerRow>,
    players_json: Arc<str>,
    /// [`Index::name_width`] of `rows`.
    name_width: usize,
    /// The CLASSEMENT section of `players`.
    ranking: String,
}

/// Row `r` as an element of the view's `territories` array (the view is a
/// field of the JSON report, the array a field of the view: depth 3).
fn row_json(r: &TerritoryRow) -> Option<String> {
    pretty_of(r, 3)
}

/// A viewer's TERRITOIRES section: the shared table with some rows
/// replaced by the viewer's own.
pub struct Table<'a> {
    shared: &'a str,
    /// The replacing rows, one after the other.
    own: String,
    /// Each replaced row's range in `shared` and its replacement's in `own`,
    /// in map order.
    parts: Vec<(Range<usize>, Range<usize>)>,
    len: usize,
}

impl Table<'_> {
    /// The section's length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn write(&self, out: &mut String) {
        let mut from = 0;
        for (shared, own) in &self.parts {
            out.push_str(self.shared.get(from..shared.start).unwrap_or(""));
            out.push_str(self.own.get(own.clone()).unwrap_or(""));
            from = shared.end;
        }
        out.push_str(self.shared.get(from..).unwrap_or(""));
    }
}

/// `s` as a JSON string, escaped as serde_json escapes it.
fn push_json_str(out: &mut String, s: &str) {
    if s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push_str(&serde_json::to_string(s).unwrap_or_default());
    } else {
        out.push('"');
        out.push_str(s);
        out.push('"');
    }
}

/// `marks` as `pretty_at` writes their `Value` as a field of the view
/// (depth 2), keys sorted.
fn marks_json(marks: &[MarkRow]) -> String {
    if marks.is_empty() {
        return "[]".to_string();
    }
    let word = |m: Mark| match m {
        Mark::Ally => "\"ally\"",
        Mark::Enemy => "\"enemy\"",
    };
    let mut o = String::with_capacity(marks.len() * 96);
    o.push('[');
    for (i, m) in marks.iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        o.push_str("\n      {\n        \"marks_you\": ");
        o.push_str(word(m.marks_you));
        o.push_str(",\n        \"player\": ");
        push_json_str(&mut o, m.player.0.as_str());
        o.push_str(",\n        \"you_mark\": ");
        o.push_str(word(m.you_mark));
        o.push_str("\n      }");
    }
    o.push_str("\n    ]");
    o
}

/// A row's `troops` as `pretty_at` writes their `Value` in a row of the
/// view's `territories` (depth 4), keys sorted.
fn stacks_json(o: &mut String, stacks: &[Stack]) {
    if stacks.is_empty() {
        o.push_str("[]");
        return;
    }
    o.push('[');
    for (i, s) in stacks.iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        o.push_str("\n          {\n            \"count\": ");
        o.push_str(&s.count.to_string());
        o.push_str(",\n            \"player\": ");
        push_json_str(o, s.player.0.as_str());
        o.push_str("\n          }");
    }
    o.push_str("\n        ]");
}

impl Public {
    /// `view`: any view of `state` (their player lists are alike).
    pub fn new(state: &State, caps: &BTreeSet<TerrId>, view: &View) -> Option<Public> {
        let rows = public_rows(state, caps);
        let widths = Widths::new(&rows, &view.players);
        let (table, table_rows, name_width, ranking) = {
            let ix = Index::with_public(view, &rows);
            let mut table = String::new();
            table_head(&mut table, widths);
            let mut buf = TableRows::default();
            let mut ranges = Vec::with_capacity(rows.len());
            for r in &rows {
                let at = table.len();
                buf.write(&mut table, &ix, r, widths);
                ranges.push(at..table.len());
            }
            let mut ranking = String::new();
            crate::report::standings(&mut ranking, &ix);
            (table, ranges, ix.name_width(), ranking)
        };
        let mut json = String::from("[");
        let mut json_rows = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            if i > 0 {
                json.push(',');
            }
            json.push_str("\n      ");
            let at = json.len();
            json.push_str(&row_json(r)?);
            json_rows.push(at..json.len());
        }
        json.push_str(if rows.is_empty() { "]" } else { "\n    ]" });
        let players_json = pretty_of(&view.players, 2)?;
        Some(Public {
            players: view.players.clone(),
            players_json: Arc::from(players_json),
            rows,
            widths,
            table,
            table_rows,
            json: Arc::from(json),
            json_rows,
            name_width,
            ranking,
        })
    }

    pub fn index<'a>(&'a self, view: &'a View) -> Index<'a> {
        Index::with_public(view, &self.rows).with_name_width(self.name_width)
    }

    /// Where `r` stands in the map.
    fn at(&self, r: &TerritoryRow) -> Option<usize> {
        self.rows.binary_search_by(|x| x.id.cmp(&r.id)).ok()
    }

    /// The CLASSEMENT section of `view`, if written already (its standings
    /// are the turn's).
    pub fn standings(&self, view: &View) -> Option<&str> {
        (view.players == self.players).then_some(self.ranking.as_str())
    }

    /// The TERRITOIRES section for a viewer who sees `seen`
    /// ([`crate::view::seen_rows`], in map order): the seen rows written,
    /// ready to be copied between the shared ones ([`Table::write`]).
    pub fn table<'a>(&'a self, ix: &Index<'_>, seen: &[TerritoryRow]) -> Table<'a> {
        let mut buf = TableRows::default();
        let mut own = String::new();
        let mut parts = Vec::with_capacity(seen.len());
        let mut len = self.table.len();
        for r in seen {
            let Some(range) = self.at(r).and_then(|i| self.table_rows.get(i)) else {
                continue;
            };
            let at = own.len();
            buf.write(&mut own, ix, r, self.widths);
            len = len.saturating_sub(range.len()) + (own.len() - at);
            parts.push((range.clone(), at..own.len()));
        }
        Table {
            shared: &self.table,
            own,
            parts,
            len,
        }
    }

    /// The view's JSON for a view built without its map
    /// ([`crate::view::build_parts`]) and the rows its viewer sees: exactly
    /// the JSON of the whole view, its `territories` shared but for `seen`.
    pub fn view_json(&self, mut view: View, seen: &[TerritoryRow]) -> Option<ViewJson> {
        let same_players = view.players == self.players;
        if same_players {
            view.players = Vec::new();
        }
        // Written without a `Value` (200 of them in each player's view):
        // put back in its place among the sorted keys.
        let marks = view.marks.take();
        let Value::Object(fields) = serde_json::to_value(&view).ok()? else {
            return None;
        };
        let mut j = ViewJson::default();
        j.push_str("{");
        let mut n = 0;
        let mut key = |j: &mut ViewJson, k: &str| {
            if n > 0 {
                j.push_str(",");
            }
            n += 1;
            j.push_str("\n    ");
            j.push_str(&serde_json::to_string(k).unwrap_or_default());
            j.push_str(": ");
        };
        let mut marks = marks.as_deref();
        for (k, v) in &fields {
            if let Some(m) = marks.filter(|_| k.as_str() > "marks") {
                key(&mut j, "marks");
                j.push_str(&marks_json(m));
                marks = None;
            }
            key(&mut j, k);
            match k.as_str() {
                "territories" => self.territories_json(&mut j, seen)?,
                "players" if same_players => {
                    j.push_shared(&self.players_json, 0..self.players_json.len())
                }
                _ => j.push_str(&pretty_at(v, 2)),
            }
        }
        if let Some(m) = marks {
            key(&mut j, "marks");
            j.push_str(&marks_json(m));
        }
        j.push_str(if n == 0 { "}" } else { "\n  }" });
        Some(j.done())
    }

    fn territories_json(&self, j: &mut ViewJson, seen: &[TerritoryRow]) -> Option<()> {
        // The end of a row's object, as `pretty_at(row, 3)` writes it.
        const END: &str = "\n      }";
        let mut from = 0;
        for r in seen {
            let Some(i) = self.at(r) else {
                continue;
            };
            let (Some(range), Some(public)) = (self.json_rows.get(i), self.rows.get(i)) else {
                continue;
            };
            j.push_shared(&self.json, from..range.start);
            // A seen row is its public row (built alike from the same
            // state) with its troops: `troops`, the last of its sorted
            // keys, then comes before the end of the object.
            let text = self.json.get(range.clone()).unwrap_or("");
            match &r.troops {
                Some(stacks) if public.troops.is_none() && text.ends_with(END) => {
                    j.push_shared(&self.json, range.start..range.end - END.len());
                    let mut t = String::from(",\n        \"troops\": ");
                    stacks_json(&mut t, stacks);
                    t.push_str(END);
                    j.push_str(&t);
                }
                _ => j.push_str(&row_json(r)?),
            }
            from = range.end;
        }
        j.push_shared(&self.json, from..self.json.len());
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbitre_core::PlayerId;

    #[test]
    fn marks_and_stacks_are_written_as_their_values() {
        let ids = ["p1", "a\"b", "c\\d", "e\nf", "Élodie", "x\u{1}y"];
        let marks: Vec<MarkRow> = ids
            .iter()
            .enumerate()
            .map(|(i, p)| MarkRow {
                player: PlayerId::new(p.to_string()),
                you_mark: if i % 2 == 0 { Mark::Ally } else { Mark::Enemy },
                marks_you: if i % 3 == 0 { Mark::Enemy } else { Mark::Ally },
            })
            .collect();
        for n in [0, 1, marks.len()] {
            let m = &marks[..n];
            let v = serde_json::to_value(m).unwrap();
            assert_eq!(marks_json(m), pretty_at(&v, 2));
        }
        let stacks: Vec<Stack> = ids
            .iter()
            .enumerate()
            .map(|(i, p)| Stack {
                player: PlayerId::new(p.to_string()),
                count: (i as u64) * 1000 + 7,
            })
            .collect();
        for n in [0, 1, stacks.len()] {
            let st = &stacks[..n];
            let v = serde_json::to_value(st).unwrap();
            let mut o = String::new();
            stacks_json(&mut o, st);
            assert_eq!(o, pretty_at(&v, 4));
        }
    }
}
