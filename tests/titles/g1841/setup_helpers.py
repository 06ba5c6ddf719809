"""Positions for 1841 event and game-end tests, built with core functions (no operating
round needed)."""

from __future__ import annotations

from stellwerk.core.entities import Corporation, Holder, Player, move_share
from stellwerk.core.flow.rounds import OperatingRound
from stellwerk.titles.g1841.decisions import Decisions
from stellwerk.titles.g1841.game import Game1841


def new_game(players: int = 3, options: list[str] | None = None) -> Game1841:
    return Game1841([(i, f"p{i}") for i in range(1, players + 1)], options or [], 1)


def start(
    game: Game1841,
    sym: str,
    cell_id: str,
    president: Holder,
    holdings: dict[Holder, int] | None = None,
    cash: int = 0,
) -> Corporation:
    """``sym`` started at ``cell_id`` (appended to the cell's stack), its president's
    certificate with ``president``, ordinary shares as ``holdings`` says, its printed home
    tokens placed, ``cash`` in its treasury."""
    corp = game.corporation(sym)
    cell = game.market.cell_by_id(cell_id)
    assert cell is not None
    game.set_par(corp, cell)
    corp.ipoed = corp.floated = True
    pres = corp.presidents_share
    assert pres is not None
    move_share(pres, president)
    corp.owner = president
    for holder, pct in (holdings or {}).items():
        while pct > 0:
            share = next(s for s in corp.treasury_shares() if not s.president)
            move_share(share, holder)
            pct -= share.percent
    for hid, city in game.specs[sym].homes:
        game.map.board.place_token_at(hid, max(city, 0), sym)
    game.bank.cash -= cash
    corp.cash = cash
    return corp


def operating(game: Game1841, operator: Corporation | None = None) -> OperatingRound:
    """An operating round of the floated corporations with ``operator`` operating (default:
    the first) and the Decisions step."""
    rnd = OperatingRound(game, [Decisions], 1)
    if operator is not None:
        rnd.entity_index = rnd.entities.index(operator)
    rnd.current_operator = rnd.entities[rnd.entity_index] if rnd.entities else None
    game.round = rnd
    return rnd


def answer(game: Game1841, entity: object, choice: object) -> None:
    """Answer the open question through the Decisions step."""
    step = game.round.step_of(Decisions)
    step.process({"type": "choose", "entity": 0, "choice": choice}, entity)


def asked(game: Game1841) -> tuple[object, str, list[object]] | None:
    """(entity, topic, choices) of the open question."""
    step = game.round.step_of(Decisions)
    question = step.asked()
    if question is None:
        return None
    return question.entity, question.topic, question.choices


def players(game: Game1841) -> tuple[Player, Player, Player]:
    a, b, c = game.players[:3]
    return a, b, c
