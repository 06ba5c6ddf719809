"""The game told in sentences: actions and the events they caused.

``story(game, lang)`` walks the game's journal (``stellwerk.core.events``): each ``Acted``
opens an action, the events after it are its consequences.  An action whose consequences
tell it fully (a share purchase is told by its ``SharesBought``) is not told twice
(``TOLD_BY``).  Players are named by name, corporations by their symbol (what players call
them), private companies by name; money is in the title's currency.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeGuard

from stellwerk.core import events as ev
from stellwerk.core.jsondata import JSONObject, list_at
from stellwerk.reading import Reader, reader_of
from stellwerk.words.catalog import (
    ACTIONS,
    LANGUAGES,
    WORDS,
    event_sentences,
    money,
    percent,
    step_name,
)

TOLD_BY: dict[str, tuple[type[ev.Event], ...]] = {
    "buy_shares": (ev.SharesBought,),
    "sell_shares": (ev.SharesSold,),
    "buy_train": (ev.TrainBought,),
    "run_routes": (ev.RoutesRun,),
    "dividend": (ev.DividendPaid,),
}
"""Action types told by these events when the action caused one."""

if TYPE_CHECKING:
    from stellwerk.api import Game
    from stellwerk.core.game import Game as CoreGame

MONEY_FIELDS = frozenset({"price", "revenue", "amount", "per_share", "cost", "old", "new"})


@dataclass(frozen=True)
class Line:
    """One sentence; ``action_id`` of the action it belongs to (None: before any action),
    ``auto`` for the consequences and automatic actions (told indented)."""

    action_id: int | None
    text: str
    auto: bool


class Narrator:
    """Names and phrases of one game in one language.  ``game``: an API game or its reader
    (``Game.view``; a title game itself only from the game master, until it reads the API's
    views too)."""

    def __init__(self, game: Game | Reader | CoreGame, lang: str = "en") -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"no language {lang!r} (one of {', '.join(LANGUAGES)})")
        look = reader_of(game)
        self.look = look
        self.title = look.title
        self.lang = lang
        self.actions = ACTIONS[lang]
        self.events = event_sentences(self.title, lang)
        self.words = WORDS[lang]
        self.players = {str(p.id): p.name for p in look.players()}
        self.companies = {c.sym: c.name for c in look.companies()}
        self.tile_hex: dict[str, str] = {}
        """Tile id -> hex, followed through the lays: city ids name the tile they are on."""
        self.locations: dict[str, str] = {}
        for hex_id, spec in look.board().spec.hexes.items():
            self.tile_hex[spec.preprinted_id] = hex_id
            if spec.location:
                self.locations[hex_id] = spec.location

    # -- names ------------------------------------------------------------------------------
    def name(self, ref: tuple[str, object] | None) -> str:
        """The name of an entity reference (an event's ``Ref``, or a kind and a key read from
        an action)."""
        if ref is None:
            return "-"
        kind, key = ref
        if kind == "player":
            return self.players.get(str(key), str(key))
        if kind == "company":
            return self.companies.get(str(key), str(key))
        if kind in ("pool", "bank", "depot"):
            return self.words[kind]
        return str(key)

    def entity(self, action: JSONObject) -> str:
        kind = str(action.get("entity_type", "player"))
        return self.name((kind, action.get("entity")))

    def listing(self, names: list[str]) -> str:
        """``A``, ``A and B``, ``A, B and C`` (``und`` in German)."""
        if len(names) < 2:
            return "".join(names)
        return f"{', '.join(names[:-1])} {self.words['and']} {names[-1]}"

    def shares(self, action: JSONObject) -> str:
        """The certificates of a share action by corporation and percent (``10% of SFTN``),
        never by certificate id: the id's corporation part (``SFTN_2``), the action's
        ``percent`` when it names one corporation."""
        corps: list[str] = []
        for share in list_at(action, "shares"):
            corp = str(share).rpartition("_")[0] or str(share)
            if corp not in corps:
                corps.append(corp)
        amount = action.get("percent")
        if len(corps) == 1 and isinstance(amount, int):
            return self.words["percent_of"].format(
                percent=percent(amount, self.lang), corp=corps[0]
            )
        return self.listing(corps)

    def named(self, text: str) -> str:
        """``text`` with every private company symbol replaced by the company's name."""
        for sym, name in self.companies.items():
            if sym != name and sym in text:
                text = re.sub(rf"(?<![\w-]){re.escape(sym)}(?![\w-])", name, text)
        return text

    def money(self, amount: int) -> str:
        return money(self.title, amount, self.lang)

    def hex(self, hex_id: str) -> str:
        location = self.locations.get(hex_id)
        return f"{hex_id} ({location})" if location else hex_id

    def city(self, city_id: str) -> str:
        tile_id, _, _ = city_id.rpartition("-")
        hex_id = self.tile_hex.get(tile_id)
        return self.hex(hex_id) if hex_id else city_id

    def source(self, source: ev.Ref, corp: str) -> str:
        if source == ("corporation", corp):
            return self.words["ipo"]
        if source[0] in ("pool", "bank", "depot"):
            return self.words[source[0]]
        return self.words["from"].format(name=self.name(source))

    def step(self, description: str) -> str:
        return step_name(self.title, description, self.lang)

    def round(self, event: ev.RoundStarted) -> str:
        short = event.name.removeprefix("Round::")
        template = self.words.get(f"round:{short}", self.words["round:other"])
        return template.format(name=short, turn=event.turn, num=event.round_num)

    # -- actions ----------------------------------------------------------------------------
    def action(self, action: JSONObject, spent: int) -> str:
        """The sentence of one action (its cost ``spent`` by the acting entity)."""
        kind = str(action.get("type"))
        key = kind if kind in self.actions or not kind.startswith("program_") else "program"
        template = self.actions.get(key, self.actions["other"])
        fields: dict[str, object] = {k: v for k, v in action.items() if isinstance(v, (str, int))}
        fields["entity"] = self.entity(action)
        fields["type"] = kind
        if "price" in action and isinstance(action["price"], int):
            fields["price"] = self.money(action["price"])
        target = action.get("company") or action.get("corporation") or action.get("minor")
        fields["target"] = self.companies.get(str(target), str(target or ""))
        if "company" in action:
            fields["company"] = self.companies.get(str(action["company"]), action["company"])
        if kind == "par":
            price = str(action.get("share_price", "")).split(",")[0]
            fields["price"] = self.money(int(price)) if price.isdigit() else price
        if kind in ("buy_shares", "sell_shares"):
            fields["shares"] = self.shares(action)
        if kind == "lay_tile":
            self.tile_hex[str(action["tile"])] = str(action["hex"])
            fields["hex"] = self.hex(str(action["hex"]))
            fields["tile"] = str(action["tile"]).rpartition("-")[0] or action["tile"]
        if "city" in action:
            fields["city"] = self.city(str(action["city"]))
        if kind in ("lay_tile", "place_token"):
            fields["cost"] = (
                self.actions["cost"].format(amount=self.money(spent)) if spent > 0 else ""
            )
        if kind == "choose":  # a title's choice label may name a private by its symbol
            fields["choice"] = self.named(str(action.get("choice", "")))
        if kind == "discard_train":
            fields["train_name"] = str(action.get("train", "")).split("-")[0]
        if kind == "dividend":
            fields["kind"] = self.words.get(str(action.get("kind")), str(action.get("kind")))
        if kind == "assign":
            target_id = str(action.get("target", ""))
            corp_target = action.get("target_type") == "corporation"
            fields["target"] = target_id if corp_target else self.hex(target_id)
        return _fill(template, fields)

    # -- events -----------------------------------------------------------------------------
    def event(self, event: ev.Event) -> str | None:
        """The sentence of one event (None for events told with their action)."""
        if isinstance(event, (ev.Acted, ev.Spent)):
            return None
        fields: dict[str, object] = {}
        words = self.words
        for field in dataclasses.fields(event):
            value = getattr(event, field.name)
            if field.name in MONEY_FIELDS and isinstance(value, int):
                value = self.money(value)
            elif _is_ref(value):
                value = self.name(value)
            elif isinstance(value, tuple) and all(isinstance(v, str) for v in value):
                value = self.listing(list(value))
            elif isinstance(value, bool):
                value = words.get(field.name, "") if value else ""
            fields[field.name] = value
        key = event.kind
        if isinstance(event, ev.RoundStarted):
            fields["round"] = self.round(event)
        elif isinstance(event, ev.SharesBought):
            pct = percent(event.percent, self.lang)
            which = "president_share" if event.president else "share"
            fields["certificate"] = words[which].format(percent=pct)
            fields["source"] = self.source(event.source, event.corp)
        elif isinstance(event, ev.SharesSold):
            fields["percent"] = percent(event.percent, self.lang)
        elif isinstance(event, ev.PriceMoved):
            if event.old == event.new:
                key = "price_kept"
            fields["moves"] = words["rises" if event.new > event.old else "falls"]
        elif isinstance(event, ev.TrainBought):
            fields["source"] = self.source(event.source, event.corp)
        elif isinstance(event, ev.TrainsRusted):
            counted = Counter(self.name(o) for o in event.owners if o[0] not in ("depot", "bank"))
            owners = [f"{n} ×{c}" if c > 1 else n for n, c in counted.items()]
            fields["owners"] = words["owners"].format(names=", ".join(owners)) if owners else ""
        elif isinstance(event, ev.DividendPaid):
            key = {"payout": "dividend_paid", "withhold": "dividend_withheld"}.get(
                event.allocation, "dividend_other"
            )
            if not event.revenue:
                key = "dividend_none"
            fields["allocation"] = words.get(event.allocation, event.allocation)
        elif isinstance(event, ev.RoutesRun):
            names = [t.split("-")[0] for t in event.trains]
            if not names:
                fields["trains"] = words["no_trains"]
            elif len(names) == 1:
                fields["trains"] = words["train"].format(name=names[0])
            else:
                fields["trains"] = words["trains"].format(count=len(names), names=", ".join(names))
        elif isinstance(event, ev.StepSkipped):
            fields["step"] = ", ".join(self.step(step) for step in event.step.split("\x00"))
        elif isinstance(event, (ev.CompanyClosed, ev.CompanyBought)):
            fields["company"] = self.companies.get(event.company, event.company)
        elif isinstance(event, ev.GameEnded):
            fields["reason"] = words.get(f"reason:{event.reason}", event.reason)
        template = self.events.get(key)
        if template is None:  # an event nobody wrote a sentence for: still told
            return f"{key}: " + ", ".join(f"{k} {v}" for k, v in fields.items()) + "."
        return _fill(template, fields)


def _is_ref(value: object) -> TypeGuard[ev.Ref]:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and value[0] in ("player", "corporation", "company", "pool", "bank", "depot")
    )


class _Fields(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "?"


def _fill(template: str, fields: dict[str, object]) -> str:
    return template.format_map(_Fields(fields))


def story(
    game: Game | Reader | CoreGame, lang: str = "en", skipped_steps: bool = True
) -> list[Line]:
    """Every action and event of the game as sentences, in order.  ``skipped_steps`` False
    leaves out the steps skipped automatically."""
    narrator = Narrator(game, lang)
    journal = narrator.look.journal()
    out: list[Line] = []
    i = 0
    action_id: int | None = None
    top = True
    while i < len(journal):
        event = journal[i]
        if not isinstance(event, ev.Acted):
            text = narrator.event(event)
            if text is not None and (skipped_steps or not isinstance(event, ev.StepSkipped)):
                out.append(Line(action_id, text, True))
            i += 1
            continue
        action = event.action
        j = i + 1
        while j < len(journal) and not isinstance(journal[j], ev.Acted):
            j += 1
        consequences = journal[i + 1 : j]
        found_id = action.get("id")
        if isinstance(found_id, int):
            action_id = found_id
            top = True
        else:
            top = False
        spent = sum(e.amount for e in consequences if isinstance(e, ev.Spent))
        told_by = TOLD_BY.get(str(action.get("type")), ())
        if not any(isinstance(e, told_by) for e in consequences):
            out.append(Line(action_id, narrator.action(action, spent), not top))
        for consequence in _merge_skips(consequences):
            if not skipped_steps and isinstance(consequence, ev.StepSkipped):
                continue
            text = narrator.event(consequence)
            if text is None:
                continue
            told = isinstance(consequence, told_by)
            out.append(Line(action_id, text, not (told and top)))
        i = j
    return out


def _merge_skips(events: Sequence[ev.Event]) -> list[ev.Event]:
    """Consecutive skipped steps of one entity told as one (``A skips: x, y.``)."""
    out: list[ev.Event] = []
    for event in events:
        last = out[-1] if out else None
        if (
            isinstance(event, ev.StepSkipped)
            and isinstance(last, ev.StepSkipped)
            and last.entity == event.entity
        ):
            out[-1] = ev.StepSkipped(event.entity, f"{last.step}\x00{event.step}")
        else:
            out.append(event)
    return out


def render(lines: list[Line]) -> list[str]:
    """Lines as text: action sentences flush, consequences indented."""
    return [("  " if line.auto else "") + line.text for line in lines]
