//! Cost of reading one inbound mail: MIME parsing with charset re-decoding,
//! the hostile many-parts case (capped), and finding the block in a long text.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use arbitre_mail::{find_envelope, find_in_mail, parse_mail, DEFAULT_MAX_SIZE};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn many_parts(n: usize) -> Vec<u8> {
    let mut raw = String::from(
        "From: a@example.org\r\nSubject: parts\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n",
    );
    for i in 0..n {
        raw.push_str(&format!(
            "--b\r\nContent-Type: text/plain\r\n\r\npart {i}\r\n"
        ));
    }
    raw.push_str("--b--\r\n");
    raw.into_bytes()
}

fn bench(c: &mut Criterion) {
    let thunderbird = sample("thunderbird_alternative.eml");
    let outlook = sample("outlook_alternative.eml");
    let hostile = many_parts(10_000);
    let mut long_text = String::from("GAME g1 PLAYER p PASSWORD w\n");
    for i in 0..2_000 {
        long_text.push_str(&format!("F{i} M W{}\n", i % 97));
    }
    c.bench_function("parse_and_find/thunderbird", |b| {
        b.iter(|| find_in_mail(&parse_mail(black_box(&thunderbird), DEFAULT_MAX_SIZE).unwrap()))
    });
    c.bench_function("parse_and_find/outlook_cp1252_qp", |b| {
        b.iter(|| find_in_mail(&parse_mail(black_box(&outlook), DEFAULT_MAX_SIZE).unwrap()))
    });
    c.bench_function("parse/10000_parts", |b| {
        b.iter(|| parse_mail(black_box(&hostile), DEFAULT_MAX_SIZE).unwrap())
    });
    c.bench_function("find_envelope/2000_order_lines", |b| {
        b.iter(|| find_envelope(black_box(&long_text)).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
