//! The inbound Maildir: queue order, size guard, idempotent mark_done.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_mail::{MailError, Maildir};

#[test]
fn open_creates_the_three_directories() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("inbox");
    let md = Maildir::open(&root).unwrap();
    for sub in ["new", "cur", "tmp"] {
        assert!(root.join(sub).is_dir(), "{sub}");
    }
    assert!(md.pending().unwrap().is_empty());
    // Opening again is harmless.
    Maildir::open(&root).unwrap();
}

#[test]
fn deliveries_are_pending_in_delivery_order() {
    let dir = tempfile::tempdir().unwrap();
    let md = Maildir::open(dir.path()).unwrap();
    let bodies: Vec<Vec<u8>> = (0..50)
        .map(|i| format!("Subject: {i}\r\n\r\nbody {i}\r\n").into_bytes())
        .collect();
    let delivered: Vec<_> = bodies.iter().map(|b| md.deliver(b).unwrap()).collect();
    let pending = md.pending().unwrap();
    assert_eq!(pending, delivered);
    for (entry, body) in pending.iter().zip(&bodies) {
        assert_eq!(&md.read(entry, 1024).unwrap(), body);
        assert!(!entry.name.contains(':') && !entry.name.contains('/'));
    }
    assert!(
        std::fs::read_dir(dir.path().join("tmp"))
            .unwrap()
            .next()
            .is_none(),
        "tmp/ is left empty"
    );
}

#[test]
fn foreign_files_are_listed_sorted_and_dotfiles_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let md = Maildir::open(dir.path()).unwrap();
    std::fs::write(dir.path().join("new/200.b.host"), b"b").unwrap();
    std::fs::write(dir.path().join("new/100.a.host"), b"a").unwrap();
    std::fs::write(dir.path().join("new/.hidden"), b"x").unwrap();
    std::fs::create_dir(dir.path().join("new/subdir")).unwrap();
    let names: Vec<String> = md.pending().unwrap().into_iter().map(|e| e.name).collect();
    assert_eq!(names, ["100.a.host", "200.b.host"]);
}

#[test]
fn read_refuses_oversized_files_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let md = Maildir::open(dir.path()).unwrap();
    let e = md.deliver(&vec![b'x'; 5000]).unwrap();
    match md.read(&e, 4096) {
        Err(MailError::TooLarge { size, limit }) => assert_eq!((size, limit), (5000, 4096)),
        other => panic!("{other:?}"),
    }
    assert_eq!(md.read(&e, 5000).unwrap().len(), 5000);
}

#[test]
fn mark_done_moves_to_cur_with_seen_flag_and_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let md = Maildir::open(dir.path()).unwrap();
    let a = md.deliver(b"Subject: a\r\n\r\na\r\n").unwrap();
    let b = md.deliver(b"Subject: b\r\n\r\nb\r\n").unwrap();
    md.mark_done(&a).unwrap();
    assert!(dir
        .path()
        .join("cur")
        .join(format!("{}:2,S", a.name))
        .is_file());
    assert_eq!(md.pending().unwrap(), vec![b.clone()]);
    // A second call (e.g. after a crash between rename and journal commit) is a no-op.
    md.mark_done(&a).unwrap();
    // A client that set other flags meanwhile also counts as done.
    std::fs::rename(
        dir.path().join("new").join(&b.name),
        dir.path().join("cur").join(format!("{}:2,RS", b.name)),
    )
    .unwrap();
    md.mark_done(&b).unwrap();
    assert!(md.pending().unwrap().is_empty());
}

#[test]
fn mark_done_of_an_unknown_entry_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let md = Maildir::open(dir.path()).unwrap();
    let ghost = arbitre_mail::MaildirEntry {
        name: "nope".into(),
        path: dir.path().join("new/nope"),
    };
    assert!(matches!(md.mark_done(&ghost), Err(MailError::Io(_))));
}
