//! Versioned schema migrations, from day one.
//!
//! `PRAGMA user_version` holds the number of migrations applied. Each entry of
//! [`MIGRATIONS`] runs once, in order, inside one transaction with the version
//! bump, so a crash mid-migration leaves the previous version intact. A
//! database from a newer arbitre is refused rather than misread.
//! Never edit a released migration: append a new one.

use crate::{Result, StoreError};
use rusqlite::Connection;

pub const MIGRATIONS: &[&str] = &[
    // 1: the initial schema.
    r#"
CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    ruleset     TEXT NOT NULL,
    seed        INTEGER NOT NULL,
    lang        TEXT NOT NULL,
    config      TEXT NOT NULL,            -- the game.toml as given (passwords removed)
    gm_email    TEXT,
    turn        INTEGER NOT NULL DEFAULT 0,   -- last resolved turn
    status      TEXT NOT NULL DEFAULT 'running', -- running | paused | over
    deadline    INTEGER,                  -- unix seconds of the next resolution
    created_at  INTEGER NOT NULL
);
CREATE TABLE players (
    game_id       TEXT NOT NULL REFERENCES games(id),
    id            TEXT NOT NULL,
    name          TEXT NOT NULL,
    email         TEXT NOT NULL,
    password_hash TEXT NOT NULL,           -- argon2id PHC string, never the password
    PRIMARY KEY (game_id, id)
);
CREATE TABLE turns (
    game_id     TEXT NOT NULL REFERENCES games(id),
    turn        INTEGER NOT NULL,
    state       TEXT NOT NULL,            -- the ruleset's JSON state after this turn
    resolved_at INTEGER NOT NULL,
    outcome     TEXT,                     -- JSON Outcome once the game has ended
    PRIMARY KEY (game_id, turn)
);
CREATE TABLE orders (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     TEXT NOT NULL REFERENCES games(id),
    turn        INTEGER NOT NULL,         -- the turn these orders are for
    player      TEXT NOT NULL,
    text        TEXT NOT NULL,            -- raw order block, envelope stripped
    verdicts    TEXT NOT NULL,            -- JSON Vec<LineVerdict>
    errors      INTEGER NOT NULL,
    ready       INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    mail_sha256 TEXT
);
CREATE INDEX orders_by_turn ON orders(game_id, turn, player, id);
CREATE TABLE mail_journal (
    sha256      TEXT PRIMARY KEY,
    message_id  TEXT,
    sender      TEXT,
    received_at INTEGER NOT NULL,
    game_id     TEXT,
    outcome     TEXT NOT NULL,            -- stored | checked | rejected | ignored
    detail      TEXT NOT NULL
);
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id      TEXT NOT NULL UNIQUE,
    game_id         TEXT,
    turn            INTEGER,
    player          TEXT,
    kind            TEXT NOT NULL,        -- confirm | report | reminder | error | gm | ...
    recipient       TEXT NOT NULL,
    subject         TEXT NOT NULL,
    body            TEXT NOT NULL,
    raw             BLOB NOT NULL,        -- the formatted RFC 5322 message
    status          TEXT NOT NULL DEFAULT 'pending', -- pending | sent | failed
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    created_at      INTEGER NOT NULL,
    sent_at         INTEGER
);
CREATE INDEX outbox_pending ON outbox(status, next_attempt_at);
CREATE TABLE reminders (
    game_id TEXT NOT NULL,
    turn    INTEGER NOT NULL,
    player  TEXT NOT NULL,
    label   TEXT NOT NULL,                -- "24h": one reminder per rule per turn
    sent_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, turn, player, label)
);
"#,
    // 2: services around the turn (issue 10). Per-player settings live in
    // their own table so `players` (and every PlayerRow) stays as it was.
    r#"
CREATE TABLE player_settings (
    game_id      TEXT NOT NULL,
    player       TEXT NOT NULL,
    timezone     TEXT,                    -- IANA zone chosen with TIMEZONE
    ejected_turn INTEGER,                 -- EJECT: out of the game from this turn on
    token_hash   TEXT,                    -- argon2id of a per-player token
    PRIMARY KEY (game_id, player)
);
CREATE TABLE press (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     TEXT NOT NULL,
    turn        INTEGER NOT NULL,         -- the turn being played when sent
    sender      TEXT NOT NULL,
    recipients  TEXT NOT NULL,            -- 'ALL' or a player id
    anonymous   INTEGER NOT NULL,
    body        TEXT NOT NULL,
    mail_sha256 TEXT,
    sent_at     INTEGER NOT NULL
);
CREATE INDEX press_by_game ON press(game_id, turn, id);
CREATE TABLE absences (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     TEXT NOT NULL,
    player      TEXT NOT NULL,
    first_day   TEXT NOT NULL,            -- YYYY-MM-DD, inclusive, game's zone
    last_day    TEXT NOT NULL,            -- YYYY-MM-DD, inclusive
    declared_at INTEGER NOT NULL,
    mail_sha256 TEXT
);
CREATE INDEX absences_by_player ON absences(game_id, player);
CREATE TABLE seat_changes (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id   TEXT NOT NULL,
    player    TEXT NOT NULL,
    turn      INTEGER NOT NULL,           -- the turn being played
    kind      TEXT NOT NULL,              -- takeover | eject
    old_name  TEXT,
    old_email TEXT,
    new_name  TEXT,
    new_email TEXT,
    at        INTEGER NOT NULL
);
CREATE TABLE rolled_back_turns (
    game_id        TEXT NOT NULL,
    turn           INTEGER NOT NULL,
    state          TEXT NOT NULL,
    resolved_at    INTEGER NOT NULL,
    outcome        TEXT,
    to_turn        INTEGER NOT NULL,      -- the turn the game went back to
    rolled_back_at INTEGER NOT NULL
);
ALTER TABLE games ADD COLUMN preview TEXT;                    -- NULL | 'next' | 'always'
ALTER TABLE turns ADD COLUMN held INTEGER NOT NULL DEFAULT 0; -- reports held for PREVIEW
"#,
    // 3: indexes for the queries run per mail or per player and turn
    // (issue 9): the flood-limit counts over the journal and the
    // wrong-password count over the outbox were full scans of tables that
    // grow with the history (the capacity simulation showed per-turn cost
    // rising round after round without them).
    r#"
CREATE INDEX outbox_by_game ON outbox(game_id, turn, player);
CREATE INDEX journal_by_game ON mail_journal(game_id, received_at);
CREATE INDEX journal_by_sender ON mail_journal(lower(trim(sender)), received_at);
"#,
    // 4 (issue 14 items 2, 3 and 4): O(1) rate-limit counters, one row per
    // (scope, key, bucket), updated in the mail's own transaction, instead
    // of counting the journal rows of the last hour for every mail
    // (quadratic in a burst). `bucket` is the unix hour for hourly limits,
    // the turn for per-turn counts. `answered` marks the one polite answer
    // (or the one notice to the game master) of a bucket.
    r#"
CREATE TABLE rate_counters (
    scope    TEXT NOT NULL,
    key      TEXT NOT NULL,
    bucket   INTEGER NOT NULL,
    count    INTEGER NOT NULL DEFAULT 0,
    answered INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, key, bucket)
) WITHOUT ROWID;
-- (issue 14 item 4) a mail carrying a secret (a generated password) keeps
-- here the copy to store once it is sent; `outbox::mark_sent` swaps it in.
ALTER TABLE outbox ADD COLUMN redacted_body TEXT;
ALTER TABLE outbox ADD COLUMN redacted_raw BLOB;
"#,
    // 5: fault isolation and delivery (issue 14 items 6, 7, 14). A game
    // whose ruleset panicked is faulted until `arbitre resume` (one row per
    // fault, kept as history); a failure of the installation's mail set-up
    // pauses sending (one row per pause); the first failure of a mail
    // starts its retry window; a game's random part of its Message-IDs.
    r#"
CREATE TABLE game_faults (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    TEXT NOT NULL,
    turn       INTEGER NOT NULL,          -- the turn being played
    during     TEXT NOT NULL,             -- the engine call: check | resolve | report | bot_orders | ...
    message    TEXT NOT NULL,             -- the panic's message
    at         INTEGER NOT NULL,
    resumed_at INTEGER                    -- NULL while the game is faulted
);
CREATE INDEX game_faults_open ON game_faults(game_id, resumed_at);
CREATE TABLE sending_pauses (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    reason   TEXT NOT NULL,               -- the server's or the system's words
    since    INTEGER NOT NULL,
    last_try INTEGER NOT NULL,
    ended_at INTEGER                      -- NULL while sending is paused
);
ALTER TABLE outbox ADD COLUMN first_failed_at INTEGER;
ALTER TABLE games ADD COLUMN msgid_salt TEXT;
"#,
    // 6: duplicate deliveries (issue 14 item 12): an MTA retry or a provider's
    // duplicate carries the same Message-ID from the same sender with new
    // trace headers (so a new SHA-256); the journal is searched by both.
    // Not UNIQUE: databases from before this migration may already hold
    // such duplicates.
    r#"
CREATE INDEX journal_by_message_id ON mail_journal(message_id, lower(trim(sender)));
"#,
    // 7: a typed store (issue 16 item 2). Orders the bot wrote get a column
    // of their own instead of a `bot:<game>:<turn>:<player>` mark in
    // `mail_sha256`; wrong-password attempts get a table of their own
    // instead of being inferred from the outbox's `error` answers about a
    // (game, turn, player) plus a per-turn counter of the unanswered ones.
    // Existing rows are converted; the words of the kind/status/outcome
    // columns are unchanged (crate::kinds reads and writes them).
    r#"
ALTER TABLE orders ADD COLUMN by_bot INTEGER NOT NULL DEFAULT 0;
UPDATE orders SET by_bot = 1, mail_sha256 = NULL WHERE mail_sha256 LIKE 'bot:%';
CREATE TABLE wrong_passwords (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     TEXT NOT NULL,
    turn        INTEGER NOT NULL,         -- the turn being played
    player      TEXT NOT NULL,            -- the seat the mail named
    answered    INTEGER NOT NULL,         -- the sender got an error answer
    mail_sha256 TEXT,                     -- NULL for converted attempts
    at          INTEGER NOT NULL
);
CREATE INDEX wrong_passwords_by_seat ON wrong_passwords(game_id, turn, player);
INSERT INTO wrong_passwords (game_id, turn, player, answered, mail_sha256, at)
    SELECT game_id, turn, player, 1, NULL, created_at FROM outbox
     WHERE kind = 'error' AND game_id IS NOT NULL AND turn IS NOT NULL AND player IS NOT NULL
     ORDER BY id;
-- The counter's key is `game NUL player`; SQLite's text functions stop
-- at a NUL, so the key is split as bytes.
WITH RECURSIVE keys(k, cut, turn, n) AS (
    SELECT CAST(key AS BLOB), instr(CAST(key AS BLOB), x'00'), bucket, count
      FROM rate_counters WHERE scope = 'seat-wrong-silent' AND count > 0
),
silent(game_id, player, turn, n) AS (
    SELECT CAST(substr(k, 1, cut - 1) AS TEXT), CAST(substr(k, cut + 1) AS TEXT), turn, n
      FROM keys WHERE cut > 0
    UNION ALL
    SELECT game_id, player, turn, n - 1 FROM silent WHERE n > 1
)
INSERT INTO wrong_passwords (game_id, turn, player, answered, mail_sha256, at)
    SELECT game_id, turn, player, 0, NULL, 0 FROM silent;
DELETE FROM rate_counters WHERE scope = 'seat-wrong-silent';
"#,
    // 8: each running game's next due instant (issue 22 item 2), so that a
    // cycle asks the database what is due instead of loading every game.
    // `due_at` is unix seconds; 0 means "not known: examine at the next
    // cycle", which every write that can change what is due sets through
    // the triggers below (a deadline, a status, a turn, the game's TOML,
    // orders for early resolution, a held turn, a fault, an ejected seat,
    // an absence, a rollback), so no code path can forget it; the cycle
    // then computes the instant again (arbitre's `Daemon::schedule_due`).
    // Existing games start at 0, i.e. examined once.
    r#"
ALTER TABLE games ADD COLUMN due_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_due ON games(status, due_at);
CREATE TRIGGER due_on_game AFTER UPDATE OF deadline, status, turn, config, preview ON games
BEGIN UPDATE games SET due_at = 0 WHERE id = NEW.id; END;
CREATE TRIGGER due_on_orders AFTER INSERT ON orders
BEGIN UPDATE games SET due_at = 0 WHERE id = NEW.game_id AND due_at <> 0; END;
CREATE TRIGGER due_on_orders_delete AFTER DELETE ON orders
BEGIN UPDATE games SET due_at = 0 WHERE id = OLD.game_id AND due_at <> 0; END;
CREATE TRIGGER due_on_turns AFTER UPDATE ON turns
BEGIN UPDATE games SET due_at = 0 WHERE id = NEW.game_id; END;
CREATE TRIGGER due_on_turns_delete AFTER DELETE ON turns
BEGIN UPDATE games SET due_at = 0 WHERE id = OLD.game_id; END;
CREATE TRIGGER due_on_rollback AFTER INSERT ON rolled_back_turns
BEGIN UPDATE games SET due_at = 0 WHERE id = NEW.game_id; END;
CREATE TRIGGER due_on_fault AFTER INSERT ON game_faults
BEGIN UPDATE games SET due_at = 0 WHERE id = NEW.game_id; END;
CREATE TRIGGER due_on_fault_update AFTER UPDATE ON game_faults
BEGIN UPDATE games SET due_at = 0 WHERE id = NEW.game_id; END;
CREATE TRIGGER due_on_settings AFTER INSERT ON player_settings
BEGIN UPDATE games SET due_at = 0 WHERE id = NEW.game_id; END;
CREATE TRIGGER due_on_settings_update AFTER UPDATE ON player_settings
BEGIN UPDATE games SET due_at = 0 WHERE id = NEW.game_id; END;
CREATE TRIGGER due_on_players AFTER INSERT ON players
BEGIN UPDATE games SET due_at = 0 WHERE id = NEW.game_id; END;
CREATE TRIGGER due_on_players_update AFTER UPDATE ON players
BEGIN UPDATE games SET due_at = 0 WHERE id = NEW.game_id; END;
CREATE TRIGGER due_on_players_delete AFTER DELETE ON players
BEGIN UPDATE games SET due_at = 0 WHERE id = OLD.game_id; END;
CREATE TRIGGER due_on_absences AFTER INSERT ON absences
BEGIN UPDATE games SET due_at = 0 WHERE id = NEW.game_id; END;
CREATE TRIGGER due_on_absences_delete AFTER DELETE ON absences
BEGIN UPDATE games SET due_at = 0 WHERE id = OLD.game_id; END;
"#,
    // 9: sign-up by mail (issue 17 item 3): one row per address that asked
    // to join a game (`JOIN <game>`), pending until the game master answers
    // (or accepted at once with `approve = "auto"`). One row per (game,
    // address), so an address asks the game master once: its second JOIN
    // is answered "already pending" and notifies nobody.
    r#"
CREATE TABLE signups (
    game_id      TEXT NOT NULL,
    email        TEXT NOT NULL,           -- trimmed, lower case
    name         TEXT NOT NULL,           -- the name asked for (or the address's local part)
    status       TEXT NOT NULL,           -- pending | accepted | refused
    requested_at INTEGER NOT NULL,
    decided_at   INTEGER,
    player       TEXT,                    -- the seat it became, once accepted
    reason       TEXT,                    -- the game master's reason, when refused
    PRIMARY KEY (game_id, email)
);
CREATE INDEX signups_by_status ON signups(game_id, status);
"#,
    // 10: the web's login sessions (issue 24 item 5), so that a restart of
    // the web server logs nobody out. The cookie's token is never stored,
    // only its SHA-256; no password either: the login proved the seat, and
    // `credential` (a digest of the seat's password hash when the session
    // opened) ends the session when the seat's password changes hands.
    r#"
CREATE TABLE web_sessions (
    token_sha256 TEXT PRIMARY KEY,        -- hex SHA-256 of the cookie's token
    game_id      TEXT NOT NULL,
    player       TEXT,                    -- the seat; NULL for the game master
    credential   TEXT NOT NULL,           -- digest of the password hash it was opened with
    csrf         TEXT NOT NULL,           -- the session's CSRF secret
    expires      INTEGER NOT NULL         -- unix seconds
);
CREATE INDEX web_sessions_by_expiry ON web_sessions(expires);
"#,
    // 11: ingest speed (issue 22 item 1). A mail names its game in any
    // case (`neb-001`, `NEB-001`): the NOCASE index finds it without
    // reading every game. `state_revs` stamps each game's latest state:
    // every write of a `turns` row (a resolution, a JOIN's new state, a
    // rollback) gives the game a new number from `state_clock`, which only
    // grows, so a number is never given twice, not even to a game deleted
    // and created again under the same id. The daemon keeps a decoded
    // state under its stamp and compares stamps instead of reading and
    // comparing the state's JSON for every mail. Games already stored get
    // 0, a number no write gives.
    r#"
CREATE INDEX games_id_nocase ON games(id COLLATE NOCASE);
CREATE TABLE state_clock (n INTEGER NOT NULL);
INSERT INTO state_clock (n) VALUES (0);
CREATE TABLE state_revs (
    game_id TEXT PRIMARY KEY,
    rev     INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO state_revs (game_id, rev) SELECT DISTINCT game_id, 0 FROM turns WHERE true;
CREATE TRIGGER rev_on_turn_insert AFTER INSERT ON turns
BEGIN
    UPDATE state_clock SET n = n + 1;
    INSERT INTO state_revs (game_id, rev) VALUES (NEW.game_id, (SELECT n FROM state_clock))
        ON CONFLICT (game_id) DO UPDATE SET rev = excluded.rev;
END;
CREATE TRIGGER rev_on_turn_update AFTER UPDATE OF state, turn, game_id ON turns
BEGIN
    UPDATE state_clock SET n = n + 1;
    INSERT INTO state_revs (game_id, rev) VALUES (NEW.game_id, (SELECT n FROM state_clock))
        ON CONFLICT (game_id) DO UPDATE SET rev = excluded.rev;
END;
CREATE TRIGGER rev_on_turn_delete AFTER DELETE ON turns
BEGIN
    UPDATE state_clock SET n = n + 1;
    INSERT INTO state_revs (game_id, rev) VALUES (OLD.game_id, (SELECT n FROM state_clock))
        ON CONFLICT (game_id) DO UPDATE SET rev = excluded.rev;
END;
"#,
    // 12: retention of sent mails (issue 22 item 4). A sent mail's raw
    // text (its maps, PNG twins and JSON attached) was kept whole for ever:
    // about 1 MB a game-turn. Once its game is `keep_sent_mail_turns`
    // turns further, the raw text is dropped and `pruned_at` says when; the
    // row keeps its subject and body, what RESEND, HISTORY, the web and the
    // GM's commands read, and a RESEND draws its attachments again from
    // the turn's stored state.
    r#"
ALTER TABLE outbox ADD COLUMN pruned_at INTEGER;
"#,
    // 13: a mail's raw text in a table of its own (issue 22 item 4).
    // SQLite rewrites a whole row, overflow pages included, when any of
    // its columns changes size: marking a mail sent (status, sent_at,
    // attempts) wrote its 100-odd kB of maps and JSON a second time, more
    // than its insertion did. The row that changes is small now; the raw
    // text is written once, deleted by retention. The swap of a redacted
    // copy (migration 6) stays one statement through the trigger, so no
    // crash leaves a sent secret behind.
    r#"
CREATE TABLE outbox_raw (
    id  INTEGER PRIMARY KEY,              -- outbox.id
    raw BLOB NOT NULL                     -- the formatted RFC 5322 message
);
INSERT INTO outbox_raw (id, raw) SELECT id, raw FROM outbox WHERE length(raw) > 0;
ALTER TABLE outbox DROP COLUMN raw;
CREATE TRIGGER outbox_sent_keeps_redacted_raw AFTER UPDATE OF status ON outbox
    WHEN NEW.status = 'sent' AND OLD.redacted_raw IS NOT NULL
BEGIN
    INSERT OR REPLACE INTO outbox_raw (id, raw) VALUES (NEW.id, OLD.redacted_raw);
END;
"#,
    // 14: a mail's raw text may be kept LZ4-compressed (issue 22 item 4,
    // `raw_text.rs`): a report's maps and JSON were copied four times
    // through the log and the database, 10 GB a round at ten thousand
    // games. Rows already there stay as they are (codec 0, as sent), and
    // so does a redacted copy put back by the trigger of migration 13. A
    // release before this one refuses the database (schema too new)
    // rather than mail compressed bytes.
    r#"
ALTER TABLE outbox_raw ADD COLUMN codec INTEGER NOT NULL DEFAULT 0; -- 0: as sent; 1: LZ4 block, length first
"#,
    // 15: a mail's body may be kept LZ4-compressed too (issue 22 item 4),
    // as a blob in `body`, `body_codec` saying so. A report's text is kept
    // for ever (RESEND, HISTORY, the web): 12 GB of the 22 GB database
    // after ten rounds of 10,000 games. Marking a mail sent puts its
    // redacted copy, plain, in its place (codec back to 0) in the same
    // statement.
    r#"
ALTER TABLE outbox ADD COLUMN body_codec INTEGER NOT NULL DEFAULT 0; -- 0: text as sent; 1: LZ4 block, length first
"#,
    // 16: `outbox_raw.codec` 2, a report's raw text kept in parts, its
    // base64 attachments as their content (issue 22 item 4,
    // `raw_text::RawPart`). Nothing in the tables changes; the version
    // makes a release before this one refuse the database (schema too
    // new) rather than fail on the rows it cannot read.
    r#"
SELECT 1;
"#,
    // 17: `outbox_raw.codec` 3, the raw texts of a turn's mails kept as
    // differences from the first of them, their base (issue 22 item 4,
    // `raw_text::Codec::Delta`). A turn's reports are one map and one
    // view seen by different players: compressed alone, the raw texts
    // were most of what a round wrote to the disk. A base goes with the
    // last raw text kept against it (retention, `outbox::prune_sent`), or
    // with its game.
    r#"
CREATE TABLE raw_base (
    id      INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    turn    INTEGER NOT NULL,
    data    BLOB NOT NULL                 -- LZ4 block, length first, of the flat pieces
);
CREATE INDEX raw_base_game_turn ON raw_base (game_id, turn);
ALTER TABLE outbox_raw ADD COLUMN base INTEGER; -- raw_base.id, for codec 3
CREATE INDEX outbox_raw_base ON outbox_raw (base) WHERE base IS NOT NULL;
"#,
    // 18: the sent mails whose raw text retention has yet to drop, by game
    // and turn (issue 22 item 4, `outbox::prune_sent`). Through
    // `outbox_by_game`, each resolution's prune visited every mail of the
    // game's past turns, pruned long ago, each a lookup in a table of
    // millions of rows by the tenth round of ten thousand games. This
    // index holds the mails left to prune, about one turn's.
    r#"
CREATE INDEX outbox_unpruned ON outbox (game_id, turn) WHERE status = 'sent' AND pruned_at IS NULL;
"#,
];

/// Applies the migrations up to `target` only (a database as an older
/// release left it): for the tests that convert such a database.
#[doc(hidden)]
pub fn migrate_to(conn: &mut Connection, target: usize) -> Result<()> {
    run(conn, target.min(MIGRATIONS.len()))
}

pub fn version(conn: &Connection) -> Result<i64> {
    Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
}

pub fn migrate(conn: &mut Connection) -> Result<()> {
    run(conn, MIGRATIONS.len())
}

fn run(conn: &mut Connection, target: usize) -> Result<()> {
    let known = MIGRATIONS.len() as i64;
    let found = version(conn)?;
    if found > known {
        return Err(StoreError::TooNew { found, known });
    }
    let mut applied = None;
    for (i, sql) in MIGRATIONS
        .iter()
        .enumerate()
        .take(target)
        .skip(found as usize)
    {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Exclusive)?;
        // Another process may have migrated while we waited for the lock.
        if version(&tx)? > i as i64 {
            continue;
        }
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
        tracing::debug!(version = i + 1, "database migration applied");
        applied = Some(i + 1);
    }
    // One line per run, not one per step: a GM's first `game create` used to
    // print a line for each of the schema's steps.
    match applied {
        Some(to) if found == 0 => tracing::info!(version = to, "database created"),
        Some(to) => tracing::info!(from = found, to, "database migrated"),
        None => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrates_once_and_refuses_newer_schema() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.db");
        drop(crate::Store::open(&p).unwrap());
        let s = crate::Store::open(&p).unwrap();
        assert_eq!(version(s.conn()).unwrap(), MIGRATIONS.len() as i64);
        s.conn().pragma_update(None, "user_version", 99).unwrap();
        drop(s);
        assert!(matches!(
            crate::Store::open(&p),
            Err(StoreError::TooNew { found: 99, .. })
        ));
    }
}
