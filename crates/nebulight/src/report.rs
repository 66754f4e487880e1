//! The compte rendu (spec section 9, rulebook Annexe II), byte for byte,
//! rendered from the typed view of [`crate::view`] (issue 20 item 2: one
//! view, two renderings; the JSON report sends the same view).
//!
//! Layout (decision AMB-34): header, technology block, points line, world
//! blocks in ascending number (world line, fleets present, traces), then the
//! orders not executed. What a viewer sees is decided in [`crate::view`].

use crate::model::*;
use crate::view::{
    self, FleetView, NebView, Ownership, PlayerBlock, TechName, TechView, TraceView, ViewKind,
    WorldView,
};
use std::fmt::Write;

pub use crate::view::{fleets_by_world, Eye};

fn q(name: &str) -> String {
    format!("\"{name}\"")
}

/// Owner part of a world or fleet line (9.3, AMB-31/32). `counter` is `None` for fleets.
fn owner_part(o: &Ownership, counter: Option<u32>) -> Option<String> {
    match &o.owner {
        None => o.owner_at_start.as_ref().map(|s| q(&format!("({s})"))),
        Some(name) => {
            if o.acquired || o.owner_at_start.as_ref() != Some(name) {
                let inner = match &o.owner_at_start {
                    Some(s) if s != name => format!("{name}({s})"),
                    _ => name.clone(),
                };
                Some(format!(
                    "{}{}",
                    q(&inner),
                    if o.acquired { "!" } else { "" }
                ))
            } else {
                match counter {
                    Some(c) if c > 0 => Some(q(&format!("{name}:{c}"))),
                    _ => Some(q(name)),
                }
            }
        }
    }
}

/// The world line (9.2–9.8) of world `id` as anyone sees it.
pub fn world_line(s: &NebState, id: WorldId) -> String {
    render_world_line(&view::world(s, id, Eye::All, &[]))
}

fn render_world_line(w: &WorldView) -> String {
    if w.black_hole {
        return format!("M_{} *** Trou noir ***", w.number);
    }
    let links: Vec<String> = w.links.iter().map(|l| l.to_string()).collect();
    let mut out = format!(
        "{}{} ({})",
        if w.start_world { "Md_" } else { "M_" },
        w.number,
        links.join(",")
    );
    let mut parts: Vec<String> = Vec::new();
    if let Some(o) = owner_part(&w.ownership, Some(w.counter.unwrap_or(0))) {
        parts.push(o);
    }
    let ind = if w.industries > 0 {
        if w.industries_available == w.industries {
            format!("I={}", w.industries)
        } else {
            format!("I={}/{}", w.industries_available, w.industries)
        }
    } else {
        String::new()
    };
    let mark = |m: &Option<String>| m.clone().unwrap_or_default();
    if w.vi > 0 || w.vi_mark.is_some() {
        parts.push(format!("[{ind}]={}{}", w.vi, mark(&w.vi_mark)));
    } else if !ind.is_empty() {
        parts.push(ind);
    }
    let core = if w.deaths > 0 {
        format!("P={}{{-{}N}}({})", w.population, w.deaths, w.limit)
    } else {
        format!("P={}({})", w.population, w.limit)
    };
    if w.vp > 0 || w.vp_mark.is_some() {
        parts.push(format!("[{core}]={}{}", w.vp, mark(&w.vp_mark)));
    } else if w.population > 0 || w.limit > 0 || w.deaths > 0 {
        parts.push(core);
    }
    match (w.mp, w.cm) {
        (0, 0) => {}
        (m, 0) => parts.push(format!("MP={m}")),
        (0, c) => parts.push(format!("MP=(+{c})")),
        (m, c) => parts.push(format!("MP={m}(+{c})")),
    }
    if let Some([x, y]) = w.coords {
        parts.push(format!("[{x},{y}]"));
    }
    for p in parts {
        out.push(' ');
        out.push_str(&p);
    }
    out
}

/// A fleet line (9.9).
fn fleet_line(f: &FleetView) -> String {
    let mut out = format!("F_{}", f.number);
    if let Some(o) = owner_part(&f.ownership, None) {
        out.push(' ');
        out.push_str(&o);
    }
    let mark = f.mark.clone().unwrap_or_default();
    if f.vc > 0 {
        match &f.cargo {
            Some(c) => {
                let cargo = match (c.mp, c.population) {
                    (0, 0) => String::new(),
                    (m, 0) => m.to_string(),
                    (0, n) => format!("{n}N"),
                    (m, n) => format!("{m},{n}N"),
                };
                let _ = write!(out, " [{cargo}]={}{mark}", f.vc);
            }
            None => {
                let _ = write!(out, " [?]={}?{mark}", f.vc);
            }
        }
    } else if !mark.is_empty() {
        let _ = write!(out, " {mark}");
    }
    if let Some(prev) = f.arrived_from {
        let _ = write!(out, " du M_{prev}");
    }
    out
}

fn trace_line(t: &TraceView) -> String {
    let name = q(&t.owner);
    if !t.passing {
        return format!("{{F_{} {name} vers M_{}}}", t.fleet, t.to);
    }
    let from = t.from.map_or("?".to_string(), |p| p.to_string());
    format!("{{F_{} {name} du M_{from} vers M_{}}}", t.fleet, t.to)
}

/// World block: the line, fleets present, traces.
fn world_block(w: &WorldView, out: &mut String) {
    out.push_str(&render_world_line(w));
    out.push('\n');
    if w.black_hole {
        return;
    }
    for f in &w.fleets {
        out.push_str(&fleet_line(f));
        out.push('\n');
    }
    for t in &w.traces {
        out.push_str(&trace_line(t));
        out.push('\n');
    }
}

/// The technology block; `own` is false in the game master's report, which
/// shows every player's block without the "Vos/Votre" of the player's own.
fn tech_block(p: &PlayerBlock, own: bool, out: &mut String) {
    let show = |tl: &TechView| -> String {
        match (tl.max, tl.progress, tl.cost) {
            (true, _, _) => format!("{} (max)", tl.level),
            (false, Some(p), Some(c)) => format!("{} (+{p}/{c})", tl.level),
            (false, _, c) => format!("{} ({})", tl.level, c.unwrap_or(0)),
        }
    };
    let get = |t: TechName| {
        p.technologies
            .iter()
            .find(|x| x.tech == t)
            .map(&show)
            .unwrap_or_default()
    };
    let (head, your) = if own {
        ("Vos niveaux technologiques", "Votre ")
    } else {
        ("Niveaux technologiques", "")
    };
    let _ = writeln!(out, "{head} :");
    let _ = writeln!(out, "DEPlacement : {}", get(TechName::Dep));
    let _ = writeln!(
        out,
        "ATTaque : {}, {your}CA est de : {}",
        get(TechName::Att),
        p.attack_coefficient
    );
    let _ = writeln!(
        out,
        "DEFense : {}, {your}CD est de : {}",
        get(TechName::Def),
        p.defence_coefficient
    );
}

fn points_line(p: &PlayerBlock, out: &mut String) {
    let _ = writeln!(
        out,
        "Points ce tour : {} (total : {})",
        p.points, p.score_total
    );
}

fn rejections(p: &PlayerBlock, out: &mut String) {
    if !p.refused_orders.is_empty() {
        out.push_str("Ordres non exécutés :\n");
        for x in &p.refused_orders {
            let _ = writeln!(out, "{} : {}", x.order, x.reason);
        }
    }
}

fn final_lines(v: &NebView, out: &mut String) {
    let Some(f) = &v.final_result else { return };
    let [a, b] = f.scores.as_slice() else { return };
    let _ = writeln!(
        out,
        "Résultat final : {} {} - {} {}",
        a.player, a.total, b.player, b.total
    );
    match &f.winner {
        Some(w) => {
            let _ = writeln!(out, "Vainqueur : {w}");
        }
        None => out.push_str("Match nul\n"),
    }
}

/// The text of a report, from its view.
pub fn render(v: &NebView) -> String {
    let mut out = String::new();
    match v.viewer {
        ViewKind::Player => {
            let name = v.players.first().map_or("", |p| p.name.as_str());
            let _ = writeln!(
                out,
                "NÉBULIGHT - Partie {} - Tour {} - Compte rendu de {name}",
                v.game, v.turn
            );
            for p in &v.players {
                tech_block(p, true, &mut out);
                points_line(p, &mut out);
            }
            for w in &v.worlds {
                world_block(w, &mut out);
            }
            for p in &v.players {
                rejections(p, &mut out);
            }
        }
        ViewKind::GameMaster => {
            let _ = writeln!(
                out,
                "NÉBULIGHT - Partie {} - Tour {} - Compte rendu de l'arbitre",
                v.game, v.turn
            );
            for p in &v.players {
                let _ = writeln!(out, "== {} ==", p.name);
                tech_block(p, false, &mut out);
                points_line(p, &mut out);
                rejections(p, &mut out);
            }
            out.push_str("== Univers ==\n");
            for w in &v.worlds {
                world_block(w, &mut out);
            }
        }
        ViewKind::Spectator => {
            let _ = writeln!(
                out,
                "NÉBULIGHT - Partie {} - Tour {} - Scores",
                v.game, v.turn
            );
            for p in &v.scores {
                let _ = writeln!(out, "{} : {} points", p.player, p.total);
            }
        }
    }
    final_lines(v, &mut out);
    out
}

/// The report body of one player.
pub fn player_report(s: &NebState, slot: Slot) -> String {
    render(&view::player_view(s, slot))
}

/// The game master's report: every world, every fleet, every cargo.
pub fn master_report(s: &NebState) -> String {
    render(&view::master_view(s))
}

/// The spectators' report: the public facts only (turn and scores).
pub fn spectator_report(s: &NebState) -> String {
    render(&view::spectator_view(s))
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
