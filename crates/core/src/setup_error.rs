//! Why a ruleset refuses to set a game up (issue 19 items 3 and 7).
//!
//! Every refusal is a kind with its data, never a sentence: the rulesets
//! used to write about sixty of them in their own language, so a German
//! sentence reached an English command line. The daemon renders these
//! kinds through its message catalogue in the command line's language
//! (`crates/arbitre/src/setup_text.rs`); the `Display` here is the English
//! text, for logs and for the rulesets' own tests, and says the same as the
//! English catalogue.
//!
//! Position errors (item 7) name the item: its kind ([`Item`]) and its
//! number or code as the file writes it.

/// The kind of thing in a map, scenario or position an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Item {
    /// An EDS star.
    Star,
    /// An EDS ship.
    Ship,
    /// An EDS ruler (Herrscher).
    Ruler,
    /// A Nébulight world.
    World,
    /// A Nébulight fleet.
    Fleet,
    /// A WWK zone.
    Zone,
    /// A WWK unit.
    Unit,
    /// A WWK unit type code (`INF`).
    UnitType,
    /// A WWK nation.
    Nation,
    /// A WWK resource symbol of a zone.
    Symbol,
    /// A WWK research field.
    Field,
    /// A Scrambled Nations territory.
    Territory,
    /// A Scrambled Nations chain (path).
    Chain,
    /// A Scrambled Nations diplomatic status.
    Status,
    /// A player (seat) of the game file or of the position.
    Player,
}

impl Item {
    /// Every kind, for the catalogue's tests.
    pub const ALL: [Item; 15] = [
        Item::Star,
        Item::Ship,
        Item::Ruler,
        Item::World,
        Item::Fleet,
        Item::Zone,
        Item::Unit,
        Item::UnitType,
        Item::Nation,
        Item::Symbol,
        Item::Field,
        Item::Territory,
        Item::Chain,
        Item::Status,
        Item::Player,
    ];

    /// The English noun.
    pub fn word(self) -> &'static str {
        match self {
            Item::Star => "star",
            Item::Ship => "ship",
            Item::Ruler => "ruler",
            Item::World => "world",
            Item::Fleet => "fleet",
            Item::Zone => "zone",
            Item::Unit => "unit",
            Item::UnitType => "unit type",
            Item::Nation => "nation",
            Item::Symbol => "resource symbol",
            Item::Field => "research field",
            Item::Territory => "territory",
            Item::Chain => "chain",
            Item::Status => "status",
            Item::Player => "player",
        }
    }
}

impl std::fmt::Display for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// What an item refers to that does not exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Its owner.
    Owner,
    /// Its home (a player's home star or zone, a start territory).
    Home,
    /// A link or adjacency to another node of the map.
    Link,
    /// Where it stands.
    Place,
    /// Anything else it names.
    Other,
}

/// What a value must be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// `true` or `false`.
    Bool,
    /// A quoted name.
    Name,
    /// A table.
    Table,
    /// A whole number.
    Integer,
    /// At least this number.
    AtLeast(i64),
    /// Between these two numbers, both included.
    Between(i64, i64),
    /// A duration: `"1d"`, `"12h"`, `"30m"` or seconds.
    Duration,
}

impl std::fmt::Display for Expected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expected::Bool => f.write_str("true or false"),
            Expected::Name => f.write_str("a quoted name"),
            Expected::Table => f.write_str("a table"),
            Expected::Integer => f.write_str("a whole number"),
            Expected::AtLeast(n) => write!(f, "at least {n}"),
            Expected::Between(a, b) => write!(f, "between {a} and {b}"),
            Expected::Duration => f.write_str("a duration such as \"1d\", \"12h\" or \"30m\""),
        }
    }
}

/// A load carried above its capacity (issue 19 item 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Load {
    /// Fuel above the tank (EDS SP above TK).
    Fuel,
    /// Cargo above the hold (EDS cargo above LR, Nébulight cargo above VC).
    Cargo,
}

/// A rule of a map or position an item breaks, each with its own sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// A black hole holds nothing (Nébulight).
    BlackHoleHoldsNothing,
    /// A fleet may not stand in a black hole (Nébulight).
    FleetInBlackHole,
    /// An owned world has a population (Nébulight).
    OwnerWithoutPopulation,
    /// The population exceeds its limit by more than 10 (Nébulight).
    PopulationOverLimit,
    /// A node lists itself among its links.
    LinkedToItself,
    /// A node has no link at all.
    NoLinks,
    /// A territory that cannot be owned has an owner (Scrambled Nations).
    CannotBeOwned,
    /// A mountain holds no troops (Scrambled Nations).
    MountainWithoutTroops,
    /// Only land may be a home or start.
    HomeNotLand,
    /// A land territory needs an area (Scrambled Nations).
    LandWithoutArea,
    /// A zone code is reserved or not upper case (WWK-1).
    ReservedCode,
    /// An id written with characters an id may not have.
    BadId,
    /// A player's name has characters the order syntax uses (Nébulight).
    BadName,
    /// A chain's path is not a path of the map (Scrambled Nations).
    BadPath,
    /// A position's node needs a number, not a name (Nébulight).
    NeedsNumber,
    /// A star's yield rates exceed the rulebook's limits (EDS §2.7).
    YieldOutOfRange,
    /// A start territory or home star is taken by two players.
    HomeOfTwo,
    /// A player marks another both as an ally and as an enemy.
    AllyAndEnemy,
}

impl Rule {
    /// The English sentence, after "<item> <id>: ".
    pub fn text(self) -> &'static str {
        match self {
            Rule::BlackHoleHoldsNothing => "a black hole holds nothing",
            Rule::FleetInBlackHole => "a fleet may not stand in a black hole",
            Rule::OwnerWithoutPopulation => "an owned world needs a population",
            Rule::PopulationOverLimit => "population more than 10 above its limit",
            Rule::LinkedToItself => "linked to itself",
            Rule::NoLinks => "has no link",
            Rule::CannotBeOwned => "cannot have an owner",
            Rule::MountainWithoutTroops => "a mountain holds no troops",
            Rule::HomeNotLand => "not land, so it cannot be a home or a start",
            Rule::LandWithoutArea => "a land territory needs an area",
            Rule::ReservedCode => "reserved or not an upper-case code",
            Rule::BadId => "not a valid id",
            Rule::BadName => "the name has a character the orders use",
            Rule::BadPath => "not a path of the map",
            Rule::NeedsNumber => "a position gives numbers, not names",
            Rule::YieldOutOfRange => "yield rates above 340/49/49",
            Rule::HomeOfTwo => "the home or start of two players",
            Rule::AllyAndEnemy => "both an enemy and an ally",
        }
    }
}

/// Why a seat of a WWK game gets no nation (issue 18 item 3); each lists
/// the scenario's nations in `known`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NationProblem {
    /// `nation = 3`: not a quoted code or name.
    NotText,
    /// `nation = "XYZ"`: no such nation.
    NotInScenario { word: String },
    /// Two players name one nation.
    NamedTwice { nation: String, other: String },
    /// The seat's id or name matches a nation another seat plays.
    Taken { nation: String, other: String },
    /// The seat names no nation and matches none.
    None,
}

/// Why a ruleset refuses a game's setup.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// A sentence for the few refusals no kind fits (an engine without
    /// positions or views); English.
    #[error("{0}")]
    Invalid(String),
    /// A map, world or scenario name the ruleset lacks, with the names it
    /// has (issue 19 item 2).
    #[error("unknown map or scenario '{name}' (built-in: {})", valid.join(", "))]
    UnknownMap { name: String, valid: Vec<String> },
    /// A key of a game file's table the ruleset does not read (issue 19
    /// item 1): a typo such as `mapp` must never be silently ignored.
    #[error("unknown key '{key}' in {table} ({})", valid_keys(valid))]
    UnknownKey {
        table: String,
        key: String,
        valid: Vec<String>,
    },
    /// A number of players the setup cannot seat: it takes `min` to `max`
    /// (no upper bound when `None`); `known` lists what there is to play
    /// (a WWK scenario's nations), empty when nothing is to be listed.
    #[error("wrong number of players: {got} (this setup takes {}{})", player_range(*min, *max), known_list(known))]
    PlayerCount {
        got: usize,
        min: usize,
        max: Option<usize>,
        known: String,
    },
    /// A position, map or scenario text that does not parse: the TOML
    /// parser's own message.
    #[error("bad position TOML: {0}")]
    Position(String),
    /// A `[rules]` table the ruleset cannot read: the TOML reader's own
    /// message (a value of the wrong type).
    #[error("[rules]: {0}")]
    Rules(String),
    /// A `[rules]` value (or a position's field) of the wrong type or range.
    #[error("{key} = {value}: expected {expected}")]
    BadValue {
        key: String,
        value: String,
        expected: Expected,
    },
    /// Two settings of which a game gives one at most.
    #[error("give {a} or {b}, not both")]
    Exclusive { a: String, b: String },
    /// Two items with one number or code (issue 19 item 7).
    #[error("{item} {id} appears twice")]
    Duplicate { item: Item, id: String },
    /// An item placed outside the map (issue 19 item 7).
    /// The map spans `min..=max_x` by `min..=max_y`.
    #[error("{item} {id}: position ({x},{y}) outside the map ({min}..{max_x}, {min}..{max_y})")]
    OffMap {
        item: Item,
        id: String,
        x: i64,
        y: i64,
        min: i64,
        max_x: i64,
        max_y: i64,
    },
    /// Two items on one point.
    #[error("{item} {id}: position ({x},{y}) taken twice")]
    SamePlace {
        item: Item,
        id: String,
        x: i64,
        y: i64,
    },
    /// Two items closer than the rules allow.
    #[error("{item} {id}: too close to {other}")]
    TooClose {
        item: Item,
        id: String,
        other: String,
    },
    /// A load above its capacity (issue 19 item 7).
    #[error("{item} {id}: {} {amount} above its {} {capacity}", load_word(*load), capacity_word(*load))]
    OverCapacity {
        item: Item,
        id: String,
        load: Load,
        amount: i64,
        capacity: i64,
    },
    /// An item that names another that does not exist (issue 19 item 7).
    #[error("{}", unknown_ref_text(*item, id, *role, *target, name))]
    UnknownRef {
        item: Item,
        id: String,
        role: Role,
        target: Item,
        name: String,
    },
    /// A link one way only: the map's links go both ways.
    #[error("{item} {id}: its link to {to} has no link back")]
    OneWayLink { item: Item, id: String, to: String },
    /// A name that is no item of its kind.
    #[error("unknown {item} '{name}'")]
    Unknown { item: Item, name: String },
    /// An item the setup needs that the file lacks.
    #[error("{item} {id} is missing")]
    Missing { item: Item, id: String },
    /// The file has no item of a kind it needs.
    #[error("no {item} at all")]
    NoneOf { item: Item },
    /// The items of a kind must be numbered 1..count, each once.
    #[error("the {item} numbers must be 1 to {count}, each once")]
    Numbering { item: Item, count: usize },
    /// A player without a home (issue 19 item 7).
    #[error("player {player} has no home")]
    NoHome { player: String },
    /// Fewer start places than players.
    #[error("{needed} players but only {available} start places")]
    TooFewStarts { needed: usize, available: usize },
    /// An item that breaks a rule of maps or positions.
    #[error("{item} {id}: {}", rule.text())]
    Breaks { item: Item, id: String, rule: Rule },
    /// A position names a player otherwise than the game file (issue 19
    /// item 8: never silently dropped).
    #[error("player {player}: the position names them \"{position}\", the game file \"{game}\"; leave `name` out of the position or make the two agree")]
    NameMismatch {
        player: String,
        position: String,
        game: String,
    },
    /// A seat of a WWK game that gets no nation.
    #[error("{}", nation_text(player, problem, known))]
    Nation {
        player: String,
        problem: NationProblem,
        known: String,
    },
    /// A player may not join this game in progress (issue 19 item 3:
    /// Scrambled Nations' join refusals were a French sentence).
    #[error("{0}")]
    Join(JoinRefusal),
}

/// Why a newcomer may not join a game in progress (Scrambled Nations'
/// "autoriser les joueurs à rejoindre en cours de partie", spec §3.13).
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum JoinRefusal {
    /// The ruleset has no rule for a newcomer.
    #[error("{ruleset} does not let players join a game in progress")]
    NoRule { ruleset: String },
    /// The game's parameters forbid it (`allow_join_midgame = false`).
    #[error("this game does not take new players once it has started")]
    NotAllowed,
    /// No neutral, empty land territory is left for the newcomer.
    #[error("no neutral and empty territory is left for a newcomer")]
    NoRoom,
    /// The id is already a player of the game.
    #[error("player {0} is already in the game")]
    NameTaken(String),
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The game has its maximum number of players.
    #[error("the game is full")]
    Full,
}

/// "2", "1 to 3", "2 or more": how many players a setup takes, in English.
pub fn player_range(min: usize, max: Option<usize>) -> String {
    match max {
        Some(max) if max == min => min.to_string(),
        Some(max) => format!("{min} to {max}"),
        None => format!("{min} or more"),
    }
}

fn known_list(known: &str) -> String {
    if known.is_empty() {
        String::new()
    } else {
        format!(" (nations: {known})")
    }
}

fn load_word(l: Load) -> &'static str {
    match l {
        Load::Fuel => "fuel",
        Load::Cargo => "cargo",
    }
}

fn capacity_word(l: Load) -> &'static str {
    match l {
        Load::Fuel => "tank",
        Load::Cargo => "hold",
    }
}

fn unknown_ref_text(item: Item, id: &str, role: Role, target: Item, name: &str) -> String {
    match role {
        Role::Owner => format!("{item} {id}: owner {target} {name} does not exist"),
        Role::Home => format!("{item} {id}: home {target} {name} does not exist"),
        Role::Link => format!("{item} {id}: link to {target} {name}, which does not exist"),
        Role::Place => format!("{item} {id}: stands on {target} {name}, which does not exist"),
        Role::Other => format!("{item} {id}: {target} {name} does not exist"),
    }
}

fn nation_text(player: &str, problem: &NationProblem, known: &str) -> String {
    let what = match problem {
        NationProblem::NotText => {
            format!("player {player}: nation must be a quoted nation code or name")
        }
        NationProblem::NotInScenario { word } => {
            format!("player {player}: nation \"{word}\" is not in the scenario")
        }
        NationProblem::NamedTwice { nation, other } => {
            format!("nation {nation} is named by two players, {other} and {player}")
        }
        NationProblem::Taken { nation, other } => format!(
            "player {player}: its id or name matches nation {nation}, which player {other} plays; give it nation = \"...\" under [players.rules]"
        ),
        NationProblem::None => {
            format!("player {player} names no nation: add nation = \"<code>\" under [players.rules]")
        }
    };
    format!("{what} (nations of the scenario: {known})")
}

fn valid_keys(valid: &[String]) -> String {
    if valid.is_empty() {
        "this table takes no key".into()
    } else {
        format!("valid keys: {}", valid.join(", "))
    }
}
