//! Issue 18, "done when": a WWK player who reads only the mails received
//! plays a turn. The game is created and served through the real command
//! line (file outbox, Maildir inbox); the player parses the report mail's
//! MIME (mail-parser), takes its own units and the zone table out of the
//! text and the order template out of the attachments — never the state —
//! sends one MOVE per stack to a listed neighbour, and every line is
//! accepted in the confirmation and carried out in the next report.
//!
//! Also issue 18 item 3 at the command line: a game whose seats cannot all
//! be matched to a nation is refused by `game create` with the reason.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use common::cli::{install, run_cli as arbitre};
use common::mail_loop::inbox_of;
use common::*;
use std::collections::BTreeMap;

/// A WWK game on the trio scenario; `seats` are (id, name, `nation` line).
fn wwk_toml(id: &str, seats: &[(&str, &str, Option<&str>)]) -> String {
    let mut t = format!(
        "id = \"{id}\"\nruleset = \"wwk\"\nseed = 11\ngm_email = \"gm@arbitre.test\"\n[schedule]\ninterval = \"7d\"\n[rules]\nscenario = \"trio\"\n"
    );
    for (p, name, nation) in seats {
        t.push_str(&format!(
            "[[players]]\nid = \"{p}\"\nname = \"{name}\"\nemail = \"{p}@example.org\"\npassword = \"pw-{p}\"\n"
        ));
        if let Some(n) = nation {
            t.push_str(&format!("[players.rules]\nnation = \"{n}\"\n"));
        }
    }
    t
}

/// Lines of a report section, from `== TITLE ==` to the next `==` line.
fn section<'a>(body: &'a str, title: &str) -> Vec<&'a str> {
    body.lines()
        .skip_while(|l| l.trim_end() != format!("== {title} =="))
        .skip(1)
        .take_while(|l| !l.starts_with("=="))
        .collect()
}

/// Zone code of a `[XXX] ...` line.
fn code(line: &str) -> Option<&str> {
    line.strip_prefix('[')?.split(']').next()
}

/// The zone table: code → every neighbour it lists (by land and by sea).
fn zone_table(body: &str) -> BTreeMap<String, Vec<String>> {
    section(body, "TABLE DES ZONES")
        .into_iter()
        .filter_map(|l| {
            let c = code(l)?;
            let mut parts = l.split(" | ");
            parts.next()?;
            let land = parts.next()?.strip_prefix("terre : ")?;
            let sea = parts.next()?.strip_prefix("mer : ")?;
            let all = land
                .split_whitespace()
                .chain(sea.split_whitespace())
                .filter(|w| *w != "-")
                .map(String::from)
                .collect();
            Some((c.to_string(), all))
        })
        .collect()
}

/// The player's own stacks from the ZONES section: (zone, count, unit).
fn own_units(body: &str) -> Vec<(String, u32, String)> {
    let mut zone = String::new();
    let mut out = Vec::new();
    for l in section(body, "ZONES") {
        if let Some(z) = code(l) {
            zone = z.to_string();
        } else if let Some(list) = l.trim_start().strip_prefix("Unités ") {
            for stack in list.split(", ") {
                let (k, unit) = stack.trim().split_once(' ').unwrap();
                out.push((zone.clone(), k.parse().unwrap(), unit.to_string()));
            }
        }
    }
    out
}

/// The template's reachable zones per (zone, unit) and its local-order budget.
fn template(tpl: &str) -> (BTreeMap<(String, String), Vec<String>>, usize) {
    let budget = tpl
        .lines()
        .find_map(|l| l.strip_prefix("# Budget : "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|k| k.parse().ok())
        .unwrap();
    let mut zone = String::new();
    let mut reach = BTreeMap::new();
    for l in tpl.lines() {
        if let Some(z) = l.strip_prefix("# [").and_then(|s| s.split(']').next()) {
            zone = z.to_string();
        } else if let Some(rest) = l.strip_prefix("#   ") {
            let (stack, to) = rest.split_once(" -> ").unwrap();
            let unit = stack.split_whitespace().nth(1).unwrap().to_string();
            let to = to.split_whitespace().map(String::from).collect();
            reach.insert((zone.clone(), unit), to);
        }
    }
    (reach, budget)
}

#[test]
fn wwk_player_plays_from_the_mails_only() {
    // The daemon with its file outbox and Maildir inbox, on a fixed clock so
    // that the deadline can be passed.
    let mut env = Env::with_game(&wwk_toml(
        "med",
        &[
            ("ali", "Ali", Some("TUR")),
            ("bea", "Béa", Some("Égypte")),
            ("cyr", "Cyr", Some("gre")),
        ],
    ));
    env.daemon.cycle().unwrap();
    let outbox = env.outbox_dir();

    // The turn-0 report, as Ali's mail client shows it.
    let mails = inbox_of(&outbox, "ali@example.org");
    assert_eq!(mails.len(), 1, "one report for turn 0");
    let report = &mails[0];
    assert!(report.subject.contains("med"), "{}", report.subject);
    let header = report.text.lines().next().unwrap();
    assert!(header.ends_with("nation=TUR (Turquie)"), "{header}");
    let table = zone_table(&report.text);
    assert!(table.len() >= 10, "the zone table lists the map: {table:?}");
    let units = own_units(&report.text);
    assert!(units.len() >= 5, "own units listed: {}", report.text);
    let (tpl_name, tpl) = report
        .attachments
        .iter()
        .find(|(n, _)| n.starts_with("ordres-"))
        .expect("the order template is attached");
    assert!(tpl_name.ends_with(".txt"), "{tpl_name}");
    assert!(
        report.attachments.keys().any(|n| n.ends_with(".svg"))
            && report.attachments.keys().any(|n| n.ends_with(".png")),
        "the map is attached: {:?}",
        report.attachments.keys()
    );
    let (reach, budget) = template(&String::from_utf8(tpl.clone()).unwrap());

    // One MOVE per stack to a neighbour the table lists and the template
    // says the unit reaches; bases and stacks beyond the budget stay home.
    let mut lines = Vec::new();
    let mut per_zone: BTreeMap<String, usize> = BTreeMap::new();
    for (zone, k, unit) in &units {
        let Some(to) = reach.get(&(zone.clone(), unit.clone())) else {
            continue;
        };
        let used = per_zone.entry(zone.clone()).or_default();
        if *used == budget {
            continue;
        }
        let Some(dest) = to.iter().find(|z| table[zone].contains(z)) else {
            continue;
        };
        *used += 1;
        lines.push(format!("{zone} {k} {unit} MOVE {dest}"));
    }
    assert!(lines.len() >= 4, "{lines:?}");
    let inbox = arbitre_mail::Maildir::open(env.dir.path().join("inbox")).unwrap();
    inbox
        .deliver(&mail(
            "Ali <ali@example.org>",
            "ordres",
            &orders("med", "ali", "pw-ali", &lines.join("\n")),
        ))
        .unwrap();
    env.daemon.cycle().unwrap();

    // The confirmation accepts every line.
    let mails = inbox_of(&outbox, "ali@example.org");
    let confirm = mails
        .iter()
        .find(|m| m.text.starts_with("Ordres reçus"))
        .expect("a confirmation");
    for l in &lines {
        assert!(
            confirm
                .text
                .lines()
                .any(|c| c.contains(" OK ") && c.trim_end().ends_with(l.as_str())),
            "{l} not accepted:\n{}",
            confirm.text
        );
    }
    assert!(
        confirm
            .text
            .contains(&format!("{} ordre(s) accepté(s), 0 erreur(s)", lines.len())),
        "{}",
        confirm.text
    );

    // Past the deadline the turn resolves: the turn-1 report carries every
    // move out ("... OK").
    env.clock
        .set(t0() + chrono::Duration::days(7) + chrono::Duration::minutes(1));
    env.daemon.cycle().unwrap();
    let mails = inbox_of(&outbox, "ali@example.org");
    let turn1 = mails
        .iter()
        .rfind(|m| m.text.starts_with("WWK RAPPORT DE TOUR") && m.text.contains("tour=1"))
        .expect("the turn-1 report");
    let results = section(&turn1.text, "ORDRES");
    for l in &lines {
        let bracketed: String = l
            .split_whitespace()
            .map(|w| format!("[{w}]"))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            results
                .iter()
                .any(|r| r.starts_with(&bracketed) && r.contains("... OK")),
            "{l} not carried out:\n{}",
            turn1.text
        );
    }
}

#[test]
fn issue18_game_create_refuses_unmatched_seats_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = install(dir.path());
    let game = dir.path().join("game.toml");
    for (seats, reason) in [
        (
            vec![("ali", "Ali", Some("GER")), ("bea", "Béa", Some("EGY"))],
            "player ali: nation \"GER\" is not in the scenario",
        ),
        (
            vec![("ali", "Ali", Some("TUR")), ("bea", "Béa", Some("Turquie"))],
            "nation TUR is named by two players, ali and bea",
        ),
        (
            vec![("ali", "Ali", Some("TUR")), ("bea", "Béa", None)],
            "player bea names no nation",
        ),
    ] {
        std::fs::write(&game, wwk_toml("med", &seats)).unwrap();
        let e = arbitre(&cfg, &["game", "create", game.to_str().unwrap()])
            .expect_err("refused at creation");
        assert!(e.contains(reason), "{e}");
        assert!(
            e.contains("TUR (Turquie), EGY (Égypte), GRE (Grèce)"),
            "the reason lists the scenario's nations: {e}"
        );
    }
    // Nothing was created.
    let e = arbitre(&cfg, &["status"]).unwrap_or_else(|e| e);
    assert!(!e.contains("med"), "{e}");
}

/// docs/wwk.md, "La ligne NATION de l'en-tête des ordres": in a multi-line
/// header `NATION` gives the player's id (like `JOUEUR`), so it is the
/// nation's code when the seat is named after its nation; a `NATION` line
/// among the orders is a check that must name the nation played.
#[test]
fn wwk_nation_line_means_what_the_docs_say() {
    let mut env = Env::with_game(&wwk_toml(
        "med",
        &[
            ("tur", "Ali", None),
            ("bea", "Béa", Some("EGY")),
            ("gre", "Cyr", None),
        ],
    ));
    env.daemon.cycle().unwrap();
    // The one new mail the player gets in answer.
    let confirm = |env: &mut Env, from: &str, body: &str| -> String {
        let seen: Vec<String> = inbox_of(&env.outbox_dir(), from)
            .into_iter()
            .map(|m| m.text)
            .collect();
        env.drop_mail(&mail(from, "ordres", body));
        env.daemon.cycle().unwrap();
        let new: Vec<String> = inbox_of(&env.outbox_dir(), from)
            .into_iter()
            .map(|m| m.text)
            .filter(|t| !seen.contains(t))
            .collect();
        assert_eq!(new.len(), 1, "{new:?}");
        new[0].clone()
    };
    // The spec's header (§3.1) on a seat named after its nation.
    let ok = confirm(
        &mut env,
        "tur@example.org",
        "WWK ORDERS\nGAME med\nTURN 1\nNATION TUR\nKEY pw-tur\nIST 2 INF MOVE ANK\nEND\n",
    );
    assert!(ok.contains("1 ordre(s) accepté(s), 0 erreur(s)"), "{ok}");
    // A NATION check line after a one-line header: the nation played...
    let ok = confirm(
        &mut env,
        "bea@example.org",
        &orders("med", "bea", "pw-bea", "NATION EGY\nCAI 2 INF MOVE SIN"),
    );
    assert!(ok.contains("1 ordre(s) accepté(s), 0 erreur(s)"), "{ok}");
    // ...or the whole message is refused.
    let refused = confirm(
        &mut env,
        "bea@example.org",
        &orders("med", "bea", "pw-bea", "NATION TUR\nCAI 2 INF MOVE SIN"),
    );
    assert!(
        refused.contains("nation EGY attendue, reçu TUR : message entier refusé"),
        "{refused}"
    );
}
