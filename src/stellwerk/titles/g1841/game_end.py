"""1841's game end and final score (rules/1841.md 1.4).

Four conditions end the game (18xx.games' GAME_END_CHECK):

* ``bankrupt``: all players but one are bankrupt -- at once;
* ``bank``: the bank is broken -- at the end of the current operating round;
* ``stock_market``: a corporation reached the L.516 cell -- at the end of the current
  operating turn (at the end of the stock round if it happened there);
* ``offboards``: every off-board group has a hex connected to some corporation's track --
  at the end of the current operating turn.

The most urgent condition that holds wins (immediate > current turn > current OR): so even a
broken bank gives way to the price or the off-boards (at the end of the operating turn, as
18xx.games).  Seed 000 item 2.27 ends the game at once ("endet das Spiel sofort",
``settings.game_end_timing == "immediate"``): right after the action that reached L.516 or
connected the last off-board group (a dividend, a tile lay, the stock round's last pass with
its end-of-round price moves), nothing of the operating turn after it is played.  Seed 003 H4
plays the current operating round to its end after the price or the off-boards
(``settings.game_end_timing == "current_or"``).

The operating round calls :func:`after_operating_turn` when a corporation's turn ends, and
:func:`record_offboards` with the hexes of every ``destination_connection`` (the track step's
automatic record of newly connected off-boards).  A bankruptcy loan (option 1 of the
bankruptcy) is taken through :func:`take_bankruptcy_loan`; the score subtracts it.

The final score is the core's player value: cash, each certificate at the market price times
the shares it represents (a 20 % minor share 1x, the 40 % minor and the 20 % major president's
certificate 2x), nothing for corporations not started, concessions at face value L.50 (all
are closed in phase 4), minus the loans (``Player.penalty``).
"""

from __future__ import annotations

from typing import Protocol

from stellwerk.core.entities import Player, transfer
from stellwerk.titles.g1841.ports import Rules, Table


class EndGame(Table, Rules, Protocol):
    """The rules and the table, with the off-board hexes reached so far and the game's end
    (:meth:`Game.check_game_end`, :meth:`Game.end_game`): what this module uses of the game
    (rules/1841.md 1.4)."""

    offboards_answer: tuple[int, bool] | None

    @property
    def offboards_connected(self) -> set[str]: ...

    @property
    def finished(self) -> bool: ...

    def check_game_end(self) -> tuple[str | None, str | None]: ...

    def end_game(self, reason: str) -> None: ...


RULE = "rules/1841.md 1.4"

BANKRUPTCY_LOAN = 500
"""What a bankrupt player who stays in borrows from the bank; subtracted from his final value
(rules/1841.md 1.4, 2.6)."""

TIMING_PRIORITY = ["immediate", "current_turn", "current_or"]
"""The most urgent first (rules/1841.md 1.4 "Priority")."""


def end_checks(game: EndGame) -> dict[str, str]:
    """Each end condition and when it ends the game (rules/1841.md 1.4; seed 000 item 2.27
    ends it at once, seed 003 H4 plays the operating round to its end after the price or the
    off-boards)."""
    late = game.settings.game_end_timing
    return {"bankrupt": "immediate", "bank": "current_or", "stock_market": late, "offboards": late}


def record_offboards(game: EndGame, hexes: list[str]) -> None:
    """Off-board hexes a corporation's track newly reaches (the ``destination_connection``
    record after a tile lay, rules/1841.md 2.3.2 step 3)."""
    groups = game.data.offboard_groups
    known = {h for members in groups.values() for h in members}
    game.offboards_connected.update(h for h in hexes if h in known)


def all_offboards_connected(game: EndGame) -> bool:
    """Every off-board group has at least one connected hex (rules/1841.md 1.4)."""
    connected = game.offboards_connected
    groups = game.data.offboard_groups
    if not connected and groups:  # asked after every action: mostly nothing is connected
        return False
    size = len(connected)  # the set only grows: its size names its contents
    known = game.offboards_answer
    if known is not None and known[0] == size:
        return known[1]
    answer = all(any(h in connected for h in members) for members in groups.values())
    game.offboards_answer = (size, answer)
    return answer


def after_operating_turn(game: EndGame) -> bool:
    """At the end of a corporation's operating turn: a price at L.516 or all off-boards
    connected end the game now (rules/1841.md 1.4, "end of the current operating turn").
    "All but one bankrupt" (immediate) is left to the check after the action, which comes
    once the frozen corporations after the turn have had theirs (18xx.games'
    ``done_operating!`` ends only ``current_turn`` triggers; 1841_game_end_bankrupt 597).
    Returns True if the game ended."""
    if game.finished:
        return True
    reason, timing = game.check_game_end()
    if reason is not None and timing == "current_turn":
        game.end_game(reason)
        return True
    return False


def end_now(game: EndGame, timing: str | None) -> bool | None:
    """Whether the game ends at the end of the round just finished, for 1841's own timing
    ``current_turn`` (a stock round ends the game when the trigger came in it, rules/1841.md
    1.4); None: the core decides (``immediate``, ``current_or``)."""
    if timing == "current_turn":
        return True
    return None


def take_bankruptcy_loan(game: EndGame, player: Player) -> None:
    """A bankrupt player who stays in receives L.500 from the bank, subtracted from his final
    value (rules/1841.md 2.6 option 1, 1.4)."""
    transfer(game.bank, player, BANKRUPTCY_LOAN, "rules/1841.md 2.6")
    player.penalty += BANKRUPTCY_LOAN
