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
//!
//! A check at receipt sees the whole set (issue 17 item 8): a `PATH … AVOID`
//! is routed with the diplomacy marks the set's own `ALLY`/`ENEMY` lines
//! give, as R0 does (§3.1 steps 2 and 4), so an `ALLY` line that opens the
//! route is counted wherever it stands in the set; only a route that does
//! not exist under those marks is refused ("aucun chemin", §5.1).
//!
//! An indexed parse (the turn's) offers each line to [`crate::fast_path`]
//! first, which reads the bots' `MOVE` and `READY` lines in one pass; the
//! order it reads goes through the same checks as the grammar's, and a
//! line it does not read, or whose move the checks refuse, is read here as
//! before ([`parse_indexed_by_grammar`] never asks it, for the tests).

use crate::fast_path::{self, Line};
use crate::grammar::{self, Kw, Refusal, Shape};
use crate::line_scan::{block_lines, BlockLines};
use crate::orders::{Order, Qty, Target};
use crate::parse_index::Index;
use crate::state::{Mark, State, TerrState};
use crate::world::{Lookup, NameTable, TerrId, Terrain, Territory};
use arbitre_core::text::lines;
use arbitre_core::{normalize, Parsed, PlayerId};
use std::borrow::Cow;
use std::collections::BTreeMap;

struct Ctx<'a> {
    state: &'a State,
    /// The state's [`Index`], when the caller built one.
    index: Option<&'a Index>,
    me: &'a PlayerId,
    /// The players' names for §6.3, built on the first player reference of
    /// the block (most blocks name none).
    players: std::cell::OnceCell<NameTable<PlayerId>>,
    /// The block, and the index of its first order line (after its GAME
    /// line), for the marks below.
    text: &'a str,
    start: usize,
    /// The sender's marks once the set's `ALLY`/`ENEMY` lines are applied
    /// in the order written (R0 step 2), found on the first `PATH … AVOID`
    /// (most blocks have none); a player absent keeps the state's mark.
    set_marks: std::cell::OnceCell<BTreeMap<PlayerId, Mark>>,
}

impl<'a> Ctx<'a> {
    /// The mark `me` will hold toward `other` at R0 of this resolution.
    fn mark_at_freeze(&self, other: &PlayerId) -> Mark {
        let marks = self.set_marks.get_or_init(|| self.marks_of_set());
        marks
            .get(other)
            .copied()
            .unwrap_or_else(|| self.state.mark(self.me, other))
    }

    /// R0 step 2 on the set: every well-formed diplomacy line, in order.
    fn marks_of_set(&self) -> BTreeMap<PlayerId, Mark> {
        let mut marks = BTreeMap::new();
        for line in lines(self.text).skip(self.start).map(normalize) {
            let line: &str = &line;
            if line.starts_with('>') {
                continue;
            }
            let Some(first) = grammar::body(line)
                .ok()
                .and_then(|b| grammar::words(b).next())
            else {
                continue;
            };
            let text = grammar::text(first);
            if matches!(header(&text), Some("END" | "FIN")) {
                break;
            }
            if !matches!(grammar::keyword(&text), Some(Kw::Ally | Kw::Enemy)) {
                continue;
            }
            let Ok(body) = grammar::body(line) else {
                continue;
            };
            let Ok(shape) = grammar::order(body, first) else {
                continue;
            };
            if let Ok((Order::Diplomacy { target, mark }, _)) = check(self, shape, false) {
                match target {
                    Target::All => {
                        for q in self.state.players.keys().filter(|q| *q != self.me) {
                            marks.insert(q.clone(), mark);
                        }
                    }
                    Target::Player(q) => {
                        marks.insert(q, mark);
                    }
                }
            }
        }
        marks
    }

    /// [`Ctx::terr`] with where its terrain, neighbours and state are read
    /// (the index's row, or the world's territory), looked up once.
    fn terr_found(&self, s: &str) -> Result<Spot<'a>, String> {
        let found = match self.index {
            Some(ix) => match ix.by_id(s) {
                Some(i) => Lookup::Found(Spot {
                    id: ix.row(i).id.clone(),
                    at: At::Row(ix, i),
                }),
                // Stages 2 and 3 (names) through the world's name table.
                None => match self.state.world.lookup(s) {
                    Lookup::Found(id) => {
                        let at = match ix.by_id(id.as_str()) {
                            Some(i) => At::Row(ix, i),
                            None => At::World(self.state.world.get(&id)),
                        };
                        Lookup::Found(Spot { id, at })
                    }
                    Lookup::Ambiguous => Lookup::Ambiguous,
                    Lookup::Unknown => Lookup::Unknown,
                },
            },
            None => match self.state.world.find(s) {
                Lookup::Found((id, t)) => Lookup::Found(Spot {
                    id,
                    at: At::World(t),
                }),
                Lookup::Ambiguous => Lookup::Ambiguous,
                Lookup::Unknown => Lookup::Unknown,
            },
        };
        match found {
            Lookup::Found(t) => Ok(t),
            Lookup::Ambiguous => Err(format!("nom de territoire ambigu « {s} »")),
            Lookup::Unknown => Err(format!("territoire inconnu « {s} »")),
        }
    }

    /// The territory's state at receipt.
    fn terr_state(&self, t: &Spot<'a>) -> &'a TerrState {
        match &t.at {
            At::Row(ix, i) => match &ix.row(*i).state {
                Some(s) => s,
                None => self.state.terr(&t.id),
            },
            At::World(_) => self.state.terr(&t.id),
        }
    }

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

/// A territory named in an order, and where the parser reads it.
struct Spot<'a> {
    id: TerrId,
    at: At<'a>,
}

enum At<'a> {
    Row(&'a Index, u32),
    World(Option<&'a Territory>),
}

impl Spot<'_> {
    fn passable(&self) -> bool {
        match &self.at {
            At::Row(ix, i) => ix.row(*i).terrain.passable(),
            At::World(t) => t.is_some_and(|t| t.terrain.passable()),
        }
    }

    /// `to` is a neighbour of this territory.
    fn borders(&self, to: &Spot<'_>) -> bool {
        match (&self.at, &to.at) {
            (At::Row(ix, a), At::Row(_, b)) => ix.adjacent(*a, *b),
            // A territory the index lacks is not in the world: no
            // territory's neighbour (never met, every id the world finds
            // has its row).
            (At::Row(..), At::World(_)) => false,
            (At::World(t), _) => t.is_some_and(|t| t.neighbours.contains(&to.id)),
        }
    }
}

fn qty(tok: &str) -> Result<Qty, String> {
    // A number (the usual quantity) is no keyword: not folded to find out.
    let digits = !tok.is_empty() && tok.bytes().all(|b| b.is_ascii_digit());
    if !digits && grammar::keyword(tok) == Some(Kw::All) {
        return Ok(Qty::All);
    }
    if !digits {
        return Err(format!("quantité illisible « {tok} »"));
    }
    // Read by hand, where `str::parse` checked each digit again and the
    // overflow of each step: past the limit the value only needs to stay
    // past it, so it stops growing there (leading zeros read as `parse`
    // reads them).
    const LIMIT: u64 = 1_000_000_000_000;
    let n = tok
        .bytes()
        .fold(0u64, |n, b| (n * 10 + u64::from(b - b'0')).min(LIMIT + 1));
    if (1..=LIMIT).contains(&n) {
        Ok(Qty::N(n))
    } else {
        Err(format!("quantité hors limites « {tok} » (de 1 à 10^12)"))
    }
}

/// [`grammar::text`], or the word itself on a line without quote.
fn text_of(word: &str, plain: bool) -> Cow<'_, str> {
    if plain {
        Cow::Borrowed(word)
    } else {
        grammar::text(word)
    }
}

/// [`grammar::name`], or the run itself on a line without quote.
fn name_of(run: &str, plain: bool) -> Cow<'_, str> {
    if plain {
        Cow::Borrowed(run)
    } else {
        grammar::name(run)
    }
}

/// What one line gave: an order, maybe with a warning.
type LineResult = Result<(Order, Option<String>), String>;

/// The order a well-formed line gives, checked against the state: unknown
/// names, mountains, neighbours, foreseeable corrections (§6.3–§6.5).
/// `plain`: the line holds no quote, so its words and names are their own
/// text (their quote scans were a twentieth of a parse, issue 21).
fn check(cx: &Ctx<'_>, shape: Shape<'_>, plain: bool) -> LineResult {
    let name = |run| name_of(run, plain);
    let text = |word| text_of(word, plain);
    let warn_not_yours = |terr: &TerrId| {
        (cx.state.owner(terr) != Some(cx.me)).then(|| {
            format!(
                "{} ne vous appartient pas actuellement",
                cx.state.tname(terr)
            )
        })
    };
    match shape {
        Shape::Quit => Ok((Order::Quit, None)),
        Shape::Ready => Ok((Order::Ready, None)),
        Shape::GiveTroops { qty: q, terr, to } => {
            let q = qty(&text(q))?;
            let terr = cx.terr(&name(terr))?;
            let to = cx.other_active(&name(to))?;
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
        Shape::GiveTerritory { terr, to } => {
            let terr = cx.land(&name(terr))?;
            let to = cx.other_active(&name(to))?;
            let warn = warn_not_yours(&terr);
            Ok((Order::GiveTerritory { terr, to }, warn))
        }
        Shape::Abandon(terr) => {
            let terr = cx.land(&name(terr))?;
            let warn = warn_not_yours(&terr);
            Ok((Order::Abandon { terr }, warn))
        }
        Shape::Move { qty: q, from, to } => moving(cx, q, from, to, None, plain),
        Shape::Path {
            qty: q,
            from,
            to,
            avoid,
        } => moving(cx, q, from, to, Some(avoid.unwrap_or(true)), plain),
        Shape::Tribute { qty: q, to } => {
            let q = qty(&text(q))?;
            let to = cx.other_active(&name(to))?;
            Ok((Order::Tribute { qty: q, to }, None))
        }
        Shape::Capital(terr) => {
            let terr = cx.land(&name(terr))?;
            let due = cx.state.turn + 2;
            let warn = format!(
                "déménagement effectif à la résolution du tour {due}, seulement si {} est encore à vous",
                cx.state.tname(&terr)
            );
            Ok((Order::Capital { terr }, Some(warn)))
        }
        Shape::Ally(who) | Shape::Enemy(who) => {
            let mark = if matches!(shape, Shape::Ally(_)) {
                Mark::Ally
            } else {
                Mark::Enemy
            };
            let who = name(who);
            let target = if grammar::keyword(&who) == Some(Kw::All) {
                Target::All
            } else {
                let p = cx.player(&who)?;
                if &p == cx.me {
                    return Err("vous ne pouvez pas vous marquer vous-même".into());
                }
                Target::Player(p)
            };
            Ok((Order::Diplomacy { target, mark }, None))
        }
        Shape::Cancel(what) => cancel(cx, &text(what)),
    }
}

/// MOVE (`avoid` None) and PATH (`avoid` Some): the shared checks, then each
/// its own (neighbour and retreat rule; a route).
fn moving(
    cx: &Ctx<'_>,
    q: &str,
    from: &str,
    to: &str,
    avoid: Option<bool>,
    plain: bool,
) -> LineResult {
    let q = qty(&text_of(q, plain))?;
    // Each territory is looked up once (issue 21 item 4): its terrain and
    // neighbours serve every check below.
    let from = cx.terr_found(&name_of(from, plain))?;
    let to = cx.terr_found(&name_of(to, plain))?;
    moving_found(cx, q, from, to, avoid)
}

/// [`moving`] once the quantity is read and both territories found: the
/// checks that [`crate::fast_path`]'s moves share with the grammar's.
fn moving_found<'a>(
    cx: &Ctx<'a>,
    q: Qty,
    from: Spot<'a>,
    to: Spot<'a>,
    avoid: Option<bool>,
) -> LineResult {
    if !to.passable() {
        return Err(format!(
            "{} est une montagne infranchissable",
            cx.state.tname(&to.id)
        ));
    }
    if !from.passable() {
        return Err(format!(
            "{} est une montagne infranchissable",
            cx.state.tname(&from.id)
        ));
    }
    let s_from = cx.terr_state(&from);
    let have = s_from.troops_of(cx.me);
    if have == 0 {
        return Err(format!(
            "vous n'avez pas de troupes en {}",
            cx.state.tname(&from.id)
        ));
    }
    let mut warn = match q {
        Qty::N(x) if x > have => Some(format!(
            "seulement {have} troupes en {} : correction automatique",
            cx.state.tname(&from.id)
        )),
        _ => None,
    };
    let Some(avoid) = avoid else {
        // Both are passable here: World::can_step reduces to the neighbours.
        if !from.borders(&to) {
            return Err(format!(
                "{} n'est pas voisin de {}",
                cx.state.tname(&to.id),
                cx.state.tname(&from.id)
            ));
        }
        // The retreat rule is judged at the resolution (a diplomacy line of
        // the same set may change it); warn now if it bites.
        if !crate::movement::retreat_allows_at(cx.state, cx.me, s_from, || cx.terr_state(&to)) {
            let w = format!(
                "sans suprématie en {}, ce déplacement sera refusé (repli seulement vers vos territoires, un territoire vide, un territoire où vous avez la suprématie ou celui d'un allié)",
                cx.state.tname(&from.id)
            );
            warn = Some(match warn {
                Some(x) => format!("{x} ; {w}"),
                None => w,
            });
        }
        return Ok((
            Order::Move {
                qty: q,
                from: from.id,
                to: to.id,
            },
            warn,
        ));
    };
    let (from, to) = (from.id, to.id);
    if from == to {
        return Err("départ et arrivée identiques".into());
    }
    let mark = |o: &PlayerId| cx.mark_at_freeze(o);
    match crate::movement::plan_route_with(cx.state, cx.me, &from, &to, avoid, &mark) {
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

/// CANCEL CAPITAL, or CANCEL P<n>[.<step>] of one of the player's chains.
fn cancel(cx: &Ctx<'_>, what: &str) -> LineResult {
    if grammar::keyword(what) == Some(Kw::Capital) {
        return Ok((Order::CancelCapital, None));
    }
    let s = what.to_ascii_uppercase();
    let body = s
        .strip_prefix('P')
        .ok_or("référence de chemin attendue (P7, P7.2)")?;
    let (c, st) = match body.split_once('.') {
        Some((c, st)) => (c, Some(st)),
        None => (body, None),
    };
    let chain: u32 = c
        .parse()
        .map_err(|_| format!("référence de chemin illisible « {what} »"))?;
    let step: Option<usize> = match st {
        Some(x) => Some(
            x.parse()
                .map_err(|_| format!("étape illisible « {what} »"))?,
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

/// `s.to_uppercase() == upper`, without building the upper-cased copy.
/// `upper` is ASCII; an ASCII word compares byte by byte, any other goes
/// through Unicode upper case (`ı` and `ﬁ` upper-case to ASCII letters).
fn upper_is(s: &str, upper: &str) -> bool {
    if s.is_ascii() {
        s.eq_ignore_ascii_case(upper)
    } else {
        s.chars().flat_map(char::to_uppercase).eq(upper.chars())
    }
}

/// The header keyword `s` upper-cases to, if any.
fn header(s: &str) -> Option<&'static str> {
    const HEADERS: [&str; 8] = [
        "END",
        "FIN",
        "PLAYER",
        "JOUEUR",
        "TURN",
        "TOUR",
        "PASSWORD",
        "MOT-DE-PASSE",
    ];
    // Every line's first word is asked: an ASCII word is checked once for
    // ASCII, not once per header (issue 21 item 4).
    if s.is_ascii() {
        return HEADERS.into_iter().find(|h| s.eq_ignore_ascii_case(h));
    }
    HEADERS.into_iter().find(|h| upper_is(s, h))
}

/// Parse one player's order block.
pub fn parse(state: &State, me: &PlayerId, text: &str) -> Parsed<Order> {
    parse_with(state, None, me, text, true)
}

/// [`parse`] with the territories read from the state's [`Index`]; lines
/// are offered to [`crate::fast_path`] first.
pub fn parse_indexed(state: &State, index: &Index, me: &PlayerId, text: &str) -> Parsed<Order> {
    parse_with(state, Some(index), me, text, true)
}

/// [`parse_indexed`] by the grammar alone, [`crate::fast_path`] never
/// asked: what the differential tests compare the fast path with.
pub fn parse_indexed_by_grammar(
    state: &State,
    index: &Index,
    me: &PlayerId,
    text: &str,
) -> Parsed<Order> {
    parse_with(state, Some(index), me, text, false)
}

/// The next line of `all`, when [`crate::fast_path`] reads it and the
/// checks take it: its order (and warning) given to `out` as the grammar's
/// path gives them, and true. False leaves the line to the grammar, with
/// `all` where it was: a move the checks refuse is read again there, so
/// that every refusal comes from one place.
fn fast_line(cx: &Ctx<'_>, ix: &Index, all: &mut BlockLines<'_>, out: &mut Parsed<Order>) -> bool {
    let rest = all.rest();
    let Some((read, len)) = fast_path::read(ix, rest) else {
        return false;
    };
    let Some(line) = rest.get(..len) else {
        return false;
    };
    let (order, warn) = match read {
        Line::Ready => (Order::Ready, None),
        Line::Move { qty, from, to } => {
            // What `Ctx::terr_found` gives for an id the index holds (by
            // its id, stage 1 of §6.3).
            let spot = |i: u32| Spot {
                id: ix.row(i).id.clone(),
                at: At::Row(ix, i),
            };
            match moving_found(cx, qty, spot(from), spot(to), None) {
                Ok(v) => v,
                Err(_) => return false,
            }
        }
    };
    let no = all.advance(len);
    if matches!(order, Order::Ready) {
        out.ready = true;
    }
    out.push(no, line, order);
    if let Some(w) = warn {
        out.warn(no, line, w);
    }
    true
}

/// The line that opens the block (§6.1): its first space-separated token
/// upper-cases to `GAME` or `PARTIE`. `line` is normalised. A line whose
/// first byte is not `g`, `p` or non-ASCII (a letter whose upper case may
/// be `G` or `P`) is none, and most lines are told so by that byte alone.
#[inline]
fn opens_game(line: &str) -> bool {
    line.as_bytes()
        .first()
        .is_some_and(|&b| matches!(b, b'g' | b'G' | b'p' | b'P') || !b.is_ascii())
        && {
            let first = line.split(' ').next().unwrap_or("");
            upper_is(first, "GAME") || upper_is(first, "PARTIE")
        }
}

/// What the lines before the GAME line gave is dropped when it is met:
/// the block starts after it.
fn restart(
    out: &mut Parsed<Order>,
    wrong_turn: &mut Option<String>,
    cx: &mut Ctx<'_>,
    start: usize,
) {
    out.orders.clear();
    out.diagnostics.clear();
    out.ready = false;
    *wrong_turn = None;
    cx.start = start;
    cx.set_marks = std::cell::OnceCell::new();
}

fn parse_with(
    state: &State,
    index: Option<&Index>,
    me: &PlayerId,
    text: &str,
    fast: bool,
) -> Parsed<Order> {
    let mut out = Parsed::new();
    out.ready = false;
    // At most one order a line: allocated once rather than grown (and
    // allocated, not reserved: `reserve` on the empty vector went through
    // its growth path, a hundred instructions a block).
    out.orders = Vec::with_capacity(arbitre_core::text::newline_count(text) + 1);
    let numbered = || lines(text).enumerate().map(|(i, l)| (i + 1, normalize(l)));
    let active = match index {
        Some(ix) => ix.active(me),
        None => state.players.get(me).is_some_and(|p| p.active()),
    };
    if !active {
        if let Some((no, l)) = numbered().find(|(_, l)| !l.is_empty()) {
            out.error(no, l, "vous n'êtes plus en jeu");
        }
        return out;
    }
    let mut cx = Ctx {
        state,
        index,
        me,
        players: std::cell::OnceCell::new(),
        text,
        start: 0,
        set_marks: std::cell::OnceCell::new(),
    };
    // A TURN line naming another turn refuses the whole set (§6.1, SCN-53;
    // issue 17 item 7): nothing of it applies to the open turn, and the set
    // already stored stays in force.
    let mut wrong_turn: Option<String> = None;
    // Text before a GAME line (a mail envelope left in) is ignored (§6.1).
    // Most blocks have no GAME line: the lines are read as orders from the
    // first, and a GAME line met drops what they gave, where a search for
    // it beforehand read every block twice.
    let mut game_seen = false;
    let mut all = block_lines(text);
    // The fast path reads only against the index (the turn's parse).
    let fast_ix = index.filter(|_| fast);
    loop {
        if let Some(ix) = fast_ix {
            // None of its lines opens the block, ends it or is a header:
            // the grammar's path would only read their order.
            if fast_line(&cx, ix, &mut all, &mut out) {
                continue;
            }
        }
        let Some((no, line, plain)) = all.next() else {
            break;
        };
        let line: &str = &line;
        if !game_seen && opens_game(line) {
            game_seen = true;
            restart(&mut out, &mut wrong_turn, &mut cx, no);
            continue;
        }
        if line.is_empty() || line.starts_with('>') || line.starts_with('#') {
            continue;
        }
        // A line without quote or comment (nearly every one) is its own
        // body, and the order's reading need not look for them again.
        let body = match if plain { Ok(line) } else { grammar::body(line) } {
            Ok(b) => b,
            Err(col) => {
                out.error(
                    no,
                    line,
                    format!("guillemet non fermé (ouvert colonne {col} : « \" » fermant attendu)"),
                );
                continue;
            }
        };
        // A plain line is normalised and not empty: its first word runs to
        // its first space.
        let first = if plain {
            let end = body.bytes().position(|b| b == b' ').unwrap_or(body.len());
            Some(&body[..end])
        } else {
            grammar::words(body).next()
        };
        let Some(first) = first else {
            continue;
        };
        // The first word starts the body (a normalised line starts with no
        // space).
        let mut words = grammar::words(&body[first.len()..]);
        let first_text = text_of(first, plain);
        // The first word is an order's keyword or a header's, never both:
        // classified once, the keyword first (every order line).
        let kw = grammar::keyword(&first_text);
        match kw.map_or_else(|| header(&first_text), |_| None) {
            Some("END" | "FIN") => {
                // An END before the GAME line ends only the envelope.
                if !game_seen {
                    if let Some((at, _, _)) = all.find(|(_, l, _)| opens_game(l)) {
                        game_seen = true;
                        restart(&mut out, &mut wrong_turn, &mut cx, at);
                        continue;
                    }
                }
                break;
            }
            Some("TURN" | "TOUR") => {
                // A TURN line left in the block must name the open turn (§6.1).
                let open = state.turn + 1;
                match words
                    .next()
                    .and_then(|t| grammar::text(t).parse::<u32>().ok())
                {
                    Some(t) if t == open => {}
                    Some(t) => {
                        let why = format!(
                            "ordres pour le tour {t}, mais le tour ouvert est le {open} : ensemble refusé en entier"
                        );
                        out.error(no, line, why.clone());
                        wrong_turn = Some(why);
                    }
                    None => out.error(no, line, "numéro de tour illisible"),
                }
                continue;
            }
            Some(_) => continue,
            None => {}
        }
        let shape = match kw {
            Some(k) => grammar::order_kw(k, body, first, plain),
            None => Err(Refusal::Unknown),
        };
        let verdict = match shape {
            Ok(shape) => check(&cx, shape, plain),
            Err(Refusal::Unknown) => Err(format!("ordre inconnu « {first_text} »")),
            Err(Refusal::Syntax { usage, col, what }) => {
                Err(format!("syntaxe : {usage} (colonne {col} : {what})"))
            }
        };
        match verdict {
            Ok((order, warn)) => {
                if matches!(order, Order::Ready) {
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
    if let Some(why) = wrong_turn {
        out.refuse_whole(&why);
    }
    out
}
