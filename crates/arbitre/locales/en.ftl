## Order confirmations, refusals, reminders and notices (messages.rs, Msg)

confirm-subject = [{ $game }] orders received for turn { $turn }
confirm-header = Orders received for game { $game }, turn { $turn }, player { $player }.
check-subject = [{ $game }] order check
check-header = Order check (CHECK) for game { $game }, turn { $turn }, player { $player }.
    Nothing has been stored: send the same block with GAME to play it.
refused-subject = [{ $game }] orders refused: the open turn is { $turn }
refused-header = Block refused whole for game { $game }, player { $player }: it is not for the open turn, turn { $turn }.
    Nothing has been stored; the orders already received for turn { $turn } stay in force.
ok = OK
error = ERROR
warning = WARNING
summary = { $orders } order(s) accepted, { $errors } error(s), { $warnings } warning(s).
replaces = These orders replace any orders you sent earlier for this turn.
not-ready = You are not marked ready: the turn will wait for the deadline.
deadline = Deadline: { $when }
no-order-lines = No order lines: you will do nothing this turn.
error-subject = arbitre: your mail was not accepted
no-block = No order block found in your mail. Orders start with the line

    {"    "}GAME <game> PLAYER <player> PASSWORD <password>

    followed by one order per line and END. Nothing was stored.
malformed = The order block header (line { $line }) is malformed: { $reason }. Nothing was stored.
too-large = Your mail ({ $size } KiB) is larger than this referee accepts ({ $limit } KiB) and was not read. Send your orders as plain text. Nothing was stored.
unknown-game = There is no game '{ $game }' on this referee. Nothing was stored.
unknown-player = Game { $game } has no player '{ $player }'. Nothing was stored.
wrong-password = Wrong password for player { $player } in game { $game }. Nothing was stored.
game-over = Game { $game } is over: no more orders are accepted. Nothing was stored.
too-many-from-you = You have sent more than { $limit } mails to this referee within an hour. Your last mail was not read and nothing was stored; further mails within the hour will not be read or answered either. Please wait a little, then send your orders again once.
too-many-for-game = Game { $game } has received more than { $limit } mails within an hour. Your last mail was not read and nothing was stored; further mails within the hour will not be answered. Please wait a little, then send your orders again once.
too-many-lines = Your order block has { $lines } lines; this referee accepts at most { $limit } in one mail. It was not read and nothing was stored. Send only your orders.
ok-lines-not-echoed = ({ $ok } lines accepted without remark are not repeated here; every line with an error or a warning is listed.)
seat-guessed-subject = [{ $game }] wrong passwords for a seat
seat-guessed = Game { $game }: more than { $limit } mails within an hour named player { $player } with a wrong password. Further ones are not answered this hour (the right password is still accepted). If it goes on, consider a new password for this seat (arbitre player replace / password reset).
reminder-subject = [{ $game }] reminder: orders for turn { $turn }
reminder = Reminder: the referee has no orders from { $player } for turn { $turn } of game { $game }.
    Deadline: { $when }
    Without orders, your position does nothing this turn.
report-subject = [{ $game }] { $subject }
game-ended = The game is over. { $summary }
paused-subject = [{ $game }] game paused
paused = The game master has paused game { $game }. Orders are still accepted; a new deadline will be announced.
resumed-subject = [{ $game }] game resumed
resumed = Game { $game } has resumed.
    Deadline: { $when }
extended-subject = [{ $game }] deadline extended
extended = The game master has extended the deadline of game { $game }.
    Deadline: { $when }
signature = --{" "}
    arbitre, play-by-email referee

## Service commands and game master commands by mail (services/texts.rs, SvcMsg)

resend-subject = [{ $game }] report of turn { $turn } (sent again)
no-such-turn = There is no report for turn { $turn }: the last resolved turn is { $last }.
history-subject = [{ $game }] history
history-line = Turn { $turn }  resolved { $when }
history-empty = No turn has been resolved yet.
status-subject = [{ $game }] status
status-turn = Turn in progress: { $turn }
status-deadline = Deadline: { $when }
status-no-deadline = No deadline is set.
status-paused = The game is paused.
status-sent = Orders received from: { $players }
status-missing = Waiting for: { $players }
timezone-set = Your deadlines are now shown in { $zone }. Next deadline: { $example }
press-subject = [{ $game }] press from { $from }
press-anonymous-from = an anonymous player
press-relayed = Your press was relayed to: { $to }
press-none = This game has no press: nothing was relayed.
press-no-anonymous = This game allows only signed press: nothing was relayed.
press-unknown-player = There is no player '{ $player }': nothing was relayed.
absence-set = Absence recorded from { $from } to { $to }. Deadlines falling in it are moved after it.
absence-not-allowed = This game does not allow absences.
absence-too-long = An absence may last at most { $max } day(s) in this game.
absence-too-many = You have already declared the { $max } absence(s) this game allows.
gm-only = { $command } is a game master's command: it needs the game master's password.
gm-wrong-password = Wrong game master password: nothing was done.
gm-done = { $command }: done.
ejected = Player { $player } has been removed from game { $game } by the game master.
rolled-back = Game { $game } has been rolled back to turn { $turn } by the game master; the following turn will be resolved again.
preview-subject = [{ $game }] preview of turn { $turn } (not sent to the players)
commands-subject = [{ $game }] your commands
bad-command = Line { $line }: { $text }
    {"  "}-> { $why }
dkim-verdict = DKIM signature: { $verdict }
observer-subject = [{ $game }] (observer) { $subject }
bot-played = NOTE: you sent no orders for { $missed } turn(s) in a row: as this game's rules say, the referee's bot played your position this turn. Send orders to play again yourself.
deadline-set-subject = [{ $game }] new deadline
deadline-set = The game master has set a new deadline for game { $game }.
    Deadline: { $when }
deadline-in-past = { $when } is not in the future: the deadline was not changed.
ejected-subject = [{ $game }] a seat is vacant
ejected-seat = Seat { $player } of game { $game } no longer plays: its orders are not accepted. Ask the game master if you want to take it over.
takeover-subject = [{ $game }] change of player
takeover-welcome = Welcome, { $name }: you now play seat { $player } of game { $game }, where its previous player left it.
    { $password_line }Deadline: { $when }
    The last report of your seat follows in a separate mail.
takeover-password = Your password: { $password }
taken-over = Seat { $player } of game { $game } is now played by { $name }.
rolled-back-subject = [{ $game }] turn undone
preview-intro = Turn { $turn } is resolved and held: its { $held } mail(s) to players and observers are not sent. Every player's report follows.
    Answer RELEASE to send them, or ROLLBACK { $previous } to undo the turn.
preview-player = ===== report for { $player } <{ $email }> =====
nothing-held = No turn is held: nothing to release.
released = RELEASE: the { $mails } held mail(s) of turn { $turn } are being sent. Next deadline: { $when }
late-orders = LATE: these orders arrived after the deadline ({ $deadline }) but within the grace period: they count for this turn.
no-such-seat = There is no seat '{ $player }' in this game.
already-ejected = Seat { $player } is already ejected.
rollback-range = Cannot roll back to turn { $turn }: the last resolved turn is { $last }; give an earlier turn.

## Why a command line was refused (services/command.rs, Reason)

reason-missing-argument = missing argument ({ $value })
reason-bad-number = '{ $value }' is not a turn number
reason-unknown-zone = unknown time zone '{ $value }' (expected Area/City, e.g. Europe/Paris)
reason-bad-date = '{ $value }' is not a date (YYYY-MM-DD, or YYYY-MM-DD HH:MM)
reason-bad-duration = '{ $value }' is not a duration (48h, 2d, 1d12h)
reason-bad-range = the end date is before the start date
reason-too-many-arguments = unexpected text: { $value }
reason-bad-email = '{ $value }' is not an e-mail address

## Absences (services/absence.rs, AbsenceMsg)

absence-over = ABSENCE: { $to } is already past: nothing was recorded.
absence-overlaps = ABSENCE: it overlaps your absence from { $from } to { $to }: nothing was recorded.
absence-your-deadline-moved = The deadline has moved to { $when }.
absence-status-line = Absences: { $list }
absence-moved-subject = [{ $game }] deadline of turn { $turn } moved
absence-moved = The deadline of turn { $turn } of game { $game } has moved to { $when }, because { $who } is away on the day it fell on.
absence-someone = a player

## Press (services/press.rs, PressMsg)

press-empty = PRESS: the message is empty (write it on the lines after the PRESS line): nothing was relayed.
press-to-self = PRESS: you cannot send press to yourself: nothing was relayed.
press-sender-out = PRESS: your seat is no longer in the game: nothing was relayed.
press-observers = It was also sent to the game's { $n } observer(s).
press-head = Press from { $from } to { $all ->
        [yes] all players
       *[no] you
    }, relayed by the referee of game { $game } (turn { $turn }):
press-foot-reply = To answer, send an order block with the line: PRESS TO { $id }
press-foot-anonymous = The sender is anonymous: only the game master can know who wrote it.

## Faults and mail trouble, to the game master (fault.rs, FaultMsg)

fault-subject = [{ $game }] game stopped: internal error of the ruleset
fault-faulted = The ruleset of game { $game } failed with an internal error ({ $during }, turn { $turn }):

    {"    "}{ $message }

    Game { $game } is stopped: its turn does not resolve and its players' mails wait in the inbox, unanswered. Nothing was lost and the other games go on.
    Once the ruleset is fixed and the new arbitre installed, run

    {"    "}arbitre resume { $game }

    to play the mails and the turn again. `arbitre status` shows the fault.
fault-mail-failed-subject = [{ $game }] a mail could not be delivered
fault-mail-failed = The mail "{ $subject }" to { $to } could not be delivered and is given up:

    {"    "}{ $reason }

    Correct the address (arbitre player replace) or the cause, then send it again with

    {"    "}arbitre outbox retry { $id }

    or drop it with `arbitre outbox drop { $id }`. `arbitre outbox list` shows every mail in trouble.
fault-sending-paused-subject = arbitre: sending was paused
fault-sending-paused = Since { $since }, arbitre could not send mail because of its mail set-up, not of any mail:

    {"    "}{ $reason }

    Sending was paused, no mail was given up, and arbitre kept trying. If you read this, sending works again and the mails waiting meanwhile have left.

## Tokens and DKIM (services/authenticity.rs, Refusal and FailReason)

refusal-token-missing = game { $game } requires the token of player { $player }, and this mail gives none. Add the line TOKEN <your token> right after the GAME line.
refusal-token-wrong = the token given for player { $player } in game { $game } is wrong.
refusal-unsigned = game { $game } requires a valid DKIM signature from your domain ({ $domain }), and this mail is not signed. Send your orders from your registered address through your provider's server.
refusal-not-players-domain = game { $game } requires a valid DKIM signature from your registered domain ({ $domain }); this mail is signed by { $signer }.
refusal-dkim-unavailable = game { $game } requires a valid DKIM signature, and the signature of this mail cannot be checked at the moment ({ $reason }). Please send the same mail again in a few minutes.
refusal-dkim-failed = game { $game } requires a valid DKIM signature from your domain ({ $domain }), and the signature of this mail is invalid: { $reason }.
refusal = Your mail was refused: { $why }
    Nothing was stored.
dkim-body-changed = the text was changed after signing
dkim-bad-signature = the signature does not match the mail's headers
dkim-expired = the signature has expired
dkim-no-key = { $domain } publishes no key for it
dkim-misaligned = signed by { $signer }, not by the sender's domain { $from }
dkim-unusable = unusable signature ({ $error })

## Notices appended to reports and answers (turn.rs, services/answer.rs, services/timezone.rs)

wrong-password-notice = WARNING: { $n } mail(s) this turn used your player name with a wrong password. Nothing was stored from them. If it was not you, tell your game master.
not-served = { $name }: this referee does not offer this service yet.
timezone-answer-set = TIMEZONE: your deadlines are now shown in { $zone }.
timezone-answer-game-zone = TIMEZONE: your deadlines are shown in the game's zone, { $zone }.

## The command line (cli.rs): it speaks one language, --lang or the locale, English by default

cli-game-created = game { $id } created; turn-0 reports queued
cli-game-deleted = game { $game } deleted; its { $rows } row(s), { $mails } mail(s) among them, archived in { $path }
cli-delete-needs-yes = game { $game } not deleted: give --yes to delete it without a question (no terminal to ask on)
cli-delete-confirm = Delete game { $game } for good (its rows are archived to a file first)? Type its id to confirm:
cli-delete-not-confirmed = game { $game } not deleted: the id typed does not match
cli-mails-sent = { $sent } mail(s) sent
cli-mails-sent-failed = { $sent } mail(s) sent, { $failed } failed (see arbitre status)
cli-daemon-sends = a daemon is running: it sends the queued mail
cli-cycle = { $mails } mail(s) handled, { $resolved } turn(s) resolved, { $reminders } reminder(s), { $sent } mail(s) sent, { $failures } send failure(s)
cli-inbox-not-read = inbox not read: { $error }
cli-turn-resolved = game { $game }: turn { $turn } resolved; reports queued
cli-map-where = say where to write the map: --png FILE and/or --svg FILE
cli-file-written = { $path }: { $name } ({ $bytes } bytes)
cli-password-reset = game { $game }: password of player { $player } reset
cli-password-one-word = a password is one word, without spaces
cli-player-joined = game { $game }: player { $id } joined
cli-player-ejected = game { $game }: player { $id } ejected
cli-password-not-on-command-line = a password is never taken on the command line, where `ps` shows it to every user: use --password-file FILE or --password-stdin (or neither, to have one generated)
cli-seat-replaced = game { $game }: seat { $player } now played by { $email }
cli-new-password = new password (also mailed to the new player): { $password }
cli-deadline-set = game { $game }: deadline set to { $when }
cli-preview-mode-bad = preview mode '{ $mode }': next, always or off
cli-preview-set = game { $game }: preview { $mode }
cli-released = game { $game }: turn { $turn } released, { $mails } mail(s)
cli-rolled-back = game { $game }: back to turn { $turn } (undone: { $undone })
cli-paused = game { $game } paused
cli-resumed-after-fault = game { $game } resumed after its fault at turn { $turn } ({ $during }); its mails and turn are tried again
cli-resumed = game { $game } resumed
cli-extended = game { $game }: deadline extended
cli-case-verdict = { $passed ->
        [yes] PASS
       *[no] FAIL
    } { $file } ({ $title })
cli-cases = { $cases } case(s), { $failed } failed
cli-no-fixture = no fixture (a folder with a game.toml) in { $dir }
cli-replayed = { $dir }: { $turns } turn(s), { $mails } mail(s) { $blessed ->
        [yes] blessed
       *[no] replayed, identical
    }
cli-bots-or-orders = give --bots or --orders DIR
cli-recorded = { $dir }: { $turns } turn(s), { $mails } mail(s) recorded
cli-mail-requeued = mail #{ $id } queued again
cli-failed-requeued = { $n } failed mail(s) queued again
cli-mail-dropped = mail #{ $id } dropped: it will not be sent
cli-backup-written = backup of { $database } written to { $path } ({ $bytes } bytes)

## A game master's command that cannot be done (gm.rs), in the game's language

gm-not-running = game { $game } is { $status }, not running
gm-not-paused = game { $game } is { $status }, not paused
gm-no-deadline-to-extend = game { $game } has no running deadline to extend

# PASSWORD NEW by mail and `arbitre player password` (issue 17 item 4).
password-changed = game { $game }: the password of { $player } is changed; use the new one from your next mail on.
password-no-player = game { $game } has no player { $player }
cli-password-changed = game { $game }: password of player { $player } changed
## Welcome, HELP, LIST and refusals that teach (issue 17; services/welcome.rs, help.rs, refusal.rs)

welcome-subject = [{ $game }] welcome to { $game } ({ $ruleset })
welcome-created = Welcome, { $name }! You play seat { $player } in game { $game } ({ $ruleset }), which starts now. This mail tells you all you need to play by mail.
welcome-joined = Welcome, { $name }! You have joined game { $game } ({ $ruleset }) in progress, as seat { $player }. This mail tells you all you need to play by mail.
welcome-takeover = Welcome, { $name }! You take over seat { $player } in game { $game } ({ $ruleset }). This mail tells you all you need to play by mail.
welcome-referee = Send every mail for the game to the referee: { $referee }
welcome-header = Your orders start with this header line, copied exactly:
welcome-password-generated = This is your password: keep it, no other mail gives it again.
welcome-password-gm = Replace { $placeholder } with the password your game master gave you.
welcome-how = How to play:
    - Orders: the header line, then one order per line, then END. Each mail replaces the orders you sent before for the same turn; the last one before the deadline counts.
    - Check without playing: write { $check } instead of GAME in the header line; nothing is stored and you get the verdict of every line.
    - On the lines right after the header, before your orders: RESEND (your last report again), STATUS (the turn, the deadline and who is ready), HELP (every command).
    - HELP also works alone in a mail, without a header or a password.
welcome-deadline = Deadline for the orders of turn { $turn }: { $when } (the attached { $file } puts it in your calendar).
welcome-deadline-ics = Deadline: { $when }
welcome-template = Your order template is attached ({ $file }): fill it in and send it under the header line.
welcome-guide = The player's guide of { $ruleset } is attached ({ $file }).
help-intro = How to play by mail with this referee.
help-header = Orders start with a header line, in any of the three languages:

    { $headers }

    then one order per line, then { $end }. Write { $check } instead of { $g } to have your orders checked without storing them.
help-commands = Commands, on the lines right after the header and before your orders:
    RESEND [turn]   your last report again (or that turn's)
    STATUS          the turn, the deadline and who is ready
    HISTORY         the turns played and when
    TIMEZONE <zone> deadlines in your own time zone (e.g. Europe/Paris)
    PRESS <player|ALL>  a message to other players (if the game allows it)
    ABSENCE <from> <to> you are away (if the game allows it)
    Without a header or a password: { $help } [game] (this text), LIST (the games open to the public).
help-game = Game { $game } ({ $ruleset }), turn { $turn } being played.
help-game-deadline = Deadline: { $when }
list-intro = Games open to the public:
list-empty = No game is open to the public on this referee.
list-game = - { $game } ({ $ruleset }), turn { $turn }, deadline { $when }, { $seats }
list-free-seats = { $free } free seat(s)
list-no-signup = no sign-up by mail
help-subject = arbitre: help
list-subject = arbitre: public games
near-miss = Your header line names game { $game }, but the referee cannot read it. The password keyword is { $keyword } (one word), after { $player_word } and the player's id. Write the line like this:

    {"    "}{ $line }

    with your password in place of the placeholder. Nothing was stored.
placeholder-password = Your header line for player { $player } in game { $game } still has the template's placeholder { $written } where your password goes. Write your password there (the one your game master gave you, or the one of your welcome mail). Nothing was stored, and this does not count as a wrong password.
did-you-mean = Did you mean { $id }?

## pipe2 (issue 16 item 3 rest): `arbitre status`, `outbox list`, the demo and the refusals of the operator's commands, in the CLI's language (gm.rs, gm/listing.rs, sender.rs, demo.rs, create.rs, join.rs, backup.rs, png_map.rs, offline.rs, daemon.rs)

cli-status-id-collision = WARNING: { $ids } differ only by case: mail naming either reaches only one; rename or remove one
cli-status-no-games = no games
cli-status-running = running
cli-status-paused = paused
cli-status-over = over
cli-status-held = { $status } (turn { $turn } held for preview)
cli-status-game = { $game } ({ $ruleset }), { $state }
cli-status-faulted = FAULTED since { $at }: the ruleset panicked during { $during } of turn { $turn }: { $message }
cli-status-faulted-wait = its mails wait in the inbox; after a fix: arbitre resume { $game }
cli-status-last-turn = last resolved turn: { $last }
cli-status-deadline = turn { $turn } deadline: { $when }
cli-status-no-deadline = no deadline
cli-status-outbox-problems = outbox problems: { $failed } failed, { $stale } pending after a failure or for over an hour, { $held } held
cli-status-seat-orders = orders ({ $lines } line(s), { $errors } error(s))
cli-status-seat-orders-not-ready = orders ({ $lines } line(s), { $errors } error(s), not ready)
cli-status-seat-ejected = ejected
cli-status-seat-inactive = inactive
cli-status-seat-no-orders = no orders
cli-status-missing = missing: { $players }
cli-status-outbox = outbox: { $pending } pending, { $n_failed } failed
cli-status-sending-paused = sending PAUSED since { $since }: { $reason } (the mail set-up fails, no mail is failed for it; next try { $next })
cli-status-retrying = RETRYING #{ $id } { $message_id } to { $to }: failing since { $since }, { $attempts } attempt(s), next { $next }: { $error }
cli-status-failed = FAILED #{ $id } { $message_id } to { $to }: { $error } (arbitre outbox retry { $id })
outbox-sending-paused = sending PAUSED since { $since }: { $reason }
outbox-none = no mail in trouble
outbox-row = #{ $id } { $status } { $kind } to { $to } "{ $subject }" (queued { $queued }
outbox-row-failing = failing since { $since }, { $attempts } attempt(s)
outbox-row-next = next try { $next }
err-inbox-is-imap = the inbox is IMAP: mail cannot be delivered locally
err-retry-not-failed = mail #{ $id } is { $status }: only a failed or pending mail can be retried
err-no-such-mail = no mail #{ $id } in the outbox (see arbitre outbox list)
err-nothing-to-drop = mail #{ $id } is sent or absent: nothing to drop
err-cannot-read = cannot read { $path }: { $error }
err-player-toml = player TOML: { $error }
err-join-password = player '{ $player }' needs a password of one word, without spaces
err-join-token = player '{ $player }': the token must be one word of 1-100 characters, without spaces
err-player-exists = game '{ $game }' already has a player '{ $player }'
err-backup-io = backup { $path }: { $error }
err-backup-not-a-file = backup: { $path } is not a file name
err-backup-is-database = backup: { $path } is the database itself; give another file
err-no-resolved-turn = game { $game } has no resolved turn { $turn }
err-no-player = game { $game } has no player '{ $player }'
err-no-map = the turn-{ $turn } report of { $player } in game { $game } has no map
err-map-not-drawn = the map could not be drawn: { $error }
err-archive = archive of { $id }: { $error }
err-archive-write = writing the archive { $path }: { $error }
err-check-needs-game = ruleset { $ruleset } needs a game TOML (--game) to check orders
err-check-no-players = the game has no players
err-check-no-player = no player '{ $player }' in this game
err-report-not-json = not an arbitre JSON report: { $error }
err-report-schema = not an arbitre JSON report (schema '{ $schema }')
err-report-no-view = this report (schema version { $version }) holds no view of the game: checking against it needs a version 2 report of a ruleset with views
err-report-no-player = this is not a player's report: it names no player
demo-no-ruleset = no ruleset is compiled in
demo-created = created game { $id } ({ $ruleset }) with { $players } players
demo-turn = turn { $turn }: { $mails } order mail(s) answered, reports sent
demo-not-a-file-outbox = (not a file outbox)
demo-database = database: { $database }
demo-outbox = every mail sent (confirmations, reports) is an .eml file in { $dir }
demo-print-report = print one report: cargo run --release -- report { $id } <player> [--turn N]
## Sign-up by mail (issue 17 item 3; branch signup: signup.rs, services/requests.rs, cli.rs)
signup-subject = arbitre: sign-up for { $game }
signup-closed = Game { $game } takes no sign-up by mail. Ask its game master.
signup-full = Game { $game } is full: it has its { $max } players.
signup-already-player = The address { $address } already plays in game { $game }.
signup-already-pending = Your request to join game { $game } is already with its game master. You will get an answer by mail; nothing more was sent.
signup-refused-before = The game master of game { $game } has refused your request to join it.
signup-no-newcomer = Game { $game } has already started, and { $ruleset } takes no new player now: { $reason }
signup-too-many-pending = Too many requests to join game { $game } are waiting for its game master. Try again in a few days.
signup-pending = Your request to join game { $game } as { $name } is sent to its game master. You will get an answer by mail: the welcome mail with your password, or the game master's refusal.
signup-joined = Welcome to game { $game }: you play the seat { $player }. Your welcome mail (with your password and the order template) and your first report follow in their own mails.
signup-gm-subject = arbitre: { $game }: { $address } asks to join
signup-gm-notice = { $address } asks to join game { $game } as { $name }. Requests waiting for you: { $pending }.

    To accept, mail the referee ({ $referee }) a game master's block:

    {"    "}GAME { $game } PLAYER gm PASSWORD <game master password>
    {"    "}ACCEPT { $address }
    {"    "}END

    To refuse, write REFUSE { $address } [reason] in its place. On the referee's machine: arbitre signup accept { $game } { $address } (or refuse, with --reason).
signup-accepted = { $address } joined game { $game } as { $player }; the welcome mail is on its way.
signup-refused = { $address } is refused for game { $game } and told so.
signup-refusal-subject = arbitre: { $game }: sign-up refused
signup-refusal = The game master of game { $game } has refused your request to join it.
signup-refusal-reason = Their reason: { $reason }
signup-no-request = Game { $game } has no open sign-up request from { $address }.
list-signup-open = sign-up open ({ $join } { $game } [name])
cli-signup-row = { $address } ({ $name }), asked { $when }
cli-signup-none = game { $game }: no sign-up request waiting
cli-signup-accepted = game { $game }: { $address } joined as player { $player }
cli-signup-refused = game { $game }: sign-up of { $address } refused
## Branch gmerr (issue 19 item 3; setup_text.rs): a ruleset's refusal of a
## game file, position or map, in the command line's language
setup-item-star = star
setup-item-ship = ship
setup-item-ruler = ruler
setup-item-world = world
setup-item-fleet = fleet
setup-item-zone = zone
setup-item-unit = unit
setup-item-unit-type = unit type
setup-item-nation = nation
setup-item-symbol = resource symbol
setup-item-field = research field
setup-item-territory = territory
setup-item-chain = chain
setup-item-status = status
setup-item-player = player
setup-unknown-map = unknown map or scenario '{ $name }' (built-in: { $valid })
setup-unknown-key = unknown key '{ $key }' in { $table } (valid keys: { $valid })
setup-unknown-key-none = unknown key '{ $key }' in { $table } (this table takes no key)
setup-range-exact = { $min }
setup-range-between = { $min } to { $max }
setup-range-at-least = { $min } or more
setup-player-count = wrong number of players: { $got } (this setup takes { $range })
setup-player-count-nations = wrong number of players: { $got } (this setup takes { $range } (nations: { $known }))
setup-position = bad position TOML: { $message }
setup-rules = [rules]: { $message }
setup-expected-bool = true or false
setup-expected-name = a quoted name
setup-expected-table = a table
setup-expected-integer = a whole number
setup-expected-duration = a duration such as "1d", "12h" or "30m"
setup-expected-at-least = at least { $n }
setup-expected-between = between { $a } and { $b }
setup-bad-value = { $key } = { $value }: expected { $expected }
setup-exclusive = give { $a } or { $b }, not both
setup-duplicate = { $item } { $id } appears twice
setup-off-map = { $item } { $id }: position ({ $x },{ $y }) outside the map ({ $min }..{ $max_x }, { $min }..{ $max_y })
setup-same-place = { $item } { $id }: position ({ $x },{ $y }) taken twice
setup-too-close = { $item } { $id }: too close to { $other }
setup-over-fuel = { $item } { $id }: fuel { $amount } above its tank { $capacity }
setup-over-cargo = { $item } { $id }: cargo { $amount } above its hold { $capacity }
setup-unknown-owner = { $item } { $id }: owner { $target } { $name } does not exist
setup-unknown-home = { $item } { $id }: home { $target } { $name } does not exist
setup-unknown-link = { $item } { $id }: link to { $target } { $name }, which does not exist
setup-unknown-place = { $item } { $id }: stands on { $target } { $name }, which does not exist
setup-unknown-ref = { $item } { $id }: { $target } { $name } does not exist
setup-unknown = unknown { $item } '{ $name }'
setup-missing = { $item } { $id } is missing
setup-none-of = no { $item } at all
setup-numbering = the { $item } numbers must be 1 to { $count }, each once
setup-no-home = player { $player } has no home
setup-too-few-starts = { $needed } players but only { $available } start places
setup-one-way-link = { $item } { $id }: its link to { $to } has no link back
setup-breaks = { $item } { $id }: { $rule }
setup-rule-black-hole = a black hole holds nothing
setup-rule-fleet-in-black-hole = a fleet may not stand in a black hole
setup-rule-owner-without-population = an owned world needs a population
setup-rule-population-over-limit = population more than 10 above its limit
setup-rule-linked-to-itself = linked to itself
setup-rule-no-links = has no link
setup-rule-cannot-be-owned = cannot have an owner
setup-rule-mountain = a mountain holds no troops
setup-rule-home-not-land = not land, so it cannot be a home or a start
setup-rule-land-without-area = a land territory needs an area
setup-rule-reserved-code = reserved or not an upper-case code
setup-rule-bad-id = not a valid id
setup-rule-bad-name = the name has a character the orders use
setup-rule-bad-path = not a path of the map
setup-rule-needs-number = a position gives numbers, not names
setup-rule-yield = yield rates above 340/49/49
setup-rule-home-of-two = the home or start of two players
setup-rule-ally-and-enemy = both an enemy and an ally
setup-name-mismatch = player { $player }: the position names them "{ $position }", the game file "{ $game }"; leave `name` out of the position or make the two agree
setup-nation-not-text = player { $player }: nation must be a quoted nation code or name (nations of the scenario: { $known })
setup-nation-not-in-scenario = player { $player }: nation "{ $word }" is not in the scenario (nations of the scenario: { $known })
setup-nation-named-twice = nation { $nation } is named by two players, { $other } and { $player } (nations of the scenario: { $known })
setup-nation-taken = player { $player }: its id or name matches nation { $nation }, which player { $other } plays; give it nation = "..." under [players.rules] (nations of the scenario: { $known })
setup-nation-none = player { $player } names no nation: add nation = "<code>" under [players.rules] (nations of the scenario: { $known })
## branch web (issue 24): the web pages and `arbitre web`
cli-web-listening = web pages at http://{ $listen }/ (Ctrl-C to stop)
web-status-running = running
web-status-paused = paused
web-status-over = over
web-no-deadline = no deadline
web-public-games = Public games
web-no-public-game = No game is public on this referee.
web-col-game = Game
web-col-ruleset = Ruleset
web-col-turn = Turn
web-col-deadline = Deadline
web-login-hint = Players and game masters:
web-your-zone = Times shown in the zone
web-show = Show
web-archive = Archive
web-turn = Turn { $turn }
web-orders-sent = Orders for this turn
web-blind = This game does not tell who has sent orders.
web-orders-ready = orders in, ready
web-orders-in = orders in
web-orders-none = no orders yet
web-public-report = Public report
web-login = Log in
web-player = Player (your id; gm for the game master)
web-password = Password
web-token = Token (only if your game master gave you one)
web-login-gm-hint = The game master logs in as player gm with the game master's password.
web-form-expired = This form has expired or was not sent from this site's page. Log in and try again.
web-login-refused = Unknown game or player, or wrong password.
web-login-locked = Too many wrong passwords for this seat this hour. Try again later, or send your orders by mail.
web-logout = Log out
web-your-orders = Your orders
web-template = Order template
web-your-report = Your report
web-send-orders = Send orders
web-check = CHECK only
web-orders-hint = Sent as an order mail would be: the same check and the same confirmation, also mailed to you. The latest orders you send before the deadline count.
web-repeated = This form had already been received: nothing new was stored. Its answer:
web-received = Received.
web-not-stored = Nothing was stored; the answer says why.
web-confirmation = Answer (also mailed to you)
web-back = Back to your page
web-game-master = game master
web-public-page = public page
web-status = Status
web-held = turn { $turn } held for preview
web-outbox = Mails
web-outbox-problems = { $failed } failed, { $stale } waiting for over an hour, { $held } held
web-seats = Seats
web-inactive = out of the game
web-missing = missing
web-commands = Commands
web-command-line = A command, as in a game master's mail:
web-do = Do it
web-command-hint = PAUSE, RESUME, EXTEND 2d, DEADLINE 2026-12-24 18:00, PREVIEW, PREVIEW ALWAYS, PREVIEW OFF, RELEASE, EJECT <player>, TAKEOVER <player> <address> [name]. The players are told as by mail.
web-no-command = No command on this line.

# merge of web and pipe2: the demo's pointer to the web face
demo-web = see it in a browser: cargo run --release -- web, then http://127.0.0.1:8080/games/{ $id }
    (players log in with their id and password from the game file; the game master as gm, password { $password })
# services branch (issue 16 item 1, issue 17 item 9): answers that say what happened
status-not-ready = Orders in force but not declared READY (the turn waits for them until the deadline): { $players }
not-resolved-yet = Turn { $turn } has not been resolved yet: here is the report of the last resolved turn, { $last }.
no-orders-received = NOTE: no orders from you were received for turn { $turn }.

# web2 (issue 24 leftovers): free seats and sign-up on the list, the body limit
web-col-free-seats = Free seats
web-col-signup = Sign-up
web-seats-no-limit = no limit
web-signup-open = open, mail
web-signup-name = your name
web-signup-full = full
web-too-large = This form is larger than the referee accepts ({ $max } bytes, as for a mail). Nothing was stored: shorten it and send it again.
web-settings = More commands
web-timezone = Your time zone (TIMEZONE)
web-timezone-set = Set
web-absence = Away from … to … (ABSENCE)
web-absence-declare = Declare
web-press = Press message to (PRESS)
web-press-all = everyone
web-press-anonymous = anonymous
web-press-send = Send
web-settings-hint = Each form does what the same command does in a mail, with the same answer, also mailed to you.
# cfgtext branch (issue 19 item 3): the daemon's own game-file errors and warnings, in the command line's language
cfg-at = { $place }: { $error }
cfg-read = cannot read { $path }: { $error }
cfg-unknown-field = unknown field `{ $key }`, expected one of { $valid }
cfg-unknown-field-none = unknown field `{ $key }`: this table takes no key
cfg-missing-field = missing field `{ $key }`
cfg-duplicate-key = duplicate key `{ $key }`
cfg-wrong-type = invalid type: { $found }, expected { $expected }
cfg-type-text = text
cfg-type-text-value = text "{ $value }"
cfg-type-integer = an integer
cfg-type-integer-value = the integer { $value }
cfg-type-float = a decimal number
cfg-type-bool = true or false
cfg-type-list = a list
cfg-type-table = a table
cfg-type-datetime = a date and time
cfg-syntax-string = invalid string: a closing quote is missing, or an escape sequence is wrong
cfg-syntax-key = invalid key
cfg-syntax-table-header = invalid table header
cfg-syntax-array = invalid list
cfg-syntax-inline-table = invalid inline table
cfg-syntax-number = invalid number
cfg-syntax-datetime = invalid date or time
cfg-syntax-line = a line must be key = value, or a table header
cfg-toml-other = TOML: { $detail }
cfg-bad-id = game id '{ $game }' must be 1-40 letters, digits, '-', '_' or '.'
cfg-bad-player-id = player id '{ $player }' must be 1-40 letters, digits, '-', '_' or '.'
cfg-duplicate-player = player '{ $player }' appears twice
cfg-no-password = player '{ $player }' has no password (give password or password_hash)
cfg-both-passwords = player '{ $player }': give password or password_hash, not both
cfg-password-hash-not-phc = player '{ $player }': password_hash is not a PHC string such as arbitre password hash prints
cfg-password-hash-algorithm = player '{ $player }': password_hash does not use argon2id
cfg-password-hash-no-salt = player '{ $player }': password_hash has no salt or no hash
cfg-password-hash-parameters = player '{ $player }': password_hash has bad argon2 parameters
cfg-bad-email = player '{ $player }': '{ $email }' is not an e-mail address
cfg-bad-token = player '{ $player }': the token must be one word of 1-100 characters, without spaces
cfg-bad-language = unknown language '{ $language }' (fr, de, en)
cfg-schedule = schedule: { $error }
cfg-signup-needs-gm = signup: approve = "gm" needs gm_email, the address the requests are sent to
cfg-signup-no-seat = signup: max_players must be at least 1
cfg-file = option { $key }: cannot read file { $path }: { $error }
cfg-io-not-found = no such file
cfg-io-denied = permission denied
cfg-io-directory = it is a folder
cfg-io-not-utf8 = not UTF-8 text
cfg-unknown-ruleset = unknown ruleset '{ $ruleset }'; known rulesets: { $known }
cfg-warning = warning: { $warning }
cfg-warn-shared-address = players '{ $first }' and '{ $second }' share the address { $email }: both get every report and their mails need a PLAYER line
cfg-warn-start-past = start { $start } is in the past: the first deadline is counted from the creation instead
cfg-warn-fixed-zone = time zone '{ $zone }' is a fixed offset, wrong half the year (players are refused it for TIMEZONE): use an IANA name such as Europe/Paris
sched-bad-duration = bad duration '{ $value }' (examples: 7d, 48h, 1d12h, 90m)
sched-bad-weekday = unknown weekday '{ $value }' (mon, tue, wed, thu, fri, sat, sun)
sched-bad-time = bad time '{ $value }' (expected HH:MM)
sched-bad-zone = unknown time zone '{ $value }' (expected an IANA name such as Europe/Paris)
sched-bad-start = bad start '{ $value }' (expected RFC 3339, e.g. 2026-12-01T20:00:00+01:00)
sched-both = give either interval (with an optional time) or weekday + time, not both
sched-half = weekday needs a time, and time needs a weekday or an interval
sched-time-needs-days = interval '{ $value }' with a time must be whole days (e.g. 7d with time = "20:00")
join-no-rule = { $ruleset } does not let players join a game in progress
join-not-allowed = this game does not take new players once it has started
join-no-room = no neutral and empty territory is left for a newcomer
join-name-taken = player { $player } is already in the game
join-over = the game is over
join-full = the game is full
## edsdate (issue 17 item 3): HELP names the sign-up by mail
help-join = To sign up for a game whose sign-up by mail is open (LIST says which), without a header: { $join } <game> [name]

# The store's refusals at the command line (setup_text.rs store_text).
store-unknown-game = unknown game '{ $game }'
store-game-exists = game '{ $game }' already exists (game ids are unique ignoring case)
store-player-exists = game '{ $game }' already has a player '{ $player }' (player ids are unique ignoring case)
store-locked = another arbitre daemon already serves this database (lock { $lock })
store-too-new = database schema version { $found } is newer than this arbitre ({ $known }); upgrade arbitre

## The command line's refusals of a date, a time or a duration (timespec.rs
## TimeSpecError), of a game over or faulted, and of `check`'s arguments
## (issue 16 item 3): worded here in the --lang of the command.
time-bad-duration = bad duration '{ $text }' (examples: 7d, 48h, 1d12h, 90m)
time-bad-date = bad date '{ $text }' (expected YYYY-MM-DD)
time-bad-time = bad time '{ $text }' (expected HH:MM)
time-bad-deadline = bad deadline '{ $text }' (expected "YYYY-MM-DD HH:MM" in the game's zone, or RFC 3339)
time-bad-weekday = unknown weekday '{ $text }' (mon, tue, wed, thu, fri, sat, sun)
cli-game-over = game '{ $game }' is over
cli-game-faulted = game '{ $game }' is faulted (see arbitre status); the mail waits for arbitre resume
cli-check-report-alone = with --report, give the orders file alone
cli-check-two-args = give the ruleset and the orders file
cli-case-not-under-cases = { $file }: not under <ruleset>/cases/; say which ruleset with --ruleset

# webfin (issue 24): error pages in the game's language, forms the game forbids
web-not-found = This page does not exist.
web-forbidden = This page is for the game's players and game master, logged in. Log in first.
web-bad-request = The referee could not read this request: it did not come from one of its pages, or a field is missing.
web-internal = The referee could not serve this page; the error is in its log.
web-home = All public games
web-nothing-stored = Nothing was stored.
web-fault-label = Fault
web-fault = stopped ({ $during }, turn { $turn }): { $message }
web-game-over = Game { $game } is over: no more orders are accepted.
web-deadline-label = Deadline:

## pipe5 (issue 16 item 3 rest): the daemon's typed errors on the command
## line (error_text.rs, cli.rs error_text): the engine's, a panic's, a
## mail's, arbitre.toml's, a held turn, the PNG map, no database, and what
## the command was doing (ctx-*), in the --lang of the command.
err-file-line-hidden = (a line of the file, not shown)
err-engine = game '{ $game }': { $error }
err-engine-bad-state = stored state does not load: { $detail }
err-engine-game-over = the game is over
err-engine-unknown-player = unknown player '{ $player }'
err-engine-panicked = the ruleset panicked during { $during }: { $message }
err-wrong-turn = game '{ $game }': ruleset returned turn { $got } for turn { $expected }
err-panicked = game '{ $game }': the ruleset panicked during { $during }: { $message }
err-held = turn { $turn } of { $game } is held for preview: release or roll it back first
err-mail = mail: { $error }
mail-err-io = mail I/O error: { $error }
mail-err-too-large = mail of { $size } bytes exceeds the limit of { $limit } bytes
mail-err-unparseable = unparseable mail: { $detail }
mail-err-format = cannot format mail: { $detail }
imap-err-connect = cannot connect to IMAP server { $server }
imap-err-tls = TLS with IMAP server failed: { $detail }
imap-err-auth = IMAP login refused: { $detail }
imap-err-lost = IMAP connection lost: { $detail }
imap-err-server = IMAP server error: { $detail }
imap-err-too-large = message of { $size } bytes exceeds the limit of { $limit } bytes
imap-err-gone = message UID { $uid } no longer exists
imap-err-renumbered = folder was renumbered (UIDVALIDITY { $listed } -> { $current }): list again
imap-err-config = bad IMAP configuration: { $detail }
conf-inbox-twice = give either inbox = "path" or an [inbound] table, not both
conf-referee = referee '{ $referee }' is not an e-mail address
conf-language = unknown language '{ $language }'
conf-retry-window = send_retry_window: { $error }
conf-retry-not-positive = send_retry_window must be positive, not { $value }
conf-web-listen = [web] listen = { $value }: expected an address and port such as "127.0.0.1:8080"
map-svg-unreadable = the SVG map cannot be read: { $detail }
map-svg-size = the SVG map has an empty or impossible size ({ $width }×{ $height })
map-png-encode = the PNG cannot be encoded: { $detail }
cli-no-database = no database at { $database } ({ $how }): run this command where the daemon's arbitre.toml is, or give --config FILE; `arbitre game create` makes a new one
cli-no-database-named-by = the database named by { $config }
cli-no-database-default = no ./arbitre.toml here, so the default ./var/arbitre.db
cli-readonly = database { $file } (or its -wal/-shm/.lock files, or { $dir }) is not writable by this user. Run every arbitre command as the daemon's user, e.g. `sudo -u arbitre arbitre --config /etc/arbitre/arbitre.toml status`, and give the files back to it: `chown -R arbitre:arbitre { $dir }` (see docs/operations.md)
cli-readonly-unknown = the database (or its -wal/-shm/.lock files, or its folder) is not writable by this user. Run every arbitre command as the daemon's user, e.g. `sudo -u arbitre arbitre --config /etc/arbitre/arbitre.toml status`, and give the files back to it with `chown -R arbitre:arbitre` (see docs/operations.md)
cli-password-prompt = password (one line):
cli-no-password = no password: give it on the first line of { $source }
cli-standard-input = standard input
ctx-reading = reading { $path }
ctx-writing = writing { $path }
ctx-opening-inbox = opening the inbox
ctx-opening-database = opening database { $db }
ctx-signal-handler = installing the SIGTERM/SIGINT handler
ctx-web-thread = starting the web server's thread
ctx-serving-web = serving the web pages on { $listen }
err-chain = { $outer }: { $inner }
