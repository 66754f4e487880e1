//! The player documents (rulebook "Die Spielunterlagen", spec §6): Herrscherliste,
//! Monatsbericht with Fehlerprotokoll, Kampfberichte, Besitztümerblatt with the
//! Beobachtungen, Sternenkarte (text and SVG), Sternenanzeiger and the Befehlsblatt
//! template. Column layouts follow §6.4.2 exactly; every ruler sees only what
//! §6.9 allows, the spectator the public facts, the game master everything.
//!
//! The text documents are rendered from the typed [`crate::view::EdsView`]
//! alone (issue 20 item 2), which the JSON report carries as its `view`: what
//! a viewer may see is decided there, and the text cannot show anything else.

use crate::columns::{push_int, push_ship_line, push_star_line};
use crate::directory::{self, Directory};
use crate::events::Event;
use crate::formulas::{de_dec2, month_label, month_label_of, short_month, short_month_of};
use crate::model::{RulerNr, Ship, Spatial, Star, State};
use crate::orders::{PHASE_NAMES, SECTION_NAMES, SECTION_SYNTAX};
use crate::view::{
    self, EdsView, Info, MapView, MonthReport, RulerDocs, RulerEntry, Sheet, ShipView, StarView,
    ViewKind,
};
use arbitre_core::LocalDeadline;
use std::collections::BTreeMap;
use std::fmt::Write;

pub use crate::svg::sternenkarte_svg;

pub const TITLE: &str = "EVOLUTION DER STERNE";

fn ruler_label(state: &State, n: RulerNr) -> String {
    format!("{:02} {}", n, state.name_of(n))
}

/// `"07 NAME"` from the view's Herrscherliste (an unknown number: no
/// name), written where it is used rather than into a `String` of its own.
struct Label<'a>(&'a [RulerEntry], RulerNr);

impl std::fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Label(rulers, n) = *self;
        let name = rulers
            .iter()
            .find(|r| r.number == n)
            .map_or("", |r| r.name.as_str());
        write!(f, "{n:02} {name}")
    }
}

fn label_of(rulers: &[RulerEntry], n: RulerNr) -> Label<'_> {
    Label(rulers, n)
}

/// The month labels need only the months per year of the game's rules.
fn calendar(v: &EdsView) -> u32 {
    v.rules.months_per_year.max(1)
}

/// A view with the game's frame only (rulers, rules, calendar): what the
/// section renderers need beside their own part, for the callers that
/// render one section from a state.
fn frame(state: &State, viewer: ViewKind) -> EdsView {
    EdsView {
        game: state.game_id.clone(),
        galaxy: state.galaxy.clone(),
        month: state.month,
        viewer,
        width: state.width,
        height: state.height,
        game_over: state.game_over,
        deadline: None,
        rules: view::Rules {
            months_per_year: state.params.months_per_year,
            ev_win: state.params.ev_win,
            order_limits: Vec::new(),
        },
        rulers: state
            .rulers
            .iter()
            .map(|r| RulerEntry {
                number: r.number,
                name: r.name.clone(),
                active: r.active,
            })
            .collect(),
        notes: Vec::new(),
        sheets: Vec::new(),
        public_report: None,
        battles: Vec::new(),
        map: MapView {
            stars: Vec::new(),
            ships: Vec::new(),
        },
        anzeiger: view::anzeiger(state),
        all_stars: Vec::new(),
    }
}

pub fn herrscherliste(state: &State) -> String {
    render_herrscherliste(&frame(state, ViewKind::Spectator))
}

fn render_herrscherliste(v: &EdsView) -> String {
    let mut s = format!(
        "{TITLE} · HERRSCHERLISTE\nGalaxis: {} ({} Herrscher)\nNr. Name\n",
        v.galaxy,
        v.rulers.len()
    );
    for r in &v.rulers {
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
    render_star_line(&view::star_view(s))
}

pub fn render_star_line(s: &StarView) -> String {
    let mut line = String::with_capacity(80);
    push_star_line(&mut line, s);
    line
}

pub fn ship_line(s: &Ship) -> String {
    render_ship_line(&view::ship_view(s, false))
}

pub fn render_ship_line(s: &ShipView) -> String {
    let mut line = String::with_capacity(128);
    push_ship_line(&mut line, s);
    line
}

pub(crate) fn ships_sorted<'a>(it: impl Iterator<Item = &'a Ship>) -> Vec<&'a Ship> {
    let mut v: Vec<&Ship> = it.collect();
    v.sort_by_key(|s| (s.x, s.y, s.number));
    v
}

/// A [`Spatial`] index holding every ship but only the stars under a ship:
/// all that the Beobachtungen ask (they look only where ships stand). Indexing
/// every star again for each of 99 rulers' sheets was most of their cost in a
/// galaxy of 10,000 stars; here the stars are tested against a bitmap of the
/// ships' points, O(stars) with a tiny constant, and only the few hits are
/// put into the tree.
pub fn ship_spots(state: &State) -> Spatial {
    let mut ships: std::collections::BTreeMap<(i32, i32), Vec<crate::model::ShipNr>> =
        std::collections::BTreeMap::new();
    for s in state.ships.values() {
        ships.entry((s.x, s.y)).or_default().push(s.number);
    }
    let w = state.width.max(0) as usize;
    let cell = |x: i32, y: i32| {
        state
            .in_map(x, y)
            .then(|| (y as usize - 1) * w + x as usize - 1)
    };
    let mut marked = vec![false; w * state.height.max(0) as usize];
    for &(x, y) in ships.keys() {
        if let Some(i) = cell(x, y) {
            marked[i] = true;
        }
    }
    let mut stars = std::collections::BTreeMap::new();
    for st in state.stars.values() {
        let here = match cell(st.x, st.y) {
            Some(i) => marked[i],
            None => ships.contains_key(&(st.x, st.y)),
        };
        if here {
            stars.insert((st.x, st.y), st.number);
        }
    }
    Spatial { stars, ships }
}

/// Foreign stars a ruler observes: an own ship stands over them (§6.9).
pub fn observed_stars(state: &State, r: RulerNr) -> Vec<&Star> {
    observed_stars_in(state, &ship_spots(state), r)
}

/// [`observed_stars`] with the month's [`Spatial`] index built by the caller,
/// so that a turn's reports build it once per report, not once per section.
pub fn observed_stars_in<'a>(state: &'a State, sp: &Spatial, r: RulerNr) -> Vec<&'a Star> {
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
    observed_ships_in(state, &ship_spots(state), r)
}

/// [`observed_ships`] with the caller's [`Spatial`] index.
pub fn observed_ships_in<'a>(state: &'a State, sp: &Spatial, r: RulerNr) -> Vec<&'a Ship> {
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

fn stand_line(v: &EdsView, sh: &Sheet) -> String {
    let yn = format!("Jahr {} – {}", sh.year, sh.year_name);
    if v.month == 0 {
        format!("Stand vor dem ersten Monat (Spielvorbereitung) · {yn}")
    } else {
        format!("Stand nach {} · {yn}", month_label_of(calendar(v), v.month))
    }
}

/// The Zugabgabetermin line when the referee handed in no deadline.
pub const ZAT_LINE: &str = "Zugabgabetermin: siehe Begleitschreiben der Spielleitung";

const WEEKDAYS: [&str; 7] = ["Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"];

/// The Zugabgabetermin as a German sheet writes a date (issue 17 item 9):
/// "Zugabgabetermin: Mi., 09.12.2026, 18:00 Uhr (Europe/Berlin)". The
/// rulebook (Teil III, 1.) names the ZAT on the Spielerseite without a
/// format, so this is the usual German civil notation; the zone is the
/// reader's own (TIMEZONE), as in the mail around it.
pub fn zat_line(deadline: Option<&LocalDeadline>) -> String {
    match deadline {
        None => ZAT_LINE.to_string(),
        Some(d) => format!(
            "Zugabgabetermin: {}., {:02}.{:02}.{:04}, {:02}:{:02} Uhr ({})",
            WEEKDAYS.get(d.weekday as usize).copied().unwrap_or("?"),
            d.day,
            d.month,
            d.year,
            d.hour,
            d.minute,
            d.zone
        ),
    }
}

pub fn besitztuemerblatt(state: &State, r: RulerNr) -> String {
    besitztuemerblatt_in(state, &ship_spots(state), r)
}

/// [`besitztuemerblatt`] with the caller's [`Spatial`] index; a
/// [`ship_spots`] index is enough.
pub fn besitztuemerblatt_in(state: &State, sp: &Spatial, r: RulerNr) -> String {
    render_sheet(&frame(state, ViewKind::Player), &view::sheet(state, sp, r))
}

fn render_sheet(v: &EdsView, sh: &Sheet) -> String {
    let cal = calendar(v);
    let mut s = String::new();
    let _ = writeln!(s, "{TITLE} · BESITZTÜMERBLATT");
    let _ = writeln!(
        s,
        "Galaxis: {} ({} Herrscher, {} × {})",
        v.galaxy,
        v.rulers.len(),
        v.width,
        v.height
    );
    let _ = writeln!(s, "Herrscher: {}", label_of(&v.rulers, sh.ruler));
    let _ = writeln!(s, "{}", stand_line(v, sh));
    if !v.game_over {
        let _ = writeln!(s, "Befehle für: {}", month_label_of(cal, v.month + 1));
        let _ = writeln!(s, "{}", zat_line(v.deadline.as_ref()));
    } else {
        let _ = writeln!(s, "Das Spiel ist beendet.");
    }
    let _ = writeln!(s, "\nVermögen: {} WE\nEvolutionsstufe: {}\n", sh.we, sh.ev);
    let _ = writeln!(s, "STATUS ZU DEN HERRSCHERN\nNr:St Name");
    for st in &sh.statuses {
        let (name, active) = v
            .rulers
            .iter()
            .find(|r| r.number == st.ruler)
            .map_or(("", true), |r| (r.name.as_str(), r.active));
        let out = if active { "" } else { " (ausgeschieden)" };
        let _ = writeln!(s, "{:02}:{}  {}{}", st.ruler, st.status, name, out);
    }
    let _ = writeln!(s, "\nSTERNE\n{STAR_HEADER}");
    for st in &sh.stars {
        push_star_line(&mut s, st);
        s.push('\n');
    }
    let _ = writeln!(s, "\nRAUMSCHIFFE\n{SHIP_HEADER1}\n{SHIP_HEADER2}");
    for x in &sh.ships {
        push_ship_line(&mut s, x);
        s.push('\n');
    }
    let _ = writeln!(s, "\nBEOBACHTUNGEN\nFremde Sterne\n{STAR_HEADER}");
    for st in &sh.observed_stars {
        push_star_line(&mut s, st);
        s.push('\n');
    }
    let _ = writeln!(s, "Fremde Raumschiffe\n{SHIP_HEADER1}\n{SHIP_HEADER2}");
    for x in &sh.observed_ships {
        push_ship_line(&mut s, x);
        s.push('\n');
    }
    if !v.game_over {
        let _ = writeln!(s, "\n{}", zat_line(v.deadline.as_ref()));
    }
    s
}

/// The text map's cells for a viewer (no sheet = the public map), row by
/// row from (1,1): `*` every star, `O` the viewer's own, then the viewer's
/// ships mark their points (`@` own star, `x` other star, `S` empty space).
/// Filling a grid from the star and ship lists costs O(map + stars + ships)
/// per map, where asking two indexes at every point cost two tree lookups a
/// point. When two stars share a point the higher number shows, as in
/// [`Spatial`].
fn map_cells(v: &EdsView, own: &BTreeMap<i64, &str>) -> Vec<u8> {
    let (w, h) = (v.width.max(0) as usize, v.height.max(0) as usize);
    let at = |x: i64, y: i64| {
        (x >= 1 && y >= 1 && x <= i64::from(v.width) && y <= i64::from(v.height))
            .then(|| (y as usize - 1) * w + x as usize - 1)
    };
    let mut grid = vec![b'.'; w * h];
    for &[n, x, y] in &v.map.stars {
        if let Some(i) = at(x, y) {
            grid[i] = if own.contains_key(&n) { b'O' } else { b'*' };
        }
    }
    for &[x, y] in &v.map.ships {
        if let Some(i) = at(i64::from(x), i64::from(y)) {
            grid[i] = match grid[i] {
                b'O' => b'@',
                b'*' => b'x',
                b'.' => b'S',
                done => done,
            };
        }
    }
    grid
}

pub fn sternenkarte(state: &State, viewer: Option<RulerNr>) -> String {
    let mut v = frame(state, ViewKind::Spectator);
    v.map = view::map(state, viewer);
    let sheet = viewer.map(|r| Sheet {
        ruler: r,
        year: 0,
        year_name: String::new(),
        we: 0,
        ev: 0,
        statuses: Vec::new(),
        stars: state
            .stars
            .values()
            .filter(|s| s.owner == Some(r))
            .map(view::star_view)
            .collect(),
        ships: Vec::new(),
        observed_stars: Vec::new(),
        observed_ships: Vec::new(),
    });
    render_map(&v, sheet.as_ref(), None)
}

/// The Sternenkarte and Sternverzeichnis of `v`; `own` is the viewer's
/// sheet (its stars are the `O` of the map and the names of the
/// directory), none for the public map; `dir` the month's public directory.
fn render_map(v: &EdsView, own: Option<&Sheet>, dir: Option<&Directory>) -> String {
    let who = own
        .map(|sh| label_of(&v.rulers, sh.ruler).to_string())
        .unwrap_or_else(|| "öffentlich".into());
    let stand = if v.month == 0 {
        "Spielvorbereitung".to_string()
    } else {
        format!("Stand nach {}", short_month_of(calendar(v), v.month))
    };
    let names: BTreeMap<i64, &str> = own
        .map(|sh| {
            sh.stars
                .iter()
                .map(|s| (i64::from(s.number), s.name.as_str()))
                .collect()
        })
        .unwrap_or_default();
    let (wu, hu) = (v.width.max(0) as usize, v.height.max(0) as usize);
    let mut s = String::with_capacity((wu + 5) * (hu + 8) + v.map.stars.len() * 27);
    let _ = writeln!(
        s,
        "STERNENKARTE · Galaxis {} · {} · {}",
        v.galaxy, who, stand
    );
    s.push_str("Legende: . leer  * Stern  O eigener Stern  @ eigener Stern mit eigenem Schiff\n");
    s.push_str(
        "         x fremder/herrenloser Stern mit eigenem Schiff  S eigenes Schiff im Leerraum\n",
    );
    let w = v.width;
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
    let grid = map_cells(v, &names);
    if wu > 0 {
        for (y, row) in (1..=v.height).zip(grid.chunks(wu)) {
            push_int(&mut s, i64::from(y), 3);
            s.push(' ');
            // The cells are ASCII by construction.
            s.push_str(std::str::from_utf8(row).unwrap_or_default());
            s.push('\n');
        }
    } else {
        for y in 1..=v.height {
            let _ = writeln!(s, "{y:>3} ");
        }
    }
    s.push_str("\nSTERNVERZEICHNIS (Nr. Xko Yko)\n");
    directory::push(&mut s, dir, &v.map.stars, &names);
    s
}

pub fn befehlsblatt(state: &State, r: RulerNr) -> String {
    befehlsblatt_with(state, r, &befehlsblatt_sections(state))
}

/// [`befehlsblatt`] with the month's [`befehlsblatt_sections`], which are
/// the same for every ruler. A number no ruler has gets no handle.
pub(crate) fn befehlsblatt_with(state: &State, r: RulerNr, sections: &str) -> String {
    let id = state.ruler(r).map_or("", |x| x.id.as_str());
    let mut s = String::with_capacity(sections.len() + 256);
    let _ = writeln!(
        s,
        "SPIEL {} SPIELER {id} PASSWORT <Dein Passwort>",
        state.game_id
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
    s.push_str(sections);
    s
}

/// The Befehlsblatt from its first section on.
pub(crate) fn befehlsblatt_sections(state: &State) -> String {
    let mut s = String::with_capacity(2048);
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
    render_anzeiger(&frame(state, ViewKind::Spectator))
}

fn render_anzeiger(v: &EdsView) -> String {
    let mut s = format!(
        "DER STERNENANZEIGER · Galaxis {} · Ausgabe {}\n",
        v.galaxy,
        if v.month == 0 {
            "Spielvorbereitung".into()
        } else {
            short_month_of(calendar(v), v.month)
        }
    );
    s.push_str("BEKANNTMACHUNGEN DER SPIELLEITUNG\n");
    s.push_str(if v.anzeiger.announcements.trim().is_empty() {
        "keine"
    } else {
        v.anzeiger.announcements.trim_end()
    });
    s.push_str("\nBEITRÄGE\n");
    if v.anzeiger.posts.is_empty() {
        s.push_str("keine\n");
    }
    for p in &v.anzeiger.posts {
        let _ = writeln!(s, "--- {} ---\n{}", label_of(&v.rulers, p.from), p.text);
    }
    s
}

/// A line of the Fehlerprotokoll or the Meldungen, with its newline.
fn push_msg_line(s: &mut String, m: &view::Message) {
    push_int(s, i64::from(m.phase), 2);
    s.push(' ');
    if let Some(e) = &m.entry {
        s.push_str(PHASE_NAMES.get(usize::from(m.phase)).copied().unwrap_or(""));
        s.push(' ');
        s.push_str(e);
        s.push_str(": ");
    }
    s.push_str(&m.text);
    s.push('\n');
}

/// The Monatsbericht of one ruler (None: the public part only).
pub fn monatsbericht(state: &State, events: &[Event], r: Option<RulerNr>) -> String {
    let mut v = frame(state, ViewKind::Spectator);
    v.battles = view::battles(events);
    render_month_report(&v, &view::month_report(state, events, r))
}

fn render_month_report(v: &EdsView, m: &MonthReport) -> String {
    let mut s = format!("{TITLE} · MONATSBERICHT\n");
    let who = m
        .ruler
        .map(|r| format!("Herrscher {}", label_of(&v.rulers, r)))
        .unwrap_or_else(|| "Öffentliche Ausgabe".into());
    let _ = writeln!(
        s,
        "{} · Auswertung von {}\n",
        who,
        month_label_of(calendar(v), v.month)
    );
    if m.ruler.is_some() {
        s.push_str("FEHLERPROTOKOLL\n");
        if m.errors.is_empty() {
            s.push_str("keine Fehler\n");
        }
        for l in &m.errors {
            push_msg_line(&mut s, l);
        }
        s.push_str("\nMELDUNGEN\n");
        for i in &m.infos {
            match i {
                Info::Message(l) => push_msg_line(&mut s, l),
                Info::JumpOrder { rulers } => {
                    let order: Vec<String> = rulers.iter().map(|n| format!("{n:02}")).collect();
                    let _ = writeln!(s, " 7 Sprungreihenfolge: {}", order.join(", "));
                }
            }
        }
        s.push('\n');
    }
    s.push_str("ÜBERWEISUNGEN IN DER GALAXIS\n");
    if m.transfers.is_empty() {
        s.push_str("keine\n");
    }
    for t in &m.transfers {
        let _ = writeln!(
            s,
            "{} an {}: {} WE",
            label_of(&v.rulers, t.from),
            label_of(&v.rulers, t.to),
            t.amount
        );
    }
    s.push_str("\nKAMPFBERICHTE (Kurzfassung)\n");
    if v.battles.is_empty() {
        s.push_str("keine Kämpfe\n");
    }
    for b in &v.battles {
        let _ = writeln!(s, "{}", b.summary);
    }
    if !m.diplomacy.is_empty() {
        s.push_str("\nDIPLOMATIE\n");
        for d in &m.diplomacy {
            let _ = writeln!(s, "--- von {} ---\n{}", label_of(&v.rulers, d.from), d.text);
        }
    }
    if let Some(a) = m.average_ev {
        let _ = writeln!(
            s,
            "\nDURCHSCHNITTLICHE EVOLUTIONSSTUFE ALLER REICHE: {}",
            de_dec2(a)
        );
    }
    if let Some(w) = &m.winners {
        let names: Vec<String> = w
            .iter()
            .map(|n| label_of(&v.rulers, *n).to_string())
            .collect();
        let _ = writeln!(
            s,
            "\nSPIELENDE\nEvolutionsstufe {} erreicht. Sieger: {}",
            v.rules.ev_win,
            names.join(", ")
        );
    }
    s
}

pub fn kampfberichte(events: &[Event]) -> String {
    render_battles(&view::battles(events))
}

fn render_battles(b: &[view::BattleView]) -> String {
    let mut s = String::new();
    for x in b {
        s.push_str(&x.report);
        s.push('\n');
    }
    s
}

/// The Kampfberichte block of a body, when the month had battles.
fn push_battles(body: &mut String, v: &EdsView) {
    if !v.battles.is_empty() {
        body.push_str("\nKAMPFBERICHTE\n\n");
        body.push_str(&render_battles(&v.battles));
    }
}

pub fn hinweise(state: &State, events: &[Event]) -> String {
    let mut v = frame(state, ViewKind::GameMaster);
    v.notes = view::notes(events);
    render_notes(&v)
}

fn render_notes(v: &EdsView) -> String {
    let mut s = String::new();
    for n in &v.notes {
        let _ = writeln!(s, "--- {} ---\n{}", label_of(&v.rulers, n.from), n.text);
    }
    s
}

/// The report body of `v`, as the viewer receives it: a ruler's documents
/// (Herrscherliste or Monatsbericht, Besitztümerblatt, Sternenkarte,
/// Sternenanzeiger), the spectators' public ones, the game master's
/// Gesamtübersicht.
pub fn render(v: &EdsView) -> String {
    render_with(v, None)
}

/// [`render`] with the month's public Sternverzeichnis, which a month's
/// reports build once.
pub(crate) fn render_with(v: &EdsView, dir: Option<&Directory>) -> String {
    match v.viewer {
        ViewKind::Player => render_player(v, dir),
        ViewKind::Spectator => {
            let mut body = render_herrscherliste(v);
            body.push('\n');
            if let Some(m) = &v.public_report {
                body.push_str(&render_month_report(v, m));
                push_battles(&mut body, v);
                body.push('\n');
            }
            body.push_str(&render_map(v, None, dir));
            body.push('\n');
            body.push_str(&render_anzeiger(v));
            body
        }
        ViewKind::GameMaster => {
            let mut body = String::from("SPIELLEITUNG · GESAMTÜBERSICHT\n\n");
            body.push_str(&render_herrscherliste(v));
            let notes = render_notes(v);
            if !notes.is_empty() {
                body.push_str("\nHINWEISE AN DIE SPIELLEITUNG\n");
                body.push_str(&notes);
            }
            for d in &v.sheets {
                let _ = write!(
                    body,
                    "\n===== HERRSCHER {} =====\n",
                    label_of(&v.rulers, d.sheet.ruler)
                );
                // Each ruler's own documents; the public ones follow once.
                if let Some(m) = &d.month_report {
                    body.push_str(&render_month_report(v, m));
                    body.push('\n');
                }
                body.push_str(&render_sheet(v, &d.sheet));
            }
            push_battles(&mut body, v);
            body.push('\n');
            body.push_str(&render_map(v, None, dir));
            body.push('\n');
            body.push_str(&render_anzeiger(v));
            body.push_str("\nALLE STERNE\n");
            body.push_str(STAR_HEADER);
            body.push('\n');
            for s in &v.all_stars {
                push_star_line(&mut body, s);
                body.push('\n');
            }
            body
        }
    }
}

fn render_player(v: &EdsView, dir: Option<&Directory>) -> String {
    let Some(RulerDocs {
        month_report,
        sheet,
    }) = v.sheets.first()
    else {
        return render_herrscherliste(v);
    };
    let mut body = String::new();
    match month_report {
        None => {
            body.push_str(&render_herrscherliste(v));
            body.push('\n');
        }
        Some(m) => {
            body.push_str(&render_month_report(v, m));
            push_battles(&mut body, v);
            body.push('\n');
        }
    }
    // The map is most of the body in a large galaxy: sized once, so the
    // body is not copied again and again as it grows.
    let blatt = render_sheet(v, sheet);
    let karte = render_map(v, Some(sheet), dir);
    let anzeiger = render_anzeiger(v);
    body.reserve(blatt.len() + karte.len() + anzeiger.len() + 2);
    body.push_str(&blatt);
    body.push('\n');
    body.push_str(&karte);
    body.push('\n');
    body.push_str(&anzeiger);
    body
}

/// The Kampfbericht of a battle and its one-line summary for the
/// Monatsbericht, written from what [`crate::combat::fight`] decided.
// Sides and fighter kinds are indices 0..2 into small fixed arrays, as in combat.rs.
#[allow(clippy::needless_range_loop)]
pub fn render_battle(
    p: &crate::params::Params,
    o: &crate::combat::BattleOutcome,
) -> (String, String) {
    use std::collections::BTreeMap;
    let names = [o.sides[0].label.clone(), o.sides[1].label.clone()];
    let mut text = String::new();
    let _ = writeln!(
        text,
        "KAMPFBERICHT {} · {} · {}",
        o.number,
        short_month(p, o.month),
        o.cause
    );
    let _ = writeln!(
        text,
        "Kampfort ({},{}): {} (rot) gegen {} (blau)",
        o.x, o.y, names[0], names[1]
    );
    let gef = |s: usize| {
        let side = &o.sides[s];
        let mut by: BTreeMap<char, u32> = BTreeMap::new();
        for sh in &side.ships {
            *by.entry(sh.class).or_default() += 1;
        }
        let mut parts: Vec<String> = by.iter().map(|(c, n)| format!("{n} {c}")).collect();
        if side.fighters[0] > 0 {
            parts.push(format!("{} LJg", side.fighters[0]));
        }
        if side.fighters[1] > 0 {
            parts.push(format!("{} TJg", side.fighters[1]));
        }
        if parts.is_empty() {
            "-".to_string()
        } else {
            parts.join(", ")
        }
    };
    let _ = writeln!(text, "Gefochten: {} gegen {}", gef(0), gef(1));
    for (s, side) in o.sides.iter().enumerate() {
        let _ = write!(text, "\nListe {} · {}\n", s + 1, names[s]);
        for sh in &side.ships {
            let _ = writeln!(text, "{:>4} {:<12} ({})", sh.number, sh.name, sh.class);
        }
        let _ = writeln!(
            text,
            "  Jäger: {} LJg, {} TJg",
            side.fighters[0], side.fighters[1]
        );
        let kinds: Vec<&str> = ["L", "T", "N", "A"]
            .iter()
            .zip(side.weapons)
            .filter(|(_, u)| *u)
            .map(|(k, _)| *k)
            .collect();
        let _ = writeln!(
            text,
            "  Waffensysteme: {}",
            if kinds.is_empty() {
                "-".to_string()
            } else {
                kinds.join(" ")
            }
        );
    }
    text.push('\n');
    let mut destroyed: [Vec<char>; 2] = [Vec::new(), Vec::new()];
    let mut fled: [Vec<char>; 2] = [Vec::new(), Vec::new()];
    let mut fighters_lost = [[0u32; 2]; 2];
    for round in &o.rounds {
        let mut parts = Vec::new();
        for sh in &round.ships {
            let mut e = format!("{}({}){}", sh.name, sh.class, "*".repeat(sh.hits as usize));
            if sh.destroyed {
                e.push('✗');
                destroyed[sh.side].push(sh.class);
            }
            if sh.fled {
                e.push('→');
                fled[sh.side].push(sh.class);
            }
            parts.push(e);
        }
        for s in 0..2 {
            for t in 0..2 {
                let n = round.fighters_lost[s][t];
                if n > 0 {
                    parts.push(format!("{}({}) {}", ["LJg", "TJg"][t], s + 1, n));
                    fighters_lost[s][t] += n;
                }
            }
        }
        if parts.is_empty() {
            let _ = writeln!(text, "Runde {}: keine Treffer", round.number);
        } else {
            let _ = writeln!(text, "Runde {}: {}", round.number, parts.join(" "));
        }
        let stand = |s: usize| {
            let (n, f) = round.standing[s];
            format!(
                "{}: {} {}, {} LJg, {} TJg",
                s + 1,
                n,
                if n == 1 { "Schiff" } else { "Schiffe" },
                f[0],
                f[1]
            )
        };
        let _ = writeln!(text, "  Stand: {} · {}", stand(0), stand(1));
    }
    let r = o.rounds.len();
    let remain: Vec<String> = (0..2)
        .filter(|s| {
            o.rounds.last().is_some_and(|l| {
                l.standing[*s].0 as u32 + l.standing[*s].1[0] + l.standing[*s].1[1] > 0
            })
        })
        .map(|s| names[s].clone())
        .collect();
    let remain = if remain.is_empty() {
        "niemand".to_string()
    } else {
        remain.join(", ")
    };
    let rounds_word = if r == 1 { "Runde" } else { "Runden" };
    let _ = writeln!(
        text,
        "Ende nach {r} {rounds_word}. Am Kampfort verbleibt: {remain}"
    );
    let mut where_ = Vec::new();
    for s in 0..2 {
        match &o.fighters[s] {
            None => where_.push(format!("{}: keine", s + 1)),
            Some(f) => {
                where_.push(format!(
                    "{}: {} LJg, {} TJg in Hangars · {} LJg, {} TJg auf Stern · {} LJg, {} TJg verloren",
                    s + 1,
                    f.hangars[0],
                    f.hangars[1],
                    f.star[0],
                    f.star[1],
                    f.lost[0],
                    f.lost[1]
                ));
                fighters_lost[s][0] += f.lost[0];
                fighters_lost[s][1] += f.lost[1];
            }
        }
    }
    let _ = writeln!(text, "Verbleib der Jäger: {}", where_.join(" · "));
    let side_short = |s: usize| {
        let mut by: BTreeMap<char, u32> = BTreeMap::new();
        for c in &destroyed[s] {
            *by.entry(*c).or_default() += 1;
        }
        let mut v: Vec<String> = by.iter().map(|(c, n)| format!("{n} {c}")).collect();
        if fighters_lost[s][0] > 0 {
            v.push(format!("{} LJg", fighters_lost[s][0]));
        }
        if fighters_lost[s][1] > 0 {
            v.push(format!("{} TJg", fighters_lost[s][1]));
        }
        let mut out = Vec::new();
        if !v.is_empty() {
            out.push(format!("vernichtet {}", v.join(", ")));
        }
        let mut fb: BTreeMap<char, u32> = BTreeMap::new();
        for c in &fled[s] {
            *fb.entry(*c).or_default() += 1;
        }
        if !fb.is_empty() {
            let f: Vec<String> = fb.iter().map(|(c, n)| format!("{n} {c}")).collect();
            out.push(format!("geflohen {}", f.join(", ")));
        }
        if out.is_empty() {
            format!("{}: keine Verluste", s + 1)
        } else {
            format!("{}: {}", s + 1, out.join(", "))
        }
    };
    let short = format!(
        "Kampf {} ({},{}){} {} gegen {}: {} {} · {} · {} · am Kampfort verbleibt: {}",
        o.number,
        o.x,
        o.y,
        if o.cause.starts_with("Anschluss") {
            " Anschlussgefecht"
        } else {
            ""
        },
        names[0],
        names[1],
        r,
        rounds_word,
        side_short(0),
        side_short(1),
        remain
    );
    (text, short)
}
