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
    ResendSubject {
        game: &'a str,
        turn: u32,
    },
    NoSuchTurn {
        turn: u32,
        last: u32,
    },
    HistorySubject {
        game: &'a str,
    },
    HistoryLine {
        turn: u32,
        when: &'a str,
    },
    HistoryEmpty,
    StatusSubject {
        game: &'a str,
    },
    StatusTurn {
        turn: u32,
    },
    StatusDeadline {
        when: &'a str,
    },
    StatusNoDeadline,
    StatusPaused,
    StatusSent {
        players: &'a str,
    },
    StatusMissing {
        players: &'a str,
    },
    TimezoneSet {
        zone: &'a str,
        example: &'a str,
    },
    PressSubject {
        game: &'a str,
        from: &'a str,
    },
    PressAnonymousFrom,
    PressRelayed {
        to: &'a str,
    },
    PressNone,
    PressNoAnonymous,
    PressUnknownPlayer {
        player: &'a str,
    },
    AbsenceSet {
        from: &'a str,
        to: &'a str,
    },
    AbsenceNotAllowed,
    AbsenceTooLong {
        max: u32,
    },
    AbsenceTooMany {
        max: u32,
    },
    GmOnly {
        command: &'a str,
    },
    GmWrongPassword,
    GmDone {
        command: &'a str,
    },
    Ejected {
        game: &'a str,
        player: &'a str,
    },
    RolledBack {
        game: &'a str,
        turn: u32,
    },
    PreviewSubject {
        game: &'a str,
        turn: u32,
    },
    CommandsSubject {
        game: &'a str,
    },
    BadCommand {
        line: usize,
        text: &'a str,
        why: String,
    },
    DkimVerdict {
        verdict: &'a str,
    },
    ObserverSubject {
        game: &'a str,
        subject: &'a str,
    },
    BotPlayed {
        missed: u32,
    },
    DeadlineSetSubject {
        game: &'a str,
    },
    DeadlineSet {
        game: &'a str,
        when: &'a str,
    },
    DeadlineInPast {
        when: &'a str,
    },
    EjectedSubject {
        game: &'a str,
    },
    EjectedSeat {
        game: &'a str,
        player: &'a str,
    },
    TakeoverSubject {
        game: &'a str,
    },
    TakeoverWelcome {
        game: &'a str,
        player: &'a str,
        name: &'a str,
        password: Option<&'a str>,
        when: &'a str,
    },
    TakenOver {
        game: &'a str,
        player: &'a str,
        name: &'a str,
    },
    RolledBackSubject {
        game: &'a str,
    },
    PreviewIntro {
        turn: u32,
        held: usize,
    },
    PreviewPlayer {
        player: &'a str,
        email: &'a str,
    },
    NothingHeld,
    Released {
        turn: u32,
        mails: usize,
        when: &'a str,
    },
    LateOrders {
        deadline: &'a str,
    },
    NoSuchSeat {
        player: &'a str,
    },
    RollbackRange {
        turn: u32,
        last: u32,
    },
    AlreadyEjected {
        player: &'a str,
    },
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
        (Lang::En, Reason::UnknownZone(s)) => {
            format!("unknown time zone '{s}' (expected Area/City, e.g. Europe/Paris)")
        }
        (Lang::Fr, Reason::UnknownZone(s)) => {
            format!("fuseau horaire inconnu « {s} » (attendu Zone/Ville, p. ex. Europe/Paris)")
        }
        (Lang::De, Reason::UnknownZone(s)) => {
            format!("unbekannte Zeitzone „{s}“ (erwartet Gebiet/Stadt, z. B. Europe/Berlin)")
        }
        (Lang::En, Reason::BadDate(s)) => {
            format!("'{s}' is not a date (YYYY-MM-DD, or YYYY-MM-DD HH:MM)")
        }
        (Lang::Fr, Reason::BadDate(s)) => {
            format!("« {s} » n'est pas une date (AAAA-MM-JJ, ou AAAA-MM-JJ HH:MM)")
        }
        (Lang::De, Reason::BadDate(s)) => {
            format!("„{s}“ ist kein Datum (JJJJ-MM-TT oder JJJJ-MM-TT HH:MM)")
        }
        (Lang::En, Reason::BadDuration(s)) => format!("'{s}' is not a duration (48h, 2d, 1d12h)"),
        (Lang::Fr, Reason::BadDuration(s)) => {
            format!("« {s} » n'est pas une durée (48h, 2j, 1j12h)")
        }
        (Lang::De, Reason::BadDuration(s)) => format!("„{s}“ ist keine Dauer (48h, 2t, 1t12h)"),
        (Lang::En, Reason::BadRange) => "the end date is before the start date".into(),
        (Lang::Fr, Reason::BadRange) => "la date de fin précède la date de début".into(),
        (Lang::De, Reason::BadRange) => "das Enddatum liegt vor dem Anfangsdatum".into(),
        (Lang::En, Reason::TooManyArguments(s)) => format!("unexpected text: {s}"),
        (Lang::Fr, Reason::TooManyArguments(s)) => format!("texte inattendu : {s}"),
        (Lang::De, Reason::TooManyArguments(s)) => format!("unerwarteter Text: {s}"),
        (Lang::En, Reason::BadEmail(s)) => format!("'{s}' is not an e-mail address"),
        (Lang::Fr, Reason::BadEmail(s)) => format!("« {s} » n'est pas une adresse électronique"),
        (Lang::De, Reason::BadEmail(s)) => format!("„{s}“ ist keine E-Mail-Adresse"),
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
        DeadlineSetSubject { game } => format!("[{game}] new deadline"),
        DeadlineSet { game, when } => format!("The game master has set a new deadline for game {game}.\nDeadline: {when}"),
        DeadlineInPast { when } => format!("{when} is not in the future: the deadline was not changed."),
        EjectedSubject { game } => format!("[{game}] a seat is vacant"),
        EjectedSeat { game, player } => format!("Seat {player} of game {game} no longer plays: its orders are not accepted. Ask the game master if you want to take it over."),
        TakeoverSubject { game } => format!("[{game}] change of player"),
        TakeoverWelcome { game, player, name, password, when } => format!(
            "Welcome, {name}: you now play seat {player} of game {game}, where its previous player left it.\n{}Deadline: {when}\nThe last report of your seat follows in a separate mail.",
            password.map(|p| format!("Your password: {p}\n")).unwrap_or_default()
        ),
        TakenOver { game, player, name } => format!("Seat {player} of game {game} is now played by {name}."),
        RolledBackSubject { game } => format!("[{game}] turn undone"),
        PreviewIntro { turn, held } => format!("Turn {turn} is resolved and held: its {held} mail(s) to players and observers are not sent. Every player's report follows.\nAnswer RELEASE to send them, or ROLLBACK {} to undo the turn.", turn.saturating_sub(1)),
        PreviewPlayer { player, email } => format!("===== report for {player} <{email}> ====="),
        NothingHeld => "No turn is held: nothing to release.".into(),
        Released { turn, mails, when } => format!("RELEASE: the {mails} held mail(s) of turn {turn} are being sent. Next deadline: {when}"),
        LateOrders { deadline } => format!("LATE: these orders arrived after the deadline ({deadline}) but within the grace period: they count for this turn."),
        NoSuchSeat { player } => format!("There is no seat '{player}' in this game."),
        AlreadyEjected { player } => format!("Seat {player} is already ejected."),
        RollbackRange { turn, last } => format!("Cannot roll back to turn {turn}: the last resolved turn is {last}; give an earlier turn."),
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
        DeadlineSetSubject { game } => format!("[{game}] nouvelle date limite"),
        DeadlineSet { game, when } => format!("Le meneur de jeu a fixé une nouvelle date limite pour la partie {game}.\nDate limite : {when}"),
        DeadlineInPast { when } => format!("{when} n'est pas dans le futur : la date limite n'a pas changé."),
        EjectedSubject { game } => format!("[{game}] un poste est libre"),
        EjectedSeat { game, player } => format!("Le poste {player} de la partie {game} ne joue plus : ses ordres ne sont plus acceptés. Demandez au meneur de jeu si vous voulez le reprendre."),
        TakeoverSubject { game } => format!("[{game}] changement de joueur"),
        TakeoverWelcome { game, player, name, password, when } => format!(
            "Bienvenue, {name} : vous jouez désormais le poste {player} de la partie {game}, là où son joueur précédent l'a laissé.\n{}Date limite : {when}\nLe dernier compte rendu de votre poste suit dans un courrier séparé.",
            password.map(|p| format!("Votre mot de passe : {p}\n")).unwrap_or_default()
        ),
        TakenOver { game, player, name } => format!("Le poste {player} de la partie {game} est désormais joué par {name}."),
        RolledBackSubject { game } => format!("[{game}] tour annulé"),
        PreviewIntro { turn, held } => format!("Le tour {turn} est résolu et retenu : ses {held} courrier(s) aux joueurs et observateurs ne sont pas envoyés. Les comptes rendus de chaque joueur suivent.\nRépondez PUBLIER pour les envoyer, ou RETOUR {} pour annuler le tour.", turn.saturating_sub(1)),
        PreviewPlayer { player, email } => format!("===== compte rendu de {player} <{email}> ====="),
        NothingHeld => "Aucun tour n'est retenu : rien à publier.".into(),
        Released { turn, mails, when } => format!("PUBLIER : les {mails} courrier(s) retenus du tour {turn} partent. Prochaine date limite : {when}"),
        LateOrders { deadline } => format!("EN RETARD : ces ordres sont arrivés après la date limite ({deadline}) mais pendant le délai de grâce : ils comptent pour ce tour."),
        NoSuchSeat { player } => format!("Il n'y a pas de poste « {player} » dans cette partie."),
        AlreadyEjected { player } => format!("Le poste {player} est déjà retiré de la partie."),
        RollbackRange { turn, last } => format!("Impossible de revenir au tour {turn} : le dernier tour résolu est le {last} ; indiquez un tour antérieur."),
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
        DeadlineSetSubject { game } => format!("[{game}] neuer Abgabetermin"),
        DeadlineSet { game, when } => format!("Die Spielleitung hat für Spiel {game} einen neuen Abgabetermin gesetzt.\nAbgabetermin: {when}"),
        DeadlineInPast { when } => format!("{when} liegt nicht in der Zukunft: der Abgabetermin bleibt unverändert."),
        EjectedSubject { game } => format!("[{game}] eine Position ist frei"),
        EjectedSeat { game, player } => format!("Position {player} in Spiel {game} spielt nicht mehr mit: ihre Befehle werden nicht mehr angenommen. Wenden Sie sich an die Spielleitung, wenn Sie sie übernehmen möchten."),
        TakeoverSubject { game } => format!("[{game}] Spielerwechsel"),
        TakeoverWelcome { game, player, name, password, when } => format!(
            "Willkommen, {name}: Sie spielen jetzt Position {player} in Spiel {game}, dort, wo sie Ihr Vorgänger verlassen hat.\n{}Abgabetermin: {when}\nDie letzte Auswertung Ihrer Position folgt in einer eigenen Nachricht.",
            password.map(|p| format!("Ihr Passwort: {p}\n")).unwrap_or_default()
        ),
        TakenOver { game, player, name } => format!("Position {player} in Spiel {game} wird jetzt von {name} gespielt."),
        RolledBackSubject { game } => format!("[{game}] Zug zurückgenommen"),
        PreviewIntro { turn, held } => format!("Zug {turn} ist ausgewertet und zurückgehalten: seine {held} Nachricht(en) an Spieler und Beobachter sind nicht versandt. Die Auswertungen aller Spieler folgen.\nAntworten Sie FREIGEBEN, um sie zu senden, oder ZURÜCK {}, um den Zug zurückzunehmen.", turn.saturating_sub(1)),
        PreviewPlayer { player, email } => format!("===== Auswertung für {player} <{email}> ====="),
        NothingHeld => "Kein Zug ist zurückgehalten: nichts freizugeben.".into(),
        Released { turn, mails, when } => format!("FREIGEBEN: die {mails} zurückgehaltene(n) Nachricht(en) von Zug {turn} werden gesendet. Nächster Abgabetermin: {when}"),
        LateOrders { deadline } => format!("VERSPÄTET: diese Befehle kamen nach dem Abgabetermin ({deadline}), aber in der Nachfrist: sie zählen für diesen Zug."),
        NoSuchSeat { player } => format!("In diesem Spiel gibt es keine Position „{player}“."),
        AlreadyEjected { player } => format!("Position {player} ist bereits ausgeschlossen."),
        RollbackRange { turn, last } => format!("Zurück auf Zug {turn} ist nicht möglich: der letzte ausgewertete Zug ist {last}; geben Sie einen früheren Zug an."),
    }
}
