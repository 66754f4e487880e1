//! An SVG map of what a player sees, attached to the report mail.
//!
//! World files carry no coordinates (the rulebook's game drew real maps; the
//! specification's TOML has only adjacency), so the layout is computed: a
//! fixed number of force-directed iterations from a circle, in plain `f64`
//! arithmetic with coordinates rounded to whole pixels, so the same world
//! always gives the same picture. Circles are coloured by owner; troop counts
//! are shown only where the viewer has vision, as in the text report's
//! TERRITOIRES table (owners and economies are public there; troops are `?`
//! elsewhere). Each territory carries `data-id` (its id) and, where troops
//! are drawn, `data-troops`, for the fog-of-war test (issue 18 item 6).
//!
//! A player's map of a world larger than [`CLIP_ABOVE`] territories is
//! clipped to what the player can see and act on (territories in vision, the
//! player's own, and their neighbours), so the mail stays small (issue 18
//! item 7: a 5,000-territory map would be megabytes).

use crate::state::{State, TerrState};
use crate::view::Presence;
use crate::world::{TerrId, Terrain, Territory};
use arbitre_core::report::{push_int, xml_escape as esc};
use arbitre_core::PlayerId;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

const W0: f64 = 900.0;
/// Past this many territories a player's map shows only their surroundings.
pub const CLIP_ABOVE: usize = 400;
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

/// The territories a player's map of a large world draws: those in vision,
/// the player's own, and their neighbours. `None`: draw everything (small
/// worlds, and the public map).
fn clip_set(
    state: &State,
    vision: Option<&BTreeSet<TerrId>>,
    me: Option<&PlayerId>,
    n: usize,
    presence: &Presence<'_>,
) -> Option<BTreeSet<TerrId>> {
    let (vision, me) = (vision?, me?);
    if n <= CLIP_ABOVE {
        return None;
    }
    let mut core: BTreeSet<&TerrId> = vision.iter().collect();
    // Those `me` owns or has a stack in.
    core.extend(presence.of(me).iter().map(|(t, _)| *t));
    let mut keep: BTreeSet<TerrId> = core.iter().map(|t| (*t).clone()).collect();
    for t in core {
        if let Some(terr) = state.world.territories.get(t) {
            keep.extend(terr.neighbours.iter().cloned());
        }
    }
    Some(keep)
}

/// A territory drawn: id, map, state and place.
type Drawn<'a> = (&'a TerrId, &'a Territory, &'a TerrState, (i64, i64));

/// The territories a map draws, in map order, with their place: a clipped
/// map walks only its own (a few dozen of thousands, in each of a turn's
/// reports), a whole map every row.
fn drawn<'a>(
    state: &'a State,
    keep: Option<&'a BTreeSet<TerrId>>,
    pos: &'a BTreeMap<TerrId, (i64, i64)>,
) -> Box<dyn Iterator<Item = Drawn<'a>> + 'a> {
    match keep {
        Some(k) => Box::new(k.iter().filter_map(move |t| {
            let terr = state.world.territories.get(t)?;
            Some((t, terr, state.terr(t), pos[t]))
        })),
        None => {
            let mut at = state.layout.iter();
            Box::new(state.rows().map(move |(t, terr, ts)| {
                let xy = match at.next() {
                    Some((k, xy)) if k == t && std::ptr::eq(pos, &state.layout) => *xy,
                    _ => pos[t],
                };
                (t, terr, ts, xy)
            }))
        }
    }
}

/// `vision = None`: public map (no troops). `me`: the viewer, outlined in black.
pub fn render(state: &State, vision: Option<&BTreeSet<TerrId>>, me: Option<&PlayerId>) -> String {
    render_with(state, vision, me, &state.capitals(), &Presence::new(state))
}

/// [`render`] with the capitals ([`State::capitals`]) and the players'
/// territories ([`Presence`]) of `state` gathered once for a turn's maps.
pub fn render_with(
    state: &State,
    vision: Option<&BTreeSet<TerrId>>,
    me: Option<&PlayerId>,
    caps: &BTreeSet<TerrId>,
    presence: &Presence<'_>,
) -> String {
    let computed;
    let pos = if state.layout.len() == state.world.territories.len() {
        &state.layout
    } else {
        computed = layout(state);
        &computed
    };
    let n = state.world.territories.len();
    let (w0, h0) = canvas(n);
    let keep = clip_set(state, vision, me, n, presence);
    // The drawn area: the whole canvas, or the clipped territories' box.
    let (ox, oy, w, h) = match &keep {
        None => (0.0, 0.0, w0, h0),
        Some(k) => {
            let pts = k.iter().filter_map(|t| pos.get(t));
            let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
            for (x, y) in pts {
                x0 = x0.min(*x as f64);
                y0 = y0.min(*y as f64);
                x1 = x1.max(*x as f64);
                y1 = y1.max(*y as f64);
            }
            if x0 > x1 {
                // Nothing to see (a player with no territory and no troop):
                // a title and a legend, not a blank world-sized picture.
                (0.0, 0.0, 900.0, 60.0)
            } else {
                let (x0, y0) = (x0 - 90.0, y0 - 90.0);
                (x0, y0, (x1 + 90.0 - x0).max(900.0), y1 + 90.0 - y0)
            }
        }
    };
    let colour: BTreeMap<&PlayerId, &str> = state
        .players
        .keys()
        .enumerate()
        .map(|(i, p)| (p, PALETTE[i % PALETTE.len()]))
        .collect();
    // The legend names the players whose colour the map shows (a clipped
    // map of a 200-player world shows a few), the viewer first.
    let shown: BTreeSet<&PlayerId> = drawn(state, keep.as_ref(), pos)
        .filter_map(|(_, _, ts, _)| ts.owner.as_ref())
        .chain(me)
        .collect();
    let legend: Vec<(&PlayerId, &str)> = colour
        .iter()
        .filter(|(p, _)| shown.contains(*p))
        .map(|(p, c)| (*p, *c))
        .collect();
    let per_row = (((w - 20.0) / 150.0).floor() as usize).max(1);
    let legend_h = (legend.len().div_ceil(per_row).max(1) as f64) * 18.0 + 44.0;
    let total_h = h + 40.0 + legend_h;
    // About 90 bytes an edge and 250 a territory drawn (410 in all at
    // 5,000 territories): one allocation, not a doubling series (the map is
    // most of a report's memory at 5,000 territories), nor a whole map's
    // for a clipped one.
    let drawn_n = keep.as_ref().map_or(n, BTreeSet::len);
    let mut s = String::with_capacity(450 * drawn_n + 200 * state.players.len() + 1024);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{total_h}" viewBox="{ox} {} {w} {total_h}" font-family="sans-serif">"#,
        oy - 30.0,
    );
    let _ = writeln!(
        s,
        r##"<rect x="{ox}" y="{}" width="100%" height="100%" fill="#fdfaf3"/>"##,
        oy - 30.0
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" font-size="16" font-weight="bold">Scrambled Nations — {} — tour {}{}{}</text>"#,
        ox + 10.0,
        oy - 8.0,
        esc(&state.game_id),
        state.turn,
        me.map(|p| format!(" — {}", esc(&state.player_name(p))))
            .unwrap_or_default(),
        if keep.is_some() {
            " — vos environs"
        } else {
            ""
        }
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
    if let Some(k) = &keep {
        for t in k {
            let Some(terr) = state.world.territories.get(t) else {
                continue;
            };
            for nb in terr
                .neighbours
                .iter()
                .filter(|nb| *nb > t && k.contains(*nb))
            {
                let (a, b) = (pos[t], pos[nb]);
                let _ = writeln!(
                    s,
                    r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#999" stroke-width="1.5"/>"##,
                    a.0, a.1, b.0, b.1
                );
            }
        }
    } else if std::ptr::eq(pos, &state.layout) {
        s.push_str(state.map_borders.0.get_or_init(|| {
            let mut b = String::new();
            borders(&mut b);
            b
        }));
    } else {
        borders(&mut s);
    }
    let mut label = String::new();
    for (t, terr, ts, (x, y)) in drawn(state, keep.as_ref(), pos) {
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
        let mine = ts.owner.is_some() && ts.owner.as_ref() == me;
        let sw = match (caps.contains(t), mine) {
            (true, _) => "5",
            (false, true) => "3",
            (false, false) => "1",
        };
        // Written piece by piece rather than through `writeln!`: a report
        // draws every territory, and at 5,000 territories the format
        // machinery was most of the map's cost. Same bytes.
        s.push_str(r#"<g data-id=""#);
        s.push_str(&esc(t.as_str()));
        s.push_str(r#""><circle cx=""#);
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
        text_open(&mut s, x, y + 4, "12");
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
        text_open(&mut s, x, y + 34, "11");
        s.push_str(&esc(&label));
        s.push_str("</text>");
        if let Some(v) = vision {
            if v.contains(t) && !ts.troops.is_empty() {
                let tr: Vec<String> = ts
                    .troops
                    .iter()
                    .map(|(p, n)| format!("{} {n}", state.player_name_str(p)))
                    .collect();
                let _ = write!(
                    s,
                    r#"<text data-troops="1" x="{x}" y="{}" font-size="11" text-anchor="middle" font-weight="bold">{}</text>"#,
                    y + 47,
                    esc(&tr.join(", "))
                );
            }
        }
        s.push_str("</g>\n");
    }
    let mut ly = oy + h + 10.0;
    let mut lx = ox + 10.0;
    for (p, c) in &legend {
        let _ = writeln!(
            s,
            r#"<rect x="{lx}" y="{ly}" width="14" height="14" fill="{c}"/><text x="{}" y="{}" font-size="12">{}</text>"#,
            lx + 18.0,
            ly + 12.0,
            esc(&state.player_name(p))
        );
        lx += 150.0;
        if lx > ox + w - 150.0 {
            lx = ox + 10.0;
            ly += 18.0;
        }
    }
    // What the shapes mean, on a line of their own.
    if lx > ox + 10.0 {
        ly += 18.0;
    }
    lx = ox + 10.0;
    ly += 22.0;
    let _ = writeln!(
        s,
        r##"<circle cx="{}" cy="{}" r="7" fill="#fff" stroke="#555" stroke-width="4"/><text x="{}" y="{}" font-size="12">capitale</text><circle cx="{}" cy="{}" r="7" fill="#fff" stroke="#000" stroke-width="3"/><text x="{}" y="{}" font-size="12">vos territoires (bord noir)</text><circle cx="{}" cy="{}" r="7" fill="#a8d0f0" stroke="#555"/><text x="{}" y="{}" font-size="12">mer</text><circle cx="{}" cy="{}" r="7" fill="#8d8d8d" stroke="#555"/><text x="{}" y="{}" font-size="12">montagne</text><text x="{}" y="{}" font-size="12">sous le nom : économie ; en gras : troupes vues</text>"##,
        lx + 7.0,
        ly - 4.0,
        lx + 18.0,
        ly,
        lx + 107.0,
        ly - 4.0,
        lx + 118.0,
        ly,
        lx + 317.0,
        ly - 4.0,
        lx + 328.0,
        ly,
        lx + 377.0,
        ly - 4.0,
        lx + 388.0,
        ly,
        lx + 470.0,
        ly
    );
    s.push_str("</svg>\n");
    s.shrink_to_fit();
    s
}
