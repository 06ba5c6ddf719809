"""The GM's own refusal reasons in the player's language (issue 10 item 1: "the reply says ...
why it is refused", item 4: reports in the player's language).

The order parser (``stellwerk.gm.orders``), the GM's understanding of an order
(``stellwerk.gm.understand``) and the session (standing orders) write their reasons in
English, where they are raised and tested.  :func:`in_language` renders such a reason in the
language of the player it answers: a table of the GM's own reason forms, each an English
pattern with its German wording; names, numbers and the order examples (which carry both
languages already) are kept as written.  A reason of the engine itself (an ``IllegalAction``
naming its rule, ``reason (rule)``) matches no form and stays English: the engine's messages
are the rules' wording of the project, and they name the rule section to look up.
"""

from __future__ import annotations

import re

LISTS = {
    "possible": "möglich", "open": "offen", "offered": "angeboten", "fits": "passt",
    "from": "von", "items": "Posten", "allowed": "erlaubt",
}  # fmt: skip
"""The words that open a parenthesised list of what is possible instead."""

TAIL = r"(?P<tail>(?: \(.*\))?)"

FORMS_DE: list[tuple[str, str]] = [
    (r"write: (?P<x>.+)", "schreibe: {x}"),
    (r"unknown order (?P<x>.+)", "unbekannter Befehl {x}"),
    (r"choose what\? write: (?P<x>.+)", "was wählen? schreibe: {x}"),
    (r"buy what\? write: (?P<x>.+)", "was kaufen? schreibe: {x}"),
    (r"which train\? write: (?P<x>.+)", "welcher Zug? schreibe: {x}"),
    (r"run what\? write: (?P<x>.+)", "was fahren? schreibe: {x}"),
    (r"cannot read (?P<x>'.*'): write (?P<y>.+)", "kann {x} nicht lesen: schreibe {y}"),
    (r"cannot read route (?P<x>'.*'): write (?P<y>.+)",
     "kann die Strecke {x} nicht lesen: schreibe {y}"),
    (r"cannot read bid (?P<x>'.*'): write (?P<y>.+)",
     "kann das Gebot {x} nicht lesen: schreibe {y}"),
    (r"rotation (?P<x>\S+): rotations are 0 to 5", "Drehung {x}: Drehungen sind 0 bis 5"),
    (r"route (?P<x>'.*') names fewer than two stops", "Strecke {x} nennt weniger als zwei Halte"),
    (r"(?P<x>\S+) without bids: write (?P<y>.+)", "{x} ohne Gebote: schreibe {y}"),
    (r"(?P<x>.+?): (?P<y>'.*') is not a number", "{x}: {y} ist keine Zahl"),
    (r"(?P<x>'.*') is not a name", "{x} ist kein Name"),
    (r"(?P<x>'.*') is not a hex \(e\.g\. H12\)", "{x} ist kein Feld (z. B. H12)"),
    (r"(?P<x>.+?) takes nothing more, found (?P<y>'.*')", "{x} nimmt nichts weiter, gefunden {y}"),
    (r"you do not preside (?P<x>\S+)", "du bist nicht Direktor von {x}"),
    (r"this is a standing order, not an order for a decision",
     "das ist ein Dauerauftrag, kein Befehl für eine Entscheidung"),
    (r"ambiguous: it fits (?P<x>\d+) choices \((?P<y>.*)\); name one",
     "mehrdeutig: passt auf {x} Möglichkeiten ({y}); nenne eine"),
    (r"ambiguous: (?P<x>\S+) is for sale from (?P<y>.*); write from \.\.\.",
     "mehrdeutig: {x} ist zu kaufen von {y}; schreibe aus ..."),
    (r"no bid on (?P<x>\S+) is possible now" + TAIL, "kein Gebot auf {x} ist jetzt möglich{tail}"),
    (r"no sealed bids are asked for now", "jetzt sind keine verdeckten Gebote gefragt"),
    (r"(?P<x>\S+) is not for sale here" + TAIL, "{x} ist hier nicht zu kaufen{tail}"),
    (r"(?P<x>\S+) cannot be started now", "{x} kann jetzt nicht gegründet werden"),
    (r"(?P<x>\S+) cannot be started at (?P<y>\S+)" + TAIL,
     "{x} kann nicht zu {y} gegründet werden{tail}"),
    (r"there is no corporation (?P<x>\S+)", "es gibt keine Gesellschaft {x}"),
    (r"no certificate of (?P<x>\S+) can be bought now",
     "jetzt kann kein Zertifikat von {x} gekauft werden"),
    (r"no certificate of (?P<x>\S+) from (?P<y>\S+)" + TAIL,
     "kein Zertifikat von {x} aus {y}{tail}"),
    (r"no certificate of (?P<x>\S+) can be sold now",
     "jetzt kann kein Zertifikat von {x} verkauft werden"),
    (r"(?P<x>\d+) of (?P<y>\S+) cannot be sold now" + TAIL,
     "{x} von {y} können jetzt nicht verkauft werden{tail}"),
    (r"(?P<x>\d+) of (?P<y>\S+) make no (?P<z>\d+)% now", "{x} von {y} ergeben jetzt nicht {z} %"),
    (r"no tile can be laid on (?P<x>\S+) now", "auf {x} kann jetzt kein Plättchen gelegt werden"),
    (r"tile (?P<x>\S+) does not fit on (?P<y>\S+)" + TAIL,
     "Plättchen {x} passt nicht auf {y}{tail}"),
    (r"tile (?P<x>\S+) cannot be laid on (?P<y>\S+) in rotation (?P<z>\S+)",
     "Plättchen {x} kann nicht in Drehung {z} auf {y} gelegt werden"),
    (r"no token can be placed now", "jetzt kann keine Marke gesetzt werden"),
    (r"no token can be placed on (?P<x>\S+)" + TAIL,
     "auf {x} kann keine Marke gesetzt werden{tail}"),
    (r"no token can be placed in city (?P<x>\S+) of (?P<y>\S+)",
     "in Stadt {x} von {y} kann keine Marke gesetzt werden"),
    (r"no train can run now", "jetzt kann kein Zug fahren"),
    (r"no dividend is to be decided now", "jetzt ist keine Dividende zu entscheiden"),
    (r"(?P<x>\S+) is not allowed now" + TAIL, "{x} ist jetzt nicht erlaubt{tail}"),
    (r"no (?P<x>\S+) train can be bought now" + TAIL,
     "jetzt kann kein {x}-Zug gekauft werden{tail}"),
    (r"(?P<x>\S+) has no (?P<y>\S+) train for sale", "{x} hat keinen {y}-Zug zu verkaufen"),
    (r"the depot has no (?P<x>\S+) train for sale", "die Bank hat keinen {x}-Zug zu verkaufen"),
    (r"name the price for (?P<x>.+)'s train: for 200",
     "nenne den Preis für den Zug von {x}: für 200"),
    (r"(?P<x>\S+) cannot be bought now", "{x} kann jetzt nicht gekauft werden"),
    (r"there is no choice to make now", "jetzt ist nichts zu wählen"),
    (r"(?P<x>.+) is not one of the choices \((?P<y>.*)\)", "{x} ist keine der Möglichkeiten ({y})"),
    (r"name the corporation: ATA: always run best and pay out",
     "nenne die Gesellschaft: ATA: immer optimal fahren und ausschütten"),
]
"""The GM's reason forms: English pattern (whole reason), German wording."""

_COMPILED = [(re.compile(pattern), german) for pattern, german in FORMS_DE]
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
