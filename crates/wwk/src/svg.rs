//! The map attached to a nation's report (issue 18, item 1): an SVG drawn
//! from the rows of [`crate::view`], so it shows exactly what the text
//! report shows (fog of war, §8.1) and nothing more.
//!
//! Zones are drawn where the scenario places them (`x`, `y` in 0..1000);
//! a map without positions (an inline map of a position, item 4) gets a
//! deterministic grid layout in breadth-first order from its first zone,
//! so neighbours tend to sit close together and the picture is the same on
//! every run. Every label is at least 10 px.

use crate::model::*;
use crate::view::{Seen, ZoneRow};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write;

const W: i32 = 1200;
const MAP_W: i32 = 960;
const MAP_H: i32 = 760;
const PAD: i32 = 60;
const R: i32 = 30;

/// Nation colours, given in the order of the state's nations (stable).
const PALETTE: [&str; 10] = [
    "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#7f7f7f",
];

use arbitre_core::report::xml_escape as esc;

/// Zone centres in pixels, by code: the scenario's positions (or the
/// computed grid) stretched to fill the drawing area, aspect kept.
pub fn layout(map: &Map) -> BTreeMap<ZoneCode, (i32, i32)> {
    let raw = raw_layout(map);
    let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for &(x, y) in raw.values() {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let (dx, dy) = ((x1 - x0).max(1), (y1 - y0).max(1));
    // Room for the names above and the unit lines below each zone.
    let (w, h) = (MAP_W - 2 * PAD, MAP_H - 2 * PAD - 40);
    // Scale = min(w/dx, h/dy) in integer arithmetic: the same on every machine.
    let (num, den) = if w * dy <= h * dx { (w, dx) } else { (h, dy) };
    let (ox, oy) = ((w - dx * num / den) / 2, (h - dy * num / den) / 2);
    raw.into_iter()
        .map(|(z, (x, y))| {
            (
                z,
                (
                    PAD + ox + (x - x0) * num / den,
                    PAD + 20 + oy + (y - y0) * num / den,
                ),
            )
        })
        .collect()
}

/// Positions before fitting: the scenario's, or a grid.
fn raw_layout(map: &Map) -> BTreeMap<ZoneCode, (i32, i32)> {
    if map.zones.iter().all(|z| z.x.is_some() && z.y.is_some()) {
        return map
            .zones
            .iter()
            .map(|z| (z.code.clone(), (z.x.unwrap_or(0), z.y.unwrap_or(0))))
            .collect();
    }
    // Breadth-first order over the whole graph (every component), then a
    // near-square grid filled row by row.
    let mut adj: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for z in &map.zones {
        for a in &z.adjacent {
            adj.entry(z.code.as_str()).or_default().insert(a.as_str());
            adj.entry(a.as_str()).or_default().insert(z.code.as_str());
        }
    }
    for c in &map.crossings {
        adj.entry(c.a.as_str()).or_default().insert(c.b.as_str());
        adj.entry(c.b.as_str()).or_default().insert(c.a.as_str());
    }
    let mut order: Vec<&str> = vec![];
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for start in &map.zones {
        if !seen.insert(start.code.as_str()) {
            continue;
        }
        let mut q = VecDeque::from([start.code.as_str()]);
        while let Some(z) = q.pop_front() {
            order.push(z);
            for n in adj.get(z).into_iter().flatten() {
                if seen.insert(n) {
                    q.push_back(n);
                }
            }
        }
    }
    let n = order.len().max(1);
    let mut cols = 1;
    while cols * cols < n {
        cols += 1;
    }
    let rows = n.div_ceil(cols);
    order
        .iter()
        .enumerate()
        .map(|(i, z)| {
            let (c, r) = ((i % cols) as i32, (i / cols) as i32);
            let x = if cols > 1 {
                c * 1000 / (cols as i32 - 1)
            } else {
                500
            };
            // Odd rows shift half a cell so diagonal links do not overlap.
            let x = if r % 2 == 1 && cols > 1 {
                (x + 500 / (cols as i32 - 1)).min(1000)
            } else {
                x
            };
            let y = if rows > 1 {
                r * 1000 / (rows as i32 - 1)
            } else {
                500
            };
            (z.to_string(), (x, y))
        })
        .collect()
}

fn kind_fill(k: ZoneKind) -> &'static str {
    match k {
        ZoneKind::Sea => "#cfe8fb",
        ZoneKind::Highsea => "#9ccbf0",
        ZoneKind::Innersea => "#e3f2fd",
        ZoneKind::Mountain => "#d7ccc8",
        ZoneKind::Land => "#f3ecd9",
    }
}

/// What the map of a turn draws the same for every reader: the zones'
/// places and the links between them, which come from the map alone (the
/// code, kind and neighbours of each row).
pub struct Frame {
    /// [`layout`], hashed: only looked up, never walked.
    pos: FxHashMap<ZoneCode, (i32, i32)>,
    links: String,
}

impl Frame {
    /// The frame of `rows`; it serves every list of rows of the same map.
    pub fn new(st: &State, rows: &[ZoneRow]) -> Frame {
        let pos = layout(&st.map).into_iter().collect();
        let links = links(st, rows, &pos);
        Frame { pos, links }
    }
}

/// The links, under the zones; each pair once. Sets and maps are hashed:
/// they are only looked up, and the lines come in the order of `rows`.
fn links(st: &State, rows: &[ZoneRow], pos: &FxHashMap<ZoneCode, (i32, i32)>) -> String {
    let mut o = String::new();
    let kinds: FxHashMap<&str, ZoneKind> = rows.iter().map(|r| (r.code.as_str(), r.kind)).collect();
    let mut drawn: FxHashSet<(&str, &str)> = FxHashSet::default();
    for r in rows {
        for n in r.land.iter().chain(r.sea.iter()) {
            let key = if r.code.as_str() < n.as_str() {
                (r.code.as_str(), n.as_str())
            } else {
                (n.as_str(), r.code.as_str())
            };
            if !drawn.insert(key) {
                continue;
            }
            let (Some(a), Some(b)) = (pos.get(key.0), pos.get(key.1)) else {
                continue;
            };
            let sea = kinds.get(key.0).is_some_and(|k| k.is_sea())
                || kinds.get(key.1).is_some_and(|k| k.is_sea());
            let style = if st.is_crossing(key.0, key.1) {
                r##"stroke="#c62828" stroke-width="3" stroke-dasharray="10 5""##
            } else if sea {
                r##"stroke="#1e88e5" stroke-width="2" stroke-dasharray="6 4""##
            } else {
                r##"stroke="#555555" stroke-width="3""##
            };
            let _ = writeln!(
                o,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {style}/>"#,
                a.0, a.1, b.0, b.1
            );
        }
    }
    o
}

/// The SVG map of `rows` (see [`crate::view::rows`]) for `viewer`.
pub fn render(st: &State, rows: &[ZoneRow], viewer: &str, title: &str) -> String {
    render_in(&Frame::new(st, rows), st, rows, viewer, title)
}

/// [`render`] in a [`Frame`] built once for the turn's readers.
pub fn render_in(frame: &Frame, st: &State, rows: &[ZoneRow], viewer: &str, title: &str) -> String {
    let pos = &frame.pos;
    let colour: BTreeMap<&str, &str> = st
        .nations
        .keys()
        .enumerate()
        .map(|(i, n)| (n.as_str(), PALETTE[i % PALETTE.len()]))
        .collect();
    let col = |n: &str| colour.get(n).copied().unwrap_or("#444444");
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{MAP_H}" viewBox="0 0 {W} {MAP_H}" font-family="DejaVu Sans, Arial, sans-serif">"#
    );
    let _ = writeln!(
        o,
        r##"<rect width="{W}" height="{MAP_H}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        o,
        r##"<text x="12" y="24" font-size="16" font-weight="bold" fill="#222">{}</text>"##,
        esc(title)
    );
    o.push_str(&frame.links);
    for r in rows {
        let Some(&(x, y)) = pos.get(&r.code) else {
            continue;
        };
        let (fill, stroke, dash, owner) = match &r.seen {
            Seen::Unknown => (kind_fill(r.kind), "#9e9e9e", "", String::new()),
            Seen::Known(Status::Neutral) => (kind_fill(r.kind), "#424242", "", "neutre".into()),
            Seen::Known(Status::Controlled { by }) => (col(by), "#212121", "", by.clone()),
            Seen::Known(Status::Shared { by }) => (
                by.first().map(|b| col(b)).unwrap_or("#444444"),
                "#212121",
                r#" stroke-dasharray="5 3""#,
                by.join("+"),
            ),
            Seen::Known(Status::Contested { by, .. }) => (
                kind_fill(r.kind),
                "#b71c1c",
                r#" stroke-dasharray="4 2""#,
                by.join("+"),
            ),
        };
        let coloured = matches!(
            r.seen,
            Seen::Known(Status::Controlled { .. }) | Seen::Known(Status::Shared { .. })
        );
        let text_fill = if coloured { "#ffffff" } else { "#111111" };
        let _ = writeln!(
            o,
            r#"<g class="zone" data-zone="{}" data-owner="{}">"#,
            esc(&r.code),
            esc(&owner)
        );
        let sw = if matches!(r.seen, Seen::Known(Status::Contested { .. })) {
            4
        } else {
            2
        };
        let _ = writeln!(
            o,
            r#"<circle cx="{x}" cy="{y}" r="{R}" fill="{fill}" stroke="{stroke}" stroke-width="{sw}"{dash}/>"#
        );
        let _ = writeln!(
            o,
            r#"<text x="{x}" y="{}" font-size="14" font-weight="bold" text-anchor="middle" fill="{text_fill}">{}</text>"#,
            y + 5,
            esc(&r.code)
        );
        let _ = writeln!(
            o,
            r##"<text x="{x}" y="{}" font-size="11" text-anchor="middle" fill="#333333" stroke="#ffffff" stroke-width="3" paint-order="stroke">{}</text>"##,
            y - R - 6,
            esc(&r.name)
        );
        if r.capital {
            let _ = writeln!(
                o,
                r##"<text x="{}" y="{}" font-size="20" fill="#fbc02d" stroke="#5d4037" stroke-width="1">★</text>"##,
                x + R - 10,
                y - R + 12
            );
        }
        if r.revealed {
            let _ = writeln!(
                o,
                r##"<circle cx="{}" cy="{}" r="9" fill="#6a1b9a"/><text x="{}" y="{}" font-size="11" font-weight="bold" text-anchor="middle" fill="#ffffff">R</text>"##,
                x - R + 4,
                y - R + 6,
                x - R + 4,
                y - R + 10
            );
        }
        // Own units and bases under the zone, a few codes per line.
        let mut parts: Vec<String> = r.units.iter().map(|(c, k)| format!("{k} {c}")).collect();
        parts.extend(r.bases.iter().map(|(c, k)| format!("{k} {c}")));
        let mut ly = y + R + 13;
        for chunk in parts.chunks(3).take(4) {
            let _ = writeln!(
                o,
                r##"<text x="{x}" y="{ly}" font-size="10" font-weight="bold" text-anchor="middle" fill="{}" stroke="#ffffff" stroke-width="3" paint-order="stroke">{}</text>"##,
                col(viewer),
                esc(&chunk.join(" "))
            );
            ly += 12;
        }
        if parts.len() > 12 {
            let _ = writeln!(
                o,
                r##"<text x="{x}" y="{ly}" font-size="10" text-anchor="middle" fill="#333333">…</text>"##
            );
        }
        o.push_str("</g>\n");
    }
    legend(&mut o, st, rows, viewer, &col);
    o.push_str("</svg>\n");
    o
}

fn legend(
    o: &mut String,
    _st: &State,
    rows: &[ZoneRow],
    viewer: &str,
    col: &dyn Fn(&str) -> &'static str,
) {
    let x = MAP_W + 10;
    let mut y = 40;
    let _ = writeln!(
        o,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#fafafa" stroke="#bdbdbd"/>"##,
        x - 6,
        y - 20,
        W - x - 4,
        MAP_H - 40
    );
    let _ = writeln!(
        o,
        r##"<text x="{x}" y="{y}" font-size="14" font-weight="bold" fill="#222">Légende</text>"##
    );
    y += 22;
    // Nations whose colour this map shows: the viewer and the owners of
    // the zones it sees, no others.
    let mut shown: BTreeSet<String> = BTreeSet::new();
    shown.insert(viewer.to_string());
    for r in rows {
        if let Seen::Known(s) = &r.seen {
            shown.extend(s.parties());
        }
    }
    for n in &shown {
        let label = if n == viewer {
            format!("{n} (vous)")
        } else {
            n.clone()
        };
        let _ = writeln!(
            o,
            r##"<circle cx="{}" cy="{}" r="8" fill="{}" stroke="#212121"/><text x="{}" y="{}" font-size="12" fill="#222">{}</text>"##,
            x + 8,
            y - 4,
            col(n),
            x + 22,
            y,
            esc(&label)
        );
        y += 20;
    }
    let swatch = |o: &mut String, y: i32, fill: &str, stroke: &str, extra: &str, label: &str| {
        let _ = writeln!(
            o,
            r##"<circle cx="{}" cy="{}" r="8" fill="{fill}" stroke="{stroke}" stroke-width="2"{extra}/><text x="{}" y="{}" font-size="12" fill="#222">{label}</text>"##,
            x + 8,
            y - 4,
            x + 22,
            y
        );
    };
    swatch(o, y, "#f3ecd9", "#424242", "", "neutre");
    y += 20;
    swatch(o, y, "#f3ecd9", "#9e9e9e", "", "contrôle inconnu");
    y += 20;
    swatch(
        o,
        y,
        "#f3ecd9",
        "#b71c1c",
        r#" stroke-dasharray="4 2""#,
        "contestée",
    );
    y += 20;
    swatch(
        o,
        y,
        "#808080",
        "#212121",
        r#" stroke-dasharray="5 3""#,
        "partagée",
    );
    y += 20;
    swatch(o, y, "#cfe8fb", "#9e9e9e", "", "mer");
    y += 20;
    swatch(o, y, "#9ccbf0", "#9e9e9e", "", "haute mer");
    y += 20;
    swatch(o, y, "#e3f2fd", "#9e9e9e", "", "mer intérieure");
    y += 20;
    swatch(o, y, "#d7ccc8", "#9e9e9e", "", "montagne");
    y += 26;
    let line = |o: &mut String, y: i32, style: &str, label: &str| {
        let _ = writeln!(
            o,
            r##"<line x1="{x}" y1="{}" x2="{}" y2="{}" {style}/><text x="{}" y="{y}" font-size="12" fill="#222">{label}</text>"##,
            y - 4,
            x + 30,
            y - 4,
            x + 36
        );
    };
    line(
        o,
        y,
        r##"stroke="#555555" stroke-width="3""##,
        "frontière terrestre",
    );
    y += 20;
    line(
        o,
        y,
        r##"stroke="#1e88e5" stroke-width="2" stroke-dasharray="6 4""##,
        "liaison maritime",
    );
    y += 20;
    line(
        o,
        y,
        r##"stroke="#c62828" stroke-width="3" stroke-dasharray="10 5""##,
        "ligne rouge",
    );
    y += 26;
    let _ = writeln!(
        o,
        r##"<text x="{x}" y="{y}" font-size="16" fill="#fbc02d" stroke="#5d4037" stroke-width="1">★</text><text x="{}" y="{y}" font-size="12" fill="#222">capitale</text>"##,
        x + 22
    );
    y += 22;
    let _ = writeln!(
        o,
        r##"<circle cx="{}" cy="{}" r="8" fill="#6a1b9a"/><text x="{}" y="{}" font-size="10" font-weight="bold" text-anchor="middle" fill="#fff">R</text><text x="{}" y="{y}" font-size="12" fill="#222">renseignée ce tour</text>"##,
        x + 8,
        y - 4,
        x + 8,
        y,
        x + 22
    );
    y += 20;
    let _ = writeln!(
        o,
        r##"<text x="{x}" y="{y}" font-size="12" fill="{}">7 INF 1 ABSE</text><text x="{x}" y="{}" font-size="12" fill="#222">vos unités et bases</text>"##,
        col(viewer),
        y + 16
    );
    y += 40;
    let _ = writeln!(
        o,
        r##"<text x="{x}" y="{y}" font-size="10" fill="#555">Voisins et contrôle :</text><text x="{x}" y="{}" font-size="10" fill="#555">TABLE DES ZONES du rapport</text>"##,
        y + 13
    );
}
