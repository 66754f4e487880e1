//! The daemon's own words: confirmations, errors, reminders and notices, in
//! each game's language (French, German, English).
//!
//! Reports are the ruleset's job and come in its own notation; everything
//! else a player receives from arbitre is written here, so that a French game
//! never answers in English. Mail that cannot be tied to a game (no order
//! block, unknown game) is answered in the daemon's default language.
//! Every message exists in all three languages: [`Msg`] is matched
//! exhaustively per language, so a missing translation does not compile.

use arbitre_core::Lang;

/// One message with its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg<'a> {
    ConfirmSubject {
        game: &'a str,
        turn: u32,
    },
    ConfirmHeader {
        game: &'a str,
        turn: u32,
        player: &'a str,
    },
    CheckSubject {
        game: &'a str,
    },
    CheckHeader {
        game: &'a str,
        turn: u32,
        player: &'a str,
    },
    /// Label in the echo of a line.
    Ok,
    Error,
    Warning,
    Summary {
        orders: usize,
        errors: usize,
        warnings: usize,
    },
    Replaces,
    NotReady,
    Deadline {
        when: &'a str,
    },
    NoOrderLines,
    ErrorSubject,
    NoBlock,
    Malformed {
        line: usize,
        reason: &'a str,
    },
    /// Sizes in KiB.
    TooLarge {
        size: usize,
        limit: usize,
    },
    UnknownGame {
        game: &'a str,
    },
    UnknownPlayer {
        game: &'a str,
        player: &'a str,
    },
    WrongPassword {
        game: &'a str,
        player: &'a str,
    },
    GameOver {
        game: &'a str,
    },
    /// The flood rate limit (issue 8): sent once an hour at most.
    TooManyFromYou {
        limit: u32,
    },
    TooManyForGame {
        game: &'a str,
        limit: u32,
    },
    /// `[limits] max_order_lines` (issue 14 item 1).
    TooManyLines {
        lines: usize,
        limit: u32,
    },
    /// A long confirmation lists errors and warnings only (issue 14 item 1).
    OkLinesNotEchoed {
        ok: usize,
    },
    /// The game master, once per seat and hour (issue 14 item 3).
    SeatGuessedSubject {
        game: &'a str,
    },
    SeatGuessed {
        game: &'a str,
        player: &'a str,
        limit: u32,
    },
    ReminderSubject {
        game: &'a str,
        turn: u32,
    },
    Reminder {
        game: &'a str,
        turn: u32,
        player: &'a str,
        when: &'a str,
    },
    ReportSubject {
        game: &'a str,
        subject: &'a str,
    },
    GameEnded {
        summary: &'a str,
    },
    PausedSubject {
        game: &'a str,
    },
    Paused {
        game: &'a str,
    },
    ResumedSubject {
        game: &'a str,
    },
    Resumed {
        game: &'a str,
        when: &'a str,
    },
    ExtendedSubject {
        game: &'a str,
    },
    Extended {
        game: &'a str,
        when: &'a str,
    },
    Signature,
}

pub fn text(lang: Lang, m: &Msg<'_>) -> String {
    match lang {
        Lang::En => en(m),
        Lang::Fr => fr(m),
        Lang::De => de(m),
    }
}

fn en(m: &Msg<'_>) -> String {
    use Msg::*;
    match *m {
        ConfirmSubject { game, turn } => format!("[{game}] orders received for turn {turn}"),
        ConfirmHeader { game, turn, player } => {
            format!("Orders received for game {game}, turn {turn}, player {player}.")
        }
        CheckSubject { game } => format!("[{game}] order check"),
        CheckHeader { game, turn, player } => format!(
            "Order check (CHECK) for game {game}, turn {turn}, player {player}.\nNothing has been stored: send the same block with GAME to play it."
        ),
        Ok => "OK".into(),
        Error => "ERROR".into(),
        Warning => "WARNING".into(),
        Summary { orders, errors, warnings } => {
            format!("{orders} order(s) accepted, {errors} error(s), {warnings} warning(s).")
        }
        Replaces => "These orders replace any orders you sent earlier for this turn.".into(),
        NotReady => "You are not marked ready: the turn will wait for the deadline.".into(),
        Deadline { when } => format!("Deadline: {when}"),
        NoOrderLines => "No order lines: you will do nothing this turn.".into(),
        ErrorSubject => "arbitre: your mail was not accepted".into(),
        NoBlock => "No order block found in your mail. Orders start with the line\n\n    GAME <game> PLAYER <player> PASSWORD <password>\n\nfollowed by one order per line and END. Nothing was stored.".into(),
        Malformed { line, reason } => format!("The order block header (line {line}) is malformed: {reason}. Nothing was stored."),
        TooLarge { size, limit } => format!("Your mail ({size} KiB) is larger than this referee accepts ({limit} KiB) and was not read. Send your orders as plain text. Nothing was stored."),
        UnknownGame { game } => format!("There is no game '{game}' on this referee. Nothing was stored."),
        UnknownPlayer { game, player } => format!("Game {game} has no player '{player}'. Nothing was stored."),
        WrongPassword { game, player } => format!("Wrong password for player {player} in game {game}. Nothing was stored."),
        GameOver { game } => format!("Game {game} is over: no more orders are accepted. Nothing was stored."),
        TooManyFromYou { limit } => format!("You have sent more than {limit} mails to this referee within an hour. Your last mail was not read and nothing was stored; further mails within the hour will not be read or answered either. Please wait a little, then send your orders again once."),
        TooManyForGame { game, limit } => format!("Game {game} has received more than {limit} mails within an hour. Your last mail was not read and nothing was stored; further mails within the hour will not be answered. Please wait a little, then send your orders again once."),
        TooManyLines { lines, limit } => format!("Your order block has {lines} lines; this referee accepts at most {limit} in one mail. It was not read and nothing was stored. Send only your orders."),
        OkLinesNotEchoed { ok } => format!("({ok} lines accepted without remark are not repeated here; every line with an error or a warning is listed.)"),
        SeatGuessedSubject { game } => format!("[{game}] wrong passwords for a seat"),
        SeatGuessed { game, player, limit } => format!("Game {game}: more than {limit} mails within an hour named player {player} with a wrong password. Further ones are not answered this hour (the right password is still accepted). If it goes on, consider a new password for this seat (arbitre player replace / password reset)."),
        ReminderSubject { game, turn } => format!("[{game}] reminder: orders for turn {turn}"),
        Reminder { game, turn, player, when } => format!(
            "Reminder: the referee has no orders from {player} for turn {turn} of game {game}.\nDeadline: {when}\nWithout orders, your position does nothing this turn."
        ),
        ReportSubject { game, subject } => format!("[{game}] {subject}"),
        GameEnded { summary } => format!("The game is over. {summary}"),
        PausedSubject { game } => format!("[{game}] game paused"),
        Paused { game } => format!("The game master has paused game {game}. Orders are still accepted; a new deadline will be announced."),
        ResumedSubject { game } => format!("[{game}] game resumed"),
        Resumed { game, when } => format!("Game {game} has resumed.\nDeadline: {when}"),
        ExtendedSubject { game } => format!("[{game}] deadline extended"),
        Extended { game, when } => format!("The game master has extended the deadline of game {game}.\nDeadline: {when}"),
        Signature => "-- \narbitre, play-by-email referee".into(),
    }
}

fn fr(m: &Msg<'_>) -> String {
    use Msg::*;
    match *m {
        ConfirmSubject { game, turn } => format!("[{game}] ordres reçus pour le tour {turn}"),
        ConfirmHeader { game, turn, player } => {
            format!("Ordres reçus pour la partie {game}, tour {turn}, joueur {player}.")
        }
        CheckSubject { game } => format!("[{game}] vérification des ordres"),
        CheckHeader { game, turn, player } => format!(
            "Vérification des ordres (CHECK) pour la partie {game}, tour {turn}, joueur {player}.\nRien n'a été enregistré : envoyez le même bloc avec PARTIE pour le jouer."
        ),
        Ok => "OK".into(),
        Error => "ERREUR".into(),
        Warning => "ATTENTION".into(),
        Summary { orders, errors, warnings } => {
            format!("{orders} ordre(s) accepté(s), {errors} erreur(s), {warnings} avertissement(s).")
        }
        Replaces => "Ces ordres remplacent ceux que vous avez pu envoyer plus tôt pour ce tour.".into(),
        NotReady => "Vous n'êtes pas déclaré prêt : le tour attendra la date limite.".into(),
        Deadline { when } => format!("Date limite : {when}"),
        NoOrderLines => "Aucune ligne d'ordre : vous ne ferez rien ce tour-ci.".into(),
        ErrorSubject => "arbitre : votre courrier n'a pas été accepté".into(),
        NoBlock => "Aucun bloc d'ordres trouvé dans votre courrier. Les ordres commencent par la ligne\n\n    PARTIE <partie> JOUEUR <joueur> MOT-DE-PASSE <mot de passe>\n\nsuivie d'un ordre par ligne et de FIN. Rien n'a été enregistré.".into(),
        Malformed { line, reason } => format!("L'en-tête du bloc d'ordres (ligne {line}) est mal formé : {reason}. Rien n'a été enregistré."),
        TooLarge { size, limit } => format!("Votre courrier ({size} Kio) dépasse la taille acceptée par cet arbitre ({limit} Kio) et n'a pas été lu. Envoyez vos ordres en texte simple. Rien n'a été enregistré."),
        UnknownGame { game } => format!("Il n'y a pas de partie « {game} » sur cet arbitre. Rien n'a été enregistré."),
        UnknownPlayer { game, player } => format!("La partie {game} n'a pas de joueur « {player} ». Rien n'a été enregistré."),
        WrongPassword { game, player } => format!("Mot de passe incorrect pour le joueur {player} de la partie {game}. Rien n'a été enregistré."),
        GameOver { game } => format!("La partie {game} est terminée : plus aucun ordre n'est accepté. Rien n'a été enregistré."),
        TooManyFromYou { limit } => format!("Vous avez envoyé plus de {limit} courriers à cet arbitre en une heure. Votre dernier courrier n'a pas été lu et rien n'a été enregistré ; les courriers suivants de cette heure ne seront ni lus ni répondus. Merci de patienter un peu, puis de renvoyer vos ordres une seule fois."),
        TooManyForGame { game, limit } => format!("La partie {game} a reçu plus de {limit} courriers en une heure. Votre dernier courrier n'a pas été lu et rien n'a été enregistré ; les courriers suivants de cette heure ne recevront pas de réponse. Merci de patienter un peu, puis de renvoyer vos ordres une seule fois."),
        TooManyLines { lines, limit } => format!("Votre bloc d'ordres compte {lines} lignes ; cet arbitre en accepte au plus {limit} par courrier. Il n'a pas été lu et rien n'a été enregistré. N'envoyez que vos ordres."),
        OkLinesNotEchoed { ok } => format!("({ok} lignes acceptées sans remarque ne sont pas répétées ici ; toutes les lignes avec une erreur ou un avertissement sont listées.)"),
        SeatGuessedSubject { game } => format!("[{game}] mauvais mots de passe pour un joueur"),
        SeatGuessed { game, player, limit } => format!("Partie {game} : plus de {limit} courriers en une heure ont nommé le joueur {player} avec un mauvais mot de passe. Les suivants ne reçoivent plus de réponse cette heure-ci (le bon mot de passe reste accepté). Si cela continue, envisagez un nouveau mot de passe pour ce joueur (arbitre player replace / password reset)."),
        ReminderSubject { game, turn } => format!("[{game}] rappel : ordres du tour {turn}"),
        Reminder { game, turn, player, when } => format!(
            "Rappel : l'arbitre n'a pas reçu d'ordres de {player} pour le tour {turn} de la partie {game}.\nDate limite : {when}\nSans ordres, votre position ne fera rien ce tour-ci."
        ),
        ReportSubject { game, subject } => format!("[{game}] {subject}"),
        GameEnded { summary } => format!("La partie est terminée. {summary}"),
        PausedSubject { game } => format!("[{game}] partie en pause"),
        Paused { game } => format!("Le meneur de jeu a mis la partie {game} en pause. Les ordres restent acceptés ; une nouvelle date limite sera annoncée."),
        ResumedSubject { game } => format!("[{game}] reprise de la partie"),
        Resumed { game, when } => format!("La partie {game} reprend.\nDate limite : {when}"),
        ExtendedSubject { game } => format!("[{game}] date limite repoussée"),
        Extended { game, when } => format!("Le meneur de jeu a repoussé la date limite de la partie {game}.\nDate limite : {when}"),
        Signature => "-- \narbitre, arbitre de jeux par courrier électronique".into(),
    }
}

fn de(m: &Msg<'_>) -> String {
    use Msg::*;
    match *m {
        ConfirmSubject { game, turn } => format!("[{game}] Befehle für Zug {turn} erhalten"),
        ConfirmHeader { game, turn, player } => {
            format!("Befehle erhalten für Spiel {game}, Zug {turn}, Spieler {player}.")
        }
        CheckSubject { game } => format!("[{game}] Befehlsprüfung"),
        CheckHeader { game, turn, player } => format!(
            "Befehlsprüfung (CHECK) für Spiel {game}, Zug {turn}, Spieler {player}.\nNichts wurde gespeichert: Senden Sie denselben Block mit SPIEL, um ihn zu spielen."
        ),
        Ok => "OK".into(),
        Error => "FEHLER".into(),
        Warning => "WARNUNG".into(),
        Summary { orders, errors, warnings } => {
            format!("{orders} Befehl(e) angenommen, {errors} Fehler, {warnings} Warnung(en).")
        }
        Replaces => "Diese Befehle ersetzen alle früher für diesen Zug gesendeten Befehle.".into(),
        NotReady => "Sie sind nicht als bereit gemeldet: der Zug wartet auf den Abgabetermin.".into(),
        Deadline { when } => format!("Abgabetermin: {when}"),
        NoOrderLines => "Keine Befehlszeilen: Sie tun in diesem Zug nichts.".into(),
        ErrorSubject => "arbitre: Ihre Nachricht wurde nicht angenommen".into(),
        NoBlock => "In Ihrer Nachricht wurde kein Befehlsblock gefunden. Befehle beginnen mit der Zeile\n\n    SPIEL <Spiel> SPIELER <Spieler> PASSWORT <Passwort>\n\ngefolgt von einem Befehl pro Zeile und ENDE. Nichts wurde gespeichert.".into(),
        Malformed { line, reason } => format!("Der Kopf des Befehlsblocks (Zeile {line}) ist fehlerhaft: {reason}. Nichts wurde gespeichert."),
        TooLarge { size, limit } => format!("Ihre Nachricht ({size} KiB) ist größer als dieser Spielleiter annimmt ({limit} KiB) und wurde nicht gelesen. Senden Sie Ihre Befehle als einfachen Text. Nichts wurde gespeichert."),
        UnknownGame { game } => format!("Auf diesem Spielleiter gibt es kein Spiel „{game}“. Nichts wurde gespeichert."),
        UnknownPlayer { game, player } => format!("Spiel {game} hat keinen Spieler „{player}“. Nichts wurde gespeichert."),
        WrongPassword { game, player } => format!("Falsches Passwort für Spieler {player} in Spiel {game}. Nichts wurde gespeichert."),
        GameOver { game } => format!("Spiel {game} ist beendet: es werden keine Befehle mehr angenommen. Nichts wurde gespeichert."),
        TooManyFromYou { limit } => format!("Sie haben diesem Spielleiter innerhalb einer Stunde mehr als {limit} Nachrichten gesendet. Ihre letzte Nachricht wurde nicht gelesen und nichts wurde gespeichert; weitere Nachrichten in dieser Stunde werden weder gelesen noch beantwortet. Bitte warten Sie etwas und senden Sie Ihre Befehle dann einmal erneut."),
        TooManyForGame { game, limit } => format!("Spiel {game} hat innerhalb einer Stunde mehr als {limit} Nachrichten erhalten. Ihre letzte Nachricht wurde nicht gelesen und nichts wurde gespeichert; weitere Nachrichten in dieser Stunde werden nicht beantwortet. Bitte warten Sie etwas und senden Sie Ihre Befehle dann einmal erneut."),
        TooManyLines { lines, limit } => format!("Ihr Befehlsblock hat {lines} Zeilen; dieser Spielleiter nimmt höchstens {limit} pro Nachricht an. Er wurde nicht gelesen und nichts wurde gespeichert. Senden Sie nur Ihre Befehle."),
        OkLinesNotEchoed { ok } => format!("({ok} ohne Anmerkung angenommene Zeilen werden hier nicht wiederholt; jede Zeile mit Fehler oder Warnung ist aufgeführt.)"),
        SeatGuessedSubject { game } => format!("[{game}] falsche Passwörter für einen Spieler"),
        SeatGuessed { game, player, limit } => format!("Spiel {game}: Mehr als {limit} Nachrichten innerhalb einer Stunde nannten Spieler {player} mit einem falschen Passwort. Weitere werden in dieser Stunde nicht beantwortet (das richtige Passwort wird weiter angenommen). Falls es weitergeht, erwägen Sie ein neues Passwort für diesen Spieler (arbitre player replace / password reset)."),
        ReminderSubject { game, turn } => format!("[{game}] Erinnerung: Befehle für Zug {turn}"),
        Reminder { game, turn, player, when } => format!(
            "Erinnerung: Der Spielleiter hat keine Befehle von {player} für Zug {turn} von Spiel {game}.\nAbgabetermin: {when}\nOhne Befehle tut Ihre Position in diesem Zug nichts."
        ),
        ReportSubject { game, subject } => format!("[{game}] {subject}"),
        GameEnded { summary } => format!("Das Spiel ist beendet. {summary}"),
        PausedSubject { game } => format!("[{game}] Spiel pausiert"),
        Paused { game } => format!("Die Spielleitung hat Spiel {game} pausiert. Befehle werden weiter angenommen; ein neuer Abgabetermin wird bekanntgegeben."),
        ResumedSubject { game } => format!("[{game}] Spiel fortgesetzt"),
        Resumed { game, when } => format!("Spiel {game} wird fortgesetzt.\nAbgabetermin: {when}"),
        ExtendedSubject { game } => format!("[{game}] Abgabetermin verlängert"),
        Extended { game, when } => format!("Die Spielleitung hat den Abgabetermin von Spiel {game} verlängert.\nAbgabetermin: {when}"),
        Signature => "-- \narbitre, Spielleiter für Spiele per E-Mail".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_differs_by_language_where_words_differ() {
        let samples = [
            Msg::ConfirmHeader {
                game: "g",
                turn: 2,
                player: "p",
            },
            Msg::NoBlock,
            Msg::WrongPassword {
                game: "g",
                player: "p",
            },
            Msg::Reminder {
                game: "g",
                turn: 2,
                player: "p",
                when: "w",
            },
            Msg::Summary {
                orders: 1,
                errors: 2,
                warnings: 3,
            },
            Msg::TooManyFromYou { limit: 30 },
            Msg::TooManyForGame {
                game: "g",
                limit: 300,
            },
            Msg::TooManyLines {
                lines: 30_000,
                limit: 20_000,
            },
            Msg::OkLinesNotEchoed { ok: 5_000 },
            Msg::SeatGuessed {
                game: "g",
                player: "p",
                limit: 10,
            },
        ];
        for m in &samples {
            let (e, f, d) = (text(Lang::En, m), text(Lang::Fr, m), text(Lang::De, m));
            assert!(e != f && f != d && e != d, "{m:?}");
        }
        assert_eq!(text(Lang::Fr, &Msg::Error), "ERREUR");
        assert_eq!(
            text(Lang::De, &Msg::Deadline { when: "x" }),
            "Abgabetermin: x"
        );
    }
}
