## Order confirmations, refusals, reminders and notices (messages.rs, Msg)

confirm-subject = [{ $game }] Befehle für Zug { $turn } erhalten
confirm-header = Befehle erhalten für Spiel { $game }, Zug { $turn }, Spieler { $player }.
check-subject = [{ $game }] Befehlsprüfung
check-header = Befehlsprüfung (CHECK) für Spiel { $game }, Zug { $turn }, Spieler { $player }.
    Nichts wurde gespeichert: Sende denselben Block mit SPIEL, um ihn zu spielen.
refused-subject = [{ $game }] Befehle verworfen: offen ist Zug { $turn }
refused-header = Befehlsblatt vollständig verworfen für Spiel { $game }, Spieler { $player }: Es gilt nicht dem offenen Zug { $turn }.
    Nichts wurde gespeichert; die bereits erhaltenen Befehle für Zug { $turn } bleiben gültig.
ok = OK
error = FEHLER
warning = WARNUNG
summary = { $orders } Befehl(e) angenommen, { $errors } Fehler, { $warnings } Warnung(en).
replaces = Diese Befehle ersetzen alle früher für diesen Zug gesendeten Befehle.
not-ready = Du bist nicht als bereit gemeldet: der Zug wartet auf den Abgabetermin.
deadline = Abgabetermin: { $when }
no-order-lines = Keine Befehlszeilen: Du tust in diesem Zug nichts.
error-subject = arbitre: Deine Nachricht wurde nicht angenommen
no-block = In Deiner Nachricht wurde kein Befehlsblock gefunden. Befehle beginnen mit der Zeile

    {"    "}SPIEL <Spiel> SPIELER <Spieler> PASSWORT <Passwort>

    gefolgt von einem Befehl pro Zeile und ENDE. Nichts wurde gespeichert.
malformed = Der Kopf des Befehlsblocks (Zeile { $line }) ist fehlerhaft: { $reason }. Nichts wurde gespeichert.
too-large = Deine Nachricht ({ $size } KiB) ist größer als dieser Spielleiter annimmt ({ $limit } KiB) und wurde nicht gelesen. Sende Deine Befehle als einfachen Text. Nichts wurde gespeichert.
unknown-game = Auf diesem Spielleiter gibt es kein Spiel „{ $game }“. Nichts wurde gespeichert.
unknown-player = Spiel { $game } hat keinen Spieler „{ $player }“. Nichts wurde gespeichert.
wrong-password = Falsches Passwort für Spieler { $player } in Spiel { $game }. Nichts wurde gespeichert.
game-over = Spiel { $game } ist beendet: es werden keine Befehle mehr angenommen. Nichts wurde gespeichert.
too-many-from-you = Du hast diesem Spielleiter innerhalb einer Stunde mehr als { $limit } Nachrichten gesendet. Deine letzte Nachricht wurde nicht gelesen und nichts wurde gespeichert; weitere Nachrichten in dieser Stunde werden weder gelesen noch beantwortet. Bitte warte etwas und sende Deine Befehle dann einmal erneut.
too-many-for-game = Spiel { $game } hat innerhalb einer Stunde mehr als { $limit } Nachrichten erhalten. Deine letzte Nachricht wurde nicht gelesen und nichts wurde gespeichert; weitere Nachrichten in dieser Stunde werden nicht beantwortet. Bitte warte etwas und sende Deine Befehle dann einmal erneut.
too-many-lines = Dein Befehlsblock hat { $lines } Zeilen; dieser Spielleiter nimmt höchstens { $limit } pro Nachricht an. Er wurde nicht gelesen und nichts wurde gespeichert. Sende nur Deine Befehle.
ok-lines-not-echoed = ({ $ok } ohne Anmerkung angenommene Zeilen werden hier nicht wiederholt; jede Zeile mit Fehler oder Warnung ist aufgeführt.)
seat-guessed-subject = [{ $game }] falsche Passwörter für einen Spieler
seat-guessed = Spiel { $game }: Mehr als { $limit } Nachrichten innerhalb einer Stunde nannten Spieler { $player } mit einem falschen Passwort. Weitere werden in dieser Stunde nicht beantwortet (das richtige Passwort wird weiter angenommen). Falls es weitergeht, erwäge ein neues Passwort für diesen Spieler (arbitre player replace / password reset).
reminder-subject = [{ $game }] Erinnerung: Befehle für Zug { $turn }
reminder = Erinnerung: Der Spielleiter hat keine Befehle von { $player } für Zug { $turn } von Spiel { $game }.
    Abgabetermin: { $when }
    Ohne Befehle tut Deine Position in diesem Zug nichts.
report-subject = [{ $game }] { $subject }
game-ended = Das Spiel ist beendet. { $summary }
paused-subject = [{ $game }] Spiel pausiert
paused = Die Spielleitung hat Spiel { $game } pausiert. Befehle werden weiter angenommen; ein neuer Abgabetermin wird bekanntgegeben.
resumed-subject = [{ $game }] Spiel fortgesetzt
resumed = Spiel { $game } wird fortgesetzt.
    Abgabetermin: { $when }
extended-subject = [{ $game }] Abgabetermin verlängert
extended = Die Spielleitung hat den Abgabetermin von Spiel { $game } verlängert.
    Abgabetermin: { $when }
signature = --{" "}
    arbitre, Spielleiter für Spiele per E-Mail

## Service commands and game master commands by mail (services/texts.rs, SvcMsg)

resend-subject = [{ $game }] Auswertung von Zug { $turn } (erneut gesendet)
no-such-turn = Für Zug { $turn } gibt es keine Auswertung: der letzte ausgewertete Zug ist { $last }.
history-subject = [{ $game }] Verlauf
history-line = Zug { $turn }  ausgewertet am { $when }
history-empty = Es wurde noch kein Zug ausgewertet.
status-subject = [{ $game }] Spielstand
status-turn = Laufender Zug: { $turn }
status-deadline = Abgabetermin: { $when }
status-no-deadline = Es ist kein Abgabetermin gesetzt.
status-paused = Das Spiel ist pausiert.
status-sent = Befehle erhalten von: { $players }
status-missing = Es fehlen noch: { $players }
timezone-set = Deine Abgabetermine werden jetzt in der Zeitzone { $zone } angezeigt. Nächster Abgabetermin: { $example }
press-subject = [{ $game }] Nachricht von { $from }
press-anonymous-from = einem anonymen Spieler
press-relayed = Deine Nachricht wurde weitergeleitet an: { $to }
press-none = In diesem Spiel gibt es keine Nachrichten zwischen Spielern: nichts wurde weitergeleitet.
press-no-anonymous = In diesem Spiel sind nur unterschriebene Nachrichten erlaubt: nichts wurde weitergeleitet.
press-unknown-player = Es gibt keinen Spieler „{ $player }“: nichts wurde weitergeleitet.
absence-set = Abwesenheit vom { $from } bis { $to } eingetragen. Abgabetermine in diesem Zeitraum werden danach verschoben.
absence-not-allowed = In diesem Spiel sind keine Abwesenheiten erlaubt.
absence-too-long = Eine Abwesenheit dauert in diesem Spiel höchstens { $max } Tag(e).
absence-too-many = Du hast bereits die { $max } erlaubte(n) Abwesenheit(en) dieses Spiels gemeldet.
gm-only = { $command } ist ein Befehl der Spielleitung: er braucht deren Passwort.
gm-wrong-password = Falsches Passwort der Spielleitung: nichts wurde getan.
gm-done = { $command }: erledigt.
ejected = Spieler { $player } wurde von der Spielleitung aus Spiel { $game } entfernt.
rolled-back = Spiel { $game } wurde von der Spielleitung auf Zug { $turn } zurückgesetzt; der folgende Zug wird erneut ausgewertet.
preview-subject = [{ $game }] Vorschau auf Zug { $turn } (noch nicht an die Spieler gesendet)
commands-subject = [{ $game }] Deine Befehle an den Spielleiter
bad-command = Zeile { $line }: { $text }
    {"  "}-> { $why }
dkim-verdict = DKIM-Signatur: { $verdict }
observer-subject = [{ $game }] (Beobachter) { $subject }
bot-played = HINWEIS: Du hast { $missed } Zug/Züge in Folge keine Befehle gesendet: wie in diesem Spiel vorgesehen, hat der Roboter des Spielleiters Deine Position in diesem Zug gespielt. Sende Befehle, um wieder selbst zu spielen.
deadline-set-subject = [{ $game }] neuer Abgabetermin
deadline-set = Die Spielleitung hat für Spiel { $game } einen neuen Abgabetermin gesetzt.
    Abgabetermin: { $when }
deadline-in-past = { $when } liegt nicht in der Zukunft: der Abgabetermin bleibt unverändert.
ejected-subject = [{ $game }] eine Position ist frei
ejected-seat = Position { $player } in Spiel { $game } spielt nicht mehr mit: ihre Befehle werden nicht mehr angenommen. Wende Dich an die Spielleitung, wenn Du sie übernehmen möchtest.
takeover-subject = [{ $game }] Spielerwechsel
takeover-welcome = Willkommen, { $name }: Du spielst jetzt Position { $player } in Spiel { $game }, dort, wo sie Dein Vorgänger verlassen hat.
    { $password_line }Abgabetermin: { $when }
    Die letzte Auswertung Deiner Position folgt in einer eigenen Nachricht.
takeover-password = Dein Passwort: { $password }
taken-over = Position { $player } in Spiel { $game } wird jetzt von { $name } gespielt.
rolled-back-subject = [{ $game }] Zug zurückgenommen
preview-intro = Zug { $turn } ist ausgewertet und zurückgehalten: seine { $held } Nachricht(en) an Spieler und Beobachter sind nicht versandt. Die Auswertungen aller Spieler folgen.
    Antworte FREIGEBEN, um sie zu senden, oder ZURÜCK { $previous }, um den Zug zurückzunehmen.
preview-player = ===== Auswertung für { $player } <{ $email }> =====
nothing-held = Kein Zug ist zurückgehalten: nichts freizugeben.
released = FREIGEBEN: die { $mails } zurückgehaltene(n) Nachricht(en) von Zug { $turn } werden gesendet. Nächster Abgabetermin: { $when }
late-orders = VERSPÄTET: diese Befehle kamen nach dem Abgabetermin ({ $deadline }), aber in der Nachfrist: sie zählen für diesen Zug.
no-such-seat = In diesem Spiel gibt es keine Position „{ $player }“.
already-ejected = Position { $player } ist bereits ausgeschlossen.
rollback-range = Zurück auf Zug { $turn } ist nicht möglich: der letzte ausgewertete Zug ist { $last }; gib einen früheren Zug an.

## Why a command line was refused (services/command.rs, Reason)

reason-missing-argument = Angabe fehlt ({ $value })
reason-bad-number = „{ $value }“ ist keine Zugnummer
reason-unknown-zone = unbekannte Zeitzone „{ $value }“ (erwartet Gebiet/Stadt, z. B. Europe/Berlin)
reason-bad-date = „{ $value }“ ist kein Datum (JJJJ-MM-TT oder JJJJ-MM-TT HH:MM)
reason-bad-duration = „{ $value }“ ist keine Dauer (48h, 2t, 1t12h)
reason-bad-range = das Enddatum liegt vor dem Anfangsdatum
reason-too-many-arguments = unerwarteter Text: { $value }
reason-bad-email = „{ $value }“ ist keine E-Mail-Adresse

## Absences (services/absence.rs, AbsenceMsg)

absence-over = ABWESENHEIT: der { $to } ist schon vorbei: nichts wurde eingetragen.
absence-overlaps = ABWESENHEIT: sie überschneidet sich mit Deiner Abwesenheit vom { $from } bis { $to }: nichts wurde eingetragen.
absence-your-deadline-moved = Der Abgabetermin ist auf { $when } verschoben.
absence-status-line = Gemeldete Abwesenheiten: { $list }
absence-moved-subject = [{ $game }] Abgabetermin von Zug { $turn } verschoben
absence-moved = Der Abgabetermin von Zug { $turn } des Spiels { $game } ist auf { $when } verschoben, weil { $who } an dem Tag, auf den er fiel, abwesend ist.
absence-someone = ein Spieler

## Press (services/press.rs, PressMsg)

press-empty = PRESSE: die Nachricht ist leer (schreib sie in die Zeilen nach der Zeile PRESSE): nichts wurde weitergeleitet.
press-to-self = PRESSE: Du kannst Dir nicht selbst schreiben: nichts wurde weitergeleitet.
press-sender-out = PRESSE: Deine Position gehört nicht mehr zum Spiel: nichts wurde weitergeleitet.
press-observers = Die Nachricht wurde auch an die { $n } Beobachter des Spiels gesendet.
press-head = Nachricht von { $from } { $all ->
        [yes] an alle Spieler
       *[no] an Dich
    }, weitergeleitet vom Spielleiter des Spiels { $game } (Zug { $turn }):
press-foot-reply = Zum Antworten sende einen Befehlsblock mit der Zeile: PRESSE AN { $id }
press-foot-anonymous = Der Absender ist anonym: nur die Spielleitung kann wissen, wer es geschrieben hat.

## Faults and mail trouble, to the game master (fault.rs, FaultMsg)

fault-subject = [{ $game }] Spiel angehalten: interner Fehler der Spielregeln
fault-faulted = Die Spielregeln von Spiel { $game } sind an einem internen Fehler gescheitert ({ $during }, Zug { $turn }):

    {"    "}{ $message }

    Spiel { $game } ist angehalten: sein Zug wird nicht ausgewertet, und die Mails seiner Spieler warten unbeantwortet im Postfach. Nichts ist verloren, und die anderen Spiele laufen weiter.
    Sobald die Regeln korrigiert und das neue arbitre installiert ist, starte

    {"    "}arbitre resume { $game }

    um die Mails und den Zug erneut zu spielen. `arbitre status` zeigt den Fehler.
fault-mail-failed-subject = [{ $game }] eine Mail konnte nicht zugestellt werden
fault-mail-failed = Die Mail „{ $subject }“ an { $to } konnte nicht zugestellt werden und wird aufgegeben:

    {"    "}{ $reason }

    Korrigiere die Adresse (arbitre player replace) oder die Ursache und sende sie erneut mit

    {"    "}arbitre outbox retry { $id }

    oder verwirf sie mit `arbitre outbox drop { $id }`. `arbitre outbox list` zeigt alle Mails mit Problemen.
fault-sending-paused-subject = arbitre: der Versand war angehalten
fault-sending-paused = Seit { $since } konnte arbitre wegen seiner Versand-Einrichtung keine Mail senden, nicht wegen einer Mail:

    {"    "}{ $reason }

    Der Versand wurde angehalten, keine Mail wurde aufgegeben, und arbitre hat es weiter versucht. Wenn Du dies liest, funktioniert der Versand wieder und die wartenden Mails sind verschickt.

## Tokens and DKIM (services/authenticity.rs, Refusal and FailReason)

refusal-token-missing = das Spiel { $game } verlangt die Marke von Spieler { $player }, und diese Mail enthält keine. Füge die Zeile MARKE <Deine Marke> direkt nach der SPIEL-Zeile ein.
refusal-token-wrong = die für Spieler { $player } im Spiel { $game } angegebene Marke ist falsch.
refusal-unsigned = das Spiel { $game } verlangt eine gültige DKIM-Signatur Deiner Domain ({ $domain }), und diese Mail ist nicht signiert. Sende Deine Befehle von Deiner angemeldeten Adresse über den Server Deines Anbieters.
refusal-not-players-domain = das Spiel { $game } verlangt eine gültige DKIM-Signatur der Domain Deiner angemeldeten Adresse ({ $domain }); diese Mail ist von { $signer } signiert.
refusal-dkim-unavailable = das Spiel { $game } verlangt eine gültige DKIM-Signatur, und die Signatur dieser Mail kann gerade nicht geprüft werden ({ $reason }). Bitte sende dieselbe Mail in einigen Minuten erneut.
refusal-dkim-failed = das Spiel { $game } verlangt eine gültige DKIM-Signatur Deiner Domain ({ $domain }), und die Signatur dieser Mail ist ungültig: { $reason }.
refusal = Deine Mail wurde abgelehnt: { $why }
    Es wurde nichts gespeichert.
dkim-body-changed = der Text wurde nach dem Signieren verändert
dkim-bad-signature = die Signatur passt nicht zu den Kopfzeilen der Mail
dkim-expired = die Signatur ist abgelaufen
dkim-no-key = { $domain } veröffentlicht keinen Schlüssel dafür
dkim-misaligned = signiert von { $signer }, nicht von der Absenderdomain { $from }
dkim-unusable = unbrauchbare Signatur ({ $error })

## Notices appended to reports and answers (turn.rs, services/answer.rs, services/timezone.rs)

wrong-password-notice = ACHTUNG: { $n } Nachricht(en) in diesem Zug benutzten Deinen Spielernamen mit einem falschen Passwort. Nichts davon wurde gespeichert. Falls Du es nicht warst, benachrichtige Deinen Spielleiter.
not-served = { $name }: dieser Spielleiter bietet diesen Dienst noch nicht an.
timezone-answer-set = ZEITZONE: Deine Abgabetermine werden jetzt in der Zeitzone { $zone } angezeigt.
timezone-answer-game-zone = ZEITZONE: Deine Abgabetermine werden in der Zeitzone des Spiels angezeigt, { $zone }.

## The command line (cli.rs): it speaks one language, --lang or the locale, English by default

cli-game-created = Spiel { $id } angelegt; Auswertungen von Zug 0 zum Versand vorgemerkt
cli-game-deleted = Spiel { $game } gelöscht; seine { $rows } Zeile(n), darunter { $mails } Mail(s), archiviert in { $path }
cli-delete-needs-yes = Spiel { $game } nicht gelöscht: mit --yes wird es ohne Rückfrage gelöscht (kein Terminal für die Frage)
cli-delete-confirm = Spiel { $game } endgültig löschen (seine Zeilen werden zuerst in eine Datei archiviert)? Zur Bestätigung seine Kennung eingeben:
cli-delete-not-confirmed = Spiel { $game } nicht gelöscht: die eingegebene Kennung stimmt nicht
cli-mails-sent = { $sent } Nachricht(en) gesendet
cli-mails-sent-failed = { $sent } Nachricht(en) gesendet, { $failed } fehlgeschlagen (siehe arbitre status)
cli-daemon-sends = ein Dienst läuft: er sendet die vorgemerkten Nachrichten
cli-cycle = { $mails } Nachricht(en) bearbeitet, { $resolved } Zug/Züge ausgewertet, { $reminders } Erinnerung(en), { $sent } Nachricht(en) gesendet, { $failures } Sendefehler
cli-inbox-not-read = Posteingang nicht gelesen: { $error }
cli-turn-resolved = Spiel { $game }: Zug { $turn } ausgewertet; Auswertungen zum Versand vorgemerkt
cli-map-where = gib an, wohin die Karte geschrieben wird: --png DATEI und/oder --svg DATEI
cli-file-written = { $path }: { $name } ({ $bytes } Bytes)
cli-password-reset = Spiel { $game }: Passwort von Spieler { $player } zurückgesetzt
cli-password-one-word = ein Passwort ist ein Wort, ohne Leerzeichen
cli-player-joined = Spiel { $game }: Spieler { $id } beigetreten
cli-player-ejected = Spiel { $game }: Spieler { $id } ausgeschlossen
cli-password-not-on-command-line = ein Passwort wird nie auf der Befehlszeile angenommen, wo `ps` es allen zeigt: verwende --password-file DATEI oder --password-stdin (oder keines von beiden, um eines erzeugen zu lassen)
cli-seat-replaced = Spiel { $game }: Position { $player } wird jetzt von { $email } gespielt
cli-new-password = neues Passwort (auch an den neuen Spieler gesendet): { $password }
cli-deadline-set = Spiel { $game }: Abgabetermin auf { $when } gesetzt
cli-preview-mode-bad = Vorschaumodus „{ $mode }“: next, always oder off
cli-preview-set = Spiel { $game }: Vorschau { $mode }
cli-released = Spiel { $game }: Zug { $turn } freigegeben, { $mails } Nachricht(en)
cli-rolled-back = Spiel { $game }: zurück auf Zug { $turn } (zurückgenommen: { $undone })
cli-paused = Spiel { $game } pausiert
cli-resumed-after-fault = Spiel { $game } nach seinem Fehler in Zug { $turn } ({ $during }) fortgesetzt; seine Nachrichten und sein Zug werden erneut versucht
cli-resumed = Spiel { $game } fortgesetzt
cli-extended = Spiel { $game }: Abgabetermin verlängert
cli-case-verdict = { $passed ->
        [yes] PASS
       *[no] FAIL
    } { $file } ({ $title })
cli-cases = { $cases } Fall/Fälle, { $failed } fehlgeschlagen
cli-no-fixture = kein archiviertes Spiel (ein Ordner mit einer game.toml) in { $dir }
cli-replayed = { $dir }: { $turns } Zug/Züge, { $mails } Nachricht(en) { $blessed ->
        [yes] neu festgeschrieben
       *[no] wiederholt, identisch
    }
cli-bots-or-orders = gib --bots oder --orders ORDNER an
cli-recorded = { $dir }: { $turns } Zug/Züge, { $mails } Nachricht(en) aufgezeichnet
cli-mail-requeued = Nachricht Nr. { $id } erneut vorgemerkt
cli-failed-requeued = { $n } fehlgeschlagene Nachricht(en) erneut vorgemerkt
cli-mail-dropped = Nachricht Nr. { $id } verworfen: sie wird nicht gesendet
cli-backup-written = Sicherung von { $database } nach { $path } geschrieben ({ $bytes } Bytes)

## A game master's command that cannot be done (gm.rs), in the game's language

gm-not-running = Spiel { $game } ist { $status ->
        [paused] pausiert
        [over] beendet
       *[other] laufend
    }, es läuft nicht
gm-not-paused = Spiel { $game } ist { $status ->
        [running] laufend
        [over] beendet
       *[other] pausiert
    }, nicht pausiert
gm-no-deadline-to-extend = Spiel { $game } hat keinen laufenden Abgabetermin, der verlängert werden könnte

# PASSWORD NEW by mail and `arbitre player password` (issue 17 item 4).
password-changed = Spiel { $game }: das Passwort von { $player } ist geändert; ab Deiner nächsten Nachricht gilt das neue.
password-no-player = Spiel { $game } hat keinen Spieler { $player }
cli-password-changed = Spiel { $game }: Passwort von Spieler { $player } geändert
## Welcome, HELP, LIST and refusals that teach (issue 17; services/welcome.rs, help.rs, refusal.rs)

welcome-subject = [{ $game }] Willkommen in { $game } ({ $ruleset })
welcome-created = Willkommen, { $name }! Du spielst die Position { $player } im Spiel { $game } ({ $ruleset }), das jetzt beginnt. Diese Nachricht enthält alles, was Du zum Spielen per Mail brauchst.
welcome-joined = Willkommen, { $name }! Du bist dem laufenden Spiel { $game } ({ $ruleset }) als Position { $player } beigetreten. Diese Nachricht enthält alles, was Du zum Spielen per Mail brauchst.
welcome-takeover = Willkommen, { $name }! Du übernimmst die Position { $player } im Spiel { $game } ({ $ruleset }). Diese Nachricht enthält alles, was Du zum Spielen per Mail brauchst.
welcome-referee = Sende jede Nachricht zum Spiel an den Spielleiter: { $referee }
welcome-header = Deine Befehle beginnen mit dieser Kopfzeile, genau so abgeschrieben:
welcome-password-generated = Das ist Dein Passwort: Bewahre es auf, keine andere Nachricht nennt es noch einmal.
welcome-password-gm = Ersetze { $placeholder } durch das Passwort, das Dir Deine Spielleitung gegeben hat.
welcome-how = So wird gespielt:
    - Befehle: die Kopfzeile, dann ein Befehl pro Zeile, dann ENDE. Jede Nachricht ersetzt die Befehle, die Du vorher für denselben Zug geschickt hast; es gilt die letzte vor dem Abgabetermin.
    - Prüfen ohne zu spielen: Schreibe { $check } statt SPIEL in die Kopfzeile; nichts wird gespeichert, und Du erhältst das Urteil zu jeder Zeile.
    - In den Zeilen direkt nach der Kopfzeile, vor Deinen Befehlen: NOCHMAL (Dein letzter Bericht), STAND (Zug, Abgabetermin und wer bereit ist), HILFE (alle Befehle).
    - HILFE funktioniert auch allein in einer Nachricht, ohne Kopfzeile und ohne Passwort.
welcome-deadline = Abgabetermin der Befehle für Zug { $turn }: { $when } (die beigefügte Datei { $file } trägt ihn in Deinen Kalender ein).
welcome-deadline-ics = Abgabetermin: { $when }
welcome-template = Dein Befehlsformular liegt bei ({ $file }): Fülle es aus und sende es unter der Kopfzeile.
welcome-guide = Die Spieleranleitung zu { $ruleset } liegt bei ({ $file }).
help-intro = So spielst Du per Mail mit diesem Spielleiter.
help-header = Befehle beginnen mit einer Kopfzeile, in einer der drei Sprachen:

    { $headers }

    dann ein Befehl pro Zeile, dann { $end }. Schreibe { $check } statt { $g }, um Deine Befehle prüfen zu lassen, ohne sie zu speichern.
help-commands = Kommandos, in den Zeilen direkt nach der Kopfzeile und vor Deinen Befehlen:
    NOCHMAL [Zug]    Dein letzter Bericht noch einmal (oder der dieses Zuges)
    STAND            Zug, Abgabetermin und wer bereit ist
    VERLAUF          die gespielten Züge und wann
    ZEITZONE <Zone>  Termine in Deiner eigenen Zeitzone (z. B. Europe/Berlin)
    PRESSE <Spieler|ALLE>  eine Nachricht an andere Spieler (wenn das Spiel es erlaubt)
    ABWESENHEIT <von> <bis>  Du bist verreist (wenn das Spiel es erlaubt)
    Ohne Kopfzeile und ohne Passwort: { $help } [Spiel] (dieser Text), LISTE (die öffentlichen Spiele).
help-game = Spiel { $game } ({ $ruleset }), laufender Zug { $turn }.
help-game-deadline = Abgabetermin: { $when }
list-intro = Öffentliche Spiele:
list-empty = Auf diesem Spielleiter ist kein Spiel öffentlich.
list-game = - { $game } ({ $ruleset }), Zug { $turn }, Abgabetermin { $when }, { $seats }
list-free-seats = { $free } freie(r) Platz/Plätze
list-no-signup = keine Anmeldung per Mail
help-subject = arbitre: Hilfe
list-subject = arbitre: öffentliche Spiele
near-miss = Deine Kopfzeile nennt das Spiel { $game }, aber der Spielleiter kann sie nicht lesen. Das Schlüsselwort für das Passwort ist { $keyword } (ein Wort), nach { $player_word } und der Kennung des Spielers. Schreibe die Zeile so:

    {"    "}{ $line }

    mit Deinem Passwort an der Stelle des Platzhalters. Nichts wurde gespeichert.
placeholder-password = Deine Kopfzeile für Spieler { $player } im Spiel { $game } enthält noch den Platzhalter { $written } der Vorlage, wo Dein Passwort stehen muss. Schreibe dort Dein Passwort hin (das Deiner Spielleitung oder das aus Deiner Willkommensnachricht). Nichts wurde gespeichert, und dies zählt nicht als falsches Passwort.
did-you-mean = Meintest Du { $id }?

## pipe2 (issue 16 item 3 rest): `arbitre status`, `outbox list`, the demo and the refusals of the operator's commands, in the CLI's language (gm.rs, gm/listing.rs, sender.rs, demo.rs, create.rs, join.rs, backup.rs, png_map.rs, offline.rs, daemon.rs)

cli-status-id-collision = WARNUNG: { $ids } unterscheiden sich nur in Groß-/Kleinschreibung: eine Nachricht, die eines nennt, erreicht nur eines; benenne eines um oder entferne es
cli-status-no-games = keine Spiele
cli-status-running = läuft
cli-status-paused = pausiert
cli-status-over = beendet
cli-status-held = { $status } (Zug { $turn } zur Durchsicht zurückgehalten)
cli-status-game = { $game } ({ $ruleset }), { $state }
cli-status-faulted = GESTÖRT seit { $at }: das Regelwerk ist bei { $during } von Zug { $turn } abgestürzt: { $message }
cli-status-faulted-wait = seine Nachrichten warten im Eingang; nach einer Korrektur: arbitre resume { $game }
cli-status-last-turn = letzter ausgewerteter Zug: { $last }
cli-status-deadline = Abgabeschluss für Zug { $turn }: { $when }
cli-status-no-deadline = kein Abgabeschluss
cli-status-outbox-problems = Versandprobleme: { $failed } fehlgeschlagen, { $stale } wartend nach einem Fehler oder seit über einer Stunde, { $held } zurückgehalten
cli-status-seat-orders = Befehle ({ $lines } Zeile(n), { $errors } Fehler)
cli-status-seat-orders-not-ready = Befehle ({ $lines } Zeile(n), { $errors } Fehler, nicht bereit)
cli-status-seat-ejected = ausgeschlossen
cli-status-seat-inactive = inaktiv
cli-status-seat-no-orders = keine Befehle
cli-status-missing = es fehlen: { $players }
cli-status-outbox = Ausgang: { $pending } wartend, { $n_failed } fehlgeschlagen
cli-status-sending-paused = Versand ANGEHALTEN seit { $since }: { $reason } (die Versandeinrichtung schlägt fehl, keine Nachricht wird deshalb als fehlgeschlagen markiert; nächster Versuch { $next })
cli-status-retrying = NEUER VERSUCH #{ $id } { $message_id } an { $to }: fehlschlagend seit { $since }, { $attempts } Versuch(e), nächster { $next }: { $error }
cli-status-failed = FEHLGESCHLAGEN #{ $id } { $message_id } an { $to }: { $error } (arbitre outbox retry { $id })
outbox-sending-paused = Versand ANGEHALTEN seit { $since }: { $reason }
outbox-none = keine Nachricht in Schwierigkeiten
outbox-row = #{ $id } { $status } { $kind } an { $to } „{ $subject }“ (eingereiht { $queued }
outbox-row-failing = fehlschlagend seit { $since }, { $attempts } Versuch(e)
outbox-row-next = nächster Versuch { $next }
err-inbox-is-imap = der Eingang ist IMAP: Nachrichten können nicht lokal zugestellt werden
err-retry-not-failed = Nachricht #{ $id } ist { $status }: nur eine fehlgeschlagene oder wartende Nachricht kann erneut gesendet werden
err-no-such-mail = keine Nachricht #{ $id } im Ausgang (siehe arbitre outbox list)
err-nothing-to-drop = Nachricht #{ $id } ist gesendet oder fehlt: nichts zu verwerfen
err-cannot-read = { $path } kann nicht gelesen werden: { $error }
err-player-toml = Spieler-TOML: { $error }
err-join-password = Spieler „{ $player }“ braucht ein Passwort aus einem Wort, ohne Leerzeichen
err-join-token = Spieler „{ $player }“: das Token muss ein Wort aus 1-100 Zeichen sein, ohne Leerzeichen
err-player-exists = Spiel „{ $game }“ hat schon einen Spieler „{ $player }“
err-backup-io = Sicherung { $path }: { $error }
err-backup-not-a-file = Sicherung: { $path } ist kein Dateiname
err-backup-is-database = Sicherung: { $path } ist die Datenbank selbst; gib eine andere Datei an
err-no-resolved-turn = Spiel { $game } hat keinen ausgewerteten Zug { $turn }
err-no-player = Spiel { $game } hat keinen Spieler „{ $player }“
err-no-map = der Bericht von Zug { $turn } für { $player } in Spiel { $game } hat keine Karte
err-map-not-drawn = die Karte konnte nicht gezeichnet werden: { $error }
err-archive = Archiv von { $id }: { $error }
err-archive-write = Schreiben des Archivs { $path }: { $error }
err-check-needs-game = das Regelwerk { $ruleset } braucht eine Spiel-TOML (--game), um Befehle zu prüfen
err-check-no-players = das Spiel hat keine Spieler
err-check-no-player = kein Spieler „{ $player }“ in diesem Spiel
err-report-not-json = kein arbitre-JSON-Bericht: { $error }
err-report-schema = kein arbitre-JSON-Bericht (Schema „{ $schema }“)
err-report-no-view = dieser Bericht (Schema-Version { $version }) enthält keine Sicht auf das Spiel: eine Prüfung dagegen braucht einen Bericht der Version 2 eines Regelwerks mit Sichten
err-report-no-player = das ist kein Spielerbericht: er nennt keinen Spieler
demo-no-ruleset = kein Regelwerk ist einkompiliert
demo-created = Spiel { $id } ({ $ruleset }) mit { $players } Spielern angelegt
demo-turn = Zug { $turn }: { $mails } Befehlsnachricht(en) beantwortet, Berichte gesendet
demo-not-a-file-outbox = (kein Datei-Ausgang)
demo-database = Datenbank: { $database }
demo-outbox = jede gesendete Nachricht (Bestätigungen, Berichte) ist eine .eml-Datei in { $dir }
demo-print-report = einen Bericht anzeigen: cargo run --release -- report { $id } <Spieler> [--turn N]
## Anmeldung per Mail (issue 17 item 3; Branch signup: signup.rs, services/requests.rs, cli.rs)
signup-subject = arbitre: Anmeldung zu { $game }
signup-closed = Spiel { $game } nimmt keine Anmeldung per Mail an. Frag seine Spielleitung.
signup-full = Spiel { $game } ist voll: es hat seine { $max } Spieler.
signup-already-player = Die Adresse { $address } spielt schon in Spiel { $game }.
signup-already-pending = Deine Anmeldung zu Spiel { $game } liegt schon bei seiner Spielleitung. Du bekommst eine Antwort per Mail; nichts weiter wurde gesendet.
signup-refused-before = Die Spielleitung von Spiel { $game } hat Deine Anmeldung abgelehnt.
signup-no-newcomer = Spiel { $game } hat schon begonnen, und { $ruleset } nimmt jetzt keinen neuen Spieler auf: { $reason }
signup-too-many-pending = Zu viele Anmeldungen zu Spiel { $game } warten auf seine Spielleitung. Versuch es in ein paar Tagen noch einmal.
signup-pending = Deine Anmeldung zu Spiel { $game } als { $name } ist an seine Spielleitung weitergeleitet. Du bekommst eine Antwort per Mail: die Willkommensnachricht mit Deinem Passwort oder die Ablehnung der Spielleitung.
signup-joined = Willkommen in Spiel { $game }: Du spielst die Position { $player }. Deine Willkommensnachricht (mit Deinem Passwort und der Befehlsvorlage) und Deine erste Auswertung folgen in eigenen Nachrichten.
signup-gm-subject = arbitre: { $game }: { $address } möchte mitspielen
signup-gm-notice = { $address } möchte Spiel { $game } als { $name } beitreten. Wartende Anmeldungen: { $pending }.

    Zum Annehmen schick dem Spielleiter ({ $referee }) einen Block der Spielleitung:

    {"    "}SPIEL { $game } SPIELER gm PASSWORT <Passwort der Spielleitung>
    {"    "}ANNEHMEN { $address }
    {"    "}ENDE

    Zum Ablehnen schreib stattdessen ABLEHNEN { $address } [Grund]. Auf dem Rechner des Spielleiters: arbitre signup accept { $game } { $address } (oder refuse, mit --reason).
signup-accepted = { $address } ist Spiel { $game } als { $player } beigetreten; die Willkommensnachricht ist unterwegs.
signup-refused = { $address } ist für Spiel { $game } abgelehnt und davon benachrichtigt.
signup-refusal-subject = arbitre: { $game }: Anmeldung abgelehnt
signup-refusal = Die Spielleitung von Spiel { $game } hat Deine Anmeldung abgelehnt.
signup-refusal-reason = Begründung der Spielleitung: { $reason }
signup-no-request = Spiel { $game } hat keine offene Anmeldung von { $address }.
list-signup-open = Anmeldung offen ({ $join } { $game } [Name])
cli-signup-row = { $address } ({ $name }), angemeldet am { $when }
cli-signup-none = Spiel { $game }: keine Anmeldung wartet
cli-signup-accepted = Spiel { $game }: { $address } als Spieler { $player } beigetreten
cli-signup-refused = Spiel { $game }: Anmeldung von { $address } abgelehnt
## Branch gmerr (issue 19 item 3; setup_text.rs): die Ablehnung einer
## Spieldatei, Stellung oder Karte durch die Regel, in der Sprache der Befehlszeile
setup-item-star = Stern
setup-item-ship = Schiff
setup-item-ruler = Herrscher
setup-item-world = Welt
setup-item-fleet = Flotte
setup-item-zone = Zone
setup-item-unit = Einheit
setup-item-unit-type = Einheitentyp
setup-item-nation = Nation
setup-item-symbol = Rohstoffsymbol
setup-item-field = Forschungsgebiet
setup-item-territory = Territorium
setup-item-chain = Kette
setup-item-status = Status
setup-item-player = Spieler
setup-unknown-map = unbekannte Karte oder unbekanntes Szenario „{ $name }“ (eingebaut: { $valid })
setup-unknown-key = unbekannter Schlüssel „{ $key }“ in { $table } (gültige Schlüssel: { $valid })
setup-unknown-key-none = unbekannter Schlüssel „{ $key }“ in { $table } (diese Tabelle hat keine Schlüssel)
setup-range-exact = { $min }
setup-range-between = { $min } bis { $max }
setup-range-at-least = { $min } oder mehr
setup-player-count = falsche Spielerzahl: { $got } (dieser Aufbau nimmt { $range })
setup-player-count-nations = falsche Spielerzahl: { $got } (dieser Aufbau nimmt { $range } (Nationen: { $known }))
setup-position = unlesbare Stellung (TOML): { $message }
setup-rules = [rules]: { $message }
setup-expected-bool = true oder false
setup-expected-name = ein Name in Anführungszeichen
setup-expected-table = eine Tabelle
setup-expected-integer = eine ganze Zahl
setup-expected-duration = eine Dauer wie "1d", "12h" oder "30m"
setup-expected-at-least = mindestens { $n }
setup-expected-between = zwischen { $a } und { $b }
setup-bad-value = { $key } = { $value }: erwartet { $expected }
setup-exclusive = gib { $a } oder { $b } an, nicht beide
setup-duplicate = { $item } { $id } kommt zweimal vor
setup-off-map = { $item } { $id }: Position ({ $x },{ $y }) außerhalb der Karte ({ $min }..{ $max_x }, { $min }..{ $max_y })
setup-same-place = { $item } { $id }: Position ({ $x },{ $y }) doppelt belegt
setup-too-close = { $item } { $id }: zu dicht an { $other }
setup-over-fuel = { $item } { $id }: Treibstoff { $amount } über dem Tank { $capacity }
setup-over-cargo = { $item } { $id }: Ladung { $amount } über dem Laderaum { $capacity }
setup-unknown-owner = { $item } { $id }: Besitzer ({ $target } { $name }) gibt es nicht
setup-unknown-home = { $item } { $id }: Heimat ({ $target } { $name }) gibt es nicht
setup-unknown-link = { $item } { $id }: Verbindung zu { $target } { $name }, das es nicht gibt
setup-unknown-place = { $item } { $id }: steht auf { $target } { $name }, das es nicht gibt
setup-unknown-ref = { $item } { $id }: { $target } { $name } gibt es nicht
setup-unknown = unbekannt ({ $item }): „{ $name }“
setup-missing = { $item } { $id } fehlt
setup-none-of = kein Eintrag vom Typ { $item }
setup-numbering = { $item }: die Nummern müssen 1 bis { $count } sein, jede einmal
setup-no-home = Spieler { $player } hat keine Heimat
setup-too-few-starts = { $needed } Spieler, aber nur { $available } Startplätze
setup-one-way-link = { $item } { $id }: die Verbindung zu { $to } führt nicht zurück
setup-breaks = { $item } { $id }: { $rule }
setup-rule-black-hole = ein Schwarzes Loch enthält nichts
setup-rule-fleet-in-black-hole = eine Flotte darf nicht in einem Schwarzen Loch stehen
setup-rule-owner-without-population = eine besessene Welt braucht Bevölkerung
setup-rule-population-over-limit = Bevölkerung mehr als 10 über ihrer Grenze
setup-rule-linked-to-itself = mit sich selbst verbunden
setup-rule-no-links = hat keine Verbindung
setup-rule-cannot-be-owned = kann keinen Besitzer haben
setup-rule-mountain = ein Gebirge trägt keine Truppen
setup-rule-home-not-land = kein Land: kann keine Heimat und kein Start sein
setup-rule-land-without-area = ein Landterritorium braucht eine Fläche
setup-rule-reserved-code = reservierter Code oder nicht in Großbuchstaben
setup-rule-bad-id = keine gültige Kennung
setup-rule-bad-name = der Name enthält ein Zeichen der Befehlssyntax
setup-rule-bad-path = kein Weg der Karte
setup-rule-needs-number = eine Stellung gibt Nummern, keine Namen
setup-rule-yield = Ertragsraten über 340/49/49
setup-rule-home-of-two = Heimat oder Start zweier Spieler
setup-rule-ally-and-enemy = zugleich Feind und Verbündeter
setup-name-mismatch = Spieler { $player }: die Stellung nennt ihn „{ $position }“, die Spieldatei „{ $game }“; lass `name` in der Stellung weg oder gleiche beide an
setup-nation-not-text = Spieler { $player }: nation muss ein Nationskürzel oder -name in Anführungszeichen sein (Nationen des Szenarios: { $known })
setup-nation-not-in-scenario = Spieler { $player }: die Nation „{ $word }“ ist nicht im Szenario (Nationen des Szenarios: { $known })
setup-nation-named-twice = die Nation { $nation } wird von zwei Spielern genannt, { $other } und { $player } (Nationen des Szenarios: { $known })
setup-nation-taken = Spieler { $player }: Kennung oder Name passt zur Nation { $nation }, die { $other } spielt; gib nation = "..." unter [players.rules] an (Nationen des Szenarios: { $known })
setup-nation-none = Spieler { $player } nennt keine Nation: füge nation = "<code>" unter [players.rules] hinzu (Nationen des Szenarios: { $known })
## Zweig web (Issue 24): die Webseiten und `arbitre web`
cli-web-listening = Webseiten unter http://{ $listen }/ (Strg-C beendet)
web-status-running = läuft
web-status-paused = pausiert
web-status-over = beendet
web-no-deadline = kein Zugschluss
web-public-games = Öffentliche Spiele
web-no-public-game = Bei diesem Schiedsrichter ist kein Spiel öffentlich.
web-col-game = Spiel
web-col-ruleset = Regelwerk
web-col-turn = Zug
web-col-deadline = Zugschluss
web-login-hint = Spieler und Spielleiter:
web-your-zone = Zeiten in der Zeitzone
web-show = Anzeigen
web-archive = Archiv
web-turn = Zug { $turn }
web-orders-sent = Befehle für diesen Zug
web-blind = Dieses Spiel verrät nicht, wer Befehle geschickt hat.
web-orders-ready = Befehle da, bereit
web-orders-in = Befehle da
web-orders-none = noch keine Befehle
web-public-report = Öffentlicher Bericht
web-login = Anmelden
web-player = Spieler (Deine Kennung; gm für die Spielleitung)
web-password = Passwort
web-token = Marke (nur wenn Deine Spielleitung Dir eine gegeben hat)
web-login-gm-hint = Die Spielleitung meldet sich als Spieler gm mit dem Spielleiter-Passwort an.
web-form-expired = Dieses Formular ist abgelaufen oder kam nicht von einer Seite dieser Website. Melde Dich an und versuche es noch einmal.
web-login-refused = Unbekanntes Spiel oder unbekannter Spieler, oder falsches Passwort.
web-login-locked = Zu viele falsche Passwörter für diesen Platz in dieser Stunde. Versuche es später noch einmal oder schicke Deine Befehle per Mail.
web-logout = Abmelden
web-your-orders = Deine Befehle
web-template = Befehlsvorlage
web-your-report = Dein Bericht
web-send-orders = Befehle senden
web-check = Nur prüfen (PRÜFEN)
web-orders-hint = Gesendet wie eine Befehlsmail: dieselbe Prüfung, dieselbe Bestätigung, die Du auch per Mail bekommst. Es zählen die letzten Befehle vor dem Zugschluss.
web-repeated = Dieses Formular war schon angekommen: nichts Neues wurde gespeichert. Seine Antwort:
web-received = Angekommen.
web-not-stored = Nichts wurde gespeichert; die Antwort sagt, warum.
web-confirmation = Antwort (auch per Mail an Dich)
web-back = Zurück zu Deiner Seite
web-game-master = Spielleitung
web-public-page = öffentliche Seite
web-status = Stand
web-held = Zug { $turn } zur Durchsicht zurückgehalten
web-outbox = Mails
web-outbox-problems = { $failed } gescheitert, { $stale } seit über einer Stunde wartend, { $held } zurückgehalten
web-seats = Plätze
web-inactive = aus dem Spiel
web-missing = fehlt
web-commands = Befehle der Spielleitung
web-command-line = Ein Befehl, wie in einer Mail der Spielleitung:
web-do = Ausführen
web-command-hint = PAUSE, RESUME, EXTEND 2d, DEADLINE 2026-12-24 18:00, PREVIEW, PREVIEW ALWAYS, PREVIEW OFF, RELEASE, EJECT <Spieler>, TAKEOVER <Spieler> <Adresse> [Name]. Die Spieler werden wie per Mail benachrichtigt.
web-no-command = Keine Befehle in dieser Zeile.

# merge of web and pipe2: the demo's pointer to the web face
demo-web = im Browser ansehen: cargo run --release -- web, dann http://127.0.0.1:8080/games/{ $id }
    (Spieler melden sich mit ihrer Kennung und dem Passwort aus der Spieldatei an; die Spielleitung als gm, Passwort { $password })
# services branch (issue 16 item 1, issue 17 item 9): answers that say what happened
status-not-ready = Befehle gültig, aber ohne READY (der Zug wartet bis zum Abgabetermin auf sie): { $players }
not-resolved-yet = Zug { $turn } ist noch nicht ausgewertet: hier ist die Auswertung des letzten ausgewerteten Zuges, { $last }.
no-orders-received = HINWEIS: Für Zug { $turn } sind keine Befehle von Dir eingegangen.

# web2 (issue 24 leftovers): free seats and sign-up on the list, the body limit
web-col-free-seats = Freie Plätze
web-col-signup = Anmeldung
web-seats-no-limit = unbegrenzt
web-signup-open = offen, schreibe
web-signup-name = dein Name
web-signup-full = voll
web-too-large = Dieses Formular ist größer, als die Spielleitung annimmt ({ $max } Bytes, wie bei einer Mail). Nichts wurde gespeichert: kürze es und schicke es noch einmal.
web-settings = Weitere Befehle
web-timezone = Deine Zeitzone (ZEITZONE)
web-timezone-set = Setzen
web-absence = Abwesend vom … bis … (ABWESENHEIT)
web-absence-declare = Melden
web-press = Pressemeldung an (PRESSE)
web-press-all = alle
web-press-anonymous = anonym
web-press-send = Senden
web-settings-hint = Jedes Formular tut, was derselbe Befehl in einer Mail tut, mit derselben Antwort, die dir auch gemailt wird.
# cfgtext branch (issue 19 item 3): the daemon's own game-file errors and warnings, in the command line's language
cfg-at = { $place }: { $error }
cfg-read = { $path } kann nicht gelesen werden: { $error }
cfg-unknown-field = unbekannter Schlüssel `{ $key }`, erwartet wird einer von: { $valid }
cfg-unknown-field-none = unbekannter Schlüssel `{ $key }`: diese Tabelle hat keine Schlüssel
cfg-missing-field = fehlender Schlüssel `{ $key }`
cfg-duplicate-key = Schlüssel `{ $key }` doppelt angegeben
cfg-wrong-type = falscher Typ: { $found }, erwartet wird { $expected }
cfg-type-text = Text
cfg-type-text-value = der Text "{ $value }"
cfg-type-integer = eine ganze Zahl
cfg-type-integer-value = die ganze Zahl { $value }
cfg-type-float = eine Dezimalzahl
cfg-type-bool = true oder false
cfg-type-list = eine Liste
cfg-type-table = eine Tabelle
cfg-type-datetime = ein Datum mit Uhrzeit
cfg-syntax-string = ungültige Zeichenkette: das schließende Anführungszeichen fehlt, oder eine Escape-Folge ist falsch
cfg-syntax-key = ungültiger Schlüssel
cfg-syntax-table-header = ungültiger Tabellenkopf
cfg-syntax-array = ungültige Liste
cfg-syntax-inline-table = ungültige Inline-Tabelle
cfg-syntax-number = ungültige Zahl
cfg-syntax-datetime = ungültiges Datum oder ungültige Uhrzeit
cfg-syntax-line = eine Zeile muss Schlüssel = Wert oder ein Tabellenkopf sein
cfg-toml-other = TOML (Meldung des Parsers): { $detail }
cfg-bad-id = die Partie-Kennung „{ $game }“ muss aus 1 bis 40 Buchstaben, Ziffern, „-“, „_“ oder „.“ bestehen
cfg-bad-player-id = die Spieler-Kennung „{ $player }“ muss aus 1 bis 40 Buchstaben, Ziffern, „-“, „_“ oder „.“ bestehen
cfg-duplicate-player = Spieler „{ $player }“ steht zweimal in der Datei
cfg-no-password = Spieler „{ $player }“ hat kein Passwort (password oder password_hash angeben)
cfg-both-passwords = Spieler „{ $player }“: password oder password_hash angeben, nicht beides
cfg-password-hash-not-phc = Spieler „{ $player }“: password_hash ist keine PHC-Zeichenkette, wie arbitre password hash sie ausgibt
cfg-password-hash-algorithm = Spieler „{ $player }“: password_hash verwendet nicht argon2id
cfg-password-hash-no-salt = Spieler „{ $player }“: password_hash hat kein Salz oder keinen Hashwert
cfg-password-hash-parameters = Spieler „{ $player }“: password_hash hat falsche argon2-Parameter
cfg-bad-email = Spieler „{ $player }“: „{ $email }“ ist keine E-Mail-Adresse
cfg-bad-token = Spieler „{ $player }“: das Token muss ein Wort aus 1 bis 100 Zeichen sein, ohne Leerzeichen
cfg-bad-language = unbekannte Sprache „{ $language }“ (fr, de, en)
cfg-schedule = Zeitplan: { $error }
cfg-signup-needs-gm = Anmeldung: approve = "gm" verlangt gm_email, die Adresse, an die die Anfragen gehen
cfg-signup-no-seat = Anmeldung: max_players muss mindestens 1 sein
cfg-file = Option { $key }: die Datei { $path } kann nicht gelesen werden: { $error }
cfg-io-not-found = Datei nicht gefunden
cfg-io-denied = Zugriff verweigert
cfg-io-directory = das ist ein Ordner
cfg-io-not-utf8 = kein UTF-8-Text
cfg-unknown-ruleset = unbekanntes Regelwerk „{ $ruleset }“; bekannte Regelwerke: { $known }
cfg-warning = Warnung: { $warning }
cfg-warn-shared-address = die Spieler „{ $first }“ und „{ $second }“ teilen sich die Adresse { $email }: beide erhalten jeden Bericht, und ihre Mails brauchen eine PLAYER-Zeile
cfg-warn-start-past = der Beginn { $start } liegt in der Vergangenheit: die erste Frist zählt stattdessen ab der Erstellung
cfg-warn-fixed-zone = die Zeitzone „{ $zone }“ ist ein fester Versatz, das halbe Jahr falsch (für TIMEZONE wird sie Spielern verweigert): einen IANA-Namen wie Europe/Paris verwenden
sched-bad-duration = ungültige Dauer „{ $value }“ (Beispiele: 7d, 48h, 1d12h, 90m)
sched-bad-weekday = unbekannter Wochentag „{ $value }“ (mon, tue, wed, thu, fri, sat, sun)
sched-bad-time = ungültige Uhrzeit „{ $value }“ (erwartet HH:MM)
sched-bad-zone = unbekannte Zeitzone „{ $value }“ (erwartet wird ein IANA-Name wie Europe/Paris)
sched-bad-start = ungültiger Beginn „{ $value }“ (erwartet RFC 3339, z. B. 2026-12-01T20:00:00+01:00)
sched-both = entweder interval (mit optionalem time) oder weekday + time angeben, nicht beides
sched-half = weekday verlangt time, und time verlangt weekday oder interval
sched-time-needs-days = das Intervall „{ $value }“ mit Uhrzeit muss ganze Tage zählen (z. B. 7d mit time = "20:00")
join-no-rule = { $ruleset } erlaubt keinen Einstieg in ein laufendes Spiel
join-not-allowed = dieses Spiel nimmt nach dem Beginn keine neuen Spieler mehr auf
join-no-room = für einen Neuling ist kein neutrales, leeres Gebiet mehr frei
join-name-taken = der Spieler { $player } ist schon im Spiel
join-over = das Spiel ist vorbei
join-full = das Spiel ist voll
## edsdate (issue 17 item 3): HELP names the sign-up by mail
help-join = Um Dich für ein Spiel mit offener Anmeldung per Mail anzumelden (LISTE sagt, welche), ohne Kopfzeile: { $join } <Spiel> [Name]

# The store's refusals at the command line (setup_text.rs store_text).
store-unknown-game = unbekanntes Spiel „{ $game }“
store-game-exists = das Spiel „{ $game }“ gibt es schon (Spielkennungen sind ohne Rücksicht auf Groß- und Kleinschreibung eindeutig)
store-player-exists = das Spiel „{ $game }“ hat schon einen Spieler „{ $player }“ (Spielerkennungen sind ohne Rücksicht auf Groß- und Kleinschreibung eindeutig)
store-locked = ein anderer arbitre-Dienst bedient diese Datenbank schon (Sperre { $lock })
store-too-new = die Datenbank hat die Schemaversion { $found }, neuer als dieses arbitre ({ $known }); bitte arbitre aktualisieren

## Die Ablehnungen der Kommandozeile: Datum, Uhrzeit oder Dauer (timespec.rs
## TimeSpecError), beendetes oder gestörtes Spiel, Argumente von `check`
## (Issue 16 Punkt 3), in der --lang des Befehls.
time-bad-duration = unlesbare Dauer „{ $text }“ (Beispiele: 7d, 48h, 1d12h, 90m)
time-bad-date = unlesbares Datum „{ $text }“ (erwartet: JJJJ-MM-TT)
time-bad-time = unlesbare Uhrzeit „{ $text }“ (erwartet: HH:MM)
time-bad-deadline = unlesbarer Abgabetermin „{ $text }“ (erwartet: „JJJJ-MM-TT HH:MM“ in der Zeitzone des Spiels, oder RFC 3339)
time-bad-weekday = unbekannter Wochentag „{ $text }“ (mon, tue, wed, thu, fri, sat, sun)
cli-game-over = das Spiel „{ $game }“ ist beendet
cli-game-faulted = das Spiel „{ $game }“ ist gestört (siehe arbitre status); die Post wartet auf arbitre resume
cli-check-report-alone = mit --report nur die Befehlsdatei angeben
cli-check-two-args = Regelwerk und Befehlsdatei angeben
cli-case-not-under-cases = { $file }: nicht unter <Regelwerk>/cases/; das Regelwerk mit --ruleset angeben

# webfin (issue 24): error pages in the game's language, forms the game forbids
web-not-found = Diese Seite gibt es nicht.
web-forbidden = Diese Seite ist für die angemeldeten Spieler und die Spielleitung des Spiels. Melde Dich zuerst an.
web-bad-request = Der Schiedsrichter konnte diese Anfrage nicht lesen: Entweder kam die Anfrage nicht von einer seiner Seiten, oder ein Feld fehlt.
web-internal = Diese Seite konnte nicht erstellt werden; der Fehler steht im Protokoll von arbitre.
web-home = Alle öffentlichen Spiele
web-nothing-stored = Nichts wurde gespeichert.
web-fault-label = Störung
web-fault = angehalten ({ $during }, Zug { $turn }): { $message }
web-game-over = Spiel { $game } ist beendet: es werden keine Befehle mehr angenommen.
web-deadline-label = Zugschluss:

## pipe5 (issue 16 item 3 rest): the daemon's typed errors on the command
## line (error_text.rs, cli.rs error_text): the engine's, a panic's, a
## mail's, arbitre.toml's, a held turn, the PNG map, no database, and what
## the command was doing (ctx-*), in the --lang of the command.
err-file-line-hidden = (eine Zeile der Datei, nicht gezeigt)
err-engine = Spiel „{ $game }“: { $error }
err-engine-bad-state = der gespeicherte Stand lässt sich nicht laden: { $detail }
err-engine-game-over = das Spiel ist beendet
err-engine-unknown-player = unbekannter Spieler „{ $player }“
err-engine-panicked = das Regelwerk ist bei { $during } abgestürzt: { $message }
err-wrong-turn = Spiel „{ $game }“: das Regelwerk hat Zug { $got } statt Zug { $expected } geliefert
err-panicked = Spiel „{ $game }“: das Regelwerk ist bei { $during } abgestürzt: { $message }
err-held = Zug { $turn } von { $game } ist zur Durchsicht zurückgehalten: gib ihn erst frei (release) oder setze ihn zurück (rollback)
err-mail = Post: { $error }
mail-err-io = Ein-/Ausgabefehler der Post: { $error }
mail-err-too-large = eine Mail von { $size } Bytes überschreitet die Grenze von { $limit } Bytes
mail-err-unparseable = unlesbare Mail: { $detail }
mail-err-format = die Mail kann nicht gesetzt werden: { $detail }
imap-err-connect = keine Verbindung zum IMAP-Server { $server }
imap-err-tls = TLS mit dem IMAP-Server gescheitert: { $detail }
imap-err-auth = IMAP-Anmeldung abgelehnt: { $detail }
imap-err-lost = IMAP-Verbindung verloren: { $detail }
imap-err-server = Fehler des IMAP-Servers: { $detail }
imap-err-too-large = eine Nachricht von { $size } Bytes überschreitet die Grenze von { $limit } Bytes
imap-err-gone = die Nachricht mit UID { $uid } gibt es nicht mehr
imap-err-renumbered = der Ordner wurde neu nummeriert (UIDVALIDITY { $listed } -> { $current }): neu auflisten
imap-err-config = falsche IMAP-Einstellung: { $detail }
conf-inbox-twice = gib entweder inbox = "Pfad" oder eine Tabelle [inbound] an, nicht beides
conf-referee = referee „{ $referee }“ ist keine E-Mail-Adresse
conf-language = unbekannte Sprache „{ $language }“
conf-retry-window = send_retry_window: { $error }
conf-retry-not-positive = send_retry_window muss positiv sein, nicht { $value }
conf-web-listen = [web] listen = { $value }: erwartet wird eine Adresse mit Port wie "127.0.0.1:8080"
map-svg-unreadable = die SVG-Karte ist unlesbar: { $detail }
map-svg-size = die SVG-Karte hat eine leere oder unmögliche Größe ({ $width }×{ $height })
map-png-encode = das PNG kann nicht kodiert werden: { $detail }
cli-no-database = keine Datenbank unter { $database } ({ $how }): führe diesen Befehl dort aus, wo die arbitre.toml des Dienstes liegt, oder gib --config DATEI an; `arbitre game create` legt eine neue an
cli-no-database-named-by = die Datenbank, die { $config } nennt
cli-no-database-default = hier ist keine ./arbitre.toml, also die vorgegebene ./var/arbitre.db
cli-readonly = die Datenbank { $file } (oder ihre Dateien -wal/-shm/.lock, oder { $dir }) ist für diesen Benutzer nicht beschreibbar. Führe jeden arbitre-Befehl als Benutzer des Dienstes aus, z. B. `sudo -u arbitre arbitre --config /etc/arbitre/arbitre.toml status`, und gib ihm die Dateien zurück: `chown -R arbitre:arbitre { $dir }` (siehe docs/operations.md)
cli-readonly-unknown = die Datenbank (oder ihre Dateien -wal/-shm/.lock, oder ihr Ordner) ist für diesen Benutzer nicht beschreibbar. Führe jeden arbitre-Befehl als Benutzer des Dienstes aus, z. B. `sudo -u arbitre arbitre --config /etc/arbitre/arbitre.toml status`, und gib ihm die Dateien mit `chown -R arbitre:arbitre` zurück (siehe docs/operations.md)
cli-password-prompt = Passwort (eine Zeile):
cli-no-password = kein Passwort: gib es in der ersten Zeile von { $source } an
cli-standard-input = der Standardeingabe
ctx-reading = beim Lesen von { $path }
ctx-writing = beim Schreiben von { $path }
ctx-opening-inbox = beim Öffnen des Posteingangs
ctx-opening-database = beim Öffnen der Datenbank { $db }
ctx-signal-handler = beim Einrichten der SIGTERM/SIGINT-Behandlung
ctx-web-thread = beim Starten des Webserver-Threads
ctx-serving-web = beim Ausliefern der Webseiten auf { $listen }
err-chain = { $outer }: { $inner }
