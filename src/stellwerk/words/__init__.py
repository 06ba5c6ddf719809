"""The game in words: the log players read, in English and German.

Edge code over ``stellwerk.core.events``: :func:`story` turns a game's journal into
sentences, :mod:`stellwerk.words.catalog` holds the sentences per language (a title's own
events are said by its ``Presentation`` sentences ``event.<kind>``, the steps only it has
named by ``step.<description>``).
"""

from stellwerk.words.catalog import LANGUAGES, event_sentences, money, step_name
from stellwerk.words.narrate import Line, Narrator, render, story

__all__ = [
    "LANGUAGES",
    "Line",
    "Narrator",
    "event_sentences",
    "money",
    "render",
    "step_name",
    "story",
]
