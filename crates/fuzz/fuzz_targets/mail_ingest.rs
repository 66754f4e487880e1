//! Fuzz target: the inbound mail path up to the order block — MIME parsing
//! (charsets, HTML, attachments, nesting) and the envelope search. Must
//! never panic, whatever the bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|raw: &[u8]| {
    if let Ok(mail) = arbitre_mail::parse_mail(raw, 1 << 20) {
        let _ = arbitre_mail::find_in_mail(&mail);
    }
});
