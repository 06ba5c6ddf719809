"""What every title does the same way with its data files: read a TOML table from its
``data/`` folder, take its player counts from ``[players]``, and declare its options.

The built-in titles read their files through :func:`read_table` (each keeps its own caches
and its own tables beside the common ones); a title outside this package, written against
the contract only, finds its files by its package name (:func:`package_table`) and, when it
has no options, declares none with :func:`no_options`.
"""

from __future__ import annotations

import importlib.util
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from stellwerk.core.jsondata import JSONObject
from stellwerk.core.options import Declared
from stellwerk.core.schema import player_counts


def read_table(directory: Path, name: str) -> JSONObject:
    """The parsed TOML file ``name`` of ``directory`` (read afresh at every call: a title
    caches what it reads once per process).  Data files hold tables, lists, text, numbers and
    booleans (no dates), so what they hold is JSON-shaped."""
    with (directory / name).open("rb") as fh:
        return tomllib.load(fh)


def data_directory(package: str) -> Path:
    """The ``data/`` folder of a Python package (found without importing it)."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        raise ValueError(f"no package {package!r}")
    return Path(spec.origin).parent / "data"


@cache
def package_table(package: str, name: str) -> JSONObject:
    """The parsed file ``name`` of a package's ``data/`` folder, read once per process (do
    not change it: every reader shares it)."""
    return read_table(data_directory(package), name)


@dataclass(frozen=True)
class NoSettings:
    """The settings of a title without options: nothing to set."""


def no_options(title_id: str, package: str, count_rule: str) -> Declared[NoSettings]:
    """The declarations of a title without options: none, with the player counts of its
    ``data/game.toml`` (``[players]``, read on first use); ``count_rule`` is the rule a wrong
    count is refused by."""
    return Declared(
        title_id,
        {},
        NoSettings(),
        lambda: player_counts(package_table(package, "game.toml")),
        count_rule,
        count_rule,
    )
