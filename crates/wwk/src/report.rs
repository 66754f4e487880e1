//! Turn reports (spec §8): per-nation text in the rulebook's notation, in
//! French, honouring fog of war. A nation sees its own state, the zones it
//! controls, shares or contests (S l.571), the zones where its units stand,
//! public news and the results of its own reconnaissance and espionage. The
//! spectator sees public news and the map's control; the GM sees everything.

use crate::catalog::sp;
use crate::model::*;
use crate::report_view::{base_notation, unit_notation, Holding, Seat, View, ZoneReport};
use crate::turn::{Event, Sec};
use rustc_hash::FxHashSet;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

fn units_line(h: &Holding) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut army: Option<(&str, Vec<String>)> = None;
    for g in &h.units {
        let item = format!("{} {}", g.count, unit_notation(g));
        match (&g.army, &mut army) {
            (None, _) => parts.push(item),
            (Some(a), Some((cur, items))) if a == cur => items.push(item),
            (Some(a), slot) => {
                if let Some((cur, items)) = slot.take() {
                    parts.push(format!("{cur}{{{}}}", items.join(",")));
                }
                *slot = Some((a.as_str(), vec![item]));
            }
        }
    }
    if let Some((cur, items)) = army {
        parts.push(format!("{cur}{{{}}}", items.join(",")));
    }
    let mut s = String::new();
    if !parts.is_empty() {
        s.push_str(&format!("  Unités {}\n", parts.join(", ")));
    }
    if !h.bases.is_empty() {
        let list: Vec<String> = h
            .bases
            .iter()
            .map(|b| format!("{} {}", b.count, base_notation(b)))
            .collect();
        s.push_str(&format!("  Bases {}\n", list.join(", ")));
    }
    s
}

fn status_text(z: &ZoneReport) -> String {
    let mut s = z.status.tag().to_string();
    match &z.status {
        Status::Controlled { by } => {
            s.push_str(&format!(" {by}"));
            if z.capital {
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
    if z.irradiated {
        s.push_str(" [IRR]");
    }
    if z.guerrilla {
        s.push_str(" [GUE]");
    }
    s
}

pub fn render(st: &State, events: &[Event], viewer: Option<&str>, gm: bool) -> String {
    text(&crate::report_view::build(st, events, viewer, gm))
}

fn section_title(s: Sec) -> &'static str {
    match s {
        Sec::News => "NOUVELLES DU MONDE",
        Sec::Diplo => "DIPLOMATIE",
        Sec::Orders => "ORDRES",
        Sec::Economy => "ÉCONOMIE",
        Sec::Combat => "COMBATS",
        Sec::Espionage => "ESPIONNAGE",
        Sec::Recon => "RECONNAISSANCE",
        Sec::Research => "RECHERCHE",
    }
}

/// Economy, combats, espionage, reconnaissance and research come after the
/// zones; news, diplomacy and orders before.
fn after_zones(s: Sec) -> bool {
    matches!(
        s,
        Sec::Economy | Sec::Combat | Sec::Espionage | Sec::Recon | Sec::Research
    )
}

fn list_or_dash(v: &[String]) -> String {
    if v.is_empty() {
        "-".into()
    } else {
        v.join(" ")
    }
}

/// The text report, rendered from the view only (issue 20 item 2: the text
/// and the JSON cannot disagree).
pub fn text(view: &View) -> String {
    let mut o = String::new();
    let head = match &view.viewer {
        // No empty "()" when the nation has no name (issue 18 item 5).
        Seat::Nation { code, name } if !name.is_empty() => format!("nation={code} ({name})"),
        Seat::Nation { code, .. } => format!("nation={code}"),
        Seat::GameMaster => "arbitre".into(),
        Seat::Spectator => "spectateur".into(),
    };
    let _ = writeln!(
        o,
        "WWK RAPPORT DE TOUR  partie={}  tour={}  {head}",
        view.game, view.turn
    );
    if let Some(n) = &view.nation {
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
            view.rules.vp_tech_divisor,
            n.tech_average,
            n.research_points
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
            "PV {}   Statut : {}   Trésor {}ec   Options : {}   Initiative {}",
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
        let br = |v: &[NationCode]| v.iter().map(|m| format!("[{m}]")).collect::<Vec<_>>();
        let _ = writeln!(
            o,
            "Diplomatie : GUERRE {}  ALLIÉ {}",
            list_or_dash(&br(&n.war)),
            list_or_dash(&br(&n.allied))
        );
        let _ = writeln!(
            o,
            "Marché : {}",
            if n.market_open { "ouvert" } else { "fermé" }
        );
        // The abbreviations above, once per report (issue 18 item 5).
        let _ = writeln!(
            o,
            "Légende : I infanterie, V véhicules, A aviation, Nv naval, N nucléaire, L logistique ; \
             (S) spécialité (+1 par tour), (W) faiblesse (-1 par tour) ; moyenne = (I+V+A+Nv+N)/diviseur ; \
             RP points de recherche ; PV points de victoire ; ec écus ; [X] nation"
        );
    }
    for s in view.events.iter().filter(|s| !after_zones(s.section)) {
        let _ = writeln!(o, "== {} ==", section_title(s.section));
        for l in &s.lines {
            let _ = writeln!(o, "{l}");
        }
    }
    // Zones: those the viewer holds, shares, contests or has units in.
    let _ = writeln!(o, "== ZONES ==");
    let me = match &view.viewer {
        Seat::Nation { code, .. } => Some(code.as_str()),
        _ => None,
    };
    for z in &view.zones {
        let syms: Vec<String> = z.symbols.iter().map(|c| c.to_string()).collect();
        let _ = writeln!(
            o,
            "[{}] {}  {}  symboles {}",
            z.code,
            z.name,
            status_text(z),
            list_or_dash(&syms)
        );
        for h in &z.holdings {
            let n = &h.owner;
            if let Some(s) = &h.stock {
                let ce = match s.ce {
                    Some(ce) => format!("  CE {ce}"),
                    None => String::new(),
                };
                let _ = writeln!(
                    o,
                    "  {n} Stock {}ec {}  usines {}{ce}",
                    s.ledger.ec,
                    s.ledger.stock_line(),
                    s.factories
                );
            }
            let ul = units_line(h);
            if !ul.is_empty() {
                if me != Some(n.as_str()) {
                    let _ = writeln!(o, "  {n} :");
                }
                o.push_str(&ul);
            }
        }
    }
    for s in view.events.iter().filter(|s| after_zones(s.section)) {
        let _ = writeln!(o, "== {} ==", section_title(s.section));
        for l in &s.lines {
            let _ = writeln!(o, "{l}");
        }
    }
    if !view.space.is_empty() {
        let _ = writeln!(o, "== ESPACE ==");
        for u in &view.space {
            let _ = writeln!(
                o,
                "{} {} {}",
                u.slot,
                u.code,
                if u.heads.is_empty() {
                    String::new()
                } else {
                    format!("({})", u.heads.join(","))
                }
            );
        }
    }
    if let Some(k) = view.rolls {
        let _ = writeln!(
            o,
            "== JETS ==\n{k} jets de dés ce tour (détail en pièce jointe)"
        );
    }
    if let Some(w) = &view.winners {
        let _ = writeln!(o, "== FIN ==\nVainqueur(s) : {}", w.join(", "));
    }
    // Every zone with its neighbours, so a move can be checked without the
    // map (issue 18 item 2); control only where the ZONES section shows it.
    if let Some(rows) = &view.map {
        o.push_str(&crate::view::zone_table(rows));
    }
    o
}

/// Zones a unit of `code` standing in `from` may reach with MOVE this turn
/// (§5.13: its steps, terrain, straits), blocking aside; sorted.
pub fn reachable(st: &State, nation: &str, u: &Unit, from: &str) -> Vec<ZoneCode> {
    match reachable_on_map(st, nation, u, from) {
        Some(v) => v,
        None => reachable_by_codes(st, nation, u, from),
    }
}

/// [`reachable`] over the map's own neighbour lists, borrowed rather than
/// copied: a template asks it for every stack. None where a zone visited
/// has no such list (a code that is not a zone, a map without tables).
fn reachable_on_map(st: &State, nation: &str, u: &Unit, from: &str) -> Option<Vec<ZoneCode>> {
    let spec = sp(&u.code);
    let steps = crate::military::steps(u);
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    let mut front = vec![from];
    for _ in 0..steps {
        let mut next = vec![];
        for a in &front {
            for b in st.map.neighbours_of(a)? {
                if b != from
                    && !seen.contains(b.as_str())
                    && crate::military::can_step(st, nation, spec, a, b, false)
                {
                    seen.insert(b);
                    next.push(b.as_str());
                }
            }
        }
        front = next;
    }
    let mut out: Vec<&str> = seen.into_iter().collect();
    out.sort_unstable();
    Some(out.into_iter().map(str::to_string).collect())
}

fn reachable_by_codes(st: &State, nation: &str, u: &Unit, from: &str) -> Vec<ZoneCode> {
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
