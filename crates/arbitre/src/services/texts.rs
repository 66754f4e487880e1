//! The services' messages in the game's language (French, German, English).
//!
//! Kept apart from messages.rs (the confirmations and reminders) so that the
//! service commands can grow without touching the daemon's catalogue; the
//! same rule holds: [`SvcMsg`] is matched exhaustively per language, so a
//! missing translation does not compile.

use super::command::Reason;
use arbitre_core::Lang;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SvcMsg<'a> {
    ResendSubject { game: &'a str, turn: u32 },
    NoSuchTurn { turn: u32, last: u32 },
    HistorySubject { game: &'a str },
    HistoryLine { turn: u32, when: &'a str },
    HistoryEmpty,
    StatusSubject { game: &'a str },
    StatusTurn { turn: u32 },
    StatusDeadline { when: &'a str },
    StatusNoDeadline,
    StatusPaused,
    StatusSent { players: &'a str },
    StatusMissing { players: &'a str },
    TimezoneSet { zone: &'a str, example: &'a str },
    PressSubject { game: &'a str, from: &'a str },
    PressAnonymousFrom,
    PressRelayed { to: &'a str },
    PressNone,
    PressNoAnonymous,
    PressUnknownPlayer { player: &'a str },
    AbsenceSet { from: &'a str, to: &'a str },
    AbsenceNotAllowed,
    AbsenceTooLong { max: u32 },
    AbsenceTooMany { max: u32 },
    GmOnly { command: &'a str },
    GmWrongPassword,
    GmDone { command: &'a str },
    Ejected { game: &'a str, player: &'a str },
    RolledBack { game: &'a str, turn: u32 },
    PreviewSubject { game: &'a str, turn: u32 },
    CommandsSubject { game: &'a str },
    BadCommand { line: usize, text: &'a str, why: String },
    DkimVerdict { verdict: &'a str },
    ObserverSubject { game: &'a str, subject: &'a str },
    BotPlayed { missed: u32 },
}

pub fn svc_text(lang: Lang, m: &SvcMsg<'_>) -> String {
    match lang {
        Lang::En => en(m),
        Lang::Fr => fr(m),
        Lang::De => de(m),
    }
}

/// The reason a command line was refused, in the game's language.
pub fn reason(lang: Lang, r: &Reason) -> String {
    match (lang, r) {
        (Lang::En, Reason::MissingArgument(a)) => format!("missing argument ({a})"),
        (Lang::Fr, Reason::MissingArgument(a)) => format!("argument manquant ({a})"),
        (Lang::De, Reason::MissingArgument(a)) => format!("Angabe fehlt ({a})"),
        (Lang::En, Reason::BadNumber(s)) => format!("'{s}' is not a turn number"),
        (Lang::Fr, Reason::BadNumber(s)) => format!("« {s} » n'est pas un numéro de tour"),
        (Lang::De, Reason::BadNumber(s)) => format!("„{s}“ ist keine Zugnummer"),
        (Lang::En, Reason::UnknownZone(s)) => format!("unknown time zone '{s}' (expected Area/City, e.g. Europe/Paris)"),
        (Lang::Fr, Reason::UnknownZone(s)) => format!("fuseau horaire inconnu « {s} » (attendu Zone/Ville, p. ex. Europe/Paris)"),
        (Lang::De, Reason::UnknownZone(s)) => format!("unbekannte Zeitzone „{s}“ (erwartet Gebiet/Stadt, z. B. Europe/Berlin)"),
        (Lang::En, Reason::BadDate(s)) => format!("'{s}' is not a date (YYYY-MM-DD, or YYYY-MM-DD HH:MM)"),
        (Lang::Fr, Reason::BadDate(s)) => format!("« {s} » n'est pas une date (AAAA-MM-JJ, ou AAAA-MM-JJ HH:MM)"),
        (Lang::De, Reason::BadDate(s)) => format!("„{s}“ ist kein Datum (JJJJ-MM-TT oder JJJJ-MM-TT HH:MM)"),
        (Lang::En, Reason::BadDuration(s)) => format!("'{s}' is not a duration (48h, 2d, 1d12h)"),
        (Lang::Fr, Reason::BadDuration(s)) => format!("« {s} » n'est pas une durée (48h, 2j, 1j12h)"),
        (Lang::De, Reason::BadDuration(s)) => format!("„{s}“ ist keine Dauer (48h, 2t, 1t12h)"),
        (Lang::En, Reason::BadRange) => "the end date is before the start date".into(),
        (Lang::Fr, Reason::BadRange) => "la date de fin précède la date de début".into(),
        (Lang::De, Reason::BadRange) => "das Enddatum liegt vor dem Anfangsdatum".into(),
        (Lang::En, Reason::TooManyArguments(s)) => format!("unexpected text: {s}"),
        (Lang::Fr, Reason::TooManyArguments(s)) => format!("texte inattendu : {s}"),
        (Lang::De, Reason::TooManyArguments(s)) => format!("unerwarteter Text: {s}"),
    }
}

fn en(m: &SvcMsg<'_>) -> String {
    use SvcMsg::*;
    match m {
        ResendSubject { game, turn } => format!("[{game}] report of turn {turn} (sent again)"),
        NoSuchTurn { turn, last } => format!("There is no report for turn {turn}: the last resolved turn is {last}."),
        HistorySubject { game } => format!("[{game}] history"),
        HistoryLine { turn, when } => format!("Turn {turn:>3}  resolved {when}"),
        HistoryEmpty => "No turn has been resolved yet.".into(),
        StatusSubject { game } => format!("[{game}] status"),
        StatusTurn { turn } => format!("Turn in progress: {turn}"),
        StatusDeadline { when } => format!("Deadline: {when}"),
        StatusNoDeadline => "No deadline is set.".into(),
        StatusPaused => "The game is paused.".into(),
        StatusSent { players } => format!("Orders received from: {players}"),
        StatusMissing { players } => format!("Waiting for: {players}"),
        TimezoneSet { zone, example } => format!("Your deadlines are now shown in {zone}. Next deadline: {example}"),
        PressSubject { game, from } => format!("[{game}] press from {from}"),
        PressAnonymousFrom => "an anonymous player".into(),
        PressRelayed { to } => format!("Your press was relayed to: {to}"),
        PressNone => "This game has no press: nothing was relayed.".into(),
        PressNoAnonymous => "This game allows only signed press: nothing was relayed.".into(),
        PressUnknownPlayer { player } => format!("There is no player '{player}': nothing was relayed."),
        AbsenceSet { from, to } => format!("Absence recorded from {from} to {to}. Deadlines falling in it are moved after it."),
        AbsenceNotAllowed => "This game does not allow absences.".into(),
        AbsenceTooLong { max } => format!("An absence may last at most {max} day(s) in this game."),
        AbsenceTooMany { max } => format!("You have already declared the {max} absence(s) this game allows."),
        GmOnly { command } => format!("{command} is a game master's command: it needs the game master's password."),
        GmWrongPassword => "Wrong game master password: nothing was done.".into(),
        GmDone { command } => format!("{command}: done."),
        Ejected { game, player } => format!("Player {player} has been removed from game {game} by the game master."),
        RolledBack { game, turn } => format!("Game {game} has been rolled back to turn {turn} by the game master; the following turn will be resolved again."),
        PreviewSubject { game, turn } => format!("[{game}] preview of turn {turn} (not sent to the players)"),
        CommandsSubject { game } => format!("[{game}] your commands"),
        BadCommand { line, text, why } => format!("Line {line}: {text}\n  -> {why}"),
        DkimVerdict { verdict } => format!("DKIM signature: {verdict}"),
        ObserverSubject { game, subject } => format!("[{game}] (observer) {subject}"),
        BotPlayed { missed } => format!("NOTE: you sent no orders for {missed} turn(s) in a row: as this game's rules say, the referee's bot played your position this turn. Send orders to play again yourself."),
    }
}

fn fr(m: &SvcMsg<'_>) -> String {
    use SvcMsg::*;
    match m {
        ResendSubject { game, turn } => format!("[{game}] compte rendu du tour {turn} (nouvel envoi)"),
        NoSuchTurn { turn, last } => format!("Il n'y a pas de compte rendu pour le tour {turn} : le dernier tour résolu est le {last}."),
        HistorySubject { game } => format!("[{game}] historique"),
        HistoryLine { turn, when } => format!("Tour {turn:>3}  résolu le {when}"),
        HistoryEmpty => "Aucun tour n'a encore été résolu.".into(),
        StatusSubject { game } => format!("[{game}] état de la partie"),
        StatusTurn { turn } => format!("Tour en cours : {turn}"),
        StatusDeadline { when } => format!("Date limite : {when}"),
        StatusNoDeadline => "Aucune date limite n'est fixée.".into(),
        StatusPaused => "La partie est en pause.".into(),
        StatusSent { players } => format!("Ordres reçus de : {players}"),
        StatusMissing { players } => format!("En attente de : {players}"),
        TimezoneSet { zone, example } => format!("Vos dates limites sont désormais affichées dans le fuseau {zone}. Prochaine date limite : {example}"),
        PressSubject { game, from } => format!("[{game}] message de {from}"),
        PressAnonymousFrom => "un joueur anonyme".into(),
        PressRelayed { to } => format!("Votre message a été transmis à : {to}"),
        PressNone => "Cette partie n'a pas de messagerie : rien n'a été transmis.".into(),
        PressNoAnonymous => "Cette partie n'accepte que des messages signés : rien n'a été transmis.".into(),
        PressUnknownPlayer { player } => format!("Il n'y a pas de joueur « {player} » : rien n'a été transmis."),
        AbsenceSet { from, to } => format!("Absence enregistrée du {from} au {to}. Les dates limites qui y tombent sont reportées après."),
        AbsenceNotAllowed => "Cette partie n'accepte pas d'absences.".into(),
        AbsenceTooLong { max } => format!("Une absence dure au plus {max} jour(s) dans cette partie."),
        AbsenceTooMany { max } => format!("Vous avez déjà déclaré les {max} absence(s) permises dans cette partie."),
        GmOnly { command } => format!("{command} est une commande du meneur de jeu : il faut son mot de passe."),
        GmWrongPassword => "Mot de passe du meneur de jeu incorrect : rien n'a été fait.".into(),
        GmDone { command } => format!("{command} : fait."),
        Ejected { game, player } => format!("Le joueur {player} a été retiré de la partie {game} par le meneur de jeu."),
        RolledBack { game, turn } => format!("La partie {game} a été ramenée au tour {turn} par le meneur de jeu ; le tour suivant sera résolu de nouveau."),
        PreviewSubject { game, turn } => format!("[{game}] aperçu du tour {turn} (pas encore envoyé aux joueurs)"),
        CommandsSubject { game } => format!("[{game}] vos commandes"),
        BadCommand { line, text, why } => format!("Ligne {line} : {text}\n  -> {why}"),
        DkimVerdict { verdict } => format!("Signature DKIM : {verdict}"),
        ObserverSubject { game, subject } => format!("[{game}] (observateur) {subject}"),
        BotPlayed { missed } => format!("NOTE : vous n'avez pas envoyé d'ordres depuis {missed} tour(s) de suite : comme le prévoit cette partie, le robot de l'arbitre a joué votre position ce tour-ci. Envoyez vos ordres pour reprendre la main."),
    }
}

fn de(m: &SvcMsg<'_>) -> String {
    use SvcMsg::*;
    match m {
        ResendSubject { game, turn } => format!("[{game}] Auswertung von Zug {turn} (erneut gesendet)"),
        NoSuchTurn { turn, last } => format!("Für Zug {turn} gibt es keine Auswertung: der letzte ausgewertete Zug ist {last}."),
        HistorySubject { game } => format!("[{game}] Verlauf"),
        HistoryLine { turn, when } => format!("Zug {turn:>3}  ausgewertet am {when}"),
        HistoryEmpty => "Es wurde noch kein Zug ausgewertet.".into(),
        StatusSubject { game } => format!("[{game}] Spielstand"),
        StatusTurn { turn } => format!("Laufender Zug: {turn}"),
        StatusDeadline { when } => format!("Abgabetermin: {when}"),
        StatusNoDeadline => "Es ist kein Abgabetermin gesetzt.".into(),
        StatusPaused => "Das Spiel ist pausiert.".into(),
        StatusSent { players } => format!("Befehle erhalten von: {players}"),
        StatusMissing { players } => format!("Es fehlen noch: {players}"),
        TimezoneSet { zone, example } => format!("Ihre Abgabetermine werden jetzt in der Zeitzone {zone} angezeigt. Nächster Abgabetermin: {example}"),
        PressSubject { game, from } => format!("[{game}] Nachricht von {from}"),
        PressAnonymousFrom => "einem anonymen Spieler".into(),
        PressRelayed { to } => format!("Ihre Nachricht wurde weitergeleitet an: {to}"),
        PressNone => "In diesem Spiel gibt es keine Nachrichten zwischen Spielern: nichts wurde weitergeleitet.".into(),
        PressNoAnonymous => "In diesem Spiel sind nur unterschriebene Nachrichten erlaubt: nichts wurde weitergeleitet.".into(),
        PressUnknownPlayer { player } => format!("Es gibt keinen Spieler „{player}“: nichts wurde weitergeleitet."),
        AbsenceSet { from, to } => format!("Abwesenheit vom {from} bis {to} eingetragen. Abgabetermine in diesem Zeitraum werden danach verschoben."),
        AbsenceNotAllowed => "In diesem Spiel sind keine Abwesenheiten erlaubt.".into(),
        AbsenceTooLong { max } => format!("Eine Abwesenheit dauert in diesem Spiel höchstens {max} Tag(e)."),
        AbsenceTooMany { max } => format!("Sie haben bereits die {max} erlaubte(n) Abwesenheit(en) dieses Spiels gemeldet."),
        GmOnly { command } => format!("{command} ist ein Befehl der Spielleitung: er braucht deren Passwort."),
        GmWrongPassword => "Falsches Passwort der Spielleitung: nichts wurde getan.".into(),
        GmDone { command } => format!("{command}: erledigt."),
        Ejected { game, player } => format!("Spieler {player} wurde von der Spielleitung aus Spiel {game} entfernt."),
        RolledBack { game, turn } => format!("Spiel {game} wurde von der Spielleitung auf Zug {turn} zurückgesetzt; der folgende Zug wird erneut ausgewertet."),
        PreviewSubject { game, turn } => format!("[{game}] Vorschau auf Zug {turn} (noch nicht an die Spieler gesendet)"),
        CommandsSubject { game } => format!("[{game}] Ihre Befehle an den Spielleiter"),
        BadCommand { line, text, why } => format!("Zeile {line}: {text}\n  -> {why}"),
        DkimVerdict { verdict } => format!("DKIM-Signatur: {verdict}"),
        ObserverSubject { game, subject } => format!("[{game}] (Beobachter) {subject}"),
        BotPlayed { missed } => format!("HINWEIS: Sie haben {missed} Zug/Züge in Folge keine Befehle gesendet: wie in diesem Spiel vorgesehen, hat der Roboter des Spielleiters Ihre Position in diesem Zug gespielt. Senden Sie Befehle, um wieder selbst zu spielen."),
    }
}
