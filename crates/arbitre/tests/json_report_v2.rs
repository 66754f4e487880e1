//! Issue 20: the JSON report version 2 of every fixture of every ruleset.
//!
//! Every fixture under `fixtures/` is replayed through the real serve cycle
//! (as `fixtures.rs` does) and each JSON report the referee attaches is
//! taken from the outbox:
//!
//! * item 3: it validates against docs/schemas/report.schema.json and its
//!   `view` against docs/schemas/<ruleset>.view.schema.json (a ruleset whose
//!   view schema is not written yet is skipped with a note);
//! * item 2: each number of the text is in the view, and the view holds no
//!   number nor text the report does not print (fog of war), a check that a
//!   deliberate leak fails (`a_leak_into_the_view_is_caught`);
//! * item 4: every bot's orders and every player's real orders, checked
//!   against that player's last JSON report (`arbitre check --report`),
//!   give no error the referee does not give on the real state;
//! * item 5: a CHECK by mail and the offline check answer the same
//!   verdicts for the same orders.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre::fixture::{find_fixtures, Run};
use arbitre::offline::{check_report, diagnostics};
use arbitre::Registry;
use arbitre_core::{Lang, PlayerId, Verdict};
use arbitre_store::{outbox, turns};
use mail_parser::{MessageParser, MimeHeaders};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The JSON reports queued since `after`, with the recipient's player id.
fn json_reports(run: &Run, after: &mut i64) -> Vec<(Option<String>, Value)> {
    let rows = outbox::since(run.daemon.store.conn(), *after).unwrap();
    if let Some(last) = rows.last() {
        *after = last.id;
    }
    let mut out = Vec::new();
    for r in rows {
        let Some(m) = MessageParser::default().parse(&r.mail.raw[..]) else {
            continue;
        };
        for a in m.attachments() {
            let json = a.attachment_name().is_some_and(|n| n.ends_with(".json"));
            let Some(v) = json
                .then(|| serde_json::from_slice::<Value>(a.contents()).ok())
                .flatten()
            else {
                continue;
            };
            if v["schema"] == "arbitre-report" {
                out.push((r.mail.player.clone(), v));
            }
        }
    }
    out
}

fn inbox(turn_dir: &Path) -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(turn_dir.join("inbox"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "eml"));
    files.sort();
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

fn turn_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<(u32, PathBuf)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let n = e
                .file_name()
                .to_string_lossy()
                .strip_prefix("turn-")?
                .parse::<u32>()
                .ok()?;
            (n > 0 && e.path().is_dir()).then(|| (n, e.path()))
        })
        .collect();
    out.sort();
    out.into_iter().map(|(_, p)| p).collect()
}

/// One point between two turns of a replayed fixture.
struct Boundary<'a> {
    fixture: String,
    run: &'a mut Run,
    /// The JSON reports sent since the previous boundary.
    reports: Vec<(Option<String>, Value)>,
    /// The mails of the coming turn (empty after the last).
    next_inbox: Vec<Vec<u8>>,
}

/// Replays every fixture and calls `f` at each boundary between turns.
fn walk(mut f: impl FnMut(Boundary<'_>)) {
    let registry = Arc::new(Registry::builtin());
    let fixtures = find_fixtures(&root().join("fixtures"));
    assert!(!fixtures.is_empty(), "no fixture found");
    for dir in fixtures {
        let fixture = dir
            .strip_prefix(root())
            .unwrap_or(&dir)
            .display()
            .to_string();
        let (mut run, _) = Run::start(&dir.join("game.toml"), registry.clone()).unwrap();
        let mut after = 0;
        let turns = turn_dirs(&dir);
        let mut next = turns.first().map(|t| inbox(t)).unwrap_or_default();
        let reports = json_reports(&run, &mut after);
        f(Boundary {
            fixture: fixture.clone(),
            run: &mut run,
            reports,
            next_inbox: next.clone(),
        });
        for (i, _) in turns.iter().enumerate() {
            run.step(&next).unwrap();
            next = turns.get(i + 1).map(|t| inbox(t)).unwrap_or_default();
            let reports = json_reports(&run, &mut after);
            f(Boundary {
                fixture: fixture.clone(),
                run: &mut run,
                reports,
                next_inbox: next.clone(),
            });
        }
    }
}

fn schema(path: &Path) -> Option<jsonschema::Validator> {
    let text = std::fs::read_to_string(path).ok()?;
    let v: Value = serde_json::from_str(&text).unwrap();
    Some(jsonschema::draft202012::new(&v).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

#[test]
fn every_json_report_of_every_fixture_validates_against_the_schemas() {
    let dir = root().join("docs/schemas");
    let envelope = schema(&dir.join("report.schema.json")).expect("the envelope schema");
    let mut views: BTreeMap<String, Option<jsonschema::Validator>> = BTreeMap::new();
    let (mut checked, mut with_view) = (0, 0);
    let mut validated = BTreeSet::new();
    let mut failures = Vec::new();
    walk(|b| {
        for (_, r) in &b.reports {
            checked += 1;
            assert_eq!(r["schema_version"], 2);
            for e in envelope.iter_errors(r) {
                failures.push(format!("{} turn {}: envelope: {e}", b.fixture, r["turn"]));
            }
            let ruleset = r["ruleset"].as_str().unwrap().to_string();
            let Some(view) = r.get("view") else { continue };
            let validator = views.entry(ruleset.clone()).or_insert_with(|| {
                let s = schema(&dir.join(format!("{ruleset}.view.schema.json")));
                if s.is_none() {
                    println!("note: no docs/schemas/{ruleset}.view.schema.json yet; its views are not validated");
                }
                s
            });
            if let Some(v) = validator {
                with_view += 1;
                validated.insert(ruleset.clone());
                for e in v.iter_errors(view) {
                    failures.push(format!(
                        "{} turn {} {}: view {}: {e}",
                        b.fixture,
                        r["turn"],
                        r["viewer"],
                        e.instance_path()
                    ));
                }
            }
        }
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        checked > 0 && with_view > 0,
        "{checked} reports, {with_view} views"
    );
    assert_eq!(
        validated,
        all_rulesets(),
        "every ruleset's views have a schema and are validated"
    );
    println!("{checked} JSON reports valid, {with_view} views valid");
}

/// The four rulesets, each of which sends views (issue 20 "Done when").
fn all_rulesets() -> BTreeSet<String> {
    ["eds", "nebulight", "scrambled", "wwk"]
        .into_iter()
        .map(String::from)
        .collect()
}

/// The numbers written in a text (runs of digits, without sign).
fn numbers(text: &str) -> BTreeSet<u64> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect()
}

/// Every integer and every string of a JSON value.
fn leaves(v: &Value, ints: &mut Vec<i64>, strings: &mut Vec<String>) {
    match v {
        // A decimal (WWK's and Scrambled's percentages, printed `86,76`,
        // EDS's average Evolutionsstufe, printed `2,50`) counts by its
        // digit groups, as the text's numbers do, also with the two
        // decimals the reports print.
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => ints.push(i),
            (None, Some(f)) => {
                strings.push(n.to_string());
                strings.push(format!("{f:.2}"));
            }
            (None, None) => strings.push(n.to_string()),
        },
        Value::String(s) => strings.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| leaves(x, ints, strings)),
        Value::Object(o) => o.values().for_each(|x| leaves(x, ints, strings)),
        _ => {}
    }
}

/// A view tag (`player`, `game_master`): the view's vocabulary, not data.
fn is_tag(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c == '_')
}

/// What keeps a view from being the text's twin: numbers of the text the
/// view lacks, and numbers or texts of the view the text does not show.
///
/// `strict`: also refuse what the view holds beyond the text. Nébulight's
/// view is exactly its text. Scrambled Nations', WWK's and EDS's views also
/// carry public facts the text leaves implicit (the map's links and name,
/// rule constants, the nations' list, the Befehlsblatt's entry limits) that
/// echeck needs; their own crates' tests
/// (`*_player_view_shows_no_troops_the_text_hides`,
/// `wwk_nation_view_shows_no_zone_or_unit_the_text_hides`,
/// `eds_player_view_shows_no_star_or_ship_the_text_hides`, with a planted
/// leak each) hold that no hidden fact reaches a player's view.
fn disagreements(text: &str, view: &Value, strict: bool) -> Vec<String> {
    let (mut ints, mut strings) = (Vec::new(), Vec::new());
    leaves(view, &mut ints, &mut strings);
    let in_text = numbers(text);
    let mut in_view: BTreeSet<u64> = ints.iter().map(|i| i.unsigned_abs()).collect();
    for s in &strings {
        in_view.extend(numbers(s));
    }
    let mut out = Vec::new();
    for n in in_text.difference(&in_view) {
        out.push(format!("the text's number {n} is not in the view"));
    }
    if !strict {
        return out;
    }
    for i in &ints {
        let n = i.unsigned_abs();
        if n != 0 && !in_text.contains(&n) {
            out.push(format!("the view holds {i}, which the text does not show"));
        }
    }
    for s in &strings {
        if !is_tag(s) && !text.contains(s.as_str()) {
            out.push(format!(
                "the view holds \"{s}\", which the text does not show"
            ));
        }
    }
    out
}

#[test]
fn every_number_of_the_text_is_in_the_view_and_the_view_shows_nothing_more() {
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut rulesets = BTreeSet::new();
    walk(|b| {
        for (_, r) in &b.reports {
            let Some(view) = r.get("view") else { continue };
            compared += 1;
            rulesets.insert(r["ruleset"].as_str().unwrap().to_string());
            let strict = r["ruleset"] == "nebulight";
            for d in disagreements(r["text"].as_str().unwrap(), view, strict) {
                failures.push(format!(
                    "{} turn {} ({} {}): {d}",
                    b.fixture, r["turn"], r["viewer"], r["player"]
                ));
            }
        }
    });
    failures.dedup();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared > 0);
    assert_eq!(rulesets, all_rulesets());
    println!("{compared} reports: text and view agree");
}

/// The check above fails on a leak: a player's view given the game
/// master's worlds (a view built with the wrong eye), or one hidden cargo.
#[test]
fn a_leak_into_the_view_is_caught() {
    let mut player: Option<Value> = None;
    let mut master: Option<Value> = None;
    walk(|b| {
        if !b.fixture.ends_with("nebulight/bots-duel") {
            return;
        }
        for (_, r) in &b.reports {
            if r["turn"] == 2 && r["viewer"] == "player" && player.is_none() {
                player = Some(r.clone());
            }
            if r["turn"] == 2 && r["viewer"] == "game-master" {
                master = Some(r.clone());
            }
        }
    });
    let player = player.expect("a player's report of turn 2");
    let master = master.expect("the game master's report of turn 2");
    let text = player["text"].as_str().unwrap();
    // The honest view agrees with its text.
    assert_eq!(
        disagreements(text, &player["view"], true),
        Vec::<String>::new()
    );
    // The wrong eye: every world of the game.
    let mut leak = player["view"].clone();
    leak["worlds"] = master["view"]["worlds"].clone();
    let found = disagreements(text, &leak, true);
    assert!(
        found
            .iter()
            .any(|d| d.contains("which the text does not show")),
        "{found:?}"
    );
    // One hidden cargo shown.
    let mut leak = player["view"].clone();
    let fleet = leak["worlds"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|w| w["fleets"].as_array_mut().unwrap().iter_mut())
        .next()
        .expect("a fleet in the report");
    fleet["cargo"] = serde_json::json!({"mp": 987_654, "population": 0});
    let found = disagreements(text, &leak, true);
    assert_eq!(
        found,
        vec!["the view holds 987654, which the text does not show".to_string()]
    );
    // And a text that shows a number its view lacks (a renderer writing
    // from the state rather than from the view).
    let longer = format!("{text}F_987655\n");
    assert_eq!(
        disagreements(&longer, &player["view"], true),
        vec!["the text's number 987655 is not in the view".to_string()]
    );
}

/// (line, reason) of every error.
fn errors(c: &arbitre_core::Checked) -> BTreeSet<(usize, String)> {
    c.verdicts
        .iter()
        .filter_map(|v| match &v.verdict {
            Verdict::Error(r) => Some((v.line, r.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn orders_checked_against_the_players_reports_find_no_error_the_referee_does_not() {
    let mut failures = Vec::new();
    let mut skipped = BTreeSet::new();
    let mut checked_rulesets = BTreeSet::new();
    let (mut blocks, mut orders) = (0, 0);
    walk(|b| {
        let conn = b.run.daemon.store.conn();
        let game = games_row(b.run);
        let engine = b.run.daemon.registry.get(&game.1).unwrap();
        let state = turns::latest(conn, &b.run.game).unwrap().state;
        // The bots' orders, and the real orders of the coming turn.
        let mut candidates: Vec<(String, String)> = b
            .run
            .bot_orders()
            .unwrap()
            .into_iter()
            .map(|(p, o)| (p.to_string(), o))
            .collect();
        for m in &b.next_inbox {
            let Ok(mail) = arbitre_mail::parse_mail(m, usize::MAX) else {
                continue;
            };
            for t in mail.texts {
                if let Ok(env) = arbitre_mail::find_envelope(&t) {
                    candidates.push((env.player.clone(), env.orders.clone()));
                }
            }
        }
        for (player, text) in candidates {
            let Some((_, report)) = b
                .reports
                .iter()
                .find(|(p, r)| p.as_deref() == Some(player.as_str()) && r["viewer"] == "player")
            else {
                continue;
            };
            let json = serde_json::to_string(report).unwrap();
            let offline = match check_report(&b.run.daemon.registry, &json, &text, Lang::En) {
                Ok(c) => c,
                Err(e)
                    if report.get("view").is_none() || e.to_string().contains("cannot check") =>
                {
                    skipped.insert(format!("{}: {e}", game.1));
                    continue;
                }
                Err(e) => panic!("{}: {e}", b.fixture),
            };
            let referee = engine
                .check(&state, &PlayerId::new(&player), &text)
                .unwrap();
            blocks += 1;
            orders += referee.orders;
            checked_rulesets.insert(game.1.clone());
            let extra: Vec<_> = errors(&offline.checked)
                .difference(&errors(&referee))
                .cloned()
                .collect();
            if !extra.is_empty() {
                failures.push(format!(
                    "{} turn {} {player}: false errors {extra:?}",
                    b.fixture, report["turn"]
                ));
            }
        }
    });
    for s in &skipped {
        println!("note: skipped, {s}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(blocks > 0 && orders > 0, "{blocks} blocks, {orders} orders");
    // No ruleset is left out: each one's players can check against their
    // reports (EDS included, eds_check_report_no_false_errors).
    assert_eq!(checked_rulesets, all_rulesets(), "skipped: {skipped:?}");
    println!("{blocks} order blocks ({orders} orders): no false error");
}

fn games_row(run: &Run) -> (String, String) {
    let g = arbitre_store::games::require_game(run.daemon.store.conn(), &run.game).unwrap();
    (g.id, g.ruleset)
}

/// The verdicts of a CHECK reply: (line, "error"|"warning", reason).
fn reply_verdicts(body: &str, error: &str, warning: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = body.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        let mut words = l.split_whitespace();
        let (Some(no), Some(label)) = (words.next(), words.next()) else {
            continue;
        };
        let Ok(no) = no.parse::<usize>() else {
            continue;
        };
        let kind = if label == error {
            "error"
        } else if label == warning {
            "warning"
        } else {
            continue;
        };
        let reason = lines
            .get(i + 1)
            .and_then(|n| n.trim_start().strip_prefix("-> "))
            .unwrap_or_default();
        out.push((no, kind.to_string(), reason.to_string()));
    }
    out
}

#[test]
fn a_check_by_mail_answers_the_verdicts_of_the_offline_check() {
    use arbitre::messages::{text, Msg};
    let mut compared = 0;
    walk(|b| {
        if !b.fixture.ends_with("nebulight/bots-duel") || compared > 0 {
            return;
        }
        let Some((Some(player), report)) = b
            .reports
            .iter()
            .find(|(p, r)| p.is_some() && r["viewer"] == "player")
            .cloned()
        else {
            return;
        };
        let bot = b.run.bot_orders().unwrap();
        let (_, bot) = bot.iter().find(|(p, _)| p.as_str() == player).unwrap();
        // The bot's orders and two wrong lines, so that there is something to say.
        let orders = format!("{}\nF_12 ZZ 4\nM_1 C 3 XX\n", bot.trim_end());
        let offline = check_report(
            &b.run.daemon.registry,
            &serde_json::to_string(&report).unwrap(),
            &orders,
            Lang::En,
        )
        .unwrap();
        let offline_text = diagnostics("orders.txt", &offline.checked);
        assert!(offline.checked.errors > 0, "{offline_text}");
        // The same orders in a CHECK block: the header is line 0, so the
        // block's lines are the file's.
        let toml = std::fs::read_to_string(root().join(&b.fixture).join("game.toml")).unwrap();
        let g: toml::Value = toml::from_str(&toml).unwrap();
        let seat = g["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"].as_str() == Some(player.as_str()))
            .unwrap();
        let mail = arbitre::fixture::order_mail(
            "Player",
            seat["email"].as_str().unwrap(),
            arbitre::fixture::FIXTURE_REFEREE,
            b.run.now(),
            "check.1@players.invalid",
            &format!(
                "CHECK {} PLAYER {player} PASSWORD {}",
                b.run.game,
                seat["password"].as_str().unwrap()
            ),
            &orders,
        );
        let last = outbox::last_id(b.run.daemon.store.conn()).unwrap();
        b.run.daemon.deliver(&mail).unwrap();
        b.run.daemon.cycle().unwrap();
        let reply = outbox::since(b.run.daemon.store.conn(), last)
            .unwrap()
            .into_iter()
            .find(|r| r.mail.kind.as_str() == "check")
            .expect("a CHECK reply");
        let lang = arbitre_core::Lang::Fr;
        let by_mail = reply_verdicts(
            &reply.mail.body,
            &text(lang, &Msg::Error),
            &text(lang, &Msg::Warning),
        );
        let offline_verdicts: Vec<(usize, String, String)> = offline_text
            .lines()
            .map(|l| {
                let mut p = l.splitn(4, ": ");
                let file_line = p.next().unwrap();
                let kind = p.next().unwrap();
                let reason = p.collect::<Vec<_>>().join(": ");
                let line = file_line.rsplit(':').next().unwrap().parse().unwrap();
                (line, kind.to_string(), reason)
            })
            .collect();
        assert_eq!(
            by_mail, offline_verdicts,
            "{}\n---\n{offline_text}",
            reply.mail.body
        );
        compared += 1;
    });
    assert_eq!(compared, 1);
}

/// `arbitre check --report r.json orders.txt`: no ruleset nor game file,
/// `FILE:LINE: error|warning: reason`, exit status 1 on errors and 0
/// without; a version 1 report (no view) is refused with a reason.
#[test]
fn arbitre_check_report_prints_file_line_verdicts_and_exits_1_on_errors() {
    use arbitre::cli::{run, Cli};
    use clap::Parser;
    let dir = root().join("fixtures/nebulight/bots-duel");
    let (run_, _) = Run::start(&dir.join("game.toml"), Registry::builtin()).unwrap();
    let mut after = 0;
    let (_, report) = json_reports(&run_, &mut after)
        .into_iter()
        .find(|(p, _)| p.as_deref() == Some("maxtor"))
        .unwrap();
    let bot = run_.bot_orders().unwrap();
    let (_, bot) = bot.iter().find(|(p, _)| p.as_str() == "maxtor").unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("report.json");
    std::fs::write(&json, serde_json::to_vec(&report).unwrap()).unwrap();
    let cli = |orders: &str| {
        let f = tmp.path().join("orders.txt");
        std::fs::write(&f, orders).unwrap();
        let argv = [
            "arbitre",
            "check",
            "--report",
            json.to_str().unwrap(),
            f.to_str().unwrap(),
        ];
        let mut out = Vec::new();
        let r = run(
            Cli::try_parse_from(argv).unwrap(),
            Registry::builtin(),
            &mut out,
        );
        (
            r.map_err(|e| e.to_string()),
            String::from_utf8(out).unwrap(),
        )
    };
    // The bot's orders: nothing to say.
    assert_eq!(cli(bot), (Ok(0), String::new()));
    // A wrong third line.
    let f = tmp.path().join("orders.txt");
    let (code, out) = cli(&format!("{}\nF_1 ZZ\n", bot.lines().next().unwrap()));
    assert_eq!(code, Ok(1), "{out}");
    let prefix = format!("{}:2: error: ", f.display());
    assert!(
        out.lines().count() == 1 && out.starts_with(&prefix),
        "{out}"
    );
    // The same orders inside a mailed block: the file's line numbers.
    let (code, out) = cli(&format!(
        "Hello,\nGAME x PLAYER maxtor PASSWORD y\n{}\nF_1 ZZ\nEND\n",
        bot.lines().next().unwrap()
    ));
    assert_eq!(code, Ok(1), "{out}");
    assert!(
        out.starts_with(&format!("{}:4: error: ", f.display())),
        "{out}"
    );
    // A version 1 report has no view to check against.
    let mut v1 = report.clone();
    v1["schema_version"] = 1.into();
    v1.as_object_mut().unwrap().remove("view");
    std::fs::write(&json, serde_json::to_vec(&v1).unwrap()).unwrap();
    let (r, _) = cli(bot);
    assert!(r.unwrap_err().contains("holds no view"));
}

/// `arbitre check --report` on an EDS report (issue 20 item 4 for the
/// fourth ruleset): no game file, a ruler's bot orders pass, a jump of a
/// ship that is not theirs is `orders.txt:LINE: error:` with exit status 1.
#[test]
fn eds_check_report_cli_gives_file_line_verdicts() {
    use arbitre::cli::{run, Cli};
    use clap::Parser;
    let dir = root().join("fixtures/eds/bots-trio");
    let (run_, _) = Run::start(&dir.join("game.toml"), Registry::builtin()).unwrap();
    let mut after = 0;
    let (_, report) = json_reports(&run_, &mut after)
        .into_iter()
        .find(|(p, r)| p.as_deref() == Some("anna") && r["viewer"] == "player")
        .unwrap();
    assert_eq!(report["ruleset"], "eds");
    let bot = run_.bot_orders().unwrap();
    let (_, bot) = bot.iter().find(|(p, _)| p.as_str() == "anna").unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("report.json");
    std::fs::write(&json, serde_json::to_vec(&report).unwrap()).unwrap();
    let f = tmp.path().join("orders.txt");
    let cli = |orders: &str| {
        std::fs::write(&f, orders).unwrap();
        let argv = [
            "arbitre",
            "check",
            "--report",
            json.to_str().unwrap(),
            f.to_str().unwrap(),
        ];
        let mut out = Vec::new();
        let r = run(
            Cli::try_parse_from(argv).unwrap(),
            Registry::builtin(),
            &mut out,
        );
        (
            r.map_err(|e| e.to_string()),
            String::from_utf8(out).unwrap(),
        )
    };
    let (code, out) = cli(bot);
    assert_eq!(code, Ok(0), "{out}");
    assert!(!out.contains(": error: "), "{out}");
    // Ship 9999 is nobody's: the referee refuses its jump on receipt.
    let first = bot.lines().next().unwrap();
    let (code, out) = cli(&format!("{first}\n[7 SPRUNG]\n9999,A,1,1\n"));
    assert_eq!(code, Ok(1), "{out}");
    let prefix = format!("{}:3: error: ", f.display());
    assert!(
        out.lines().count() == 1 && out.starts_with(&prefix),
        "{out}"
    );
}
