//! The unified inbox over a Maildir (the IMAP side is in servers.rs).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_mail::{Inbox, InboxConfig, InboxEntry, MailError};

#[test]
fn maildir_inbox_lists_reads_heads_and_marks_done() {
    let dir = tempfile::tempdir().unwrap();
    let mut inbox = Inbox::open(&InboxConfig::Maildir(dir.path().join("in"))).unwrap();
    let Inbox::Maildir(md) = &inbox else {
        panic!("not a maildir")
    };
    md.deliver(b"Subject: one\r\n\r\nfirst\r\n").unwrap();
    md.deliver(&vec![b'x'; 300]).unwrap();
    let pending = inbox.pending().unwrap();
    assert_eq!(pending.len(), 2);
    assert!(matches!(&pending[0], InboxEntry::Maildir(e) if e.name == pending[0].name()));
    assert_eq!(
        inbox.read(&pending[0], 100).unwrap(),
        b"Subject: one\r\n\r\nfirst\r\n"
    );
    assert!(matches!(
        inbox.read(&pending[1], 100),
        Err(MailError::TooLarge {
            size: 300,
            limit: 100
        })
    ));
    assert_eq!(inbox.read_head(&pending[1], 10).unwrap(), vec![b'x'; 10]);
    inbox.mark_done(&pending[0]).unwrap();
    inbox.mark_done(&pending[0]).unwrap();
    assert_eq!(inbox.pending().unwrap(), vec![pending[1].clone()]);
}

#[test]
fn entries_of_another_kind_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut inbox = Inbox::open(&InboxConfig::Maildir(dir.path().to_path_buf())).unwrap();
    let foreign = InboxEntry::Imap(arbitre_mail::ImapEntry {
        uid_validity: 1,
        uid: 1,
    });
    assert!(inbox.read(&foreign, 10).is_err());
    assert!(inbox.mark_done(&foreign).is_err());
    assert_eq!(foreign.name(), "imap:1:1");
}
