"""The live feeds of one game share one poller (web.service ``Watch``): many watchers cost
one count query per interval, and an action wakes them all at once."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from stellwerk.web.service import POLL_SECONDS, GameService


def test_many_watchers_share_one_poller_and_wake_on_an_action() -> None:
    service = GameService(None)
    calls = 0
    news_of = service.news  # what the poller reads: the count and the open offers

    async def counted(key: str) -> tuple[int, str]:
        nonlocal calls
        calls += 1
        return await news_of(key)

    service.news = counted  # type: ignore[method-assign]

    async def scenario() -> tuple[list[int], float, int, float, int]:
        created = await service.create("1849", ["Ann", "Bob", "Cid"], [], 4)
        token = created.players[0][2]
        watchers = [
            asyncio.create_task(service.wait_for_change(created.key, 0, 30)) for _ in range(40)
        ]
        idle_start = time.monotonic()
        await asyncio.sleep(4 * POLL_SECONDS)
        idle_calls = calls
        idle = time.monotonic() - idle_start
        start = time.monotonic()
        action: dict[str, Any] = {"type": "pass", "entity": 1, "entity_type": "player"}
        await service.act(created.key, token, action, 0)
        got = await asyncio.gather(*watchers)
        return got, time.monotonic() - start, idle_calls, idle, len(service._watches)

    try:
        got, waited, idle_calls, idle, left = asyncio.run(scenario())
    finally:
        service.close()
    assert got == [1] * 40
    # one poller: about one query per interval (however slow the machine), not one per watcher
    assert idle_calls <= idle / POLL_SECONDS + 3 < 40
    assert waited < 5  # woken by the action, not by the 30 s timeout
    assert left == 0  # the watch ends with its last watcher
