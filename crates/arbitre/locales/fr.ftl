## Order confirmations, refusals, reminders and notices (messages.rs, Msg)

confirm-subject = [{ $game }] ordres reçus pour le tour { $turn }
confirm-header = Ordres reçus pour la partie { $game }, tour { $turn }, joueur { $player }.
check-subject = [{ $game }] vérification des ordres
check-header = Vérification des ordres (CHECK) pour la partie { $game }, tour { $turn }, joueur { $player }.
    Rien n'a été enregistré : envoyez le même bloc avec PARTIE pour le jouer.
refused-subject = [{ $game }] ordres refusés : le tour ouvert est le { $turn }
refused-header = Bloc refusé en entier pour la partie { $game }, joueur { $player } : il ne porte pas sur le tour ouvert, le tour { $turn }.
    Rien n'a été enregistré ; les ordres déjà reçus pour le tour { $turn } restent en vigueur.
ok = OK
error = ERREUR
warning = ATTENTION
summary = { $orders } ordre(s) accepté(s), { $errors } erreur(s), { $warnings } avertissement(s).
replaces = Ces ordres remplacent ceux que vous avez pu envoyer plus tôt pour ce tour.
not-ready = Vous n'êtes pas déclaré prêt : le tour attendra la date limite.
deadline = Date limite : { $when }
no-order-lines = Aucune ligne d'ordre : vous ne ferez rien ce tour-ci.
error-subject = arbitre : votre courrier n'a pas été accepté
no-block = Aucun bloc d'ordres trouvé dans votre courrier. Les ordres commencent par la ligne

    {"    "}PARTIE <partie> JOUEUR <joueur> MOT-DE-PASSE <mot de passe>

    suivie d'un ordre par ligne et de FIN. Rien n'a été enregistré.
malformed = L'en-tête du bloc d'ordres (ligne { $line }) est mal formé : { $reason }. Rien n'a été enregistré.
too-large = Votre courrier ({ $size } Kio) dépasse la taille acceptée par cet arbitre ({ $limit } Kio) et n'a pas été lu. Envoyez vos ordres en texte simple. Rien n'a été enregistré.
unknown-game = Il n'y a pas de partie « { $game } » sur cet arbitre. Rien n'a été enregistré.
unknown-player = La partie { $game } n'a pas de joueur « { $player } ». Rien n'a été enregistré.
wrong-password = Mot de passe incorrect pour le joueur { $player } de la partie { $game }. Rien n'a été enregistré.
game-over = La partie { $game } est terminée : plus aucun ordre n'est accepté. Rien n'a été enregistré.
too-many-from-you = Vous avez envoyé plus de { $limit } courriers à cet arbitre en une heure. Votre dernier courrier n'a pas été lu et rien n'a été enregistré ; les courriers suivants de cette heure ne seront ni lus ni répondus. Merci de patienter un peu, puis de renvoyer vos ordres une seule fois.
too-many-for-game = La partie { $game } a reçu plus de { $limit } courriers en une heure. Votre dernier courrier n'a pas été lu et rien n'a été enregistré ; les courriers suivants de cette heure ne recevront pas de réponse. Merci de patienter un peu, puis de renvoyer vos ordres une seule fois.
too-many-lines = Votre bloc d'ordres compte { $lines } lignes ; cet arbitre en accepte au plus { $limit } par courrier. Il n'a pas été lu et rien n'a été enregistré. N'envoyez que vos ordres.
ok-lines-not-echoed = ({ $ok } lignes acceptées sans remarque ne sont pas répétées ici ; toutes les lignes avec une erreur ou un avertissement sont listées.)
seat-guessed-subject = [{ $game }] mauvais mots de passe pour un joueur
seat-guessed = Partie { $game } : plus de { $limit } courriers en une heure ont nommé le joueur { $player } avec un mauvais mot de passe. Les suivants ne reçoivent plus de réponse cette heure-ci (le bon mot de passe reste accepté). Si cela continue, envisagez un nouveau mot de passe pour ce joueur (arbitre player replace / password reset).
reminder-subject = [{ $game }] rappel : ordres du tour { $turn }
reminder = Rappel : l'arbitre n'a pas reçu d'ordres de { $player } pour le tour { $turn } de la partie { $game }.
    Date limite : { $when }
    Sans ordres, votre position ne fera rien ce tour-ci.
report-subject = [{ $game }] { $subject }
game-ended = La partie est terminée. { $summary }
paused-subject = [{ $game }] partie en pause
paused = Le meneur de jeu a mis la partie { $game } en pause. Les ordres restent acceptés ; une nouvelle date limite sera annoncée.
resumed-subject = [{ $game }] reprise de la partie
resumed = La partie { $game } reprend.
    Date limite : { $when }
extended-subject = [{ $game }] date limite repoussée
extended = Le meneur de jeu a repoussé la date limite de la partie { $game }.
    Date limite : { $when }
signature = --{" "}
    arbitre, arbitre de jeux par courrier électronique

## Service commands and game master commands by mail (services/texts.rs, SvcMsg)

resend-subject = [{ $game }] compte rendu du tour { $turn } (nouvel envoi)
no-such-turn = Il n'y a pas de compte rendu pour le tour { $turn } : le dernier tour résolu est le { $last }.
history-subject = [{ $game }] historique
history-line = Tour { $turn }  résolu le { $when }
history-empty = Aucun tour n'a encore été résolu.
status-subject = [{ $game }] état de la partie
status-turn = Tour en cours : { $turn }
status-deadline = Date limite : { $when }
status-no-deadline = Aucune date limite n'est fixée.
status-paused = La partie est en pause.
status-sent = Ordres reçus de : { $players }
status-missing = En attente de : { $players }
timezone-set = Vos dates limites sont désormais affichées dans le fuseau { $zone }. Prochaine date limite : { $example }
press-subject = [{ $game }] message de { $from }
press-anonymous-from = un joueur anonyme
press-relayed = Votre message a été transmis à : { $to }
press-none = Cette partie n'a pas de messagerie : rien n'a été transmis.
press-no-anonymous = Cette partie n'accepte que des messages signés : rien n'a été transmis.
press-unknown-player = Il n'y a pas de joueur « { $player } » : rien n'a été transmis.
absence-set = Absence enregistrée du { $from } au { $to }. Les dates limites qui y tombent sont reportées après.
absence-not-allowed = Cette partie n'accepte pas d'absences.
absence-too-long = Une absence dure au plus { $max } jour(s) dans cette partie.
absence-too-many = Vous avez déjà déclaré les { $max } absence(s) permises dans cette partie.
gm-only = { $command } est une commande du meneur de jeu : il faut son mot de passe.
gm-wrong-password = Mot de passe du meneur de jeu incorrect : rien n'a été fait.
gm-done = { $command } : fait.
ejected = Le joueur { $player } a été retiré de la partie { $game } par le meneur de jeu.
rolled-back = La partie { $game } a été ramenée au tour { $turn } par le meneur de jeu ; le tour suivant sera résolu de nouveau.
preview-subject = [{ $game }] aperçu du tour { $turn } (pas encore envoyé aux joueurs)
commands-subject = [{ $game }] vos commandes
bad-command = Ligne { $line } : { $text }
    {"  "}-> { $why }
dkim-verdict = Signature DKIM : { $verdict }
observer-subject = [{ $game }] (observateur) { $subject }
bot-played = NOTE : vous n'avez pas envoyé d'ordres depuis { $missed } tour(s) de suite : comme le prévoit cette partie, le robot de l'arbitre a joué votre position ce tour-ci. Envoyez vos ordres pour reprendre la main.
deadline-set-subject = [{ $game }] nouvelle date limite
deadline-set = Le meneur de jeu a fixé une nouvelle date limite pour la partie { $game }.
    Date limite : { $when }
deadline-in-past = { $when } n'est pas dans le futur : la date limite n'a pas changé.
ejected-subject = [{ $game }] un poste est libre
ejected-seat = Le poste { $player } de la partie { $game } ne joue plus : ses ordres ne sont plus acceptés. Demandez au meneur de jeu si vous voulez le reprendre.
takeover-subject = [{ $game }] changement de joueur
takeover-welcome = Bienvenue, { $name } : vous jouez désormais le poste { $player } de la partie { $game }, là où son joueur précédent l'a laissé.
    { $password_line }Date limite : { $when }
    Le dernier compte rendu de votre poste suit dans un courrier séparé.
takeover-password = Votre mot de passe : { $password }
taken-over = Le poste { $player } de la partie { $game } est désormais joué par { $name }.
rolled-back-subject = [{ $game }] tour annulé
preview-intro = Le tour { $turn } est résolu et retenu : ses { $held } courrier(s) aux joueurs et observateurs ne sont pas envoyés. Les comptes rendus de chaque joueur suivent.
    Répondez PUBLIER pour les envoyer, ou RETOUR { $previous } pour annuler le tour.
preview-player = ===== compte rendu de { $player } <{ $email }> =====
nothing-held = Aucun tour n'est retenu : rien à publier.
released = PUBLIER : les { $mails } courrier(s) retenus du tour { $turn } partent. Prochaine date limite : { $when }
late-orders = EN RETARD : ces ordres sont arrivés après la date limite ({ $deadline }) mais pendant le délai de grâce : ils comptent pour ce tour.
no-such-seat = Il n'y a pas de poste « { $player } » dans cette partie.
already-ejected = Le poste { $player } est déjà retiré de la partie.
rollback-range = Impossible de revenir au tour { $turn } : le dernier tour résolu est le { $last } ; indiquez un tour antérieur.

## Why a command line was refused (services/command.rs, Reason)

reason-missing-argument = argument manquant ({ $value })
reason-bad-number = « { $value } » n'est pas un numéro de tour
reason-unknown-zone = fuseau horaire inconnu « { $value } » (attendu Zone/Ville, p. ex. Europe/Paris)
reason-bad-date = « { $value } » n'est pas une date (AAAA-MM-JJ, ou AAAA-MM-JJ HH:MM)
reason-bad-duration = « { $value } » n'est pas une durée (48h, 2j, 1j12h)
reason-bad-range = la date de fin précède la date de début
reason-too-many-arguments = texte inattendu : { $value }
reason-bad-email = « { $value } » n'est pas une adresse électronique

## Absences (services/absence.rs, AbsenceMsg)

absence-over = ABSENCE : le { $to } est déjà passé : rien n'a été enregistré.
absence-overlaps = ABSENCE : elle chevauche votre absence du { $from } au { $to } : rien n'a été enregistré.
absence-your-deadline-moved = La date limite est reportée au { $when }.
absence-status-line = Absences déclarées : { $list }
absence-moved-subject = [{ $game }] date limite du tour { $turn } reportée
absence-moved = La date limite du tour { $turn } de la partie { $game } est reportée au { $when }, car { $who } est absent le jour où elle tombait.
absence-someone = un joueur

## Press (services/press.rs, PressMsg)

press-empty = PRESSE : le message est vide (écrivez-le sur les lignes qui suivent la ligne PRESSE) : rien n'a été transmis.
press-to-self = PRESSE : vous ne pouvez pas vous écrire à vous-même : rien n'a été transmis.
press-sender-out = PRESSE : votre position ne fait plus partie de la partie : rien n'a été transmis.
press-observers = Il a aussi été envoyé aux { $n } observateur(s) de la partie.
press-head = Message de { $from } { $all ->
        [yes] à tous les joueurs
       *[no] pour vous
    }, transmis par l'arbitre de la partie { $game } (tour { $turn }) :
press-foot-reply = Pour répondre, envoyez un bloc d'ordres avec la ligne : PRESSE À { $id }
press-foot-anonymous = L'expéditeur est anonyme : seul le meneur de jeu peut savoir qui l'a écrit.

## Faults and mail trouble, to the game master (fault.rs, FaultMsg)

fault-subject = [{ $game }] partie arrêtée : erreur interne des règles
fault-faulted = Les règles de la partie { $game } ont échoué sur une erreur interne ({ $during }, tour { $turn }) :

    {"    "}{ $message }

    La partie { $game } est arrêtée : son tour n'est pas résolu et les mails de ses joueurs attendent dans la boîte, sans réponse. Rien n'est perdu et les autres parties continuent.
    Une fois les règles corrigées et le nouvel arbitre installé, lancez

    {"    "}arbitre resume { $game }

    pour rejouer les mails et le tour. `arbitre status` montre l'erreur.
fault-mail-failed-subject = [{ $game }] un mail n'a pas pu être remis
fault-mail-failed = Le mail « { $subject } » pour { $to } n'a pas pu être remis et est abandonné :

    {"    "}{ $reason }

    Corrigez l'adresse (arbitre player replace) ou la cause, puis renvoyez-le avec

    {"    "}arbitre outbox retry { $id }

    ou supprimez-le avec `arbitre outbox drop { $id }`. `arbitre outbox list` montre tous les mails en difficulté.
fault-sending-paused-subject = arbitre : l'envoi a été suspendu
fault-sending-paused = Depuis le { $since }, arbitre ne pouvait plus envoyer de mail à cause de sa configuration d'envoi, et non d'un mail :

    {"    "}{ $reason }

    L'envoi a été suspendu, aucun mail n'a été abandonné, et arbitre a réessayé. Si vous lisez ceci, l'envoi refonctionne et les mails en attente sont partis.

## Tokens and DKIM (services/authenticity.rs, Refusal and FailReason)

refusal-token-missing = la partie { $game } exige le jeton du joueur { $player }, et ce courrier n'en donne pas. Ajoutez la ligne JETON <votre jeton> juste après la ligne PARTIE.
refusal-token-wrong = le jeton donné pour le joueur { $player } de la partie { $game } est faux.
refusal-unsigned = la partie { $game } exige une signature DKIM valide de votre domaine ({ $domain }), et ce courrier n'est pas signé. Envoyez vos ordres depuis votre adresse inscrite, par le serveur de votre fournisseur.
refusal-not-players-domain = la partie { $game } exige une signature DKIM valide du domaine de votre adresse inscrite ({ $domain }) ; ce courrier est signé par { $signer }.
refusal-dkim-unavailable = la partie { $game } exige une signature DKIM valide, et celle de ce courrier ne peut pas être vérifiée pour l'instant ({ $reason }). Renvoyez le même courrier dans quelques minutes.
refusal-dkim-failed = la partie { $game } exige une signature DKIM valide de votre domaine ({ $domain }), et la signature de ce courrier est invalide : { $reason }.
refusal = Votre courrier est refusé : { $why }
    Rien n'a été enregistré.
dkim-body-changed = le texte a été modifié après la signature
dkim-bad-signature = la signature ne correspond pas aux en-têtes du courrier
dkim-expired = la signature a expiré
dkim-no-key = { $domain } ne publie pas sa clé
dkim-misaligned = signée par { $signer }, pas par le domaine de l'expéditeur { $from }
dkim-unusable = signature inutilisable ({ $error })

## Notices appended to reports and answers (turn.rs, services/answer.rs, services/timezone.rs)

wrong-password-notice = ATTENTION : { $n } courrier(s) de ce tour ont utilisé votre nom de joueur avec un mauvais mot de passe. Rien n'en a été retenu. Si ce n'était pas vous, prévenez votre maître de jeu.
not-served = { $name } : cet arbitre ne propose pas encore ce service.
timezone-answer-set = FUSEAU : vos dates limites sont désormais affichées dans le fuseau { $zone }.
timezone-answer-game-zone = FUSEAU : vos dates limites sont affichées dans le fuseau de la partie, { $zone }.

## The command line (cli.rs): it speaks one language, --lang or the locale, English by default

cli-game-created = partie { $id } créée ; comptes rendus du tour 0 en file d'envoi
cli-game-deleted = partie { $game } supprimée ; ses { $rows } ligne(s), dont { $mails } courrier(s), archivées dans { $path }
cli-delete-needs-yes = partie { $game } non supprimée : ajoutez --yes pour la supprimer sans question (pas de terminal où la poser)
cli-delete-confirm = Supprimer définitivement la partie { $game } (ses lignes sont d'abord archivées dans un fichier) ? Tapez son identifiant pour confirmer :
cli-delete-not-confirmed = partie { $game } non supprimée : l'identifiant tapé ne correspond pas
cli-mails-sent = { $sent } courrier(s) envoyé(s)
cli-mails-sent-failed = { $sent } courrier(s) envoyé(s), { $failed } en échec (voir arbitre status)
cli-daemon-sends = un démon tourne : c'est lui qui envoie les courriers en file
cli-cycle = { $mails } courrier(s) traité(s), { $resolved } tour(s) résolu(s), { $reminders } rappel(s), { $sent } courrier(s) envoyé(s), { $failures } échec(s) d'envoi
cli-inbox-not-read = boîte de réception non lue : { $error }
cli-turn-resolved = partie { $game } : tour { $turn } résolu ; comptes rendus en file d'envoi
cli-map-where = indiquez où écrire la carte : --png FICHIER et/ou --svg FICHIER
cli-file-written = { $path } : { $name } ({ $bytes } octets)
cli-password-reset = partie { $game } : mot de passe du joueur { $player } réinitialisé
cli-password-one-word = un mot de passe est un seul mot, sans espace
cli-player-joined = partie { $game } : joueur { $id } inscrit
cli-player-ejected = partie { $game } : joueur { $id } retiré
cli-password-not-on-command-line = un mot de passe n'est jamais pris sur la ligne de commande, où `ps` le montre à tous : utilisez --password-file FICHIER ou --password-stdin (ou aucun des deux, pour en faire générer un)
cli-seat-replaced = partie { $game } : le poste { $player } est désormais joué par { $email }
cli-new-password = nouveau mot de passe (aussi envoyé au nouveau joueur) : { $password }
cli-deadline-set = partie { $game } : date limite fixée au { $when }
cli-preview-mode-bad = mode d'aperçu « { $mode } » : next, always ou off
cli-preview-set = partie { $game } : aperçu { $mode }
cli-released = partie { $game } : tour { $turn } publié, { $mails } courrier(s)
cli-rolled-back = partie { $game } : retour au tour { $turn } (annulés : { $undone })
cli-paused = partie { $game } en pause
cli-resumed-after-fault = partie { $game } reprise après son erreur au tour { $turn } ({ $during }) ; ses courriers et son tour sont rejoués
cli-resumed = partie { $game } reprise
cli-extended = partie { $game } : date limite repoussée
cli-case-verdict = { $passed ->
        [yes] PASS
       *[no] FAIL
    } { $file } ({ $title })
cli-cases = { $cases } cas, { $failed } en échec
cli-no-fixture = aucune archive de partie (un dossier avec un game.toml) dans { $dir }
cli-replayed = { $dir } : { $turns } tour(s), { $mails } courrier(s) { $blessed ->
        [yes] réenregistrés
       *[no] rejoués, identiques
    }
cli-bots-or-orders = indiquez --bots ou --orders DOSSIER
cli-recorded = { $dir } : { $turns } tour(s), { $mails } courrier(s) enregistrés
cli-mail-requeued = courrier n° { $id } remis en file d'envoi
cli-failed-requeued = { $n } courrier(s) en échec remis en file d'envoi
cli-mail-dropped = courrier n° { $id } supprimé : il ne sera pas envoyé
cli-backup-written = sauvegarde de { $database } écrite dans { $path } ({ $bytes } octets)

## A game master's command that cannot be done (gm.rs), in the game's language

gm-not-running = la partie { $game } est { $status ->
        [paused] en pause
        [over] terminée
       *[other] en cours
    }, pas en cours
gm-not-paused = la partie { $game } est { $status ->
        [running] en cours
        [over] terminée
       *[other] en pause
    }, pas en pause
gm-no-deadline-to-extend = la partie { $game } n'a pas de date limite en cours à repousser

# PASSWORD NEW by mail and `arbitre player password` (issue 17 item 4).
password-changed = partie { $game } : le mot de passe de { $player } est changé ; utilisez le nouveau dès votre prochain courrier.
password-no-player = la partie { $game } n'a pas de joueur { $player }
cli-password-changed = partie { $game } : mot de passe du joueur { $player } changé
## Welcome, HELP, LIST and refusals that teach (issue 17; services/welcome.rs, help.rs, refusal.rs)

welcome-subject = [{ $game }] bienvenue dans { $game } ({ $ruleset })
welcome-created = Bienvenue, { $name } ! Vous jouez le poste { $player } de la partie { $game } ({ $ruleset }), qui commence. Ce courrier vous dit tout ce qu'il faut pour jouer par courrier.
welcome-joined = Bienvenue, { $name } ! Vous rejoignez la partie { $game } ({ $ruleset }) en cours, au poste { $player }. Ce courrier vous dit tout ce qu'il faut pour jouer par courrier.
welcome-takeover = Bienvenue, { $name } ! Vous reprenez le poste { $player } de la partie { $game } ({ $ruleset }). Ce courrier vous dit tout ce qu'il faut pour jouer par courrier.
welcome-referee = Envoyez tout courrier de la partie à l'arbitre : { $referee }
welcome-header = Vos ordres commencent par cette ligne d'en-tête, recopiée telle quelle :
welcome-password-generated = C'est votre mot de passe : gardez-le, aucun autre courrier ne le redonne.
welcome-password-gm = Remplacez { $placeholder } par le mot de passe que votre meneur de jeu vous a donné.
welcome-how = Comment jouer :
    - Ordres : la ligne d'en-tête, puis un ordre par ligne, puis FIN. Chaque courrier remplace les ordres envoyés plus tôt pour le même tour ; le dernier arrivé avant la date limite compte.
    - Vérifier sans jouer : écrivez { $check } au lieu de PARTIE dans la ligne d'en-tête ; rien n'est enregistré et vous recevez le verdict de chaque ligne.
    - Sur les lignes juste après l'en-tête, avant vos ordres : RENVOYER (votre dernier compte rendu), ÉTAT (le tour, la date limite et qui est prêt), AIDE (toutes les commandes).
    - AIDE marche aussi seul dans un courrier, sans en-tête ni mot de passe.
welcome-deadline = Date limite des ordres du tour { $turn } : { $when } (le fichier { $file } joint la met dans votre agenda).
welcome-deadline-ics = Date limite : { $when }
welcome-template = Votre feuille d'ordres est jointe ({ $file }) : remplissez-la et envoyez-la sous la ligne d'en-tête.
welcome-guide = Le guide du joueur de { $ruleset } est joint ({ $file }).
help-intro = Comment jouer par courrier avec cet arbitre.
help-header = Les ordres commencent par une ligne d'en-tête, dans l'une des trois langues :

    { $headers }

    puis un ordre par ligne, puis { $end }. Écrivez { $check } au lieu de { $g } pour faire vérifier vos ordres sans les enregistrer.
help-commands = Commandes, sur les lignes juste après l'en-tête et avant vos ordres :
    RENVOYER [tour]  votre dernier compte rendu (ou celui de ce tour)
    ÉTAT             le tour, la date limite et qui est prêt
    HISTORIQUE       les tours joués et leur date
    FUSEAU <zone>    les dates dans votre fuseau horaire (ex. Europe/Paris)
    PRESSE <joueur|TOUS>  un message aux autres joueurs (si la partie le permet)
    ABSENCE <du> <au>     vous êtes absent (si la partie le permet)
    Sans en-tête ni mot de passe : { $help } [partie] (ce texte), LISTE (les parties ouvertes au public).
help-game = Partie { $game } ({ $ruleset }), tour { $turn } en cours.
help-game-deadline = Date limite : { $when }
list-intro = Parties ouvertes au public :
list-empty = Aucune partie n'est ouverte au public sur cet arbitre.
list-game = - { $game } ({ $ruleset }), tour { $turn }, date limite { $when }, { $seats }
list-free-seats = { $free } place(s) libre(s)
list-no-signup = pas d'inscription par courrier
help-subject = arbitre : aide
list-subject = arbitre : parties publiques
near-miss = Votre ligne d'en-tête nomme la partie { $game }, mais l'arbitre ne peut pas la lire. Le mot-clé du mot de passe est { $keyword } (un seul mot), après { $player_word } et l'identifiant du joueur. Écrivez la ligne ainsi :

    {"    "}{ $line }

    avec votre mot de passe à la place de l'indication. Rien n'a été enregistré.
placeholder-password = Votre ligne d'en-tête pour le joueur { $player } de la partie { $game } contient encore l'indication { $written } du modèle à la place de votre mot de passe. Écrivez-y votre mot de passe (celui que votre meneur de jeu vous a donné, ou celui de votre courrier de bienvenue). Rien n'a été enregistré, et cela ne compte pas comme un mauvais mot de passe.
did-you-mean = Vouliez-vous dire { $id } ?

## pipe2 (issue 16 item 3 rest): `arbitre status`, `outbox list`, the demo and the refusals of the operator's commands, in the CLI's language (gm.rs, gm/listing.rs, sender.rs, demo.rs, create.rs, join.rs, backup.rs, png_map.rs, offline.rs, daemon.rs)

cli-status-id-collision = ATTENTION : { $ids } ne diffèrent que par la casse : un courrier qui nomme l'un n'atteint que l'un des deux ; renommez ou supprimez l'un
cli-status-no-games = aucune partie
cli-status-running = en cours
cli-status-paused = en pause
cli-status-over = terminée
cli-status-held = { $status } (tour { $turn } retenu pour relecture)
cli-status-game = { $game } ({ $ruleset }), { $state }
cli-status-faulted = EN PANNE depuis le { $at } : le jeu de règles a paniqué pendant { $during } du tour { $turn } : { $message }
cli-status-faulted-wait = ses courriers attendent dans la boîte ; après correction : arbitre resume { $game }
cli-status-last-turn = dernier tour résolu : { $last }
cli-status-deadline = date limite du tour { $turn } : { $when }
cli-status-no-deadline = pas de date limite
cli-status-outbox-problems = problèmes d'envoi : { $failed } en échec, { $stale } en attente après un échec ou depuis plus d'une heure, { $held } retenu(s)
cli-status-seat-orders = ordres ({ $lines } ligne(s), { $errors } erreur(s))
cli-status-seat-orders-not-ready = ordres ({ $lines } ligne(s), { $errors } erreur(s), pas prêt)
cli-status-seat-ejected = exclu
cli-status-seat-inactive = inactif
cli-status-seat-no-orders = pas d'ordres
cli-status-missing = manquent : { $players }
cli-status-outbox = envois : { $pending } en attente, { $n_failed } en échec
cli-status-sending-paused = envoi SUSPENDU depuis le { $since } : { $reason } (la configuration d'envoi échoue, aucun courrier n'est mis en échec pour cela ; prochain essai { $next })
cli-status-retrying = NOUVEL ESSAI #{ $id } { $message_id } à { $to } : en échec depuis le { $since }, { $attempts } tentative(s), prochaine { $next } : { $error }
cli-status-failed = ÉCHEC #{ $id } { $message_id } à { $to } : { $error } (arbitre outbox retry { $id })
outbox-sending-paused = envoi SUSPENDU depuis le { $since } : { $reason }
outbox-none = aucun courrier en difficulté
outbox-row = #{ $id } { $status } { $kind } à { $to } « { $subject } » (mis en file le { $queued }
outbox-row-failing = en échec depuis le { $since }, { $attempts } tentative(s)
outbox-row-next = prochain essai { $next }
err-inbox-is-imap = la boîte de réception est en IMAP : un courrier ne peut pas y être déposé localement
err-retry-not-failed = le courrier #{ $id } est { $status } : seul un courrier en échec ou en attente peut être renvoyé
err-no-such-mail = pas de courrier #{ $id } dans la file d'envoi (voir arbitre outbox list)
err-nothing-to-drop = le courrier #{ $id } est envoyé ou absent : rien à abandonner
err-cannot-read = impossible de lire { $path } : { $error }
err-player-toml = TOML du joueur : { $error }
err-join-password = le joueur « { $player } » doit avoir un mot de passe d'un seul mot, sans espace
err-join-token = joueur « { $player } » : le jeton doit être un seul mot de 1 à 100 caractères, sans espace
err-player-exists = la partie « { $game } » a déjà un joueur « { $player } »
err-backup-io = sauvegarde { $path } : { $error }
err-backup-not-a-file = sauvegarde : { $path } n'est pas un nom de fichier
err-backup-is-database = sauvegarde : { $path } est la base elle-même ; donnez un autre fichier
err-no-resolved-turn = la partie { $game } n'a pas de tour { $turn } résolu
err-no-player = la partie { $game } n'a pas de joueur « { $player } »
err-no-map = le compte rendu du tour { $turn } de { $player } dans la partie { $game } n'a pas de carte
err-map-not-drawn = la carte n'a pas pu être dessinée : { $error }
err-archive = archive de { $id } : { $error }
err-archive-write = écriture de l'archive { $path } : { $error }
err-check-needs-game = le jeu de règles { $ruleset } a besoin d'un TOML de partie (--game) pour vérifier des ordres
err-check-no-players = la partie n'a pas de joueurs
err-check-no-player = pas de joueur « { $player } » dans cette partie
err-report-not-json = pas un compte rendu JSON d'arbitre : { $error }
err-report-schema = pas un compte rendu JSON d'arbitre (schéma « { $schema } »)
err-report-no-view = ce compte rendu (schéma version { $version }) ne contient pas de vue de la partie : vérifier des ordres contre lui demande un compte rendu de version 2 d'un jeu de règles avec vues
err-report-no-player = ce n'est pas le compte rendu d'un joueur : il ne nomme aucun joueur
demo-no-ruleset = aucun jeu de règles n'est compilé
demo-created = partie { $id } ({ $ruleset }) créée avec { $players } joueurs
demo-turn = tour { $turn } : { $mails } courrier(s) d'ordres répondu(s), comptes rendus envoyés
demo-not-a-file-outbox = (pas une file d'envoi en fichiers)
demo-database = base de données : { $database }
demo-outbox = chaque courrier envoyé (confirmations, comptes rendus) est un fichier .eml dans { $dir }
demo-print-report = afficher un compte rendu : cargo run --release -- report { $id } <joueur> [--turn N]
## Inscription par courrier (issue 17 item 3 ; branche signup : signup.rs, services/requests.rs, cli.rs)
signup-subject = arbitre : inscription à { $game }
signup-closed = La partie { $game } ne prend pas d'inscription par courrier. Demandez à son meneur de jeu.
signup-full = La partie { $game } est complète : elle a ses { $max } joueurs.
signup-already-player = L'adresse { $address } joue déjà dans la partie { $game }.
signup-already-pending = Votre demande d'inscription à la partie { $game } est déjà chez son meneur de jeu. Vous aurez une réponse par courrier ; rien de plus n'a été envoyé.
signup-refused-before = Le meneur de jeu de la partie { $game } a refusé votre demande d'inscription.
signup-no-newcomer = La partie { $game } a déjà commencé, et { $ruleset } ne prend pas de nouveau joueur maintenant : { $reason }
signup-too-many-pending = Trop de demandes d'inscription à la partie { $game } attendent son meneur de jeu. Réessayez dans quelques jours.
signup-pending = Votre demande d'inscription à la partie { $game } sous le nom { $name } est transmise à son meneur de jeu. Vous aurez une réponse par courrier : le courrier de bienvenue avec votre mot de passe, ou le refus du meneur de jeu.
signup-joined = Bienvenue dans la partie { $game } : vous jouez la position { $player }. Votre courrier de bienvenue (avec votre mot de passe et le modèle d'ordres) et votre premier rapport suivent, chacun dans son courrier.
signup-gm-subject = arbitre : { $game } : { $address } demande à s'inscrire
signup-gm-notice = { $address } demande à rejoindre la partie { $game } sous le nom { $name }. Demandes en attente : { $pending }.

    Pour accepter, écrivez à l'arbitre ({ $referee }) un bloc de meneur de jeu :

    {"    "}PARTIE { $game } JOUEUR gm MOT-DE-PASSE <mot de passe du meneur>
    {"    "}ACCEPTER { $address }
    {"    "}FIN

    Pour refuser, écrivez à la place REFUSER { $address } [raison]. Sur la machine de l'arbitre : arbitre signup accept { $game } { $address } (ou refuse, avec --reason).
signup-accepted = { $address } a rejoint la partie { $game } comme { $player } ; le courrier de bienvenue est en route.
signup-refused = { $address } est refusé pour la partie { $game } et en est averti.
signup-refusal-subject = arbitre : { $game } : inscription refusée
signup-refusal = Le meneur de jeu de la partie { $game } a refusé votre demande d'inscription.
signup-refusal-reason = Sa raison : { $reason }
signup-no-request = La partie { $game } n'a pas de demande d'inscription ouverte de { $address }.
list-signup-open = inscription ouverte ({ $join } { $game } [nom])
cli-signup-row = { $address } ({ $name }), demandé le { $when }
cli-signup-none = partie { $game } : aucune demande d'inscription en attente
cli-signup-accepted = partie { $game } : { $address } inscrit comme joueur { $player }
cli-signup-refused = partie { $game } : inscription de { $address } refusée
## Branch gmerr (issue 19 item 3; setup_text.rs): un refus de la règle pour
## un fichier de partie, une position ou une carte, dans la langue de la ligne de commande
setup-item-star = étoile
setup-item-ship = vaisseau
setup-item-ruler = souverain
setup-item-world = monde
setup-item-fleet = flotte
setup-item-zone = zone
setup-item-unit = unité
setup-item-unit-type = type d'unité
setup-item-nation = nation
setup-item-symbol = symbole de ressource
setup-item-field = domaine de recherche
setup-item-territory = territoire
setup-item-chain = chaîne
setup-item-status = statut
setup-item-player = joueur
setup-unknown-map = carte ou scénario inconnu « { $name } » (intégrés : { $valid })
setup-unknown-key = clé inconnue « { $key } » dans { $table } (clés valides : { $valid })
setup-unknown-key-none = clé inconnue « { $key } » dans { $table } (cette table n'a aucune clé)
setup-range-exact = { $min }
setup-range-between = de { $min } à { $max }
setup-range-at-least = { $min } ou plus
setup-player-count = nombre de joueurs incorrect : { $got } (cette mise en place en prend { $range })
setup-player-count-nations = nombre de joueurs incorrect : { $got } (cette mise en place en prend { $range } (nations : { $known }))
setup-position = position TOML illisible : { $message }
setup-rules = [rules] : { $message }
setup-expected-bool = true ou false
setup-expected-name = un nom entre guillemets
setup-expected-table = une table
setup-expected-integer = un nombre entier
setup-expected-duration = une durée comme "1d", "12h" ou "30m"
setup-expected-at-least = au moins { $n }
setup-expected-between = entre { $a } et { $b }
setup-bad-value = { $key } = { $value } : attendu { $expected }
setup-exclusive = donnez { $a } ou { $b }, pas les deux
setup-duplicate = { $item } { $id } : donné deux fois
setup-off-map = { $item } { $id } : position ({ $x },{ $y }) hors de la carte ({ $min }..{ $max_x }, { $min }..{ $max_y })
setup-same-place = { $item } { $id } : position ({ $x },{ $y }) déjà occupée
setup-too-close = { $item } { $id } : trop près de { $other }
setup-over-fuel = { $item } { $id } : carburant { $amount } au-delà de son réservoir { $capacity }
setup-over-cargo = { $item } { $id } : cargaison { $amount } au-delà de sa soute { $capacity }
setup-unknown-owner = { $item } { $id } : le propriétaire ({ $target } { $name }) n'existe pas
setup-unknown-home = { $item } { $id } : le point de départ ({ $target } { $name }) n'existe pas
setup-unknown-link = { $item } { $id } : liaison vers { $target } { $name }, qui n'existe pas
setup-unknown-place = { $item } { $id } : placé sur { $target } { $name }, qui n'existe pas
setup-unknown-ref = { $item } { $id } : { $target } { $name } n'existe pas
setup-unknown = { $item } inconnu : « { $name } »
setup-missing = { $item } { $id } : manquant
setup-none-of = aucun élément de type { $item }
setup-numbering = { $item } : les numéros doivent aller de 1 à { $count }, chacun une fois
setup-no-home = le joueur { $player } n'a aucun point de départ
setup-too-few-starts = { $needed } joueurs mais seulement { $available } points de départ
setup-one-way-link = { $item } { $id } : sa liaison vers { $to } n'a pas de retour
setup-breaks = { $item } { $id } : { $rule }
setup-rule-black-hole = un trou noir ne contient rien
setup-rule-fleet-in-black-hole = une flotte ne peut pas être dans un trou noir
setup-rule-owner-without-population = un monde possédé doit avoir une population
setup-rule-population-over-limit = population de plus de 10 au-dessus de sa limite
setup-rule-linked-to-itself = relié à lui-même
setup-rule-no-links = aucune liaison
setup-rule-cannot-be-owned = ne peut pas avoir de propriétaire
setup-rule-mountain = une montagne ne porte pas de troupes
setup-rule-home-not-land = pas terrestre : ne peut pas être un point de départ
setup-rule-land-without-area = un territoire terrestre doit avoir une superficie
setup-rule-reserved-code = code réservé ou pas en majuscules
setup-rule-bad-id = identifiant invalide
setup-rule-bad-name = le nom contient un caractère de la syntaxe des ordres
setup-rule-bad-path = n'est pas un chemin de la carte
setup-rule-needs-number = une position donne des numéros, pas des noms
setup-rule-yield = taux de production au-delà de 340/49/49
setup-rule-home-of-two = point de départ de deux joueurs
setup-rule-ally-and-enemy = à la fois ennemi et allié
setup-name-mismatch = joueur { $player } : la position le nomme « { $position } », le fichier de partie « { $game } » ; retirez `name` de la position ou accordez les deux
setup-nation-not-text = joueur { $player } : nation doit être un code ou un nom de nation entre guillemets (nations du scénario : { $known })
setup-nation-not-in-scenario = joueur { $player } : la nation « { $word } » n'est pas dans le scénario (nations du scénario : { $known })
setup-nation-named-twice = la nation { $nation } est nommée par deux joueurs, { $other } et { $player } (nations du scénario : { $known })
setup-nation-taken = joueur { $player } : son identifiant ou son nom désigne la nation { $nation }, que joue { $other } ; donnez-lui nation = "..." sous [players.rules] (nations du scénario : { $known })
setup-nation-none = le joueur { $player } ne nomme aucune nation : ajoutez nation = "<code>" sous [players.rules] (nations du scénario : { $known })
## branche web (issue 24) : les pages web et `arbitre web`
cli-web-listening = pages web sur http://{ $listen }/ (Ctrl-C pour arrêter)
web-status-running = en cours
web-status-paused = en pause
web-status-over = terminée
web-no-deadline = pas d'échéance
web-public-games = Parties publiques
web-no-public-game = Aucune partie n'est publique chez cet arbitre.
web-col-game = Partie
web-col-ruleset = Règles
web-col-turn = Tour
web-col-deadline = Échéance
web-login-hint = Joueurs et arbitres de partie :
web-your-zone = Heures affichées dans le fuseau
web-show = Afficher
web-archive = Archives
web-turn = Tour { $turn }
web-orders-sent = Ordres pour ce tour
web-blind = Cette partie ne dit pas qui a envoyé ses ordres.
web-orders-ready = ordres reçus, prêt
web-orders-in = ordres reçus
web-orders-none = pas encore d'ordres
web-public-report = Rapport public
web-login = Connexion
web-player = Joueur (votre identifiant ; gm pour le meneur de jeu)
web-password = Mot de passe
web-token = Jeton (seulement si votre meneur de jeu vous en a donné un)
web-login-gm-hint = Le meneur de jeu se connecte comme joueur gm avec le mot de passe de meneur.
web-form-expired = Ce formulaire a expiré ou n'a pas été envoyé depuis une page de ce site. Connectez-vous et recommencez.
web-login-refused = Partie ou joueur inconnu, ou mot de passe erroné.
web-login-locked = Trop de mots de passe erronés pour cette place cette heure-ci. Réessayez plus tard, ou envoyez vos ordres par courrier.
web-logout = Déconnexion
web-your-orders = Vos ordres
web-template = Modèle d'ordres
web-your-report = Votre rapport
web-send-orders = Envoyer les ordres
web-check = Vérifier seulement (CHECK)
web-orders-hint = Envoyés comme le serait un courrier d'ordres : même vérification, même confirmation, envoyée aussi par courrier. Les derniers ordres envoyés avant l'échéance comptent.
web-repeated = Ce formulaire avait déjà été reçu : rien de nouveau n'a été enregistré. Sa réponse :
web-received = Reçu.
web-not-stored = Rien n'a été enregistré ; la réponse dit pourquoi.
web-confirmation = Réponse (aussi envoyée par courrier)
web-back = Retour à votre page
web-game-master = meneur de jeu
web-public-page = page publique
web-status = État
web-held = tour { $turn } retenu pour relecture
web-outbox = Courriers
web-outbox-problems = { $failed } en échec, { $stale } en attente depuis plus d'une heure, { $held } retenus
web-seats = Places
web-inactive = hors jeu
web-missing = manquant
web-commands = Commandes
web-command-line = Une commande, comme dans un courrier du meneur :
web-do = Exécuter
web-command-hint = PAUSE, RESUME, EXTEND 2d, DEADLINE 2026-12-24 18:00, PREVIEW, PREVIEW ALWAYS, PREVIEW OFF, RELEASE, EJECT <joueur>, TAKEOVER <joueur> <adresse> [nom]. Les joueurs sont prévenus comme par courrier.
web-no-command = Aucune commande sur cette ligne.

# merge of web and pipe2: the demo's pointer to the web face
demo-web = dans un navigateur : cargo run --release -- web, puis http://127.0.0.1:8080/games/{ $id }
    (les joueurs se connectent avec leur identifiant et le mot de passe du fichier de partie ; le meneur de jeu avec gm, mot de passe { $password })
# services branch (issue 16 item 1, issue 17 item 9): answers that say what happened
status-not-ready = Ordres en vigueur mais sans READY (le tour les attend jusqu'à la date limite) : { $players }
not-resolved-yet = Le tour { $turn } n'est pas encore résolu : voici le compte rendu du dernier tour résolu, le { $last }.
no-orders-received = NOTE : aucun ordre de votre part n'a été reçu pour le tour { $turn }.

# web2 (issue 24 leftovers): free seats and sign-up on the list, the body limit
web-col-free-seats = Places libres
web-col-signup = Inscription
web-seats-no-limit = sans limite
web-signup-open = ouverte, écrire
web-signup-name = votre nom
web-signup-full = complète
web-too-large = Ce formulaire dépasse la taille que l'arbitre accepte ({ $max } octets, comme pour un courriel). Rien n'a été enregistré : raccourcissez-le et envoyez-le de nouveau.
web-settings = Autres commandes
web-timezone = Votre fuseau horaire (FUSEAU)
web-timezone-set = Choisir
web-absence = Absent du … au … (ABSENCE)
web-absence-declare = Déclarer
web-press = Message de presse à (PRESSE)
web-press-all = tous
web-press-anonymous = anonyme
web-press-send = Envoyer
web-settings-hint = Chaque formulaire fait ce que fait la même commande dans un courriel, avec la même réponse, envoyée aussi par courriel.
# cfgtext branch (issue 19 item 3): the daemon's own game-file errors and warnings, in the command line's language
cfg-at = { $place }: { $error }
cfg-read = impossible de lire { $path } : { $error }
cfg-unknown-field = clé inconnue `{ $key }`, attendu l'une de : { $valid }
cfg-unknown-field-none = clé inconnue `{ $key }` : cette table n'a aucune clé
cfg-missing-field = clé manquante `{ $key }`
cfg-duplicate-key = clé `{ $key }` donnée deux fois
cfg-wrong-type = type incorrect : { $found }, attendu { $expected }
cfg-type-text = du texte
cfg-type-text-value = le texte "{ $value }"
cfg-type-integer = un nombre entier
cfg-type-integer-value = le nombre entier { $value }
cfg-type-float = un nombre décimal
cfg-type-bool = true ou false
cfg-type-list = une liste
cfg-type-table = une table
cfg-type-datetime = une date et heure
cfg-syntax-string = chaîne invalide : il manque le guillemet fermant, ou une séquence d'échappement est fausse
cfg-syntax-key = clé invalide
cfg-syntax-table-header = en-tête de table invalide
cfg-syntax-array = liste invalide
cfg-syntax-inline-table = table en ligne invalide
cfg-syntax-number = nombre invalide
cfg-syntax-datetime = date ou heure invalide
cfg-syntax-line = une ligne doit être clé = valeur, ou un en-tête de table
cfg-toml-other = TOML (message de l'analyseur) : { $detail }
cfg-bad-id = l'identifiant de partie « { $game } » doit faire 1 à 40 lettres, chiffres, « - », « _ » ou « . »
cfg-bad-player-id = l'identifiant de joueur « { $player } » doit faire 1 à 40 lettres, chiffres, « - », « _ » ou « . »
cfg-duplicate-player = le joueur « { $player } » figure deux fois
cfg-no-password = le joueur « { $player } » n'a pas de mot de passe (donnez password ou password_hash)
cfg-both-passwords = joueur « { $player } » : donnez password ou password_hash, pas les deux
cfg-password-hash-not-phc = joueur « { $player } » : password_hash n'est pas une chaîne PHC comme celle qu'affiche arbitre password hash
cfg-password-hash-algorithm = joueur « { $player } » : password_hash n'utilise pas argon2id
cfg-password-hash-no-salt = joueur « { $player } » : password_hash n'a pas de sel ou pas d'empreinte
cfg-password-hash-parameters = joueur « { $player } » : password_hash a de mauvais paramètres argon2
cfg-bad-email = joueur « { $player } » : « { $email } » n'est pas une adresse électronique
cfg-bad-token = joueur « { $player } » : le jeton doit être un seul mot de 1 à 100 caractères, sans espace
cfg-bad-language = langue inconnue « { $language } » (fr, de, en)
cfg-schedule = calendrier : { $error }
cfg-signup-needs-gm = inscription : approve = "gm" exige gm_email, l'adresse où les demandes sont envoyées
cfg-signup-no-seat = inscription : max_players doit valoir au moins 1
cfg-file = option { $key } : impossible de lire le fichier { $path } : { $error }
cfg-io-not-found = fichier introuvable
cfg-io-denied = permission refusée
cfg-io-directory = c'est un dossier
cfg-io-not-utf8 = pas du texte UTF-8
cfg-unknown-ruleset = règle du jeu inconnue « { $ruleset } » ; règles connues : { $known }
cfg-warning = avertissement : { $warning }
cfg-warn-shared-address = les joueurs « { $first } » et « { $second } » partagent l'adresse { $email } : tous deux reçoivent chaque compte rendu et leurs courriels doivent porter une ligne PLAYER
cfg-warn-start-past = le début { $start } est déjà passé : la première date limite est comptée depuis la création
cfg-warn-fixed-zone = le fuseau « { $zone } » est un décalage fixe, faux la moitié de l'année (il est refusé aux joueurs pour TIMEZONE) : utilisez un nom IANA comme Europe/Paris
sched-bad-duration = durée incorrecte « { $value } » (exemples : 7d, 48h, 1d12h, 90m)
sched-bad-weekday = jour de la semaine inconnu « { $value } » (mon, tue, wed, thu, fri, sat, sun)
sched-bad-time = heure incorrecte « { $value } » (attendu HH:MM)
sched-bad-zone = fuseau horaire inconnu « { $value } » (attendu un nom IANA comme Europe/Paris)
sched-bad-start = début incorrect « { $value } » (attendu RFC 3339, par exemple 2026-12-01T20:00:00+01:00)
sched-both = donnez soit interval (avec time si vous voulez), soit weekday + time, pas les deux
sched-half = weekday exige time, et time exige weekday ou interval
sched-time-needs-days = l'intervalle « { $value } » avec une heure doit compter des jours entiers (par exemple 7d avec time = "20:00")
join-no-rule = { $ruleset } ne permet pas de rejoindre une partie en cours
join-not-allowed = cette partie n'accepte pas de nouveaux joueurs en cours de partie
join-no-room = aucun territoire neutre et vide ne reste pour un nouveau venu
join-name-taken = le joueur { $player } est déjà inscrit
join-over = la partie est terminée
join-full = la partie est complète
## edsdate (issue 17 item 3): HELP names the sign-up by mail
help-join = Pour vous inscrire à une partie ouverte aux inscriptions par mail (LISTE dit lesquelles), sans en-tête : { $join } <partie> [nom]

# The store's refusals at the command line (setup_text.rs store_text).
store-unknown-game = partie inconnue « { $game } »
store-game-exists = la partie « { $game } » existe déjà (les identifiants de partie sont uniques, sans distinction de casse)
store-player-exists = la partie « { $game } » a déjà un joueur « { $player } » (les identifiants de joueur sont uniques, sans distinction de casse)
store-locked = un autre démon arbitre sert déjà cette base de données (verrou { $lock })
store-too-new = la base de données est au schéma { $found }, plus récent que cet arbitre ({ $known }) ; mettez arbitre à jour

## Les refus de la ligne de commande : date, heure ou durée (timespec.rs
## TimeSpecError), partie finie ou en panne, arguments de `check`
## (issue 16 point 3), dans la langue --lang de la commande.
time-bad-duration = durée illisible « { $text } » (exemples : 7d, 48h, 1d12h, 90m)
time-bad-date = date illisible « { $text } » (attendu : AAAA-MM-JJ)
time-bad-time = heure illisible « { $text } » (attendu : HH:MM)
time-bad-deadline = échéance illisible « { $text } » (attendu : « AAAA-MM-JJ HH:MM » dans le fuseau de la partie, ou RFC 3339)
time-bad-weekday = jour inconnu « { $text } » (mon, tue, wed, thu, fri, sat, sun)
cli-game-over = la partie « { $game } » est terminée
cli-game-faulted = la partie « { $game } » est en panne (voir arbitre status) ; le courrier attend arbitre resume
cli-check-report-alone = avec --report, donnez le seul fichier d'ordres
cli-check-two-args = donnez le jeu de règles et le fichier d'ordres
cli-case-not-under-cases = { $file } : pas sous <règles>/cases/ ; dites quel jeu de règles avec --ruleset

# webfin (issue 24): error pages in the game's language, forms the game forbids
web-not-found = Cette page n'existe pas.
web-forbidden = Cette page est réservée aux joueurs et au meneur de jeu de la partie, connectés. Connectez-vous d'abord.
web-bad-request = L'arbitre n'a pas pu lire cette requête : elle ne vient pas d'une de ses pages, ou un champ manque.
web-internal = L'arbitre n'a pas pu servir cette page ; l'erreur est dans son journal.
web-home = Toutes les parties publiques
web-nothing-stored = Rien n'a été enregistré.
web-fault-label = Panne
web-fault = arrêtée ({ $during }, tour { $turn }) : { $message }
web-game-over = La partie { $game } est terminée : plus aucun ordre n'est accepté.
web-deadline-label = Échéance :

## pipe5 (issue 16 item 3 rest): the daemon's typed errors on the command
## line (error_text.rs, cli.rs error_text): the engine's, a panic's, a
## mail's, arbitre.toml's, a held turn, the PNG map, no database, and what
## the command was doing (ctx-*), in the --lang of the command.
err-file-line-hidden = (une ligne du fichier, non montrée)
err-engine = partie « { $game } » : { $error }
err-engine-bad-state = l'état enregistré ne se charge pas : { $detail }
err-engine-game-over = la partie est terminée
err-engine-unknown-player = joueur inconnu « { $player } »
err-engine-panicked = le jeu de règles a paniqué pendant { $during } : { $message }
err-wrong-turn = partie « { $game } » : le jeu de règles a rendu le tour { $got } pour le tour { $expected }
err-panicked = partie « { $game } » : le jeu de règles a paniqué pendant { $during } : { $message }
err-held = le tour { $turn } de { $game } est retenu pour relecture : publiez-le (release) ou revenez en arrière (rollback) d'abord
err-mail = courrier : { $error }
mail-err-io = erreur d'entrée-sortie du courrier : { $error }
mail-err-too-large = un courrier de { $size } octets dépasse la limite de { $limit } octets
mail-err-unparseable = courrier illisible : { $detail }
mail-err-format = impossible de mettre le courrier en forme : { $detail }
imap-err-connect = impossible de joindre le serveur IMAP { $server }
imap-err-tls = échec du TLS avec le serveur IMAP : { $detail }
imap-err-auth = connexion IMAP refusée : { $detail }
imap-err-lost = connexion IMAP perdue : { $detail }
imap-err-server = erreur du serveur IMAP : { $detail }
imap-err-too-large = un message de { $size } octets dépasse la limite de { $limit } octets
imap-err-gone = le message d'UID { $uid } n'existe plus
imap-err-renumbered = le dossier a été renuméroté (UIDVALIDITY { $listed } -> { $current }) : relisez-le
imap-err-config = configuration IMAP incorrecte : { $detail }
conf-inbox-twice = donnez soit inbox = "chemin", soit une table [inbound], pas les deux
conf-referee = referee « { $referee } » n'est pas une adresse électronique
conf-language = langue inconnue « { $language } »
conf-retry-window = send_retry_window : { $error }
conf-retry-not-positive = send_retry_window doit être positif, pas { $value }
conf-web-listen = [web] listen = { $value } : une adresse et un port sont attendus, par exemple "127.0.0.1:8080"
map-svg-unreadable = la carte SVG est illisible : { $detail }
map-svg-size = la carte SVG a une taille vide ou impossible ({ $width }×{ $height })
map-png-encode = le PNG ne peut pas être encodé : { $detail }
cli-no-database = pas de base de données à { $database } ({ $how }) : lancez cette commande là où se trouve l'arbitre.toml du démon, ou donnez --config FICHIER ; `arbitre game create` en crée une nouvelle
cli-no-database-named-by = la base nommée par { $config }
cli-no-database-default = pas de ./arbitre.toml ici, donc la base par défaut ./var/arbitre.db
cli-readonly = la base { $file } (ou ses fichiers -wal/-shm/.lock, ou { $dir }) n'est pas accessible en écriture à cet utilisateur. Lancez chaque commande arbitre sous l'utilisateur du démon, par exemple `sudo -u arbitre arbitre --config /etc/arbitre/arbitre.toml status`, et rendez-lui les fichiers : `chown -R arbitre:arbitre { $dir }` (voir docs/operations.md)
cli-readonly-unknown = la base (ou ses fichiers -wal/-shm/.lock, ou son dossier) n'est pas accessible en écriture à cet utilisateur. Lancez chaque commande arbitre sous l'utilisateur du démon, par exemple `sudo -u arbitre arbitre --config /etc/arbitre/arbitre.toml status`, et rendez-lui les fichiers avec `chown -R arbitre:arbitre` (voir docs/operations.md)
cli-password-prompt = mot de passe (une ligne) :
cli-no-password = pas de mot de passe : donnez-le sur la première ligne de { $source }
cli-standard-input = l'entrée standard
ctx-reading = lecture de { $path }
ctx-writing = écriture de { $path }
ctx-opening-inbox = ouverture de la boîte de réception
ctx-opening-database = ouverture de la base { $db }
ctx-signal-handler = installation du gestionnaire de SIGTERM/SIGINT
ctx-web-thread = démarrage du fil du serveur web
ctx-serving-web = service des pages web sur { $listen }
err-chain = { $outer } : { $inner }
