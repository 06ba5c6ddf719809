"""How 1849's questions and their answers are said, in English and German: the presidency
swap (1849 rules §2.2), the bankruptcy loan (§6), SMS's use (§4.6) and the E-token (§7.5).

Keys are ``topic.<topic>`` and ``choice.<kind>``; facts in braces, money as
``{price:money}`` (``stellwerk.titles.contract.Presentation``).  Pure data, read by the
title's ``title.py``.
"""

from __future__ import annotations

SENTENCES: dict[str, dict[str, str]] = {
    "en": {
        "topic.presidency_swap": (
            "The presidency of {corporation} has changed: take back two 10% certificates "
            "for the 20% certificate?"
        ),
        "choice.two_tens": "Take two 10% certificates of {corporation}",
        "choice.one_twenty": "Keep the 20% certificate of {corporation}",
        "topic.bankruptcy_loan": (
            "Take a loan of {loan:money} ({penalty:money} off at the end) or leave the game?"
        ),
        "choice.take_bankruptcy_loan": "Take a loan of {loan:money}",
        "choice.leave_game": "Leave the game",
        "topic.sms_teleport": "Does {corporation} close {company} to reach any coastal city?",
        "choice.close_sms": "Close {company}: build and station in any coastal city",
        "choice.keep_sms": "Keep {company}",
        "topic.e_token": "Does {corporation} buy an E-token for {price:money}?",
        "choice.buy_e_token": "Buy an E-token for {price:money}",
        "choice.decline_e_token": "Buy no E-token",
        # the names of the steps only this title has
        "step.Presidency Swap Choice": "Presidency Swap Choice",
        "step.Bankruptcy Choice": "Bankruptcy Choice",
        "step.Emergency Money Raising": "Emergency Money Raising",
        "step.SMS Teleport": "SMS Teleport",
        "step.Assign": "Assign",
        "step.Buy E-Token": "Buy E-Token",
        "step.Pay Bond Interest": "Pay Bond Interest",
        "step.Issue Bond": "Issue Bond",
        # what a letter of the market means (rules/1849.md 1 and 6)
        "market.p": "par 68 / 100",
        "market.x": "par 144 (from the first 6H)",
        "market.z": "par 216 (from the first 10H)",
        "market.u": "entered only from phase 16H",
        "market.e": "game ends",
    },
    "de": {
        "topic.presidency_swap": (
            "Die Direktion von {corporation} hat gewechselt: zwei 10-%-Zertifikate für das "
            "20-%-Zertifikat zurücknehmen?"
        ),
        "choice.two_tens": "Zwei 10-%-Zertifikate von {corporation} nehmen",
        "choice.one_twenty": "Das 20-%-Zertifikat von {corporation} behalten",
        "topic.bankruptcy_loan": (
            "Einen Kredit von {loan:money} aufnehmen ({penalty:money} Abzug am Ende) oder "
            "das Spiel verlassen?"
        ),
        "choice.take_bankruptcy_loan": "Einen Kredit von {loan:money} aufnehmen",
        "choice.leave_game": "Das Spiel verlassen",
        "topic.sms_teleport": (
            "Schließt {corporation} {company}, um jede Küstenstadt zu erreichen?"
        ),
        "choice.close_sms": (
            "{company} schließen: in jeder Küstenstadt bauen und eine Station setzen"
        ),
        "choice.keep_sms": "{company} behalten",
        "topic.e_token": "Kauft {corporation} einen E-Marker für {price:money}?",
        "choice.buy_e_token": "Einen E-Marker für {price:money} kaufen",
        "choice.decline_e_token": "Keinen E-Marker kaufen",
        # the names of the steps only this title has
        "step.Presidency Swap Choice": "Wahl beim Direktorwechsel",
        "step.Bankruptcy Choice": "Wahl beim Bankrott",
        "step.Emergency Money Raising": "Notverkauf",
        "step.SMS Teleport": "SMS-Sprung",
        "step.Assign": "Zuweisen",
        "step.Buy E-Token": "E-Station kaufen",
        "step.Pay Bond Interest": "Anleihezinsen zahlen",
        "step.Issue Bond": "Anleihe ausgeben",
        # what a letter of the market means (rules/1849.md 1 and 6)
        "market.p": "Nennwert 68 / 100",
        "market.x": "Nennwert 144 (ab dem ersten 6H)",
        "market.z": "Nennwert 216 (ab dem ersten 10H)",
        "market.u": "erst ab Phase 16H erreichbar",
        "market.e": "Spielende",
    },
}
"""1849's question and answer sentences by language and key."""
