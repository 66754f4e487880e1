//! DKIM verification of inbound mail (issue 10, "Authenticity beyond
//! passwords"), with the `mail-auth` crate (RFC 6376, RSA and Ed25519).
//!
//! One raw mail gives one [`DkimVerdict`]:
//! - [`DkimVerdict::None`]: no `DKIM-Signature` header;
//! - [`DkimVerdict::Pass`]: a signature verified *and* its signing domain
//!   (`d=`) is aligned with the From domain: equal to it, or a parent of it
//!   (`d=example.org` signs for `alice@mail.example.org`). A valid
//!   signature of some other domain (a mailing list, a relay) says nothing
//!   about the author, so it does not count;
//! - [`DkimVerdict::Fail`]: signatures were present and none passed
//!   aligned; [`FailReason`] says why (body changed, bad signature, no key,
//!   expired, misaligned...), as data, so the daemon can say it in the
//!   game's language;
//! - [`DkimVerdict::TempError`]: the signer's key could not be looked up
//!   (DNS down, timeout, lookups switched off). Never a crash: the caller
//!   decides what a game that requires DKIM does with it.
//!
//! Lookups: the `._domainkey` TXT record comes from [`DkimConfig::records`]
//! (keys pinned in `arbitre.toml`, which is also how tests verify offline
//! and deterministically) and otherwise from the system resolver, with a
//! timeout, or from nowhere when `resolver = "off"`. The pinned records are
//! handed to mail-auth as its TXT cache (its documented way to pre-load
//! records); with `off`, the cache answers every other name with a DNS
//! error, so mail-auth never touches the network.
//!
//! Choices where the issue is silent: a mail with several signatures passes
//! when any aligned one passes (a relay may add its own); failing that, a
//! temporary error wins over a failure (a retry may pass), then a valid but
//! misaligned signature (the most useful thing to tell the player), then the
//! first failure. At most [`MAX_SIGNATURES`] signatures are checked, so a
//! hostile mail cannot make the daemon do hundreds of lookups. Bare LF line
//! ends (Maildir files) are turned back into the CRLF the signer hashed.
//!
//! This module is the pure half (no resolver, no socket, no clock): the
//! configuration, the verdict types, the alignment rule, the pinned records
//! handed to mail-auth as its answers, [`judge`] (the verdict from each
//! signature's result) and the signing used by tests. The lookups and the
//! async runtime that runs mail-auth's verification are the I/O half,
//! `transport::dns` ([`crate::dkim::DkimVerifier`]).

use mail_auth::common::crypto::Ed25519Key;
use mail_auth::common::headers::HeaderWriter;
use mail_auth::common::parse::TxtRecordParser;
use mail_auth::common::verify::DomainKey;
use mail_auth::dkim::DkimSigner;
use mail_auth::{DkimResult, Error as AuthError, ResolverCache, Txt};
use serde::Deserialize;
use std::borrow::{Borrow, Cow};
use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;
use std::time::{Duration, Instant};

/// Signatures checked per mail, at most.
pub const MAX_SIGNATURES: usize = 5;

/// Default time for all the lookups of one mail.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// Where the signers' public keys come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ResolverKind {
    /// The system's resolver (`/etc/resolv.conf`), one attempt per lookup.
    #[default]
    System,
    /// No DNS: only keys pinned in [`DkimConfig::records`] verify; any
    /// other signature is a temporary error.
    Off,
}

/// The `[dkim]` table of `arbitre.toml`.
///
/// ```toml
/// [dkim]
/// resolver = "system"      # or "off"
/// timeout_seconds = 5
/// [dkim.records]           # pinned keys, checked before any lookup
/// "mail._domainkey.example.org" = "v=DKIM1; k=ed25519; p=11qYAYKx..."
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DkimToml {
    pub resolver: Option<ResolverKind>,
    pub timeout_seconds: Option<u64>,
    #[serde(default)]
    pub records: BTreeMap<String, String>,
}

impl DkimToml {
    pub fn resolve(self) -> Result<DkimConfig, String> {
        let config = DkimConfig {
            resolver: self.resolver.unwrap_or_default(),
            timeout: self
                .timeout_seconds
                .map_or(DEFAULT_TIMEOUT, |s| Duration::from_secs(s.clamp(1, 60))),
            records: self.records,
        };
        config.check()?;
        Ok(config)
    }
}

/// How the daemon verifies signatures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DkimConfig {
    pub resolver: ResolverKind,
    /// For all the lookups of one mail together.
    pub timeout: Duration,
    /// Pinned TXT records: `selector._domainkey.domain` → record text.
    pub records: BTreeMap<String, String>,
}

impl Default for DkimConfig {
    fn default() -> DkimConfig {
        DkimConfig {
            resolver: ResolverKind::System,
            timeout: DEFAULT_TIMEOUT,
            records: BTreeMap::new(),
        }
    }
}

impl DkimConfig {
    /// No DNS, no pinned key: every signature is a temporary error.
    pub fn off() -> DkimConfig {
        DkimConfig {
            resolver: ResolverKind::Off,
            ..DkimConfig::default()
        }
    }

    /// Every pinned record must be a DKIM key record.
    pub fn check(&self) -> Result<(), String> {
        for (name, record) in &self.records {
            if !name.contains("._domainkey.") {
                return Err(format!(
                    "[dkim.records] '{name}' is not a selector._domainkey.domain name"
                ));
            }
            DomainKey::parse(record.as_bytes())
                .map_err(|e| format!("[dkim.records] '{name}': not a DKIM key record ({e})"))?;
        }
        Ok(())
    }
}

/// Why no signature passed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FailReason {
    /// The body was changed after signing (body hash mismatch).
    BodyChanged,
    /// The header signature does not verify with the published key.
    BadSignature,
    /// The signature's `x=` expiry has passed.
    Expired,
    /// The signer publishes no key at `selector._domainkey.domain`.
    NoKey { domain: String },
    /// A signature verified, but for another domain than the From one.
    Misaligned { signer: String, from: String },
    /// The signature header or key cannot be used (syntax, algorithm...),
    /// in mail-auth's words.
    Unusable(String),
}

/// The outcome for one mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DkimVerdict {
    None,
    Pass { domain: String },
    Fail(FailReason),
    TempError { reason: String },
}

impl DkimVerdict {
    /// A one-line English summary, for the journal and logs.
    pub fn summary(&self) -> String {
        match self {
            DkimVerdict::None => "dkim=none".into(),
            DkimVerdict::Pass { domain } => format!("dkim=pass d={domain}"),
            DkimVerdict::Fail(r) => format!("dkim=fail ({r:?})"),
            DkimVerdict::TempError { reason } => format!("dkim=temperror ({reason})"),
        }
    }
}

/// True when a signature by `signer` speaks for `domain`: the same domain
/// or a parent of it, case-insensitively, whole labels only
/// (`example.org` aligns with `mail.example.org`, not with `badexample.org`).
pub fn aligned(signer: &str, domain: &str) -> bool {
    let s = signer.trim().trim_end_matches('.').to_ascii_lowercase();
    let d = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    if s.is_empty() || d.is_empty() {
        return false;
    }
    d == s || d.ends_with(&format!(".{s}"))
}

/// The domain of an address (`alice@Example.org` → `example.org`).
pub fn domain_of(address: &str) -> Option<String> {
    let (_, d) = address.trim().trim_end_matches('>').rsplit_once('@')?;
    let d = d.trim().to_ascii_lowercase();
    (!d.is_empty()).then_some(d)
}

/// Pinned records as mail-auth's TXT cache: the DNS answers given to the
/// verification. With `off`, every name that is
/// not pinned is answered by an error, so no lookup ever leaves the process.
pub(crate) struct Pinned {
    records: HashMap<String, Txt>,
    off: bool,
}

impl Pinned {
    pub(crate) fn new(config: &DkimConfig) -> Pinned {
        let records = config
            .records
            .iter()
            .map(|(name, rec)| (fqdn(name), Txt::from(DomainKey::parse(rec.as_bytes()))))
            .collect();
        Pinned {
            records,
            off: config.resolver == ResolverKind::Off,
        }
    }
}

fn fqdn(name: &str) -> String {
    let mut n = name.trim().to_ascii_lowercase();
    if !n.ends_with('.') {
        n.push('.');
    }
    n
}

impl ResolverCache<String, Txt> for Pinned {
    fn get<Q>(&self, name: &Q) -> Option<Txt>
    where
        String: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        match self.records.get(name) {
            Some(t) => Some(t.clone()),
            None if self.off => Some(Txt::Error(AuthError::DnsError(
                "DNS lookups are off ([dkim] resolver = \"off\")".into(),
            ))),
            None => None,
        }
    }

    fn remove<Q>(&self, _: &Q) -> Option<Txt>
    where
        String: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        None
    }

    // The resolver keeps its own cache; pinned records never change.
    fn insert(&self, _: String, _: Txt, _: Instant) {}
}

/// The verdict from each signature's (signing domain, result).
pub fn judge(results: &[(String, DkimResult)], from_domain: &str) -> DkimVerdict {
    let best_pass = results
        .iter()
        .filter(|(d, r)| *r == DkimResult::Pass && aligned(d, from_domain))
        .map(|(d, _)| d)
        .max_by_key(|d| d.len());
    if let Some(d) = best_pass {
        return DkimVerdict::Pass { domain: d.clone() };
    }
    if let Some((_, DkimResult::TempError(e))) = results
        .iter()
        .find(|(_, r)| matches!(r, DkimResult::TempError(_)))
    {
        return DkimVerdict::TempError {
            reason: e.to_string(),
        };
    }
    if let Some((d, _)) = results.iter().find(|(_, r)| *r == DkimResult::Pass) {
        return DkimVerdict::Fail(FailReason::Misaligned {
            signer: d.clone(),
            from: from_domain.to_string(),
        });
    }
    let Some((domain, result)) = results.first() else {
        return DkimVerdict::None;
    };
    let err = match result {
        DkimResult::Neutral(e)
        | DkimResult::Fail(e)
        | DkimResult::PermError(e)
        | DkimResult::TempError(e) => e.clone(),
        DkimResult::Pass | DkimResult::None => return DkimVerdict::None,
    };
    DkimVerdict::Fail(match err {
        AuthError::FailedBodyHashMatch => FailReason::BodyChanged,
        // ring reports a signature that does not verify as an unspecified
        // crypto error: for the player it is the same thing.
        AuthError::FailedVerification | AuthError::FailedAuidMatch | AuthError::CryptoError(_) => {
            FailReason::BadSignature
        }
        AuthError::SignatureExpired => FailReason::Expired,
        AuthError::DnsRecordNotFound(_)
        | AuthError::InvalidRecordType
        | AuthError::RevokedPublicKey => FailReason::NoKey {
            domain: domain.clone(),
        },
        other => FailReason::Unusable(other.to_string()),
    })
}

/// True when the header section has a `DKIM-Signature` field.
pub(crate) fn has_signature_header(raw: &[u8]) -> bool {
    const NAME: &[u8] = b"dkim-signature:";
    let mut rest = raw;
    loop {
        if rest.is_empty() || rest.starts_with(b"\n") || rest.starts_with(b"\r\n") {
            return false;
        }
        if rest.len() >= NAME.len() && rest[..NAME.len()].eq_ignore_ascii_case(NAME) {
            return true;
        }
        match rest.iter().position(|&b| b == b'\n') {
            Some(i) => rest = &rest[i + 1..],
            None => return false,
        }
    }
}

/// Bare LF line ends back to CRLF (a Maildir file stores LF only, the
/// signer hashed CRLF). Mails already in CRLF are borrowed unchanged.
pub(crate) fn crlf(raw: &[u8]) -> Cow<'_, [u8]> {
    let bare = raw
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'\n' && (i == 0 || raw[i - 1] != b'\r'));
    if !bare {
        return Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len() + raw.len() / 32);
    for (i, &b) in raw.iter().enumerate() {
        if b == b'\n' && (i == 0 || raw[i - 1] != b'\r') {
            out.push(b'\r');
        }
        out.push(b);
    }
    Cow::Owned(out)
}

/// An Ed25519 signing key for a domain: what tests (and a game master
/// checking a setup) use to sign a mail and pin the matching record,
/// without any DNS.
pub struct SigningDomain {
    pub domain: String,
    pub selector: String,
    pkcs8: Vec<u8>,
}

impl SigningDomain {
    /// A fresh random key for `selector._domainkey.domain`.
    pub fn generate(domain: &str, selector: &str) -> Result<SigningDomain, String> {
        let pkcs8 = Ed25519Key::generate_pkcs8().map_err(|e| e.to_string())?;
        Ok(SigningDomain {
            domain: domain.to_string(),
            selector: selector.to_string(),
            pkcs8,
        })
    }

    fn key(&self) -> Result<Ed25519Key, String> {
        Ed25519Key::from_pkcs8_der(&self.pkcs8).map_err(|e| e.to_string())
    }

    /// The DNS name of the public key record.
    pub fn record_name(&self) -> String {
        format!("{}._domainkey.{}", self.selector, self.domain)
    }

    /// The TXT record to publish (or pin in `[dkim.records]`).
    pub fn record(&self) -> Result<String, String> {
        use base64::Engine as _;
        let public = self.key()?.public_key();
        Ok(format!(
            "v=DKIM1; k=ed25519; p={}",
            base64::engine::general_purpose::STANDARD.encode(public)
        ))
    }

    /// The mail with a `DKIM-Signature` header prepended (relaxed/relaxed,
    /// From, To, Subject, Date and Message-ID signed).
    pub fn sign(&self, raw: &[u8]) -> Result<Vec<u8>, String> {
        let raw = crlf(raw);
        let signature = DkimSigner::from_key(self.key()?)
            .domain(self.domain.clone())
            .selector(self.selector.clone())
            .headers(["From", "To", "Subject", "Date", "Message-ID"])
            .header_canonicalization(mail_auth::dkim::Canonicalization::Relaxed)
            .body_canonicalization(mail_auth::dkim::Canonicalization::Relaxed)
            .sign(&raw)
            .map_err(|e| e.to_string())?;
        let mut out = signature.to_header().into_bytes();
        out.extend_from_slice(&raw);
        Ok(out)
    }
}
