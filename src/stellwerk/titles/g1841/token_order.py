"""The order of a corporation's tokens (which railhead a tile lay is charged to, rules/1841.md
2.3.3).

A major lays one tile per railhead and each lay must come from a railhead no earlier lay of the
turn used.  When one new track reaches two unused railheads, the rules do not say which is
used up; 18xx.games takes the first of the corporation's tokens in its charter order, and that
choice decides whether a second lay is still legal (a later lay may reach only the other one).
We keep the same order so that the same lays are legal:

* a token placed takes the first free place of the charter (a place freed by a token that left
  the map, e.g. one bought by another corporation, else a new one at the end);
* a transformed minor's tokens keep their order in the new major; a merger's target has the
  acting corporation's tokens, then its partner's; the secession's corporations IRSFF's in its
  order; a restarted corporation starts with an empty charter.

The order is kept per corporation as a list of hexes (``None`` a free place) and brought up to
date after every action (:func:`updated`): tokens gone leave their place free, new ones fill
free places in hex order (a single action places at most one token outside the procedures,
which set the order themselves with :func:`adopt`).  The game's order is replaced, never
changed in place (the last answer is kept for the very object asked about, :mod:`.kept`).
"""

from __future__ import annotations

from typing import Protocol

from stellwerk.core.entities import Corporation
from stellwerk.core.map.graph import NodeKey
from stellwerk.titles.g1841.kept import Order, TokenOrderKept
from stellwerk.titles.g1841.ports import Board


class TokenOrderGame(Board, Protocol):
    """The board and the order of the tokens the game keeps (:attr:`token_order`, with its
    last answer, :attr:`token_order_kept`): what this module uses of the game."""

    token_order: Order

    @property
    def token_order_kept(self) -> TokenOrderKept: ...


def token_hexes(game: TokenOrderGame, sym: str) -> list[str]:
    """Hexes where ``sym`` has a token now, in board order (each once)."""
    return list(dict.fromkeys(game.map.board.tokens_by_corporation().get(sym, ())))


def _answer(game: TokenOrderGame) -> tuple[Order, bool]:
    """:func:`_updated` and whether it equals the order given, taken again while the tokens on
    the board (the board's index of them, which is all it reads of the board) and the order
    given are the same as last time (do not change the answer); the last answer is kept on
    the game (``Game1841.token_order_kept``, :mod:`.kept`)."""
    index = game.map.board.tokens_by_corporation()
    given = game.token_order
    kept = game.token_order_kept
    last = kept.found(index, given)
    if last is not None:
        return last
    out = _updated(game)
    same = out == given
    kept.keep(index, given, _copied(out), same)
    return out, same


def updated(game: TokenOrderGame) -> Order:
    """Every corporation's order brought up to date with the board (changes nothing)."""
    return _copied(_answer(game)[0])


def changed(game: TokenOrderGame) -> Order | None:
    """:func:`updated` if it differs from the game's order, else None (asked after every
    action; most change no token)."""
    out, same = _answer(game)
    return None if same else _copied(out)


def _copied(order: Order) -> Order:
    return {sym: list(slots) for sym, slots in order.items()}


def _updated(game: TokenOrderGame) -> Order:
    index = game.map.board.tokens_by_corporation()
    given = game.token_order
    out: dict[str, list[str | None]] = {}
    for sym in sorted(set(given) | set(index)):
        hexes = index.get(sym)
        on_map = list(dict.fromkeys(hexes)) if hexes else []  # board order, each hex once
        slots = placed(given.get(sym, []), on_map)
        for hid in slots:  # (no generator: asked after every token change)
            if hid is not None:
                out[sym] = slots
                break
    return out


def placed(slots: list[str | None], hexes: list[str]) -> list[str | None]:
    """The order ``slots`` for the tokens now on ``hexes`` (each once): the places of tokens
    gone are freed, new tokens fill the first free places (then the end), in the order
    given.  Tokens that are all where the order has them keep it as it is (most
    corporations, whenever any token changes)."""
    here = set(hexes)
    if len(slots) == len(here) and here == set(slots):  # (so no free place, no repeat)
        return list(slots)
    out = [h if h in here else None for h in slots]
    for hid in hexes:
        if hid in out:
            continue
        if None in out:
            out[out.index(None)] = hid
        else:
            out.append(hid)
    return out


def adopt(game: TokenOrderGame, target: Corporation, sources: list[Corporation]) -> None:
    """``target`` takes the tokens ``sources`` have on the map, in their order one after the
    other (a transformation, a merger); call it before the tokens change hands."""
    order: list[str | None] = []
    for src in sources:
        here = set(token_hexes(game, src.sym))
        order += [h for h in game.token_order.get(src.sym, []) if h is not None and h in here]
        order += [h for h in token_hexes(game, src.sym) if h not in order]
    game.token_order = {**game.token_order, target.sym: order}


def split(game: TokenOrderGame, old: Corporation, parts: list[Corporation]) -> None:
    """Each of ``parts`` takes the tokens of ``old`` it now has, in ``old``'s order (the
    secession; :func:`updated` then adds any it did not have in that order)."""
    order = [h for h in game.token_order.get(old.sym, []) if h is not None]
    new = dict(game.token_order)
    for part in parts:
        mine = set(token_hexes(game, part.sym))
        new[part.sym] = [h for h in order if h in mine]
    game.token_order = new


def clear(game: TokenOrderGame, corp: Corporation) -> None:
    """A restarted or closed corporation has no tokens and an empty charter."""
    if corp.sym in game.token_order:
        game.token_order = {s: o for s, o in game.token_order.items() if s != corp.sym}


def ordered_hexes(game: TokenOrderGame, sym: str) -> list[str]:
    """The hexes of ``sym``'s tokens on the map in charter order (any not yet in it after,
    in board order)."""
    slots = game.token_order.get(sym, [])
    here = token_hexes(game, sym)
    first = [h for h in slots if h is not None and h in here]
    return first + [h for h in here if h not in first]


def ordered(game: TokenOrderGame, sym: str, nodes: list[NodeKey]) -> list[NodeKey]:
    """``nodes`` (railheads of ``sym``) in charter order; any not yet in it (a token placed
    during the current action) after those, in the order given."""
    slots = game.token_order.get(sym, [])
    rank = {hid: i for i, hid in enumerate(slots) if hid is not None}
    return sorted(nodes, key=lambda node: rank.get(node[0], len(slots)))
