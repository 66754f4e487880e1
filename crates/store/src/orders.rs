//! Orders as players sent them: raw text (envelope stripped) and the verdict
//! of every line. Every accepted mail adds a row; the latest row of a player
//! for a turn is the one in force ("a later valid mail replaces the earlier
//! orders"), and older rows stay as the archive of what was sent.

use crate::Cached;
use crate::Result;
use arbitre_core::{LineVerdict, Verdict};
use rusqlite::{params, Connection};
use std::collections::{BTreeMap, HashMap};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderRow {
    pub id: i64,
    pub game_id: String,
    pub turn: u32,
    pub player: String,
    pub text: String,
    pub verdicts: Vec<LineVerdict>,
    pub errors: u32,
    pub ready: bool,
    pub received_at: i64,
    pub mail_sha256: Option<String>,
    /// Written by the ruleset's bot for a seat without orders (NMR policy
    /// "bot", issue 10), not sent by anyone. Migration 7 (issue 16 item 2)
    /// gave it this column; before, a `bot:` mark stood in `mail_sha256`.
    pub by_bot: bool,
}

#[allow(clippy::too_many_arguments)]
pub fn insert(
    c: &Connection,
    game: &str,
    turn: u32,
    player: &str,
    text: &str,
    verdicts: &[LineVerdict],
    errors: u32,
    ready: bool,
    received_at: i64,
    mail_sha256: Option<&str>,
) -> Result<i64> {
    let v = Verdicts::encode(text, verdicts);
    insert_encoded(
        c,
        game,
        turn,
        player,
        text.to_string(),
        &v,
        errors,
        ready,
        received_at,
        mail_sha256,
    )
}

/// [`insert`] with the verdicts already encoded ([`Verdicts::encode`]), so
/// that the caller can drop the ruleset's verdicts before the row is
/// written, and taking the text, which is dropped once SQLite has its own
/// copy bound, before the row is assembled (issue 14 item 1: a 10 MiB
/// block is held twice at most as it is written, not three times).
#[allow(clippy::too_many_arguments)]
pub fn insert_encoded(
    c: &Connection,
    game: &str,
    turn: u32,
    player: &str,
    text: String,
    verdicts: &Verdicts,
    errors: u32,
    ready: bool,
    received_at: i64,
    mail_sha256: Option<&str>,
) -> Result<i64> {
    let mut st = c.prepare_cached(
        "INSERT INTO orders (game_id, turn, player, text, verdicts, errors, ready, received_at, mail_sha256)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    st.raw_bind_parameter(1, game)?;
    st.raw_bind_parameter(2, turn)?;
    st.raw_bind_parameter(3, player)?;
    st.raw_bind_parameter(4, &text)?;
    drop(text);
    st.raw_bind_parameter(5, &verdicts.0)?;
    st.raw_bind_parameter(6, errors)?;
    st.raw_bind_parameter(7, ready)?;
    st.raw_bind_parameter(8, received_at)?;
    st.raw_bind_parameter(9, mail_sha256)?;
    st.raw_execute()?;
    Ok(c.last_insert_rowid())
}

/// The `verdicts` column of an orders row, encoded.
///
/// Format 1 (rows written before issue 14 item 1's memory work, still
/// read): a JSON array of [`LineVerdict`], each repeating its line's text,
/// so that a 10 MiB block was stored twice over and its JSON was built,
/// bound and copied into the record by SQLite as the row was written.
///
/// Format 2 (written now): `{"v":2,"reasons":[…],"runs":[[line, count,
/// kind, reason, text], …]}`. A run stands for `count` verdicts of lines
/// `line`, `line + 1`, … with the same kind (0 OK, 1 warning, 2 error) and
/// the same reason (an index into `reasons`, 0 for OK), whose echoed text
/// is the stored order text's line of that number (`str::lines`, 1-based)
/// as it is; `text` is `null` then. A verdict whose text is anything else
/// (a normalised line, one entry of a line, a section's name before it) is
/// a run of one carrying its text. Read back, format 2 gives exactly the
/// verdicts that were encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdicts(String);

/// The lines of a text by number (1-based), read forward: the verdicts
/// come in line order, so each line is visited once.
struct LineCursor<'t> {
    text: &'t str,
    lines: std::str::Lines<'t>,
    /// The number of the line in `last` (0: none read yet).
    at: usize,
    last: Option<&'t str>,
}

impl<'t> LineCursor<'t> {
    fn new(text: &'t str) -> Self {
        LineCursor {
            text,
            lines: text.lines(),
            at: 0,
            last: None,
        }
    }

    fn line(&mut self, no: usize) -> Option<&'t str> {
        if no == 0 {
            return None;
        }
        if no < self.at {
            *self = LineCursor::new(self.text);
        }
        while self.at < no {
            self.last = self.lines.next();
            self.at += 1;
            if self.last.is_none() {
                // Past the end: stay there (a smaller number starts over).
                self.at = no;
            }
        }
        self.last
    }
}

/// A verdict's kind and reason as stored in format 2.
fn kind_of(v: &Verdict) -> (u8, Option<&str>) {
    match v {
        Verdict::Ok => (0, None),
        Verdict::Warning(r) => (1, Some(r)),
        Verdict::Error(r) => (2, Some(r)),
    }
}

impl Verdicts {
    /// Encodes `verdicts`, the ruleset's verdicts of the order text `text`
    /// (format 2, above).
    pub fn encode(text: &str, verdicts: &[LineVerdict]) -> Verdicts {
        struct Run {
            first: usize,
            count: usize,
            kind: u8,
            reason: usize,
        }
        fn put(out: &mut String, r: &Run, text: Option<&str>) {
            if !out.ends_with('[') {
                out.push(',');
            }
            // itoa, not `write!`: formatting went through core::fmt for
            // every run, most of encoding a block's verdicts (issue 22
            // item 1).
            let mut n = itoa::Buffer::new();
            out.push('[');
            for v in [r.first, r.count, usize::from(r.kind), r.reason] {
                out.push_str(n.format(v));
                out.push(',');
            }
            match text {
                Some(t) => push_json_str(out, t),
                None => out.push_str("null"),
            }
            out.push(']');
        }
        let mut reasons: Vec<&str> = Vec::new();
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut runs = String::from("[");
        let mut open: Option<Run> = None;
        let mut lines = LineCursor::new(text);
        for v in verdicts {
            let (kind, reason) = kind_of(&v.verdict);
            let reason = reason.map_or(0, |r| {
                *index.entry(r).or_insert_with(|| {
                    reasons.push(r);
                    reasons.len() - 1
                })
            });
            let derived = lines.line(v.line) == Some(v.text.as_str());
            if let Some(r) = open.as_mut() {
                if derived && r.kind == kind && r.reason == reason && r.first + r.count == v.line {
                    r.count += 1;
                    continue;
                }
            }
            if let Some(r) = open.take() {
                put(&mut runs, &r, None);
            }
            let run = Run {
                first: v.line,
                count: 1,
                kind,
                reason,
            };
            if derived {
                open = Some(run);
            } else {
                put(&mut runs, &run, Some(&v.text));
            }
        }
        if let Some(r) = open.take() {
            put(&mut runs, &r, None);
        }
        runs.push(']');
        let mut out = String::with_capacity(runs.len() + 64);
        out.push_str("{\"v\":2,\"reasons\":[");
        for (i, r) in reasons.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_json_str(&mut out, r);
        }
        out.push_str("],\"runs\":");
        out.push_str(&runs);
        out.push('}');
        Verdicts(out)
    }

    /// The verdicts of the order text `text` (either format; an unreadable
    /// column reads as no verdicts, as before).
    pub fn decode(&self, text: &str) -> Vec<LineVerdict> {
        #[derive(serde::Deserialize)]
        struct Format2 {
            reasons: Vec<String>,
            runs: Vec<(usize, usize, u8, usize, Option<String>)>,
        }
        if !self.0.trim_start().starts_with('{') {
            return serde_json::from_str(&self.0).unwrap_or_default();
        }
        let Ok(f) = serde_json::from_str::<Format2>(&self.0) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut lines = LineCursor::new(text);
        for (first, count, kind, reason, shown) in f.runs {
            let why = || f.reasons.get(reason).cloned().unwrap_or_default();
            let verdict = || match kind {
                0 => Verdict::Ok,
                1 => Verdict::Warning(why()),
                _ => Verdict::Error(why()),
            };
            if let Some(t) = shown {
                out.push(LineVerdict {
                    line: first,
                    text: t,
                    verdict: verdict(),
                });
                continue;
            }
            for line in first..first.saturating_add(count) {
                // A run only names lines the text has.
                let Some(t) = lines.line(line) else { break };
                out.push(LineVerdict {
                    line,
                    text: t.to_string(),
                    verdict: verdict(),
                });
            }
        }
        out
    }

    /// The column as stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `s` as a JSON string literal.
fn push_json_str(out: &mut String, s: &str) {
    out.push_str(&serde_json::Value::from(s).to_string());
}

/// Stores the orders the bot wrote for a seat (no mail carried them).
pub fn insert_bot(
    c: &Connection,
    game: &str,
    turn: u32,
    player: &str,
    text: &str,
    received_at: i64,
) -> Result<i64> {
    c.execute_cached(
        "INSERT INTO orders (game_id, turn, player, text, verdicts, errors, ready, received_at, mail_sha256, by_bot)
         VALUES (?1, ?2, ?3, ?4, '[]', 0, 1, ?5, NULL, 1)",
        params![game, turn, player, text, received_at],
    )?;
    Ok(c.last_insert_rowid())
}

/// The last turn before `before` for which `player` sent orders by mail
/// (orders the bot wrote do not count).
pub fn last_sent_by_mail(
    c: &Connection,
    game: &str,
    player: &str,
    before: u32,
) -> Result<Option<u32>> {
    Ok(c.query_row_cached(
        "SELECT max(turn) FROM orders WHERE game_id = ?1 AND player = ?2 AND turn < ?3 AND by_bot = 0",
        params![game, player, before],
        |r| r.get(0),
    )?)
}

fn rows(c: &Connection, sql: &str, p: impl rusqlite::Params) -> Result<Vec<OrderRow>> {
    let mut st = c.prepare_cached(sql)?;
    let rows = st
        .query_map(p, |r| {
            let text: String = r.get(4)?;
            let verdicts = Verdicts(r.get(5)?).decode(&text);
            Ok(OrderRow {
                id: r.get(0)?,
                game_id: r.get(1)?,
                turn: r.get(2)?,
                player: r.get(3)?,
                text,
                verdicts,
                errors: r.get(6)?,
                ready: r.get(7)?,
                received_at: r.get(8)?,
                mail_sha256: r.get(9)?,
                by_bot: r.get(10)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

const COLS: &str =
    "id, game_id, turn, player, text, verdicts, errors, ready, received_at, mail_sha256, by_bot";

/// The rows in force for `turn`, as a condition on `id`: each player's
/// latest row. Only those rows are read, never the archive of earlier
/// mails (a turn of many order mails of megabytes each, issue 14 item 1).
const IN_FORCE: &str =
    "id IN (SELECT max(id) FROM orders WHERE game_id = ?1 AND turn = ?2 GROUP BY player)";

/// The orders in force for `turn`: each player's latest row.
pub fn latest(c: &Connection, game: &str, turn: u32) -> Result<BTreeMap<String, OrderRow>> {
    let all = rows(
        c,
        &format!("SELECT {COLS} FROM orders WHERE {IN_FORCE} ORDER BY id"),
        params![game, turn],
    )?;
    Ok(all.into_iter().map(|o| (o.player.clone(), o)).collect())
}

/// What the schedule asks of the orders in force (who sent, ready, when):
/// [`latest`] without the text and verdicts, which may be megabytes
/// (issue 14 item 1: readiness checks and reminders read only this).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InForce {
    pub ready: bool,
    pub received_at: i64,
    pub by_bot: bool,
}

/// [`InForce`] of each player's latest row for `turn`.
pub fn latest_meta(c: &Connection, game: &str, turn: u32) -> Result<BTreeMap<String, InForce>> {
    let mut st = c.prepare_cached(&format!(
        "SELECT player, ready, received_at, by_bot FROM orders WHERE {IN_FORCE}"
    ))?;
    let rows = st
        .query_map(params![game, turn], |r| {
            Ok((
                r.get::<_, String>(0)?,
                InForce {
                    ready: r.get(1)?,
                    received_at: r.get(2)?,
                    by_bot: r.get(3)?,
                },
            ))
        })?
        .collect::<rusqlite::Result<BTreeMap<_, _>>>()?;
    Ok(rows)
}

/// Every order mail ever accepted for `turn`, oldest first.
pub fn history(c: &Connection, game: &str, turn: u32) -> Result<Vec<OrderRow>> {
    rows(
        c,
        &format!("SELECT {COLS} FROM orders WHERE game_id = ?1 AND turn = ?2 ORDER BY id"),
        params![game, turn],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;

    #[test]
    fn latest_meta_is_the_latest_row_of_each_player() {
        let s = Store::in_memory().unwrap();
        crate::games::insert_game(s.conn(), &crate::games::tests::sample("g")).unwrap();
        insert(s.conn(), "g", 1, "a", "ADD 1", &[], 0, true, 10, None).unwrap();
        insert(s.conn(), "g", 1, "b", "ADD 2", &[], 0, true, 11, None).unwrap();
        insert(s.conn(), "g", 1, "a", "ADD 3", &[], 0, false, 12, None).unwrap();
        insert(s.conn(), "g", 2, "a", "ADD 4", &[], 0, true, 13, None).unwrap();
        let meta = latest_meta(s.conn(), "g", 1).unwrap();
        let full = latest(s.conn(), "g", 1).unwrap();
        assert_eq!(meta.len(), 2);
        assert_eq!(full.len(), 2);
        assert_eq!(full["a"].text, "ADD 3");
        for (p, m) in &meta {
            assert_eq!(m.ready, full[p].ready);
            assert_eq!(m.received_at, full[p].received_at);
        }
        assert!(!meta["a"].ready);
        assert_eq!(meta["b"].received_at, 11);
    }

    fn lv(line: usize, text: &str, verdict: Verdict) -> LineVerdict {
        LineVerdict {
            line,
            text: text.to_string(),
            verdict,
        }
    }

    #[test]
    fn verdicts_format_2_reads_back_exactly() {
        let err = |r: &str| Verdict::Error(r.to_string());
        let warn = |r: &str| Verdict::Warning(r.to_string());
        let text = "ADD 1\r\nADD 2\n\n# note\n  add  3 \nMOVE a / b\nADD 4\nADD 5\nADD \"6\"\n";
        let cases: Vec<Vec<LineVerdict>> = vec![
            vec![],
            vec![lv(1, "ADD 1", Verdict::Ok), lv(2, "ADD 2", Verdict::Ok)],
            vec![
                lv(1, "ADD 1", err("x")),
                lv(2, "ADD 2", err("x")),
                // normalised: carries its text
                lv(5, "add 3", warn("case")),
                // two entries of one line
                lv(6, "MOVE a", Verdict::Ok),
                lv(6, "MOVE b", err("no \"b\" here\n")),
                lv(7, "ADD 4", err("x")),
                lv(8, "ADD 5", err("y")),
                lv(9, "ADD \"6\"", err("x")),
            ],
            // out of order, line 0, past the end, the same line twice
            vec![
                lv(8, "ADD 5", Verdict::Ok),
                lv(1, "ADD 1", Verdict::Ok),
                lv(0, "", err("empty")),
                lv(99, "ADD 99", err("far")),
                lv(2, "ADD 2", Verdict::Ok),
                lv(2, "ADD 2", Verdict::Ok),
                lv(3, "", Verdict::Ok),
            ],
        ];
        for v in cases {
            let enc = Verdicts::encode(text, &v);
            assert_eq!(enc.decode(text), v, "{}", enc.as_str());
        }
        // A long run of one reason is one entry, whatever the lines' size.
        let big: String = (0..1000)
            .map(|i| format!("ADD {i} {}\n", "x".repeat(500)))
            .collect();
        let v: Vec<LineVerdict> = big
            .lines()
            .enumerate()
            .map(|(i, l)| lv(i + 1, l, err("unknown order")))
            .collect();
        let enc = Verdicts::encode(&big, &v);
        assert_eq!(
            enc.as_str(),
            r#"{"v":2,"reasons":["unknown order"],"runs":[[1,1000,2,0,null]]}"#
        );
        assert_eq!(enc.decode(&big), v);
    }

    #[test]
    fn verdicts_format_1_rows_still_read() {
        let v = vec![
            lv(1, "ADD 1", Verdict::Ok),
            lv(2, "ADD x", Verdict::Error("not a number".into())),
        ];
        let old = Verdicts(serde_json::to_string(&v).unwrap());
        assert_eq!(old.decode("ADD 1\nADD x\n"), v);
        assert_eq!(Verdicts("[]".into()).decode("ADD 1"), vec![]);
        assert_eq!(Verdicts("garbage".into()).decode("ADD 1"), vec![]);
        // Written by the daemon before format 2, read through `history`.
        let s = Store::in_memory().unwrap();
        crate::games::insert_game(s.conn(), &crate::games::tests::sample("g")).unwrap();
        s.conn()
            .execute(
                "INSERT INTO orders (game_id, turn, player, text, verdicts, errors, ready, received_at)
                 VALUES ('g', 1, 'a', 'ADD 1\nADD x', ?1, 1, 1, 5)",
                [old.as_str()],
            )
            .unwrap();
        insert(s.conn(), "g", 1, "a", "ADD 1\nADD x", &v, 1, true, 6, None).unwrap();
        let h = history(s.conn(), "g", 1).unwrap();
        assert_eq!(h[0].verdicts, v);
        assert_eq!(h[1].verdicts, v);
    }

    #[test]
    fn a_later_mail_replaces_the_orders_in_force() {
        let s = Store::in_memory().unwrap();
        crate::games::insert_game(s.conn(), &crate::games::tests::sample("g")).unwrap();
        insert(s.conn(), "g", 1, "a", "ADD 1", &[], 0, true, 10, None).unwrap();
        insert(s.conn(), "g", 1, "b", "ADD 2", &[], 0, true, 11, None).unwrap();
        insert(
            s.conn(),
            "g",
            1,
            "a",
            "ADD 3",
            &[],
            0,
            false,
            12,
            Some("ff"),
        )
        .unwrap();
        let l = latest(s.conn(), "g", 1).unwrap();
        assert_eq!(l["a"].text, "ADD 3");
        assert!(!l["a"].ready);
        assert_eq!(l["b"].text, "ADD 2");
        assert_eq!(history(s.conn(), "g", 1).unwrap().len(), 3);
        assert!(latest(s.conn(), "g", 2).unwrap().is_empty());
    }
}
