//! Times `format_mail` on a typical French confirmation (throwaway
//! measurement, not a test): `cargo run --release -p arbitre-mail --example
//! format_bench`. Prints ns per mail.

use std::time::Instant;

use arbitre_mail::{format_mail, OutgoingMail};

fn confirmation() -> OutgoingMail {
    let mut body = String::new();
    let lines = [
        "Bonjour,",
        "",
        "Vos ordres pour la partie « printemps-1901 » ont été reçus et acceptés.",
        "Voici les ordres enregistrés pour la France :",
        "",
        "  A Paris -> Bourgogne",
        "  A Marseille -> Espagne (côte sud)",
        "  F Brest -> Manche",
        "",
        "La résolution aura lieu à l'échéance, le vendredi 4 décembre à 18 h 00.",
        "Vous pouvez modifier vos ordres jusqu'à l'échéance en renvoyant un message.",
        "",
    ];
    while body.len() < 1_500 {
        for l in lines {
            body.push_str(l);
            body.push('\n');
        }
    }
    let mut end = 1_500;
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    body.truncate(end);
    OutgoingMail {
        from: "Arbitre <arbitre@example.org>".into(),
        to: "Joueur Français <joueur@example.net>".into(),
        subject: "Re: Ordres reçus — partie printemps-1901, été".into(),
        body,
        message_id: "confirm-4f2a9c1b@example.org".into(),
        in_reply_to: Some("CAF=abc123.456@mail.example.net".into()),
        auto_submitted: "auto-replied",
        date: "Fri, 04 Dec 2026 04:15:00 +0100".into(),
        attachments: Vec::new(),
    }
}

fn main() {
    let m = confirmation();
    let n = 100_000;
    let mut bytes = 0usize;
    for _ in 0..1_000 {
        bytes += format_mail(&m).map(|r| r.len()).unwrap_or(0);
    }
    let start = Instant::now();
    for _ in 0..n {
        bytes += format_mail(std::hint::black_box(&m))
            .map(|r| r.len())
            .unwrap_or(0);
    }
    let elapsed = start.elapsed();
    println!(
        "format_mail: {:.0} ns/mail ({} mails, {} bytes each)",
        elapsed.as_nanos() as f64 / n as f64,
        n,
        bytes / (n + 1_000)
    );
}
