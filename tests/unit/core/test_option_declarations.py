"""Options that run (issue 7 item 4), for every title of the registry: each option is declared
once, in the title's ``options.py``, with effects that change the settings the game is built
with; no other module of the title names an option.

"Names" means: an identifier equal to an option id; a string literal equal to one; or a string
(docstrings included) or comment quoting one (``id``, `id`, 'id', "id") or, for ids with an
underscore (no English word), containing it as a word.  Prose such as "the bonds variant" or
"Clemens" is allowed: it names a rule, not the option.
"""

from __future__ import annotations

import ast
import importlib
import io
import re
import tokenize
from pathlib import Path
from typing import Any

import pytest

from stellwerk.core.options import Declared, Option
from stellwerk.titles import registry


def package_dir(title: str) -> Path:
    module = importlib.import_module(registry.package(title))
    return Path(next(iter(module.__path__)))


def mentions(text: str, oid: str) -> bool:
    quoted = rf"(``|`|'|\"){re.escape(oid)}(``|`|'|\")"
    if re.search(quoted, text):
        return True
    return "_" in oid and re.search(rf"(?<!\w){re.escape(oid)}(?!\w)", text) is not None


def names_in(path: Path, ids: set[str]) -> list[str]:
    """``file:line: id`` for every place ``path`` names one of ``ids``."""
    found: list[str] = []
    source = path.read_text(encoding="utf-8")
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        hits: set[str] = set()
        if tok.type == tokenize.NAME and tok.string in ids:
            hits.add(tok.string)
        elif tok.type in (tokenize.STRING, tokenize.COMMENT):
            if tok.type == tokenize.STRING and not tok.string.lstrip("rbuRBU").startswith("f"):
                value = ast.literal_eval(tok.string)
                if isinstance(value, str) and value in ids:
                    hits.add(value)
            hits |= {oid for oid in ids if mentions(tok.string, oid)}
        found += [f"{path}:{tok.start[0]}: {oid}" for oid in sorted(hits)]
    return found


def title_modules(title: str) -> list[Path]:
    return [p for p in sorted(package_dir(title).rglob("*.py")) if p.name != "options.py"]


@pytest.mark.parametrize("title", registry.TITLES)
def test_no_title_module_but_the_declaration_names_an_option(title: str) -> None:
    """Rule code reads the settings' fields, never an option id (style guide §8)."""
    ids = set(registry.declared(title).options)
    assert ids
    found = [hit for path in title_modules(title) for hit in names_in(path, ids)]
    assert not found, "option ids outside options.py:\n" + "\n".join(found)


def test_the_scan_finds_each_way_of_naming_an_option(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f(game, bonds):\n"
        "    '''Option ``bonds``: see delay_ift.'''\n"
        "    if 'electric_dreams' in game.options:  # one_e_train_per_corporation\n"
        "        return game.hooks.electric\n"
        "    return 'the bonds variant and Clemens'\n",
        encoding="utf-8",
    )
    ids = {"bonds", "delay_ift", "electric_dreams", "one_e_train_per_corporation", "clemens"}
    hits = [hit.split(": ", 1)[1] + "@" + hit.split(":")[-2] for hit in names_in(sample, ids)]
    assert sorted(hits) == sorted(
        [
            "bonds@1",
            "bonds@2",
            "delay_ift@2",
            "electric_dreams@3",
            "one_e_train_per_corporation@3",
        ]
    )


def declaring_calls(path: Path, oid: str) -> int:
    """Calls in ``path`` whose first argument (or ``id=``) is the literal ``oid``."""
    count = 0
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        first = node.args[0] if node.args else None
        named = [k.value for k in node.keywords if k.arg == "id"]
        for arg in [first, *named]:
            if isinstance(arg, ast.Constant) and arg.value == oid:
                count += 1
    return count


@pytest.mark.parametrize("title", registry.TITLES)
def test_each_option_is_declared_once(title: str) -> None:
    """One declaration per option: one call in options.py builds it, with a label, a source
    and effects (or, a preset, implied options)."""
    decl = registry.declared(title)
    path = package_dir(title) / "options.py"
    for oid, option in decl.options.items():
        assert option.id == oid
        assert declaring_calls(path, oid) == 1, (title, oid)
        assert option.label and option.source, (title, oid)
        assert option.effects or option.implies, (title, oid)


def with_requirements(decl: Declared[Any], oid: str) -> list[str]:
    out: list[str] = []
    pending = [oid]
    while pending:
        current = pending.pop()
        if current not in out:
            out.append(current)
            pending.extend(decl.options[current].requires)
    return out


def option_cases() -> list[tuple[str, Option]]:
    return [
        (title, option)
        for title in registry.TITLES
        for option in registry.declared(title).options.values()
    ]


@pytest.mark.parametrize(
    ("title", "option"), option_cases(), ids=[f"{t}-{o.id}" for t, o in option_cases()]
)
def test_choosing_an_option_changes_the_settings(title: str, option: Option) -> None:
    """Each option, with what it requires, gives other settings than its requirements alone;
    every field its effects name takes the declared value (or, a preset, its options')."""
    decl = registry.declared(title)
    players = decl.players_of(option)[0]
    chosen = with_requirements(decl, option.id)
    others = [oid for oid in chosen if oid != option.id]
    settings = decl.settings(chosen, players)
    if option.default:  # the default rule named: it changes nothing, and says so
        assert settings == decl.settings(others, players)
        assert option.conflicts, "a default option conflicts with the one switching it off"
    else:
        assert settings != decl.settings(others, players)
    for effect in option.effects:
        name = getattr(effect, "slot", None) or getattr(effect, "key", "")
        assert getattr(settings, name) == effect.value, (option.id, name)
