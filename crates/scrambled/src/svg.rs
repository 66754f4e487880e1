//! An SVG map of what a player sees, attached to the report mail.
//!
//! World files carry no coordinates (the rulebook's game drew real maps; the
//! specification's TOML has only adjacency), so the layout is computed: a
//! fixed number of force-directed iterations from a circle, in plain `f64`
//! arithmetic with coordinates rounded to whole pixels, so the same world
//! always gives the same picture. Circles are coloured by owner; troop counts
//! are shown only where the viewer has vision.

use crate::state::State;
use crate::world::{TerrId, Terrain};
use arbitre_core::PlayerId;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

const W0: f64 = 900.0;
const H0: f64 = 700.0;

/// Canvas size: grows with the square root of the number of territories
/// beyond the built-in worlds' ~35, so large worlds stay readable.
fn canvas(n: usize) -> (f64, f64) {
    let f = ((n as f64) / 35.0).sqrt().max(1.0);
    ((W0 * f).round(), (H0 * f).round())
}
const PALETTE: &[&str] = &[
    "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6", "#bcf60c",
    "#fabebe", "#008080", "#e6beff", "#9a6324", "#800000", "#808000",
];

/// Computed once at setup and kept in the state (`State::layout`): the
/// force-directed pass costs n² per iteration, so large worlds get fewer
/// iterations (at least 10) to keep setup fast.
pub fn layout(state: &State) -> BTreeMap<TerrId, (i64, i64)> {
    let ids: Vec<&TerrId> = state.world.territories.keys().collect();
    let n = ids.len().max(1);
    let (w, h) = canvas(n);
    if n > 400 {
        // Very large worlds: a plain grid in breadth-first order from the
        // first territory, so neighbours tend to sit close; O(n).
        return grid_layout(state, w);
    }
    let iterations = (5_000_000 / (n * n)).clamp(10, 150);
    let mut pos: Vec<(f64, f64)> = (0..n)
        .map(|i| {
            let a = 2.0 * std::f64::consts::PI * i as f64 / n as f64;
            (w / 2.0 + w / 3.0 * a.cos(), h / 2.0 + h / 2.8 * a.sin())
        })
        .collect();
    let idx: BTreeMap<&TerrId, usize> = ids.iter().enumerate().map(|(i, t)| (*t, i)).collect();
    let k = (w * h / n as f64).sqrt() * 0.6;
    let mut temp = 60.0;
    for _ in 0..iterations {
        let mut disp = vec![(0.0f64, 0.0f64); n];
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let (dx, dy) = (pos[i].0 - pos[j].0, pos[i].1 - pos[j].1);
                let d = (dx * dx + dy * dy).sqrt().max(0.01);
                let f = k * k / d;
                disp[i].0 += dx / d * f;
                disp[i].1 += dy / d * f;
            }
        }
        for (t, terr) in &state.world.territories {
            let i = idx[t];
            for nb in &terr.neighbours {
                let j = idx[nb];
                let (dx, dy) = (pos[i].0 - pos[j].0, pos[i].1 - pos[j].1);
                let d = (dx * dx + dy * dy).sqrt().max(0.01);
                let f = d * d / k;
                disp[i].0 -= dx / d * f;
                disp[i].1 -= dy / d * f;
            }
        }
        for i in 0..n {
            let (dx, dy) = disp[i];
            let d = (dx * dx + dy * dy).sqrt().max(0.01);
            pos[i].0 = (pos[i].0 + dx / d * d.min(temp)).clamp(50.0, w - 50.0);
            pos[i].1 = (pos[i].1 + dy / d * d.min(temp)).clamp(50.0, h - 50.0);
        }
        temp = (temp * 0.97).max(1.0);
    }
    ids.iter()
        .enumerate()
        .map(|(i, t)| {
            (
                (*t).clone(),
                (pos[i].0.round() as i64, pos[i].1.round() as i64),
            )
        })
        .collect()
}

fn grid_layout(state: &State, w: f64) -> BTreeMap<TerrId, (i64, i64)> {
    let mut order: Vec<TerrId> = Vec::new();
    let mut seen: std::collections::BTreeSet<TerrId> = std::collections::BTreeSet::new();
    for start in state.world.territories.keys() {
        if seen.contains(start) {
            continue;
        }
        let mut q = std::collections::VecDeque::from([start.clone()]);
        seen.insert(start.clone());
        while let Some(t) = q.pop_front() {
            for nb in &state.world.territories[&t].neighbours {
                if seen.insert(nb.clone()) {
                    q.push_back(nb.clone());
                }
            }
            order.push(t);
        }
    }
    let cols = ((order.len() as f64).sqrt().ceil() as usize).max(1);
    let step = ((w - 100.0) / cols as f64).max(1.0);
    order
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            let (c, r) = (i % cols, i / cols);
            (
                t,
                (
                    (50.0 + step * c as f64).round() as i64,
                    (50.0 + step * r as f64).round() as i64,
                ),
            )
        })
        .collect()
}

/// `v` in decimal, as `{}` writes it.
fn push_int(s: &mut String, v: i64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut u = v.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if v < 0 {
        s.push('-');
    }
    s.push_str(std::str::from_utf8(&buf[i..]).unwrap_or("0"));
}

/// `<text x="{x}" y="{y}" font-size="{size}" text-anchor="middle">`.
fn text_open(s: &mut String, x: i64, y: i64, size: &str) {
    s.push_str(r#"<text x=""#);
    push_int(s, x);
    s.push_str(r#"" y=""#);
    push_int(s, y);
    s.push_str(r#"" font-size=""#);
    s.push_str(size);
    s.push_str(r#"" text-anchor="middle">"#);
}

/// Most labels need no escaping: those are borrowed, not copied four times.
fn esc(s: &str) -> Cow<'_, str> {
    if !s.contains(['&', '<', '>', '"']) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;"),
    )
}

/// `vision = None`: public map (no troops). `me`: the viewer, outlined in black.
pub fn render(state: &State, vision: Option<&BTreeSet<TerrId>>, me: Option<&PlayerId>) -> String {
    let computed;
    let pos = if state.layout.len() == state.world.territories.len() {
        &state.layout
    } else {
        computed = layout(state);
        &computed
    };
    let n = state.world.territories.len();
    let (w, h) = canvas(n);
    let colour: BTreeMap<&PlayerId, &str> = state
        .players
        .keys()
        .enumerate()
        .map(|(i, p)| (p, PALETTE[i % PALETTE.len()]))
        .collect();
    // About 90 bytes an edge and 250 a territory: one allocation, not a
    // doubling series (the map is most of a report's memory at 5,000
    // territories).
    let mut s = String::with_capacity(400 * n + 200 * state.players.len() + 1024);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{}" viewBox="0 0 {w} {}" font-family="sans-serif">"#,
        h + 40.0,
        h + 40.0
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#fdfaf3"/>"##);
    let _ = writeln!(
        s,
        r#"<text x="10" y="20" font-size="14">Scrambled Nations — {} — tour {}</text>"#,
        esc(&state.game_id),
        state.turn
    );
    // The borders are the same in every report of a state: drawn once (from
    // the stored layout; a computed one is drawn each time).
    let borders = |s: &mut String| {
        for (t, terr) in &state.world.territories {
            for nb in terr.neighbours.iter().filter(|nb| *nb > t) {
                let (a, b) = (pos[t], pos[nb]);
                let _ = writeln!(
                    s,
                    r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#999" stroke-width="1.5"/>"##,
                    a.0, a.1, b.0, b.1
                );
            }
        }
    };
    if std::ptr::eq(pos, &state.layout) {
        s.push_str(state.map_borders.0.get_or_init(|| {
            let mut b = String::new();
            borders(&mut b);
            b
        }));
    } else {
        borders(&mut s);
    }
    let caps = state.capitals();
    let mut label = String::new();
    let mut at = state.layout.iter();
    for (t, terr, ts) in state.rows() {
        let (x, y) = match at.next() {
            Some((k, xy)) if k == t && std::ptr::eq(pos, &state.layout) => *xy,
            _ => pos[t],
        };
        let fill = match terr.terrain {
            Terrain::Sea => "#a8d0f0",
            Terrain::Mountain => "#8d8d8d",
            Terrain::Land => ts
                .owner
                .as_ref()
                .and_then(|o| colour.get(o).copied())
                .unwrap_or("#ffffff"),
        };
        let stroke = if ts.owner.is_some() && ts.owner.as_ref() == me {
            "#000"
        } else {
            "#555"
        };
        let sw = if caps.contains(t) { "4" } else { "1" };
        // Written piece by piece rather than through `writeln!`: a report
        // draws every territory, and at 5,000 territories the format
        // machinery was most of the map's cost. Same bytes.
        s.push_str(r#"<circle cx=""#);
        push_int(&mut s, x);
        s.push_str(r#"" cy=""#);
        push_int(&mut s, y);
        s.push_str(r#"" r="20" fill=""#);
        s.push_str(fill);
        s.push_str(r#"" stroke=""#);
        s.push_str(stroke);
        s.push_str(r#"" stroke-width=""#);
        s.push_str(sw);
        s.push_str("\"/>\n");
        text_open(&mut s, x, y + 4, "11");
        s.push_str(&esc(t.as_str()));
        s.push_str("</text>\n");
        label.clear();
        if terr.is_land() {
            push_int(&mut label, i64::from(ts.economy));
            label.push('%');
            if ts.conflict {
                label.push_str(" ⚔");
            }
            if ts.contested {
                label.push_str(" ?!");
            }
        }
        text_open(&mut s, x, y + 36, "9");
        s.push_str(&esc(&label));
        s.push_str("</text>\n");
        if let Some(v) = vision {
            if v.contains(t) && !ts.troops.is_empty() {
                let tr: Vec<String> = ts
                    .troops
                    .iter()
                    .map(|(p, n)| format!("{} {n}", state.player_name_str(p)))
                    .collect();
                let _ = writeln!(
                    s,
                    r#"<text x="{x}" y="{}" font-size="9" text-anchor="middle" font-weight="bold">{}</text>"#,
                    y + 47,
                    esc(&tr.join(", "))
                );
            }
        }
    }
    let mut ly = h + 5.0;
    let mut lx = 10.0;
    for (p, c) in &colour {
        let _ = writeln!(
            s,
            r#"<rect x="{lx}" y="{ly}" width="12" height="12" fill="{c}"/><text x="{}" y="{}" font-size="11">{}</text>"#,
            lx + 16.0,
            ly + 11.0,
            esc(&state.player_name(p))
        );
        lx += 120.0;
        if lx > w - 120.0 {
            lx = 10.0;
            ly += 16.0;
        }
    }
    s.push_str("</svg>\n");
    s.shrink_to_fit();
    s
}
