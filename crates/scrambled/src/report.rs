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
use crate::public::Public;
use crate::state::{State, Status};
use crate::table::{table_head, TableRows, Widths};
use crate::view::{Flag, Index, Local, Presence, Seat, View};
use crate::world::{TerrId, Terrain};
use arbitre_core::{PlayerId, Report, Viewer};
use std::collections::BTreeSet;

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
pub(crate) fn pad(s: &str, w: usize) -> String {
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
pub(crate) fn pad_into(o: &mut String, s: &str, w: usize) {
    o.push_str(s);
    o.extend(std::iter::repeat_n(
        ' ',
        w.saturating_sub(s.chars().count()),
    ));
}

/// [`rpad`] written at the end of `o` (`{:>w}`).
pub(crate) fn rpad_into(o: &mut String, s: &str, w: usize) {
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
    render_all(state, std::slice::from_ref(viewer))
        .pop()
        .unwrap_or_default()
}

/// The reports of `viewers`, in their order (issue 22 item 5): what every
/// report shows alike ([`Public`]) is rendered once for all of them.
pub fn render_all(state: &State, viewers: &[Viewer]) -> Vec<Report> {
    let caps = state.capitals();
    let players = crate::view::player_rows(state);
    let presence = Presence::new(state);
    let mut public: Option<Option<Public>> = None;
    viewers
        .iter()
        .map(|viewer| {
            let (view, vis) =
                crate::view::build_parts_with(state, viewer, players.clone(), &presence);
            let public = public.get_or_insert_with(|| Public::new(state, &caps, &view));
            match public {
                Some(public) => render_parts(state, &caps, view, &vis, public, &presence),
                // A map row that does not serialise: the whole view, which
                // then goes without its JSON as before.
                None => render_whole(state, viewer),
            }
        })
        .collect()
}

/// One report from a view without its map and the turn's shared part.
fn render_parts(
    state: &State,
    caps: &BTreeSet<TerrId>,
    view: View,
    vis: &BTreeSet<TerrId>,
    public: &Public,
    presence: &Presence<'_>,
) -> Report {
    let seen = crate::view::seen_rows(state, caps, vis);
    let ix = public.index(&view);
    let table = public.table(&ix, &seen);
    let out = write_text(
        &ix,
        table.len(),
        |out| table.write(out),
        public.standings(&view),
    );
    let rep = attach(state, &view, vis, out, caps, presence);
    match public.view_json(view, &seen) {
        Some(j) => rep.with_view_json(j),
        None => rep,
    }
}

/// One report from the whole view: what every report was before the
/// shared part (kept for a view whose map does not serialise).
fn render_whole(state: &State, viewer: &Viewer) -> Report {
    let view = crate::view::build(state, viewer);
    let vis = crate::view::sight(state, &view.viewer);
    let out = text(&view);
    attach(
        state,
        &view,
        &vis,
        out,
        &state.capitals(),
        &Presence::new(state),
    )
    .with_view(&view)
}

/// The report around its text: subject, map, order template.
fn attach(
    state: &State,
    view: &View,
    vis: &BTreeSet<TerrId>,
    out: String,
    caps: &BTreeSet<TerrId>,
    presence: &Presence<'_>,
) -> Report {
    let who = match &view.viewer {
        Seat::Player { id } => state.player_name(id),
        Seat::Spectator => "spectateurs".to_string(),
        Seat::GameMaster => "meneur de jeu".to_string(),
    };
    let subject = format!("Tour {} — rapport pour {who}", state.turn);
    let mut rep = Report::text(subject, out);
    let map_vis = match &view.viewer {
        Seat::Spectator => None,
        _ => Some(vis),
    };
    let me = view.me();
    let svg = crate::svg::render_with(state, map_vis, me, caps, presence);
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
                order_template_with(state, p, presence).into_bytes(),
            );
        }
    }
    rep
}

/// The text report, rendered from the view only (issue 20 item 2: the text
/// and the JSON cannot disagree).
pub fn text(view: &View) -> String {
    let ix = Index::new(view);
    let mut table = String::new();
    territories(&mut table, &ix);
    write_text(&ix, table.len(), |out| out.push_str(&table), None)
}

/// The sections in order; `table` writes TERRITOIRES, `table_len` bytes
/// (from the view's own rows, or from the turn's shared ones); `ranking`:
/// CLASSEMENT already written (it is the same in every report of a state).
///
/// A turn's reports are all held until mailed, and TERRITOIRES is most of
/// each (400 KB at 5,000 territories): the text is written once into a
/// string of its exact size, neither grown nor shrunk by copying.
fn write_text(
    ix: &Index<'_>,
    table_len: usize,
    table: impl FnOnce(&mut String),
    ranking: Option<&str>,
) -> String {
    let mut pre = String::new();
    header(&mut pre, ix);
    messages(&mut pre, ix);
    order_results(&mut pre, ix);
    economy(&mut pre, ix);
    your_troops(&mut pre, ix);
    standing_orders(&mut pre, ix);
    activity(&mut pre, ix);
    let mut post = String::new();
    diplomacy(&mut post, ix);
    match ranking {
        Some(r) => post.push_str(r),
        None => standings(&mut post, ix),
    }
    final_scores(&mut post, ix);
    let mut out = String::with_capacity(pre.len() + table_len + post.len());
    out.push_str(&pre);
    table(&mut out);
    out.push_str(&post);
    out.shrink_to_fit();
    out
}

/// A ready-to-fill order mail: the envelope, then one commented line per stack
/// with its neighbours, so a player can uncomment and edit. `READY` is
/// commented out too (issue 17 item 8): a template sent back unchanged
/// must not declare the player ready and resolve the turn early.
pub fn order_template(state: &State, p: &PlayerId) -> String {
    order_template_with(state, p, &Presence::new(state))
}

/// [`order_template`] with the players' territories gathered.
fn order_template_with(state: &State, p: &PlayerId, presence: &Presence<'_>) -> String {
    let mut t = format!(
        "PARTIE {} JOUEUR {} MOT-DE-PASSE <mot-de-passe>\nTOUR {}\n",
        state.game_id,
        p,
        state.turn + 1
    );
    for &(id, ts) in presence.of(p) {
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

fn header(out: &mut String, ix: &Index<'_>) {
    let view = ix.view;
    let who = match &view.viewer {
        Seat::Player { id } => format!("rapport pour {}", ix.player(id)),
        Seat::Spectator => "rapport public".to_string(),
        Seat::GameMaster => "rapport du meneur de jeu".to_string(),
    };
    line(
        out,
        &format!("SCRAMBLED NATIONS — partie {} — {who}", view.game),
    );
    let status = match view.orders_for_turn {
        Some(t) => format!("ordres attendus pour le tour {t}"),
        None => "partie terminée".to_string(),
    };
    line(
        out,
        &format!(
            "Tour {} sur {} résolu — {status}",
            view.turn, view.rules.turn_limit
        ),
    );
    if view.me().is_some() {
        let cap = view
            .capital
            .as_ref()
            .map(|c| ix.tname(c))
            .unwrap_or_else(|| "aucune".into());
        let pend = match &view.capital_move {
            Some(m) => format!(
                "{} à la résolution du tour {}",
                ix.tname(&m.territory),
                m.due
            ),
            None => "aucun".into(),
        };
        line(
            out,
            &format!(
                "Capitale : {cap}   Déménagement : {pend}   Quote-part : {} territoires",
                view.quota
            ),
        );
    } else {
        line(
            out,
            &format!(
                "Monde : {}   Quote-part : {} territoires",
                view.world, view.quota
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

pub(crate) fn section_title(out: &mut String, title: &str) {
    out.push('\n');
    line(out, &format!("== {title} =="));
}

/// One line of a section's body, wrapped as its kind requires.
pub(crate) fn section_line(out: &mut String, l: &str) {
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

/// The events the view tells of; which ones a viewer gets is decided by
/// the view (`view::build`), only the wording depends on the viewer here.
fn messages(out: &mut String, ix: &Index<'_>) {
    let mut v: Vec<String> = Vec::new();
    let me = ix.view.me();
    let n = |p: &PlayerId| ix.player(p).to_string();
    let is_me = |p: &PlayerId| me == Some(p);
    let master = ix.view.master();
    for e in &ix.view.messages {
        match e {
            Event::Surprise {
                victim,
                attacker,
                terr,
            } => {
                let whose = if master {
                    format!("celles {}", de(&n(victim)))
                } else {
                    "les vôtres".into()
                };
                v.push(format!(
                    "* ATTAQUE SURPRISE : les troupes {} ont attaqué {whose} par surprise en {} !",
                    de(&n(attacker)),
                    ix.tname(terr)
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
            } => {
                v.push(format!(
                    "* {} a donné {count} troupes à {} en {}.",
                    n(from),
                    n(to),
                    ix.tname(terr)
                ));
            }
            Event::TerritoryGiven { terr, from, to } => {
                v.push(format!(
                    "* {} a donné le territoire {} à {}.",
                    n(from),
                    ix.tname(terr),
                    n(to)
                ));
            }
            Event::Abandoned { terr, player } => {
                v.push(format!(
                    "* {} a rendu {} indépendant.",
                    n(player),
                    ix.tname(terr)
                ));
            }
            Event::Captured {
                terr,
                from: _,
                to,
                after_desertion,
            } => {
                let how = if *after_desertion {
                    " après des désertions"
                } else {
                    ""
                };
                v.push(format!(
                    "* {} passe sous le contrôle {}{how}.",
                    ix.tname(terr),
                    de(&n(to))
                ));
            }
            Event::CapitalLost { player, terr } => {
                v.push(format!(
                    "* {} n'a plus de capitale ({} perdue) : pas de recrutement.",
                    n(player),
                    ix.tname(terr)
                ));
            }
            Event::CapitalPending { player, terr, due } => {
                v.push(format!(
                    "* Déménagement de la capitale {} vers {} prévu à la résolution du tour {due}.",
                    de(&n(player)),
                    ix.tname(terr)
                ));
            }
            Event::CapitalMoved { player, terr } => {
                v.push(format!(
                    "* La capitale {} est désormais {}.",
                    de(&n(player)),
                    ix.tname(terr)
                ));
            }
            Event::CapitalMoveCancelled { player, terr } => {
                v.push(format!("* Déménagement de la capitale {} vers {} annulé : le territoire ne lui appartient plus.", de(&n(player)), ix.tname(terr)));
            }
            Event::ChainCancelled {
                player,
                chain,
                from_step,
                why,
            } => {
                v.push(format!("* Chemin P{chain} {} : étapes à partir de P{chain}.{from_step} annulées ({why}).", de(&n(player))));
            }
            Event::WipedOut { player, terr } => {
                v.push(format!(
                    "* Les troupes {} en {} ont été anéanties.",
                    de(&n(player)),
                    ix.tname(terr)
                ));
            }
            Event::NoCapital { player } => {
                v.push(format!(
                    "* {} n'a pas de capitale : recrutement annulé.",
                    n(player)
                ));
            }
            Event::Economy { player, budget } => {
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

fn order_results(out: &mut String, ix: &Index<'_>) {
    let Some(orders) = &ix.view.orders else {
        return;
    };
    let master = ix.view.master();
    let mut v = Vec::new();
    for o in orders {
        let tag = match o.status {
            OrderStatus::Ok => "[ok]",
            OrderStatus::Fixed => "[corrigé]",
            OrderStatus::Failed => "[échec]",
        };
        let who = if master {
            format!("{}: ", ix.player(&o.player))
        } else {
            String::new()
        };
        v.push(format!("{} {}{} — {}", pad(tag, 9), who, o.order, o.detail));
    }
    section(out, "RÉSULTATS DES ORDRES", v);
}

fn kv(label: &str, value: String) -> String {
    format!("{}{}", pad(label, 58), rpad(&value, 10))
}

fn economy(out: &mut String, ix: &Index<'_>) {
    let Some(budgets) = &ix.view.economy else {
        return;
    };
    let mut v = Vec::new();
    if ix.view.master() {
        for pb in budgets {
            let b = &pb.budget;
            v.push(format!(
                "{} : brut {}, net {} ({}), disponible {}, entretien {}, budget {}, recrues {}, déserteurs {}",
                ix.player(&pb.player), b.gross, b.net, bp_fr(b.bp), b.available, b.upkeep, b.budget, b.recruits, b.deserted
            ));
        }
    } else if let Some(pb) = budgets.first() {
        budget_lines(&mut v, ix, &pb.budget);
    }
    section(out, "ÉCONOMIE", v);
}

/// The income breakdown; every figure adds up to the budget (SCN-61).
fn budget_lines(v: &mut Vec<String>, ix: &Index<'_>, b: &Budget) {
    let rules = &ix.view.rules;
    let w = ix.name_width() + 6;
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
            ix.name(&l.terr),
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
            ix.view.quota,
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
            b.home, rules.troops_home_upkeep, b.away, rules.troops_away_upkeep
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
            ix.name(c),
            rules.troops_recruit_cost,
            b.lost
        ));
    } else {
        v.push(format!(
            "Pas de capitale : aucun recrutement ; {} perdus",
            b.lost
        ));
    }
}

fn your_troops(out: &mut String, ix: &Index<'_>) {
    let Some(rows) = &ix.view.troops else {
        return;
    };
    let w = ix.name_width() + 8;
    let mut v = Vec::new();
    if !rows.is_empty() {
        v.push(format!(
            "{}{:>8}  {}  {}",
            pad("Territoire", w),
            "Troupes",
            pad("Entretien", 11),
            "Suprématie"
        ));
    }
    for r in rows {
        let home = if r.home { "chez soi" } else { "étranger" };
        let sup = if r.supremacy { "oui" } else { "non" };
        v.push(format!(
            "{}{:>8}  {}  {}",
            pad(&ix.tname(&r.territory), w),
            r.count,
            pad(home, 11),
            sup
        ));
    }
    section(out, "VOS TROUPES", v);
}

fn standing_orders(out: &mut String, ix: &Index<'_>) {
    let Some(paths) = &ix.view.standing_paths else {
        return;
    };
    let me = ix.view.me();
    let mut v = Vec::new();
    for c in paths {
        let mine = me == Some(&c.player);
        let ids: Vec<&str> = c.route.iter().map(|t| t.as_str()).collect();
        let qty = c
            .planned
            .map(|n| n.to_string())
            .unwrap_or_else(|| "toutes les".into());
        let who = if mine {
            String::new()
        } else {
            format!("{} ", ix.player(&c.player))
        };
        let step = |i: usize| c.route.get(i).map(|t| t.as_str()).unwrap_or("?");
        v.push(format!(
            "{who}P{} : {} ; prochaine étape P{}.{} {} -> {} avec {qty} troupes",
            c.number,
            ids.join(" > "),
            c.number,
            c.next_step,
            step(c.next_step.saturating_sub(1)),
            step(c.next_step)
        ));
    }
    section(out, "ORDRES PERMANENTS", v);
}

fn owner_fr(ix: &Index<'_>, t: &TerrId) -> String {
    let row = ix.terr(t);
    match row.map(|x| x.terrain) {
        Some(Terrain::Sea) => "mer".into(),
        Some(Terrain::Mountain) => "montagne".into(),
        _ => match row.and_then(|r| r.owner.as_ref()) {
            Some(o) => format!("propriétaire {}", ix.player(o)),
            None => "neutre".into(),
        },
    }
}

fn activity(out: &mut String, ix: &Index<'_>) {
    let Some(rows) = &ix.view.activity else {
        return;
    };
    let n = |p: &PlayerId| ix.player(p).to_string();
    let lbl = |s: &str| pad(&format!("  {s} :"), 15);
    let mut body = Vec::new();
    for a in rows {
        let t = &a.territory;
        let f: Vec<&str> = ix
            .terr(t)
            .map(|r| r.flags.as_slice())
            .unwrap_or(&[])
            .iter()
            .filter(|x| **x != Flag::Capital)
            .map(|x| x.word())
            .collect();
        let fl = if f.is_empty() {
            String::new()
        } else {
            format!(" — {}", f.join(", "))
        };
        body.push(format!("{} — {}{fl}", ix.tname(t), owner_fr(ix, t)));
        if !a.moves_in.is_empty() {
            let l: Vec<String> = a
                .moves_in
                .iter()
                .map(|m| format!("{} {} depuis {}", n(&m.player), m.count, m.from))
                .collect();
            body.push(format!("{}{}", lbl("Entrées"), l.join(" ; ")));
        }
        if !a.moves_out.is_empty() {
            let l: Vec<String> = a
                .moves_out
                .iter()
                .map(|m| format!("{} {} vers {}", n(&m.player), m.count, m.to))
                .collect();
            body.push(format!("{}{}", lbl("Sorties"), l.join(" ; ")));
        }
        for e in &a.events {
            match e {
                Local::Gift { from, to, count } => {
                    body.push(format!(
                        "{}{} donne {count} à {}",
                        lbl("Don"),
                        n(from),
                        n(to)
                    ));
                }
                Local::Battle {
                    before,
                    hits,
                    after,
                } => {
                    let b: Vec<String> = before
                        .iter()
                        .map(|s| format!("{} {}", n(&s.player), s.count))
                        .collect();
                    body.push(format!("{}avant {}", lbl("Bataille"), b.join(", ")));
                    for h in hits {
                        let s = if h.surprise { " (SURPRISE x2)" } else { "" };
                        body.push(format!(
                            "{}{} -> {} {}{s}",
                            pad("", 15),
                            n(&h.attacker),
                            n(&h.target),
                            h.hits
                        ));
                    }
                    let a: Vec<String> = after
                        .iter()
                        .map(|s| format!("{} {} (-{})", n(&s.player), s.count, s.lost))
                        .collect();
                    body.push(format!("{}après {}", pad("", 15), a.join(", ")));
                }
                Local::Capture {
                    from,
                    to,
                    after_desertion,
                } => {
                    let old = from.as_ref().map(n).unwrap_or_else(|| "neutre".into());
                    let how = if *after_desertion {
                        " après désertions"
                    } else {
                        ""
                    };
                    body.push(format!("{}{}{how} (avant : {old})", lbl("Prise"), n(to)));
                }
                Local::Recruited { player, count } => {
                    body.push(format!("{}{} +{count}", lbl("Recrues"), n(player)));
                }
                Local::Deserted { player, count } => {
                    body.push(format!("{}{} -{count}", lbl("Désertion"), n(player)));
                }
            }
        }
        let end: Vec<String> = a
            .end
            .iter()
            .map(|s| {
                let sup = if s.supremacy { "oui" } else { "non" };
                format!("{} {} (suprématie {sup})", n(&s.player), s.count)
            })
            .collect();
        body.push(format!(
            "{}{}",
            lbl("Fin"),
            if end.is_empty() {
                "(aucune troupe)".into()
            } else {
                end.join(", ")
            }
        ));
    }
    section(out, "ACTIVITÉ VISIBLE", body);
}

fn territories(out: &mut String, ix: &Index<'_>) {
    let view = ix.view;
    let w = Widths::new(&view.territories, &view.players);
    table_head(out, w);
    let mut rows = TableRows::default();
    for r in &view.territories {
        rows.write(out, ix, r, w);
    }
}

fn diplomacy(out: &mut String, ix: &Index<'_>) {
    let view = ix.view;
    let mut v = Vec::new();
    if let Some(marks) = &view.marks {
        let w = view
            .players
            .iter()
            .map(|p| p.name.chars().count())
            .max()
            .unwrap_or(6)
            .max(8)
            + 2;
        // One line per player of the game (200 in each of 200 reports):
        // written through one buffer, names found by walking the
        // standings alongside (both are in id order), not searched.
        section_title(out, "DIPLOMATIE");
        let mut l = String::new();
        pad_into(&mut l, "Joueur", w);
        pad_into(&mut l, "Vous le marquez", 18);
        l.push_str("Il vous marque");
        section_line(out, &l);
        let mut rows = view.players.iter();
        for m in marks {
            let name = rows
                .by_ref()
                .find(|p| p.id == m.player)
                .map(|p| p.name.as_str())
                .unwrap_or_else(|| ix.player(&m.player));
            l.clear();
            pad_into(&mut l, name, w);
            pad_into(&mut l, m.you_mark.french(), 18);
            l.push_str(m.marks_you.french());
            section_line(out, &l);
        }
        return;
    } else if let Some(rows) = &view.enemies {
        for r in rows {
            let e = if r.enemies.is_empty() {
                "aucun".into()
            } else {
                r.enemies
                    .iter()
                    .map(|p| ix.player(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            v.push(format!("{} marque ENNEMI : {e}", ix.player(&r.player)));
        }
    } else {
        return;
    }
    section(out, "DIPLOMATIE", v);
}

pub(crate) fn standings(out: &mut String, ix: &Index<'_>) {
    let view = ix.view;
    let w = view
        .players
        .iter()
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
    for p in &view.players {
        v.push(format!(
            "{}{}{:>6}{:>12}{:>10}{:>10}",
            pad(&p.name, w),
            pad(&status_fr(p.status), 14),
            p.territories,
            p.area,
            p.start_area,
            p.score
        ));
    }
    section(out, "CLASSEMENT", v);
}

fn final_scores(out: &mut String, ix: &Index<'_>) {
    let Some(scores) = &ix.view.final_scores else {
        return;
    };
    let mut v = Vec::new();
    for r in scores {
        v.push(format!(
            "{}. {} : {} km²",
            r.rank,
            ix.player(&r.player),
            r.score
        ));
    }
    section(out, "SCORES FINAUX", v);
}
