//! An SVG map attached to each player's report, when the map gives
//! coordinates (RAD is at maximum for everyone, rulebook IV.3.4).
//!
//! Fog of war exactly as in the text report (spec 9.13, NEB-58/59/61, issue
//! 18 item 6): a world is drawn at its coordinates only once it has been
//! shown in full to the player (`discovered`), since a report prints
//! coordinates only in a world's full line. Worlds visible this turn carry
//! their owner's colour, their fleets (with the VC the report prints) and
//! the moves the report shows (traces, and `du M_x` arrivals); worlds seen
//! before are grey, with no owner, since their owner today is hidden.
//! Neighbours never seen are not placed: their numbers are written under
//! the world, as in the report's link list. Start worlds are marked only
//! by the `Md_` of their label, the prefix the report gives the worlds it
//! shows, so an undiscovered home world never shows.
//!
//! Each drawn world and fleet carries `data-id` (the report's own token,
//! `M_12`, `Md_3`, `F_7`) and `data-seen` (`now`: in this turn's report;
//! `before`: in an earlier one), so a test can check the map against the
//! text. A picture, never a source of truth: the text report is what the
//! rules define.

use crate::model::*;
use crate::visibility;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// Pixels per map unit: the duel map (22×20 units used) gives a picture of
/// about 1,200×1,100 pixels, readable at 100 % in a mail client, where
/// worlds one unit apart keep their labels apart.
const SCALE: i64 = 48;
/// Room around the worlds for labels and fleet lists.
const MARGIN: i64 = 70;
/// Room right of the rightmost world for its label and fleet list.
const LABELS: i64 = 130;
/// Room for the title above the map.
const TITLE: i64 = 34;
/// Narrowest picture: the legend must fit.
const MIN_WIDTH: i64 = 640;
const R: i64 = 9;

const OWN: &str = "#1f5fbf";
const FOE: &str = "#c0392b";
const NEUTRAL: &str = "#8a9a5b";
const BEFORE: &str = "#d9d9d9";
const HOLE: &str = "#000000";

use arbitre_core::report::xml_escape as esc;

fn owner_colour(owner: Owner, viewer: Slot) -> &'static str {
    match owner {
        Some(o) if o == viewer => OWN,
        Some(_) => FOE,
        None => NEUTRAL,
    }
}

/// The SVG text, or `None` when the map has no coordinates or the player has
/// discovered no world with coordinates yet.
pub fn player_map(s: &NebState, viewer: Slot) -> Option<String> {
    let visible = visibility::visible(s, viewer);
    let discovered = &s.players.get(viewer)?.discovered;
    let shown: BTreeSet<WorldId> = discovered.union(&visible).copied().collect();
    let placed: BTreeMap<WorldId, (i64, i64)> = shown
        .iter()
        .filter_map(|w| s.worlds.get(w).and_then(|x| x.coords).map(|c| (*w, c)))
        .collect();
    if placed.is_empty() {
        return None;
    }
    let xs = placed.values().map(|c| c.0);
    let ys = placed.values().map(|c| c.1);
    let (min_x, max_x) = (xs.clone().min()?, xs.max()?);
    let (min_y, max_y) = (ys.clone().min()?, ys.max()?);
    // Labels and fleet lists sit right of their world: more room on the right.
    let map_w = (max_x - min_x) * SCALE + MARGIN + LABELS;
    let width = map_w.max(MIN_WIDTH);
    // Centre a narrow map under the title.
    let left = (width - map_w) / 2 + MARGIN;
    let px = |c: (i64, i64)| {
        (
            (c.0 - min_x) * SCALE + left,
            (c.1 - min_y) * SCALE + MARGIN + TITLE,
        )
    };
    let by_world = crate::report::fleets_by_world(s);
    // The text lines under a world (unseen neighbours, fleets) must not run
    // into the legend: the lowest worlds' lines get room below them.
    let lines_under = |w: &WorldId| -> i64 {
        let fleets = if visible.contains(w) {
            by_world.get(w).map_or(0, Vec::len)
        } else {
            0
        };
        (fleets + 1) as i64
    };
    let below = placed
        .iter()
        .map(|(w, c)| (c.1 - max_y) * SCALE + 11 + 13 * lines_under(w))
        .max()
        .unwrap_or(0)
        .max(MARGIN - 20);
    let map_bottom = (max_y - min_y) * SCALE + MARGIN + TITLE + below + 20;
    let legend_h = 100;
    let height = map_bottom + legend_h;

    let mut out = String::with_capacity(4096 + placed.len() * 400);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">"
    );
    let _ = writeln!(
        out,
        "<title>Nébulight - {} - tour {} - {}</title>",
        esc(&s.game),
        s.turn,
        esc(&s.players[viewer].name)
    );
    out.push_str("<defs>");
    for (id, c) in [("own", OWN), ("foe", FOE)] {
        let _ = write!(
            out,
            "<marker id=\"arrow-{id}\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{c}\"/></marker>"
        );
    }
    out.push_str("</defs>\n");
    out.push_str("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    let _ = writeln!(
        out,
        "<text x=\"12\" y=\"24\" font-size=\"16\" font-weight=\"bold\">Nébulight — {} — tour {} — {}</text>",
        esc(&s.game),
        s.turn,
        esc(&s.players[viewer].name)
    );

    // Links: only between two placed worlds, and only the links of a world
    // whose full line (with its link list) the player has seen. A black
    // hole's links are never shown (9.13).
    let mut drawn: BTreeSet<(WorldId, WorldId)> = BTreeSet::new();
    for (a, ca) in &placed {
        let wa = &s.worlds[a];
        if wa.black_hole {
            continue;
        }
        for b in &wa.links {
            let Some(cb) = placed.get(b) else { continue };
            let key = if a < b { (*a, *b) } else { (*b, *a) };
            if drawn.insert(key) {
                let ((x1, y1), (x2, y2)) = (px(*ca), px(*cb));
                let _ = writeln!(out, "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#b0b0b0\" stroke-width=\"1.5\"/>");
            }
        }
    }

    // Moves of the turn as the report shows them: traces left on visible
    // worlds (`vers M_t`) and arrivals (`du M_p`) of fleets on visible worlds.
    let mut moves: BTreeSet<(WorldId, WorldId, bool)> = BTreeSet::new();
    for w in &visible {
        if let Some(l) = s.log.worlds.get(w) {
            for t in &l.traces {
                moves.insert((*w, t.to, t.owner == viewer));
            }
        }
    }
    for w in &visible {
        for f in by_world.get(w).into_iter().flatten() {
            let fl = &s.fleets[f];
            if let Some(prev) = s.log.fleets.get(f).and_then(|l| l.arrived_from) {
                moves.insert((prev, *w, fl.owner == Some(viewer)));
            }
        }
    }
    for (from, to, own) in &moves {
        let (Some(a), Some(b)) = (placed.get(from), placed.get(to)) else {
            continue;
        };
        if a == b {
            continue;
        }
        let ((x1, y1), (x2, y2)) = (px(*a), px(*b));
        // Stop the arrow at the target circle's edge.
        let (dx, dy) = ((x2 - x1) as f64, (y2 - y1) as f64);
        let d = (dx * dx + dy * dy).sqrt().max(1.0);
        let k = (R as f64 + 3.0) / d;
        let (ex, ey) = (x2 as f64 - dx * k, y2 as f64 - dy * k);
        let (c, m) = if *own { (OWN, "own") } else { (FOE, "foe") };
        let _ = writeln!(
            out,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{ex:.0}\" y2=\"{ey:.0}\" stroke=\"{c}\" stroke-width=\"2.5\" stroke-dasharray=\"7 4\" marker-end=\"url(#arrow-{m})\"/>"
        );
    }

    for (w, c) in &placed {
        let x = &s.worlds[w];
        let (cx, cy) = px(*c);
        let now = visible.contains(w);
        let token = format!("{}{}", if x.is_start { "Md_" } else { "M_" }, w.0);
        let fill = if x.black_hole {
            HOLE
        } else if now {
            owner_colour(x.owner, viewer)
        } else {
            BEFORE
        };
        let stroke = if now { "#000000" } else { "#909090" };
        let _ = writeln!(
            out,
            "<g data-id=\"{token}\" data-seen=\"{}\"><circle cx=\"{cx}\" cy=\"{cy}\" r=\"{R}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"/>\n<text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\">{token}</text></g>",
            if now { "now" } else { "before" },
            cx + R + 3,
            cy - 3,
        );
        let mut line_y = cy + 11;
        // Neighbours never placed on this map: their numbers, as in the
        // report's link list.
        if !x.black_hole {
            let away: Vec<String> = x
                .links
                .iter()
                .filter(|l| !placed.contains_key(l))
                .map(|l| l.0.to_string())
                .collect();
            if !away.is_empty() {
                let _ = writeln!(
                    out,
                    "<text x=\"{}\" y=\"{line_y}\" font-size=\"11\" fill=\"#606060\">→ {}</text>",
                    cx + R + 3,
                    away.join(", ")
                );
                line_y += 13;
            }
        }
        if !now || x.black_hole {
            continue;
        }
        for f in by_world.get(w).into_iter().flatten() {
            let fl = &s.fleets[f];
            let c = owner_colour(fl.owner, viewer);
            let _ = writeln!(
                out,
                "<g data-id=\"F_{}\" data-seen=\"now\"><path d=\"M{},{} l5,-9 l5,9 z\" fill=\"{c}\"/><text x=\"{}\" y=\"{line_y}\" font-size=\"11\" fill=\"{c}\">F_{} ×{}</text></g>",
                f.0,
                cx + R + 3,
                line_y + 1,
                cx + R + 16,
                f.0,
                fl.vc
            );
            line_y += 13;
        }
    }

    legend(&mut out, s, viewer, map_bottom, width);
    out.push_str("</svg>\n");
    Some(out)
}

fn legend(out: &mut String, s: &NebState, viewer: Slot, top: i64, width: i64) {
    let _ = writeln!(
        out,
        "<rect x=\"6\" y=\"{}\" width=\"{}\" height=\"92\" fill=\"#f6f6f6\" stroke=\"#c8c8c8\"/>",
        top,
        width - 12
    );
    let foe: Vec<&str> = s
        .players
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != viewer)
        .map(|(_, p)| p.name.as_str())
        .collect();
    let me = esc(&s.players[viewer].name);
    let foe = esc(&foe.join(", ")).into_owned();
    let items: [(&str, String); 5] = [
        (OWN, format!("{me} (vous)")),
        (FOE, foe),
        (NEUTRAL, "neutre".to_string()),
        (BEFORE, "vu avant ce tour".to_string()),
        (HOLE, "trou noir".to_string()),
    ];
    let mut x = 16;
    let y = top + 22;
    for (c, label) in items.iter() {
        let _ = writeln!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"7\" fill=\"{c}\" stroke=\"#000000\"/><text x=\"{}\" y=\"{}\" font-size=\"12\">{label}</text>",
            x + 7,
            y - 4,
            x + 18,
            y
        );
        x += 30 + 7 * label.chars().count() as i64;
    }
    let y2 = top + 50;
    let _ = writeln!(
        out,
        "<path d=\"M16,{} l5,-9 l5,9 z\" fill=\"{OWN}\"/><text x=\"32\" y=\"{y2}\" font-size=\"12\">flotte (F_n ×VC)</text>\
         <line x1=\"160\" y1=\"{}\" x2=\"200\" y2=\"{}\" stroke=\"{OWN}\" stroke-width=\"2.5\" stroke-dasharray=\"7 4\" marker-end=\"url(#arrow-own)\"/><text x=\"208\" y=\"{y2}\" font-size=\"12\">mouvement du tour</text>\
         <text x=\"16\" y=\"{}\" font-size=\"12\">Md_n : monde de départ     → n, m : voisins jamais vus (liaisons du compte rendu)</text>",
        y2 + 1,
        y2 - 4,
        y2 - 4,
        y2 + 26
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world(links: &[u32], coords: (i64, i64), start: bool, owner: Owner) -> World {
        World {
            links: links.iter().map(|l| WorldId(*l)).collect(),
            is_start: start,
            coords: Some(coords),
            owner,
            population: 10,
            limit: 20,
            ..World::default()
        }
    }

    fn player(name: &str, discovered: &[u32]) -> Player {
        Player {
            id: name.to_lowercase(),
            name: name.to_string(),
            dep: TechLevel {
                level: 1,
                progress: 0,
            },
            att: TechLevel {
                level: 1,
                progress: 0,
            },
            def: TechLevel {
                level: 1,
                progress: 0,
            },
            score_total: 0,
            discovered: discovered.iter().map(|w| WorldId(*w)).collect(),
        }
    }

    /// Maxtor home 1 (linked to 2), 2 linked to 3, Miria home 3.
    fn three_worlds() -> NebState {
        let mut worlds = BTreeMap::new();
        worlds.insert(WorldId(1), world(&[2], (0, 0), true, Some(0)));
        worlds.insert(WorldId(2), world(&[1, 3], (5, 0), false, None));
        worlds.insert(WorldId(3), world(&[2], (10, 0), true, Some(1)));
        let mut fleets = BTreeMap::new();
        fleets.insert(
            FleetId(7),
            Fleet {
                world: WorldId(1),
                owner: Some(0),
                vc: 4,
                ..Fleet::default()
            },
        );
        fleets.insert(
            FleetId(9),
            Fleet {
                world: WorldId(3),
                owner: Some(1),
                vc: 6,
                ..Fleet::default()
            },
        );
        NebState {
            game: "t".into(),
            turn: 0,
            max_turns: 20,
            options: Options::default(),
            players: vec![player("Maxtor", &[1]), player("Miria", &[3])],
            worlds,
            fleets,
            log: TurnLog::default(),
        }
    }

    fn ids(svg: &str) -> Vec<String> {
        svg.split("data-id=\"")
            .skip(1)
            .filter_map(|p| p.split('"').next())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn neb_58_undiscovered_neighbours_and_foreign_home_are_not_drawn() {
        let s = three_worlds();
        let svg = player_map(&s, 0).expect("a map");
        assert_eq!(ids(&svg), vec!["Md_1", "F_7"]);
        // The neighbour 2 is named as in the link list, never placed.
        assert!(svg.contains("→ 2"));
        assert!(!svg.contains("Md_3"));
        assert!(!svg.contains("F_9"));
        // One world only: no circle at world 2's or 3's place.
        assert_eq!(
            svg.matches("<circle").count(),
            1 + 5,
            "one world and the legend's five"
        );
    }

    #[test]
    fn neb_59_worlds_seen_before_are_grey_without_their_owner() {
        let mut s = three_worlds();
        // Maxtor saw Miria's home once, but sees it no more.
        s.players[0].discovered.insert(WorldId(3));
        let svg = player_map(&s, 0).expect("a map");
        assert!(svg.contains("<g data-id=\"Md_3\" data-seen=\"before\"><circle cx"));
        let miria = svg.split("data-id=\"Md_3\"").nth(1).unwrap_or_default();
        assert!(miria.contains(&format!("fill=\"{BEFORE}\"")));
        assert!(!miria.split("</g>").next().unwrap_or_default().contains(FOE));
        assert!(
            !svg.contains("F_9"),
            "fleets on worlds not visible are hidden"
        );
    }

    #[test]
    fn neb_58_fleets_and_moves_of_visible_worlds_are_drawn() {
        let mut s = three_worlds();
        s.players[0].discovered.insert(WorldId(2));
        if let Some(f) = s.fleets.get_mut(&FleetId(7)) {
            f.world = WorldId(2);
        }
        s.log.fleets.insert(
            FleetId(7),
            FleetLog {
                owner_start: Some(0),
                world_start: WorldId(1),
                arrived_from: Some(WorldId(1)),
                ..FleetLog::default()
            },
        );
        let svg = player_map(&s, 0).expect("a map");
        assert!(svg.contains("F_7 ×4"));
        // The trace arrow plus the legend's.
        assert_eq!(svg.matches("stroke-dasharray=\"7 4\"").count(), 2);
    }
}
