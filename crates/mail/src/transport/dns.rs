//! DKIM verification's I/O half (issue 10): the resolver (the system's,
//! with a timeout, or none with `resolver = "off"`) and the small async
//! runtime mail-auth's verification runs on. What a result means — the
//! verdict, alignment, the pinned answers — is the pure half,
//! `message::dkim`, re-exported with this at [`crate::dkim`].

use mail_auth::hickory_resolver::config::{NameServerConfigGroup, ResolverConfig, ResolverOpts};
use mail_auth::hickory_resolver::system_conf::read_system_conf;
use mail_auth::{AuthenticatedMessage, DkimResult, MessageAuthenticator};
use std::sync::{Arc, OnceLock};

use crate::message::dkim::{
    crlf, domain_of, has_signature_header, judge, DkimConfig, DkimVerdict, Pinned, ResolverKind,
    MAX_SIGNATURES,
};

/// The async machinery, built on first use: a signed mail is rare, and an
/// unsigned one must cost nothing.
struct Engine {
    runtime: tokio::runtime::Runtime,
    auth: MessageAuthenticator,
}

/// Verifies mails; cheap to clone (the engine is shared and built once).
#[derive(Clone)]
pub struct DkimVerifier {
    config: DkimConfig,
    pinned: Arc<Pinned>,
    engine: Arc<OnceLock<Result<Engine, String>>>,
}

impl std::fmt::Debug for DkimVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DkimVerifier")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl PartialEq for DkimVerifier {
    fn eq(&self, other: &DkimVerifier) -> bool {
        self.config == other.config
    }
}

impl Default for DkimVerifier {
    fn default() -> DkimVerifier {
        DkimVerifier::new(DkimConfig::default())
    }
}

impl DkimVerifier {
    pub fn new(config: DkimConfig) -> DkimVerifier {
        let pinned = Arc::new(Pinned::new(&config));
        DkimVerifier {
            config,
            pinned,
            engine: Arc::new(OnceLock::new()),
        }
    }

    pub fn config(&self) -> &DkimConfig {
        &self.config
    }

    fn engine(&self) -> &Result<Engine, String> {
        self.engine.get_or_init(|| {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| format!("cannot start the DNS runtime: {e}"))?;
            let _in_runtime = runtime.enter();
            let auth = match self.config.resolver {
                // Never asked (the pinned cache answers everything), but
                // mail-auth needs a resolver object to call.
                // No name server at all: nothing could leave the process.
                ResolverKind::Off => MessageAuthenticator::new(
                    ResolverConfig::from_parts(
                        None,
                        vec![],
                        NameServerConfigGroup::with_capacity(0),
                    ),
                    ResolverOpts::default(),
                ),
                ResolverKind::System => {
                    let (conf, mut opts) = read_system_conf().map_err(|e| {
                        format!("cannot read the system resolver configuration: {e}")
                    })?;
                    opts.timeout = self.config.timeout;
                    opts.attempts = 1;
                    MessageAuthenticator::new(conf, opts)
                }
            }
            .map_err(|e| format!("cannot build the DNS resolver: {e}"))?;
            Ok(Engine { runtime, auth })
        })
    }

    /// The verdict for one raw mail. Never panics, never blocks longer than
    /// the configured timeout (plus the local work of hashing the mail).
    pub fn verify(&self, raw: &[u8]) -> DkimVerdict {
        // Most mail is unsigned: a glance at the header saves a full parse.
        if !has_signature_header(raw) {
            return DkimVerdict::None;
        }
        let raw = crlf(raw);
        let Some(mut message) = AuthenticatedMessage::parse(&raw) else {
            return DkimVerdict::None;
        };
        if message.dkim_headers.is_empty() {
            return DkimVerdict::None;
        }
        message.dkim_headers.truncate(MAX_SIGNATURES);
        let from_domain = message
            .from
            .first()
            .and_then(|f| domain_of(f))
            .unwrap_or_default();
        let engine = match self.engine() {
            Ok(e) => e,
            Err(why) => {
                return DkimVerdict::TempError {
                    reason: why.clone(),
                }
            }
        };
        let params = mail_auth::Parameters::new(&message).with_txt_cache(self.pinned.as_ref());
        let outputs = engine.runtime.block_on(async {
            tokio::time::timeout(self.config.timeout, engine.auth.verify_dkim(params)).await
        });
        let Ok(outputs) = outputs else {
            return DkimVerdict::TempError {
                reason: format!(
                    "DNS lookup timed out after {} s",
                    self.config.timeout.as_secs()
                ),
            };
        };
        let results: Vec<(String, DkimResult)> = outputs
            .iter()
            .map(|o| {
                (
                    o.signature()
                        .map(|s| s.d.to_ascii_lowercase())
                        .unwrap_or_default(),
                    o.result().clone(),
                )
            })
            .collect();
        judge(&results, &from_domain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::dkim::{aligned, DkimToml, FailReason, SigningDomain};
    use std::time::Duration;

    fn mail(from: &str, body: &str) -> Vec<u8> {
        format!(
            "From: Alice <{from}>\r\nTo: referee@arbitre.test\r\nSubject: orders\r\nDate: Tue, 1 Dec 2026 10:00:00 +0000\r\nMessage-ID: <1@client.example>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
            body.replace('\n', "\r\n")
        )
        .into_bytes()
    }

    fn pinned(keys: &[&SigningDomain]) -> DkimVerifier {
        let mut config = DkimConfig::off();
        for k in keys {
            config.records.insert(k.record_name(), k.record().unwrap());
        }
        config.check().unwrap();
        DkimVerifier::new(config)
    }

    const BODY: &str = "GAME g1 PLAYER alice PASSWORD x\nF1 M W3\nEND\n";

    #[test]
    fn an_unsigned_mail_has_no_verdict_and_needs_no_resolver() {
        let v = DkimVerifier::new(DkimConfig::off());
        assert_eq!(
            v.verify(&mail("alice@example.org", BODY)),
            DkimVerdict::None
        );
        assert!(
            v.engine.get().is_none(),
            "no runtime built for an unsigned mail"
        );
        // The header is all that counts: a body quoting a signature is no signature.
        let quoted = mail("alice@example.org", "DKIM-Signature: v=1; d=example.org\n");
        assert!(!has_signature_header(&quoted));
        assert!(has_signature_header(
            b"Received: x\r\ndkim-signature: v=1\r\n\r\nbody"
        ));
    }

    #[test]
    fn a_signed_mail_passes_with_its_pinned_key() {
        let key = SigningDomain::generate("example.org", "sel1").unwrap();
        let signed = key.sign(&mail("alice@example.org", BODY)).unwrap();
        assert!(signed.starts_with(b"DKIM-Signature:"));
        let v = pinned(&[&key]);
        assert_eq!(
            v.verify(&signed),
            DkimVerdict::Pass {
                domain: "example.org".into()
            }
        );
    }

    #[test]
    fn a_parent_domain_signature_is_aligned_with_a_subdomain_sender() {
        let key = SigningDomain::generate("example.org", "s").unwrap();
        let signed = key.sign(&mail("alice@mail.example.org", BODY)).unwrap();
        assert_eq!(
            pinned(&[&key]).verify(&signed),
            DkimVerdict::Pass {
                domain: "example.org".into()
            }
        );
    }

    #[test]
    fn maildir_lf_line_ends_still_verify() {
        let key = SigningDomain::generate("example.org", "s").unwrap();
        let signed = key.sign(&mail("alice@example.org", BODY)).unwrap();
        let lf: Vec<u8> = String::from_utf8(signed)
            .unwrap()
            .replace("\r\n", "\n")
            .into_bytes();
        assert_eq!(
            pinned(&[&key]).verify(&lf),
            DkimVerdict::Pass {
                domain: "example.org".into()
            }
        );
    }

    #[test]
    fn a_changed_body_fails() {
        let key = SigningDomain::generate("example.org", "s").unwrap();
        let signed =
            String::from_utf8(key.sign(&mail("alice@example.org", BODY)).unwrap()).unwrap();
        let tampered = signed.replace("F1 M W3", "F1 M W4");
        assert_ne!(tampered, signed);
        assert_eq!(
            pinned(&[&key]).verify(tampered.as_bytes()),
            DkimVerdict::Fail(FailReason::BodyChanged)
        );
    }

    #[test]
    fn a_changed_signed_header_fails() {
        let key = SigningDomain::generate("example.org", "s").unwrap();
        let signed =
            String::from_utf8(key.sign(&mail("alice@example.org", BODY)).unwrap()).unwrap();
        let tampered = signed.replace("Subject: orders", "Subject: other orders");
        assert_eq!(
            pinned(&[&key]).verify(tampered.as_bytes()),
            DkimVerdict::Fail(FailReason::BadSignature)
        );
    }

    #[test]
    fn a_signature_with_another_key_fails() {
        let key = SigningDomain::generate("example.org", "s").unwrap();
        let impostor = SigningDomain::generate("example.org", "s").unwrap();
        let signed = impostor.sign(&mail("alice@example.org", BODY)).unwrap();
        assert_eq!(
            pinned(&[&key]).verify(&signed),
            DkimVerdict::Fail(FailReason::BadSignature)
        );
    }

    #[test]
    fn a_valid_signature_of_another_domain_is_misaligned() {
        let key = SigningDomain::generate("relay.example", "s").unwrap();
        let signed = key.sign(&mail("alice@example.org", BODY)).unwrap();
        assert_eq!(
            pinned(&[&key]).verify(&signed),
            DkimVerdict::Fail(FailReason::Misaligned {
                signer: "relay.example".into(),
                from: "example.org".into()
            })
        );
        // A look-alike domain is not a parent.
        let look = SigningDomain::generate("ample.org", "s").unwrap();
        let signed = look.sign(&mail("alice@example.org", BODY)).unwrap();
        assert!(matches!(
            pinned(&[&look]).verify(&signed),
            DkimVerdict::Fail(FailReason::Misaligned { .. })
        ));
    }

    #[test]
    fn an_aligned_pass_wins_over_a_relay_signature() {
        let own = SigningDomain::generate("example.org", "s").unwrap();
        let relay = SigningDomain::generate("relay.example", "r").unwrap();
        let signed = relay
            .sign(&own.sign(&mail("alice@example.org", BODY)).unwrap())
            .unwrap();
        assert_eq!(
            pinned(&[&own, &relay]).verify(&signed),
            DkimVerdict::Pass {
                domain: "example.org".into()
            }
        );
    }

    #[test]
    fn no_key_and_no_dns_is_a_temporary_error_never_a_lookup() {
        let key = SigningDomain::generate("example.org", "s").unwrap();
        let signed = key.sign(&mail("alice@example.org", BODY)).unwrap();
        let v = DkimVerifier::new(DkimConfig::off());
        assert!(
            matches!(v.verify(&signed), DkimVerdict::TempError { reason } if reason.contains("off"))
        );
    }

    #[test]
    fn a_missing_or_emptied_key_record_fails() {
        let key = SigningDomain::generate("example.org", "s").unwrap();
        let signed = key.sign(&mail("alice@example.org", BODY)).unwrap();
        // A record without p= is no key (what a lookup of a name without a
        // DKIM record gives too).
        let mut config = DkimConfig::off();
        config
            .records
            .insert(key.record_name(), "v=DKIM1; k=ed25519".into());
        assert_eq!(
            DkimVerifier::new(config).verify(&signed),
            DkimVerdict::Fail(FailReason::NoKey {
                domain: "example.org".into()
            })
        );
        // An emptied p= (a revoked key) verifies nothing.
        let mut config = DkimConfig::off();
        config
            .records
            .insert(key.record_name(), "v=DKIM1; k=ed25519; p=".into());
        assert!(matches!(
            DkimVerifier::new(config).verify(&signed),
            DkimVerdict::Fail(_)
        ));
    }

    #[test]
    fn garbage_signature_headers_fail_without_panicking() {
        let raw = format!(
            "DKIM-Signature: v=1; a=rsa-sha256; d=example.org; garbage\r\n{}",
            String::from_utf8(mail("alice@example.org", BODY)).unwrap()
        );
        let verdict = DkimVerifier::new(DkimConfig::off()).verify(raw.as_bytes());
        assert!(matches!(verdict, DkimVerdict::Fail(_)), "{verdict:?}");
        for junk in [
            &b""[..],
            b"\r\n\r\n",
            b"DKIM-Signature:\r\n\r\n",
            &[0xff, 0xfe, b'\n'],
        ] {
            let _ = DkimVerifier::new(DkimConfig::off()).verify(junk);
        }
    }

    #[test]
    fn many_signatures_are_capped() {
        let key = SigningDomain::generate("example.org", "s").unwrap();
        let mut raw = mail("alice@example.org", BODY);
        for _ in 0..20 {
            raw = key.sign(&raw).unwrap();
        }
        assert_eq!(
            pinned(&[&key]).verify(&raw),
            DkimVerdict::Pass {
                domain: "example.org".into()
            }
        );
    }

    #[test]
    fn alignment_is_by_whole_labels() {
        assert!(aligned("example.org", "example.org"));
        assert!(aligned("Example.ORG", "mail.example.org."));
        assert!(!aligned("mail.example.org", "example.org"));
        assert!(!aligned("ample.org", "example.org"));
        assert!(!aligned("", "example.org"));
        assert_eq!(
            domain_of("Alice@Example.Org").as_deref(),
            Some("example.org")
        );
        assert_eq!(domain_of("nobody"), None);
    }

    #[test]
    fn pinned_records_are_checked_and_the_toml_reads() {
        let t: DkimToml = toml::from_str("resolver = \"off\"\ntimeout_seconds = 2\n[records]\n\"s._domainkey.example.org\" = \"v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\"\n").unwrap();
        let c = t.resolve().unwrap();
        assert_eq!(c.resolver, ResolverKind::Off);
        assert_eq!(c.timeout, Duration::from_secs(2));
        let bad: DkimToml =
            toml::from_str("[records]\n\"example.org\" = \"v=DKIM1; p=x\"\n").unwrap();
        assert!(bad.resolve().unwrap_err().contains("_domainkey"));
        let bad: DkimToml =
            toml::from_str("[records]\n\"s._domainkey.example.org\" = \"hello\"\n").unwrap();
        assert!(bad.resolve().is_err());
        assert!(toml::from_str::<DkimToml>("resolvr = \"off\"").is_err());
    }
}
