"""How 1841's procedure questions and their answers are said, in English and German
(rules/1841.md 2.2.3 home stations and station tokens, 2.3.11 mergers, 2.3.12
transformations, 2.4.1 the Ferdinandea secession, 2.4.2 the Tuscan merge).

Keys are ``topic.<topic>`` for a question, ``choice.<kind>`` for an answer (the topics
and kinds of ``decisions.Question``), ``event.<kind>`` for the title's own events
(``journal.py``, told by ``stellwerk.words``) and ``step.<description>`` for the names of the
steps only 1841 has; facts in braces, money as ``{total:money}`` and
percentages as ``{share:percent}`` (``stellwerk.titles.contract.Presentation``).
Pure data: the title's ``title.py`` reads it without loading the rules.
"""

from __future__ import annotations

SENTENCES: dict[str, dict[str, str]] = {
    "en": {
        "event.g1841_merged": "{a} and {b} merge into {target} at {price}.",
        "event.g1841_transformed": "{corp} transforms into the major {target}.",
        "event.g1841_seceded": "Ferdinandea Secession: {old} splits into {a} and {b}.",
        "event.g1841_tuscan_started": "Tuscan Merge: {corps} form {formed}.",
        "event.g1841_tuscan_merged": "{formed} is formed.",
        "event.g1841_tokens_bought": "{corp} buys {count} station token(s) for {price}.",
        "event.g1841_frozen": "{corp} is frozen{circular}.",
        "event.g1841_thawed": "{corp} is no longer frozen.",
        "event.g1841_questions_dropped": (
            "The round ends: the questions still open about {corp} are dropped."
        ),
        "topic.buy_tokens": "How many station tokens does {corporation} buy?",
        "choice.buy_tokens": "Buy {count} station tokens for {total:money} ({price:money} each)",
        "choice.buy_tokens_total": "Buy {count} station tokens for {total:money}",
        "choice.buy_no_tokens": "Buy no station tokens",
        "topic.home_token": "Where does {corporation} place its home station?",
        "choice.home_token": "Place {corporation}'s home station in {hex}",
        "choice.home_token_city": "Place {corporation}'s home station in {hex}, city {city}",
        "choice.no_second_home": "No second home station for {corporation}",
        "topic.share_offer": (
            "A {share:percent} share of {corporation} is offered at {price:money}: buy it?"
        ),
        "choice.buy_share": "Buy the {share:percent} share of {corporation} for {price:money}",
        "choice.decline_share": "Decline the share of {corporation}",
        "topic.offer_again": "Does {corporation} offer its shares once more?",
        "choice.offer_again": "Offer {corporation}'s shares once more",
        "choice.end_offers": "End the offers of {corporation}'s shares",
        "topic.pick_exchange_pres": (
            "Which president's certificate replaces the one of {corporation}: {first} or {second}?"
        ),
        "choice.take_presidency_of": "Take the president's certificate of {corporation}",
        "topic.pick_exchange_corp": (
            "Which new share replaces the share of {corporation}: {first} or {second}?"
        ),
        "choice.exchange_for": "Exchange for a share of {corporation}",
        "topic.price": (
            "At which share price does {corporation} start ({first} and {second} merge)?"
        ),
        "choice.merger_price": "Start {corporation} at {price:money}",
        "topic.upgrade": (
            "{first} and {second} merge into {corporation}: how are your old shares exchanged?"
        ),
        "choice.take_presidency": (
            "Pay {cost:money} for the president's certificate of {corporation}"
        ),
        "choice.take_full_share": "Pay {cost:money} for a share of {corporation}",
        "choice.take_cash": "Take {cash:money} instead of a share of {corporation}",
        "choice.exchange_shares": "Exchange the old shares for shares of {corporation}",
        "choice.decline_presidency": "Do not take the president's certificate of {corporation}",
        "topic.remove_tokens": "Which station token of {corporation} leaves the map?",
        "choice.remove_token": "Remove {corporation}'s station token in {hex}",
        "choice.remove_token_city": "Remove {corporation}'s station token in {hex}, city {city}",
        "choice.keep_tokens": "Remove no more station tokens of {corporation}",
        # the names of the steps only this title has
        "step.Corporate Sell then Buy Shares": "Corporate Sell then Buy Shares",
        "step.Merge": "Merge",
        "step.Transform minor into major": "Transform minor into major",
        "step.Token Emergency Money Raising": "Token Emergency Money Raising",
        "step.Destinate": "Destinate",
        "step.Decisions": "Decisions",
        # what a letter of the market means (rules/1841.md 1.2)
        "market.p": "par (majors and minors)",
        "market.x": "par (majors only)",
        "market.m": "minors' maximum",
        "market.n": "maximum before phase 8",
        "market.e": "game ends",
    },
    "de": {
        "event.g1841_merged": "{a} und {b} fusionieren zu {target} zum Kurs {price}.",
        "event.g1841_transformed": "{corp} wandelt sich in die große Gesellschaft {target} um.",
        "event.g1841_seceded": "Ferdinandea-Abspaltung: {old} teilt sich in {a} und {b}.",
        "event.g1841_tuscan_started": "Toskanische Fusion: {corps} bilden {formed}.",
        "event.g1841_tuscan_merged": "{formed} ist entstanden.",
        "event.g1841_tokens_bought": "{corp} kauft {count} Station(en) für {price}.",
        "event.g1841_frozen": "{corp} ist eingefroren{circular}.",
        "event.g1841_thawed": "{corp} ist nicht mehr eingefroren.",
        "event.g1841_questions_dropped": (
            "Die Runde endet: die offenen Fragen zu {corp} entfallen."
        ),
        "topic.buy_tokens": "Wie viele Stationsmarker kauft {corporation}?",
        "choice.buy_tokens": "{count} Stationsmarker für {total:money} kaufen (je {price:money})",
        "choice.buy_tokens_total": "{count} Stationsmarker für {total:money} kaufen",
        "choice.buy_no_tokens": "Keine Stationsmarker kaufen",
        "topic.home_token": "Wohin setzt {corporation} ihren Heimatbahnhof?",
        "choice.home_token": "Heimatbahnhof von {corporation} nach {hex} setzen",
        "choice.home_token_city": (
            "Heimatbahnhof von {corporation} nach {hex}, Stadt {city} setzen"
        ),
        "choice.no_second_home": "Kein zweiter Heimatbahnhof für {corporation}",
        "topic.share_offer": (
            "Eine {share:percent}-Aktie von {corporation} wird für {price:money} angeboten: kaufen?"
        ),
        "choice.buy_share": "Die {share:percent}-Aktie von {corporation} für {price:money} kaufen",
        "choice.decline_share": "Die Aktie von {corporation} ablehnen",
        "topic.offer_again": "Bietet {corporation} ihre Aktien noch einmal an?",
        "choice.offer_again": "Aktien von {corporation} noch einmal anbieten",
        "choice.end_offers": "Angebot der Aktien von {corporation} beenden",
        "topic.pick_exchange_pres": (
            "Welches Direktorzertifikat ersetzt das von {corporation}: {first} oder {second}?"
        ),
        "choice.take_presidency_of": "Das Direktorzertifikat von {corporation} nehmen",
        "topic.pick_exchange_corp": (
            "Welche neue Aktie ersetzt die Aktie von {corporation}: {first} oder {second}?"
        ),
        "choice.exchange_for": "Gegen eine Aktie von {corporation} tauschen",
        "topic.price": (
            "Zu welchem Kurs beginnt {corporation} ({first} und {second} fusionieren)?"
        ),
        "choice.merger_price": "{corporation} zu {price:money} beginnen",
        "topic.upgrade": (
            "{first} und {second} fusionieren zu {corporation}: wie werden Ihre alten "
            "Aktien getauscht?"
        ),
        "choice.take_presidency": (
            "{cost:money} für das Direktorzertifikat von {corporation} zahlen"
        ),
        "choice.take_full_share": "{cost:money} für eine Aktie von {corporation} zahlen",
        "choice.take_cash": "{cash:money} statt einer Aktie von {corporation} nehmen",
        "choice.exchange_shares": "Die alten Aktien gegen Aktien von {corporation} tauschen",
        "choice.decline_presidency": "Das Direktorzertifikat von {corporation} nicht nehmen",
        "topic.remove_tokens": "Welcher Stationsmarker von {corporation} verlässt die Karte?",
        "choice.remove_token": "Stationsmarker von {corporation} in {hex} entfernen",
        "choice.remove_token_city": (
            "Stationsmarker von {corporation} in {hex}, Stadt {city} entfernen"
        ),
        "choice.keep_tokens": "Keine weiteren Stationsmarker von {corporation} entfernen",
        # the names of the steps only this title has
        "step.Corporate Sell then Buy Shares": "Aktien der Gesellschaft verkaufen und kaufen",
        "step.Merge": "Fusionieren",
        "step.Transform minor into major": "Kleine in große Gesellschaft umwandeln",
        "step.Token Emergency Money Raising": "Notverkauf für Stationen",
        "step.Destinate": "Ziel erreichen",
        "step.Decisions": "Entscheidungen",
        # what a letter of the market means (rules/1841.md 1.2)
        "market.p": "Nennwert (große und kleine Gesellschaften)",
        "market.x": "Nennwert (nur große Gesellschaften)",
        "market.m": "Höchstkurs kleiner Gesellschaften",
        "market.n": "Höchstkurs vor Phase 8",
        "market.e": "Spielende",
    },
}
"""1841's question and answer sentences by language and key."""
