"""Several server processes behind one address accept each other's forms (issue 11 items 4
and 5: several processes on one database, CSRF protection; web/secret.py): the secret that
signs the form tokens is the operator's (``--secret-file``, ``STELLWERK_SECRET``) or made once
and kept in the store, never per process, never in a game file."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from webhelp import ServeProcess

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2 for its TestClient
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from stellwerk.store import SqliteStore
from stellwerk.web.app import create_app
from stellwerk.web.pages import NONCE_COOKIE
from stellwerk.web.secret import ENV, SITE_NAME, SecretError, given_secret


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, "the page has a form token"
    return found.group(1)


@contextmanager
def clients(*specs: str, **kwargs: Any) -> Iterator[list[TestClient]]:
    """A TestClient on an app of its own per store spec (two "server processes")."""
    with ExitStack() as stack:
        yield [
            stack.enter_context(
                TestClient(create_app(spec, **kwargs), raise_server_exceptions=False)
            )
            for spec in specs
        ]


def form_from(a: TestClient) -> tuple[str, str]:
    """The new-game form's token and the browser's nonce cookie, as server ``a`` gave them."""
    page = a.get("/new?title=1849")
    assert page.status_code == 200
    return csrf_of(page.text), page.cookies[NONCE_COOKIE]


def post_new(b: TestClient, csrf: str, nonce: str) -> Any:
    b.cookies.set(NONCE_COOKIE, nonce)
    return b.post(
        "/new",
        data={"csrf": csrf, "title": "1849", "players": "Ann\nBob\nCid", "seed": "3"},
    )


def test_a_form_of_server_a_is_accepted_by_server_b_on_one_sqlite_file(tmp_path: Path) -> None:
    """Two apps on one SQLite file, no secret given: the store's secret is made by the
    first and taken by the second, so a form page fetched from A is posted to B."""
    spec = f"sqlite:///{tmp_path / 'web.db'}"
    with clients(spec, spec) as (a, b):
        csrf, nonce = form_from(a)
        answer = post_new(b, csrf, nonce)
        assert answer.status_code == 201, answer.text
        assert a.app.state.secret == b.app.state.secret  # type: ignore[attr-defined]
    # the secret is beside the games, in none of their files
    store = SqliteStore(tmp_path / "web.db")
    kept = store.site_get(SITE_NAME)
    assert isinstance(kept, str) and len(bytes.fromhex(kept)) == 32
    keys = store.keys()
    for key in keys:
        assert kept not in json.dumps(store.export(key))
    store.close()


def test_a_restarted_server_keeps_accepting_the_forms_it_gave(tmp_path: Path) -> None:
    """The store's secret outlives the process: a page fetched before a restart still
    posts after it."""
    spec = f"sqlite:///{tmp_path / 'web.db'}"
    with clients(spec) as (a,):
        csrf, nonce = form_from(a)
    with clients(spec) as (again,):
        assert post_new(again, csrf, nonce).status_code == 201


def test_servers_with_different_secrets_refuse_each_others_forms(tmp_path: Path) -> None:
    """The test can fail: apps on two databases (two secrets) refuse each other's forms with
    403 and make nothing."""
    with clients(f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}") as (a, b):
        csrf, nonce = form_from(a)
        assert post_new(b, csrf, nonce).status_code == 403
        assert b.get("/api/games").json() == {"games": []}


def test_a_given_secret_wins_over_the_stores(tmp_path: Path) -> None:
    """Apps given one secret agree whatever their stores; the store's own is not used."""
    secret = b"s" * 32
    with clients(
        f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}", secret=secret
    ) as (a, b):
        csrf, nonce = form_from(a)
        assert post_new(b, csrf, nonce).status_code == 201


def test_postgresql_servers_share_the_stores_secret(postgres_url: str) -> None:
    """Issue 11 item 4: two apps on one PostgreSQL database accept each other's forms."""
    with clients(postgres_url, postgres_url) as (a, b):
        csrf, nonce = form_from(a)
        assert post_new(b, csrf, nonce).status_code == 201
        csrf, nonce = form_from(b)
        assert post_new(a, csrf, nonce).status_code == 201


def test_the_secret_comes_from_the_file_then_the_environment(tmp_path: Path) -> None:
    """web/secret.py: ``--secret-file`` first, then ``STELLWERK_SECRET``, else the store's
    (None here); white space around it is not part of it; a short one is refused."""
    path = tmp_path / "secret"
    path.write_text("  file-secret-0123456789\n")
    assert given_secret({ENV: "env-secret-0123456789"}, path) == b"file-secret-0123456789"
    assert given_secret({ENV: "env-secret-0123456789"}) == b"env-secret-0123456789"
    assert given_secret({}) is None and given_secret({ENV: ""}) is None
    with pytest.raises(SecretError, match="at least 16 bytes"):
        given_secret({ENV: "short"})
    with pytest.raises(SecretError, match="missing"):
        given_secret({}, tmp_path / "missing")


def test_serve_signs_with_the_secret_file(tmp_path: Path) -> None:
    """``stellwerk serve --secret-file F``: its forms are accepted by an app given the same
    secret on another database; a short ``STELLWERK_SECRET`` is a usage error (exit 2)
    before the store is opened."""
    import httpx

    path = tmp_path / "secret"
    path.write_text("an-operators-secret-of-some-length\n")
    path.chmod(0o600)
    server = ServeProcess(tmp_path / "served.db", "--secret-file", str(path))
    try:
        page = httpx.get(f"{server.url}/new?title=1849", timeout=60)
        csrf, nonce = csrf_of(page.text), page.cookies[NONCE_COOKIE]
    finally:
        server.stop()
    secret = b"an-operators-secret-of-some-length"
    with clients(f"sqlite:///{tmp_path / 'other.db'}", secret=secret) as (other,):
        assert post_new(other, csrf, nonce).status_code == 201

    from click.testing import CliRunner

    from stellwerk.cli.main import main

    result = CliRunner().invoke(
        main, ["serve", "--db", str(tmp_path / "x.db")], env={ENV: "too-short"}
    )
    assert result.exit_code == 2 and "at least 16 bytes" in result.output
    assert not (tmp_path / "x.db").exists()
