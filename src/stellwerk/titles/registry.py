"""Titles by name."""

from __future__ import annotations

from stellwerk.core.errors import IllegalAction
from stellwerk.core.game import Game


def title_class(title: str) -> type[Game]:
    """The game class of a title (imported on first use)."""
    if title == "1849":
        from stellwerk.titles.g1849.game import Game1849

        return Game1849
    if title == "1835":
        from stellwerk.titles.g1835.game import Game1835

        return Game1835
    raise IllegalAction(f"unknown title {title}", "titles")


TITLES = ("1849", "1835")


def prepare(title: str) -> None:
    """Load a title's code and data files once (program start-up, not game time)."""
    cls = title_class(title)
    warm = getattr(cls, "warm", None)
    if callable(warm):
        warm()
