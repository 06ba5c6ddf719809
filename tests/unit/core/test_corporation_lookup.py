"""Looking a corporation up by its symbol (common rules §2.4: a symbol names one corporation):
``Game.corporation`` and ``Game.corporation_or_none`` answer from an index of the list while it
holds, and titles append, remove, replace and swap corporations in ``game.corporations`` during
play (mergers, transformations, the secession), a symbol at most once.  Whatever was done to
the list, both answer what a search of the list answers: its corporation with that symbol,
none (an ``IllegalAction`` from ``corporation``) for a symbol it does not hold."""

from __future__ import annotations

import pytest
from boardless import BoardlessGame
from hypothesis import given, settings
from hypothesis import strategies as st

from stellwerk.core.entities import Corporation
from stellwerk.core.errors import IllegalAction

SYMS = ["A", "B", "C", "D", "E"]
MAJOR = [20, 10, 10, 10, 10, 10, 10, 10, 10]

_EDITS = st.lists(
    st.tuples(
        st.sampled_from(["append", "remove", "replace", "swap", "new_list", "ask"]),
        st.integers(0, 10),
        st.sampled_from([*SYMS, "Z"]),
    ),
    max_size=30,
)


def _search(game: BoardlessGame, sym: str) -> Corporation | None:
    return next((c for c in game.corporations if c.sym == sym), None)


@settings(max_examples=200, deadline=None)
@given(_EDITS)
def test_lookups_answer_what_a_search_answers(edits: list[tuple[str, int, str]]) -> None:
    game = BoardlessGame([(1, "P1"), (2, "P2")], [], 1)
    game.corporations.extend(Corporation(s, s, list(MAJOR), 2, 20, None) for s in SYMS[:3])
    for kind, at, sym in edits:
        corps = game.corporations
        place = at % len(corps) if corps else 0
        held = [c.sym for c in corps]
        if kind == "append" and sym not in held:
            corps.append(Corporation(sym, sym, list(MAJOR), 2, 20, None))
        elif kind == "remove" and corps:
            del corps[place]
        elif kind == "replace" and corps and sym not in held[:place] + held[place + 1 :]:
            corps[place] = Corporation(sym, sym, list(MAJOR), 2, 20, None)
        elif kind == "swap" and len(corps) > 1:
            corps[0], corps[place] = corps[place], corps[0]
        elif kind == "new_list":
            game.corporations = list(reversed(corps))
        for asked in [*SYMS, "Z"]:
            expected = _search(game, asked)
            assert game.corporation_or_none(asked) is expected, asked
            if expected is None:
                with pytest.raises(IllegalAction):
                    game.corporation(asked)
            else:
                assert game.corporation(asked) is expected, asked
