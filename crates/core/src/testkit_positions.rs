//! Positions out and back in (issue 19 item 6), for the rulesets' tests:
//! the fixture games of `fixtures/<ruleset>/` played turn by turn from their
//! inbox mails, and the round trip every state of them must survive —
//! [`Ruleset::export_position`], then [`Ruleset::setup`] from that text as
//! `arbitre game create` does with a `position_file`, then export again:
//! the two texts byte-identical and the two states equal in what the game
//! uses.

use crate::engine::run_turn;
use crate::ids::PlayerId;
use crate::rng::Rng;
use crate::ruleset::{PlayerSetup, Ruleset, SetupConfig};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One fixture game: its set-up and each turn's orders, as the inbox mails give them.
pub struct FixtureGame {
    pub dir: PathBuf,
    pub config: SetupConfig,
    /// `turns[0]` are the orders of turn 1.
    pub turns: Vec<BTreeMap<PlayerId, String>>,
}

/// The order text of a plain-text fixture mail: the lines after its `GAME`
/// line up to `END`, with the player the `GAME` line names.
pub fn order_text(eml: &str) -> Option<(PlayerId, String)> {
    let body = eml.split_once("\n\n").map_or(eml, |(_, b)| b);
    let mut lines = body.lines().skip_while(|l| !l.starts_with("GAME "));
    let head = lines.next()?;
    let words: Vec<&str> = head.split_whitespace().collect();
    let player = words
        .iter()
        .position(|w| *w == "PLAYER")
        .and_then(|i| words.get(i + 1))?;
    let text: Vec<&str> = lines.take_while(|l| l.trim() != "END").collect();
    Some((PlayerId::from(*player), text.join("\n") + "\n"))
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Every fixture game of `fixtures/<ruleset>/` under `repo`, in name order.
/// A fixture that cannot be read fails the calling test (test code).
pub fn fixture_games(repo: &Path, ruleset: &str) -> Vec<FixtureGame> {
    let root = repo.join("fixtures").join(ruleset);
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("game.toml").is_file())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let game: toml::Table = read(&dir.join("game.toml"))
                .parse()
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            let str_of = |t: &toml::Table, k: &str| {
                t.get(k)
                    .and_then(|v| v.as_str())
                    .unwrap_or_default()
                    .to_string()
            };
            let players = game
                .get("players")
                .and_then(|v| v.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|p| p.as_table())
                        .map(|p| PlayerSetup {
                            id: PlayerId::from(str_of(p, "id").as_str()),
                            name: str_of(p, "name"),
                            options: p
                                .get("rules")
                                .and_then(|r| r.as_table())
                                .cloned()
                                .unwrap_or_default(),
                        })
                        .collect()
                })
                .unwrap_or_default();
            let config = SetupConfig {
                game_id: str_of(&game, "id"),
                seed: game
                    .get("seed")
                    .and_then(|v| v.as_integer())
                    .map_or(1, |s| s as u64),
                players,
                options: game
                    .get("rules")
                    .and_then(|r| r.as_table())
                    .cloned()
                    .unwrap_or_default(),
                files: BTreeMap::new(),
            };
            let mut turn_dirs: Vec<PathBuf> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("turn-") && n != "turn-000")
                })
                .collect();
            turn_dirs.sort();
            let turns = turn_dirs
                .iter()
                .map(|t| {
                    let mut orders = BTreeMap::new();
                    if let Ok(mails) = std::fs::read_dir(t.join("inbox")) {
                        let mut mails: Vec<PathBuf> = mails.flatten().map(|e| e.path()).collect();
                        mails.sort();
                        for m in mails {
                            if let Some((p, text)) = order_text(&read(&m)) {
                                orders.insert(p, text);
                            }
                        }
                    }
                    orders
                })
                .collect();
            FixtureGame { dir, config, turns }
        })
        .collect()
}

/// The first line where two texts differ, for a failure message.
fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}:\n  first:  {x}\n  second: {y}", i + 1);
        }
    }
    format!(
        "one text is longer ({} lines against {})",
        a.lines().count(),
        b.lines().count()
    )
}

/// Export `state`, load the text back as a new game of `config`'s players
/// (its `[rules]` without the keys in `start_keys`, which choose the start,
/// and with `position_file` set to the text), export again. Fails unless the
/// texts are byte-identical and the states' JSON are equal after `normalise`
/// (which removes what a position does not carry: the last turn's log …).
pub fn round_trip<R: Ruleset>(
    r: &R,
    config: &SetupConfig,
    state: &R::State,
    start_keys: &[&str],
    normalise: impl Fn(&mut Value),
) -> Result<(), String> {
    let text = r
        .export_position(state)
        .map_err(|e| format!("export refused: {e}"))?;
    let mut again = config.clone();
    again.options.retain(|k, _| !start_keys.contains(&k));
    again.files = BTreeMap::from([("position_file".to_string(), text.clone())]);
    let loaded = r
        .setup(&again, &mut Rng::for_setup(config.seed))
        .map_err(|e| format!("the exported position does not load: {e}\n{text}"))?;
    let text2 = r
        .export_position(&loaded)
        .map_err(|e| format!("second export refused: {e}"))?;
    if text != text2 {
        return Err(format!(
            "export → load → export is not byte-identical, {}",
            first_difference(&text, &text2)
        ));
    }
    let json = |s: &R::State| -> Result<Value, String> {
        let mut v = serde_json::to_value(s).map_err(|e| e.to_string())?;
        normalise(&mut v);
        Ok(v)
    };
    let (a, b) = (json(state)?, json(&loaded)?);
    if a != b {
        let (a, b) = (
            serde_json::to_string_pretty(&a).unwrap_or_default(),
            serde_json::to_string_pretty(&b).unwrap_or_default(),
        );
        return Err(format!(
            "the loaded state differs from the exported one, {}",
            first_difference(&a, &b)
        ));
    }
    Ok(())
}

/// Plays every fixture game of `ruleset` and checks [`round_trip`] on the
/// state after set-up and after every turn. Returns the number of states
/// checked, or every failure, each naming the fixture and turn.
pub fn round_trip_fixtures<R: Ruleset>(
    r: &R,
    repo: &Path,
    ruleset: &str,
    start_keys: &[&str],
    normalise: impl Fn(&mut Value),
) -> Result<usize, String> {
    let mut failures = Vec::new();
    let mut checked = 0;
    for game in fixture_games(repo, ruleset) {
        let name = game.dir.display().to_string();
        let mut state = r
            .setup(&game.config, &mut Rng::for_setup(game.config.seed))
            .map_err(|e| format!("{name}: set-up refused: {e}"))?;
        for (n, orders) in std::iter::once(None)
            .chain(game.turns.iter().map(Some))
            .enumerate()
        {
            if let Some(orders) = orders {
                run_turn(r, &mut state, game.config.seed, orders);
            }
            checked += 1;
            if let Err(e) = round_trip(r, &game.config, &state, start_keys, &normalise) {
                failures.push(format!("{name}, after turn {n}: {e}"));
            }
        }
    }
    if failures.is_empty() {
        Ok(checked)
    } else {
        Err(failures.join("\n\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_text_is_the_block_between_game_and_end() {
        let eml = "From: a@b\nSubject: orders\n\nhello\nGAME g PLAYER maxtor PASSWORD x\nF_1 M_2\nM_3 C 1 VI\nEND\nbye\n";
        let (p, text) = order_text(eml).expect("a block");
        assert_eq!(p, PlayerId::from("maxtor"));
        assert_eq!(text, "F_1 M_2\nM_3 C 1 VI\n");
        assert!(order_text("From: a@b\n\nno block\n").is_none());
    }

    #[test]
    fn the_default_export_refuses_and_the_round_trip_says_so() {
        let t = crate::testkit::Tally;
        let config = SetupConfig {
            game_id: "g".into(),
            seed: 1,
            players: vec![PlayerSetup {
                id: PlayerId::from("a"),
                name: "A".into(),
                options: toml::Table::new(),
            }],
            options: toml::Table::new(),
            files: BTreeMap::new(),
        };
        let s = t.setup(&config, &mut Rng::for_setup(1)).expect("tally");
        let e = round_trip(&t, &config, &s, &[], |_| {}).expect_err("Tally has no positions");
        assert!(
            e.contains("export refused") && e.contains("cannot export a position"),
            "{e}"
        );
    }
}
