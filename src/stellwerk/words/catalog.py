"""The sentences of the log, per language: plain format strings keyed by action type or event
kind.

Fields in braces are filled by :mod:`stellwerk.words.narrate`: entity references become
names, money fields (``price``, ``revenue``, ``amount``, ``per_share``, ``old``, ``new``,
``cost``) the title's currency.  A title that adds an event (``stellwerk.core.events``) adds
its sentences with :func:`register`; nothing else changes.
"""

from __future__ import annotations

LANGUAGES = ("en", "de")

ACTIONS: dict[str, dict[str, str]] = {
    "en": {
        "bid": "{entity} bids {price} for {target}.",
        "blind_bid": "{entity} hands in sealed bids.",
        "pass": "{entity} passes.",
        "par": "{entity} starts {corporation} at {price}.",
        "buy_shares": "{entity} buys {shares}.",
        "sell_shares": "{entity} sells {shares}.",
        "buy_company": "{entity} buys {company} for {price}.",
        "lay_tile": "{entity} lays tile #{tile} on {hex} (rotation {rotation}){cost}.",
        "place_token": "{entity} places a station token in {city}{cost}.",
        "remove_token": "{entity} removes a station token from {city}.",
        "buy_token": "{entity} buys a station token in {city} for {price}.",
        "run_routes": "{entity} runs its trains.",
        "dividend": "{entity} chooses to {kind}.",
        "buy_train": "{entity} buys the train {train} for {price}.",
        "discard_train": "{entity} discards a {train_name}-train.",
        "choose": "{entity} chooses: {choice}.",
        "merge": "{entity} merges.",
        "assign": "{entity} assigns {target}.",
        "bankrupt": "{entity} declares bankruptcy.",
        "take_loan": "{entity} takes a loan.",
        "payoff_loan": "{entity} pays off a loan.",
        "payoff_debt": "{entity} pays off its debt.",
        "end_game": "{entity} ends the game.",
        "message": "{entity} says: {message}",
        "log": "{message}",
        "program": "{entity} sets a standing order.",
        "program_share_pass": "{entity} sets a standing order: pass in this stock round.",
        "program_buy_shares": "{entity} sets a standing order to buy shares of {corporation}.",
        "program_disable": "{entity}'s standing orders end.",
        "destination_connection": "{entity} connects to its destination.",
        "other": "{entity} acts ({type}).",
        "cost": " for {amount}",
    },
    "de": {
        "bid": "{entity} bietet {price} für {target}.",
        "blind_bid": "{entity} gibt verdeckte Gebote ab.",
        "pass": "{entity} passt.",
        "par": "{entity} gründet {corporation} zum Nennwert {price}.",
        "buy_shares": "{entity} kauft {shares}.",
        "sell_shares": "{entity} verkauft {shares}.",
        "buy_company": "{entity} kauft {company} für {price}.",
        "lay_tile": "{entity} legt Plättchen #{tile} auf {hex} (Drehung {rotation}){cost}.",
        "place_token": "{entity} setzt eine Station nach {city}{cost}.",
        "remove_token": "{entity} nimmt eine Station aus {city}.",
        "buy_token": "{entity} kauft eine Station in {city} für {price}.",
        "run_routes": "{entity} fährt mit seinen Zügen.",
        "dividend": "{entity} wählt: {kind}.",
        "buy_train": "{entity} kauft den Zug {train} für {price}.",
        "discard_train": "{entity} gibt einen {train_name}-Zug ab.",
        "choose": "{entity} wählt: {choice}.",
        "merge": "{entity} fusioniert.",
        "assign": "{entity} weist {target} zu.",
        "bankrupt": "{entity} erklärt den Bankrott.",
        "take_loan": "{entity} nimmt einen Kredit auf.",
        "payoff_loan": "{entity} zahlt einen Kredit zurück.",
        "payoff_debt": "{entity} begleicht seine Schulden.",
        "end_game": "{entity} beendet das Spiel.",
        "message": "{entity} schreibt: {message}",
        "log": "{message}",
        "program": "{entity} erteilt einen Dauerauftrag.",
        "program_share_pass": "{entity} erteilt den Dauerauftrag, in dieser Aktienrunde zu passen.",
        "program_buy_shares": "{entity} erteilt den Dauerauftrag, {corporation} zu kaufen.",
        "program_disable": "Die Daueraufträge von {entity} enden.",
        "destination_connection": "{entity} erreicht sein Ziel.",
        "other": "{entity}: {type}.",
        "cost": " für {amount}",
    },
}
"""Sentences of actions whose consequences tell nothing better (see ``TOLD_BY``)."""

EVENTS: dict[str, dict[str, str]] = {
    "en": {
        "round_started": "-- {round} --",
        "shares_bought": "{buyer} buys {certificate} of {corp} {source} for {price}.",
        "shares_sold": "{seller} sells {percent} of {corp} to the market for {price}.",
        "parred": "{corp} is started at {price}.",
        "floated": "{corp} floats.",
        "price_moved": "{corp}'s share price {moves} from {old} to {new}.",
        "price_kept": "{corp}'s share price stays at {old}.",
        "president_changed": "{new} becomes president of {corp}.",
        "train_bought": "{corp} buys a {train}-train {source} for {price}.",
        "phase_changed": "Phase {phase} begins.",
        "trains_rusted": "{train}-trains rust{owners}.",
        "dividend_paid": "{corp} pays out {revenue} ({per_share} per share).",
        "dividend_withheld": "{corp} withholds {revenue}.",
        "dividend_other": "{corp} distributes {revenue} ({allocation}).",
        "dividend_none": "{corp} earns nothing.",
        "routes_run": "{corp} runs {trains} for {revenue}.",
        "step_skipped": "{entity} skips: {step}.",
        "company_closed": "{company} closes.",
        "corporation_closed": "{corp} closes.",
        "player_bankrupt": "{player} goes bankrupt.",
        "game_ended": "The game ends: {reason}.",
        "company_bought": "{buyer} wins {company} for {price}.",
    },
    "de": {
        "round_started": "-- {round} --",
        "shares_bought": "{buyer} kauft {certificate} {corp} {source} für {price}.",
        "shares_sold": "{seller} verkauft {percent} {corp} an den Pool für {price}.",
        "parred": "{corp} wird zum Nennwert {price} gegründet.",
        "floated": "{corp} nimmt den Betrieb auf.",
        "price_moved": "Der Kurs von {corp} {moves} von {old} auf {new}.",
        "price_kept": "Der Kurs von {corp} bleibt bei {old}.",
        "president_changed": "{new} wird Direktor von {corp}.",
        "train_bought": "{corp} kauft einen {train}-Zug {source} für {price}.",
        "phase_changed": "Phase {phase} beginnt.",
        "trains_rusted": "Die {train}-Züge rosten{owners}.",
        "dividend_paid": "{corp} schüttet {revenue} aus ({per_share} je Aktie).",
        "dividend_withheld": "{corp} behält {revenue} ein.",
        "dividend_other": "{corp} verteilt {revenue} ({allocation}).",
        "dividend_none": "{corp} nimmt nichts ein.",
        "routes_run": "{corp} fährt mit {trains} {revenue} ein.",
        "step_skipped": "{entity} überspringt: {step}.",
        "company_closed": "{company} wird geschlossen.",
        "corporation_closed": "{corp} wird aufgelöst.",
        "player_bankrupt": "{player} ist bankrott.",
        "game_ended": "Das Spiel endet: {reason}.",
        "company_bought": "{buyer} ersteigert {company} für {price}.",
    },
}
"""Sentences of the core's events, by kind (a few kinds have variants: ``price_kept``,
``dividend_*``); a title's own events are said by its presentation (:func:`event_sentences`)."""

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "ipo": "from the IPO",
        "pool": "from the market",
        "bank": "from the bank",
        "depot": "from the bank",
        "from": "from {name}",
        "share": "a {percent} share",
        "shares": "{percent}",
        "president_share": "the president's certificate ({percent})",
        "rises": "rises",
        "falls": "falls",
        "owners": " ({names})",
        "train": "{name}-train",
        "trains": "{count} trains ({names})",
        "no_trains": "no train",
        "payout": "pay out",
        "withhold": "withhold",
        "half": "half",
        "round:Stock": "Stock round {turn}",
        "round:Operating": "Operating round {turn}.{num}",
        "round:Auction": "Auction",
        "round:Draft": "Start packet",
        "round:Formation": "Formation round {turn}.{num}",
        "round:other": "{name} {turn}.{num}",
        "reason:bank": "the bank is broken",
        "reason:bankrupt": "a player is bankrupt",
        "reason:stock_market": "a share price reached the end of the market",
        "reason:manually_ended": "ended by hand",
        "reason:final_train": "the last train was bought",
        "reason:final_phase": "the final phase was reached",
        "reason:dnf": "did not finish",
        "reason:custom": "a title rule",
        "and": "and",
        "circular": " (circular control)",
        "percent_of": "{percent} of {corp}",
    },
    "de": {
        "ipo": "aus der Erstausgabe",
        "pool": "aus dem Pool",
        "bank": "von der Bank",
        "depot": "von der Bank",
        "from": "von {name}",
        "share": "{percent}",
        "shares": "{percent}",
        "president_share": "das Direktorzertifikat ({percent}) von",
        "rises": "steigt",
        "falls": "fällt",
        "owners": " ({names})",
        "train": "{name}-Zug",
        "trains": "{count} Zügen ({names})",
        "no_trains": "keinem Zug",
        "payout": "ausschütten",
        "withhold": "einbehalten",
        "half": "halb ausschütten",
        "round:Stock": "Aktienrunde {turn}",
        "round:Operating": "Betriebsrunde {turn}.{num}",
        "round:Auction": "Versteigerung",
        "round:Draft": "Startpaket",
        "round:Formation": "Gründungsrunde {turn}.{num}",
        "round:other": "{name} {turn}.{num}",
        "reason:bank": "die Bank ist gesprengt",
        "reason:bankrupt": "ein Spieler ist bankrott",
        "reason:stock_market": "ein Kurs hat das Ende der Kurstabelle erreicht",
        "reason:manually_ended": "von Hand beendet",
        "reason:final_train": "der letzte Zug wurde gekauft",
        "reason:final_phase": "die letzte Phase wurde erreicht",
        "reason:dnf": "nicht zu Ende gespielt",
        "reason:custom": "eine Titelregel",
        "and": "und",
        "circular": " (zirkuläre Kontrolle)",
        "percent_of": "{percent} {corp}",
        # step names (18xx.games' descriptions) in German
        "step:Lay/Upgrade Track": "Strecke bauen",
        "step:Place a Token": "Station setzen",
        "step:Place Token": "Station setzen",
        "step:Run Routes": "Züge fahren",
        "step:Pay or Withhold Dividends": "Dividende",
        "step:Buy Trains": "Züge kaufen",
        "step:Buy Train": "Züge kaufen",
        "step:Buy Companies": "Privatbahnen kaufen",
        "step:Discard Trains": "Züge abgeben",
        "step:Issue or Redeem Shares": "Aktien ausgeben oder zurückkaufen",
        "step:Buy a Token From Another Corporation": "fremde Station kaufen",
        "step:Sell then Buy Shares": "Aktien verkaufen und kaufen",
        "step:Bid on Companies": "auf Privatbahnen bieten",
        "step:Bankrupt": "Bankrott",
        "step:Choose Corporation Par Value": "Nennwert der Gesellschaft wählen",
        "step:Place Home Token": "Heimatstation setzen",
    },
}
"""Phrases the sentences are built from."""

DOLLARS = "${}"
"""Money of a game whose title is not registered."""

THOUSANDS = {"en": ",", "de": "."}


def event_sentences(title: str, lang: str = "en") -> dict[str, str]:
    """The sentences of every event of ``title`` in ``lang`` by kind: the core's
    (:data:`EVENTS`) and the title's own, its presentation's sentences ``event.<kind>``
    (English where ``lang`` has none); a title that is not registered has the core's."""
    from stellwerk.titles.registry import TITLES

    found = dict(EVENTS.get(lang, EVENTS["en"]))
    entry = TITLES.get(title)
    if entry is not None:
        own = entry.presentation.sentences
        for language in ("en", lang):
            for key, text in own.get(language, {}).items():
                if key.startswith("event."):
                    found[key.removeprefix("event.")] = text
    return found


def step_name(title: str, description: str | None, lang: str = "en") -> str:
    """The name of a step (18xx.games' description, e.g. "Lay/Upgrade Track") in ``lang``:
    the title's own (its presentation's sentence ``step.<description>``), else the common
    name of :data:`WORDS`, else the title's English one, else the description itself; empty
    for none.  A step only one title has is named by that title."""
    if not description:
        return ""
    from stellwerk.titles.registry import TITLES

    entry = TITLES.get(title)
    own = entry.presentation.sentences if entry is not None else {}
    key = f"step.{description}"
    return (
        own.get(lang, {}).get(key)
        or WORDS.get(lang, WORDS["en"]).get(f"step:{description}")
        or own.get("en", {}).get(key)
        or description
    )


def money(title: str, amount: int, lang: str = "en") -> str:
    """``amount`` in the title's currency (its ``presentation.currency``): ``L.100``,
    ``1.000 M``; dollars for a title that is not registered."""
    from stellwerk.titles.registry import TITLES

    entry = TITLES.get(title)
    if entry is not None:
        return entry.presentation.money(amount, lang)
    digits = f"{abs(amount):,}".replace(",", THOUSANDS.get(lang, ","))
    text = DOLLARS.format(digits)
    return f"-{text}" if amount < 0 else text


def percent(value: int, lang: str = "en") -> str:
    """``10%`` in English, ``10 %`` in German."""
    return f"{value} %" if lang == "de" else f"{value}%"
