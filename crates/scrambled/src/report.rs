//! The per-player text report in French (spec §7, translated), with fog of war
//! (rulebook "Brouillard de guerre"; spec §4).
//!
//! Sections always appear in the same order; an empty one shows `(aucun)`.
//! A player sees troop counts and movements only in the territories of their
//! vision set (§4.1); owner, capital, CONFLIT/CONTESTÉ flags, economic ratio
//! and area are public. A spectator sees only public facts; the game master
//! sees everything. Rendering only reads the state (its log of the last
//! resolution), so a report sent again is byte-identical.

use crate::economy::bp_fr;
use crate::events::{Budget, Event, OrderStatus};
use crate::score;
use crate::state::{State, Status};
use crate::world::{TerrId, Terrain};
use arbitre_core::{PlayerId, Report, Viewer};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// What a viewer may see.
enum Sight<'a> {
    Player(&'a PlayerId),
    Spectator,
    Master,
}

/// The vision set of `p` for the last resolution (§4.1); at turn 0 (or from a
/// position without a log) what the player owns or stands in.
pub fn vision(state: &State, p: &PlayerId) -> BTreeSet<TerrId> {
    for e in &state.log {
        if let Event::Vision { player, terrs } = e {
            if player == p {
                let mut v = terrs.clone();
                v.extend(current_vision(state, p));
                return v;
            }
        }
    }
    current_vision(state, p)
}

fn current_vision(state: &State, p: &PlayerId) -> BTreeSet<TerrId> {
    state
        .territories
        .iter()
        .filter(|(_, ts)| ts.owner.as_ref() == Some(p) || ts.troops_of(p) > 0)
        .map(|(t, _)| t.clone())
        .collect()
}

/// `s` then spaces up to `w` characters.
fn pad(s: &str, w: usize) -> String {
    let mut o = String::new();
    pad_into(&mut o, s, w);
    o
}

fn rpad(s: &str, w: usize) -> String {
    let mut o = String::new();
    rpad_into(&mut o, s, w);
    o
}

/// [`pad`] written at the end of `o` (`{:<w}`: widths count characters).
fn pad_into(o: &mut String, s: &str, w: usize) {
    o.push_str(s);
    o.extend(std::iter::repeat_n(
        ' ',
        w.saturating_sub(s.chars().count()),
    ));
}

/// [`rpad`] written at the end of `o` (`{:>w}`).
fn rpad_into(o: &mut String, s: &str, w: usize) {
    o.extend(std::iter::repeat_n(
        ' ',
        w.saturating_sub(s.chars().count()),
    ));
    o.push_str(s);
}

fn line(out: &mut String, s: &str) {
    out.push_str(s.trim_end());
    out.push('\n');
}

/// "de Bob", "d'Alice": French elision before a vowel.
pub fn de(name: &str) -> String {
    match name.chars().next() {
        Some(c) if "AEIOUYÉÈÊÀÂÎÔÛaeiouyéèêàâîôû".contains(c) => {
            format!("d'{name}")
        }
        _ => format!("de {name}"),
    }
}

fn status_fr(s: Status) -> String {
    match s {
        Status::Active => "actif".into(),
        Status::Quit(t) => format!("parti t{t}"),
        Status::Eliminated(t) => format!("anéanti t{t}"),
    }
}

pub fn render(state: &State, viewer: &Viewer) -> Report {
    let sight = match viewer {
        Viewer::Player(p) if state.players.contains_key(p) => Sight::Player(p),
        Viewer::Player(_) | Viewer::Spectator => Sight::Spectator,
        Viewer::GameMaster => Sight::Master,
    };
    let vis: BTreeSet<TerrId> = match &sight {
        Sight::Player(p) => vision(state, p),
        Sight::Spectator => BTreeSet::new(),
        Sight::Master => state.territories.keys().cloned().collect(),
    };
    let mut out = String::new();
    header(&mut out, state, &sight);
    messages(&mut out, state, &sight);
    order_results(&mut out, state, &sight);
    economy(&mut out, state, &sight);
    if let Sight::Player(p) = &sight {
        your_troops(&mut out, state, p);
    }
    standing_orders(&mut out, state, &sight);
    activity(&mut out, state, &vis, &sight);
    territories(&mut out, state, &vis, &sight);
    diplomacy(&mut out, state, &sight);
    standings(&mut out, state);
    if state.over {
        final_scores(&mut out, state);
    }
    let who = match &sight {
        Sight::Player(p) => state.player_name(p),
        Sight::Spectator => "spectateurs".to_string(),
        Sight::Master => "meneur de jeu".to_string(),
    };
    let subject = format!("Tour {} — rapport pour {who}", state.turn);
    // A turn's reports are all held until mailed: no growth slack in each.
    out.shrink_to_fit();
    let mut rep = Report::text(subject, out);
    let map_vis = match &sight {
        Sight::Spectator => None,
        _ => Some(&vis),
    };
    let me = match &sight {
        Sight::Player(p) => Some(*p),
        _ => None,
    };
    let svg = crate::svg::render(state, map_vis, me);
    rep = rep.with_attachment(
        &format!("carte-t{}.svg", state.turn),
        "image/svg+xml",
        svg.into_bytes(),
    );
    if let Some(p) = me {
        if state.players[p].active() && !state.over {
            let name = format!("ordres-t{}.txt", state.turn + 1);
            rep = rep.with_attachment(
                &name,
                "text/plain; charset=utf-8",
                order_template(state, p).into_bytes(),
            );
        }
    }
    rep
}

/// A ready-to-fill order mail: the envelope, then one commented line per stack
/// with its neighbours, so a player can uncomment and edit. `READY` is
/// commented out too (issue 17 item 8): a template sent back unchanged
/// must not declare the player ready and resolve the turn early.
pub fn order_template(state: &State, p: &PlayerId) -> String {
    let mut t = format!(
        "PARTIE {} JOUEUR {} MOT-DE-PASSE <mot-de-passe>\nTOUR {}\n",
        state.game_id,
        p,
        state.turn + 1
    );
    for (id, ts) in &state.territories {
        let n = ts.troops_of(p);
        if n == 0 {
            continue;
        }
        let nbs: Vec<&str> = state.world.territories[id]
            .neighbours
            .iter()
            .filter(|x| state.world.passable(x))
            .map(|x| x.as_str())
            .collect();
        t.push_str(&format!(
            "# MOVE {n} {id} -> ?   ({}, voisins : {})\n",
            state.world.name(id),
            nbs.join(", ")
        ));
    }
    t.push_str("# READY   (retirez le # pour vous déclarer prêt : le tour peut alors être résolu avant la date limite)\nEND\n");
    t.shrink_to_fit();
    t
}

fn header(out: &mut String, state: &State, sight: &Sight<'_>) {
    let who = match sight {
        Sight::Player(p) => format!("rapport pour {}", state.player_name(p)),
        Sight::Spectator => "rapport public".to_string(),
        Sight::Master => "rapport du meneur de jeu".to_string(),
    };
    line(
        out,
        &format!("SCRAMBLED NATIONS — partie {} — {who}", state.game_id),
    );
    let status = if state.over {
        "partie terminée".to_string()
    } else {
        format!("ordres attendus pour le tour {}", state.turn + 1)
    };
    line(
        out,
        &format!(
            "Tour {} sur {} résolu — {status}",
            state.turn, state.params.turn_limit
        ),
    );
    if let Sight::Player(p) = sight {
        let pl = &state.players[*p];
        let cap = pl
            .capital
            .as_ref()
            .map(|c| state.tname(c))
            .unwrap_or_else(|| "aucune".into());
        let pend = match &pl.pending_capital {
            Some((t, due)) => format!("{} à la résolution du tour {due}", state.tname(t)),
            None => "aucun".into(),
        };
        line(
            out,
            &format!(
                "Capitale : {cap}   Déménagement : {pend}   Quote-part : {} territoires",
                state.quota
            ),
        );
    } else {
        line(
            out,
            &format!(
                "Monde : {}   Quote-part : {} territoires",
                state.world.name, state.quota
            ),
        );
    }
}

/// Word-wraps a message at `width` columns; continuation lines get `indent`.
fn wrap(text: &str, width: usize, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in text.split(' ') {
        let len = cur.chars().count();
        if len > indent.len() && len + 1 + word.chars().count() > width {
            lines.push(std::mem::replace(&mut cur, indent.to_string()));
        } else if !cur.is_empty() && cur != indent {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    lines.push(cur);
    lines
}

fn section(out: &mut String, title: &str, body: Vec<String>) {
    section_title(out, title);
    if body.is_empty() {
        line(out, "(aucun)");
    }
    for l in body {
        section_line(out, &l);
    }
}

fn section_title(out: &mut String, title: &str) {
    out.push('\n');
    line(out, &format!("== {title} =="));
}

/// One line of a section's body, wrapped as its kind requires.
fn section_line(out: &mut String, l: &str) {
    if l.starts_with("* ") && l.chars().count() > 100 {
        for w in wrap(l, 100, "  ") {
            line(out, &w);
        }
    } else if l.starts_with("  ") && l.contains(" ; ") && l.chars().count() > 100 {
        // An activity line: break between movements, aligned on the values.
        let mut cur = String::new();
        for (i, part) in l.split(" ; ").enumerate() {
            if i > 0 && cur.chars().count() + 3 + part.chars().count() > 100 {
                line(out, &format!("{cur} ;"));
                cur = " ".repeat(15);
            } else if i > 0 {
                cur.push_str(" ; ");
            }
            cur.push_str(part);
        }
        line(out, &cur);
    } else {
        line(out, l);
    }
}

fn messages(out: &mut String, state: &State, sight: &Sight<'_>) {
    let mut v: Vec<String> = Vec::new();
    let me = match sight {
        Sight::Player(p) => Some(*p),
        _ => None,
    };
    let n = |p: &PlayerId| state.player_name(p);
    let is_me = |p: &PlayerId| me == Some(p);
    let master = matches!(sight, Sight::Master);
    for e in &state.log {
        match e {
            Event::Surprise {
                victim,
                attacker,
                terr,
            } if is_me(victim) || master => {
                let whose = if master {
                    format!("celles {}", de(&n(victim)))
                } else {
                    "les vôtres".into()
                };
                v.push(format!(
                    "* ATTAQUE SURPRISE : les troupes {} ont attaqué {whose} par surprise en {} !",
                    de(&n(attacker)),
                    state.tname(terr)
                ));
            }
            Event::Tribute { from, to, amount } => {
                if is_me(from) {
                    v.push(format!("* Tribut de {amount} payé à {}.", n(to)));
                } else if is_me(to) {
                    v.push(format!("* Tribut de {amount} reçu {}.", de(&n(from))));
                } else if master {
                    v.push(format!(
                        "* Tribut de {amount} {} à {}.",
                        de(&n(from)),
                        n(to)
                    ));
                }
            }
            Event::TroopsGiven {
                terr,
                from,
                to,
                count,
            } if is_me(to) || master => {
                v.push(format!(
                    "* {} a donné {count} troupes à {} en {}.",
                    n(from),
                    n(to),
                    state.tname(terr)
                ));
            }
            Event::TerritoryGiven { terr, from, to } if is_me(to) || is_me(from) || master => {
                v.push(format!(
                    "* {} a donné le territoire {} à {}.",
                    n(from),
                    state.tname(terr),
                    n(to)
                ));
            }
            Event::Abandoned { terr, player } if is_me(player) || master => {
                v.push(format!(
                    "* {} a rendu {} indépendant.",
                    n(player),
                    state.tname(terr)
                ));
            }
            Event::Captured {
                terr,
                from,
                to,
                after_desertion,
            } => {
                let lost = from.as_ref().map(is_me).unwrap_or(false);
                if is_me(to) || lost || master {
                    let how = if *after_desertion {
                        " après des désertions"
                    } else {
                        ""
                    };
                    v.push(format!(
                        "* {} passe sous le contrôle {}{how}.",
                        state.tname(terr),
                        de(&n(to))
                    ));
                }
            }
            Event::CapitalLost { player, terr } if is_me(player) || master => {
                v.push(format!(
                    "* {} n'a plus de capitale ({} perdue) : pas de recrutement.",
                    n(player),
                    state.tname(terr)
                ));
            }
            Event::CapitalPending { player, terr, due } if is_me(player) || master => {
                v.push(format!(
                    "* Déménagement de la capitale {} vers {} prévu à la résolution du tour {due}.",
                    de(&n(player)),
                    state.tname(terr)
                ));
            }
            Event::CapitalMoved { player, terr } if is_me(player) || master => {
                v.push(format!(
                    "* La capitale {} est désormais {}.",
                    de(&n(player)),
                    state.tname(terr)
                ));
            }
            Event::CapitalMoveCancelled { player, terr } if is_me(player) || master => {
                v.push(format!("* Déménagement de la capitale {} vers {} annulé : le territoire ne lui appartient plus.", de(&n(player)), state.tname(terr)));
            }
            Event::ChainCancelled {
                player,
                chain,
                from_step,
                why,
            } if is_me(player) || master => {
                v.push(format!("* Chemin P{chain} {} : étapes à partir de P{chain}.{from_step} annulées ({why}).", de(&n(player))));
            }
            Event::WipedOut { player, terr } if is_me(player) || master => {
                v.push(format!(
                    "* Les troupes {} en {} ont été anéanties.",
                    de(&n(player)),
                    state.tname(terr)
                ));
            }
            Event::NoCapital { player } if is_me(player) || master => {
                v.push(format!(
                    "* {} n'a pas de capitale : recrutement annulé.",
                    n(player)
                ));
            }
            Event::Economy { player, budget }
                if (is_me(player) || master) && budget.deserted > 0 =>
            {
                v.push(format!(
                    "* Budget {} négatif : {} troupes ont déserté.",
                    de(&n(player)),
                    budget.deserted
                ));
            }
            Event::Quit { player } => v.push(format!("* {} a quitté la partie.", n(player))),
            Event::Eliminated { player } => v.push(format!(
                "* Élimination : {} n'a plus ni territoire ni troupe.",
                n(player)
            )),
            Event::GameOver => v.push("* La partie est terminée.".into()),
            _ => {}
        }
    }
    section(out, "MESSAGES", v);
}

fn order_results(out: &mut String, state: &State, sight: &Sight<'_>) {
    if matches!(sight, Sight::Spectator) {
        return;
    }
    let mut v = Vec::new();
    for e in &state.log {
        if let Event::OrderResult {
            player,
            text,
            status,
            detail,
        } = e
        {
            let mine = matches!(sight, Sight::Player(p) if *p == player);
            if !mine && !matches!(sight, Sight::Master) {
                continue;
            }
            let tag = match status {
                OrderStatus::Ok => "[ok]",
                OrderStatus::Fixed => "[corrigé]",
                OrderStatus::Failed => "[échec]",
            };
            let who = if matches!(sight, Sight::Master) {
                format!("{}: ", state.player_name(player))
            } else {
                String::new()
            };
            v.push(format!("{} {}{} — {detail}", pad(tag, 9), who, text));
        }
    }
    section(out, "RÉSULTATS DES ORDRES", v);
}

fn budget_of<'a>(state: &'a State, p: &PlayerId) -> Option<&'a Budget> {
    state.log.iter().find_map(|e| match e {
        Event::Economy { player, budget } if player == p => Some(budget),
        _ => None,
    })
}

fn name_width(state: &State) -> usize {
    state
        .world
        .territories
        .values()
        .map(|t| t.name.chars().count())
        .max()
        .unwrap_or(8)
        .max(10)
}

fn kv(label: &str, value: String) -> String {
    format!("{}{}", pad(label, 58), rpad(&value, 10))
}

fn economy(out: &mut String, state: &State, sight: &Sight<'_>) {
    match sight {
        Sight::Spectator => {}
        Sight::Player(p) => {
            let mut v = Vec::new();
            if let Some(b) = budget_of(state, p) {
                budget_lines(&mut v, state, b);
            }
            section(out, "ÉCONOMIE", v);
        }
        Sight::Master => {
            let mut v = Vec::new();
            for p in state.players.keys() {
                if let Some(b) = budget_of(state, p) {
                    v.push(format!(
                        "{} : brut {}, net {} ({}), disponible {}, entretien {}, budget {}, recrues {}, déserteurs {}",
                        state.player_name(p), b.gross, b.net, bp_fr(b.bp), b.available, b.upkeep, b.budget, b.recruits, b.deserted
                    ));
                }
            }
            section(out, "ÉCONOMIE", v);
        }
    }
}

/// The income breakdown; every figure adds up to the budget (SCN-61).
pub fn budget_lines(v: &mut Vec<String>, state: &State, b: &Budget) {
    let w = name_width(state) + 6;
    v.push(format!(
        "{}{:>7}{:>6}{:>6}{:>6}{:>9}",
        pad("Territoire", w),
        "Base",
        "Éco",
        "Corr",
        "Supp",
        "Revenu"
    ));
    for l in &b.lines {
        let name = format!(
            "{}{}",
            state.world.name(&l.terr),
            if l.capital { " (cap)" } else { "" }
        );
        v.push(format!(
            "{}{:>7}{:>6}{:>6}{:>6}{:>9}",
            pad(&name, w),
            l.base,
            format!("{}%", l.economy),
            format!("{}%", l.corruption),
            format!("{}%", l.suppression),
            l.income
        ));
    }
    v.push(kv("Revenu brut", b.gross.to_string()));
    v.push(kv(
        &format!(
            "Bureaucratie : {} territoires, quote-part {} -> {}   Net",
            b.territories,
            state.quota,
            bp_fr(b.bp)
        ),
        b.net.to_string(),
    ));
    v.push(kv(
        "Tributs envoyés",
        if b.sent > 0 {
            format!("-{}", b.sent)
        } else {
            "0".into()
        },
    ));
    v.push(kv("Tributs reçus", b.received.to_string()));
    v.push(kv("Disponible", b.available.to_string()));
    v.push(kv(
        &format!(
            "Entretien : {} chez soi x {} + {} à l'étranger x {}",
            b.home, state.params.troops_home_upkeep, b.away, state.params.troops_away_upkeep
        ),
        if b.upkeep > 0 {
            format!("-{}", b.upkeep)
        } else {
            "0".into()
        },
    ));
    v.push(kv("Budget", b.budget.to_string()));
    if b.budget < 0 {
        v.push(format!(
            "Désertion : déficit {}, {} troupes ont déserté ; aucun recrutement",
            -b.budget, b.deserted
        ));
    } else if let Some(c) = &b.recruit_at {
        v.push(format!(
            "Recrutement : {} troupes à {} ({} chacune) ; {} non dépensés, perdus",
            b.recruits,
            state.world.name(c),
            state.params.troops_recruit_cost,
            b.lost
        ));
    } else {
        v.push(format!(
            "Pas de capitale : aucun recrutement ; {} perdus",
            b.lost
        ));
    }
}

fn your_troops(out: &mut String, state: &State, p: &PlayerId) {
    let w = name_width(state) + 8;
    let mut v = Vec::new();
    let rows: Vec<(&TerrId, u64)> = state
        .territories
        .iter()
        .filter(|(_, ts)| ts.troops_of(p) > 0)
        .map(|(t, ts)| (t, ts.troops_of(p)))
        .collect();
    if !rows.is_empty() {
        v.push(format!(
            "{}{:>8}  {}  {}",
            pad("Territoire", w),
            "Troupes",
            pad("Entretien", 11),
            "Suprématie"
        ));
    }
    for (t, n) in rows {
        let ts = state.terr(t);
        let home = if ts.owner.as_ref() == Some(p) {
            "chez soi"
        } else {
            "étranger"
        };
        let sup = if ts.supremacy.get(p).copied().unwrap_or(true) {
            "oui"
        } else {
            "non"
        };
        v.push(format!(
            "{}{:>8}  {}  {}",
            pad(&state.tname(t), w),
            n,
            pad(home, 11),
            sup
        ));
    }
    section(out, "VOS TROUPES", v);
}

fn standing_orders(out: &mut String, state: &State, sight: &Sight<'_>) {
    if matches!(sight, Sight::Spectator) {
        return;
    }
    let mut v = Vec::new();
    for c in &state.chains {
        let mine = matches!(sight, Sight::Player(p) if *p == &c.player);
        if !mine && !matches!(sight, Sight::Master) {
            continue;
        }
        let ids: Vec<&str> = c.route.iter().map(|t| t.as_str()).collect();
        let qty = c
            .planned
            .map(|n| n.to_string())
            .unwrap_or_else(|| "toutes les".into());
        let who = if mine {
            String::new()
        } else {
            format!("{} ", state.player_name(&c.player))
        };
        v.push(format!(
            "{who}P{} : {} ; prochaine étape P{}.{} {} -> {} avec {qty} troupes",
            c.number,
            ids.join(" > "),
            c.number,
            c.next + 1,
            c.route[c.next],
            c.route[c.next + 1]
        ));
    }
    section(out, "ORDRES PERMANENTS", v);
}

/// `caps` is `state.capitals()`, computed once per report rather than per row.
fn flags(state: &State, caps: &BTreeSet<TerrId>, t: &TerrId) -> Vec<&'static str> {
    let ts = state.terr(t);
    let mut f = Vec::new();
    if caps.contains(t) {
        f.push("CAP");
    }
    if ts.conflict {
        f.push("CONFLIT");
    }
    if ts.contested {
        f.push("CONTESTÉ");
    }
    f
}

fn owner_fr(state: &State, t: &TerrId) -> String {
    match state.world.get(t).map(|x| x.terrain) {
        Some(Terrain::Sea) => "mer".into(),
        Some(Terrain::Mountain) => "montagne".into(),
        _ => match state.owner(t) {
            Some(o) => format!("propriétaire {}", state.player_name(o)),
            None => "neutre".into(),
        },
    }
}

fn activity(out: &mut String, state: &State, vis: &BTreeSet<TerrId>, sight: &Sight<'_>) {
    if matches!(sight, Sight::Spectator) {
        return;
    }
    let n = |p: &PlayerId| state.player_name(p);
    let mut per: BTreeMap<&TerrId, Vec<String>> = BTreeMap::new();
    let mut ins: BTreeMap<&TerrId, Vec<String>> = BTreeMap::new();
    let mut outs: BTreeMap<&TerrId, Vec<String>> = BTreeMap::new();
    for e in &state.log {
        if let Event::Moved {
            player,
            from,
            to,
            count,
        } = e
        {
            if vis.contains(to) {
                ins.entry(to)
                    .or_default()
                    .push(format!("{} {count} depuis {from}", n(player)));
            }
            if vis.contains(from) {
                outs.entry(from)
                    .or_default()
                    .push(format!("{} {count} vers {to}", n(player)));
            }
        }
    }
    // The events of each visible territory, in log order, gathered in one
    // pass (a scan of the whole log per territory made the game master's
    // report O(territories × events)).
    let mut local: BTreeMap<&TerrId, Vec<&Event>> = BTreeMap::new();
    for e in &state.log {
        let terr = match e {
            Event::TroopsGiven { terr, .. }
            | Event::Battle { terr, .. }
            | Event::Captured { terr, .. }
            | Event::Recruited { terr, .. }
            | Event::Deserted { terr, .. } => terr,
            _ => continue,
        };
        if vis.contains(terr) {
            local.entry(terr).or_default().push(e);
        }
    }
    let lbl = |s: &str| pad(&format!("  {s} :"), 15);
    for t in vis {
        let mut v = Vec::new();
        if let Some(l) = ins.get(t) {
            v.push(format!("{}{}", lbl("Entrées"), l.join(" ; ")));
        }
        if let Some(l) = outs.get(t) {
            v.push(format!("{}{}", lbl("Sorties"), l.join(" ; ")));
        }
        for e in local.get(t).into_iter().flatten().copied() {
            match e {
                Event::TroopsGiven {
                    terr,
                    from,
                    to,
                    count,
                } if terr == t => {
                    v.push(format!(
                        "{}{} donne {count} à {}",
                        lbl("Don"),
                        n(from),
                        n(to)
                    ));
                }
                Event::Battle {
                    terr,
                    before,
                    hits,
                    after,
                } if terr == t => {
                    let b: Vec<String> = before
                        .iter()
                        .map(|(p, c)| format!("{} {c}", n(p)))
                        .collect();
                    v.push(format!("{}avant {}", lbl("Bataille"), b.join(", ")));
                    for h in hits {
                        let s = if h.surprise { " (SURPRISE x2)" } else { "" };
                        v.push(format!(
                            "{}{} -> {} {}{s}",
                            pad("", 15),
                            n(&h.attacker),
                            n(&h.target),
                            h.hits
                        ));
                    }
                    let a: Vec<String> = after
                        .iter()
                        .map(|(p, c)| format!("{} {c} (-{})", n(p), before[p] - c))
                        .collect();
                    v.push(format!("{}après {}", pad("", 15), a.join(", ")));
                }
                Event::Captured {
                    terr,
                    from,
                    to,
                    after_desertion,
                } if terr == t => {
                    let old = from.as_ref().map(n).unwrap_or_else(|| "neutre".into());
                    let how = if *after_desertion {
                        " après désertions"
                    } else {
                        ""
                    };
                    v.push(format!("{}{}{how} (avant : {old})", lbl("Prise"), n(to)));
                }
                Event::Recruited {
                    player,
                    terr,
                    count,
                } if terr == t => {
                    v.push(format!("{}{} +{count}", lbl("Recrues"), n(player)));
                }
                Event::Deserted {
                    player,
                    terr,
                    count,
                } if terr == t => {
                    v.push(format!("{}{} -{count}", lbl("Désertion"), n(player)));
                }
                _ => {}
            }
        }
        let ts = state.terr(t);
        if v.is_empty() && ts.troops.is_empty() {
            continue;
        }
        let end: Vec<String> = ts
            .troops
            .iter()
            .map(|(p, c)| {
                let sup = if ts.supremacy.get(p).copied().unwrap_or(true) {
                    "oui"
                } else {
                    "non"
                };
                format!("{} {c} (suprématie {sup})", n(p))
            })
            .collect();
        v.push(format!(
            "{}{}",
            lbl("Fin"),
            if end.is_empty() {
                "(aucune troupe)".into()
            } else {
                end.join(", ")
            }
        ));
        per.insert(t, v);
    }
    let mut body = Vec::new();
    let caps = state.capitals();
    for (t, v) in per {
        let f: Vec<&str> = flags(state, &caps, t)
            .into_iter()
            .filter(|x| *x != "CAP")
            .collect();
        let fl = if f.is_empty() {
            String::new()
        } else {
            format!(" — {}", f.join(", "))
        };
        body.push(format!("{} — {}{fl}", state.tname(t), owner_fr(state, t)));
        body.extend(v);
    }
    section(out, "ACTIVITÉ VISIBLE", body);
}

fn territories(out: &mut String, state: &State, vis: &BTreeSet<TerrId>, _sight: &Sight<'_>) {
    let nw = state
        .world
        .territories
        .values()
        .map(|t| t.name.chars().count())
        .max()
        .unwrap_or(3)
        .max(3)
        + 1;
    let iw = state
        .world
        .territories
        .keys()
        .map(|t| t.0.len())
        .max()
        .unwrap_or(2)
        .max(2)
        + 2;
    let ow = state
        .players
        .values()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(6)
        .max(9)
        + 2;
    let caps = state.capitals();
    // Flags before troops, so that one long list of stacks does not widen
    // every row; a row that would pass 100 columns continues on the next line.
    section_title(out, "TERRITOIRES");
    section_line(
        out,
        &format!(
            "{}{}{}{:>8}  {}{:>4}  {}{}",
            pad("Id", iw),
            pad("Nom", nw),
            pad("Terrain", 9),
            "km2",
            pad("Détenteur", ow),
            "Éco",
            pad("Drapeaux", 21),
            "Troupes"
        ),
    );
    // One walk of the map, its state and the vision set side by side; each
    // row is written into buffers reused from row to row and goes straight
    // to the report (the table has a row per territory in every report).
    let (mut head, mut troops, mut row, mut num) =
        (String::new(), String::new(), String::new(), String::new());
    for (t, terr, ts) in state.rows() {
        troops.clear();
        if !terr.terrain.passable() {
            troops.push('-');
        } else if vis.contains(t) {
            if ts.troops.is_empty() {
                troops.push('-');
            } else {
                for (i, (p, c)) in ts.troops.iter().enumerate() {
                    if i > 0 {
                        troops.push_str(", ");
                    }
                    let _ = write!(troops, "{} {c}", state.player_name_str(p));
                }
            }
        } else {
            troops.push('?');
        }
        let land = terr.is_land();
        let owner = ts
            .owner
            .as_ref()
            .map(|o| state.player_name_str(o))
            .unwrap_or("-");
        head.clear();
        pad_into(&mut head, t.as_str(), iw);
        pad_into(&mut head, &terr.name, nw);
        pad_into(&mut head, terr.terrain.french(), 9);
        num.clear();
        if land {
            let _ = write!(num, "{}", terr.area);
        } else {
            num.push('-');
        }
        rpad_into(&mut head, &num, 8);
        head.push_str("  ");
        pad_into(&mut head, owner, ow);
        num.clear();
        if land {
            let _ = write!(num, "{}%", ts.economy);
        } else {
            num.push('-');
        }
        rpad_into(&mut head, &num, 4);
        head.push_str("  ");
        pad_into(&mut head, &flags(state, &caps, t).join(" "), 21);
        let width = head.chars().count();
        if width + troops.chars().count() <= 100 {
            row.clear();
            row.push_str(&head);
            row.push_str(&troops);
            section_line(out, &row);
        } else {
            section_line(out, head.trim_end());
            let mut cont = String::from("      troupes :");
            for part in troops.split(", ") {
                if cont.chars().count() + part.chars().count() + 2 > 100 {
                    section_line(out, cont.trim_end_matches(','));
                    cont = String::from("               ");
                }
                cont.push(' ');
                cont.push_str(part);
                cont.push(',');
            }
            section_line(out, cont.trim_end_matches(','));
        }
    }
}

fn diplomacy(out: &mut String, state: &State, sight: &Sight<'_>) {
    let mut v = Vec::new();
    match sight {
        Sight::Spectator => return,
        Sight::Player(me) => {
            let w = state
                .players
                .values()
                .map(|p| p.name.chars().count())
                .max()
                .unwrap_or(6)
                .max(8)
                + 2;
            v.push(format!(
                "{}{}{}",
                pad("Joueur", w),
                pad("Vous le marquez", 18),
                "Il vous marque"
            ));
            for p in state.players.values().filter(|p| &p.id != *me) {
                v.push(format!(
                    "{}{}{}",
                    pad(&p.name, w),
                    pad(state.mark(me, &p.id).french(), 18),
                    state.mark(&p.id, me).french()
                ));
            }
        }
        Sight::Master => {
            for a in state.players.values() {
                let enemies: Vec<String> = state
                    .players
                    .values()
                    .filter(|b| {
                        b.id != a.id && state.mark(&a.id, &b.id) == crate::state::Mark::Enemy
                    })
                    .map(|b| b.name.clone())
                    .collect();
                let e = if enemies.is_empty() {
                    "aucun".into()
                } else {
                    enemies.join(", ")
                };
                v.push(format!("{} marque ENNEMI : {e}", a.name));
            }
        }
    }
    section(out, "DIPLOMATIE", v);
}

fn standings(out: &mut String, state: &State) {
    let w = state
        .players
        .values()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(6)
        .max(8)
        + 2;
    let mut v = vec![format!(
        "{}{}{:>6}{:>12}{:>10}{:>10}",
        pad("Joueur", w),
        pad("Statut", 14),
        "Terr.",
        "Superficie",
        "Départ",
        "Score"
    )];
    let held = state.holdings();
    for p in state.players.values() {
        let (count, area) = held.get(&p.id).copied().unwrap_or((0, 0));
        v.push(format!(
            "{}{}{:>6}{:>12}{:>10}{:>10}",
            pad(&p.name, w),
            pad(&status_fr(p.status), 14),
            count,
            area,
            state.world.area(&p.start_territory),
            score::score_with_area(state, &p.id, area)
        ));
    }
    section(out, "CLASSEMENT", v);
}

fn final_scores(out: &mut String, state: &State) {
    let mut v = Vec::new();
    for r in score::ranking(state) {
        v.push(format!(
            "{}. {} : {} km²",
            r.rank,
            state.player_name(&r.player),
            r.score
        ));
    }
    section(out, "SCORES FINAUX", v);
}
