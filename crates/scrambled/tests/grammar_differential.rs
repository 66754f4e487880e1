//! The nom grammar gives the verdicts the hand-written parser gave (issue 21
//! item 3): on every fixture's order mails, the bots' orders of generated
//! games of several sizes, and 100,000 seeded mutations of those lines
//! (characters deleted, inserted, swapped, case changed, accents, spaces,
//! digits, quotes, arrows, `#`).
//!
//! A verdict is the whole parse of a block: orders, warnings, errors, the
//! ready flag. The old parser's verdicts are kept in
//! `tests/data/grammar_verdicts.txt` (a fingerprint of the corpus, then a hash
//! per chunk of 64 inputs and one letter per input: `A` accepted, `W` accepted with a warning, `R` refused,
//! `M` mixed, `-` nothing), recorded from the old parser while both lived
//! (the test then compared them line by line; the commit that kept both
//! gives the counts); the new one must give the same. Syntax errors now name the column and the expected
//! item: their reason is compared without that suffix, and the suffix must
//! be there.
//!
//! The shortcut `grammar::order` takes for plain `MOVE` and `PATH` lines
//! reads them as the nom grammar alone does, on the same lines and seeded
//! word splices of the move lines.
//!
//! The one-pass reader of `fast_path` gives, where it reads a line, what
//! the grammar gives: every block and line of the corpus, its mutants and
//! more mutants of the lines it reads, parsed with it and without it
//! (`fast_path_reads_what_the_grammar_reads`).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_core::{
    engine, testkit_verdicts, Parsed, PlayerId, PlayerSetup, Rng, Ruleset, SetupConfig,
};
use arbitre_scrambled::orders::Order;
use arbitre_scrambled::state::State;
use arbitre_scrambled::{grammar, parser, Scrambled};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const MUTATED: usize = 100_000;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn setup(world: &str, players: &[(String, String)], seed: u64) -> State {
    let options: toml::Table = toml::from_str(&format!("world = \"{world}\"")).unwrap();
    let c = SetupConfig {
        game_id: format!("diff-{world}"),
        seed,
        players: players
            .iter()
            .map(|(id, name)| PlayerSetup {
                id: PlayerId::from(id.as_str()),
                name: name.clone(),
                options: Default::default(),
            })
            .collect(),
        options,
        files: BTreeMap::new(),
    };
    Scrambled.setup(&c, &mut Rng::for_setup(seed)).unwrap()
}

fn bot_orders(state: &State, seed: u64) -> BTreeMap<PlayerId, String> {
    let turn = state.turn + 1;
    state
        .active_players()
        .into_iter()
        .map(|p| {
            let mut rng = Rng::for_phase(seed, turn, &format!("bot:{p}"));
            let t = Scrambled.bot_orders(state, &p, &mut rng);
            (p, t)
        })
        .collect()
}

/// One block to parse: the state (an index), the player, the text.
struct Input {
    state: usize,
    player: PlayerId,
    text: String,
}

/// The states and the blocks the bots and the fixtures wrote for them.
fn corpus() -> (Vec<State>, Vec<Input>) {
    let mut states = Vec::new();
    let mut inputs = Vec::new();
    // Generated games of several sizes, a few turns each.
    for (world, n, seed) in [
        ("testland", 3, 5u64),
        ("hexagone", 4, 7),
        ("hexagone", 8, 11),
    ] {
        let players: Vec<(String, String)> = (1..=n)
            .map(|i| (format!("p{i}"), format!("Joueur Numéro {i}")))
            .collect();
        let mut st = setup(world, &players, seed);
        for _ in 0..6 {
            let orders = bot_orders(&st, seed);
            states.push(st.clone());
            for (p, text) in &orders {
                inputs.push(Input {
                    state: states.len() - 1,
                    player: p.clone(),
                    text: text.clone(),
                });
            }
            engine::run_turn(&Scrambled, &mut st, seed, &orders);
        }
    }
    // Every fixture's order mails, replayed turn by turn on a game set up
    // like the fixture's.
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures/scrambled"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let game: toml::Table =
            toml::from_str(&std::fs::read_to_string(dir.join("game.toml")).unwrap()).unwrap();
        let world = game["rules"]
            .get("world")
            .and_then(|w| w.as_str())
            .unwrap_or("hexagone")
            .to_string();
        let players: Vec<(String, String)> = game["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["id"].as_str().unwrap().to_string(),
                    p["name"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let mut st = setup(&world, &players, 1);
        let mut turns: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("inbox").is_dir())
            .collect();
        turns.sort();
        let mut fixture_lines = 0;
        for t in turns {
            let mut orders = BTreeMap::new();
            let mut mails: Vec<PathBuf> = std::fs::read_dir(t.join("inbox"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            mails.sort();
            for m in mails {
                let body = mail_body(&std::fs::read_to_string(&m).unwrap());
                fixture_lines += body.lines().filter(|l| !l.trim().is_empty()).count();
                let who = PlayerId::from(m.file_stem().unwrap().to_str().unwrap());
                orders.insert(who, body);
            }
            states.push(st.clone());
            for (p, text) in &orders {
                inputs.push(Input {
                    state: states.len() - 1,
                    player: p.clone(),
                    text: text.clone(),
                });
            }
            engine::run_turn(&Scrambled, &mut st, 1, &orders);
        }
        // A fixture whose mails give no order line checks nothing (the
        // fixtures are CRLF mails: a split on a bare "\n\n" found no body).
        assert!(
            fixture_lines > 0,
            "{}: no order line read from its mails",
            dir.display()
        );
    }
    // Lines the bots never write: every order, French, quotes, comments.
    let hand = [
        "DEPLACER 10 Pays de la Loire -> Centre",
        "déplacer tout \"Pays de la Loire\" vers Centre",
        "CHEMIN 5 LOR -> BAV EVITER",
        "PATH ALL LOR -> BAV DIRECT",
        "PATH 3 LOR → ALS",
        "GIVE TROOPS 5 LOR TO p2",
        "DONNER TROUPES 5 Lorraine à Joueur Numéro 2",
        "GIVE TERRITORY LOR TO p2",
        "donner territoire \"Île-de-France\" a p3",
        "ABANDON Lorraine",
        "ABANDONNER \"Val \\\"d'Aoste\"",
        "TRIBUTE 100 TO p2",
        "TRIBUT tout -> Joueur Numéro 3",
        "CAPITAL LOR",
        "CAPITALE Île-de-France # déménagement",
        "ALLY ALL",
        "ALLIÉ p2",
        "ENNEMI Joueur Numéro 2",
        "CANCEL P1",
        "ANNULER P2.3",
        "CANCEL CAPITAL",
        "READY",
        "prêt",
        "QUIT",
        "TOUR 3",
        "TURN x",
        "PLAYER p1",
        "MOVE 10 \"LOR",
        "FIN",
        "GAME sn PLAYER p1",
    ];
    let hand_state = states.len() - 1;
    for (i, l) in hand.iter().enumerate() {
        let player = states[hand_state].active_players()[i % 2].clone();
        inputs.push(Input {
            state: hand_state,
            player,
            text: l.to_string(),
        });
    }
    (states, inputs)
}

/// The body of a fixture mail: what follows the blank line after the
/// headers, with CRLF line ends (as the fixtures are stored) made LF first.
fn mail_body(raw: &str) -> String {
    let raw = raw.replace("\r\n", "\n");
    raw.split_once("\n\n").map_or("", |(_, b)| b).to_string()
}

/// A small seeded generator (the test must not depend on the RNG streams).
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

const ALPHABET: &[&str] = &[
    "a", "Z", "e", "é", "à", "É", "ç", "0", "1", "7", "9", " ", " ", "\"", "\\", "#", "-", ">",
    "→", "_", "'", ".", "P", "\t", "\u{a0}", "ß", "ﬁ",
];
const WORDS: &[&str] = &[
    "->",
    "TO",
    "à",
    "ALL",
    "tout",
    "AVOID",
    "DIRECT",
    "TROOPS",
    "TERRITORY",
    "CAPITAL",
    "MOVE",
    "PATH",
    "\"\"",
    "#",
    "END",
    "TURN",
    "0",
    "1000000000001",
    "P1.2",
];

/// One to three seeded edits of a line.
fn mutate(line: &str, rng: &mut Lcg) -> String {
    let mut cs: Vec<String> = line.chars().map(|c| c.to_string()).collect();
    for _ in 0..1 + rng.below(4) / 2 {
        let at = rng.below(cs.len() + 1);
        match rng.below(9) {
            0 if !cs.is_empty() => {
                cs.remove(at.min(cs.len() - 1));
            }
            1 => cs.insert(at, ALPHABET[rng.below(ALPHABET.len())].to_string()),
            2 if cs.len() > 1 => {
                let i = at.min(cs.len() - 2);
                cs.swap(i, i + 1);
            }
            3 => {
                for c in cs.iter_mut() {
                    *c = if rng.below(2) == 0 {
                        c.to_lowercase()
                    } else {
                        c.to_uppercase()
                    };
                }
            }
            4 => {
                let i = at.min(cs.len().saturating_sub(1));
                if let Some(c) = cs.get_mut(i) {
                    if c.chars().all(|c| c.is_ascii_digit()) {
                        *c = rng.below(10).to_string();
                    } else {
                        *c = "9".repeat(1 + rng.below(14));
                    }
                }
            }
            5 => cs.insert(at, format!(" {} ", WORDS[rng.below(WORDS.len())])),
            6 => {
                // Drop a word.
                let s: String = cs.concat();
                let ws: Vec<&str> = s.split(' ').collect();
                let k = rng.below(ws.len());
                let kept: Vec<&str> = ws
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != k)
                    .map(|(_, w)| *w)
                    .collect();
                cs = kept.join(" ").chars().map(|c| c.to_string()).collect();
            }
            7 => cs.insert(at, "\"".to_string()),
            _ => cs.insert(at, "  ".to_string()),
        }
    }
    cs.concat()
}

fn strip_column(reason: &str) -> &str {
    match reason.find(" (colonne ") {
        Some(i) if reason.starts_with("syntaxe : ") => &reason[..i],
        _ => match reason.find(" (ouvert colonne ") {
            Some(i) if reason.starts_with("guillemet non fermé") => &reason[..i],
            _ => reason,
        },
    }
}

/// A new reason that says more than the old one names the column and what
/// was expected there.
fn names_column(reason: &str) -> bool {
    reason.contains("colonne") && reason.contains("attendu")
}

/// The corpus and its mutations, as (state, player, text).
fn all_inputs() -> (Vec<State>, Vec<Input>, usize) {
    let (states, mut inputs) = corpus();
    let whole = inputs.len();
    let lines: Vec<(usize, PlayerId, String)> = inputs
        .iter()
        .flat_map(|i| {
            i.text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(move |l| (i.state, i.player.clone(), l.to_string()))
        })
        .collect();
    let mut rng = Lcg(21);
    for _ in 0..MUTATED {
        let (st, p, l) = &lines[rng.below(lines.len())];
        inputs.push(Input {
            state: *st,
            player: p.clone(),
            text: mutate(l, &mut rng),
        });
    }
    (states, inputs, whole)
}

#[test]
fn grammar_differential_same_verdicts_as_the_old_parser() {
    let (states, inputs, whole) = all_inputs();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/grammar_verdicts.txt");
    let fp = testkit_verdicts::fingerprint(
        states.iter().map(|s| serde_json::to_string(s).unwrap()),
        inputs.iter().map(|i| (i.player.as_str(), i.text.as_str())),
    );
    let texts: Vec<&str> = inputs.iter().map(|i| i.text.as_str()).collect();
    let summary = testkit_verdicts::check_recorded(
        &path,
        fp,
        &texts,
        |n| parse(st_of(&states, &inputs[n]), &inputs[n]),
        testkit_verdicts::Reasons {
            strip: strip_column,
            says_more: names_column,
        },
    );
    println!("{whole} blocks and {MUTATED} mutated lines; {summary}");
}

fn st_of<'a>(states: &'a [State], i: &Input) -> &'a State {
    &states[i.state]
}

fn parse(st: &State, i: &Input) -> Parsed<Order> {
    parser::parse(st, &i.player, &i.text)
}

/// The fixtures are CRLF mails: their bodies must reach the parser.
#[test]
fn grammar_differential_crlf_fixture_bodies() {
    let raw = "From: a@b\r\nSubject: orders\r\n\r\nGAME g PLAYER p\r\nEND\r\n";
    assert_eq!(mail_body(raw), "GAME g PLAYER p\nEND\n");
}

/// The parse index of the state (issue 21) changes no verdict: every block
/// and mutated line of the corpus, parsed alone and with the index.
#[test]
fn grammar_differential_parse_index_same_verdicts() {
    let (states, inputs, _) = all_inputs();
    let indexes: Vec<_> = states.iter().map(|s| Scrambled.parse_index(s)).collect();
    assert!(indexes.iter().all(Option::is_some));
    for i in &inputs {
        let st = st_of(&states, i);
        let alone = Scrambled.parse_orders(st, &i.player, &i.text);
        let indexed =
            Scrambled.parse_orders_indexed(st, indexes[i.state].as_ref(), &i.player, &i.text);
        assert_eq!(
            format!("{alone:?}"),
            format!("{indexed:?}"),
            "block {:?}",
            i.text
        );
    }
}

/// Words spliced into plain move lines: the arrow's spellings (some only
/// arrows once folded), names of several words, modes, and words that
/// send the line to the nom grammar.
const MOVE_WORDS: &[&str] = &[
    "->", "→", "TO", "to", "A", "à", "À", "VERS", "Vers", "TO-", "'A", "_a_", "-->", ">", "-",
    "de", "la", "AVOID", "éviter", "DIRECT", "direct", "ALL", "12", "", "\"", "\"A B\"", "#",
    "a\tb",
];

/// A plain move line with one to three words spliced in, replaced or dropped.
fn mutate_words(line: &str, rng: &mut Lcg) -> String {
    let mut ws: Vec<String> = line.split(' ').map(str::to_string).collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(ws.len() + 1);
        let w = MOVE_WORDS[rng.below(MOVE_WORDS.len())].to_string();
        match rng.below(3) {
            0 => ws.insert(at, w),
            1 if at < ws.len() => ws[at] = w,
            _ if at < ws.len() && ws.len() > 1 => {
                ws.remove(at);
            }
            _ => ws.push(w),
        }
    }
    ws.join(" ")
}

/// `grammar::order` and the nom grammar alone read a line alike (the
/// parser's normalised line, its body, its first word).
fn same_shape(line: &str) -> Option<bool> {
    let line = arbitre_core::normalize(line);
    let body = grammar::body(&line).ok()?;
    let first = grammar::words(body).next()?;
    let fast = grammar::order(body, first);
    assert_eq!(fast, grammar::order_nom(body, first), "line {line:?}");
    Some(matches!(
        fast,
        Ok(grammar::Shape::Move { .. } | grammar::Shape::Path { .. })
    ))
}

/// The shortcut `grammar::order` takes for plain `MOVE` and `PATH` lines
/// (issue 21) gives the nom grammar's shape on every line of the corpus,
/// its mutations, and three seeded word splices of each move line.
#[test]
fn grammar_differential_plain_moves_as_nom() {
    let (_, inputs, _) = all_inputs();
    let mut rng = Lcg(2121);
    let (mut lines, mut moves) = (0, 0);
    for i in &inputs {
        for l in i.text.lines() {
            let mut variants = vec![l.to_string()];
            if same_shape(l) == Some(true) {
                variants.extend((0..3).map(|_| mutate_words(l, &mut rng)));
            }
            for v in &variants {
                lines += 1;
                moves += usize::from(same_shape(v) == Some(true));
            }
        }
    }
    println!("{lines} lines, {moves} read as MOVE or PATH");
    assert!(moves > 10_000, "{moves} moves only");
}

/// Lines spliced into the blocks of [`fast_path_reads_what_the_grammar_reads`]:
/// what opens, ends or refuses a block, and the fast path's own lines.
const BLOCK_LINES: &[&str] = &[
    "",
    "END",
    "GAME sn PLAYER p1",
    "TURN 99",
    "# note",
    "> quoted",
    "READY",
    "READY ",
    "ready",
    "MOVE ALL T1 -> T2",
];

/// Quantities around the edges of what the fast path reads.
const QUANTITIES: &[&str] = &[
    "0",
    "1",
    "9",
    "007",
    "10",
    "999999999999",
    "1000000000000",
    "1000000000001",
    "9999999999999",
    "10000000000000",
    "ALL",
    "all",
    "Tout",
];

/// A fast path line's words replaced: its quantity, either territory (any
/// of the world's ids, so the checks refuse some: not a neighbour, a
/// mountain, no troops there; or a neighbour of the origin, so they take
/// most), an id in lower case; a `READY` is made a `MOVE` first.
fn mutate_move(line: &str, st: &State, rng: &mut Lcg) -> String {
    let ids: Vec<&str> = st.world.territories.keys().map(|t| t.as_str()).collect();
    let mut ws: Vec<String> = line.split(' ').map(str::to_string).collect();
    if ws.len() != 5 {
        let from = ids[rng.below(ids.len())];
        ws = ["MOVE", "ALL", from, "->", from]
            .map(str::to_string)
            .to_vec();
    }
    for _ in 0..1 + rng.below(3) {
        match rng.below(6) {
            0 => ws[1] = QUANTITIES[rng.below(QUANTITIES.len())].to_string(),
            1 => ws[2] = ids[rng.below(ids.len())].to_string(),
            2 => ws[4] = ids[rng.below(ids.len())].to_string(),
            3 => {
                let k = [2, 4][rng.below(2)];
                ws[k] = ws[k].to_lowercase();
            }
            _ => {
                if let Some(t) = st.world.territories.get(ws[2].as_str()) {
                    let ns: Vec<&str> = t.neighbours.iter().map(|n| n.as_str()).collect();
                    if !ns.is_empty() {
                        ws[4] = ns[rng.below(ns.len())].to_string();
                    }
                }
            }
        }
    }
    ws.join(" ")
}

/// The one-pass reader of `MOVE` and `READY` lines (`fast_path`, issue 21)
/// reads what the grammar reads: on every line of the corpus, its mutants
/// (the corpus's 100,000, and seeded edits and word splices of each line
/// the fast path reads), each parsed as a block with the fast path on and
/// off, the same orders, warnings, refusals and ready flag; and the same
/// on whole blocks, as written and with lines mutated, spliced in, and
/// ended by `\r\n` or no line end.
#[test]
fn fast_path_reads_what_the_grammar_reads() {
    use arbitre_scrambled::fast_path::{self, Line};
    use arbitre_scrambled::parse_index::Index;
    let (states, inputs, whole) = all_inputs();
    let indexes: Vec<Index> = states.iter().map(|s| Index::build(s).unwrap()).collect();
    let same = |i: &Input, text: &str| {
        let (st, ix) = (&states[i.state], &indexes[i.state]);
        let fast = parser::parse_indexed(st, ix, &i.player, text);
        let grammar = parser::parse_indexed_by_grammar(st, ix, &i.player, text);
        assert_eq!(
            format!("{fast:?}"),
            format!("{grammar:?}"),
            "block {text:?}"
        );
        grammar
    };
    let mut rng = Lcg(2126);
    let (mut lines, mut moves, mut readies, mut handed_back, mut left) = (0, 0, 0, 0, 0);
    let mut warned = 0;
    for i in &inputs {
        let ix = &indexes[i.state];
        for l in i.text.split('\n').filter(|l| !l.is_empty()) {
            let mut variants = vec![l.to_string()];
            if fast_path::read(ix, l).is_some() {
                variants.extend((0..10).map(|_| mutate(l, &mut rng)));
                variants.extend((0..10).map(|_| mutate_words(l, &mut rng)));
                let st = &states[i.state];
                variants.extend((0..30).map(|_| mutate_move(l, st, &mut rng)));
            }
            for v in &variants {
                lines += 1;
                let verdict = same(i, v);
                match fast_path::read(ix, v) {
                    None => left += 1,
                    // A move the checks refuse goes back to the grammar.
                    Some(_) if verdict.error_count() > 0 => handed_back += 1,
                    Some((Line::Ready, _)) => readies += 1,
                    Some((Line::Move { .. }, _)) => {
                        moves += 1;
                        warned += usize::from(!verdict.diagnostics.is_empty());
                    }
                }
            }
        }
    }
    // Whole blocks, as written and mutated.
    let mut blocks = 0;
    for i in &inputs[..whole] {
        same(i, &i.text);
        blocks += 1;
        for _ in 0..4 {
            let mut ls: Vec<String> = i.text.lines().map(str::to_string).collect();
            for l in ls.iter_mut() {
                match rng.below(6) {
                    0 => *l = mutate(l, &mut rng),
                    1 => *l = mutate_words(l, &mut rng),
                    _ => {}
                }
            }
            for _ in 0..rng.below(3) {
                let at = rng.below(ls.len() + 1);
                ls.insert(at, BLOCK_LINES[rng.below(BLOCK_LINES.len())].to_string());
            }
            let sep = if rng.below(4) == 0 { "\r\n" } else { "\n" };
            let mut text = ls.join(sep);
            if rng.below(2) == 0 {
                text.push_str(sep);
            }
            same(i, &text);
            blocks += 1;
        }
    }
    println!(
        "fast path: {lines} lines, {moves} moves ({warned} with a warning) and {readies} READY read, {handed_back} read and handed back to the grammar's refusal, {left} left to the grammar; {blocks} blocks; 0 differences"
    );
    assert!(lines >= MUTATED, "{lines} lines only");
    assert!(
        moves > 5_000 && warned > 500 && readies > 300 && handed_back > 5_000,
        "the fast path read too little"
    );
    assert!(left > 50_000, "{left} lines left to the grammar only");
}
