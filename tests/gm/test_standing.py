"""Standing orders (issue 10 item 2): kept as 18xx.games programmed actions where one exists,
fired at the holder's decisions, cancelled by the site's triggers, each firing and each
cancellation logged with its reason."""

from __future__ import annotations

from typing import Any

from test_refusals import position

from stellwerk.api import Game
from stellwerk.gm.phrase import order_text
from stellwerk.gm.session import Session
from stellwerk.gm.understand import player_of


def stock_position() -> tuple[Game, Any]:
    """A 1849 stock round (seeded random play) where the player to act may start a
    corporation."""
    for actions in range(30, 80):
        game = position(3, actions)
        if "Stock" not in str(game.snapshot()["round"]):
            continue
        player = player_of(game, game.active_entities()[0])
        if any(a["type"] == "par" and a["entity"] == player for a in game.legal_actions()):
            return game, player
    raise AssertionError("no stock round position with a par")


def others(game: Game, player: Any) -> list[Any]:
    return [pid for pid, _ in game.players if pid != player]


def test_issue10_item2_standing_pass_is_a_program_action_and_fires() -> None:
    game, player = stock_position()
    session = Session(game)
    answers = session.receive(player, "pass until end of round")
    assert answers[0].standing and answers[0].understood is not None
    program = game.raw_actions[-1]
    assert program["type"] == "program_share_pass" and program["entity"] == player
    fired = session.advance()
    assert fired and fired[0].standing and fired[0].understood == "pass"
    assert game.actions[-1] == {**game.actions[-1], "type": "pass", "entity": player}
    assert any("fired" in e.text for e in session.events)


def test_issue10_item2_standing_pass_is_cancelled_by_a_new_par() -> None:
    """18xx.games stops an automatic pass when another player starts a corporation after
    it was given; the cancellation is a program_disable with the reason, and logged."""
    game, player = stock_position()
    par = next(a for a in game.legal_actions() if a["type"] == "par" and a["entity"] == player)
    lines = [f"par {par['corporation']} at {par['share_price'].split(',')[0]}"]
    trial = Session(Game.from_file(game.to_file()))  # the player's whole turn, as orders
    trial.receive(player, lines[0])
    trial.advance()
    while trial.waiting_for() == [player]:
        entity = trial.game.active_entities()[0]
        action = next(a for a in trial.game.legal_actions() if a["entity"] == entity)
        lines.append(order_text(trial.game, action))
        trial.receive(player, lines[-1])
        trial.advance()
    holder = trial.waiting_for()[0]
    orders = "\n".join(lines)
    session = Session(game)
    session.receive(holder, "passe bis Rundenende")
    session.receive(player, orders)
    session.advance()
    cancelled = [e for e in session.events if e.kind == "cancelled"]
    assert cancelled and f"started {par['corporation']}" in cancelled[0].text
    disable = [a for a in game.raw_actions if a["type"] == "program_disable"]
    assert disable and disable[0]["entity"] == holder
    assert f"started {par['corporation']}" in disable[0]["reason"]
    assert holder in session.waiting_for() or game.actions[-1]["entity"] != holder


def test_issue10_item2_buy_until_percent_buys_then_stops() -> None:
    game, player = stock_position()
    session = Session(game)
    corp = next(
        a["shares"][0].rpartition("_")[0] for a in game.legal_actions()
        if a["type"] == "buy_shares" and a["entity"] == player
    )  # fmt: skip
    answers = session.receive(player, f"buy {corp} until 100%")
    assert answers[0].understood is not None, answers
    program = game.raw_actions[-1]
    assert program["type"] == "program_buy_shares" and program["corporation"] == corp
    assert program["until_condition"] == 10
    fired = session.advance()
    assert fired[0].standing and fired[0].understood is not None
    assert fired[0].understood.startswith(f"buy {corp}")


def test_issue10_item2_own_standing_order_run_best_and_pay_out() -> None:
    """ "Always run best and pay out" has no 18xx.games program: it is ours; at the run and
    the dividend of that corporation it answers by itself."""
    game = position(3, 16)
    corp = game.active_entities()[0]
    player = player_of(game, corp)
    session = Session(game)
    answers = session.receive(player, f"{corp}: immer optimal fahren und ausschütten")
    assert answers[0].understood is not None
    assert game.raw_actions == game.actions  # ours: no program action in the file
    session.receive(player, f"{corp}: pass\n{corp}: pass")
    for _ in range(5):
        session.advance()
    kinds = [a["type"] for a in game.actions if a.get("entity") == corp]
    if "run_routes" in kinds:
        assert any("fired" in e.text for e in session.events)


def test_a_standing_order_for_another_players_corporation_is_refused() -> None:
    game = position(3, 16)
    corp = game.active_entities()[0]
    stranger = next(pid for pid, _ in game.players if pid != player_of(game, corp))
    session = Session(game)
    answers = session.receive(stranger, f"{corp}: always run best and pay out")
    assert answers[0].refused is not None and corp in answers[0].refused
    assert session.standing == []
