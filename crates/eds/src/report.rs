//! The player documents (rulebook "Die Spielunterlagen", spec §6): Herrscherliste,
//! Monatsbericht with Fehlerprotokoll, Kampfberichte, Besitztümerblatt with the
//! Beobachtungen, Sternenkarte (text and SVG), Sternenanzeiger and the Befehlsblatt
//! template. Column layouts follow §6.4.2 exactly; every ruler sees only what
//! §6.9 allows, the spectator the public facts, the game master everything.

use crate::events::Event;
use crate::formulas::{de_dec2, month_label, short_month, year_month, year_name};
use crate::model::{RulerNr, Ship, Spatial, Star, State};
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
    besitztuemerblatt_in(state, &ship_spots(state), r)
}

/// [`besitztuemerblatt`] with the caller's [`Spatial`] index (the game
/// master's overview renders every ruler's sheet from one index); a
/// [`ship_spots`] index is enough.
pub fn besitztuemerblatt_in(state: &State, sp: &Spatial, r: RulerNr) -> String {
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
    for st in observed_stars_in(state, sp, r) {
        let _ = writeln!(s, "{}", star_line(st));
    }
    let _ = writeln!(s, "Fremde Raumschiffe\n{SHIP_HEADER1}\n{SHIP_HEADER2}");
    for sh in observed_ships_in(state, sp, r) {
        let _ = writeln!(s, "{}", ship_line(sh));
    }
    if !state.game_over {
        let _ = writeln!(s, "\n{ZAT_LINE}");
    }
    s
}

/// Appends `v` right-aligned in `width` columns, as `{:>width}` would: the
/// maps list every star for every ruler, so this runs millions of times a
/// turn in a large galaxy and `format!`'s machinery was most of the report cost.
fn push_int(s: &mut String, v: i64, width: usize) {
    let mut buf = [0u8; 24];
    let mut i = buf.len();
    let mut n = v.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if v < 0 {
        i -= 1;
        buf[i] = b'-';
    }
    const BLANKS: &str = "                        ";
    let pad = width.saturating_sub(buf.len() - i);
    s.push_str(&BLANKS[..pad.min(BLANKS.len())]);
    // Digits and a minus sign: ASCII, so always valid UTF-8.
    s.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
}

/// The text map's cells for a viewer (None = the public map), row by row
/// from (1,1): `*` every star, `O` the viewer's own, then the viewer's ships
/// mark their points (`@` own star, `x` other star, `S` empty space). Filling
/// a grid from the star and ship lists costs O(map + stars + ships) per map,
/// where asking two indexes at every point cost two tree lookups a point.
/// When two stars share a point the higher number shows, as in [`Spatial`].
fn map_cells(state: &State, viewer: Option<RulerNr>) -> Vec<u8> {
    let (w, h) = (state.width.max(0) as usize, state.height.max(0) as usize);
    let at = |x: i32, y: i32| {
        state
            .in_map(x, y)
            .then(|| (y as usize - 1) * w + x as usize - 1)
    };
    let mut grid = vec![b'.'; w * h];
    for st in state.stars.values() {
        if let Some(i) = at(st.x, st.y) {
            grid[i] = if viewer.is_some() && st.owner == viewer {
                b'O'
            } else {
                b'*'
            };
        }
    }
    if let Some(r) = viewer {
        for sh in state.ships.values().filter(|s| s.owner == r) {
            if let Some(i) = at(sh.x, sh.y) {
                grid[i] = match grid[i] {
                    b'O' => b'@',
                    b'*' => b'x',
                    b'.' => b'S',
                    done => done,
                };
            }
        }
    }
    grid
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
    let (wu, hu) = (state.width.max(0) as usize, state.height.max(0) as usize);
    let mut s = String::with_capacity((wu + 5) * (hu + 8) + state.stars.len() * 27);
    let _ = writeln!(
        s,
        "STERNENKARTE · Galaxis {} · {} · {}",
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
    let grid = map_cells(state, viewer);
    if wu > 0 {
        for (y, row) in (1..=state.height).zip(grid.chunks(wu)) {
            let _ = write!(s, "{y:>3} ");
            // The cells are ASCII by construction.
            s.push_str(std::str::from_utf8(row).unwrap_or_default());
            s.push('\n');
        }
    } else {
        for y in 1..=state.height {
            let _ = writeln!(s, "{y:>3} ");
        }
    }
    s.push_str("\nSTERNVERZEICHNIS (Nr. Xko Yko)\n");
    // Four entries a line, two spaces apart, the line's end trimmed.
    let mut line_start = s.len();
    let mut k = 0;
    for st in state.stars.values() {
        if k > 0 {
            s.push_str("  ");
        }
        push_int(&mut s, st.number as i64, 4);
        s.push(' ');
        push_int(&mut s, st.x as i64, 3);
        s.push(' ');
        push_int(&mut s, st.y as i64, 3);
        s.push(' ');
        if viewer.is_some() && st.owner == viewer {
            let _ = write!(s, "{:<12}", st.name);
        } else {
            s.push_str("            ");
        }
        k += 1;
        if k == 4 {
            trim_line(&mut s, line_start);
            line_start = s.len();
            k = 0;
        }
    }
    if k > 0 {
        trim_line(&mut s, line_start);
    }
    s
}

/// Ends the line begun at `start` without its trailing blanks.
fn trim_line(s: &mut String, start: usize) {
    let keep = s[start..].trim_end().len();
    s.truncate(start + keep);
    s.push('\n');
}

/// The SVG map attached to the report mail (issue 18 item 6): the same facts
/// as the text Sternenkarte and Sternverzeichnis (every star with its
/// number, the viewer's own stars with their names, the viewer's ships), on
/// a coordinate grid labelled as jumps are written (X,Y from 1,1 at the top
/// left), with a legend. Foreign owners are not drawn: the text map does not
/// show them either. Each star carries `data-id` (its number) for the
/// fog-of-war test. Cells are 20 pixels in the usual galaxies (53×35,
/// 96×65); a very wide galaxy gets smaller cells and loses the numbers of
/// foreign stars, which the grid and the Sternverzeichnis still give.
pub fn sternenkarte_svg(state: &State, viewer: Option<RulerNr>) -> String {
    let (gw, gh) = (state.width.max(1), state.height.max(1));
    let c = (1800 / gw).clamp(6, 20);
    let numbers = c >= 14;
    let (left, top) = (34, 58);
    let legend_h = 54;
    let (w, h) = (left + gw * c + 12, top + gh * c + 12 + legend_h);
    let cx = |x: i32| left + (x - 1) * c + c / 2;
    let cy = |y: i32| top + (y - 1) * c + c / 2;
    let mut s = String::with_capacity(state.stars.len() * 260 + (gw + gh) as usize * 160 + 4096);
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"#0b0b2a\"/>"
    );
    let who = viewer
        .map(|r| ruler_label(state, r))
        .unwrap_or_else(|| "öffentlich".into());
    let stand = if state.month == 0 {
        "Spielvorbereitung".to_string()
    } else {
        format!("Stand nach {}", short_month(&state.params, state.month))
    };
    let _ = writeln!(
        s,
        "<title>Sternenkarte {} {}</title>\n<text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\" fill=\"#ffffff\">Sternenkarte · Galaxis {} · {} · {}</text>",
        esc(&state.galaxy),
        short_month(&state.params, state.month.max(1)),
        esc(&state.galaxy),
        esc(&who),
        stand
    );
    // The grid: a faint line between all cells, a brighter one and a
    // coordinate every 5 (every 10 past 100 columns).
    let step = if gw > 100 || gh > 100 { 10 } else { 5 };
    let (gx0, gy0, gx1, gy1) = (left, top, left + gw * c, top + gh * c);
    let _ = writeln!(s, "<rect x=\"{gx0}\" y=\"{gy0}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#5a5a8a\"/>", gw * c, gh * c);
    for x in 1..=gw {
        let major = x % step == 0 || x == 1;
        if c >= 10 || major {
            let lx = left + x * c;
            if x < gw {
                let _ = writeln!(s, "<line x1=\"{lx}\" y1=\"{gy0}\" x2=\"{lx}\" y2=\"{gy1}\" stroke=\"{}\" stroke-width=\"1\"/>", if x % step == 0 { "#3a3a6a" } else { "#1c1c44" });
            }
        }
        if major {
            let _ = writeln!(s, "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#b0b0d0\" text-anchor=\"middle\">{x}</text>", cx(x), top - 6);
        }
    }
    for y in 1..=gh {
        let major = y % step == 0 || y == 1;
        let ly = top + y * c;
        if (c >= 10 || major) && y < gh {
            let _ = writeln!(s, "<line x1=\"{gx0}\" y1=\"{ly}\" x2=\"{gx1}\" y2=\"{ly}\" stroke=\"{}\" stroke-width=\"1\"/>", if y % step == 0 { "#3a3a6a" } else { "#1c1c44" });
        }
        if major {
            let _ = writeln!(s, "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#b0b0d0\" text-anchor=\"end\">{y}</text>", left - 4, cy(y) + 4);
        }
    }
    // The viewer's ships, by point (under the stars, so a star stays visible).
    if let Some(r) = viewer {
        let mut at: std::collections::BTreeMap<(i32, i32), u32> = std::collections::BTreeMap::new();
        for sh in state.ships.values().filter(|x| x.owner == r) {
            *at.entry(sh.pos()).or_default() += 1;
        }
        let half = (c / 2).max(4);
        for ((x, y), n) in at {
            if !state.in_map(x, y) {
                continue;
            }
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#ffcc00\" stroke-width=\"2\"><title>{n} Schiff(e) bei {x},{y}</title></rect>",
                cx(x) - half,
                cy(y) - half,
                2 * half,
                2 * half
            );
            if n > 1 && numbers {
                let _ = writeln!(
                    s,
                    "<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#ffcc00\">{n}</text>",
                    cx(x) + half + 1,
                    cy(y) + half + 2
                );
            }
        }
    }
    for st in state.stars.values() {
        let (x, y) = (cx(st.x), cy(st.y));
        let own = viewer.is_some() && st.owner == viewer;
        let (r, fill) = if own {
            ((c / 3).max(3), "#4cdf50")
        } else {
            ((c / 5).max(2), "#e8e8e8")
        };
        let _ = write!(
            s,
            "<g data-id=\"{}\"><circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"{fill}\"><title>Stern {} ({},{})</title></circle>",
            st.number, st.number, st.x, st.y
        );
        if own {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"bold\" fill=\"#4cdf50\">{} {}</text>",
                x + (c / 2).max(4) + 3,
                y - 3,
                st.number,
                esc(&st.name)
            );
        } else if numbers {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#c8c8e8\">{}</text>",
                x + r + 1,
                y - 2,
                st.number
            );
        }
        s.push_str("</g>\n");
    }
    let ly = top + gh * c + 12;
    let _ = writeln!(
        s,
        "<rect x=\"6\" y=\"{ly}\" width=\"{}\" height=\"{}\" fill=\"#15153a\" stroke=\"#5a5a8a\"/>\n\
         <circle cx=\"20\" cy=\"{}\" r=\"4\" fill=\"#e8e8e8\"/><text x=\"30\" y=\"{}\" font-size=\"12\" fill=\"#ffffff\">Stern (Nummer)</text>\n\
         <circle cx=\"150\" cy=\"{}\" r=\"6\" fill=\"#4cdf50\"/><text x=\"162\" y=\"{}\" font-size=\"12\" fill=\"#ffffff\">eigener Stern (Nummer Name)</text>\n\
         <rect x=\"360\" y=\"{}\" width=\"14\" height=\"14\" fill=\"none\" stroke=\"#ffcc00\" stroke-width=\"2\"/><text x=\"380\" y=\"{}\" font-size=\"12\" fill=\"#ffffff\">eigene Schiffe (Anzahl)</text>\n\
         <text x=\"14\" y=\"{}\" font-size=\"12\" fill=\"#b0b0d0\">Koordinaten X (oben) und Y (links) wie in den Sprungbefehlen (X,Y)</text>",
        w - 12,
        legend_h - 8,
        ly + 16,
        ly + 20,
        ly + 16,
        ly + 20,
        ly + 9,
        ly + 20,
        ly + 40
    );
    s.push_str("</svg>\n");
    s
}

/// Star and ruler names come from a game's TOML: escaped for XML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
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
