"""The per-client limit on making games (issue 11 item 5, a server on the open internet;
web/ratelimit.py): token buckets per remote address over ``POST /api/games``, imports and the
new-game and import forms; 429 with ``Retry-After``, nothing made."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2 for its TestClient
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from stellwerk.web.app import create_app
from stellwerk.web.ratelimit import DEFAULT, Buckets, RateLimit, client_of

FIXTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures"
GAME = {"title": "1849", "players": ["Ann", "Bob", "Cid"], "seed": 2}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def client(limit: RateLimit | None, address: str = "203.0.113.7") -> TestClient:
    return TestClient(
        create_app(None, create_limit=limit),
        raise_server_exceptions=False,
        client=(address, 50000),
    )


def test_the_api_answers_429_with_retry_after_once_the_bucket_is_empty() -> None:
    """Two games at once, the third is 429 with ``Retry-After`` (for 2 per 60 s one token
    comes back in 30 s, counted from the first game) and a JSON sentence; nothing is made."""
    with client(RateLimit(2, 60)) as c:
        assert [c.post("/api/games", json=GAME).status_code for _ in range(2)] == [201, 201]
        refused = c.post("/api/games", json=GAME)
        assert refused.status_code == 429
        wait = int(refused.headers["retry-after"])  # 30 s less the time the games took
        assert 20 <= wait <= 30
        assert refused.json()["retry_after"] == wait and "too many" in refused.json()["error"]
        assert len(c.get("/api/games").json()["games"]) == 2
        # playing is not limited
        assert c.get("/healthz").status_code == 200


def test_imports_and_the_forms_share_the_clients_bucket() -> None:
    """``POST /api/games/import``, ``POST /new`` and ``POST /import`` take from the same
    bucket as ``POST /api/games``; a refused request counts too (it was sent)."""
    with client(RateLimit(3, 3600)) as c:
        assert c.post("/api/games", json=GAME).status_code == 201
        assert c.post("/api/games/import", json={"not": "a game"}).status_code in (400, 422)
        page = c.get("/new").text
        found = re.search(r'name="csrf" value="([^"]+)"', page)
        assert found
        form = {"csrf": found.group(1), "title": "1849", "players": "A\nB\nC", "seed": "1"}
        assert c.post("/new", data=form).status_code == 201
        refused = c.post("/new", data=form)
        assert refused.status_code == 429 and 1100 <= int(refused.headers["retry-after"]) <= 1200
        assert "too many new games" in refused.text
        assert c.post("/import", data={}).status_code == 429
        assert c.post("/api/games/import", json={}).status_code == 429
        assert len(c.get("/api/games").json()["games"]) == 2


def test_each_client_address_has_its_own_bucket() -> None:
    """Another address is not held back by the first one's games."""
    app = create_app(None, create_limit=RateLimit(1, 600))
    with TestClient(app, client=("198.51.100.1", 1)) as first:
        assert first.post("/api/games", json=GAME).status_code == 201
        assert first.post("/api/games", json=GAME).status_code == 429
        second = TestClient(app, client=("198.51.100.2", 1))  # the app runs already
        assert second.post("/api/games", json=GAME).status_code == 201
        assert first.post("/api/games", json=GAME).status_code == 429


def test_no_limit_when_switched_off() -> None:
    with client(None) as c:
        assert all(c.post("/api/games", json=GAME).status_code == 201 for _ in range(4))


def test_the_bucket_fills_again_with_time() -> None:
    """``burst`` tokens at once, then one per ``period / burst`` seconds, never above
    ``burst``; the wait named is the time to the next token."""
    clock = Clock()
    buckets = Buckets(RateLimit(2, 60), clock)
    assert [buckets.take("a"), buckets.take("a")] == [0.0, 0.0]
    assert buckets.take("a") == pytest.approx(30.0)
    clock.now += 15
    assert buckets.take("a") == pytest.approx(15.0)
    clock.now += 15
    assert buckets.take("a") == 0.0
    clock.now += 10_000  # a long pause gives back at most ``burst``
    assert [buckets.take("a"), buckets.take("a")] == [0.0, 0.0]
    assert buckets.take("a") > 0


@settings(max_examples=60, deadline=None)
@given(
    burst=st.integers(1, 10),
    period=st.floats(1, 1000),
    steps=st.lists(st.floats(0, 200), max_size=40),
)
def test_no_client_gets_more_than_the_limit_allows(
    burst: int, period: float, steps: list[float]
) -> None:
    """Property: over any run of requests, the games allowed are at most ``burst`` plus
    what the elapsed time refilled (``burst * elapsed / period``)."""
    clock = Clock()
    buckets = Buckets(RateLimit(burst, period), clock)
    start = clock.now
    allowed = 0
    for step in steps:
        clock.now += step
        allowed += buckets.take("x") == 0.0
        assert allowed <= burst + burst * (clock.now - start) / period + 1e-9


def test_the_buckets_kept_are_bounded() -> None:
    """At most ``max_clients`` buckets: full ones are forgotten first, then the oldest."""
    clock = Clock()
    buckets = Buckets(RateLimit(1, 60), clock, max_clients=3)
    for n in range(10):
        buckets.take(f"c{n}")
        assert len(buckets) <= 3
    assert buckets.take("c9") > 0  # the newest are still counted


@pytest.mark.parametrize(
    "address, counted",
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("testclient", "testclient"),
    ],
)
def test_a_client_is_its_address_and_ipv6_counts_by_its_64(address: str, counted: str) -> None:
    scope: dict[str, Any] = {"client": (address, 1)}
    assert client_of(scope) == counted
    assert client_of({"client": None}) == "unknown"


def test_the_limit_is_read_as_n_per_seconds() -> None:
    assert RateLimit.parse("20/600") == DEFAULT == RateLimit(20, 600.0)
    assert RateLimit.parse("off") is None
    for wrong in ("20", "x/60", "0/60", "5/0", "5/-1"):
        with pytest.raises(ValueError):
            RateLimit.parse(wrong)


def test_serve_refuses_a_limit_it_cannot_read(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from stellwerk.cli.main import main

    result = CliRunner().invoke(
        main, ["serve", "--db", str(tmp_path / "x.db"), "--create-limit", "lots"]
    )
    assert result.exit_code == 2 and "N/SECONDS" in result.output


def _alert(text: str) -> tuple[str, str]:
    """An error page's sentence and the page with it taken out."""
    pattern = r'<p class="error" role="alert">(.*?)</p>'
    found = re.search(pattern, text, flags=re.S)
    assert found, text[:300]
    return found.group(1), re.sub(pattern, "", text, flags=re.S)


def test_the_pages_answer_429_with_the_sites_error_page_and_the_api_with_json() -> None:
    """A refused new-game form is an HTML page in the site's layout -- the error page the
    other refusals of the pages use (here an import form without a file) -- with
    ``Retry-After``; the API's refusal stays JSON."""
    with client(None) as free:
        found = re.search(r'name="csrf" value="([^"]+)"', free.get("/").text)
        assert found
        other = free.post("/import", data={"csrf": found.group(1)})
        assert other.status_code == 400
        other_sentence, other_page = _alert(other.text)
        assert other_sentence == "choose a file to import"
    with client(RateLimit(1, 600)) as c:
        assert c.post("/api/games", json=GAME).status_code == 201
        page = c.post("/new", data={})
        assert page.status_code == 429 and page.headers["content-type"].startswith("text/html")
        assert 500 <= int(page.headers["retry-after"]) <= 600
        sentence, rest = _alert(page.text)
        assert "too many new games" in sentence
        assert rest.replace('"/new?lang=', '"/import?lang=') == other_page
        german = c.post("/new", data={}, headers={"accept-language": "de"})
        assert german.status_code == 429 and '<html lang="de">' in german.text
        assert 'href="/">Alle Spiele</a>' in german.text
        api = c.post("/api/games", json=GAME)
        assert api.status_code == 429 and api.headers["content-type"] == "application/json"
        assert api.json()["retry_after"] == int(api.headers["retry-after"])
        assert "too many new games" in api.json()["error"]


def test_serve_help_says_the_limit_is_per_process() -> None:
    """docs/web.md "Security": the buckets are each server process's own; ``serve --help``
    says so where the limit is set."""
    from click.testing import CliRunner

    from stellwerk.cli.main import main

    result = CliRunner().invoke(main, ["serve", "--help"], terminal_width=200)
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "--create-limit" in text and "each server process on its own" in text
