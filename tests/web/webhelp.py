"""Helpers of the web tests: an app in memory, a real uvicorn server in a thread, a
``stellwerk serve`` subprocess, and a player that picks actions as the selfplay driver does."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from stellwerk.selfplay import choose_action

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2 for its TestClient
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from stellwerk.web.app import create_app

REPO = Path(__file__).resolve().parents[2]
STELLWERK = REPO / ".venv" / "bin" / "stellwerk"


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


@contextlib.contextmanager
def app_client(**kwargs: Any) -> Iterator[TestClient]:
    """A TestClient on a fresh app over an in-memory SQLite store (exceptions become 500s,
    as a user would see them)."""
    with TestClient(create_app(None, **kwargs), raise_server_exceptions=False) as client:
        yield client


def new_game(
    client: httpx.Client | TestClient,
    players: list[str] | None = None,
    seed: int = 7,
    title: str = "1849",
) -> dict[str, Any]:
    """Create a game through the API; the 201 answer."""
    answer = client.post(
        "/api/games",
        json={"title": title, "players": players or ["Ann", "Bob", "Cid"], "seed": seed},
    )
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def tokens(created: dict[str, Any]) -> dict[Any, str]:
    """Player id -> token of a created game."""
    return {p["id"]: p["token"] for p in created["players"]}


def pick(
    client: httpx.Client | TestClient,
    key: str,
    token: str,
    view: dict[str, Any],
    rng: random.Random,
) -> dict[str, Any] | None:
    """An action of the token's player from ``view`` (``GET /api/games/{id}``) chosen as the
    selfplay driver chooses, tile lays asked for hex by hex (``?hex=``); None when none of
    the active entities is the player's."""
    mine = set(view.get("yours", []))
    legal = [a for a in view["legal_actions"] if a.get("entity") in mine]
    hexes = list(view.get("lay_hexes", []))
    if not legal and not hexes:
        return None

    def lay() -> dict[str, Any] | None:
        rng.shuffle(hexes)
        for hex_id in hexes[:6]:
            got = client.get(f"/api/games/{key}", params={"hex": hex_id}, headers=bearer(token))
            lays = [a for a in got.json()["hex_lays"] if a.get("entity") in mine]
            if lays:
                return dict(rng.choice(lays))
        return None

    if not legal:
        return lay()
    return dict(choose_action(legal, rng, lay if hexes else None))


def free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


@contextlib.contextmanager
def live_server(store_spec: str | None = None) -> Iterator[str]:
    """A real uvicorn server with the app in a thread; yields its base URL."""
    sock = free_socket()
    config = uvicorn.Config(create_app(store_spec), log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    host, port = sock.getsockname()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(20)
        sock.close()


class ServeProcess:
    """``stellwerk serve --port 0 --db DB`` as a subprocess; ``url`` from its first line."""

    def __init__(self, db: Path, *extra: str) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(
            [str(STELLWERK) if STELLWERK.exists() else sys.executable, *(
                [] if STELLWERK.exists() else ["-m", "stellwerk"]),
             "serve", "--port", "0", "--db", str(db), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert "http://" in line, (line, self.process.stderr.read() if self.process.stderr else "")
        self.url = line.split("http://", 1)[1].split("/", 1)[0]
        self.url = f"http://{self.url}"
        self.first_line = line

    def kill9(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
