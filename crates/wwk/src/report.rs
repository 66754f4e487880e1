//! Turn reports (spec §8): per-nation text in the rulebook's notation, in
//! French, honouring fog of war. A nation sees its own state, the zones it
//! controls, shares or contests (S l.571), the zones where its units stand,
//! public news and the results of its own reconnaissance and espionage. The
//! spectator sees public news and the map's control; the GM sees everything.

use crate::catalog::sp;
use crate::model::*;
use crate::turn::{Event, Sec};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

fn units_line(st: &State, at: &UnitsAt, owner: &str, z: &str) -> String {
    let mut loose: BTreeMap<String, usize> = BTreeMap::new();
    let mut armies: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    // Bases grouped like units, in the rulebook's notation: `12 IRBM`,
    // `2 ABSE(5K)` (issue 18 item 5).
    let mut bases: BTreeMap<String, usize> = BTreeMap::new();
    for u in at.units(st, z).filter(|u| u.owner == owner) {
        let s = sp(&u.code);
        if s.is_base() {
            if u.code == "FAC" {
                continue;
            }
            let mut b = u.code.clone();
            if !u.heads.is_empty() {
                b.push_str(&format!("({})", u.heads.join(",")));
            }
            if u.code == "ABMP" {
                b.push_str(&format!("({} tirs)", u.ammo));
            }
            *bases.entry(b).or_default() += 1;
            continue;
        }
        let mut code = u.code.clone();
        if u.damaged {
            code.push('*');
        }
        // An anti-missile battery's remaining shots (§2.8, 10 at build).
        if u.code == "ABMP" {
            code.push_str(&format!("({} tirs)", u.ammo));
        }
        if !u.heads.is_empty() {
            code = format!("{}({})", code, u.heads.join(","));
        }
        // A transport's hold (§2.7): `TLS[1 INF]`.
        let mut hold: BTreeMap<&str, usize> = BTreeMap::new();
        let tag = format!("@{}", u.id);
        for c in at.units(st, &tag) {
            *hold.entry(c.code.as_str()).or_default() += 1;
        }
        if !hold.is_empty() {
            code = format!(
                "{code}[{}]",
                hold.iter()
                    .map(|(c, k)| format!("{k} {c}"))
                    .collect::<Vec<_>>()
                    .join(",")
            );
        }
        match &u.army {
            Some(a) => {
                *armies
                    .entry(a.clone())
                    .or_default()
                    .entry(code)
                    .or_default() += 1
            }
            None => *loose.entry(code).or_default() += 1,
        }
    }
    let mut parts: Vec<String> = loose.iter().map(|(c, k)| format!("{k} {c}")).collect();
    for (a, m) in armies {
        parts.push(format!(
            "{a}{{{}}}",
            m.iter()
                .map(|(c, k)| format!("{k} {c}"))
                .collect::<Vec<_>>()
                .join(",")
        ));
    }
    let mut s = String::new();
    if !parts.is_empty() {
        s.push_str(&format!("  Unités {}\n", parts.join(", ")));
    }
    if !bases.is_empty() {
        let list: Vec<String> = bases.iter().map(|(c, k)| format!("{k} {c}")).collect();
        s.push_str(&format!("  Bases {}\n", list.join(", ")));
    }
    s
}

fn status_text(st: &State, at: &UnitsAt, z: &str) -> String {
    let zs = st.zone(z);
    let mut s = zs.status.tag().to_string();
    match &zs.status {
        Status::Controlled { by } => {
            s.push_str(&format!(" {by}"));
            // `State::is_capital`, counting the factories in the index.
            if at
                .units(st, z)
                .filter(|u| u.owner == *by && u.code == "FAC")
                .count()
                >= st.params.capital_min_factories
            {
                s.push_str(" [CAPITAL]");
            }
        }
        Status::Shared { by } => s.push_str(&format!(" {}", by.join("+"))),
        Status::Contested { by, holder } => s.push_str(&format!(
            " {} (défenseur {})",
            by.join("+"),
            holder.clone().unwrap_or_else(|| NEUTRAL.into())
        )),
        Status::Neutral => {}
    }
    if zs.irradiated_until >= st.turn && zs.irradiated_until > 0 {
        s.push_str(" [IRR]");
    }
    if at.units(st, z).any(|u| u.owner == GUERRILLA) {
        s.push_str(" [GUE]");
    }
    s
}

pub fn render(st: &State, events: &[Event], viewer: Option<&str>, gm: bool) -> String {
    let mut o = String::new();
    let head = match viewer {
        // No empty "()" when the nation has no name (issue 18 item 5).
        Some(n) => match st.nations.get(n).map(|x| x.name.as_str()) {
            Some(name) if !name.is_empty() => format!("nation={n} ({name})"),
            _ => format!("nation={n}"),
        },
        None if gm => "arbitre".into(),
        None => "spectateur".into(),
    };
    let _ = writeln!(
        o,
        "WWK RAPPORT DE TOUR  partie={}  tour={}  {head}",
        st.game_id, st.turn
    );
    let sees = |e: &Event| gm || e.visible(viewer);
    if let Some(n) = viewer.and_then(|n| st.nations.get(n)) {
        let t = n.tech;
        let tag = |f: Field| {
            if f == n.specialty {
                "(S)"
            } else if n.weaknesses.contains(&f) {
                "(W)"
            } else {
                ""
            }
        };
        let _ = writeln!(o, "== NATION ==");
        let _ = writeln!(
            o,
            "Tech  I {}{} V {}{} A {}{} Nv {}{} N {}{} L {}{}   moyenne({})={}   RP au prochain tour {}",
            t.i, tag(Field::I), t.v, tag(Field::V), t.a, tag(Field::A), t.nv, tag(Field::Nv), t.n, tag(Field::N), t.l, tag(Field::L),
            st.params.vp_tech_divisor,
            crate::combat::Rat::int(t.sum5()).mul(1, st.params.vp_tech_divisor).show(),
            crate::economy::research_points(i64::from(t.l), st.controlled(&n.code).len() as i64)
        );
        let mut opts = vec![];
        if n.options.economy_restored {
            opts.push("Economie Redressée");
        }
        if n.options.soylent_green {
            opts.push("Soleil Vert");
        }
        if n.options.ai {
            opts.push("IA");
        }
        let _ = writeln!(
            o,
            "PV {}   Statut: {}   Trésor {}ec   Options: {}   Initiative {}",
            n.vp,
            if n.superpower { "superpuissance" } else { "-" },
            n.treasury,
            if opts.is_empty() {
                "-".to_string()
            } else {
                opts.join(", ")
            },
            n.initiative
        );
        let mut war = vec![];
        let mut ally = vec![];
        for m in st.nations.keys().filter(|m| *m != &n.code) {
            match st.diplo(&n.code, m) {
                Diplo::War => war.push(format!("[{m}]")),
                Diplo::Allied => ally.push(format!("[{m}]")),
                Diplo::Peace => {}
            }
        }
        let _ = writeln!(
            o,
            "Diplomatie: GUERRE {}  ALLIÉ {}",
            if war.is_empty() {
                "-".into()
            } else {
                war.join(" ")
            },
            if ally.is_empty() {
                "-".into()
            } else {
                ally.join(" ")
            }
        );
        let closed = crate::admin::market_closed_for(st, &n.code, st.turn + 1);
        let _ = writeln!(o, "Marché: {}", if closed { "fermé" } else { "ouvert" });
        // The abbreviations above, once per report (issue 18 item 5).
        let _ = writeln!(
            o,
            "Légende: I infanterie, V véhicules, A aviation, Nv naval, N nucléaire, L logistique ; \
             (S) spécialité (+1 par tour), (W) faiblesse (-1 par tour) ; moyenne = (I+V+A+Nv+N)/diviseur ; \
             RP points de recherche ; PV points de victoire ; ec écus ; [X] nation"
        );
    }
    let mut sections: BTreeMap<Sec, Vec<String>> = BTreeMap::new();
    for e in events.iter().filter(|e| sees(e)) {
        // The GM sees every nation's orders: each line names its nation.
        let text = match (&e.to, gm) {
            (crate::turn::Vis::Nation(n), true) if e.sec == Sec::Orders => {
                format!("{n} {}", e.text)
            }
            _ => e.text.clone(),
        };
        sections.entry(e.sec).or_default().push(text);
    }
    let title = |s: Sec| match s {
        Sec::News => "NOUVELLES DU MONDE",
        Sec::Diplo => "DIPLOMATIE",
        Sec::Orders => "ORDRES",
        Sec::Economy => "ÉCONOMIE",
        Sec::Combat => "COMBATS",
        Sec::Espionage => "ESPIONNAGE",
        Sec::Recon => "RECONNAISSANCE",
        Sec::Research => "RECHERCHE",
    };
    for (sec, lines) in &sections {
        if *sec == Sec::Economy
            || *sec == Sec::Combat
            || *sec == Sec::Espionage
            || *sec == Sec::Recon
            || *sec == Sec::Research
        {
            continue;
        }
        let _ = writeln!(o, "== {} ==", title(*sec));
        for l in lines {
            let _ = writeln!(o, "{l}");
        }
    }
    // Zones: those the viewer holds, shares, contests or has units in.
    let _ = writeln!(o, "== ZONES ==");
    // Built once per report rather than scanning every unit for each zone
    // (issue 9): units by place, and the zones where the viewer has units.
    // A nation's report needs only the units of the zones it sees.
    let (present, held): (BTreeSet<String>, BTreeSet<&str>) = match viewer {
        Some(n) if !gm => (
            st.units
                .values()
                .filter(|u| u.owner == n)
                .filter_map(|u| st.unit_zone(u.id))
                .collect(),
            st.zones
                .iter()
                .filter(|(_, zs)| zs.status.has_party(n))
                .map(|(z, _)| z.as_str())
                .collect(),
        ),
        _ => (BTreeSet::new(), BTreeSet::new()),
    };
    let at = match viewer {
        Some(_) if !gm => UnitsAt::build_where(st, |z| {
            z.starts_with('@') || held.contains(z) || present.contains(z)
        }),
        _ => st.units_at(),
    };
    // A nation's zones only, in map order, rather than a test of every zone
    // of the map per report (issue 9).
    let walk: Vec<&ZoneDef> = match viewer {
        Some(_) if !gm => match st.map.positions_of(
            held.iter()
                .copied()
                .chain(present.iter().map(|z| z.as_str())),
        ) {
            Some(v) => v.into_iter().map(|i| &st.map.zones[i]).collect(),
            None => st.map.zones.iter().collect(),
        },
        _ => st.map.zones.iter().collect(),
    };
    for d in walk {
        let z = &d.code;
        let zs = st.zone(z);
        let visible = match viewer {
            _ if gm => true,
            None => zs.status != Status::Neutral,
            Some(n) => zs.status.has_party(n) || present.contains(z),
        };
        if !visible {
            continue;
        }
        let syms: String = d
            .symbols
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let _ = writeln!(
            o,
            "[{z}] {}  {}  symboles {}",
            d.name,
            status_text(st, &at, z),
            if syms.is_empty() { "-".into() } else { syms }
        );
        let owners: Vec<String> = match viewer {
            // In the zones a nation holds it sees every unit present (S l.571).
            Some(n) if !gm && zs.status.has_party(n) => {
                let mut v = vec![n.to_string()];
                let mut others: Vec<String> = at
                    .units(st, z)
                    .filter(|u| u.owner != n)
                    .map(|u| u.owner.clone())
                    .collect();
                others.sort();
                others.dedup();
                v.extend(others);
                v
            }
            Some(n) if !gm => vec![n.to_string()],
            _ if gm => {
                let mut v: Vec<String> = at.units(st, z).map(|u| u.owner.clone()).collect();
                v.extend(zs.ledgers.keys().cloned());
                v.sort();
                v.dedup();
                v
            }
            _ => vec![],
        };
        for n in owners {
            // Never another nation's stocks or CE (§8.1), except for the GM.
            let own = gm || viewer == Some(n.as_str());
            if let Some(l) = zs.ledgers.get(&n).filter(|_| own) {
                let fac = at
                    .units(st, z)
                    .filter(|u| u.owner == n && u.code == "FAC")
                    .count();
                let ce = if zs.status.parties().contains(&n) {
                    format!("  CE {}", zs.ce)
                } else {
                    String::new()
                };
                let _ = writeln!(
                    o,
                    "  {n} Stock {}ec {}  usines {fac}{ce}",
                    l.ec,
                    l.stock_line()
                );
            }
            let ul = units_line(st, &at, &n, z);
            if !ul.is_empty() {
                if gm || viewer.is_some_and(|v| v != n) {
                    let _ = writeln!(o, "  {n}:");
                }
                o.push_str(&ul);
            }
        }
    }
    for (sec, lines) in &sections {
        if !matches!(
            sec,
            Sec::Economy | Sec::Combat | Sec::Espionage | Sec::Recon | Sec::Research
        ) {
            continue;
        }
        let _ = writeln!(o, "== {} ==", title(*sec));
        for l in lines {
            let _ = writeln!(o, "{l}");
        }
    }
    let space: Vec<&Unit> = st
        .units
        .values()
        .filter(|u| u.at.starts_with('#') && (gm || viewer == Some(u.owner.as_str())))
        .collect();
    if !space.is_empty() {
        let _ = writeln!(o, "== ESPACE ==");
        for u in space {
            let _ = writeln!(
                o,
                "{} {} {}",
                u.at,
                u.code,
                if u.heads.is_empty() {
                    String::new()
                } else {
                    format!("({})", u.heads.join(","))
                }
            );
        }
    }
    if gm && !st.roll_log.is_empty() {
        let _ = writeln!(
            o,
            "== JETS ==\n{} jets de dés ce tour (détail en pièce jointe)",
            st.roll_log.len()
        );
    }
    if let Some(w) = &st.winner {
        let _ = writeln!(o, "== FIN ==\nVainqueur(s) : {}", w.join(", "));
    }
    // Every zone with its neighbours, so a move can be checked without the
    // map (issue 18 item 2); control only where the ZONES section shows it.
    if viewer.is_some() && !gm {
        o.push_str(&crate::view::zone_table(&crate::view::rows(
            st, events, viewer, gm,
        )));
    }
    o
}

/// Zones a unit of `code` standing in `from` may reach with MOVE this turn
/// (§5.13: its steps, terrain, straits), blocking aside; sorted.
pub fn reachable(st: &State, nation: &str, u: &Unit, from: &str) -> Vec<ZoneCode> {
    let spec = sp(&u.code);
    let steps = crate::military::steps(u);
    let mut seen: BTreeSet<ZoneCode> = BTreeSet::new();
    let mut front = vec![from.to_string()];
    for _ in 0..steps {
        let mut next = vec![];
        for a in &front {
            for b in st.neighbours(a) {
                if b != from
                    && !seen.contains(&b)
                    && crate::military::can_step(st, nation, spec, a, &b, false)
                {
                    seen.insert(b.clone());
                    next.push(b);
                }
            }
        }
        front = next;
    }
    seen.into_iter().collect()
}

/// An order template for the next turn (attachment): the envelope, then one
/// commented block per zone the nation may give orders from.
pub fn order_template(st: &State, nation: &str, player: &str) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "PARTIE {} JOUEUR {player} MOT-DE-PASSE <mot-de-passe>",
        st.game_id
    );
    let _ = writeln!(o, "# WWK, ordres du tour {} pour {nation}", st.turn + 1);
    let _ = writeln!(
        o,
        "# Sous chaque zone : vos unités et les zones qu'elles peuvent atteindre par MOVE (hors blocage)."
    );
    let _ = writeln!(
        o,
        "# Budget : {} ordres locaux par zone, {} actions nationales (docs/wwk.md).",
        st.params.local_orders_per_zone, st.params.national_actions
    );
    let _ = writeln!(o, "# NAT RESEARCH I 10 V 10 A 10 NV 5 N 5 L 20");
    // The nation's units by place, once (issue 9).
    let mut mine: BTreeMap<&str, Vec<&Unit>> = BTreeMap::new();
    for u in st.units.values().filter(|u| u.owner == nation) {
        // Cargo is listed in its transport's zone, where it takes orders (§3.2).
        let place = match u
            .at
            .strip_prefix('@')
            .and_then(|c| c.parse::<UnitId>().ok())
            .and_then(|c| st.unit(c))
        {
            Some(t) => t.at.as_str(),
            None => u.at.as_str(),
        };
        mine.entry(place).or_default().push(u);
    }
    // Only the zones the nation holds or has units in, in map order.
    let held_zones = st
        .zones
        .iter()
        .filter(|(_, zs)| zs.status.has_party(nation))
        .map(|(z, _)| z.as_str());
    let walk: Vec<&ZoneDef> = match st.map.positions_of(held_zones.chain(mine.keys().copied())) {
        Some(v) => v.into_iter().map(|i| &st.map.zones[i]).collect(),
        None => st.map.zones.iter().collect(),
    };
    for d in walk {
        let z = &d.code;
        let held = st.zone(z).status.has_party(nation);
        let mut units: BTreeMap<&str, usize> = BTreeMap::new();
        for u in mine
            .get(z.as_str())
            .into_iter()
            .flatten()
            .filter(|u| u.code != "FAC")
        {
            *units.entry(u.code.as_str()).or_default() += 1;
        }
        if !held && units.is_empty() {
            continue;
        }
        let list: Vec<String> = units.iter().map(|(c, k)| format!("{k} {c}")).collect();
        let _ = writeln!(
            o,
            "# [{z}] {} : {}",
            d.name,
            if list.is_empty() {
                "-".into()
            } else {
                list.join(", ")
            }
        );
        // One line per stack of like units standing here (damaged ones move 1).
        let mut stacks: BTreeMap<(&str, bool), (usize, &Unit)> = BTreeMap::new();
        for u in mine
            .get(z.as_str())
            .into_iter()
            .flatten()
            .filter(|u| u.at == *z)
        {
            stacks
                .entry((u.code.as_str(), u.damaged))
                .or_insert((0, u))
                .0 += 1;
        }
        for ((code, damaged), (k, u)) in stacks {
            let to = reachable(st, nation, u, z);
            if to.is_empty() {
                continue;
            }
            let _ = writeln!(
                o,
                "#   {k} {code}{} -> {}",
                if damaged { "*" } else { "" },
                to.join(" ")
            );
        }
    }
    let _ = writeln!(o, "END");
    o
}
