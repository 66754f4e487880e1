//! How a mail's raw text is kept in `outbox_raw` (migration 14, issue 22
//! item 4), and its body in `outbox` (migration 15): as sent, or
//! LZ4-compressed.
//!
//! A report mail is 50–400 kB, most of it base64 of its SVG map and JSON
//! view, and each byte of it was copied four times after it was formatted:
//! into the write-ahead log, from the log into the database at the
//! checkpoint, back out for the sender, and into the transport. At ten
//! thousand games that was 10 GB a round, more than the page cache of the
//! machine the capacity simulation ran on. LZ4 keeps about a third of it
//! (3.3 times smaller on an EDS report) at over 1 GB/s: less work than the
//! copies it saves, and a database that stays in memory.
//!
//! The bytes the sender gets back are exactly those queued: compression is
//! the store's business, invisible above [`crate::outbox`]. A database
//! with compressed rows carries schema version 14, which an older arbitre
//! refuses to open (`StoreError::TooNew`) instead of mailing compressed
//! bytes.

use crate::{MailKind, Result, StoreError};
use std::borrow::Cow;

/// The value of `outbox_raw.codec`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Codec {
    /// The raw text as sent (every row written before migration 14, small
    /// mails, and what does not compress).
    Plain = 0,
    /// An LZ4 block, the raw text's length first (`lz4_flex`'s
    /// `compress_prepend_size`).
    Lz4 = 1,
    /// An LZ4 block (length first) of the mail's [`RawPart`]s (migration
    /// 16): its base64 attachments kept as their content, encoded again
    /// when the row is read. Raw texts only.
    Parts = 2,
    /// A zstd frame (length first) of the mail's [`RawPart`]s compressed
    /// with its turn's base as dictionary (migration 17, `raw_base`): the
    /// flat pieces of the first mail the turn queued. The reports of one
    /// turn are one map and one view seen by different players; each alone
    /// kept a quarter of its size, against its base a fiftieth.
    Delta = 3,
}

/// A piece of a mail's raw text as the daemon hands it to
/// [`crate::outbox::queue_parts`]: the mail is the pieces end to end,
/// each [`RawPart::Base64`] written as [`base64_lines`] of its content.
///
/// Why (issue 22 item 4): a report mail is mostly the base64 of its SVG
/// map and JSON view. Compressing that text was a quarter of resolving a
/// turn (LZ4 runs at about 300 MB/s on base64 against 1,200 MB/s on what
/// it encodes, and keeps a third more of it); encoding it was another
/// twentieth. Kept as content, the attachments are compressed cheaply and
/// encoded once, when the mail is read to be sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawPart {
    Bytes(Vec<u8>),
    Base64(Vec<u8>),
}

/// `content` in base64 as a mail carries it: lines of 76 characters
/// joined by CRLF, none after the last (what lettre writes, and
/// `arbitre_mail`'s formatter; the daemon's test
/// `raw_parts_read_back_as_the_formatted_mail` holds the two together).
pub fn base64_lines(content: &[u8], out: &mut Vec<u8>) {
    use base64::Engine;
    // 57 bytes make one line of 76 characters, and 57 is a multiple of
    // three, so each line is encoded on its own, straight into `out`
    // (issue 22 item 4: the text of the whole content, then copied line by
    // line, was a share of reading every report back to send it).
    let engine = &base64::engine::general_purpose::STANDARD;
    let lines = content.len().div_ceil(57);
    out.reserve(content.len().div_ceil(3) * 4 + lines.saturating_sub(1) * 2);
    for (i, chunk) in content.chunks(57).enumerate() {
        if i > 0 {
            out.extend_from_slice(b"\r\n");
        }
        let at = out.len();
        out.resize(at + chunk.len().div_ceil(3) * 4, 0);
        // The room is exactly the encoded length, so this never fails.
        let n = out
            .get_mut(at..)
            .and_then(|room| engine.encode_slice(chunk, room).ok())
            .unwrap_or(0);
        out.truncate(at + n);
    }
}

/// What to store for a mail given in parts: for a kind that is compressed,
/// [`Codec::Parts`]; for any other, the bytes as sent, as [`pack`] would
/// keep them.
pub(crate) fn pack_parts(kind: MailKind, parts: Vec<RawPart>) -> (Codec, Vec<u8>) {
    let has_base64 = parts.iter().any(|p| matches!(p, RawPart::Base64(_)));
    if !compressed_kind(kind) || !has_base64 {
        let raw = render(parts);
        return match pack(kind, &raw) {
            (Codec::Plain, _) => (Codec::Plain, raw),
            (codec, packed) => (codec, packed.into_owned()),
        };
    }
    let flat = flat(parts);
    (Codec::Parts, lz4_flex::block::compress_prepend_size(&flat))
}

/// Whether a mail given in parts may be kept as [`Codec::Delta`] against
/// its turn's base: the mails a turn writes for its viewers.
pub(crate) fn delta_kind(kind: MailKind, parts: &[RawPart]) -> bool {
    matches!(kind, MailKind::Report | MailKind::Gm | MailKind::Observer)
        && parts.iter().any(|p| matches!(p, RawPart::Base64(_)))
}

/// The pieces end to end, each as its tag (0 bytes, 1 base64 content),
/// its length (u32, little-endian) and its bytes: what [`Codec::Parts`]
/// compresses and [`Codec::Delta`] compares with its base.
pub(crate) fn flat(parts: Vec<RawPart>) -> Vec<u8> {
    let size: usize = parts.iter().map(|p| 5 + part_bytes(p).len()).sum();
    let mut flat = Vec::with_capacity(size);
    for p in &parts {
        let (tag, bytes) = match p {
            RawPart::Bytes(b) => (0u8, b),
            RawPart::Base64(b) => (1u8, b),
        };
        flat.push(tag);
        // A mail is refused far below 4 GB (issue 14 item 1).
        flat.extend_from_slice(&u32::try_from(bytes.len()).unwrap_or(u32::MAX).to_le_bytes());
        flat.extend_from_slice(bytes);
    }
    flat
}

/// A turn's base (table `raw_base`, migration 17) as stored: the flat
/// pieces of the first mail of the turn, LZ4-compressed, length first.
pub(crate) fn pack_base(flat: &[u8]) -> Vec<u8> {
    lz4_flex::block::compress_prepend_size(flat)
}

pub(crate) fn unpack_base(blob: &[u8]) -> Result<Vec<u8>> {
    lz4_flex::block::decompress_size_prepended(blob)
        .map_err(|e| StoreError::Corrupt(format!("a turn's base of raw texts: {e}")))
}

/// zstd's fastest level: against its base, most of a report is a few
/// long matches, which every level finds.
const DELTA_LEVEL: i32 = 1;

/// A zstd context holding a turn's base as its dictionary, kept for the
/// next mail of the turn: a turn's mails are queued one after the other,
/// then sent one after the other, and making the context and digesting
/// the base for each mail cost more than compressing it.
struct Prepared<Z> {
    id: i64,
    /// The base as stored: a row of the same id is the same base only if
    /// it stores the same bytes (an id freed by a rollback is given again).
    stored: Vec<u8>,
    z: Z,
}

thread_local! {
    static COMPRESSOR: std::cell::RefCell<Option<Prepared<zstd::bulk::Compressor<'static>>>> =
        const { std::cell::RefCell::new(None) };
    static DECOMPRESSOR: std::cell::RefCell<Option<Prepared<zstd::bulk::Decompressor<'static>>>> =
        const { std::cell::RefCell::new(None) };
}

/// The context of `cell` for base `id` storing `stored`: the one kept if
/// it is that base's, else one made by `make` from the base's flat pieces
/// (`base_flat`, or unpacked from `stored`).
fn prepared<Z, T>(
    cell: &'static std::thread::LocalKey<std::cell::RefCell<Option<Prepared<Z>>>>,
    id: i64,
    stored: &[u8],
    base_flat: Option<&[u8]>,
    make: impl FnOnce(&[u8]) -> std::io::Result<Z>,
    then: impl FnOnce(&mut Z) -> Result<T>,
) -> Result<T> {
    cell.with_borrow_mut(|kept| {
        let current = kept
            .as_ref()
            .is_some_and(|p| p.id == id && p.stored == stored);
        if !current {
            // A failure below leaves nothing kept rather than a stale base.
            *kept = None;
            let made = match base_flat {
                Some(flat) => make(flat),
                None => make(&unpack_base(stored)?),
            }
            .map_err(|e| StoreError::Corrupt(format!("a turn's base of raw texts: {e}")))?;
            *kept = Some(Prepared {
                id,
                stored: stored.to_vec(),
                z: made,
            });
        }
        match kept.as_mut() {
            Some(p) => then(&mut p.z),
            None => Err(StoreError::Corrupt(
                "a turn's base of raw texts: none".into(),
            )),
        }
    })
}

/// [`Codec::Delta`]: `flat` compressed by zstd with its turn's base as
/// dictionary, its length first (u32, LE). The base is row `id` of
/// `raw_base`, which stores `stored`; `base_flat`, if given, is its flat
/// pieces (a base just made), else they are unpacked from `stored`.
pub(crate) fn pack_delta(
    flat: &[u8],
    id: i64,
    stored: &[u8],
    base_flat: Option<&[u8]>,
) -> Result<Vec<u8>> {
    let len = u32::try_from(flat.len())
        .map_err(|_| StoreError::Corrupt("a raw text of 4 GB or more".into()))?;
    let frame = prepared(
        &COMPRESSOR,
        id,
        stored,
        base_flat,
        |base| zstd::bulk::Compressor::with_dictionary(DELTA_LEVEL, base),
        |z| {
            z.compress(flat)
                .map_err(|e| StoreError::Corrupt(format!("compressing a raw text: {e}")))
        },
    )?;
    let mut out = Vec::with_capacity(4 + frame.len());
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&frame);
    Ok(out)
}

/// The raw text of a [`Codec::Delta`] blob against base `id`, which stores
/// `stored`.
fn unpack_delta(blob: &[u8], id: i64, stored: &[u8]) -> Result<Vec<u8>> {
    let corrupt =
        |what: String| StoreError::Corrupt(format!("a mail's raw text as a delta: {what}"));
    let (len, frame) = blob
        .split_first_chunk::<4>()
        .ok_or_else(|| corrupt("its length is cut".into()))?;
    let len = u32::from_le_bytes(*len) as usize;
    // The frame says its size too: a damaged length is not an allocation.
    if !matches!(zstd::zstd_safe::get_frame_content_size(frame), Ok(Some(n)) if n == len as u64) {
        return Err(corrupt(format!("its frame does not hold {len} bytes")));
    }
    let flat = prepared(
        &DECOMPRESSOR,
        id,
        stored,
        None,
        zstd::bulk::Decompressor::with_dictionary,
        |z| z.decompress(frame, len).map_err(|e| corrupt(e.to_string())),
    )?;
    if flat.len() != len {
        return Err(corrupt(format!("{} bytes, not {len}", flat.len())));
    }
    unflat(&flat)
}

fn part_bytes(p: &RawPart) -> &[u8] {
    match p {
        RawPart::Bytes(b) | RawPart::Base64(b) => b,
    }
}

fn render(parts: Vec<RawPart>) -> Vec<u8> {
    let mut out = Vec::new();
    for p in parts {
        match p {
            RawPart::Bytes(b) if out.is_empty() => out = b,
            RawPart::Bytes(b) => out.extend_from_slice(&b),
            RawPart::Base64(b) => base64_lines(&b, &mut out),
        }
    }
    out
}

/// The raw text of a [`Codec::Parts`] blob.
fn unpack_parts(blob: &[u8]) -> Result<Vec<u8>> {
    let flat = lz4_flex::block::decompress_size_prepended(blob)
        .map_err(|e| StoreError::Corrupt(format!("a mail's raw text in parts: {e}")))?;
    unflat(&flat)
}

/// The raw text of [`flat`] pieces.
fn unflat(flat: &[u8]) -> Result<Vec<u8>> {
    let corrupt = |what: &str| StoreError::Corrupt(format!("a mail's raw text in parts: {what}"));
    let mut out = Vec::with_capacity(flat.len() + flat.len() / 3);
    let mut rest = flat;
    while let Some((&tag, after)) = rest.split_first() {
        let (len, after) = after
            .split_first_chunk::<4>()
            .ok_or_else(|| corrupt("a piece's length is cut"))?;
        let len = u32::from_le_bytes(*len) as usize;
        let bytes = after.get(..len).ok_or_else(|| corrupt("a piece is cut"))?;
        match tag {
            0 => out.extend_from_slice(bytes),
            1 => base64_lines(bytes, &mut out),
            t => return Err(corrupt(&format!("unknown piece {t}"))),
        }
        rest = &after[len..];
    }
    Ok(out)
}

/// Below this a mail (a confirmation, an error reply: about 1 kB) stays
/// as it is: it fits in a page either way, and the inbox's pace (issue 22
/// item 1) would pay the compression for nothing.
const SMALLEST_COMPRESSED: usize = 4096;

/// The mails a turn or a game's start writes from the game's state, maps
/// and JSON attached: reports, their copies to the GM and observers, the
/// welcome. An answer to a player's mail (confirmation, check, error) is
/// stored as it is: most are 1 kB, and the largest, the echo of a 10 MB
/// order mail, would hold its compressed copy beside it, taking the memory
/// peak of handling such a mail past its bound (issue 14 item 1,
/// `big_order_mail_peak_rss_bounded`). Reminders and notices are small.
fn compressed_kind(kind: MailKind) -> bool {
    match kind {
        MailKind::Report | MailKind::Gm | MailKind::Observer | MailKind::Welcome => true,
        MailKind::Confirm
        | MailKind::Check
        | MailKind::Error
        | MailKind::Reminder
        | MailKind::Notice => false,
    }
}

/// What to store for `raw`: compressed when that saves at least an eighth
/// (base64 of a PNG does not compress; its copy is not worth the decoding).
pub(crate) fn pack(kind: MailKind, raw: &[u8]) -> (Codec, Cow<'_, [u8]>) {
    if !compressed_kind(kind) {
        return (Codec::Plain, Cow::Borrowed(raw));
    }
    if raw.len() < SMALLEST_COMPRESSED {
        return (Codec::Plain, Cow::Borrowed(raw));
    }
    let packed = lz4_flex::block::compress_prepend_size(raw);
    if packed.len() <= raw.len() - raw.len() / 8 {
        (Codec::Lz4, Cow::Owned(packed))
    } else {
        (Codec::Plain, Cow::Borrowed(raw))
    }
}

/// What to store for a mail's `body` (migration 15): the same choice as
/// for its raw text. The texts of reports are kept for ever (RESEND,
/// HISTORY, the web), 120 kB a game-turn: at 10,000 games they were the
/// largest part of the database after ten rounds.
pub(crate) fn pack_text(kind: MailKind, body: &str) -> (Codec, Cow<'_, [u8]>) {
    pack(kind, body.as_bytes())
}

/// A mail's body back from its stored value (text as sent, or a blob) and
/// its codec.
pub(crate) fn unpack_text(codec: i64, stored: rusqlite::types::ValueRef<'_>) -> Result<String> {
    use rusqlite::types::ValueRef;
    let bytes = match stored {
        ValueRef::Text(b) | ValueRef::Blob(b) => b.to_vec(),
        other => {
            return Err(StoreError::Corrupt(format!(
                "a mail's body is stored as {:?}",
                other.data_type()
            )))
        }
    };
    String::from_utf8(unpack(codec, bytes)?)
        .map_err(|e| StoreError::Corrupt(format!("a mail's body is not UTF-8: {e}")))
}

/// The raw text back from a stored blob and its codec.
pub(crate) fn unpack(codec: i64, blob: Vec<u8>) -> Result<Vec<u8>> {
    unpack_raw(codec, blob, None)
}

/// [`unpack`] of a raw text, which may be a [`Codec::Delta`] against the
/// base (id, stored bytes) `base` (table `raw_base`).
pub(crate) fn unpack_raw(codec: i64, blob: Vec<u8>, base: Option<(i64, &[u8])>) -> Result<Vec<u8>> {
    match codec {
        c if c == Codec::Delta as i64 => {
            let (id, stored) = base.ok_or_else(|| {
                StoreError::Corrupt("a mail's raw text as a delta has no base".into())
            })?;
            unpack_delta(&blob, id, stored)
        }
        c if c == Codec::Plain as i64 => Ok(blob),
        c if c == Codec::Lz4 as i64 => lz4_flex::block::decompress_size_prepended(&blob)
            .map_err(|e| StoreError::Corrupt(format!("a mail's compressed raw text: {e}"))),
        c if c == Codec::Parts as i64 => unpack_parts(&blob),
        other => Err(StoreError::Corrupt(format!(
            "a mail's raw text has unknown codec {other}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(raw: &[u8]) -> Codec {
        let (codec, blob) = pack(MailKind::Report, raw);
        assert_eq!(
            unpack(codec as i64, blob.into_owned()).unwrap(),
            raw,
            "{} bytes",
            raw.len()
        );
        codec
    }

    /// Issue 22 item 4: a report in parts reads back as its pieces end to
    /// end, each base64 piece in lines of 76 characters joined by CRLF;
    /// a kind that is not compressed, or a mail without base64 piece, is
    /// stored as [`pack`] stores its bytes.
    #[test]
    fn parts_read_back_as_their_bytes() {
        let head = b"Subject: t\r\n\r\n--b\r\nContent-Transfer-Encoding: base64\r\n\r\n".to_vec();
        for len in [0usize, 1, 2, 3, 56, 57, 58, 114, 1_000, 50_000] {
            let content: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
            let parts = vec![
                RawPart::Bytes(head.clone()),
                RawPart::Base64(content.clone()),
                RawPart::Bytes(b"\r\n--b--\r\n".to_vec()),
            ];
            use base64::Engine;
            let text = base64::engine::general_purpose::STANDARD.encode(&content);
            let lines: Vec<&str> = text
                .as_bytes()
                .chunks(76)
                .map(|l| std::str::from_utf8(l).unwrap())
                .collect();
            let mut want = head.clone();
            want.extend_from_slice(lines.join("\r\n").as_bytes());
            want.extend_from_slice(b"\r\n--b--\r\n");
            let (codec, blob) = pack_parts(MailKind::Report, parts.clone());
            assert_eq!(codec, Codec::Parts);
            assert_eq!(unpack(codec as i64, blob).unwrap(), want, "{len} bytes");
            let (codec, blob) = pack_parts(MailKind::Confirm, parts);
            assert_eq!(codec, Codec::Plain, "{len} bytes");
            assert_eq!(blob, want);
        }
        let (codec, _) = pack_parts(MailKind::Report, vec![RawPart::Bytes(vec![b'a'; 10_000])]);
        assert_eq!(codec, Codec::Lz4, "no base64 piece: the bytes compressed");
    }

    #[test]
    fn damaged_parts_are_errors_not_panics() {
        let flat = |bytes: &[u8]| lz4_flex::block::compress_prepend_size(bytes);
        for bad in [
            flat(&[0, 5, 0, 0, 0, b'a']), // a piece cut short
            flat(&[1, 1, 0]),             // a length cut short
            flat(&[7, 1, 0, 0, 0, b'a']), // an unknown piece
            vec![9, 0, 0, 0, 1, 2, 3],    // not LZ4
        ] {
            assert!(matches!(
                unpack(Codec::Parts as i64, bad),
                Err(StoreError::Corrupt(_))
            ));
        }
        assert_eq!(unpack(Codec::Parts as i64, flat(&[])).unwrap(), b"");
    }

    /// A delta reads back against its own base only: the dictionary kept
    /// for a base id is not used for another base given the same id (an
    /// id freed by a rolled-back transaction is given again), and a delta
    /// read against another base is an error or other bytes, never a
    /// panic.
    #[test]
    fn a_delta_is_kept_against_its_own_base() {
        let text = |who: &str| {
            let mut parts = vec![RawPart::Bytes(format!("To: {who}\r\n\r\n").into_bytes())];
            parts.push(RawPart::Base64(
                (0..2_000)
                    .map(|i| format!("<star id=\"{i}\" owner=\"{who}\"/>\n"))
                    .collect::<String>()
                    .into_bytes(),
            ));
            parts
        };
        let a = flat(text("a"));
        let b = flat(text("b"));
        let (stored_a, stored_b) = (pack_base(&a), pack_base(&b));
        let read = |blob: &[u8], stored: &[u8]| {
            unpack_raw(Codec::Delta as i64, blob.to_vec(), Some((1, stored)))
        };
        let want = |f: &[u8]| unflat(f).unwrap();
        let c = flat(text("c"));
        let against_a = pack_delta(&c, 1, &stored_a, Some(&a)).unwrap();
        assert_eq!(read(&against_a, &stored_a).unwrap(), want(&c));
        // Base 1 again, other bytes: its own dictionary is made.
        let against_b = pack_delta(&c, 1, &stored_b, None).unwrap();
        assert_eq!(read(&against_b, &stored_b).unwrap(), want(&c));
        // Base 1 as kept: the kept dictionary, the same bytes.
        assert_eq!(pack_delta(&c, 1, &stored_b, None).unwrap(), against_b);
        let alone = pack_parts(MailKind::Report, text("c")).1.len();
        assert!(
            against_b.len() * 4 < alone,
            "{} against {alone}",
            against_b.len()
        );
        let other = pack_base(&flat(text("someone else")));
        assert!(read(&against_b, &other).map_or(true, |r| r != want(&c)));
        for cut in [0, 3, 4, 10, against_b.len() - 1] {
            assert!(read(&against_b[..cut], &stored_b).is_err(), "cut at {cut}");
        }
        assert!(unpack_raw(Codec::Delta as i64, against_b.clone(), None).is_err());
        let mut bad_len = against_b.clone();
        bad_len[0] ^= 0x40;
        assert!(read(&bad_len, &stored_b).is_err());
    }

    #[test]
    fn small_and_incompressible_texts_stay_plain_large_ones_shrink() {
        assert_eq!(round_trip(b""), Codec::Plain);
        assert_eq!(round_trip(&[b'a'; SMALLEST_COMPRESSED - 1]), Codec::Plain);
        assert_eq!(round_trip(&[b'a'; SMALLEST_COMPRESSED]), Codec::Lz4);
        // Seeded noise over the whole byte range: nothing to find.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let noise: Vec<u8> = (0..100_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        assert_eq!(round_trip(&noise), Codec::Plain);
        let map = "<path d=\"M 10 20 L 30 40\" class=\"star owned\"/>\r\n".repeat(2_000);
        assert_eq!(round_trip(map.as_bytes()), Codec::Lz4);
        assert!(pack(MailKind::Report, map.as_bytes()).1.len() < map.len() / 4);
        for kind in MailKind::ALL {
            let expected = match kind {
                MailKind::Report | MailKind::Gm | MailKind::Observer | MailKind::Welcome => {
                    Codec::Lz4
                }
                _ => Codec::Plain,
            };
            assert_eq!(pack(*kind, map.as_bytes()).0, expected, "{kind:?}");
        }
    }

    #[test]
    fn every_length_around_the_threshold_round_trips() {
        let text: Vec<u8> = "Sternenkarte J1M1: Stern 12 (3,4) Schiffe 40\r\n"
            .bytes()
            .cycle()
            .take(3 * SMALLEST_COMPRESSED)
            .collect();
        for n in (SMALLEST_COMPRESSED - 64..SMALLEST_COMPRESSED + 64)
            .chain([2 * SMALLEST_COMPRESSED, 3 * SMALLEST_COMPRESSED])
        {
            round_trip(&text[..n]);
        }
    }

    #[test]
    fn bodies_round_trip_as_text_or_blob() {
        use rusqlite::types::ValueRef;
        let body = "Compte rendu du tour 3 : la flotte 12 arrive en 40.\r\n".repeat(200);
        let (codec, stored) = pack_text(MailKind::Report, &body);
        assert_eq!(codec, Codec::Lz4);
        assert_eq!(
            unpack_text(codec as i64, ValueRef::Blob(&stored)).unwrap(),
            body
        );
        let (codec, stored) = pack_text(MailKind::Confirm, &body);
        assert_eq!(codec, Codec::Plain);
        assert_eq!(
            unpack_text(codec as i64, ValueRef::Text(&stored)).unwrap(),
            body
        );
        assert!(matches!(
            unpack_text(0, ValueRef::Blob(b"\xff\xfe")),
            Err(StoreError::Corrupt(_))
        ));
        assert!(matches!(
            unpack_text(0, ValueRef::Null),
            Err(StoreError::Corrupt(_))
        ));
    }

    #[test]
    fn a_damaged_or_unknown_blob_is_an_error_not_a_panic() {
        let (codec, blob) = pack(MailKind::Gm, &[b'x'; 10_000]);
        assert_eq!(codec, Codec::Lz4);
        let mut blob = blob.into_owned();
        blob.truncate(blob.len() / 2);
        assert!(matches!(unpack(1, blob), Err(StoreError::Corrupt(_))));
        // A length prefix far beyond what follows.
        assert!(matches!(
            unpack(1, vec![0x00, 0x00, 0x10, 0x00, 0x10]),
            Err(StoreError::Corrupt(_))
        ));
        assert!(matches!(
            unpack(7, b"x".to_vec()),
            Err(StoreError::Corrupt(_))
        ));
    }
}
