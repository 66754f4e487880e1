//! Issue 17, the ruleset side, through the real mail loop (a fixed clock,
//! the Maildir inbox and the outbox of the daemon):
//!
//! - item 7, one policy for a sheet of the wrong turn: in each of the four
//!   rulesets a player sends valid orders, then a block whose turn, month
//!   or nation line does not match the open turn; that block is answered
//!   as refused whole, naming the open turn, it is not stored, and the
//!   turn resolves with the valid orders;
//! - item 8, confirmations that tell the truth: refused lines are never
//!   counted as accepted, every entry of an EDS line is echoed with its
//!   Befehlsblatt section, and a Scrambled Nations template sent back
//!   unchanged does not declare the player ready.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use crate::common;

use arbitre_store::{games, orders as stored};
use chrono::Duration;
use common::*;

fn game_toml(id: &str, ruleset: &str, rules: &str, seats: &[(&str, &str)]) -> String {
    let mut s = format!(
        "id = \"{id}\"\nruleset = \"{ruleset}\"\nseed = 7\ngm_email = \"gm@arbitre.test\"\n[schedule]\ninterval = \"7d\"\n[rules]\n{rules}\n"
    );
    for (p, extra) in seats {
        s.push_str(&format!(
            "[[players]]\nid = \"{p}\"\nname = \"{p}\"\nemail = \"{p}@example.org\"\npassword = \"pw-{p}\"\n{extra}"
        ));
    }
    s
}

fn turn_of(env: &Env, id: &str) -> u32 {
    games::require_game(env.daemon.store.conn(), id)
        .unwrap()
        .turn
}

/// Sends `lines` as `p`'s order block and returns the one answer.
fn send(env: &mut Env, game: &str, p: &str, lines: &str) -> (String, String) {
    let before = env.outbox().len();
    env.drop_mail(&mail(
        &format!("{p}@example.org"),
        "ordres",
        &orders(game, p, &format!("pw-{p}"), lines),
    ));
    env.daemon.cycle().unwrap();
    let new: Vec<_> = env
        .outbox()
        .into_iter()
        .skip(before)
        .filter(|r| r.mail.recipient == format!("{p}@example.org"))
        .collect();
    assert_eq!(new.len(), 1, "one answer: {new:?}");
    (new[0].mail.subject.clone(), new[0].mail.body.clone())
}

/// The text of the orders in force for `p` and the open turn.
fn in_force(env: &Env, game: &str, p: &str) -> String {
    let latest = stored::latest(env.daemon.store.conn(), game, turn_of(env, game) + 1).unwrap();
    latest[p].text.clone()
}

/// Item 7 for one ruleset: valid orders, then the wrong-turn block (which
/// must be answered as refused, naming the open turn, and never stored),
/// then the deadline; returns every mail body of the resolution.
fn wrong_turn_keeps_the_valid_orders(
    toml: &str,
    game: &str,
    p: &str,
    valid: &str,
    wrong: &str,
    wrong_reason: &str,
) -> Vec<String> {
    let mut env = Env::with_game(toml);
    let (_, ok) = send(&mut env, game, p, valid);
    assert!(!ok.contains("ERREUR") && !ok.contains("FEHLER"), "{ok}");
    let kept = in_force(&env, game, p);
    let (subject, refused) = send(&mut env, game, p, wrong);
    assert!(
        subject.contains('1') && (subject.contains("refus") || subject.contains("verworfen")),
        "the subject names the refusal and the open turn: {subject}"
    );
    assert!(refused.contains(wrong_reason), "{refused}");
    assert!(
        refused.contains("tour ouvert, le tour 1") || refused.contains("offenen Zug 1"),
        "the answer names the open turn: {refused}"
    );
    assert!(
        refused.contains("0 ordre(s) accepté(s)") || refused.contains("0 Befehl(e) angenommen"),
        "{refused}"
    );
    assert_eq!(
        in_force(&env, game, p),
        kept,
        "the refused block never replaces the orders in force"
    );
    let before = env.outbox().len();
    env.clock
        .set(t0() + Duration::days(7) + Duration::minutes(1));
    env.daemon.cycle().unwrap();
    assert_eq!(turn_of(&env, game), 1);
    env.outbox()
        .into_iter()
        .skip(before)
        .map(|r| r.mail.body)
        .collect()
}

#[test]
fn item7_nebulight_wrong_turn_sheet_never_replaces_stored_orders() {
    let toml = game_toml(
        "neb-w",
        "nebulight",
        "map = \"duel\"",
        &[("maxtor", ""), ("miria", "")],
    );
    let mails = wrong_turn_keeps_the_valid_orders(
        &toml,
        "neb-w",
        "maxtor",
        "TOUR 1\n# nothing yet",
        "TOUR 4\nM_1 C 1 VI",
        "ordres pour le tour 4, mais le tour ouvert est le 1 : bloc entier refusé",
    );
    assert!(!mails.is_empty());
}

#[test]
fn item7_nebulight_the_stored_orders_are_the_ones_resolved() {
    // The valid set holds a refused line, which the turn's report lists
    // (Order::Rejected): it is there only if the valid set was resolved.
    let toml = game_toml(
        "neb-r",
        "nebulight",
        "map = \"duel\"",
        &[("maxtor", ""), ("miria", "")],
    );
    let mut env = Env::with_game(&toml);
    let (_, first) = send(&mut env, "neb-r", "maxtor", "TOUR 1\nBONJOURUN");
    assert!(
        first.contains("0 ordre(s) accepté(s), 1 erreur(s)"),
        "{first}"
    );
    let (_, refused) = send(&mut env, "neb-r", "maxtor", "TOUR 2\nBONJOURDEUX");
    assert!(refused.contains("bloc entier refusé"), "{refused}");
    env.clock
        .set(t0() + Duration::days(7) + Duration::minutes(1));
    env.daemon.cycle().unwrap();
    let report = env.last_to("maxtor@example.org", "report").unwrap();
    assert!(
        report.mail.body.contains("BONJOURUN"),
        "{}",
        report.mail.body
    );
    assert!(
        !report.mail.body.contains("BONJOURDEUX"),
        "{}",
        report.mail.body
    );
}

#[test]
fn item7_eds_15_wrong_month_sheet_never_replaces_stored_orders() {
    let toml = game_toml(
        "eds-w",
        "eds",
        "map = \"trio\"",
        &[("p1", ""), ("p2", ""), ("p3", "")],
    );
    let mails = wrong_turn_keeps_the_valid_orders(
        &toml,
        "eds-w",
        "p1",
        "MONAT: J1/M1\n[17 UEBERWEISEN]\n2,100",
        "MONAT: J1/M5\n[17 UEBERWEISEN]\n2,250",
        "Befehle für J1/M5, erwartet J1/M1 – gesamter Befehlsbogen verworfen",
    );
    let all = mails.join("\n");
    assert!(all.contains(": 100 WE"), "the valid transfer ran: {all}");
    assert!(!all.contains(": 250 WE"), "{all}");
}

#[test]
fn item7_scn_53_wrong_turn_set_never_replaces_stored_orders() {
    let toml = game_toml(
        "scn-w",
        "scrambled",
        "world = \"testland\"",
        &[("p1", ""), ("p2", ""), ("p3", "")],
    );
    let mails = wrong_turn_keeps_the_valid_orders(
        &toml,
        "scn-w",
        "p1",
        "TURN 1\nENEMY p2",
        "TURN 3\nENEMY p3",
        "ordres pour le tour 3, mais le tour ouvert est le 1 : ensemble refusé en entier",
    );
    let all = mails.join("\n");
    assert!(all.contains("p1 marque ENNEMI : p2\n"), "{all}");
    assert!(!all.contains("p1 marque ENNEMI : p2, p3"), "{all}");
}

#[test]
fn item7_wwk_7_wrong_turn_or_nation_never_replaces_stored_orders() {
    let seats = [
        ("tur", "[players.rules]\nnation = \"TUR\"\n"),
        ("egy", "[players.rules]\nnation = \"EGY\"\n"),
        ("gre", "[players.rules]\nnation = \"GRE\"\n"),
    ];
    let toml = game_toml("wwk-w", "wwk", "scenario = \"trio\"", &seats);
    for (wrong, reason) in [
        (
            "TURN 2\nIST 1 INF MOVE ANK",
            "ordres pour le tour 1 attendus, reçu 2 : message entier refusé",
        ),
        (
            "NATION EGY\nIST 1 INF MOVE ANK",
            "nation TUR attendue, reçu EGY : message entier refusé",
        ),
    ] {
        let mails = wrong_turn_keeps_the_valid_orders(
            &toml,
            "wwk-w",
            "tur",
            "TURN 1\nIST 2 INF MOVE ANK",
            wrong,
            reason,
        );
        let all = mails.join("\n");
        assert!(
            all.contains("[IST] [2] [INF] [MOVE] [ANK]"),
            "the valid move was resolved: {all}"
        );
    }
}

#[test]
fn item8_nebulight_refused_lines_are_not_counted_as_accepted() {
    let toml = game_toml(
        "neb-c",
        "nebulight",
        "map = \"duel\"",
        &[("maxtor", ""), ("miria", "")],
    );
    let mut env = Env::with_game(&toml);
    // Real fleet and world numbers (drawn at random for every game): since
    // the receipt check, an unknown `F_1` or `M_1` is an error too.
    let state = arbitre_store::turns::latest(env.daemon.store.conn(), "neb-c").unwrap();
    let st: arbitre_nebulight::NebState = serde_json::from_str(&state.state).unwrap();
    let me = st.slot_of("maxtor").unwrap();
    let (mine, fl) = st.fleets.iter().find(|(_, f)| f.owner == Some(me)).unwrap();
    let next = st.worlds[&fl.world].links.first().unwrap();
    let (_, ok) = send(
        &mut env,
        "neb-c",
        "maxtor",
        &format!("{mine} {next}\nXX\n{} C 0 VI\nYY", fl.world),
    );
    assert!(
        ok.contains("2 ordre(s) accepté(s), 2 erreur(s), 1 avertissement(s)"),
        "{ok}"
    );
}

#[test]
fn issue17_8_neb_receipt_checks_against_the_state_by_mail() {
    let toml = game_toml(
        "neb-s",
        "nebulight",
        "map = \"duel\"",
        &[("maxtor", ""), ("miria", "")],
    );
    let mut env = Env::with_game(&toml);
    let state = arbitre_store::turns::latest(env.daemon.store.conn(), "neb-s").unwrap();
    let st: arbitre_nebulight::NebState = serde_json::from_str(&state.state).unwrap();
    let me = st.slot_of("maxtor").unwrap();
    let (mine, fl) = st.fleets.iter().find(|(_, f)| f.owner == Some(me)).unwrap();
    let (theirs, _) = st
        .fleets
        .iter()
        .find(|(_, f)| f.owner.is_some_and(|o| o != me))
        .unwrap();
    let far = st
        .worlds
        .keys()
        .find(|w| **w != fl.world && !st.linked(fl.world, **w))
        .unwrap();
    let (_, ok) = send(
        &mut env,
        "neb-s",
        "maxtor",
        &format!(
            "{mine} {far}\n{theirs} C MP\nF_999 * M\n{} C 1 VI",
            fl.world
        ),
    );
    // Each refused line is echoed with ERREUR, and its reason under it in
    // the words of the turn's report.
    for (line, why) in [
        (
            format!("{mine} {far}"),
            format!("{far} n'est pas relié à {}", fl.world),
        ),
        (
            format!("{theirs} C MP"),
            format!("la flotte {theirs} ne vous appartient pas"),
        ),
        ("F_999 * M".to_string(), "flotte F_999 inconnue".to_string()),
    ] {
        let echoed: Vec<&str> = ok.lines().collect();
        let at = echoed
            .iter()
            .position(|l| l.contains("ERREUR") && l.ends_with(&format!("  {line}")))
            .unwrap_or_else(|| panic!("{line}\n{ok}"));
        assert!(
            echoed[at + 1].ends_with(&format!("-> {why}")),
            "{why}\n{ok}"
        );
    }
    assert!(ok.contains("1 ordre(s) accepté(s), 3 erreur(s)"), "{ok}");
}

#[test]
fn item8_eds_echoes_every_entry_with_its_section_and_what_the_state_decides() {
    let toml = game_toml(
        "eds-e",
        "eds",
        "map = \"trio\"",
        &[("p1", ""), ("p2", ""), ("p3", "")],
    );
    let mut env = Env::with_game(&toml);
    let state = arbitre_store::turns::latest(env.daemon.store.conn(), "eds-e").unwrap();
    let st: arbitre_eds::model::State = serde_json::from_str(&state.state).unwrap();
    let me = st
        .ruler_by_id(&arbitre_core::PlayerId::new("p1"))
        .unwrap()
        .number;
    let mine = st
        .ships
        .values()
        .find(|s| s.owner == me && !s.home_base)
        .unwrap()
        .number;
    let theirs = st.ships.values().find(|s| s.owner != me).unwrap().number;
    let (x, y) = (st.width + 5, st.height + 5);
    // The user trial's line, an entry on a ship of another ruler, one off
    // the map, a malformed one, and one good entry in another section.
    let sheet = format!(
        "MONAT: J1/M1\n[7 SPRUNG]\n{mine},A,1,1 / {theirs},A,2,2 / {mine},A,{x},{y} / 6,Q\n[17]\n2,100"
    );
    let (_, ok) = send(&mut env, "eds-e", "p1", &sheet);
    for entry in [
        format!("[7 SPRUNG] {mine},A,1,1"),
        format!("[7 SPRUNG] {theirs},A,2,2"),
        format!("[7 SPRUNG] {mine},A,{x},{y}"),
        "[7 SPRUNG] 6,Q".to_string(),
        "[17 UEBERWEISEN] 2,100".to_string(),
    ] {
        assert!(ok.contains(&entry), "{entry} echoed:\n{ok}");
    }
    assert!(
        ok.contains(&format!(
            "Schiff {theirs} gehört Dir nicht oder existiert nicht – Befehl verworfen"
        )),
        "{ok}"
    );
    assert!(
        ok.contains(&format!(
            "Ziel ({x},{y}) liegt außerhalb der Karte – Befehl verworfen"
        )),
        "{ok}"
    );
    assert!(
        ok.contains("2 Befehl(e) angenommen, 3 Fehler"),
        "entries counted one by one, refused ones never as accepted: {ok}"
    );
}

#[test]
fn item8_scn_52_template_sent_back_unchanged_is_not_ready() {
    let toml = game_toml(
        "scn-t",
        "scrambled",
        "world = \"testland\"",
        &[("p1", ""), ("p2", ""), ("p3", "")],
    )
    .replace("interval = \"7d\"", "interval = \"7d\"\nearly = true");
    let mut env = Env::with_game(&toml);
    // Each player's template, as attached to the turn-0 report, sent back
    // with the password filled in and nothing else touched.
    let state = arbitre_store::turns::latest(env.daemon.store.conn(), "scn-t").unwrap();
    let st: arbitre_scrambled::state::State = serde_json::from_str(&state.state).unwrap();
    for p in ["p1", "p2", "p3"] {
        let t = arbitre_scrambled::report::order_template(&st, &arbitre_core::PlayerId::new(p))
            .replace("<mot-de-passe>", &format!("pw-{p}"));
        assert!(t.contains("# READY"), "{t}");
        env.drop_mail(&mail(&format!("{p}@example.org"), "ordres", &t));
    }
    env.daemon.cycle().unwrap();
    assert_eq!(
        turn_of(&env, "scn-t"),
        0,
        "an unchanged template declares nobody ready: no early resolution"
    );
    let confirm = env.last_to("p1@example.org", "confirm").unwrap();
    assert!(
        confirm.mail.body.contains("pas déclaré prêt"),
        "{}",
        confirm.mail.body
    );
}
