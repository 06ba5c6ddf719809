"""``stellwerk serve`` (issue 11 item 3; README command table): the address printed, the
demonstration game's links, a store it cannot open refused before it starts."""

from __future__ import annotations

from pathlib import Path

import httpx
from click.testing import CliRunner
from webhelp import ServeProcess, bearer

from stellwerk.cli.main import main


def test_serve_demo_prints_links_that_open_the_game(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "demo.db", "--demo")
    try:
        assert server.process.stdout is not None
        lines = [server.process.stdout.readline() for _ in range(5)]
        assert lines[0].startswith("demonstration game ")
        ann = lines[1].split("Ann: ", 1)[1].strip()
        key, token = ann.split("/games/", 1)[1].split("?token=")
        with httpx.Client(base_url=server.url, timeout=30) as client:
            view = client.get(f"/api/games/{key}", headers=bearer(token)).json()
        assert view["title"] == "1849" and view["you"]["name"] == "Ann"
        assert (tmp_path / "demo.db").is_file()
    finally:
        server.stop()


def test_serve_refuses_a_store_it_cannot_open_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "nowhere" / "x.db")])
    assert result.exit_code == 2
    assert "cannot open the game store" in result.output
    result = CliRunner().invoke(main, ["serve", "--db", "redis://localhost/1"])
    assert result.exit_code == 2 and "unknown store" in result.output
