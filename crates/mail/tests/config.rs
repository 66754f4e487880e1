//! The `[inbound]` table of arbitre.toml.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use std::path::Path;

use arbitre_mail::config::{InboundToml, OutboundToml};
use arbitre_mail::outbound::Security;
use arbitre_mail::{InboxConfig, SmtpConfig, Transport};

#[derive(serde::Deserialize)]
struct File {
    inbound: InboundToml,
}

#[derive(serde::Deserialize)]
struct Out {
    outbound: OutboundToml,
}

fn out(text: &str) -> OutboundToml {
    toml::from_str::<Out>(text).unwrap().outbound
}

#[test]
fn outbound_tables() {
    let base = Path::new("/etc/arbitre");
    assert_eq!(
        out("[outbound]\nkind = \"file\"\ndir = \"outbox\"\n")
            .resolve(base)
            .unwrap(),
        Transport::File {
            dir: "/etc/arbitre/outbox".into()
        }
    );
    assert_eq!(
        out("[outbound]\nkind = \"sendmail\"\n")
            .resolve(base)
            .unwrap(),
        Transport::Sendmail {
            command: "/usr/sbin/sendmail".into()
        }
    );
    std::env::set_var("ARBITRE_TEST_CONFIG_SMTP_PW", "smtp-pw");
    let t = out("[outbound]\nkind = \"smtp\"\nhost = \"smtp.example\"\nuser = \"ref\"\npassword_env = \"ARBITRE_TEST_CONFIG_SMTP_PW\"\n");
    assert_eq!(
        t.resolve(base).unwrap(),
        Transport::Smtp(SmtpConfig {
            host: "smtp.example".into(),
            port: 587,
            security: Security::StartTls,
            user: Some("ref".into()),
            password: Some("smtp-pw".into()),
            timeout_secs: 30,
            hello_name: None,
            ca_file: None,
        })
    );
    let t = out("[outbound]\nkind = \"smtp\"\nhost = \"h\"\nhello_name = \"games.example\"\nca_file = \"relay-ca.pem\"\n");
    assert!(matches!(
        t.resolve(base).unwrap(),
        Transport::Smtp(SmtpConfig { hello_name: Some(ref n), ca_file: Some(ref ca), .. })
            if n == "games.example" && ca == &base.join("relay-ca.pem")
    ));
    let t = out("[outbound]\nkind = \"smtp\"\nhost = \"h\"\nsecurity = \"tls\"\n");
    assert!(matches!(
        t.resolve(base).unwrap(),
        Transport::Smtp(SmtpConfig {
            port: 465,
            password: None,
            ..
        })
    ));
    let both = out("[outbound]\nkind = \"smtp\"\nhost = \"h\"\nuser = \"u\"\npassword = \"p\"\npassword_env = \"ARBITRE_TEST_CONFIG_SMTP_PW\"\n");
    assert!(both.resolve(base).unwrap_err().contains("not both"));
}

fn parse(text: &str) -> InboundToml {
    toml::from_str::<File>(text).unwrap().inbound
}

#[test]
fn imap_table_with_password_file_and_defaults() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("imap.pw"), "s3cret\n").unwrap();
    let t = parse("[inbound]\nkind = \"imap\"\nhost = \"imap.example\"\nuser = \"referee\"\npassword_file = \"imap.pw\"\n");
    let InboxConfig::Imap(cfg) = t.resolve(dir.path()).unwrap() else {
        panic!("not imap")
    };
    assert_eq!(
        (cfg.host.as_str(), cfg.port, cfg.security),
        ("imap.example", 993, Security::Tls)
    );
    assert_eq!(cfg.password, "s3cret");
    assert_eq!(cfg.folder, "INBOX");
    assert_eq!(cfg.processed_folder, None);
    assert_eq!(cfg.timeout_secs, 60);
}

#[test]
fn imap_table_with_env_password_starttls_and_all_keys() {
    std::env::set_var("ARBITRE_TEST_CONFIG_IMAP_PW", "from-env");
    let t = parse(
        "[inbound]\nkind = \"imap\"\nhost = \"h\"\nsecurity = \"starttls\"\nuser = \"u\"\n\
         password_env = \"ARBITRE_TEST_CONFIG_IMAP_PW\"\nfolder = \"Orders\"\nprocessed_folder = \"Done\"\n\
         ca_file = \"ca.pem\"\ntimeout_secs = 5\n",
    );
    let InboxConfig::Imap(cfg) = t.resolve(Path::new("/etc/arbitre")).unwrap() else {
        panic!()
    };
    assert_eq!((cfg.port, cfg.security), (143, Security::StartTls));
    assert_eq!(cfg.password, "from-env");
    assert_eq!(cfg.folder, "Orders");
    assert_eq!(cfg.processed_folder.as_deref(), Some("Done"));
    assert_eq!(
        cfg.ca_file.as_deref(),
        Some(Path::new("/etc/arbitre/ca.pem"))
    );
    assert_eq!(cfg.timeout_secs, 5);
}

#[test]
fn maildir_table_and_errors() {
    let t = parse("[inbound]\nkind = \"maildir\"\npath = \"mail\"\n");
    assert_eq!(
        t.resolve(Path::new("/srv")).unwrap(),
        InboxConfig::Maildir("/srv/mail".into())
    );
    // No password source.
    let t = parse("[inbound]\nkind = \"imap\"\nhost = \"h\"\nuser = \"u\"\n");
    assert!(t
        .resolve(Path::new("."))
        .unwrap_err()
        .contains("password_env or password_file"));
    // A password written in the file is not a key at all.
    assert!(toml::from_str::<File>(
        "[inbound]\nkind = \"imap\"\nhost = \"h\"\nuser = \"u\"\npassword = \"x\"\n"
    )
    .is_err());
    // Bad security value.
    std::env::set_var("ARBITRE_TEST_CONFIG_IMAP_PW2", "x");
    let t = parse("[inbound]\nkind = \"imap\"\nhost = \"h\"\nuser = \"u\"\nsecurity = \"ssl3\"\npassword_env = \"ARBITRE_TEST_CONFIG_IMAP_PW2\"\n");
    assert!(t.resolve(Path::new(".")).unwrap_err().contains("ssl3"));
}

/// Issue 14 item 15: `security = "none"` sends the password in clear, so it
/// is refused for any host that is not loopback, inbound and outbound.
#[test]
fn security_none_refused_for_remote_host() {
    let base = Path::new("/etc/arbitre");
    std::env::set_var("ARBITRE_TEST_CONFIG_NONE_PW", "pw");
    let inbound = |host: &str| {
        toml::from_str::<File>(&format!(
            "[inbound]\nkind = \"imap\"\nhost = \"{host}\"\nsecurity = \"none\"\nuser = \"u\"\npassword_env = \"ARBITRE_TEST_CONFIG_NONE_PW\"\n"
        ))
        .unwrap()
        .inbound
        .resolve(base)
    };
    let outbound = |host: &str| {
        out(&format!(
            "[outbound]\nkind = \"smtp\"\nhost = \"{host}\"\nsecurity = \"none\"\nuser = \"u\"\npassword_env = \"ARBITRE_TEST_CONFIG_NONE_PW\"\n"
        ))
        .resolve(base)
    };
    for remote in [
        "imap.example.org",
        "192.0.2.7",
        "10.0.0.1",
        "::2",
        "localhost.example.org",
        "0.0.0.0",
    ] {
        let e = inbound(remote).unwrap_err();
        assert!(
            e.contains("[inbound]") && e.contains("loopback") && e.contains(remote),
            "{e}"
        );
        let e = outbound(remote).unwrap_err();
        assert!(
            e.contains("[outbound]") && e.contains("loopback") && e.contains(remote),
            "{e}"
        );
    }
    for local in [
        "localhost",
        "LOCALHOST.",
        "mail.localhost",
        "127.0.0.1",
        "127.1.2.3",
        "::1",
        "[::1]",
    ] {
        assert!(inbound(local).is_ok(), "{local}");
        assert!(outbound(local).is_ok(), "{local}");
    }
    // TLS and STARTTLS stay allowed anywhere.
    let t =
        out("[outbound]\nkind = \"smtp\"\nhost = \"smtp.example.org\"\nsecurity = \"starttls\"\n");
    assert!(t.resolve(base).is_ok());
}
