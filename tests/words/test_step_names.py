"""Step names in the players' language: a step every title may have is named by the words'
catalog, a step only one title has by that title's presentation (``step.<description>``), so
the catalog names no title's own steps."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import stellwerk.titles
from stellwerk.core.flow.base import Step
from stellwerk.words import step_name
from stellwerk.words.catalog import WORDS


def _load_titles() -> None:
    """Import every module of the title packages (a title loads its steps on first use)."""
    for info in pkgutil.walk_packages(stellwerk.titles.__path__, "stellwerk.titles."):
        importlib.import_module(info.name)


def _descriptions(cls: type[Step]) -> set[tuple[str, str]]:
    """(module, description) of every step class below ``cls``."""
    found: set[tuple[str, str]] = set()
    for sub in cls.__subclasses__():
        description = sub.__dict__.get("description")
        if isinstance(description, str):
            found.add((sub.__module__, description))
        found |= _descriptions(sub)
    return found


@pytest.mark.parametrize(
    ("title", "description", "lang", "name"),
    [
        ("1849", "SMS Teleport", "de", "SMS-Sprung"),
        ("1841", "Transform minor into major", "de", "Kleine in große Gesellschaft umwandeln"),
        ("1835", "Prussian Formation", "de", "Gründung der Preußischen"),
        ("1849", "Lay/Upgrade Track", "de", "Strecke bauen"),
        ("1841", "SMS Teleport", "de", "SMS Teleport"),
        ("1849", "SMS Teleport", "en", "SMS Teleport"),
        ("unknown", "Run Routes", "de", "Züge fahren"),
        ("1835", None, "de", ""),
    ],
)
def test_a_step_is_named_by_its_title_then_the_catalog(
    title: str, description: str | None, lang: str, name: str
) -> None:
    assert step_name(title, description, lang) == name


def test_the_catalog_names_no_step_only_one_title_has() -> None:
    """Every ``step:`` entry of the catalog is a step of the core or of two titles or more
    (or no step of ours: a name the reference engine's files may carry)."""
    _load_titles()
    by_title: dict[str, set[str]] = {}
    core: set[str] = set()
    for module, description in _descriptions(Step):
        if module.startswith("stellwerk.titles.g"):
            by_title.setdefault(description, set()).add(module.split(".")[2])
        elif module.startswith("stellwerk.core"):
            core.add(description)
    keys = [key for words in WORDS.values() for key in words]
    named = {key.removeprefix("step:") for key in keys if key.startswith("step:")}
    own = sorted(d for d in named if d not in core and len(by_title.get(d, ())) == 1)
    assert own == [], f"steps of one title named by the catalog: {own}"


def test_each_title_names_its_own_steps_in_german() -> None:
    """A step only one title has is named in German by that title."""
    _load_titles()
    by_title: dict[str, set[str]] = {}
    for module, description in _descriptions(Step):
        if module.startswith("stellwerk.titles.g"):
            by_title.setdefault(description, set()).add(module.split(".")[2])
    for description, titles in by_title.items():
        if len(titles) == 1:
            title = next(iter(titles)).removeprefix("g")
            assert step_name(title, description, "de") != description, description
