"""Titles by name."""

from __future__ import annotations

from stellwerk.core.errors import IllegalAction
from stellwerk.core.game import Game


def title_class(title: str) -> type[Game]:
    """The game class of a title (imported on first use)."""
    if title == "1849":
        from stellwerk.titles.g1849.game import Game1849

        return Game1849
    raise IllegalAction(f"unknown title {title}", "titles")


TITLES = ("1849",)
