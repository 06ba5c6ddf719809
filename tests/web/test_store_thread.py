"""The store is used from one thread per process (docs/web.md, "Storage and concurrency";
web/service.py): uvicorn serving many requests at once -- pages, API reads, actions, live
feeds, pictures, new games -- never touches the database connection from a second thread.
Every statement the store sends is recorded with its thread; afterwards there is exactly one,
the service's store thread, and no request failed."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from webhelp import bearer, live_server, tokens

from stellwerk.store import GameStore, open_store
from stellwerk.web import service as service_module

GAMES = 3


class Recording:
    """A ``Database`` that notes the thread of every call, then passes it on."""

    def __init__(self, inner: Any, threads: set[str]) -> None:
        self._inner = inner
        self._threads = threads

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._inner, name)
        if not callable(found):
            return found

        def call(*args: Any, **kwargs: Any) -> Any:
            self._threads.add(threading.current_thread().name)
            return found(*args, **kwargs)

        return call


@pytest.fixture
def threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[str]]:
    """The threads the web app's store is used from (its ``_db`` recorded)."""
    seen: set[str] = set()
    opened = service_module._open

    def recorded(spec: str | None, engine: Any) -> GameStore:
        store = opened(spec, engine)
        store._db = Recording(store._db, seen)  # type: ignore[attr-defined]
        return store

    monkeypatch.setattr(service_module, "_open", recorded)
    yield seen


async def first_event(client: httpx.AsyncClient, key: str, token: str) -> str:
    async with client.stream("GET", f"/api/games/{key}/events", headers=bearer(token)) as feed:
        async for line in feed.aiter_lines():
            if line.startswith("data: "):
                return line
    return ""


async def play(client: httpx.AsyncClient, created: dict[str, Any], rng: random.Random) -> int:
    """Every seat of one game at once: each reads and, when it is his, passes or bids what
    the view lists; returns how many actions were acknowledged."""
    key = created["id"]
    acked = 0

    async def seat(pid: Any, token: str) -> None:
        nonlocal acked
        for _ in range(6):
            view = (await client.get(f"/api/games/{key}", headers=bearer(token))).json()
            mine = [a for a in view["legal_actions"] if a.get("entity") in view["yours"]]
            if not mine:
                await asyncio.sleep(0.01)
                continue
            answer = await client.post(
                f"/api/games/{key}/actions",
                json={"action": rng.choice(mine), "base": view["action_count"]},
                headers=bearer(token),
            )
            assert answer.status_code in (200, 409, 422), answer.text
            acked += answer.status_code == 200

    await asyncio.gather(*(seat(pid, token) for pid, token in tokens(created).items()))
    return acked


async def crowd(url: str) -> tuple[int, list[int]]:
    """Many requests of every kind at once; (actions acknowledged, statuses of the rest)."""
    rng = random.Random(5)
    limits = httpx.Limits(max_connections=40)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:
        made = await asyncio.gather(
            *(
                client.post(
                    "/api/games",
                    json={"title": "1849", "players": ["Ann", "Bob", "Cid"], "seed": 30 + n},
                )
                for n in range(GAMES)
            )
        )
        games = [answer.json() for answer in made]
        assert all(answer.status_code == 201 for answer in made)
        looks = [
            client.get(player["link"], follow_redirects=True)
            for game in games
            for player in game["players"]
        ]
        looks += [client.get("/"), client.get("/new"), client.get("/api/games")]
        looks += [client.get(f"/tile/1849/{n}/0.svg") for n in (7, 8, 9)]
        results = await asyncio.gather(
            *looks,
            *(first_event(client, g["id"], g["spectator"]["token"]) for g in games),
            *(play(client, g, rng) for g in games),
        )
    statuses = [r.status_code for r in results if isinstance(r, httpx.Response)]
    events = [r for r in results if isinstance(r, str)]
    assert len(events) == GAMES and all(e.startswith("data: ") for e in events), events
    return sum(r for r in results if isinstance(r, int)), statuses


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_many_requests_at_once_use_the_store_from_one_thread(
    kind: str, threads: set[str], tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    spec = (
        f"sqlite:///{tmp_path / 'web.db'}"
        if kind == "sqlite"
        else str(request.getfixturevalue("postgres_url"))
    )
    with live_server(spec) as url:
        acked, statuses = asyncio.run(crowd(url))
    assert statuses and all(status == 200 for status in statuses), statuses
    assert acked >= GAMES  # every game moved
    assert len(threads) == 1 and next(iter(threads)).startswith("stellwerk-store"), threads
    # what was acknowledged is in the store
    store = open_store(spec)
    try:
        keys = store.keys()
        assert sum(store.count(key) for key in keys) >= acked
    finally:
        store.close()


def test_an_sqlite_connection_refuses_a_second_thread(tmp_path: Path) -> None:
    """The guard behind the one thread: the store's SQLite connection keeps
    ``check_same_thread``, so a use from another thread is an error, never a silent race."""
    store = open_store(f"sqlite:///{tmp_path / 'x.db'}")
    errors: list[BaseException] = []

    def other() -> None:
        try:
            store.keys()
        except BaseException as error:
            errors.append(error)

    worker = threading.Thread(target=other)
    worker.start()
    worker.join(10)
    store.close()
    assert len(errors) == 1 and isinstance(errors[0], sqlite3.ProgrammingError)
