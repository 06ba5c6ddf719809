"""The game in words: the log players read, in English and German.

Edge code over ``stellwerk.core.events``: :func:`story` turns a game's journal into
sentences, :mod:`stellwerk.words.catalog` holds the sentences per language.
"""

from stellwerk.words.catalog import LANGUAGES, money, register
from stellwerk.words.narrate import Line, Narrator, render, story

__all__ = ["LANGUAGES", "Line", "Narrator", "money", "register", "render", "story"]
