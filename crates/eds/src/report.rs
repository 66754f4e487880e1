//! The player documents (rulebook "Die Spielunterlagen", spec §6): Herrscherliste,
//! Monatsbericht with Fehlerprotokoll, Kampfberichte, Besitztümerblatt with the
//! Beobachtungen, Sternenkarte (text and SVG), Sternenanzeiger and the Befehlsblatt
//! template. Column layouts follow §6.4.2 exactly; every ruler sees only what
//! §6.9 allows, the spectator the public facts, the game master everything.

use crate::events::Event;
use crate::formulas::{de_dec2, month_label, short_month, year_month, year_name};
use crate::model::{RulerNr, Ship, Star, State};
use crate::orders::{PHASE_NAMES, SECTION_NAMES, SECTION_SYNTAX};
use std::fmt::Write;

pub const TITLE: &str = "EVOLUTION DER STERNE";

fn ruler_label(state: &State, n: RulerNr) -> String {
    format!("{:02} {}", n, state.name_of(n))
}

pub fn herrscherliste(state: &State) -> String {
    let mut s = format!(
        "{TITLE} · HERRSCHERLISTE\nGalaxis: {} ({} Herrscher)\nNr. Name\n",
        state.galaxy,
        state.rulers.len()
    );
    for r in &state.rulers {
        let out = if r.active { "" } else { " (ausgeschieden)" };
        let _ = writeln!(s, "{:02}  {}{}", r.number, r.name, out);
    }
    s
}

pub const STAR_HEADER: &str =
    " Nr. Name         Xko Yko BV I Ljg Tjg     E     U     G ErE ErU ErG Bes";
pub const SHIP_HEADER1: &str =
    "                                                 ------Kanonen------ ------Schilde------";
pub const SHIP_HEADER2: &str = " Nr. Name         Xko Yko G  Tk  JG  LR RW LX TX    L    T    N    A    L    T    N    A T  SP Ljg Tjg Ladung R Bes";

pub fn star_line(s: &Star) -> String {
    let fac = s.facility.map(|f| f.letter()).unwrap_or('-');
    let bes = s
        .owner
        .map(|o| format!("{o:02}"))
        .unwrap_or_else(|| "--".into());
    format!(
        "{:>4} {:<12} {:>3} {:>3} {:>2} {} {:>3} {:>3} {:>5} {:>5} {:>5} {:>3} {:>3} {:>3} {:>3}",
        s.number,
        s.name,
        s.x,
        s.y,
        s.bv,
        fac,
        s.ljg,
        s.tjg,
        s.stock[0],
        s.stock[1],
        s.stock[2],
        s.rate[0],
        s.rate[1],
        s.rate[2],
        bes
    )
}

pub fn ship_line(s: &Ship) -> String {
    let cargo = match s.cargo {
        Some((g, n)) => format!("{},{}", g.letter(), n),
        None => "-".into(),
    };
    format!(
        "{:>4} {:<12} {:>3} {:>3} {} {:>3} {:>3} {:>3} {:>2} {:>2} {:>2} {:>4} {:>4} {:>4} {:>4} {:>4} {:>4} {:>4} {:>4} {:>1} {:>3} {:>3} {:>3} {:<6} {:>1} {:>3}",
        s.number,
        s.name,
        s.x,
        s.y,
        s.class_letter(),
        s.tk,
        s.jg,
        s.lr,
        s.rw,
        s.lx,
        s.tx,
        s.guns[0],
        s.guns[1],
        s.guns[2],
        s.guns[3],
        s.shields[0],
        s.shields[1],
        s.shields[2],
        s.shields[3],
        s.hits,
        s.sp,
        s.ljg,
        s.tjg,
        cargo,
        s.r,
        format!("{:02}", s.owner)
    )
}

fn ships_sorted<'a>(it: impl Iterator<Item = &'a Ship>) -> Vec<&'a Ship> {
    let mut v: Vec<&Ship> = it.collect();
    v.sort_by_key(|s| (s.x, s.y, s.number));
    v
}

/// Foreign stars a ruler observes: an own ship stands over them (§6.9).
pub fn observed_stars(state: &State, r: RulerNr) -> Vec<&Star> {
    let sp = state.spatial();
    let mut v: Vec<&Star> = state
        .ships
        .values()
        .filter(|s| s.owner == r)
        .filter_map(|s| sp.star_nr(s.x, s.y))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .map(|n| &state.stars[&n])
        .filter(|s| s.owner != Some(r))
        .collect();
    v.sort_by_key(|s| s.number);
    v
}

/// Foreign ships a ruler observes (§6.9): at an own star, or where an own ship
/// stands and the point is not a star of the foreign ship's owner.
pub fn observed_ships(state: &State, r: RulerNr) -> Vec<&Ship> {
    let sp = state.spatial();
    ships_sorted(state.ships.values().filter(|x| {
        if x.owner == r {
            return false;
        }
        let star = sp.star_nr(x.x, x.y).map(|n| &state.stars[&n]);
        if star.is_some_and(|s| s.owner == Some(r)) {
            return true;
        }
        let own_here = sp
            .ships_at(x.x, x.y)
            .iter()
            .any(|k| state.ships[k].owner == r);
        own_here && star.is_none_or(|s| s.owner != Some(x.owner))
    }))
}

fn stand_line(state: &State) -> String {
    let (y, _) = year_month(&state.params, state.month.max(1));
    let yn = format!("Jahr {} – {}", y, year_name(&state.params, y));
    if state.month == 0 {
        format!("Stand vor dem ersten Monat (Spielvorbereitung) · {yn}")
    } else {
        format!(
            "Stand nach {} · {yn}",
            month_label(&state.params, state.month)
        )
    }
}

pub const ZAT_LINE: &str = "Zugabgabetermin: siehe Begleitschreiben der Spielleitung";

pub fn besitztuemerblatt(state: &State, r: RulerNr) -> String {
    let ruler = state.ruler(r).expect("ruler");
    let mut s = String::new();
    let _ = writeln!(s, "{TITLE} · BESITZTÜMERBLATT");
    let _ = writeln!(
        s,
        "Galaxis: {} ({} Herrscher, {} × {})",
        state.galaxy,
        state.rulers.len(),
        state.width,
        state.height
    );
    let _ = writeln!(s, "Herrscher: {}", ruler_label(state, r));
    let _ = writeln!(s, "{}", stand_line(state));
    if !state.game_over {
        let _ = writeln!(
            s,
            "Befehle für: {}",
            month_label(&state.params, state.month + 1)
        );
        let _ = writeln!(s, "{ZAT_LINE}");
    } else {
        let _ = writeln!(s, "Das Spiel ist beendet.");
    }
    let _ = writeln!(
        s,
        "\nVermögen: {} WE\nEvolutionsstufe: {}\n",
        ruler.we, ruler.ev
    );
    let _ = writeln!(s, "STATUS ZU DEN HERRSCHERN\nNr:St Name");
    for o in &state.rulers {
        if o.number == r {
            continue;
        }
        let out = if o.active { "" } else { " (ausgeschieden)" };
        let _ = writeln!(
            s,
            "{:02}:{}  {}{}",
            o.number,
            state.st(r, o.number),
            o.name,
            out
        );
    }
    let _ = writeln!(s, "\nSTERNE\n{STAR_HEADER}");
    for st in state.stars.values().filter(|x| x.owner == Some(r)) {
        let _ = writeln!(s, "{}", star_line(st));
    }
    let _ = writeln!(s, "\nRAUMSCHIFFE\n{SHIP_HEADER1}\n{SHIP_HEADER2}");
    for sh in ships_sorted(state.ships.values().filter(|x| x.owner == r)) {
        let _ = writeln!(s, "{}", ship_line(sh));
    }
    let _ = writeln!(s, "\nBEOBACHTUNGEN\nFremde Sterne\n{STAR_HEADER}");
    for st in observed_stars(state, r) {
        let _ = writeln!(s, "{}", star_line(st));
    }
    let _ = writeln!(s, "Fremde Raumschiffe\n{SHIP_HEADER1}\n{SHIP_HEADER2}");
    for sh in observed_ships(state, r) {
        let _ = writeln!(s, "{}", ship_line(sh));
    }
    if !state.game_over {
        let _ = writeln!(s, "\n{ZAT_LINE}");
    }
    s
}

/// What a map shows at one point for a viewer (None = the public map).
fn map_symbol(
    state: &State,
    sp: &crate::model::Spatial,
    viewer: Option<RulerNr>,
    x: i32,
    y: i32,
) -> char {
    let star = sp.star_nr(x, y).map(|n| &state.stars[&n]);
    let own_ship =
        viewer.is_some_and(|r| sp.ships_at(x, y).iter().any(|k| state.ships[k].owner == r));
    match (star, viewer) {
        (Some(st), Some(r)) if st.owner == Some(r) => {
            if own_ship {
                '@'
            } else {
                'O'
            }
        }
        (Some(_), _) => {
            if own_ship {
                'x'
            } else {
                '*'
            }
        }
        (None, _) => {
            if own_ship {
                'S'
            } else {
                '.'
            }
        }
    }
}

pub fn sternenkarte(state: &State, viewer: Option<RulerNr>) -> String {
    let who = viewer
        .map(|r| ruler_label(state, r))
        .unwrap_or_else(|| "öffentlich".into());
    let stand = if state.month == 0 {
        "Spielvorbereitung".to_string()
    } else {
        format!("Stand nach {}", short_month(&state.params, state.month))
    };
    let mut s = format!(
        "STERNENKARTE · Galaxis {} · {} · {}\n",
        state.galaxy, who, stand
    );
    s.push_str("Legende: . leer  * Stern  O eigener Stern  @ eigener Stern mit eigenem Schiff\n");
    s.push_str(
        "         x fremder/herrenloser Stern mit eigenem Schiff  S eigenes Schiff im Leerraum\n",
    );
    let w = state.width;
    let digit = |x: i32, div: i32| {
        let d = (x / div) % 10;
        if x % div == 0 || div == 1 {
            if div > 1 && x < div {
                ' '
            } else {
                char::from(b'0' + d as u8)
            }
        } else {
            ' '
        }
    };
    if w >= 100 {
        s.push_str("    ");
        for x in 1..=w {
            s.push(if x % 100 == 0 {
                char::from(b'0' + ((x / 100) % 10) as u8)
            } else {
                ' '
            });
        }
        s.push('\n');
    }
    s.push_str("    ");
    for x in 1..=w {
        s.push(digit(x, 10));
    }
    s.push('\n');
    s.push_str("    ");
    for x in 1..=w {
        s.push(digit(x, 1));
    }
    s.push('\n');
    let sp = state.spatial();
    for y in 1..=state.height {
        let _ = write!(s, "{y:>3} ");
        for x in 1..=w {
            s.push(map_symbol(state, &sp, viewer, x, y));
        }
        s.push('\n');
    }
    s.push_str("\nSTERNVERZEICHNIS (Nr. Xko Yko)\n");
    let entries: Vec<String> = state
        .stars
        .values()
        .map(|st| {
            let name = if viewer.is_some() && st.owner == viewer {
                st.name.as_str()
            } else {
                ""
            };
            format!("{:>4} {:>3} {:>3} {:<12}", st.number, st.x, st.y, name)
        })
        .collect();
    for chunk in entries.chunks(4) {
        let _ = writeln!(s, "{}", chunk.join("  ").trim_end());
    }
    s
}

/// The SVG map attached to the report mail.
pub fn sternenkarte_svg(state: &State, viewer: Option<RulerNr>) -> String {
    let c = 10;
    let (w, h) = (state.width * c + 2 * c, state.height * c + 2 * c);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"#05051a\"/>\n"
    );
    let _ = writeln!(
        s,
        "<title>Sternenkarte {} {}</title>",
        state.galaxy,
        short_month(&state.params, state.month.max(1))
    );
    for st in state.stars.values() {
        let (cx, cy) = (st.x * c + c / 2 + c / 2, st.y * c + c / 2 + c / 2);
        let own = viewer.is_some() && st.owner == viewer;
        let fill = if own { "#4caf50" } else { "#dddddd" };
        let _ = writeln!(s, "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"3\" fill=\"{fill}\"><title>Stern {} ({},{}) {}</title></circle>", st.number, st.x, st.y, if own { st.name.as_str() } else { "" });
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"6\" fill=\"#888888\">{}</text>",
            cx + 4,
            cy - 3,
            st.number
        );
    }
    if let Some(r) = viewer {
        let mut pts: Vec<(i32, i32)> = state
            .ships
            .values()
            .filter(|x| x.owner == r)
            .map(|x| x.pos())
            .collect();
        pts.dedup();
        pts.sort();
        pts.dedup();
        for (x, y) in pts {
            let (cx, cy) = (x * c + c, y * c + c);
            let _ = writeln!(s, "<rect x=\"{}\" y=\"{}\" width=\"8\" height=\"8\" fill=\"none\" stroke=\"#ffcc00\"/>", cx - 4, cy - 4);
        }
    }
    s.push_str("</svg>\n");
    s
}

pub fn befehlsblatt(state: &State, r: RulerNr) -> String {
    let ruler = state.ruler(r).expect("ruler");
    let mut s = format!(
        "SPIEL {} SPIELER {} PASSWORT <Dein Passwort>\n",
        state.game_id, ruler.id
    );
    let _ = writeln!(
        s,
        "# Befehlsblatt für {} · Herrscher {}",
        month_label(&state.params, state.month + 1),
        ruler_label(state, r)
    );
    let _ = writeln!(
        s,
        "MONAT: {}\n",
        short_month(&state.params, state.month + 1)
    );
    for i in 0..18 {
        let _ = writeln!(s, "[{} {}]", i + 1, SECTION_NAMES[i]);
        let _ = writeln!(
            s,
            "# {}   – höchstens {} Einträge\n",
            SECTION_SYNTAX[i], state.params.order_limits[i]
        );
    }
    s.push_str(
        "[ANZEIGER]\n# Text für den Sternenanzeiger (wird mit Nummer und Name unterzeichnet)\n\n",
    );
    s.push_str("# [DIPLOMATIE 04]  – vertrauliche Nachricht an Herrscher 04 (eigener Abschnitt je Empfänger)\n\n");
    s.push_str("[HINWEIS]\n# Nachricht an die Spielleitung\n\nEND\n");
    s
}

pub fn sternenanzeiger(state: &State) -> String {
    let mut s = format!(
        "DER STERNENANZEIGER · Galaxis {} · Ausgabe {}\n",
        state.galaxy,
        if state.month == 0 {
            "Spielvorbereitung".into()
        } else {
            short_month(&state.params, state.month)
        }
    );
    s.push_str("BEKANNTMACHUNGEN DER SPIELLEITUNG\n");
    s.push_str(if state.announcements.trim().is_empty() {
        "keine"
    } else {
        state.announcements.trim_end()
    });
    s.push_str("\nBEITRÄGE\n");
    if state.anzeiger.is_empty() {
        s.push_str("keine\n");
    }
    for (a, t) in &state.anzeiger {
        let _ = writeln!(s, "--- {} ---\n{}", ruler_label(state, *a), t);
    }
    s
}

fn msg_line(phase: u8, entry: &Option<String>, text: &str) -> String {
    match entry {
        Some(e) => format!(
            "{:>2} {} {}: {}",
            phase, PHASE_NAMES[phase as usize], e, text
        ),
        None => format!("{:>2} {}", phase, text),
    }
}

/// The Monatsbericht of one ruler (None: the public part only).
pub fn monatsbericht(state: &State, events: &[Event], r: Option<RulerNr>) -> String {
    let mut s = format!("{TITLE} · MONATSBERICHT\n");
    let who = r
        .map(|r| format!("Herrscher {}", ruler_label(state, r)))
        .unwrap_or_else(|| "Öffentliche Ausgabe".into());
    let _ = writeln!(
        s,
        "{} · Auswertung von {}\n",
        who,
        month_label(&state.params, state.month)
    );
    let mut errors = Vec::new();
    let mut infos = Vec::new();
    let mut transfers = Vec::new();
    let mut battles = Vec::new();
    let mut diplomacy = Vec::new();
    let mut avg = None;
    let mut end = None;
    for e in events {
        match e {
            Event::Msg(m) if Some(m.ruler) == r => {
                let line = msg_line(m.phase, &m.entry, &m.text);
                if m.error {
                    errors.push(line)
                } else {
                    infos.push(line)
                }
            }
            Event::JumpOrder(v) if r.is_some() => {
                let order: Vec<String> = v.iter().map(|n| format!("{n:02}")).collect();
                infos.push(format!(" 7 Sprungreihenfolge: {}", order.join(", ")));
            }
            Event::Transfer { from, to, amount } => transfers.push(format!(
                "{} an {}: {} WE",
                ruler_label(state, *from),
                ruler_label(state, *to),
                amount
            )),
            Event::Battle(b) => battles.push(b.short.clone()),
            Event::Diplomacy { from, to, text } if Some(*to) == r => diplomacy.push(format!(
                "--- von {} ---\n{}",
                ruler_label(state, *from),
                text
            )),
            Event::AverageEv(v) => avg = Some(*v),
            Event::GameEnd(w) => end = Some(w.clone()),
            _ => {}
        }
    }
    if r.is_some() {
        s.push_str("FEHLERPROTOKOLL\n");
        if errors.is_empty() {
            s.push_str("keine Fehler\n");
        }
        for l in errors {
            let _ = writeln!(s, "{l}");
        }
        s.push_str("\nMELDUNGEN\n");
        for l in infos {
            let _ = writeln!(s, "{l}");
        }
        s.push('\n');
    }
    s.push_str("ÜBERWEISUNGEN IN DER GALAXIS\n");
    if transfers.is_empty() {
        s.push_str("keine\n");
    }
    for l in transfers {
        let _ = writeln!(s, "{l}");
    }
    s.push_str("\nKAMPFBERICHTE (Kurzfassung)\n");
    if battles.is_empty() {
        s.push_str("keine Kämpfe\n");
    }
    for l in battles {
        let _ = writeln!(s, "{l}");
    }
    if !diplomacy.is_empty() {
        s.push_str("\nDIPLOMATIE\n");
        for l in diplomacy {
            let _ = writeln!(s, "{l}");
        }
    }
    if let Some(v) = avg {
        let _ = writeln!(
            s,
            "\nDURCHSCHNITTLICHE EVOLUTIONSSTUFE ALLER REICHE: {}",
            de_dec2(v)
        );
    }
    if let Some(w) = end.or_else(|| state.game_over.then(|| state.winners.clone())) {
        let names: Vec<String> = w.iter().map(|n| ruler_label(state, *n)).collect();
        let _ = writeln!(
            s,
            "\nSPIELENDE\nEvolutionsstufe {} erreicht. Sieger: {}",
            state.params.ev_win,
            names.join(", ")
        );
    }
    s
}

pub fn kampfberichte(events: &[Event]) -> String {
    let mut s = String::new();
    for e in events {
        if let Event::Battle(b) = e {
            s.push_str(&b.text);
            s.push('\n');
        }
    }
    s
}

pub fn hinweise(state: &State, events: &[Event]) -> String {
    let mut s = String::new();
    for e in events {
        if let Event::Note { from, text } = e {
            let _ = writeln!(s, "--- {} ---\n{}", ruler_label(state, *from), text);
        }
    }
    s
}
