"""The GM's own refusal reasons in the player's language: a reply says why an order is refused,
in the language the player's reports are in.

The order parser (``stellwerk.gm.orders``), the GM's understanding of an order
(``stellwerk.gm.understand``) and the session (standing orders) write their reasons in
English, where they are raised and tested.  :func:`in_language` renders such a reason in the
language of the player it answers: a table of the GM's own reason forms, each an English
pattern with its German wording; names, numbers and the order examples (which carry both
languages already) are kept as written.

The engine's own reasons (``IllegalAction(reason, rule)``):
:func:`engine_reason` renders them too, by the sentence patterns of the engine's common
refusals (:data:`ENGINE_DE`: not one's turn, cash, bid and price limits, train and token
limits, certificate and holding limits, tiles, routes, the live gate's wrappers) and keeps
the rule reference as written, after ``Regel:``.  A reason of no known pattern is given in
English with its rule, marked ``(englisch)``, so that a German player still sees the rule to
look up.  The GM's own refusal of a purchase says why where the engine can tell (the
certificate limit, the 60 % holding limit, the cash; ``understand``), in both languages.
"""

from __future__ import annotations

import re

LISTS = {
    "possible": "möglich", "open": "offen", "offered": "angeboten", "fits": "passt",
    "from": "von", "items": "Posten", "allowed": "erlaubt", "trains": "Züge",
}  # fmt: skip
"""The words that open a parenthesised list of what is possible instead."""

TAIL = r"(?P<tail>(?: \(.*\))?)"

FORMS_DE: list[tuple[str, str]] = [
    # standing orders ended (stellwerk.gm.standing) and default orders' notes (defaults)
    (r"(?P<x>\S+) has floated", "{x} ist in Betrieb"),
    (r"(?P<x>\d+)% of (?P<y>\S+) held", "{x}% von {y} im Besitz"),
    (
        r"no certificate of (?P<x>\S+) can be bought from (?P<y>\S+)",
        "kein Zertifikat von {x} aus {y} zu kaufen",
    ),
    (r"(?P<x>\S+) is no longer for sale", "{x} ist nicht mehr zu haben"),
    (
        r"the price of (?P<x>\S+) \((?P<y>\d+)\) is above (?P<z>\S+)",
        "der Preis von {x} ({y}) liegt über {z}",
    ),
    (r"(?P<x>.+) sold shares", "{x} hat Aktien verkauft"),
    (r"(?P<x>.+) started (?P<y>\S+)", "{x} hat {y} gegründet"),
    (r"(?P<x>.+) bought into (?P<y>\S+)", "{x} hat Aktien von {y} gekauft"),
    (r"no bids", "keine Gebote"),
    (r"best routes", "beste Strecken"),
    (r"pay out", "ausschütten"),
    (r"pass", "passen"),
    (r"decline", "ablehnen"),
    (r"compulsory train, the cheapest", "Pflichtzug, der billigste"),
    (r"the smallest forced sale", "der kleinste Zwangsverkauf"),
    (r"bankrupt: nothing else is possible", "bankrott: nichts anderes ist möglich"),
    (r"drawn (?P<x>\d+) of (?P<y>\d+) \(seed (?P<z>\S+)\)", "gezogen: {x} von {y} (Startwert {z})"),
    (r"take the cash \(house rule\)", "nimm das Geld (Hausregel)"),
    (r"buy no tokens \(house rule\)", "kaufe keine Marken (Hausregel)"),
    (
        r"buy no tokens beyond the (?P<x>\d+) the rules require \(house rule\)",
        "kaufe keine Marken über die {x} hinaus, die die Regeln verlangen (Hausregel)",
    ),
    # mails (stellwerk.gm.mail, stellwerk.gm.master)
    (
        r"the address (?P<x>\S+) is no player's in game (?P<y>\S+)",
        "die Adresse {x} gehört keinem Spieler der Partie {y}",
    ),
    (
        r"the address (?P<x>\S+) is no player's in any game",
        "die Adresse {x} gehört keinem Spieler einer Partie",
    ),
    (
        r"(?P<x>\S+) plays in the games (?P<y>.+): name the game in the subject as (?P<z>\S+)",
        "{x} spielt in den Partien {y}: nenne die Partie im Betreff, etwa {z}",
    ),
    (
        r"the subject names the game (?P<x>\S+), which this game master does not run",
        "der Betreff nennt die Partie {x}, die diese Spielleitung nicht leitet",
    ),
    (
        r"no game (?P<x>\S+) in the configuration \(games: (?P<y>.*)\)",
        "keine Partie {x} in der Konfiguration (Partien: {y})",
    ),
    (
        r"a mail from (?P<x>.+) claims to be for player (?P<y>.+): each player sends their own "
        r"orders",
        "eine Mail von {x} gibt sich als Mail für Spieler {y} aus: jeder schickt seine eigenen "
        "Befehle",
    ),
    (r"the game (?P<x>\S+) has not been started", "die Partie {x} wurde nicht begonnen"),
    (r"(?P<x>.+) does not play in the game (?P<y>\S+)", "{x} spielt nicht in der Partie {y}"),
    (r"the mail is larger than (?P<x>\d+) KB", "die Mail ist größer als {x} KB"),
    (
        r"the mail carries no Authentication-Results of (?P<x>\S+)",
        "die Mail trägt kein Authentication-Results von {x}",
    ),
    (r"(?P<x>\S+) found (?P<y>\S+=fail) for (?P<z>\S+)", "{x} meldet {y} für {z}"),
    (
        r"(?P<x>\S+) found no DMARC, DKIM or SPF pass for (?P<y>\S+)",
        "{x} meldet für {y} kein pass von DMARC, DKIM oder SPF",
    ),
    (
        r"the mail lacks your secret word \(a line secret: WORD; your report gave it\)",
        "der Mail fehlt dein Geheimwort (eine Zeile geheim: WORT; deine Auswertung nannte es)",
    ),
    (r"write: (?P<x>.+)", "schreibe: {x}"),
    (r"unknown order (?P<x>.+)", "unbekannter Befehl {x}"),
    (r"choose what\? write: (?P<x>.+)", "was wählen? schreibe: {x}"),
    (r"buy what\? write: (?P<x>.+)", "was kaufen? schreibe: {x}"),
    (r"which train\? write: (?P<x>.+)", "welcher Zug? schreibe: {x}"),
    (r"run what\? write: (?P<x>.+)", "was fahren? schreibe: {x}"),
    (r"cannot read (?P<x>'.*'): write (?P<y>.+)", "kann {x} nicht lesen: schreibe {y}"),
    (
        r"cannot read route (?P<x>'.*'): write (?P<y>.+)",
        "kann die Strecke {x} nicht lesen: schreibe {y}",
    ),
    (
        r"cannot read bid (?P<x>'.*'): write (?P<y>.+)",
        "kann das Gebot {x} nicht lesen: schreibe {y}",
    ),
    (r"rotation (?P<x>\S+): rotations are 0 to 5", "Drehung {x}: Drehungen sind 0 bis 5"),
    (r"route (?P<x>'.*') names fewer than two stops", "Strecke {x} nennt weniger als zwei Halte"),
    (r"(?P<x>\S+) without bids: write (?P<y>.+)", "{x} ohne Gebote: schreibe {y}"),
    (r"(?P<x>.+?): (?P<y>'.*') is not a number", "{x}: {y} ist keine Zahl"),
    (r"(?P<x>'.*') is not a name", "{x} ist kein Name"),
    (r"(?P<x>'.*') is not a hex \(e\.g\. H12\)", "{x} ist kein Feld (z. B. H12)"),
    (r"(?P<x>.+?) takes nothing more, found (?P<y>'.*')", "{x} nimmt nichts weiter, gefunden {y}"),
    (r"you do not preside (?P<x>\S+)", "du bist nicht Direktor von {x}"),
    (r"the game has ended", "das Spiel ist zu Ende"),
    (r"ended: the game is over", "beendet: das Spiel ist zu Ende"),
    (
        r"ended: its decision has passed \(a later order was used\)",
        "beendet: seine Entscheidung ist vorbei (ein späterer Befehl wurde verwendet)",
    ),
    (
        r"ended: its decision has passed \(settled by a standing or default order\)",
        "beendet: seine Entscheidung ist vorbei (durch einen Dauerauftrag oder eine Vorgabe "
        "entschieden)",
    ),
    (r"the game is over", "das Spiel ist zu Ende"),
    (
        r"the stock round it was given in has ended",
        "die Aktienrunde, in der er gegeben wurde, ist zu Ende",
    ),
    (r"cancelled by the player", "vom Spieler gelöscht"),
    (
        r"this is a standing order, not an order for a decision",
        "das ist ein Dauerauftrag, kein Befehl für eine Entscheidung",
    ),
    (
        r"ambiguous: it fits (?P<x>\d+) choices \((?P<y>.*)\); name one",
        "mehrdeutig: passt auf {x} Möglichkeiten ({y}); nenne eine",
    ),
    (
        r"ambiguous: (?P<x>\S+) is for sale from (?P<y>.*); write from \.\.\.",
        "mehrdeutig: {x} ist zu kaufen von {y}; schreibe aus ...",
    ),
    (r"no bid on (?P<x>\S+) is possible now" + TAIL, "kein Gebot auf {x} ist jetzt möglich{tail}"),
    (r"no sealed bids are asked for now", "jetzt sind keine verdeckten Gebote gefragt"),
    (r"(?P<x>\S+) is not for sale here" + TAIL, "{x} ist hier nicht zu kaufen{tail}"),
    (r"(?P<x>\S+) cannot be started now", "{x} kann jetzt nicht gegründet werden"),
    (
        r"(?P<x>\S+) cannot be started at (?P<y>\S+)" + TAIL,
        "{x} kann nicht zu {y} gegründet werden{tail}",
    ),
    (r"there is no corporation (?P<x>\S+)", "es gibt keine Gesellschaft {x}"),
    (
        r"no certificate of (?P<x>\S+) can be bought now",
        "jetzt kann kein Zertifikat von {x} gekauft werden",
    ),
    (
        r"no certificate of (?P<x>\S+) from (?P<y>\S+)" + TAIL,
        "kein Zertifikat von {x} aus {y}{tail}",
    ),
    (
        r"no certificate of (?P<x>\S+) can be sold now",
        "jetzt kann kein Zertifikat von {x} verkauft werden",
    ),
    (
        r"(?P<x>\d+) of (?P<y>\S+) cannot be sold now" + TAIL,
        "{x} von {y} können jetzt nicht verkauft werden{tail}",
    ),
    (r"(?P<x>\d+) of (?P<y>\S+) make no (?P<z>\d+)% now", "{x} von {y} ergeben jetzt nicht {z} %"),
    (r"no tile can be laid on (?P<x>\S+) now", "auf {x} kann jetzt kein Plättchen gelegt werden"),
    (
        r"tile (?P<x>\S+) does not fit on (?P<y>\S+)" + TAIL,
        "Plättchen {x} passt nicht auf {y}{tail}",
    ),
    (
        r"tile (?P<x>\S+) cannot be laid on (?P<y>\S+) in rotation (?P<z>\S+)",
        "Plättchen {x} kann nicht in Drehung {z} auf {y} gelegt werden",
    ),
    (r"no token can be placed now", "jetzt kann keine Marke gesetzt werden"),
    (
        r"no token can be placed on (?P<x>\S+)" + TAIL,
        "auf {x} kann keine Marke gesetzt werden{tail}",
    ),
    (
        r"no token can be placed in city (?P<x>\S+) of (?P<y>\S+)" + TAIL,
        "in Stadt {x} von {y} kann keine Marke gesetzt werden{tail}",
    ),
    (r"no train can run now", "jetzt kann kein Zug fahren"),
    (r"no dividend is to be decided now", "jetzt ist keine Dividende zu entscheiden"),
    (r"(?P<x>\S+) is not allowed now" + TAIL, "{x} ist jetzt nicht erlaubt{tail}"),
    (
        r"no (?P<x>\S+) train can be bought now" + TAIL,
        "jetzt kann kein {x}-Zug gekauft werden{tail}",
    ),
    (r"(?P<x>\S+) has no (?P<y>\S+) train for sale", "{x} hat keinen {y}-Zug zu verkaufen"),
    (r"the depot has no (?P<x>\S+) train for sale", "die Bank hat keinen {x}-Zug zu verkaufen"),
    (
        r"name the price for (?P<x>.+)'s train: for 200",
        "nenne den Preis für den Zug von {x}: für 200",
    ),
    (r"(?P<x>\S+) cannot be bought now", "{x} kann jetzt nicht gekauft werden"),
    (r"there is no choice to make now", "jetzt ist nichts zu wählen"),
    (r"(?P<x>.+) is not one of the choices \((?P<y>.*)\)", "{x} ist keine der Möglichkeiten ({y})"),
    (
        r"name the corporation: ATA: always run best and pay out",
        "nenne die Gesellschaft: ATA: immer optimal fahren und ausschütten",
    ),
]
"""The GM's reason forms: English pattern (whole reason), German wording."""

FORMS_DE += [
    (
        r"no certificate of (?P<x>\S+) can be bought now: the certificate limit \((?P<y>\d+) of "
        r"(?P<z>\d+) held\)",
        "jetzt kann kein Zertifikat von {x} gekauft werden: das Zertifikatslimit ist erreicht "
        "({y} von {z})",
    ),
    (
        r"no certificate of (?P<x>\S+) can be bought now: (?P<y>\S+) holds (?P<z>\d+)% of it, at "
        r"most (?P<w>\d+)% are allowed",
        "jetzt kann kein Zertifikat von {x} gekauft werden: {y} hält {z} % davon, erlaubt sind "
        "höchstens {w} %",
    ),
    (
        r"no certificate of (?P<x>\S+) can be bought now: (?P<y>.+?) has (?P<z>\d+), the "
        r"cheapest costs (?P<w>\d+)",
        "jetzt kann kein Zertifikat von {x} gekauft werden: {y} hat {z}, das billigste kostet {w}",
    ),
    (
        r"no certificate of (?P<x>\S+) can be bought now: (?P<y>.+?) is not to buy now",
        "jetzt kann kein Zertifikat von {x} gekauft werden: {y} ist jetzt nicht am Zug zum Kaufen",
    ),
    (r"no tokens are to be bought now", "jetzt sind keine Marken zu kaufen"),
    (
        r"(?P<x>\d+) tokens cannot be bought now" + TAIL,
        "{x} Marken können jetzt nicht gekauft werden{tail}",
    ),
    (
        r"no merger or transformation can be proposed now",
        "jetzt kann keine Fusion oder Umwandlung vorgeschlagen werden",
    ),
    (r"no token is to be removed now", "jetzt ist keine Marke zu entfernen"),
    (
        r"no token can be removed on (?P<x>\S+)" + TAIL,
        "auf {x} kann keine Marke entfernt werden{tail}",
    ),
    (
        r"no token can be removed in city (?P<x>\S+) of (?P<y>\S+)" + TAIL,
        "in Stadt {x} von {y} kann keine Marke entfernt werden{tail}",
    ),
    (
        r"no token can be bought in city (?P<x>\S+) of (?P<y>\S+)" + TAIL,
        "in Stadt {x} von {y} kann keine Marke gekauft werden{tail}",
    ),
    (
        r"city (?P<x>'.*'): write the city's number \(city 1\) or its id \(city 57-0-0\)",
        "Stadt {x}: schreibe die Nummer der Stadt (stadt 1) oder ihre Kennung (stadt 57-0-0)",
    ),
    (r"no train is to be discarded now", "jetzt ist kein Zug abzuwerfen"),
    (r"no (?P<x>\S+) train can be discarded" + TAIL, "kein {x}-Zug kann abgeworfen werden{tail}"),
    (r"nothing can be assigned now", "jetzt ist nichts zuzuweisen"),
    (r"(?P<x>\S+) cannot be assigned to" + TAIL, "{x} ist kein mögliches Ziel{tail}"),
    (r"there is no debt you can pay now", "jetzt sind keine Schulden zu bezahlen"),
    (r"no bond can be issued now", "jetzt kann keine Anleihe ausgegeben werden"),
    (r"no bond can be repaid now", "jetzt kann keine Anleihe zurückgezahlt werden"),
    (r"more tokens must be removed first", "erst müssen weitere Marken entfernt werden"),
    (r"no token can be bought now", "jetzt kann keine Marke gekauft werden"),
    (
        r"no token can be bought on (?P<x>\S+)" + TAIL,
        "auf {x} kann keine Marke gekauft werden{tail}",
    ),
    (r"no such token can be bought on (?P<x>\S+)", "diese Marke auf {x} ist nicht zu kaufen"),
    (r"name the price: for (?P<x>\d+) to (?P<y>\d+)", "nenne den Preis: für {x} bis {y}"),
    (
        r"this bankruptcy option is not offered now",
        "diese Art des Bankrotts ist jetzt nicht möglich",
    ),
    (r"bankruptcy is not offered now", "Bankrott ist jetzt nicht möglich"),
    (
        r"no (?P<x>\d+)% certificate of (?P<y>\S+) is for sale there",
        "dort ist kein {x}-%-Zertifikat von {y} zu kaufen",
    ),
]

ENGINE_DE: list[tuple[str, str]] = [
    # the live gate (core/live.py): turn order and the listed spaces
    (r"the game is over", "das Spiel ist zu Ende"),
    (r"(?P<x>.+?) may not act now", "{x} ist jetzt nicht am Zug"),
    (r"(?P<x>.+?) has no (?P<y>\S+) to make now", "{x} hat jetzt kein {y} zu machen"),
    (
        r"(?P<x>\S+) is not allowed now: the current step is '(?P<y>.*)'",
        "{x} ist jetzt nicht erlaubt: der aktuelle Schritt ist '{y}'",
    ),
    (r"no step takes (?P<x>\S+) from (?P<y>.+?) now", "kein Schritt nimmt jetzt {x} von {y} an"),
    (r"no step accepts (?P<x>\S+) now", "kein Schritt nimmt jetzt {x} an"),
    (
        r"this (?P<x>\S+) is not a legal choice now \((?P<y>.*)\); offered: (?P<z>.*)",
        "dieses {x} ist jetzt nicht erlaubt ({y}); angeboten: {z}",
    ),
    (
        r"the price for (?P<x>.+?) is (?P<y>\S+), not (?P<z>\S+)",
        "der Preis für {x} ist {y}, nicht {z}",
    ),
    (
        r"the price for (?P<x>.+?) must be at least the minimum (?P<y>\S+) and at most (?P<z>\S+), "
        r"not (?P<w>\S+)",
        "der Preis für {x} muss mindestens {y} und höchstens {z} sein, nicht {w}",
    ),
    (
        r"price must be between (?P<x>\S+) and (?P<y>\S+)",
        "der Preis muss zwischen {x} und {y} liegen",
    ),
    (r"(?P<x>\S+) (?P<y>'.*') is not offered", "{x} {y} wird nicht angeboten"),
    (r"the field (?P<x>'.*') is missing", "das Feld {x} fehlt"),
    (r"certificates (?P<x>.+) are not offered", "die Zertifikate {x} werden nicht angeboten"),
    (r"(?P<x>.+) make (?P<y>\d+) %, not (?P<z>\d+) %", "{x} ergeben {y} %, nicht {z} %"),
    (r"train (?P<x>\S+) is not offered", "Zug {x} wird nicht angeboten"),
    (r"bids are not offered", "diese Gebote sind nicht möglich"),
    # cash
    (r"(?P<x>.+?) cannot afford (?P<y>.+)", "{x} kann sich {y} nicht leisten"),
    (
        r"(?P<x>.+?) has (?P<y>\S+) and cannot pay (?P<z>\S+)",
        "{x} hat {y} und kann {z} nicht bezahlen",
    ),
    (r"(?P<x>.+?) has not the cash for this train", "{x} hat nicht das Geld für diesen Zug"),
    (r"(?P<x>.+?) cannot pay (?P<y>\S+)", "{x} kann {y} nicht bezahlen"),
    (r"(?P<x>.+?) cannot spend (?P<y>\S+)", "{x} kann {y} nicht ausgeben"),
    (
        r"the bids total (?P<x>\S+), more than (?P<y>.+?)'s cash (?P<z>\S+)",
        "die Gebote ergeben zusammen {x}, mehr als das Geld von {y} ({z})",
    ),
    # auctions and the stock round (certificate limit and 60 % rule name their rule)
    (
        r"the minimum bid for (?P<x>\S+) is (?P<y>\S+), not (?P<z>\S+)",
        "das Mindestgebot für {x} ist {y}, nicht {z}",
    ),
    (r"minimum bid for (?P<x>\S+) is (?P<y>\S+)", "das Mindestgebot für {x} ist {y}"),
    (r"no auction is running", "es läuft keine Versteigerung"),
    (r"(?P<x>.+?) may not buy (?P<y>\S+) now", "{x} darf {y} jetzt nicht kaufen"),
    (r"(?P<x>.+?) may not sell (?P<y>\S+) now", "{x} darf {y} jetzt nicht verkaufen"),
    (r"(?P<x>.+?) may not start (?P<y>\S+) now", "{x} darf {y} jetzt nicht gründen"),
    (r"(?P<x>.+?) may not start (?P<y>\S+)", "{x} darf {y} nicht gründen"),
    (r"(?P<x>.+?) cannot start (?P<y>\S+) at (?P<z>\S+)", "{x} kann {y} nicht zu {z} gründen"),
    (r"(?P<x>\S+) is not a par price now", "{x} ist jetzt kein Gründungskurs"),
    (r"only one purchase per turn", "nur ein Kauf pro Zug"),
    (r"(?P<x>.+?) must sell shares first", "{x} muss zuerst Aktien verkaufen"),
    (r"(?P<x>.+?) need not sell now", "{x} muss jetzt nicht verkaufen"),
    (r"(?P<x>.+?) cannot get (?P<y>\d+)% of (?P<z>\S+)", "{x} kann nicht {y} % von {z} bekommen"),
    (r"(?P<x>\S+) is not for sale", "{x} ist nicht zu verkaufen"),
    (r"(?P<x>\S+) cannot be bought now", "{x} kann jetzt nicht gekauft werden"),
    # trains
    (r"(?P<x>\S+) is at its train limit", "{x} hat sein Zuglimit erreicht"),
    (r"(?P<x>\S+) must buy the cheapest train", "{x} muss den billigsten Zug kaufen"),
    (r"(?P<x>\S+) must sell shares before buying", "{x} muss vor dem Kauf Aktien verkaufen"),
    # tiles and tokens
    (
        r"(?P<x>\S+) tiles are not available in this phase",
        "Plättchen der Farbe {x} gibt es in dieser Phase nicht",
    ),
    (r"(?P<x>\S+) may not be upgraded now", "{x} darf jetzt nicht ausgebaut werden"),
    (r"(?P<x>\S+) was already laid on this turn", "auf {x} wurde in diesem Zug schon gelegt"),
    (r"(?P<x>\S+) has laid its tiles", "{x} hat seine Plättchen gelegt"),
    (r"(?P<x>\S+) cannot reach (?P<y>\S+)", "{x} kann {y} nicht erreichen"),
    (r"(?P<x>\S+) is blocked by a private company", "{x} ist von einer Privatbahn blockiert"),
    (r"(?P<x>\S+) is reserved for a home", "{x} ist für eine Heimatstation reserviert"),
    (r"Tile (?P<x>\S+) is not in the supply", "Plättchen {x} ist nicht mehr vorrätig"),
    (
        r"New track must keep every old city and town",
        "die neue Strecke muss alle alten Städte und Orte behalten",
    ),
    (
        r"Must use new track or change city value",
        "es muss neue Strecke entstehen oder der Stadtwert sich ändern",
    ),
    (
        r"No new exit on (?P<x>\S+) is reached by (?P<y>\S+)",
        "{y} erreicht keinen neuen Ausgang auf {x}",
    ),
    (r"(?P<x>\S+) cannot place a token in (?P<y>\S+)", "{x} kann in {y} keine Marke setzen"),
    (
        r"(?P<x>\S+) cannot reach a free slot in (?P<y>\S+)",
        "{x} erreicht in {y} keinen freien Platz",
    ),
    (r"(?P<x>\S+) has no token (?:left|to place)", "{x} hat keine Marke mehr"),
    (r"(?P<x>\S+) cannot buy (?P<y>\d+) tokens", "{x} kann keine {y} Marken kaufen"),
    (r"this token cannot be bought", "diese Marke kann nicht gekauft werden"),
    # routes
    (r"Route must contain token", "die Strecke muss eine eigene Marke enthalten"),
    (r"Route must have at least 2 stops", "die Strecke braucht mindestens 2 Halte"),
    (
        r"Route cannot reuse track on (?P<x>\S+)",
        "die Strecke darf Gleis auf {x} nicht zweimal benutzen",
    ),
    (r"Route cannot pass through (?P<x>.+)", "die Strecke darf nicht durch {x} fahren"),
    (r"Only one route may visit (?P<x>\S+)", "nur eine Strecke darf {x} besuchen"),
    (r"(?P<x>\S+) is too long for a (?P<y>\S+) train", "{x} ist zu lang für einen {y}-Zug"),
    (r"(?P<x>\S+) cannot run twice", "{x} kann nicht zweimal fahren"),
    (r"(?P<x>\S+) already ran", "{x} ist schon gefahren"),
    (r"No track of (?P<x>\S+) matches (?P<y>\S+)", "keine Strecke von {x} passt zu {y}"),
    (r"Train (?P<x>\S+) may run only once", "Zug {x} darf nur einmal fahren"),
]
"""The engine's common refusal sentences (English pattern, German wording); the rule
reference after the sentence is kept as written."""

_COMPILED = [(re.compile(pattern), german) for pattern, german in FORMS_DE]
_ENGINE = [(re.compile(pattern), german) for pattern, german in ENGINE_DE]


def engine_reason(reason: str, rule: str, lang: str) -> str:
    """The engine's refusal ``reason (rule)`` in ``lang``: German by :data:`ENGINE_DE` (a
    wrapper's inner reason rendered too), else English marked ``(englisch)``; the rule is
    kept as written."""
    if lang != "de":
        return f"{reason} ({rule})" if rule else reason
    german = _engine_de(reason.replace("\x00", ""))
    if german is None:
        return f"{reason} (englisch; {rule})" if rule else f"{reason} (englisch)"
    return f"{german} (Regel: {rule})" if rule else german


def _engine_de(reason: str) -> str | None:
    for pattern, german in _ENGINE:
        match = pattern.fullmatch(reason)
        if match is not None:
            parts = match.groupdict()
            if "y" in parts and pattern.pattern.startswith("this "):  # the wrapped reason
                parts["y"] = _engine_de(parts["y"]) or parts["y"]
            return german.format(**parts)
    return None


_LIST = re.compile(r"\((" + "|".join(LISTS) + r"): ")


def in_language(reason: str, lang: str) -> str:
    """``reason`` (one of the GM's forms, in English) in ``lang``; a reason of no known form
    (the engine's own) is returned as it is."""
    if lang != "de":
        return reason
    for pattern, german in _COMPILED:
        match = pattern.fullmatch(reason)
        if match is not None:
            parts = match.groupdict()
            if parts.get("tail"):
                parts["tail"] = _LIST.sub(lambda m: f"({LISTS[m.group(1)]}: ", parts["tail"])
            return german.format(**parts)
    return reason
