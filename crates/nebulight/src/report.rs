//! The compte rendu (spec section 9, rulebook Annexe II), byte for byte.
//!
//! Layout (decision AMB-34): header, technology block, points line, world
//! blocks in ascending number (world line, fleets present, traces), then the
//! orders not executed. A player sees the worlds of `visibility::visible`;
//! foreign cargo and the origin of foreign fleets passing through are hidden.

use crate::model::*;
use crate::tech;
use crate::visibility;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Who is looking: a player slot, or everything (game master).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eye {
    Player(Slot),
    All,
}

impl Eye {
    fn sees_inside(&self, owner: Owner, s: &NebState) -> bool {
        match self {
            Eye::All => true,
            Eye::Player(p) => owner == Some(*p) || !s.options.hide_foreign_cargo,
        }
    }
}

fn q(name: &str) -> String {
    format!("\"{name}\"")
}

/// Owner part of a world or fleet line (9.3, AMB-31/32). `counter` is `None` for fleets.
pub fn owner_part(
    s: &NebState,
    end: Owner,
    start: Owner,
    acquired: bool,
    counter: Option<u32>,
) -> Option<String> {
    match end {
        None => start.map(|o| q(&format!("({})", s.name_of(Some(o))))),
        Some(e) => {
            let name = s.name_of(Some(e));
            if acquired || start != end {
                let inner = match start {
                    Some(o) if o != e => format!("{name}({})", s.name_of(Some(o))),
                    _ => name.to_string(),
                };
                Some(format!("{}{}", q(&inner), if acquired { "!" } else { "" }))
            } else {
                match counter {
                    Some(c) if c > 0 => Some(q(&format!("{name}:{c}"))),
                    _ => Some(q(name)),
                }
            }
        }
    }
}

fn mark_str(m: Option<Mark>) -> String {
    m.map(|m| m.to_string()).unwrap_or_default()
}

/// The world line (9.2–9.8).
pub fn world_line(s: &NebState, id: WorldId) -> String {
    let w = &s.worlds[&id];
    if w.black_hole {
        return format!("M_{} *** Trou noir ***", id.0);
    }
    let log = s.log.worlds.get(&id);
    let start = log.map_or(w.owner, |l| l.owner_start);
    let acquired = log.is_some_and(|l| l.acquired) && w.owner.is_some();
    let links: Vec<String> = w.links.iter().map(|l| l.0.to_string()).collect();
    let mut out = format!(
        "{}{} ({})",
        if w.is_start { "Md_" } else { "M_" },
        id.0,
        links.join(",")
    );
    let mut parts: Vec<String> = Vec::new();
    if let Some(o) = owner_part(s, w.owner, start, acquired, Some(w.counter)) {
        parts.push(o);
    }
    let vi_mark = log.and_then(|l| l.vi_mark);
    let ind = if w.industries > 0 {
        if w.up == w.industries {
            format!("I={}", w.industries)
        } else {
            format!("I={}/{}", w.up, w.industries)
        }
    } else {
        String::new()
    };
    if w.vi > 0 || vi_mark.is_some() {
        parts.push(format!("[{ind}]={}{}", w.vi, mark_str(vi_mark)));
    } else if !ind.is_empty() {
        parts.push(ind);
    }
    let deaths = log.map_or(0, |l| l.deaths);
    let vp_mark = log.and_then(|l| l.vp_mark);
    let core = if deaths > 0 {
        format!("P={}{{-{deaths}N}}({})", w.population, w.limit)
    } else {
        format!("P={}({})", w.population, w.limit)
    };
    if w.vp > 0 || vp_mark.is_some() {
        parts.push(format!("[{core}]={}{}", w.vp, mark_str(vp_mark)));
    } else if w.population > 0 || w.limit > 0 || deaths > 0 {
        parts.push(core);
    }
    match (w.mp, w.cm) {
        (0, 0) => {}
        (m, 0) => parts.push(format!("MP={m}")),
        (0, c) => parts.push(format!("MP=(+{c})")),
        (m, c) => parts.push(format!("MP={m}(+{c})")),
    }
    if let Some((x, y)) = w.coords {
        parts.push(format!("[{x},{y}]"));
    }
    for p in parts {
        out.push(' ');
        out.push_str(&p);
    }
    out
}

/// A fleet line (9.9).
pub fn fleet_line(s: &NebState, id: FleetId, eye: Eye) -> String {
    let f = &s.fleets[&id];
    let log = s.log.fleets.get(&id);
    let start = log.map_or(f.owner, |l| l.owner_start);
    let acquired = log.is_some_and(|l| l.acquired) && f.owner.is_some();
    let mut out = format!("F_{}", id.0);
    if let Some(o) = owner_part(s, f.owner, start, acquired, None) {
        out.push(' ');
        out.push_str(&o);
    }
    let mark = mark_str(log.and_then(|l| l.mark));
    if f.vc > 0 {
        if eye.sees_inside(f.owner, s) {
            let cargo = match (f.cargo_mp, f.cargo_n) {
                (0, 0) => String::new(),
                (m, 0) => m.to_string(),
                (0, n) => format!("{n}N"),
                (m, n) => format!("{m},{n}N"),
            };
            let _ = write!(out, " [{cargo}]={}{mark}", f.vc);
        } else {
            let _ = write!(out, " [?]={}?{mark}", f.vc);
        }
    } else if !mark.is_empty() {
        let _ = write!(out, " {mark}");
    }
    if let Some(prev) = log.and_then(|l| l.arrived_from) {
        let _ = write!(out, " du M_{}", prev.0);
    }
    out
}

pub fn trace_line(s: &NebState, t: &Trace, eye: Eye) -> String {
    let name = q(s.name_of(Some(t.owner)));
    match t.from {
        None => format!("{{F_{} {name} vers M_{}}}", t.fleet.0, t.to.0),
        Some(p) => {
            // The origin of a fleet passing through is hidden from everyone
            // but its owner (rulebook: "on voit où elle va, pas d'où elle vient").
            let from = match eye {
                Eye::All => p.0.to_string(),
                Eye::Player(v) if v == t.owner => p.0.to_string(),
                Eye::Player(_) => "?".to_string(),
            };
            format!("{{F_{} {name} du M_{from} vers M_{}}}", t.fleet.0, t.to.0)
        }
    }
}

/// World block: the line, fleets present, traces.
pub fn world_block(s: &NebState, id: WorldId, eye: Eye, out: &mut String) {
    let here: Vec<FleetId> = s
        .fleets
        .iter()
        .filter(|(_, fl)| fl.world == id)
        .map(|(f, _)| *f)
        .collect();
    world_block_with(s, id, eye, &here, out);
}

/// Every world's fleets in ascending number, built once per report: a report
/// of many worlds would otherwise scan every fleet for each (issue 9).
pub fn fleets_by_world(s: &NebState) -> BTreeMap<WorldId, Vec<FleetId>> {
    let mut m: BTreeMap<WorldId, Vec<FleetId>> = BTreeMap::new();
    for (f, fl) in &s.fleets {
        m.entry(fl.world).or_default().push(*f);
    }
    m
}

/// [`world_block`] given the fleets present on the world (ascending).
pub fn world_block_with(s: &NebState, id: WorldId, eye: Eye, here: &[FleetId], out: &mut String) {
    out.push_str(&world_line(s, id));
    out.push('\n');
    if s.worlds[&id].black_hole {
        return;
    }
    for f in here {
        out.push_str(&fleet_line(s, *f, eye));
        out.push('\n');
    }
    if let Some(l) = s.log.worlds.get(&id) {
        let mut traces = l.traces.clone();
        traces.sort_by_key(|t| t.fleet);
        for t in &traces {
            out.push_str(&trace_line(s, t, eye));
            out.push('\n');
        }
    }
}

/// The technology block; `own` is false in the game master's report, which
/// shows every player's block without the "Vos/Votre" of the player's own.
pub fn tech_block(s: &NebState, slot: Slot, own: bool, out: &mut String) {
    let p = &s.players[slot];
    let show = |t: Tech, tl: &TechLevel| -> String {
        if tl.level >= tech::max(t) {
            format!("{} (max)", tl.level)
        } else if tl.progress > 0 {
            format!("{} (+{}/{})", tl.level, tl.progress, tech::cost(t))
        } else {
            format!("{} ({})", tl.level, tech::cost(t))
        }
    };
    let (head, your) = if own {
        ("Vos niveaux technologiques", "Votre ")
    } else {
        ("Niveaux technologiques", "")
    };
    let _ = writeln!(out, "{head} :");
    let _ = writeln!(out, "DEPlacement : {}", show(Tech::Dep, &p.dep));
    let _ = writeln!(
        out,
        "ATTaque : {}, {your}CA est de : {}",
        show(Tech::Att, &p.att),
        tech::ca(p.att.level)
    );
    let _ = writeln!(
        out,
        "DEFense : {}, {your}CD est de : {}",
        show(Tech::Def, &p.def),
        tech::cd(p.def.level)
    );
}

fn points_line(s: &NebState, slot: Slot, out: &mut String) {
    let pts = s.log.players.get(slot).map_or(0, |l| l.points);
    let _ = writeln!(
        out,
        "Points ce tour : {pts} (total : {})",
        s.players[slot].score_total
    );
}

fn rejections(s: &NebState, slot: Slot, out: &mut String) {
    if let Some(l) = s.log.players.get(slot) {
        if !l.rejections.is_empty() {
            out.push_str("Ordres non exécutés :\n");
            let mut r = l.rejections.clone();
            r.sort_by_key(|r| r.line);
            for x in r {
                let _ = writeln!(out, "{} : {}", x.text, x.reason);
            }
        }
    }
}

pub fn final_lines(s: &NebState, out: &mut String) {
    if s.turn < s.max_turns || s.players.len() < 2 {
        return;
    }
    let (a, b) = (&s.players[0], &s.players[1]);
    let _ = writeln!(
        out,
        "Résultat final : {} {} - {} {}",
        a.name, a.score_total, b.name, b.score_total
    );
    match a.score_total.cmp(&b.score_total) {
        std::cmp::Ordering::Greater => {
            let _ = writeln!(out, "Vainqueur : {}", a.name);
        }
        std::cmp::Ordering::Less => {
            let _ = writeln!(out, "Vainqueur : {}", b.name);
        }
        std::cmp::Ordering::Equal => out.push_str("Match nul\n"),
    }
}

/// The report body of one player.
pub fn player_report(s: &NebState, slot: Slot) -> String {
    let mut out = format!(
        "NÉBULIGHT - Partie {} - Tour {} - Compte rendu de {}\n",
        s.game, s.turn, s.players[slot].name
    );
    tech_block(s, slot, true, &mut out);
    points_line(s, slot, &mut out);
    let at = fleets_by_world(s);
    for w in visibility::visible(s, slot) {
        world_block_with(
            s,
            w,
            Eye::Player(slot),
            at.get(&w).map_or(&[], |v| v.as_slice()),
            &mut out,
        );
    }
    rejections(s, slot, &mut out);
    final_lines(s, &mut out);
    out
}

/// The game master's report: every world, every fleet, every cargo.
pub fn master_report(s: &NebState) -> String {
    let mut out = format!(
        "NÉBULIGHT - Partie {} - Tour {} - Compte rendu de l'arbitre\n",
        s.game, s.turn
    );
    for slot in 0..s.players.len() {
        let _ = writeln!(out, "== {} ==", s.players[slot].name);
        tech_block(s, slot, false, &mut out);
        points_line(s, slot, &mut out);
        rejections(s, slot, &mut out);
    }
    out.push_str("== Univers ==\n");
    let at = fleets_by_world(s);
    for w in s.worlds.keys() {
        world_block_with(
            s,
            *w,
            Eye::All,
            at.get(w).map_or(&[], |v| v.as_slice()),
            &mut out,
        );
    }
    final_lines(s, &mut out);
    out
}

/// The spectators' report: the public facts only (turn and scores).
pub fn spectator_report(s: &NebState) -> String {
    let mut out = format!("NÉBULIGHT - Partie {} - Tour {} - Scores\n", s.game, s.turn);
    for p in &s.players {
        let _ = writeln!(out, "{} : {} points", p.name, p.score_total);
    }
    final_lines(s, &mut out);
    out
}

/// The wording of a refused phase-12 order (`combat::check_orders` decides it).
impl std::fmt::Display for crate::combat::Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::combat::Refusal::*;
        match self {
            UnknownFleet(g) => write!(f, "flotte {g} inconnue"),
            NotYourFleet(g) => write!(f, "la flotte {g} ne vous appartient pas"),
            UnknownWorld(w) => write!(f, "monde {w} inconnu"),
            NotYourWorld(w) => write!(f, "le monde {w} ne vous appartient pas"),
            NoShips => f.write_str("aucun vaisseau pour tirer"),
            TargetAbsent { fleet, world } => write!(
                f,
                "la flotte {fleet} n'était pas sur {world} au début du tour"
            ),
            AlreadyOrdered => f.write_str("ordre exclusif déjà donné"),
            EmptyFleet(g) => write!(f, "la flotte {g} n'a aucun VC"),
            NotLinked { to, from } => write!(f, "{to} n'est pas relié à {from}"),
            UnknownToYou(w) => write!(f, "{w} vous est inconnu"),
            PathCut(dep) => write!(f, "chemin réduit à {dep} mondes (DEP {dep})"),
        }
    }
}
