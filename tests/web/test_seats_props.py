"""Properties of seats and the body limit (issue 11 item 5): a token opens exactly its own
seat of its own game; a body is read exactly when it is within its route's limit."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from stellwerk.web.seats import PLAYER, SPECTATOR, deal, lookup
from stellwerk.web.security import BodyLimit

names = st.lists(st.text(min_size=1, max_size=8), min_size=1, max_size=7, unique=True)


@given(names, names, st.text(max_size=40))
@settings(max_examples=60, deadline=None)
def test_a_token_opens_its_own_seat_only(a: list[str], b: list[str], guess: str) -> None:
    game_a = deal(list(enumerate(a, start=1)))
    game_b = deal(list(enumerate(b, start=1)))
    for pid, name, token in game_a.players:
        found = lookup(game_a.record, token)
        assert found is not None and found.role == PLAYER
        assert (found.player, found.name) == (pid, name)
        assert lookup(game_b.record, token) is None  # another game's seats
    spectator = lookup(game_a.record, game_a.spectator)
    assert spectator is not None and spectator.role == SPECTATOR and spectator.player is None
    assert lookup(game_b.record, game_a.spectator) is None
    dealt = {t for _, _, t in game_a.players} | {game_a.spectator}
    if guess not in dealt:
        assert lookup(game_a.record, guess) is None
    stored = str(game_a.record)
    assert all(token not in stored for token in dealt)


def run_limited(size: int, limit: int, chunks: int) -> tuple[int, int]:
    """(status, bytes the app read) for a body of ``size`` bytes in ``chunks`` parts."""
    read = 0

    async def app(scope: Any, receive: Any, send: Any) -> None:
        nonlocal read
        more = True
        while more:
            message = await receive()
            read += len(message.get("body", b""))
            more = message.get("more_body", False)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    parts = [b"x" * (size // chunks)] * (chunks - 1)
    parts.append(b"x" * (size - sum(map(len, parts))))
    messages = [
        {"type": "http.request", "body": part, "more_body": n < len(parts) - 1}
        for n, part in enumerate(parts)
    ]
    sent: list[Any] = []

    async def receive() -> Any:
        return messages.pop(0)

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "path": "/api/x", "headers": []}  # no Content-Length: streamed
    asyncio.run(BodyLimit(app, lambda path: limit)(scope, receive, send))
    return sent[0]["status"], read


@given(st.integers(0, 3000), st.integers(1, 2000), st.integers(1, 5))
@settings(max_examples=80, deadline=None)
def test_a_streamed_body_is_read_exactly_when_within_the_limit(
    size: int, limit: int, chunks: int
) -> None:
    status, read = run_limited(size, limit, chunks)
    if size <= limit:
        assert (status, read) == (200, size)
    else:
        assert status == 413
