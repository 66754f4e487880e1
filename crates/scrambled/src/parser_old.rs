//! The mail order notation (spec §6.2–§6.5): one order per line.
//!
//! Keywords are the specification's English ones, with French synonyms
//! (`DEPLACER`, `CHEMIN`, `DONNER TROUPES`…) since the game is played in French;
//! case and accents never matter. Names resolve by id, then exact name, then
//! folded name (§6.3). The parser never stops at a bad line and never panics:
//! each bad line gets a diagnostic in French and the rest of the set stands
//! (D34). Orders that are invalid in themselves (unknown name, not adjacent,
//! mountain, gift to oneself) are rejected here; orders that may become valid
//! or invalid during the resolution are kept, with a warning when a correction
//! can be foreseen.

use crate::orders::{Order, Qty, Target};
use crate::state::{Mark, State};
use crate::world::{fold, Lookup, NameTable, TerrId, Terrain};
use arbitre_core::{normalize_line, Parsed, PlayerId};

/// Splits a line into tokens; quotes group words, `#` outside quotes starts a comment.
pub fn tokenize(line: &str) -> Result<Vec<String>, String> {
    let mut toks = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    let mut in_tok = false;
    while let Some(c) = chars.next() {
        match c {
            '#' => break,
            '"' => {
                let mut q = String::new();
                let mut closed = false;
                while let Some(d) = chars.next() {
                    match d {
                        '\\' => {
                            if let Some(e) = chars.next() {
                                q.push(e);
                            }
                        }
                        '"' => {
                            closed = true;
                            break;
                        }
                        _ => q.push(d),
                    }
                }
                if !closed {
                    return Err("guillemet non fermé".into());
                }
                cur.push_str(&q);
                in_tok = true;
            }
            ' ' | '\t' => {
                if in_tok {
                    toks.push(std::mem::take(&mut cur));
                    in_tok = false;
                }
            }
            _ => {
                cur.push(c);
                in_tok = true;
            }
        }
    }
    if in_tok {
        toks.push(cur);
    }
    Ok(toks)
}

/// The keyword a token stands for (English or French, any case or accent),
/// or `""` for any other token: the parser only ever compares the result
/// with the English keywords below, so returning a constant spares an
/// allocation per token (parse speed, issue 9).
fn kw(tok: &str) -> &'static str {
    // A token of plain ASCII letters and digits folds to its upper case:
    // done on the stack. Anything else (accents, `-`, quotes) goes through
    // `fold`, which the fast path agrees with.
    let mut buf = [0u8; 16];
    let slow;
    let f: &str = if tok.len() <= buf.len() && tok.bytes().all(|b| b.is_ascii_alphanumeric()) {
        for (d, b) in buf.iter_mut().zip(tok.bytes()) {
            *d = b.to_ascii_uppercase();
        }
        std::str::from_utf8(&buf[..tok.len()]).unwrap_or("")
    } else {
        slow = fold(tok).to_uppercase();
        &slow
    };
    match f {
        "QUIT" | "QUITTER" => "QUIT",
        "READY" | "PRET" | "PRETE" => "READY",
        "GIVE" | "DONNER" => "GIVE",
        "TROOPS" | "TROUPES" => "TROOPS",
        "TERRITORY" | "TERRITOIRE" => "TERRITORY",
        "ABANDON" | "ABANDONNER" => "ABANDON",
        "MOVE" | "DEPLACER" => "MOVE",
        "PATH" | "CHEMIN" => "PATH",
        "AVOID" | "EVITER" => "AVOID",
        "DIRECT" => "DIRECT",
        "TRIBUTE" | "TRIBUT" => "TRIBUTE",
        "CAPITAL" | "CAPITALE" => "CAPITAL",
        "ALLY" | "ALLIE" => "ALLY",
        "ENEMY" | "ENNEMI" => "ENEMY",
        "CANCEL" | "ANNULER" => "CANCEL",
        "ALL" | "TOUT" | "TOUS" | "TOUTES" => "ALL",
        "TO" | "A" | "VERS" | "->" | "→" => "TO",
        _ => "",
    }
}

fn is_arrow(tok: &str) -> bool {
    tok == "->" || tok == "→" || kw(tok) == "TO"
}

struct Ctx<'a> {
    state: &'a State,
    me: &'a PlayerId,
    /// The players' names for §6.3, built on the first player reference of
    /// the block (most blocks name none).
    players: std::cell::OnceCell<NameTable<PlayerId>>,
}

impl Ctx<'_> {
    fn terr(&self, s: &str) -> Result<TerrId, String> {
        match self.state.world.lookup(s) {
            Lookup::Found(t) => Ok(t),
            Lookup::Ambiguous => Err(format!("nom de territoire ambigu « {s} »")),
            Lookup::Unknown => Err(format!("territoire inconnu « {s} »")),
        }
    }

    fn player(&self, s: &str) -> Result<PlayerId, String> {
        let table = self.players.get_or_init(|| {
            NameTable::new(
                self.state
                    .players
                    .values()
                    .map(|p| (p.id.clone(), p.id.0.clone(), p.name.clone())),
            )
        });
        match table.lookup(s) {
            Lookup::Found(p) => Ok(p),
            Lookup::Ambiguous => Err(format!("nom de joueur ambigu « {s} »")),
            Lookup::Unknown => Err(format!("joueur inconnu « {s} »")),
        }
    }

    /// Another player who is still in the game.
    fn other_active(&self, s: &str) -> Result<PlayerId, String> {
        let p = self.player(s)?;
        if &p == self.me {
            return Err("vous ne pouvez pas vous désigner vous-même".into());
        }
        if !self.state.players[&p].active() {
            return Err(format!("{} n'est plus en jeu", self.state.player_name(&p)));
        }
        Ok(p)
    }

    fn land(&self, s: &str) -> Result<TerrId, String> {
        let t = self.terr(s)?;
        if self.state.world.get(&t).map(|x| x.terrain) != Some(Terrain::Land) {
            return Err(format!(
                "{} n'est pas un territoire terrestre",
                self.state.tname(&t)
            ));
        }
        Ok(t)
    }
}

fn qty(tok: &str) -> Result<Qty, String> {
    if kw(tok) == "ALL" {
        return Ok(Qty::All);
    }
    if !tok.chars().all(|c| c.is_ascii_digit()) || tok.is_empty() {
        return Err(format!("quantité illisible « {tok} »"));
    }
    match tok.parse::<u64>() {
        Ok(n) if (1..=1_000_000_000_000).contains(&n) => Ok(Qty::N(n)),
        _ => Err(format!("quantité hors limites « {tok} » (de 1 à 10^12)")),
    }
}

/// What one line gave: an order, maybe with a warning.
type LineResult = Result<(Order, Option<String>), String>;

/// Names with spaces may be written without quotes (`MOVE 10 Pays de la Loire
/// -> CEN`): the words between two fixed parts of an order are joined into one
/// name, the arrow (or `TO`) marking where a name ends.
fn merge_names(toks: &[String]) -> Vec<String> {
    let join = |s: &[String]| s.join(" ");
    let arrow_after = |from: usize| (from..toks.len()).find(|&i| is_arrow(&toks[i]));
    let n = toks.len();
    let k0 = kw(&toks[0]);
    let k1 = toks.get(1).map(|t| kw(t)).unwrap_or_default();
    match k0 {
        "MOVE" | "PATH" if n > 5 => match arrow_after(3) {
            Some(i) => {
                let mut rest: Vec<String> = toks[i + 1..].to_vec();
                let mode = match rest.last().map(|t| kw(t)) {
                    Some(m)
                        if k0 == "PATH" && rest.len() > 1 && (m == "AVOID" || m == "DIRECT") =>
                    {
                        rest.pop()
                    }
                    _ => None,
                };
                let mut v = vec![
                    toks[0].clone(),
                    toks[1].clone(),
                    join(&toks[2..i]),
                    toks[i].clone(),
                    join(&rest),
                ];
                v.extend(mode);
                v
            }
            None => toks.to_vec(),
        },
        "GIVE" if k1 == "TROOPS" && n > 6 => match arrow_after(4) {
            Some(i) => vec![
                toks[0].clone(),
                toks[1].clone(),
                toks[2].clone(),
                join(&toks[3..i]),
                toks[i].clone(),
                join(&toks[i + 1..]),
            ],
            None => toks.to_vec(),
        },
        "GIVE" if k1 == "TERRITORY" && n > 5 => match arrow_after(3) {
            Some(i) => vec![
                toks[0].clone(),
                toks[1].clone(),
                join(&toks[2..i]),
                toks[i].clone(),
                join(&toks[i + 1..]),
            ],
            None => toks.to_vec(),
        },
        "TRIBUTE" if n > 4 && is_arrow(&toks[2]) => {
            vec![
                toks[0].clone(),
                toks[1].clone(),
                toks[2].clone(),
                join(&toks[3..]),
            ]
        }
        "ABANDON" | "CAPITAL" | "ALLY" | "ENEMY" if n > 2 => {
            vec![toks[0].clone(), join(&toks[1..])]
        }
        _ => toks.to_vec(),
    }
}

fn parse_order(cx: &Ctx<'_>, toks: &[String]) -> LineResult {
    let merged = merge_names(toks);
    let toks = merged.as_slice();
    let k: Vec<&str> = toks.iter().map(|t| kw(t)).collect();
    let n = toks.len();
    let usage = |u: &str| Err(format!("syntaxe : {u}"));
    match k[0] {
        "QUIT" if n == 1 => Ok((Order::Quit, None)),
        "QUIT" => usage("QUIT"),
        "READY" if n == 1 => Ok((Order::Ready, None)),
        "READY" => usage("READY"),
        "GIVE" if n >= 2 && k[1] == "TROOPS" => {
            if n != 6 || !is_arrow(&toks[4]) {
                return usage("GIVE TROOPS <nombre|ALL> <territoire> TO <joueur>");
            }
            let q = qty(&toks[2])?;
            let terr = cx.terr(&toks[3])?;
            let to = cx.other_active(&toks[5])?;
            let have = cx.state.terr(&terr).troops_of(cx.me);
            if have == 0 {
                return Err(format!(
                    "vous n'avez pas de troupes en {}",
                    cx.state.tname(&terr)
                ));
            }
            let warn = match q {
                Qty::N(x) if x > have => Some(format!(
                    "vous n'avez que {have} troupes en {} : {have} seront données",
                    cx.state.tname(&terr)
                )),
                _ => None,
            };
            Ok((Order::GiveTroops { qty: q, terr, to }, warn))
        }
        "GIVE" if n >= 2 && k[1] == "TERRITORY" => {
            if n != 5 || !is_arrow(&toks[3]) {
                return usage("GIVE TERRITORY <territoire> TO <joueur>");
            }
            let terr = cx.land(&toks[2])?;
            let to = cx.other_active(&toks[4])?;
            let warn = (cx.state.owner(&terr) != Some(cx.me)).then(|| {
                format!(
                    "{} ne vous appartient pas actuellement",
                    cx.state.tname(&terr)
                )
            });
            Ok((Order::GiveTerritory { terr, to }, warn))
        }
        "GIVE" => usage("GIVE TROOPS … ou GIVE TERRITORY …"),
        "ABANDON" => {
            if n != 2 {
                return usage("ABANDON <territoire>");
            }
            let terr = cx.land(&toks[1])?;
            let warn = (cx.state.owner(&terr) != Some(cx.me)).then(|| {
                format!(
                    "{} ne vous appartient pas actuellement",
                    cx.state.tname(&terr)
                )
            });
            Ok((Order::Abandon { terr }, warn))
        }
        "MOVE" | "PATH" => {
            let path = k[0] == "PATH";
            let ok_len = if path { n == 5 || n == 6 } else { n == 5 };
            if !ok_len || !is_arrow(&toks[3]) {
                return if path {
                    usage("PATH <nombre|ALL> <de> -> <vers> [AVOID|DIRECT]")
                } else {
                    usage("MOVE <nombre|ALL> <de> -> <vers>")
                };
            }
            let q = qty(&toks[1])?;
            let from = cx.terr(&toks[2])?;
            let to = cx.terr(&toks[4])?;
            let w = &cx.state.world;
            if !w.passable(&to) {
                return Err(format!(
                    "{} est une montagne infranchissable",
                    cx.state.tname(&to)
                ));
            }
            if !w.passable(&from) {
                return Err(format!(
                    "{} est une montagne infranchissable",
                    cx.state.tname(&from)
                ));
            }
            let have = cx.state.terr(&from).troops_of(cx.me);
            if have == 0 {
                return Err(format!(
                    "vous n'avez pas de troupes en {}",
                    cx.state.tname(&from)
                ));
            }
            let mut warn = match q {
                Qty::N(x) if x > have => Some(format!(
                    "seulement {have} troupes en {} : correction automatique",
                    cx.state.tname(&from)
                )),
                _ => None,
            };
            if !path {
                if !w.can_step(&from, &to) {
                    return Err(format!(
                        "{} n'est pas voisin de {}",
                        cx.state.tname(&to),
                        cx.state.tname(&from)
                    ));
                }
                // The retreat rule is judged at the resolution (a diplomacy
                // line of the same set may change it); warn now if it bites.
                if !crate::movement::retreat_allows(
                    cx.state,
                    &cx.state.territories,
                    cx.me,
                    &from,
                    &to,
                ) {
                    let w = format!(
                        "sans suprématie en {}, ce déplacement sera refusé (repli seulement vers vos territoires, un territoire vide, un territoire où vous avez la suprématie ou celui d'un allié)",
                        cx.state.tname(&from)
                    );
                    warn = Some(match warn {
                        Some(x) => format!("{x} ; {w}"),
                        None => w,
                    });
                }
                return Ok((Order::Move { qty: q, from, to }, warn));
            }
            let avoid = match k.get(5).copied() {
                None | Some("AVOID") => true,
                Some("DIRECT") => false,
                Some(_) => return usage("PATH <nombre|ALL> <de> -> <vers> [AVOID|DIRECT]"),
            };
            if from == to {
                return Err("départ et arrivée identiques".into());
            }
            match crate::movement::plan_route(cx.state, cx.me, &from, &to, avoid) {
                None => Err(format!(
                    "aucun chemin de {} à {}",
                    cx.state.tname(&from),
                    cx.state.tname(&to)
                )),
                Some(route) => {
                    let ids: Vec<&str> = route.iter().map(|t| t.as_str()).collect();
                    let preview = format!("trajet {} ({} tours)", ids.join(" > "), route.len() - 1);
                    warn = Some(match warn {
                        Some(w) => format!("{w} ; {preview}"),
                        None => preview,
                    });
                    Ok((
                        Order::Path {
                            qty: q,
                            from,
                            to,
                            avoid,
                        },
                        warn,
                    ))
                }
            }
        }
        "TRIBUTE" => {
            if n != 4 || !is_arrow(&toks[2]) {
                return usage("TRIBUTE <montant|ALL> TO <joueur>");
            }
            let q = qty(&toks[1])?;
            let to = cx.other_active(&toks[3])?;
            Ok((Order::Tribute { qty: q, to }, None))
        }
        "CAPITAL" => {
            if n != 2 {
                return usage("CAPITAL <territoire>");
            }
            let terr = cx.land(&toks[1])?;
            let due = cx.state.turn + 2;
            let warn = format!(
                "déménagement effectif à la résolution du tour {due}, seulement si {} est encore à vous",
                cx.state.tname(&terr)
            );
            Ok((Order::Capital { terr }, Some(warn)))
        }
        "ALLY" | "ENEMY" => {
            if n != 2 {
                return usage("ALLY <joueur|ALL> ou ENEMY <joueur|ALL>");
            }
            let mark = if k[0] == "ALLY" {
                Mark::Ally
            } else {
                Mark::Enemy
            };
            let target = if k[1] == "ALL" {
                Target::All
            } else {
                let p = cx.player(&toks[1])?;
                if &p == cx.me {
                    return Err("vous ne pouvez pas vous marquer vous-même".into());
                }
                Target::Player(p)
            };
            Ok((Order::Diplomacy { target, mark }, None))
        }
        "CANCEL" => {
            if n != 2 {
                return usage("CANCEL P<n>[.<étape>] ou CANCEL CAPITAL");
            }
            if k[1] == "CAPITAL" {
                return Ok((Order::CancelCapital, None));
            }
            let s = toks[1].to_ascii_uppercase();
            let body = s
                .strip_prefix('P')
                .ok_or("référence de chemin attendue (P7, P7.2)")?;
            let (c, st) = match body.split_once('.') {
                Some((c, st)) => (c, Some(st)),
                None => (body, None),
            };
            let chain: u32 = c
                .parse()
                .map_err(|_| format!("référence de chemin illisible « {} »", toks[1]))?;
            let step: Option<usize> = match st {
                Some(x) => Some(
                    x.parse()
                        .map_err(|_| format!("étape illisible « {} »", toks[1]))?,
                ),
                None => None,
            };
            let Some(ch) = cx
                .state
                .chains
                .iter()
                .find(|ch| ch.number == chain && &ch.player == cx.me)
            else {
                return Err(format!("vous n'avez pas de chemin P{chain} en cours"));
            };
            if let Some(i) = step {
                if i <= ch.next || i >= ch.route.len() {
                    return Err(format!("P{chain}.{i} n'est pas une étape à venir"));
                }
            }
            Ok((Order::CancelChain { chain, step }, None))
        }
        _ => Err(format!("ordre inconnu « {} »", toks[0])),
    }
}

fn is_header(k: &str) -> bool {
    matches!(
        k,
        "PLAYER" | "JOUEUR" | "TURN" | "TOUR" | "PASSWORD" | "MOT-DE-PASSE"
    )
}

/// Parse one player's order block.
pub fn parse(state: &State, me: &PlayerId, text: &str) -> Parsed<Order> {
    let mut out = Parsed::new();
    out.ready = false;
    let cx = Ctx {
        state,
        me,
        players: std::cell::OnceCell::new(),
    };
    if !state.players.get(me).map(|p| p.active()).unwrap_or(false) {
        if let Some((no, l)) = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, normalize_line(l)))
            .find(|(_, l)| !l.is_empty())
        {
            out.error(no, l, "vous n'êtes plus en jeu");
        }
        return out;
    }
    let lines: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, normalize_line(l)))
        .collect();
    // Text before a GAME line (a mail envelope left in) is ignored (§6.1).
    let start = lines
        .iter()
        .position(|(_, l)| {
            let first = l.split(' ').next().unwrap_or("").to_uppercase();
            first == "GAME" || first == "PARTIE"
        })
        .map(|i| i + 1)
        .unwrap_or(0);
    for (no, line) in &lines[start..] {
        let (no, line) = (*no, line.as_str());
        if line.is_empty() || line.starts_with('>') || line.starts_with('#') {
            continue;
        }
        let toks = match tokenize(line) {
            Ok(t) => t,
            Err(e) => {
                out.error(no, line, e);
                continue;
            }
        };
        if toks.is_empty() {
            continue;
        }
        let first = toks[0].to_uppercase();
        if first == "END" || first == "FIN" {
            break;
        }
        if first == "TURN" || first == "TOUR" {
            // A TURN line left in the block must name the open turn (§6.1).
            let open = state.turn + 1;
            match toks.get(1).and_then(|t| t.parse::<u32>().ok()) {
                Some(t) if t == open => {}
                Some(t) => out.error(
                    no,
                    line,
                    format!("ordres pour le tour {t}, mais le tour ouvert est le {open}"),
                ),
                None => out.error(no, line, "numéro de tour illisible"),
            }
            continue;
        }
        if is_header(&first) {
            continue;
        }
        match parse_order(&cx, &toks) {
            Ok((order, warn)) => {
                if order == Order::Ready {
                    out.ready = true;
                }
                out.push(no, line, order);
                if let Some(w) = warn {
                    out.warn(no, line, w);
                }
            }
            Err(e) => out.error(no, line, e),
        }
    }
    out
}
