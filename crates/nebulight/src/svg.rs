//! An SVG map attached to each player's report, when the map gives
//! coordinates (RAD is at maximum for everyone, rulebook IV.3.4).
//!
//! It shows only what the player knows: discovered worlds (and the worlds
//! their links lead to), coloured by owner for the worlds seen this turn,
//! grey for worlds seen earlier. A picture, never a source of truth: the text
//! report is what the rules define.

use crate::model::*;
use crate::visibility;
use std::collections::BTreeSet;
use std::fmt::Write;

const SCALE: i64 = 32;
const MARGIN: i64 = 24;

fn colour(w: &World, viewer: Slot, seen: bool) -> &'static str {
    if w.black_hole {
        return "#000000";
    }
    if !seen {
        return "#d0d0d0";
    }
    match w.owner {
        Some(o) if o == viewer => "#2060c0",
        Some(_) => "#c03020",
        None => "#909090",
    }
}

/// The SVG text, or `None` when the map has no coordinates.
pub fn player_map(s: &NebState, viewer: Slot) -> Option<String> {
    let known = s.known(viewer);
    let visible = visibility::visible(s, viewer);
    let placed: Vec<(WorldId, (i64, i64))> = known
        .iter()
        .filter_map(|w| s.worlds.get(w).and_then(|x| x.coords).map(|c| (*w, c)))
        .collect();
    if placed.is_empty() {
        return None;
    }
    let max_x = placed.iter().map(|(_, c)| c.0).max().unwrap_or(0);
    let max_y = placed.iter().map(|(_, c)| c.1).max().unwrap_or(0);
    let min_x = placed.iter().map(|(_, c)| c.0).min().unwrap_or(0);
    let min_y = placed.iter().map(|(_, c)| c.1).min().unwrap_or(0);
    let px = |c: (i64, i64)| {
        (
            (c.0 - min_x) * SCALE + MARGIN,
            (c.1 - min_y) * SCALE + MARGIN,
        )
    };
    let (width, height) = (
        (max_x - min_x) * SCALE + 2 * MARGIN,
        (max_y - min_y) * SCALE + 2 * MARGIN,
    );
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n\
         <title>Nébulight - {} - tour {} - {}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n",
        s.game, s.turn, s.players[viewer].name
    );
    let discovered = &s.players[viewer].discovered;
    let mut drawn: BTreeSet<(WorldId, WorldId)> = BTreeSet::new();
    for (a, ca) in &placed {
        if !discovered.contains(a) || s.worlds[a].black_hole {
            continue;
        }
        for b in &s.worlds[a].links {
            let Some(cb) = s.worlds.get(b).and_then(|x| x.coords) else {
                continue;
            };
            let key = if a < b { (*a, *b) } else { (*b, *a) };
            if drawn.insert(key) {
                let (x1, y1) = px(*ca);
                let (x2, y2) = px(cb);
                let _ = writeln!(out, "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#a0a0a0\" stroke-width=\"1\"/>");
            }
        }
    }
    for (w, c) in &placed {
        let x = &s.worlds[w];
        let (cx, cy) = px(*c);
        let r = if x.is_start { 9 } else { 6 };
        let _ = writeln!(
            out,
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"{}\"/>\n<text x=\"{}\" y=\"{}\" font-size=\"10\" font-family=\"sans-serif\">{}</text>",
            colour(x, viewer, visible.contains(w)),
            cx + r + 2,
            cy + 4,
            w.0
        );
    }
    out.push_str("</svg>\n");
    Some(out)
}
