//! The plain-text Befehlsblatt (spec §3.4) for a whole sheet: the order of
//! its lines (a section holds until the next; free-text sections gather
//! their lines; `ENDE` ends the sheet; a `MONAT:` naming the wrong month
//! rejects the whole sheet, EDS-15, and never replaces a sheet already
//! stored: issue 17 item 7), the entry limits per kind (EDS-19), and
//! the Zug-Planer (§3.4.5). Each line is read by the nom grammar of
//! [`crate::grammar`]; an entry that is right by [`crate::fast_path`]
//! first, which gives the grammar's order or leaves the entry to it.
//!
//! Every entry is echoed in the confirmation with the section it was read
//! in (`[7 SPRUNG] 4,A,19,31`, issue 17 item 8), one entry at a time.
//!
//! Nothing is checked against money or stock here ("Bei der Eingabe wird
//! nichts gesperrt", §3.1): the parser judges syntax and entry limits only;
//! everything else is decided at execution time and reported in the
//! Monatsbericht.
//!
//! The grammar replaced the hand-written splitter and matcher of issue 9 in
//! issue 21; `tests/grammar_differential.rs` holds the verdicts the old
//! parser gave on 119,031 sheets and checks the grammar still gives them.

use crate::fast_path;
use crate::grammar::{
    classify, entries, entry, entry_by_grammar, entry_reason, month_text, same_month, Line, Section,
};
use crate::model::{FType, ShipNr, State};
use crate::orders::{Order, SECTION_NAMES};
use crate::parse_index::{ship_of, ShipFacts};
use arbitre_core::Parsed;
use std::sync::Arc;

pub use crate::grammar::{MAX_DESIGN, MAX_INT};

/// The entries of a line (§3.4.3), borrowed from it: see [`crate::grammar::entries`].
pub fn split_entries(line: &str) -> Vec<&str> {
    entries(line).collect()
}

/// One entry of section `kind` (1..18): the order and the note of an
/// assumed default, or the reason it is refused (column within the entry).
pub fn parse_entry(kind: u8, text: &str) -> Result<(Order, Option<String>), String> {
    entry(kind, text)
        .map(|(o, note)| (o, note.map(str::to_string)))
        .map_err(|e| entry_reason(1, text, e))
}

/// How the confirmation names a section: as its header is written on the
/// Befehlsblatt (`[7 SPRUNG]`, `[DIPLOMATIE 3]`).
pub fn section_label(section: Section) -> Option<String> {
    match section {
        Section::None => None,
        Section::Orders(k) => SECTION_NAMES
            .get(usize::from(k).wrapping_sub(1))
            .map(|n| format!("[{k} {n}]")),
        Section::Anzeiger => Some("[ANZEIGER]".into()),
        Section::Diplomatie(n) => Some(format!("[DIPLOMATIE {n}]")),
        Section::Hinweis => Some("[HINWEIS]".into()),
    }
}

/// [`section_label`] shared: the labels of the order sections are made
/// once per process and each section's orders share them (a label made
/// per section was two allocations, issue 21 item 4).
fn shared_label(section: Section) -> Option<Arc<str>> {
    static ORDER_LABELS: std::sync::OnceLock<Vec<Arc<str>>> = std::sync::OnceLock::new();
    if let Section::Orders(k) = section {
        let labels = ORDER_LABELS.get_or_init(|| {
            (1..=SECTION_NAMES.len())
                .filter_map(|k| u8::try_from(k).ok())
                .filter_map(|k| section_label(Section::Orders(k)).map(Arc::from))
                .collect()
        });
        if let Some(l) = labels.get(usize::from(k).wrapping_sub(1)) {
            return Some(l.clone());
        }
    }
    section_label(section).map(Arc::from)
}

/// A free-text section being read: where it started, which, its lines.
struct FreeText {
    line: usize,
    section: Section,
    lines: Vec<String>,
}

/// Parse a whole order block for the ruler; `state` gives the month being ordered.
pub fn parse(state: &State, text: &str) -> Parsed<Order> {
    parse_for(state, &crate::parse_index::expected_month(state), text)
}

/// [`parse`] with the month the sheet must name (`J1/M2`) already written
/// out, as the parse index keeps it.
pub fn parse_for(state: &State, expected: &str, text: &str) -> Parsed<Order> {
    let mut out = Parsed::new();
    // At most one entry a line is the common case: reserved once rather than
    // grown push by push.
    out.orders
        .reserve(arbitre_core::text::newline_count(text) + 1);
    let mut section = Section::None;
    let mut counts = [0usize; 19];
    let mut free: Option<FreeText> = None;
    let mut wrong_month: Option<String> = None;
    // Shared by the section's orders (`Located::section`).
    let mut label: Option<Arc<str>> = None;
    let flush = |free: &mut Option<FreeText>, out: &mut Parsed<Order>| {
        if let Some(f) = free.take() {
            let text = f.lines.join("\n");
            if text.trim().is_empty() {
                return;
            }
            let o = match f.section {
                Section::Anzeiger => Order::Anzeiger(text.clone()),
                Section::Diplomatie(n) => Order::Diplomatie {
                    to: n,
                    text: text.clone(),
                },
                _ => Order::Hinweis(text.clone()),
            };
            out.push_in(
                section_label(f.section).map(Arc::from).as_ref(),
                f.line,
                &text,
                o,
            );
        }
    };
    for (no, line) in arbitre_core::normalized_lines(text) {
        let line: &str = &line;
        let kind = classify(line);
        match kind {
            Line::End => break,
            Line::Header(s) => {
                flush(&mut free, &mut out);
                match s {
                    Some(s) => {
                        if matches!(
                            s,
                            Section::Anzeiger | Section::Diplomatie(_) | Section::Hinweis
                        ) {
                            free = Some(FreeText {
                                line: no,
                                section: s,
                                lines: Vec::new(),
                            });
                        }
                        section = s;
                        label = shared_label(s);
                    }
                    None => {
                        out.error(
                            no,
                            line,
                            "unbekannter Abschnitt – folgende Zeilen werden ignoriert",
                        );
                        section = Section::None;
                        label = None;
                    }
                }
                continue;
            }
            _ => {}
        }
        if let Some(f) = free.as_mut() {
            if kind != Line::Comment {
                f.lines.push(line.to_string());
            }
            continue;
        }
        match kind {
            Line::Comment | Line::Template => continue,
            Line::Month(m) => {
                if !same_month(m, expected) {
                    let m = month_text(m);
                    let why = format!(
                        "Befehle für {m}, erwartet {expected} – gesamter Befehlsbogen verworfen"
                    );
                    out.error(no, line, why.clone());
                    wrong_month = Some(why);
                }
                continue;
            }
            _ => {}
        }
        let Section::Orders(kind) = section else {
            out.error(
                no,
                line,
                "Zeile steht in keinem Befehlsabschnitt – Befehl verworfen",
            );
            continue;
        };
        let limit = state.params.order_limits[usize::from(kind) - 1];
        let label = label.as_ref();
        let count = &mut counts[usize::from(kind)];
        let mut read = |e: &str| {
            // The fast path's order is taken as it comes, not wrapped in
            // the grammar's `Result` first: each wrapping was a copy of the
            // order (issue 21).
            let (order, note) = match fast_path::entry(kind, e) {
                Some(read) => read,
                None => match entry_by_grammar(kind, e) {
                    Ok(read) => read,
                    Err(why) => {
                        out.diagnose_in(
                            label.map(|l| &**l),
                            no,
                            e,
                            entry_reason(no, line, why),
                            false,
                        );
                        return;
                    }
                },
            };
            if *count >= limit {
                out.diagnose_in(
                    label.map(|l| &**l),
                    no,
                    e,
                    format!("Höchstzahl von {limit} Einträgen überschritten – Eintrag ignoriert"),
                    false,
                );
                return;
            }
            *count += 1;
            if let Some(n) = note {
                out.diagnose_in(label.map(|l| &**l), no, e, n, true);
            }
            out.push_in(label, no, e, order);
        };
        if line.contains('/') {
            entries(line).for_each(read);
        } else {
            // A normalised line is not empty and has no blank at either
            // end: without a `/` it is its one entry, as `entries` gives
            // it, without the iterator and its trimming (issue 21).
            read(line);
        }
    }
    flush(&mut free, &mut out);
    if let Some(why) = wrong_month {
        out.refuse_whole(&why);
    }
    out
}

/// The "Zug-Planer" (§3.4.5): the WE the sheet commits in execution order
/// against the current Vermögen. It never blocks anything; when more is committed
/// than held it adds one warning, on the line of the last costly order.
pub fn planner(state: &State, ruler: crate::model::RulerNr, parsed: &mut Parsed<Order>) {
    use crate::formulas::{armament_we, colonise_cost, hull_we, repair_cost};
    let Some(r) = state.ruler(ruler) else { return };
    let p = &state.params;
    let mut total: i64 = 0;
    // The last costly order, by index: its text is copied only when a
    // warning is put on it (issue 21 item 4).
    let mut last: Option<usize> = None;
    // Ore planned per yard star, in the order the stars are first named;
    // sorted by star for the warnings. A sheet names few yards: a vector
    // searched is cheaper than a map built and dropped per sheet.
    let mut ore: Vec<(u32, u32)> = Vec::new();
    let mut add_ore = |star: u32, n: u32| match ore.iter_mut().find(|(s, _)| *s == star) {
        Some((_, have)) => *have += n,
        None => ore.push((star, n)),
    };
    // Execution order, ties in the sheet's order (a stable sort, without
    // the stable sort's buffer). A sheet written in the template's order
    // is in it already: it is walked as it stands, without the vector of
    // indices (an allocation and a second walk per sheet, issue 21).
    let in_order = parsed
        .orders
        .windows(2)
        .all(|w| w[0].order.phase() <= w[1].order.phase());
    let sorted: Option<Vec<usize>> = (!in_order).then(|| {
        let mut v: Vec<usize> = (0..parsed.orders.len()).collect();
        v.sort_unstable_by_key(|&i| (parsed.orders[i].order.phase(), i));
        v
    });
    for k in 0..parsed.orders.len() {
        let i = sorted.as_ref().and_then(|v| v.get(k).copied()).unwrap_or(k);
        let o = &parsed.orders[i];
        let cost = match &o.order {
            Order::Repair { ship } => state
                .ships
                .get(ship)
                .filter(|s| s.owner == ruler)
                .map(|s| repair_cost(p, s) * s.hits as i64)
                .unwrap_or(0),
            Order::BuildFighters { star, kind, count } => {
                add_ore(*star, count.min(&p.yard_fighters) * p.fighter_ore);
                *count as i64
                    * if *kind == FType::L {
                        p.fighter_we_l
                    } else {
                        p.fighter_we_t
                    }
            }
            Order::BuildShip(b) => {
                add_ore(b.star, crate::formulas::hull_ore(p, b.typ));
                hull_we(p, b.typ) + armament_we(p, &b.guns, &b.shields)
            }
            Order::Industry {
                facility: Some(f), ..
            } => p.industry_cost[f.idx()],
            // A colony is paid once, however often it is ordered. The
            // colonisations are walked in the sheet's order (one phase, ties
            // in the sheet's order), so a star colonised before is one an
            // earlier order names: searched there, where a set of the stars
            // seen cost an allocation per sheet (issue 21).
            Order::Colonise { star }
                if !parsed.orders[..i]
                    .iter()
                    .any(|e| matches!(e.order, Order::Colonise { star: s } if s == *star)) =>
            {
                state
                    .stars
                    .get(star)
                    .map(|s| colonise_cost(p, s.bv + 1))
                    .unwrap_or(0)
            }
            Order::Transfer { amount, .. } => *amount,
            _ => 0,
        };
        if cost > 0 {
            total += cost;
            last = Some(i);
        }
    }
    let warn = |parsed: &mut Parsed<Order>, why: String| {
        if let Some(o) = last.and_then(|i| parsed.orders.get(i)) {
            let (line, text, section) = (o.line, o.text.clone(), o.section.clone());
            parsed.diagnose_in(section.as_deref(), line, &text, why, true);
        }
    };
    ore.sort_unstable_by_key(|&(star, _)| star);
    for (star, need) in ore {
        let have = state
            .stars
            .get(&star)
            .filter(|s| s.owner == Some(ruler))
            .map(|s| s.stock[0]);
        if let Some(have) = have.filter(|h| need > *h) {
            warn(parsed, format!("Werftstern {star}: {need} Erz verplant, vorhanden: {have} Erz – Achtung, mehr verplant als vorhanden"));
        }
    }
    if total > r.we {
        warn(
            parsed,
            format!(
                "Verplant: {total} WE, vorhanden: {} WE – Achtung, mehr verplant als vorhanden",
                r.we
            ),
        );
    }
}

/// What the current state already decides (issue 17 item 8): a ship that
/// is not the ruler's (or does not exist), for every order on a ship of
/// phases 2 to 11 (names, repair, refuelling, retreat, jump, goods,
/// fighters); for a jump also the home base and a target off the map.
/// Ships never change owner, and none is built before phase 13, so those
/// phases refuse them whatever happens before, and the confirmation says
/// so now, with the very words of the Monatsbericht (`m04`). The entry is
/// kept (as [`Parsed::reject`] keeps a refused line) so that the month's
/// Fehlerprotokoll still lists it, but it is an error, not an accepted
/// order. Everything that depends on the month's other orders (uranium,
/// range, another jump, a star's owner, what a star or ship holds) stays
/// for the evaluation, as §3.1 wants; so does scrapping (phase 14), which
/// may name a ship built in phase 13.
pub fn receipt(state: &State, ruler: crate::model::RulerNr, parsed: &mut Parsed<Order>) {
    receipt_with(state, ruler, parsed, |n| ship_of(state, n));
}

/// [`receipt`] with the ships looked up by `lookup` (the parse index's, or
/// the state's).
pub fn receipt_with(
    state: &State,
    ruler: crate::model::RulerNr,
    parsed: &mut Parsed<Order>,
    lookup: impl Fn(ShipNr) -> Option<ShipFacts>,
) {
    let mut refused = Vec::new();
    for o in &parsed.orders {
        let ship = match o.order {
            Order::ShipName { ship, .. }
            | Order::Repair { ship }
            | Order::Refuel { ship, .. }
            | Order::Retreat { ship, .. }
            | Order::Jump { ship, .. }
            | Order::Unload { ship, .. }
            | Order::Load { ship, .. }
            | Order::FightersOut { ship, .. }
            | Order::FightersIn { ship, .. } => ship,
            _ => continue,
        };
        let why = match (lookup(ship).filter(|s| s.owner == ruler), &o.order) {
            (None, _) => crate::turn::m04(ship),
            (Some(s), Order::Jump { .. }) if s.home_base => {
                "Die Heimatbasis kann nicht springen – Befehl verworfen".to_string()
            }
            (Some(_), Order::Jump { x, y, .. }) if !state.in_map(*x, *y) => {
                format!("Ziel ({x},{y}) liegt außerhalb der Karte – Befehl verworfen")
            }
            (Some(_), _) => continue,
        };
        refused.push((o.section.clone(), o.line, o.text.clone(), why));
    }
    for (section, line, text, why) in refused {
        parsed.diagnose_in(section.as_deref(), line, &text, why, false);
        parsed.kept_refused += 1;
    }
}
