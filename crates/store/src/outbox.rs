//! The outbox: every mail the referee sends is first a row here, written in
//! the transaction of the change that caused it, then sent by the daemon with
//! retries and exponential backoff. The Message-ID is unique, so queueing the
//! same reply twice fails loudly instead of mailing twice.

use crate::Cached;
use crate::Result;
use rusqlite::{params, Connection, OptionalExtension, Row};

pub use crate::kinds::{MailKind, OutboxStatus};

/// A mail to queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMail {
    pub message_id: String,
    pub game_id: Option<String>,
    pub turn: Option<u32>,
    pub player: Option<String>,
    pub kind: MailKind,
    pub recipient: String,
    pub subject: String,
    pub body: String,
    pub raw: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxRow {
    pub id: i64,
    pub mail: NewMail,
    pub status: OutboxStatus,
    pub attempts: u32,
    pub next_attempt_at: i64,
    pub last_error: Option<String>,
    pub created_at: i64,
    pub sent_at: Option<i64>,
    /// When its first failed attempt was (the retry window runs from it).
    pub first_failed_at: Option<i64>,
    /// When its raw text was dropped by [`prune_sent`] (then `mail.raw` is
    /// empty; subject and body are the mail's as sent).
    pub pruned_at: Option<i64>,
}

pub fn queue(c: &Connection, m: &NewMail, now: i64) -> Result<i64> {
    queue_owned(c, m.clone(), now)
}

/// [`queue`], taking the mail: its body and raw text are dropped once
/// SQLite has its own copies bound, before the row is assembled, so that a
/// confirmation of megabytes is held twice at most, not three times (issue
/// 14 item 1).
///
/// The row and its raw text (table `outbox_raw`, migration 13) are written
/// under one savepoint: both or neither, inside a transaction or not.
pub fn queue_owned(c: &Connection, mut m: NewMail, now: i64) -> Result<i64> {
    let raw = std::mem::take(&mut m.raw);
    atomically(c, || queue_rows(c, m, Raw::Bytes(raw), now))
}

/// [`queue_owned`] for a mail given in parts (`m.raw` is not read): its
/// raw text is those parts end to end, stored as [`crate::RawPart`]s
/// for a report, its copies and a welcome (migration 16,
/// [`crate::raw_text`]). Every read gives back the bytes, as for any
/// other mail.
pub fn queue_parts(
    c: &Connection,
    m: NewMail,
    parts: Vec<crate::RawPart>,
    now: i64,
) -> Result<i64> {
    atomically(c, || queue_rows(c, m, Raw::Parts(parts), now))
}

/// A mail's raw text as given to the queue.
enum Raw {
    Bytes(Vec<u8>),
    Parts(Vec<crate::RawPart>),
}

/// Runs `f` under a [`crate::Savepoint`]: kept when `f` succeeds, undone
/// when it fails. In autocommit mode it is a transaction of its own;
/// inside one, a nested part of it.
fn atomically<T>(c: &Connection, f: impl FnOnce() -> Result<T>) -> Result<T> {
    let sp = crate::Savepoint::begin(c)?;
    match f() {
        Ok(v) => {
            sp.release()?;
            Ok(v)
        }
        Err(e) => {
            // The error to report is `f`'s; a failed rollback leaves the
            // savepoint to the enclosing transaction's rollback.
            let _ = sp.roll_back();
            Err(e)
        }
    }
}

fn queue_rows(c: &Connection, m: NewMail, raw: Raw, now: i64) -> Result<i64> {
    let mut st = c.prepare_cached(
        "INSERT INTO outbox (message_id, game_id, turn, player, kind, recipient, subject, body,
                             body_codec, status, attempts, next_attempt_at, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?10, 'pending', 0, ?9, ?9)",
    )?;
    let NewMail {
        message_id,
        game_id,
        turn,
        player,
        kind,
        recipient,
        subject,
        body,
        raw: _,
    } = m;
    st.raw_bind_parameter(1, message_id)?;
    st.raw_bind_parameter(2, &game_id)?;
    st.raw_bind_parameter(3, turn)?;
    st.raw_bind_parameter(4, player)?;
    st.raw_bind_parameter(5, kind)?;
    st.raw_bind_parameter(6, recipient)?;
    st.raw_bind_parameter(7, subject)?;
    match crate::raw_text::pack_text(kind, &body) {
        (crate::raw_text::Codec::Plain, _) => {
            st.raw_bind_parameter(8, &body)?;
            st.raw_bind_parameter(10, crate::raw_text::Codec::Plain as i64)?;
        }
        (codec, packed) => {
            st.raw_bind_parameter(8, &*packed)?;
            st.raw_bind_parameter(10, codec as i64)?;
        }
    }
    drop(body);
    st.raw_bind_parameter(9, now)?;
    st.raw_execute()?;
    let game = game_id;
    let id = c.last_insert_rowid();
    let mut st =
        c.prepare_cached("INSERT INTO outbox_raw (id, raw, codec, base) VALUES (?1, ?2, ?3, ?4)")?;
    st.raw_bind_parameter(1, id)?;
    // The bytes given are dropped as soon as SQLite holds its copy.
    let mut bytes = None;
    let mut base = None;
    let (codec, blob) = match raw {
        Raw::Bytes(raw) => crate::raw_text::pack(kind, bytes.insert(raw)),
        Raw::Parts(parts) => match (&game, turn) {
            (Some(game), Some(turn)) if crate::raw_text::delta_kind(kind, &parts) => {
                let flat = crate::raw_text::flat(parts);
                let (id, blob) = delta_against_base(c, game, turn, &flat)?;
                base = Some(id);
                (crate::raw_text::Codec::Delta, std::borrow::Cow::Owned(blob))
            }
            _ => {
                let (codec, blob) = crate::raw_text::pack_parts(kind, parts);
                (codec, std::borrow::Cow::Owned(blob))
            }
        },
    };
    st.raw_bind_parameter(2, &*blob)?;
    st.raw_bind_parameter(3, codec as i64)?;
    st.raw_bind_parameter(4, base)?;
    drop(blob);
    drop(bytes);
    st.raw_execute()?;
    Ok(id)
}

/// `flat` as a [`crate::raw_text::Codec::Delta`] against the base of the
/// raw texts of (`game`, `turn`) (table `raw_base`, migration 17), and
/// that base's id: the one stored, or `flat` stored as it, for the turn's
/// first mail.
fn delta_against_base(
    c: &Connection,
    game: &str,
    turn: u32,
    flat: &[u8],
) -> Result<(i64, Vec<u8>)> {
    let found: Option<(i64, Vec<u8>)> = c
        .query_row_cached(
            "SELECT id, data FROM raw_base WHERE game_id = ?1 AND turn = ?2
              ORDER BY id DESC LIMIT 1",
            params![game, turn],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    if let Some((id, stored)) = found {
        return Ok((id, crate::raw_text::pack_delta(flat, id, &stored, None)?));
    }
    let stored = crate::raw_text::pack_base(flat);
    c.execute_cached(
        "INSERT INTO raw_base (game_id, turn, data) VALUES (?1, ?2, ?3)",
        params![game, turn, stored],
    )?;
    let id = c.last_insert_rowid();
    Ok((
        id,
        crate::raw_text::pack_delta(flat, id, &stored, Some(flat))?,
    ))
}

/// The raw text is read from `outbox_raw` (migration 13), with its codec
/// (migration 14, [`crate::raw_text`]); a row pruned by retention has none
/// there and reads as empty. The body's codec is the row's own (migration
/// 15).
const COLS: &str = "id, message_id, game_id, turn, player, kind, recipient, subject, body,
                    coalesce((SELECT r.raw FROM outbox_raw r WHERE r.id = outbox.id), x''),
                    status, attempts, next_attempt_at, last_error, created_at, sent_at, first_failed_at,
                    pruned_at,
                    coalesce((SELECT r.codec FROM outbox_raw r WHERE r.id = outbox.id), 0),
                    body_codec,
                    (SELECT r.base FROM outbox_raw r WHERE r.id = outbox.id),
                    (SELECT b.data FROM raw_base b
                      WHERE b.id = (SELECT r.base FROM outbox_raw r WHERE r.id = outbox.id))";

/// A mail's raw text from the columns `[codec, raw, base id, base data]`
/// of `r` (both [`row`] and [`due_row`] read it so).
fn raw_at(r: &Row<'_>, [codec, raw, base, data]: [usize; 4]) -> rusqlite::Result<Vec<u8>> {
    crate::raw_text::unpack_raw(
        r.get(codec)?,
        r.get(raw)?,
        r.get::<_, Option<i64>>(base)?
            .zip(r.get_ref(data)?.as_blob_or_null()?),
    )
    .map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(raw, rusqlite::types::Type::Blob, e.into())
    })
}

fn row(r: &Row<'_>) -> rusqlite::Result<OutboxRow> {
    Ok(OutboxRow {
        id: r.get(0)?,
        mail: NewMail {
            message_id: r.get(1)?,
            game_id: r.get(2)?,
            turn: r.get(3)?,
            player: r.get(4)?,
            kind: r.get(5)?,
            recipient: r.get(6)?,
            subject: r.get(7)?,
            body: crate::raw_text::unpack_text(r.get(19)?, r.get_ref(8)?).map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(8, rusqlite::types::Type::Text, e.into())
            })?,
            raw: raw_at(r, [18, 9, 20, 21])?,
        },
        status: r.get(10)?,
        attempts: r.get(11)?,
        next_attempt_at: r.get(12)?,
        last_error: r.get(13)?,
        created_at: r.get(14)?,
        sent_at: r.get(15)?,
        first_failed_at: r.get(16)?,
        pruned_at: r.get(17)?,
    })
}

fn collect(c: &Connection, sql: &str, p: impl rusqlite::Params) -> Result<Vec<OutboxRow>> {
    let mut st = c.prepare_cached(sql)?;
    let rows = st
        .query_map(p, row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

/// Pending mails whose next attempt is due, oldest first.
pub fn due(c: &Connection, now: i64) -> Result<Vec<OutboxRow>> {
    collect(
        c,
        &format!("SELECT {COLS} FROM outbox WHERE status = 'pending' AND next_attempt_at <= ?1 ORDER BY id"),
        [now],
    )
}

/// The ids of [`due`]'s mails, oldest first: the send loop loads each
/// mail only when it sends it (issue 22 item 4). Loading every due row at
/// once held all their raw texts: after ten thousand games' deadline, some
/// 150,000 mails and gigabytes of memory.
pub fn due_ids(c: &Connection, now: i64) -> Result<Vec<i64>> {
    let mut st = c.prepare_cached(
        "SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_at <= ?1 ORDER BY id",
    )?;
    let ids = st
        .query_map([now], |r| r.get(0))?
        .collect::<rusqlite::Result<Vec<i64>>>()?;
    Ok(ids)
}

/// What the sender needs of a pending mail: its row without the body,
/// which only `arbitre status`, the archive and the web face read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DueMail {
    pub id: i64,
    pub message_id: String,
    pub game_id: Option<String>,
    pub turn: Option<u32>,
    pub kind: MailKind,
    pub recipient: String,
    pub subject: String,
    pub raw: Vec<u8>,
}

/// Mail `id` if it is still pending and due at `now`.
///
/// Its raw text and the turn's base come in one join, and its body is not
/// read (issue 22 item 4: the sender had every due mail's body decoded,
/// and looked its raw text up three times).
pub fn due_row(c: &Connection, id: i64, now: i64) -> Result<Option<DueMail>> {
    let mut st = c.prepare_cached(
        "SELECT o.id, o.message_id, o.game_id, o.turn, o.kind, o.recipient, o.subject,
                coalesce(r.codec, 0), coalesce(r.raw, x''), r.base, b.data
           FROM outbox o
           LEFT JOIN outbox_raw r ON r.id = o.id
           LEFT JOIN raw_base b ON b.id = r.base
          WHERE o.id = ?1 AND o.status = 'pending' AND o.next_attempt_at <= ?2",
    )?;
    let mut rows = st.query_map([id, now], |r| {
        Ok(DueMail {
            id: r.get(0)?,
            message_id: r.get(1)?,
            game_id: r.get(2)?,
            turn: r.get(3)?,
            kind: r.get(4)?,
            recipient: r.get(5)?,
            subject: r.get(6)?,
            raw: raw_at(r, [7, 8, 9, 10])?,
        })
    })?;
    Ok(rows.next().transpose()?)
}

/// Every queued mail, in queue order (tests, fixtures, `arbitre status`).
pub fn all(c: &Connection) -> Result<Vec<OutboxRow>> {
    collect(c, &format!("SELECT {COLS} FROM outbox ORDER BY id"), [])
}

/// Mails queued after row `after_id`, in queue order.
pub fn since(c: &Connection, after_id: i64) -> Result<Vec<OutboxRow>> {
    collect(
        c,
        &format!("SELECT {COLS} FROM outbox WHERE id > ?1 ORDER BY id"),
        [after_id],
    )
}

/// The mail of `kind` about (`game`, `turn`, `player`) as it was mailed:
/// the latest such row that went or is going out (neither held for the
/// game master's preview nor cancelled by a rollback). RESEND (issue 17
/// item 9) sends it again.
pub fn mailed(
    c: &Connection,
    game: &str,
    turn: u32,
    player: &str,
    kind: MailKind,
) -> Result<Option<OutboxRow>> {
    Ok(collect(
        c,
        &format!(
            "SELECT {COLS} FROM outbox
              WHERE game_id = ?1 AND turn = ?2 AND player = ?3 AND kind = ?4
                AND status NOT IN ('held', 'cancelled')
              ORDER BY id DESC LIMIT 1"
        ),
        params![game, turn, player, kind],
    )?
    .pop())
}

pub fn last_id(c: &Connection) -> Result<i64> {
    Ok(c.query_row_cached("SELECT coalesce(max(id), 0) FROM outbox", [], |r| r.get(0))?)
}

pub fn by_message_id(c: &Connection, message_id: &str) -> Result<Option<i64>> {
    Ok(c.query_row_cached(
        "SELECT id FROM outbox WHERE message_id = ?1",
        [message_id],
        |r| r.get(0),
    )
    .optional()?)
}

/// The answer queued to the mail whose journal key starts with `tag`
/// (outgoing.rs makes the first 16 hex digits of that key the last part
/// of an answer's Message-ID): the web shows it again when a form it
/// already handled is sent a second time (issue 24). Rare, so a scan.
pub fn reply_tagged(c: &Connection, tag: &str) -> Result<Option<OutboxRow>> {
    Ok(collect(
        c,
        &format!(
            "SELECT {COLS} FROM outbox WHERE message_id LIKE ?1
               AND kind IN ('confirm', 'check', 'error') ORDER BY id LIMIT 1"
        ),
        [format!("%.{tag}@%")],
    )?
    .pop())
}

/// The report of `turn` mailed to `player` of `game` (the latest queued,
/// not one a rollback cancelled), for the player's web pages (issue 24).
pub fn report_for(
    c: &Connection,
    game: &str,
    player: &str,
    turn: u32,
) -> Result<Option<OutboxRow>> {
    one_report(
        c,
        game,
        player,
        turn,
        "AND status != 'cancelled' ORDER BY id DESC",
    )
}

/// The first report of `turn` queued for `player` of `game`, whatever
/// became of it (`arbitre report`).
pub fn first_report(
    c: &Connection,
    game: &str,
    player: &str,
    turn: u32,
) -> Result<Option<OutboxRow>> {
    one_report(c, game, player, turn, "ORDER BY id")
}

/// The first report of `turn` for `player` of `game` in the order `rest`
/// gives (a filter, then an `ORDER BY`).
fn one_report(
    c: &Connection,
    game: &str,
    player: &str,
    turn: u32,
    rest: &str,
) -> Result<Option<OutboxRow>> {
    Ok(collect(
        c,
        &format!(
            "SELECT {COLS} FROM outbox WHERE game_id = ?1 AND player = ?2 AND turn = ?3
               AND kind = 'report' {rest} LIMIT 1"
        ),
        params![game, player, turn],
    )?
    .pop())
}

/// Keeps `body` and `raw` as the row's copy once it is sent (issue 14 item
/// 4): the mail leaves with its secret (a generated password), and from the
/// moment it is sent only this redacted copy stays in the database.
pub fn set_redacted(c: &Connection, id: i64, body: &str, raw: &[u8]) -> Result<()> {
    c.execute_cached(
        "UPDATE outbox SET redacted_body = ?2, redacted_raw = ?3 WHERE id = ?1",
        params![id, body, raw],
    )?;
    Ok(())
}

/// Marks a row sent; a row with a redacted copy keeps only that copy, in the
/// same statement (its raw text through the trigger of migration 13), so
/// no crash leaves a sent secret behind.
pub fn mark_sent(c: &Connection, id: i64, now: i64) -> Result<()> {
    c.execute_cached(
        "UPDATE outbox SET status = 'sent', attempts = attempts + 1, sent_at = ?2, last_error = NULL,
                body = coalesce(redacted_body, body),
                body_codec = CASE WHEN redacted_body IS NULL THEN body_codec ELSE 0 END,
                redacted_body = NULL, redacted_raw = NULL
         WHERE id = ?1",
        params![id, now],
    )?;
    Ok(())
}

/// Records a failed attempt (issue 14 item 6). A transient failure is
/// retried after a backoff doubling from one minute up to six hours, for
/// `window` seconds from the mail's first failure; then, or at once on a
/// permanent failure, the row is `failed`, its error kept, and left for
/// the GM (`arbitre outbox retry`).
pub fn mark_failed(
    c: &Connection,
    id: i64,
    now: i64,
    error: &str,
    permanent: bool,
    window: i64,
) -> Result<OutboxStatus> {
    let (attempts, first): (u32, Option<i64>) = c.query_row_cached(
        "SELECT attempts, first_failed_at FROM outbox WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let attempts = attempts + 1;
    let first = first.unwrap_or(now);
    let status = if permanent || now - first >= window {
        OutboxStatus::Failed
    } else {
        OutboxStatus::Pending
    };
    let delay = backoff(attempts);
    c.execute_cached(
        "UPDATE outbox SET status = ?2, attempts = ?3, next_attempt_at = ?4, last_error = ?5, first_failed_at = ?6 WHERE id = ?1",
        params![id, status.as_str(), attempts, now + delay, error, first],
    )?;
    Ok(status)
}

/// One row by id (`arbitre outbox`).
pub fn get(c: &Connection, id: i64) -> Result<Option<OutboxRow>> {
    Ok(
        collect(c, &format!("SELECT {COLS} FROM outbox WHERE id = ?1"), [id])?
            .into_iter()
            .next(),
    )
}

/// The rows a GM may have to act on: failed, pending after a failure,
/// held (`arbitre outbox list`), in queue order.
pub fn troubled(c: &Connection) -> Result<Vec<OutboxRow>> {
    collect(
        c,
        &format!("SELECT {COLS} FROM outbox WHERE status IN ('failed', 'held') OR (status = 'pending' AND attempts > 0) ORDER BY id"),
        [],
    )
}

/// `arbitre outbox retry <id>`: a failed or pending mail is due now, with
/// a fresh retry window. Returns false when the row is sent, held,
/// cancelled or absent.
pub fn retry(c: &Connection, id: i64, now: i64) -> Result<bool> {
    Ok(c.execute_cached(
        "UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ?2, first_failed_at = NULL
          WHERE id = ?1 AND status IN ('failed', 'pending')",
        params![id, now],
    )? == 1)
}

/// `arbitre outbox retry --failed`: every failed mail is due now. Returns how many.
pub fn retry_failed(c: &Connection, now: i64) -> Result<usize> {
    Ok(c.execute_cached(
        "UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ?1, first_failed_at = NULL WHERE status = 'failed'",
        [now],
    )?)
}

/// `arbitre outbox drop <id>`: a mail not yet sent is never sent; the row
/// stays (cancelled) as the archive. Returns false for a sent or absent row.
pub fn drop_mail(c: &Connection, id: i64) -> Result<bool> {
    Ok(c.execute_cached("UPDATE outbox SET status = 'cancelled' WHERE id = ?1 AND status IN ('pending', 'failed', 'held')", [id])? == 1)
}

/// PREVIEW: the pending mails of these kinds about `turn` of `game` are
/// held (the sender only takes `pending` rows). Returns how many.
pub fn hold(c: &Connection, game: &str, turn: u32, kinds: &[MailKind]) -> Result<usize> {
    let mut n = 0;
    for k in kinds {
        n += c.execute_cached(
            "UPDATE outbox SET status = 'held' WHERE game_id = ?1 AND turn = ?2 AND kind = ?3 AND status = 'pending'",
            params![game, turn, k],
        )?;
    }
    Ok(n)
}

/// RELEASE: every held mail of `game` goes back to pending, due at `now`.
pub fn release(c: &Connection, game: &str, now: i64) -> Result<usize> {
    Ok(c.execute_cached(
        "UPDATE outbox SET status = 'pending', next_attempt_at = ?2 WHERE game_id = ?1 AND status = 'held'",
        params![game, now],
    )?)
}

/// How many mails of `game` are held: what [`release`] would release.
pub fn count_held(c: &Connection, game: &str) -> Result<usize> {
    Ok(c.query_row_cached(
        "SELECT count(*) FROM outbox WHERE game_id = ?1 AND status = 'held'",
        params![game],
        |r| r.get(0),
    )?)
}

/// ROLLBACK: the held or pending mails of these kinds about turns after
/// `turn` are cancelled; sent ones stay as they are. Returns how many.
pub fn cancel_after(c: &Connection, game: &str, turn: u32, kinds: &[MailKind]) -> Result<usize> {
    let mut n = 0;
    for k in kinds {
        n += c.execute_cached(
            "UPDATE outbox SET status = 'cancelled'
              WHERE game_id = ?1 AND turn > ?2 AND kind = ?3 AND status IN ('pending', 'held')",
            params![game, turn, k],
        )?;
    }
    Ok(n)
}

/// Per game (None: mails about no game): (failed, pending that failed at
/// least once or were created before `stale_before`, held) — the outbox
/// problems `arbitre status` shows, from a mail's first failure on. Only
/// rows of those statuses are read (through `outbox_pending`): the sent
/// ones are nearly all of the table.
pub fn problems(
    c: &Connection,
    stale_before: i64,
) -> Result<std::collections::BTreeMap<Option<String>, (u32, u32, u32)>> {
    let mut st = c.prepare_cached(
        "SELECT game_id,
                sum(status = 'failed'),
                sum(status = 'pending' AND (attempts > 0 OR created_at < ?1)),
                sum(status = 'held')
           FROM outbox WHERE status IN ('failed', 'pending', 'held') GROUP BY game_id",
    )?;
    let rows = st
        .query_map([stale_before], |r| {
            Ok((
                r.get::<_, Option<String>>(0)?,
                (r.get(1)?, r.get(2)?, r.get(3)?),
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows.into_iter().collect())
}

/// Retention (issue 22 item 4): the sent mails about `game` and a turn up
/// to `up_to_turn` lose their raw text (maps, PNG twins and JSON attached:
/// most of the database's growth, about 1 MB a game-turn); subject and
/// body stay. Mails not sent (pending, held, failed, cancelled) keep
/// theirs: the sender and the GM may still need them. Returns how many
/// rows were pruned.
///
/// Both statements name the index of the mails left to prune
/// (`outbox_unpruned`, migration 18): the game's mails pruned in earlier
/// turns are not visited again, however long the game has run.
pub fn prune_sent(c: &Connection, game: &str, up_to_turn: u32, now: i64) -> Result<usize> {
    atomically(c, || {
        c.execute_cached(
            "DELETE FROM outbox_raw WHERE id IN (
                SELECT id FROM outbox INDEXED BY outbox_unpruned
                 WHERE game_id = ?1 AND turn <= ?2 AND status = 'sent' AND pruned_at IS NULL)",
            params![game, up_to_turn],
        )?;
        // A turn's base goes with the last raw text kept against it.
        c.execute_cached(
            "DELETE FROM raw_base WHERE game_id = ?1 AND turn <= ?2
                AND NOT EXISTS (SELECT 1 FROM outbox_raw r WHERE r.base = raw_base.id)",
            params![game, up_to_turn],
        )?;
        Ok(c.execute_cached(
            "UPDATE outbox INDEXED BY outbox_unpruned SET pruned_at = ?3
              WHERE game_id = ?1 AND turn <= ?2 AND status = 'sent' AND pruned_at IS NULL",
            params![game, up_to_turn, now],
        )?)
    })
}

/// How many mails are pending and how many failed (`arbitre status`),
/// counted by the database instead of loading every row and its raw text.
pub fn pending_and_failed(c: &Connection) -> Result<(usize, usize)> {
    Ok(c.query_row_cached(
        "SELECT coalesce(sum(status = 'pending'), 0), coalesce(sum(status = 'failed'), 0)
           FROM outbox WHERE status IN ('pending', 'failed')",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}

/// The held reports of `turn` of `game`, in queue order (PREVIEW's mail
/// to the game master).
pub fn held_reports(c: &Connection, game: &str, turn: u32) -> Result<Vec<OutboxRow>> {
    collect(
        c,
        &format!(
            "SELECT {COLS} FROM outbox
              WHERE game_id = ?1 AND turn = ?2 AND kind = 'report' AND status = 'held'
              ORDER BY id"
        ),
        params![game, turn],
    )
}

/// Seconds to wait after the `attempts`-th failure.
pub fn backoff(attempts: u32) -> i64 {
    (60i64 << attempts.saturating_sub(1).min(9)).min(6 * 3600)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;

    fn mail(id: &str) -> NewMail {
        NewMail {
            message_id: id.into(),
            game_id: Some("g".into()),
            turn: Some(1),
            player: Some("a".into()),
            kind: MailKind::Confirm,
            recipient: "a@x".into(),
            subject: "s".into(),
            body: "b".into(),
            raw: b"raw".to_vec(),
        }
    }

    #[test]
    fn mailed_is_the_latest_report_neither_held_nor_cancelled() {
        let s = Store::in_memory().unwrap();
        let report = |id: &str, body: &str| NewMail {
            kind: MailKind::Report,
            body: body.into(),
            ..mail(id)
        };
        assert_eq!(
            mailed(s.conn(), "g", 1, "a", MailKind::Report).unwrap(),
            None
        );
        queue(s.conn(), &mail("confirm"), 100).unwrap();
        let first = queue(s.conn(), &report("r1", "first"), 100).unwrap();
        mark_sent(s.conn(), first, 101).unwrap();
        queue(s.conn(), &report("r2", "redone"), 102).unwrap();
        let got = mailed(s.conn(), "g", 1, "a", MailKind::Report)
            .unwrap()
            .unwrap();
        assert_eq!(got.mail.body, "redone");
        // The redone turn's report is held for the preview: the first one
        // is what the player got.
        hold(s.conn(), "g", 1, &[MailKind::Report]).unwrap();
        let got = mailed(s.conn(), "g", 1, "a", MailKind::Report)
            .unwrap()
            .unwrap();
        assert_eq!(got.mail.body, "first");
        assert_eq!(
            mailed(s.conn(), "g", 1, "b", MailKind::Report).unwrap(),
            None
        );
        assert_eq!(
            mailed(s.conn(), "g", 2, "a", MailKind::Report).unwrap(),
            None
        );
    }

    #[test]
    fn prune_sent_drops_the_raw_text_of_old_sent_mails_only() {
        let s = Store::in_memory().unwrap();
        let c = s.conn();
        let at = |id: &str, game: &str, turn: u32| NewMail {
            game_id: Some(game.into()),
            turn: Some(turn),
            kind: MailKind::Report,
            ..mail(id)
        };
        let sent_1 = queue(c, &at("s1", "g", 1), 0).unwrap();
        mark_sent(c, sent_1, 1).unwrap();
        let sent_2 = queue(c, &at("s2", "g", 2), 0).unwrap();
        mark_sent(c, sent_2, 1).unwrap();
        let other_game = queue(c, &at("o1", "h", 1), 0).unwrap();
        mark_sent(c, other_game, 1).unwrap();
        let pending = queue(c, &at("p1", "g", 1), 0).unwrap();
        let failed = queue(c, &at("f1", "g", 1), 0).unwrap();
        mark_failed(c, failed, 0, "550", true, 0).unwrap();
        let held = queue(c, &at("h1", "g", 1), 0).unwrap();
        hold(c, "g", 1, &[MailKind::Report]).unwrap();
        // `hold` took the pending one too: give it back its status.
        c.execute(
            "UPDATE outbox SET status = 'pending' WHERE id = ?1",
            [pending],
        )
        .unwrap();
        assert_eq!(pending_and_failed(c).unwrap(), (1, 1));
        assert_eq!(held_reports(c, "g", 1).unwrap().len(), 1);
        assert_eq!(held_reports(c, "g", 1).unwrap()[0].id, held);

        assert_eq!(prune_sent(c, "g", 1, 50).unwrap(), 1);
        let row = get(c, sent_1).unwrap().unwrap();
        assert_eq!(
            (row.mail.raw.len(), row.pruned_at, row.mail.body.as_str()),
            (0, Some(50), "b"),
            "the raw text goes, the body stays"
        );
        for id in [sent_2, other_game, pending, failed, held] {
            let row = get(c, id).unwrap().unwrap();
            assert_eq!(
                (row.mail.raw.as_slice(), row.pruned_at),
                (b"raw".as_slice(), None),
                "row {id} ({:?}, turn {:?}, game {:?}) keeps its raw text",
                row.status,
                row.mail.turn,
                row.mail.game_id
            );
        }
        // Once pruned, a row is not pruned again (its date stays).
        assert_eq!(prune_sent(c, "g", 2, 60).unwrap(), 1);
        assert_eq!(get(c, sent_1).unwrap().unwrap().pruned_at, Some(50));
        assert_eq!(
            first_report(c, "g", "a", 1).unwrap().map(|r| r.id),
            Some(sent_1)
        );
        assert_eq!(first_report(c, "g", "b", 1).unwrap(), None);
    }

    #[test]
    fn a_mail_is_queued_once_and_retried_with_backoff() {
        let s = Store::in_memory().unwrap();
        let id = queue(s.conn(), &mail("m1"), 100).unwrap();
        assert!(queue(s.conn(), &mail("m1"), 100)
            .unwrap_err()
            .is_constraint());
        assert_eq!(due(s.conn(), 100).unwrap().len(), 1);
        // A window of 180 s from the first failure (at 100).
        assert_eq!(
            mark_failed(s.conn(), id, 100, "timeout", false, 180).unwrap(),
            OutboxStatus::Pending
        );
        assert!(due(s.conn(), 159).unwrap().is_empty());
        assert_eq!(due(s.conn(), 160).unwrap().len(), 1);
        assert_eq!(
            mark_failed(s.conn(), id, 160, "timeout", false, 180).unwrap(),
            OutboxStatus::Pending
        );
        assert!(
            due(s.conn(), 279).unwrap().is_empty(),
            "second backoff is 120 s"
        );
        assert_eq!(
            mark_failed(s.conn(), id, 280, "timeout", false, 180).unwrap(),
            OutboxStatus::Failed
        );
        let row = &all(s.conn()).unwrap()[0];
        assert_eq!(
            (row.attempts, row.status, row.first_failed_at),
            (3, OutboxStatus::Failed, Some(100))
        );
        assert_eq!(row.last_error.as_deref(), Some("timeout"));
        assert_eq!(troubled(s.conn()).unwrap().len(), 1);
        assert!(retry(s.conn(), id, 300).unwrap());
        let row = get(s.conn(), id).unwrap().unwrap();
        assert_eq!(
            (
                row.status,
                row.attempts,
                row.first_failed_at,
                row.next_attempt_at
            ),
            (OutboxStatus::Pending, 0, None, 300)
        );
        assert_eq!(
            mark_failed(s.conn(), id, 300, "550 no such user", true, 180).unwrap(),
            OutboxStatus::Failed,
            "permanent: at once"
        );
        assert_eq!(retry_failed(s.conn(), 400).unwrap(), 1);
        assert!(drop_mail(s.conn(), id).unwrap());
        assert_eq!(
            get(s.conn(), id).unwrap().unwrap().status,
            OutboxStatus::Cancelled
        );
        assert!(
            !retry(s.conn(), id, 500).unwrap(),
            "a dropped mail stays dropped"
        );
        let id2 = queue(s.conn(), &mail("m2"), 300).unwrap();
        mark_sent(s.conn(), id2, 301).unwrap();
        assert!(due(s.conn(), 10_000).unwrap().is_empty());
    }

    #[test]
    fn due_ids_and_due_row_agree_with_due() {
        let s = Store::in_memory().unwrap();
        let c = s.conn();
        for (i, at) in [(1, 0), (2, 50), (3, 0)] {
            let id = queue(c, &mail(&format!("m{i}")), 0).unwrap();
            if at > 0 {
                c.execute(
                    "UPDATE outbox SET next_attempt_at = ?2 WHERE id = ?1",
                    params![id, at],
                )
                .unwrap();
            }
        }
        let ids: Vec<i64> = due(c, 10).unwrap().iter().map(|r| r.id).collect();
        assert_eq!(due_ids(c, 10).unwrap(), ids);
        assert_eq!(ids.len(), 2);
        let row = due_row(c, ids[0], 10).unwrap().unwrap();
        let full = &due(c, 10).unwrap()[0];
        assert_eq!(row.message_id, "m1");
        assert_eq!(row.raw, full.mail.raw);
        assert_eq!(
            (
                &row.game_id,
                row.turn,
                row.kind,
                &row.recipient,
                &row.subject
            ),
            (
                &full.mail.game_id,
                full.mail.turn,
                full.mail.kind,
                &full.mail.recipient,
                &full.mail.subject
            )
        );
        // Not yet due, then sent: no row.
        let later = due_ids(c, 60).unwrap();
        assert_eq!(later.len(), 3);
        assert!(due_row(c, later[1], 10).unwrap().is_none());
        mark_sent(c, ids[0], 20).unwrap();
        assert!(due_row(c, ids[0], 30).unwrap().is_none());
    }

    #[test]
    fn held_mails_are_not_due_until_released_and_cancelled_never() {
        let s = Store::in_memory().unwrap();
        let mut m = mail("r1");
        m.kind = MailKind::Report;
        queue(s.conn(), &m, 100).unwrap();
        queue(s.conn(), &mail("c1"), 100).unwrap();
        assert_eq!(hold(s.conn(), "g", 1, &[MailKind::Report]).unwrap(), 1);
        let due_ids: Vec<String> = due(s.conn(), 200)
            .unwrap()
            .into_iter()
            .map(|r| r.mail.message_id)
            .collect();
        assert_eq!(due_ids, ["c1"], "the held report is skipped by the sender");
        assert_eq!(
            problems(s.conn(), 1000).unwrap()[&Some("g".to_string())],
            (0, 1, 1)
        );
        assert_eq!(release(s.conn(), "g", 300).unwrap(), 1);
        assert_eq!(due(s.conn(), 300).unwrap().len(), 2);
        assert_eq!(
            cancel_after(s.conn(), "g", 0, &[MailKind::Report]).unwrap(),
            1
        );
        assert_eq!(all(s.conn()).unwrap()[0].status, OutboxStatus::Cancelled);
        assert_eq!(due(s.conn(), 300).unwrap().len(), 1);
    }

    #[test]
    fn backoff_doubles_and_caps() {
        assert_eq!([backoff(1), backoff(2), backoff(3)], [60, 120, 240]);
        assert_eq!(backoff(30), 6 * 3600);
    }
}
