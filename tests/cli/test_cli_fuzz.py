"""Fuzz the CLI with broken arguments and files: never a traceback, always a documented exit
status, and an error is one line (issue 12 item 5; README "Exit statuses").

The files are built here: a short 1849 selfplay game (truncated, mutated, re-encoded) and
hypothesis-generated JSON; a few real subprocess runs check what a shell user sees.  CI runs a
few dozen examples per property; ``--slow`` runs many more.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stellwerk.cli.common import (
    EXIT_INTERNAL,
    EXIT_MISMATCH,
    EXIT_MOVED_ON,
    EXIT_OK,
    EXIT_USAGE,
)
from stellwerk.cli.main import main

DOCUMENTED = {EXIT_OK, EXIT_MISMATCH, EXIT_USAGE, EXIT_MOVED_ON, EXIT_INTERNAL}
FAST = settings(
    max_examples=15, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
SLOW = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))


def check_clean(result: Result, args: list[str]) -> None:
    """No traceback, a documented status, and stderr either click's usage message or at most
    one ``error:`` line (``Error:`` when click reports a bad option without the usage)."""
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{args}: uncaught {result.exception!r}"
    )
    assert "Traceback" not in result.output, f"{args}: {result.output}"
    assert result.exit_code in DOCUMENTED, f"{args}: exit {result.exit_code}"
    err = result.stderr
    if err.startswith("Usage:"):
        assert result.exit_code == EXIT_USAGE and "Error:" in err, f"{args}: {err}"
    elif err:
        assert err.count("\n") == 1, f"{args}: {err!r}"
        assert err.startswith(("error: ", "Error: ")), f"{args}: {err!r}"  # ours, click's


def invoke(args: list[str]) -> Result:
    result = CliRunner().invoke(main, args)
    check_clean(result, args)
    return result


@pytest.fixture(scope="module")
def game_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A real game file: 1849, 3 players, the first 60 actions of a seeded selfplay game."""
    path = tmp_path_factory.mktemp("fuzz") / "game.json"
    args = ["selfplay", "1849", "--players", "3", "--seed", "5", "--max-actions", "60"]
    result = invoke([*args, "-o", str(path)])
    assert result.exit_code == EXIT_OK, result.output
    return path.read_text(encoding="utf-8")


def file_commands(path: str) -> list[list[str]]:
    """Every command that reads a game file, on ``path``."""
    return [
        ["show", path],
        ["replay", path],
        ["replay", path, "--json"],
        ["routes", path, "--corporation", "SFA"],
        ["act", path, '{"type": "pass", "entity": 1, "entity_type": "player"}'],
        ["undo", path],
        ["replay", path, "--format", "rails-report"],
    ]


BROKEN_TEXTS: dict[str, Callable[[str], str | bytes]] = {
    "empty": lambda game: "",
    "not JSON": lambda game: "{title: 1849",
    "a JSON list": lambda game: "[1, 2, 3]",
    "a JSON string": lambda game: '"1849"',
    "not UTF-8": lambda game: b"\xff\xfe{\x00" + game.encode("utf-16-le")[:200],
    "huge number": lambda game: '{"title": "1849", "id": ' + "9" * 6000 + "}",
    "deep nesting": lambda game: "[" * 200_000,
    "half a file": lambda game: game[: len(game) // 2],
    "cut after the players": lambda game: game[: game.index('"actions"')],
    "unknown title": lambda game: game.replace('"1849"', '"1830"', 1),
    "two players": lambda game: _edit(game, lambda d: d.update(players=d["players"][:2])),
    "no players": lambda game: _edit(game, lambda d: d.update(players=[])),
    "unknown option": lambda game: _edit(
        game, lambda d: d["settings"].update(optional_rules=["x"])
    ),
    "seed not a number": lambda game: _edit(game, lambda d: d["settings"].update(seed=[1])),
    "ids descending": lambda game: _edit(game, lambda d: d["actions"].reverse()),
    "action without type": lambda game: _edit(game, lambda d: d["actions"][3].pop("type")),
    "actions an object": lambda game: _edit(game, lambda d: d.update(actions={"1": {}})),
}


def _edit(game: str, change: Callable[[dict[str, Any]], Any]) -> str:
    data = json.loads(game)
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize("kind", sorted(BROKEN_TEXTS))
def test_broken_files_give_one_error_line(kind: str, game_text: str, tmp_path: Path) -> None:
    """A file that cannot be read or set up is a usage error (exit 2) in every command."""
    content = BROKEN_TEXTS[kind](game_text)
    path = tmp_path / "broken.json"
    for args in file_commands(str(path)):
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        result = invoke(args)
        if args[-1] != "rails-report":
            assert result.exit_code == EXIT_USAGE, f"{kind} {args}: {result.output}"


@pytest.mark.parametrize("where", ["a folder", "a missing file"])
def test_folders_and_missing_files_are_usage_errors(where: str, tmp_path: Path) -> None:
    path = tmp_path if where == "a folder" else tmp_path / "missing.json"
    for args in file_commands(str(path)):
        assert invoke(args).exit_code == EXIT_USAGE


def test_a_broken_trace_is_a_usage_error(game_text: str, tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text(game_text, encoding="utf-8")
    trace = tmp_path / "t.trace.jsonl"
    for text in (
        "",
        "not json\n",
        "[1]\n",
        '{"no_title": 1}\n',
        '{"title": "1849"}\n{"a": 1' + "0" * 5000,
    ):
        trace.write_text(text, encoding="utf-8")
        assert invoke(["replay", str(game), "--trace", str(trace)]).exit_code == EXIT_USAGE


@pytest.mark.parametrize(
    "action",
    ["", "[" * 100_000, '{"type": "pass", "n": ' + "9" * 5000 + "}", "[]", '{"type": 1}', "{}"],
)
def test_a_broken_action_is_a_usage_error(action: str, game_text: str, tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text(game_text, encoding="utf-8")
    assert invoke(["act", str(game), action]).exit_code == EXIT_USAGE
    assert game.read_text(encoding="utf-8") == game_text


def test_truncated_real_games(fixtures_18xx: Path, tmp_path: Path) -> None:
    """A real 18xx.games file cut anywhere is a usage error; cut between actions it is a game
    in progress: shown (exit 0), and its replay differs from the recorded result (exit 1)."""
    text = (fixtures_18xx / "1849" / "1849_game_end_bank.json").read_text(encoding="utf-8")
    path = tmp_path / "cut.json"
    for cut in range(1, len(text), len(text) // 7):
        path.write_text(text[:cut], encoding="utf-8")
        assert invoke(["show", str(path)]).exit_code == EXIT_USAGE
    data = json.loads(text)
    data["actions"] = data["actions"][:80]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert invoke(["show", str(path)]).exit_code == EXIT_OK
    assert invoke(["replay", str(path)]).exit_code == EXIT_MISMATCH


# -- hypothesis: garbage JSON game files ----------------------------------------------------

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(["1849", "1835", "SFA", "pass", "bid", "par", "lay_tile", "run_routes"])
)


def _containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """JSON lists and objects of ``inner``."""
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)


JSON = st.recursive(SCALARS, _containers, max_leaves=12)
ACTION_TYPES = ["pass", "bid", "buy_company", "par", "buy_shares", "sell_shares", "lay_tile"]
ACTION = st.fixed_dictionaries(
    {"type": st.sampled_from(ACTION_TYPES) | st.text(max_size=5), "id": st.integers(-2, 40)},
    optional={
        "entity": SCALARS,
        "entity_type": st.sampled_from(["player", "corporation", "company"]) | SCALARS,
        "price": SCALARS,
        "shares": JSON,
        "corporation": SCALARS,
        "company": SCALARS,
        "auto_actions": JSON,
    },
)
GAME_FILES = st.fixed_dictionaries(
    {
        "title": st.sampled_from(["1849", "1835"]) | SCALARS,
        "players": st.lists(
            st.fixed_dictionaries({"id": st.integers(1, 8) | SCALARS, "name": SCALARS}),
            max_size=8,
        )
        | JSON,
    },
    optional={
        "settings": st.fixed_dictionaries(
            {"seed": st.integers() | SCALARS, "optional_rules": st.lists(SCALARS, max_size=3)}
        )
        | JSON,
        "actions": st.lists(ACTION, max_size=5) | JSON,
        "result": JSON,
        "id": SCALARS,
    },
)


def _garbage_game_file(data: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.json"
        for args in (["show", str(path)], ["replay", str(path), "--json"]):
            path.write_text(json.dumps(data), encoding="utf-8")
            invoke(args)


test_garbage_game_files = FAST(given(GAME_FILES)(_garbage_game_file))
test_garbage_game_files_long = pytest.mark.slow(SLOW(given(GAME_FILES)(_garbage_game_file)))


# -- hypothesis: a real game with one field of one action broken -----------------------------

MUTATION = st.tuples(st.integers(0, 59), st.text(max_size=12), JSON)


def _mutated_game(game_text: str, mutation: tuple[int, str, Any]) -> None:
    index, key, value = mutation
    data = json.loads(game_text)
    action = data["actions"][index % len(data["actions"])]
    field = sorted(action)[len(key) % len(action)] if key[:1] not in ("", "_") else key
    action[field] = value
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        result = invoke(["show", str(path)])
        # a corrupt field is refused by name (common rules §3.3), never an engine failure
        assert result.exit_code != EXIT_INTERNAL, f"{mutation}: {result.output}"


def test_mutated_real_game(game_text: str) -> None:
    FAST(given(MUTATION)(lambda mutation: _mutated_game(game_text, mutation)))()


@pytest.mark.slow
def test_mutated_real_game_long(game_text: str) -> None:
    SLOW(given(MUTATION)(lambda mutation: _mutated_game(game_text, mutation)))()


def _random_action(game_text: str, action: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.json"
        path.write_text(game_text, encoding="utf-8")
        result = invoke(["act", str(path), json.dumps(action)])
        if result.exit_code != EXIT_OK:  # a refused action leaves the file unchanged
            assert path.read_text(encoding="utf-8") == game_text


def test_random_actions(game_text: str) -> None:
    FAST(given(ACTION)(lambda action: _random_action(game_text, action)))()


@pytest.mark.slow
def test_random_actions_long(game_text: str) -> None:
    SLOW(given(ACTION)(lambda action: _random_action(game_text, action)))()


# -- hypothesis: garbage arguments ----------------------------------------------------------

WORDS = [
    "new", "show", "act", "undo", "selfplay", "replay", "routes", "titles", "options",
    "1849", "1835", "1841", "--players", "--option", "--seed", "--json", "--trace", "-o",
    "--max-actions", "--corporation", "--before-action", "--trains", "--format", "--help",
    "bonds", "A,B", "A,B,C", ",", "", "-1", "0", "2", "3", "99999999999999999999", "x",
    "{}", '{"type": "pass"}', "[]", "\x00", "é", "/", "/nonexistent/dir/g.json",
]  # fmt: skip
ARGV = st.lists(st.sampled_from(WORDS) | st.text(max_size=6), min_size=1, max_size=7)


def _garbage_arguments(argv: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        cwd = os.getcwd()
        os.chdir(folder)
        try:
            result = invoke(argv + (["--max-actions", "3"] if "selfplay" in argv else []))
        finally:
            os.chdir(cwd)
        assert result.exit_code != EXIT_INTERNAL, f"{argv}: {result.output}"


test_garbage_arguments = FAST(given(ARGV)(_garbage_arguments))
test_garbage_arguments_long = pytest.mark.slow(SLOW(given(ARGV)(_garbage_arguments)))


# -- real processes -------------------------------------------------------------------------


def stellwerk(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "stellwerk", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["new", "1849", "--players", "A,B", "-o", "g.json"], EXIT_USAGE, "not 2"),
        (["selfplay", "1849", "--players", "1", "-o", "g.json"], EXIT_USAGE, "not 1"),
        (["selfplay", "1849", "--players", "3", "-o", "no/g.json"], EXIT_USAGE, "does not exist"),
        (["options", "18xx"], EXIT_USAGE, "known titles: 1849, 1835"),
        (["show", "latin1.json"], EXIT_USAGE, "cannot read"),
    ],
)
def test_processes_end_with_one_line(
    args: list[str], status: int, message: str, tmp_path: Path
) -> None:
    (tmp_path / "latin1.json").write_bytes('{"title": "1849 Sizilien é"}'.encode("latin-1"))
    done = stellwerk(*args, cwd=tmp_path)
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert done.stderr.startswith("error: ") and message in done.stderr


def test_a_closed_pipe_is_no_traceback(tmp_path: Path) -> None:
    """``stellwerk options 1849 | true``: the reader is gone before the first line."""
    command = [sys.executable, "-m", "stellwerk", "options", "1849"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()
        err = process.stderr.read().decode()
        process.wait(timeout=60)
    assert "Traceback" not in err and "Exception ignored" not in err
    assert process.returncode in DOCUMENTED
