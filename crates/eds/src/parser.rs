//! The plain-text Befehlsblatt (spec §3.4): one section per order kind, entries
//! separated by ` / `, fields by commas. The daemon has already stripped the mail
//! envelope; the optional EDS header lines (`EDS BEFEHLE`, `GALAXIS:`, `MONAT:` …)
//! are tolerated so that a player can paste the template back unchanged, and a
//! `MONAT:` naming the wrong month rejects the whole sheet (EDS-15).
//!
//! Nothing is checked against money or stock here ("Bei der Eingabe wird nichts
//! gesperrt", §3.1): the parser judges syntax and entry limits only; everything
//! else is decided at execution time and reported in the Monatsbericht.

use crate::formulas::{class_typ, short_month};
use crate::model::{FType, Facility, Good, State};
use crate::orders::{BuildOrder, Order, SECTION_NAMES};
use arbitre_core::{normalize_line, Parsed};
use std::borrow::Cow;

/// Which section the parser is in.
#[derive(Clone, Debug, PartialEq)]
enum Section {
    None,
    Orders(u8),
    Anzeiger,
    Diplomatie(u8),
    Hinweis,
}

/// Upper case with Ä/Ö/Ü folded to AE/OE/UE, for section names.
fn fold(s: &str) -> String {
    let b = s.as_bytes();
    if s.is_ascii()
        && b.first() != Some(&b' ')
        && b.last() != Some(&b' ')
        && b.iter().all(|&c| (b' '..=b'~').contains(&c))
        && !s.contains("  ")
    {
        // Nothing to fold and no blanks to collapse.
        return s.to_ascii_uppercase();
    }
    s.to_uppercase()
        .replace('Ä', "AE")
        .replace('Ö', "OE")
        .replace('Ü', "UE")
        .replace("ß", "SS")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// [`fold`] of a line that is already normalised: plain ASCII upper case when
/// the line is ASCII (nothing to fold, no run of blanks to collapse).
fn fold_line(line: &str) -> String {
    if line.is_ascii() {
        line.to_ascii_uppercase()
    } else {
        fold(line)
    }
}

/// The numbered, normalised, non-empty lines of the sheet (1-based), as
/// `core::numbered_lines` gives them, but borrowed from the text when a line
/// is already normal: printable ASCII with single inner spaces, the usual
/// case, which then costs no allocation (parsing speed, issue 9).
fn sheet_lines(text: &str) -> impl Iterator<Item = (usize, Cow<'_, str>)> + '_ {
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            let b = l.as_bytes();
            let plain = b.first() != Some(&b' ')
                && b.last() != Some(&b' ')
                && b.iter().all(|&c| (b' '..=b'~').contains(&c))
                && !l.contains("  ");
            let l = if plain {
                Cow::Borrowed(l)
            } else {
                Cow::Owned(normalize_line(l))
            };
            (i + 1, l)
        })
        .filter(|(_, l)| !l.is_empty())
}

fn section_of(inner: &str) -> Option<Section> {
    let f = fold(inner);
    if f == "ANZEIGER" {
        return Some(Section::Anzeiger);
    }
    if f == "HINWEIS" {
        return Some(Section::Hinweis);
    }
    if let Some(rest) = f.strip_prefix("DIPLOMATIE") {
        let n: u8 = rest.trim().parse().ok()?;
        return Some(Section::Diplomatie(n));
    }
    let (num, name) = match f.split_once(' ') {
        Some((a, b)) if a.chars().all(|c| c.is_ascii_digit()) => (Some(a), b),
        _ if f.chars().all(|c| c.is_ascii_digit()) => (Some(f.as_str()), ""),
        _ => (None, f.as_str()),
    };
    let by_num = num
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| (1..=18).contains(n));
    let by_name = SECTION_NAMES.iter().position(|s| *s == name).map(|i| i + 1);
    match (by_num, by_name, name.is_empty()) {
        (Some(n), _, true) => Some(Section::Orders(n as u8)),
        (Some(n), Some(m), false) if n == m => Some(Section::Orders(n as u8)),
        (None, Some(m), _) => Some(Section::Orders(m as u8)),
        _ => None,
    }
}

/// Split a line into entries: a `/` separates entries only when the nearest
/// non-blank characters on both sides are not commas (§3.4.3), so `8,/,15,4` is
/// one jump entry and `27 / 103` two entries. The entries borrow from the line.
pub fn split_entries(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    each_entry(line, |e| out.push(e));
    out
}

/// [`split_entries`] without the vector: `f` gets each non-empty entry in
/// order (the parser calls this for every line).
fn each_entry<'a>(line: &'a str, mut f: impl FnMut(&'a str)) {
    if !line.is_ascii() {
        split_entries_chars(line).into_iter().for_each(f);
        return;
    }
    // ASCII: the same walk on bytes (the whitespace of `char::is_whitespace`).
    let blank = |c: &&u8| matches!(**c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
    let mut emit = |e: &'a str| {
        let e = e.trim();
        if !e.is_empty() {
            f(e)
        }
    };
    let b = line.as_bytes();
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        if c == b'/' {
            let left = b[..i].iter().rev().find(|c| !blank(c));
            let right = b[i + 1..].iter().find(|c| !blank(c));
            if left != Some(&b',') && right != Some(&b',') {
                emit(&line[start..i]);
                start = i + 1;
            }
        }
    }
    emit(&line[start..]);
}

/// [`split_entries`] for a line with non-ASCII characters, char by char.
fn split_entries_chars(line: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut out = Vec::new();
    let mut start = 0;
    for (k, &(i, c)) in chars.iter().enumerate() {
        if c == '/' {
            let left = chars[..k].iter().rev().find(|(_, c)| !c.is_whitespace());
            let right = chars[k + 1..].iter().find(|(_, c)| !c.is_whitespace());
            if left.map(|p| p.1) != Some(',') && right.map(|p| p.1) != Some(',') {
                out.push(line[start..i].trim());
                start = i + 1;
            }
        }
    }
    out.push(line[start..].trim());
    out.retain(|e| !e.is_empty());
    out
}

/// A plain decimal integer: digits only, leading zeros allowed (EDS-18).
fn int(s: &str) -> Result<u32, String> {
    let s = s.trim();
    if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("„{s}“ ist keine ganze Zahl"));
    }
    match s.parse::<u32>() {
        // A cap far above any legal amount keeps every sum of fields inside u32.
        Ok(v) if v <= MAX_INT => Ok(v),
        _ => Err(format!("Zahl „{s}“ zu groß")),
    }
}

/// The largest number an order field may hold.
pub const MAX_INT: u32 = 1_000_000_000;
/// The largest count in a ship design (ten of them are summed and squared).
pub const MAX_DESIGN: u32 = 99_999;

/// `count` fields where the entry takes `n`.
fn fields_n(count: usize, n: usize) -> Result<(), String> {
    if count != n {
        return Err(format!("{n} Felder erwartet, {count} angegeben"));
    }
    Ok(())
}

/// The most fields an entry has (a ship design, section 13).
const MAX_FIELDS: usize = 14;

/// Parse one entry of section `kind` (1..18).
pub fn parse_entry(kind: u8, entry: &str) -> Result<(Order, Option<String>), String> {
    // The fields, trimmed, in a fixed array (no allocation per entry); `count`
    // is the real number, so that too many fields are reported as such.
    let mut fields = [""; MAX_FIELDS];
    let mut count = 0;
    for part in entry.split(',') {
        if let Some(slot) = fields.get_mut(count) {
            *slot = part.trim();
        }
        count += 1;
    }
    let f = &fields[..count.min(MAX_FIELDS)];
    let mut note = None;
    let o = match kind {
        1 | 2 => {
            fields_n(count, 2)?;
            let n = int(f[0])?;
            if f[1].is_empty() {
                return Err("Name fehlt".into());
            }
            if kind == 1 {
                Order::StarName {
                    star: n,
                    name: f[1].to_string(),
                }
            } else {
                Order::ShipName {
                    ship: n,
                    name: f[1].to_string(),
                }
            }
        }
        3 => {
            fields_n(count, 2)?;
            let v = int(f[1])?;
            if !(1..=3).contains(&v) {
                return Err("Status muss 1, 2 oder 3 sein".into());
            }
            Order::Status {
                ruler: int(f[0])?,
                value: v,
            }
        }
        4 | 14 | 16 => {
            fields_n(count, 1)?;
            let n = int(f[0])?;
            match kind {
                4 => Order::Repair { ship: n },
                14 => Order::Scrap { ship: n },
                _ => Order::Colonise { star: n },
            }
        }
        5 => {
            fields_n(count, 2)?;
            let a = int(f[1])?;
            if a == 0 {
                return Err("Menge muss mindestens 1 sein".into());
            }
            Order::Refuel {
                ship: int(f[0])?,
                amount: a,
            }
        }
        6 => {
            fields_n(count, 2)?;
            let r = int(f[1])?;
            if r > 4 {
                return Err("Rückzugszahl muss 0 bis 4 sein".into());
            }
            Order::Retreat {
                ship: int(f[0])?,
                r,
            }
        }
        7 => {
            fields_n(count, 4)?;
            let fleet = match f[1].to_ascii_uppercase().as_str() {
                "A" => true,
                "/" => false,
                _ => return Err("zweites Feld muss A oder / sein".into()),
            };
            Order::Jump {
                ship: int(f[0])?,
                fleet,
                x: int(f[2])? as i32,
                y: int(f[3])? as i32,
            }
        }
        8 | 9 => {
            fields_n(count, 3)?;
            let good = Good::from_letter(f[1]).ok_or("Ware muss E, U oder G sein")?;
            let a = int(f[2])?;
            if a == 0 {
                return Err("Menge muss mindestens 1 sein".into());
            }
            let ship = int(f[0])?;
            if kind == 8 {
                Order::Unload {
                    ship,
                    good,
                    amount: a,
                }
            } else {
                Order::Load {
                    ship,
                    good,
                    amount: a,
                }
            }
        }
        10 | 11 => {
            fields_n(count, 3)?;
            let (ship, l, t) = (int(f[0])?, int(f[1])?, int(f[2])?);
            if l + t == 0 {
                return Err("keine Jäger angegeben".into());
            }
            if kind == 10 {
                Order::FightersOut { ship, l, t }
            } else {
                Order::FightersIn { ship, l, t }
            }
        }
        12 => {
            fields_n(count, 3)?;
            let kind = match f[1].to_ascii_uppercase().as_str() {
                "L" => FType::L,
                "T" => FType::T,
                _ => return Err("Jägertyp muss L oder T sein".into()),
            };
            let c = int(f[2])?;
            if c == 0 {
                return Err("Anzahl muss mindestens 1 sein".into());
            }
            Order::BuildFighters {
                star: int(f[0])?,
                kind,
                count: c,
            }
        }
        13 => {
            if count != 14 && count != 13 {
                return Err(format!("14 Felder erwartet, {count} angegeben"));
            }
            let typ = class_typ(f[2]).ok_or("Klasse muss ein Buchstabe A bis Z sein")?;
            let mut n = [0u32; 10];
            for (i, v) in n.iter_mut().enumerate() {
                *v = int(f[3 + i])?;
                if *v > MAX_DESIGN {
                    return Err(format!("Zahl „{}“ zu groß", f[3 + i]));
                }
            }
            let r = if count == 14 {
                int(f[13])?
            } else {
                note = Some("Rückzugszahl fehlt – 2 angenommen".to_string());
                2
            };
            if r > 4 {
                return Err("Rückzugszahl muss 0 bis 4 sein".into());
            }
            Order::BuildShip(BuildOrder {
                star: int(f[0])?,
                name: f[1].to_string(),
                typ,
                tk: n[0],
                jg: n[1],
                guns: [n[2], n[3], n[4], n[5]],
                shields: [n[6], n[7], n[8], n[9]],
                r,
            })
        }
        15 => {
            fields_n(count, 2)?;
            let facility = if f[1] == "-" {
                None
            } else {
                Some(Facility::from_letter(f[1]).ok_or("Anlage muss W, E, U, G, F oder - sein")?)
            };
            Order::Industry {
                star: int(f[0])?,
                facility,
            }
        }
        17 => {
            fields_n(count, 2)?;
            let a = int(f[1])?;
            if a == 0 {
                return Err("Betrag muss mindestens 1 WE sein".into());
            }
            Order::Transfer {
                ruler: int(f[0])?,
                amount: a as i64,
            }
        }
        18 => {
            fields_n(count, 2)?;
            Order::Handover {
                star: int(f[0])?,
                ruler: int(f[1])?,
            }
        }
        _ => return Err("unbekannter Befehl".into()),
    };
    Ok((o, note))
}

/// Parse a whole order block for the ruler; `state` gives the month being ordered.
pub fn parse(state: &State, text: &str) -> Parsed<Order> {
    let mut out = Parsed::new();
    let mut section = Section::None;
    let mut counts = [0usize; 19];
    let mut free: Option<(usize, Section, Vec<String>)> = None;
    let mut month_ok = true;
    let expected = short_month(&state.params, state.month + 1);
    let flush = |free: &mut Option<(usize, Section, Vec<String>)>, out: &mut Parsed<Order>| {
        if let Some((line, sec, lines)) = free.take() {
            let text = lines.join("\n");
            if text.trim().is_empty() {
                return;
            }
            let o = match sec {
                Section::Anzeiger => Order::Anzeiger(text.clone()),
                Section::Diplomatie(n) => Order::Diplomatie {
                    to: n,
                    text: text.clone(),
                },
                _ => Order::Hinweis(text.clone()),
            };
            out.push(line, text, o);
        }
    };
    for (no, line) in sheet_lines(text) {
        let line: &str = &line;
        // Only a line that starts with a letter (or another non-digit) can be
        // END or a header line; order entries start with a number, so they
        // skip the upper-casing.
        let upper = match line.as_bytes()[0] {
            b'0'..=b'9' | b'[' | b'#' => String::new(),
            _ => fold_line(line),
        };
        if upper == "ENDE" || upper == "END" {
            break;
        }
        if line.starts_with('[') && line.ends_with(']') {
            flush(&mut free, &mut out);
            match section_of(&line[1..line.len() - 1]) {
                Some(s) => {
                    if matches!(
                        s,
                        Section::Anzeiger | Section::Diplomatie(_) | Section::Hinweis
                    ) {
                        free = Some((no, s.clone(), Vec::new()));
                    }
                    section = s;
                }
                None => {
                    out.error(
                        no,
                        line,
                        "unbekannter Abschnitt – folgende Zeilen werden ignoriert",
                    );
                    section = Section::None;
                }
            }
            continue;
        }
        if let Some((_, _, lines)) = free.as_mut() {
            if !line.starts_with('#') {
                lines.push(line.to_string());
            }
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        if upper == "EDS BEFEHLE"
            || upper.starts_with("GALAXIS:")
            || upper.starts_with("HERRSCHER:")
            || upper.starts_with("KENNWORT:")
        {
            continue;
        }
        if let Some(m) = upper.strip_prefix("MONAT:") {
            let m = m.trim().replace(' ', "");
            if m != expected {
                out.error(
                    no,
                    line,
                    format!(
                        "Befehle für {m}, erwartet {expected} – gesamter Befehlsbogen verworfen"
                    ),
                );
                month_ok = false;
            }
            continue;
        }
        let kind = match section {
            Section::Orders(k) => k,
            _ => {
                out.error(
                    no,
                    line,
                    "Zeile steht in keinem Befehlsabschnitt – Befehl verworfen",
                );
                continue;
            }
        };
        let limit = state.params.order_limits[kind as usize - 1];
        each_entry(line, |entry| match parse_entry(kind, entry) {
            Ok((order, note)) => {
                if counts[kind as usize] >= limit {
                    out.error(
                        no,
                        entry,
                        format!(
                            "Höchstzahl von {limit} Einträgen überschritten – Eintrag ignoriert"
                        ),
                    );
                    return;
                }
                counts[kind as usize] += 1;
                if let Some(n) = note {
                    out.warn(no, entry, n);
                }
                out.push(no, entry, order);
            }
            Err(why) => out.error(
                no,
                entry,
                format!("Syntaxfehler ({why}) – Befehl verworfen"),
            ),
        });
    }
    flush(&mut free, &mut out);
    if !month_ok {
        out.orders.clear();
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
    let mut last: Option<&arbitre_core::Located<Order>> = None;
    let mut seen = std::collections::BTreeSet::new();
    let mut ore: std::collections::BTreeMap<u32, u32> = std::collections::BTreeMap::new();
    let mut sorted: Vec<&arbitre_core::Located<Order>> = parsed.orders.iter().collect();
    sorted.sort_by_key(|o| o.order.phase());
    for o in sorted {
        let cost = match &o.order {
            Order::Repair { ship } => state
                .ships
                .get(ship)
                .filter(|s| s.owner == ruler)
                .map(|s| repair_cost(p, s) * s.hits as i64)
                .unwrap_or(0),
            Order::BuildFighters { star, kind, count } => {
                *ore.entry(*star).or_default() += count.min(&p.yard_fighters) * p.fighter_ore;
                *count as i64
                    * if *kind == FType::L {
                        p.fighter_we_l
                    } else {
                        p.fighter_we_t
                    }
            }
            Order::BuildShip(b) => {
                *ore.entry(b.star).or_default() += crate::formulas::hull_ore(p, b.typ);
                hull_we(p, b.typ) + armament_we(p, &b.guns, &b.shields)
            }
            Order::Industry {
                facility: Some(f), ..
            } => p.industry_cost[f.idx()],
            Order::Colonise { star } if seen.insert(*star) => state
                .stars
                .get(star)
                .map(|s| colonise_cost(p, s.bv + 1))
                .unwrap_or(0),
            Order::Transfer { amount, .. } => *amount,
            _ => 0,
        };
        if cost > 0 {
            total += cost;
            last = Some(o);
        }
    }
    let last = last.map(|o| (o.line, o.text.clone()));
    for (star, need) in ore {
        let have = state
            .stars
            .get(&star)
            .filter(|s| s.owner == Some(ruler))
            .map(|s| s.stock[0]);
        if let Some(have) = have.filter(|h| need > *h) {
            if let Some((line, text)) = &last {
                parsed.warn(*line, text.clone(), format!("Werftstern {star}: {need} Erz verplant, vorhanden: {have} Erz – Achtung, mehr verplant als vorhanden"));
            }
        }
    }
    if let Some((line, text)) = last {
        if total > r.we {
            parsed.warn(
                line,
                text,
                format!(
                    "Verplant: {total} WE, vorhanden: {} WE – Achtung, mehr verplant als vorhanden",
                    r.we
                ),
            );
        }
    }
}
