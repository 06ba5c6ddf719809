"""How 1835's questions and their answers are said, in English and German: the Prussian
formation (rules/1835.md 10) and the optional price drop after a repeated sale (5.3).

Keys are ``topic.<topic>`` and ``choice.<kind>``; facts in braces, money as
``{price:money}``, percentages as ``{share:percent}``
(``stellwerk.titles.contract.Presentation``).  Pure data, read by the title's ``title.py``.
"""

from __future__ import annotations

SENTENCES: dict[str, dict[str, str]] = {
    "en": {
        "topic.formation": "Does {paper} start the Prussian railway {corporation} now?",
        "choice.form": "Start {corporation}: {paper} becomes its director's share",
        "choice.decline_formation": "Do not start {corporation} now",
        "topic.fold_in": "Is {paper} exchanged into {corporation} now?",
        "choice.fold_in": "Exchange {paper} for a {share:percent} share of {corporation}",
        "choice.keep_paper": "Keep {paper} for now",
        "topic.lower_price": "Lower the share price of {corporation} after the repeated sale?",
        "choice.lower_price": "Lower the share price of {corporation} by one row",
        # the names of the steps only this title has
        "step.Lay Track": "Lay Track",
        "step.Prussian Formation": "Prussian Formation",
        "step.Sell and Buy Shares": "Sell and Buy Shares",
        "step.Buy a start item": "Buy a start item",
        # what a letter of the market means (rules/1835.md 8.6)
        "market.p": "start price",
    },
    "de": {
        "topic.formation": "Gründet {paper} jetzt die Preußische Eisenbahn {corporation}?",
        "choice.form": "{corporation} gründen: {paper} wird ihr Direktoranteil",
        "choice.decline_formation": "{corporation} jetzt nicht gründen",
        "topic.fold_in": "Wird {paper} jetzt in {corporation} eingebracht?",
        "choice.fold_in": "{paper} gegen eine {share:percent}-Aktie von {corporation} tauschen",
        "choice.keep_paper": "{paper} vorerst behalten",
        "topic.lower_price": "Den Kurs von {corporation} nach dem erneuten Verkauf senken?",
        "choice.lower_price": "Den Kurs von {corporation} um eine Reihe senken",
        # the names of the steps only this title has
        "step.Lay Track": "Strecke bauen",
        "step.Prussian Formation": "Gründung der Preußischen",
        "step.Sell and Buy Shares": "Aktien verkaufen und kaufen",
        "step.Buy a start item": "Ein Angebot des Startpakets kaufen",
        # what a letter of the market means (rules/1835.md 8.6)
        "market.p": "Startkurs",
    },
}
"""1835's question and answer sentences by language and key."""
