"""A decision the rules ask as a set of named answers, and what each answer means.

A step (or a title's procedure behind it) that asks an entity to choose among a few listed
answers -- how many station tokens to buy, whether to take an offered share, which new
corporation's share to take -- describes the question with :class:`Asked`: who answers,
a ``topic`` key saying what is asked, the facts the question is about (the corporation
concerned, the price per item, ...), and for every listed answer the action to send, a
``kind`` key saying what the answer does and its facts (the count and total price, the
corporation taken, ...).  Keys and facts are plain names and values, so a front end can say
the question and each answer in words (a title's presentation holds the sentences by key)
without naming a title's procedures.  Nothing here changes the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from stellwerk.core.entities import Entity
from stellwerk.core.jsondata import JSONObject

Fact = int | str
"""A fact's value: an amount of money, a count or a percentage (whole numbers), or a name
(a corporation's symbol, a hex)."""

Facts = tuple[tuple[str, Fact], ...]
"""Named facts, in the order a sentence names them."""


@dataclass(frozen=True)
class Answer:
    """One listed answer: ``action`` the exact action to send, ``kind`` what it does (a key
    of the title's sentences, ``buy_tokens``, ``decline``), ``facts`` what it is about."""

    action: JSONObject
    kind: str
    facts: Facts = ()


@dataclass(frozen=True)
class Asked:
    """A decision asked of ``entity``: ``topic`` what is asked (a key of the title's
    sentences), ``facts`` what it is about, ``answers`` the listed answers in listed order."""

    entity: Entity
    topic: str
    answers: tuple[Answer, ...]
    facts: Facts = ()


def plain_answer(action: JSONObject) -> Answer:
    """An answer whose meaning nobody has described: its kind is its action type, its one
    fact the chosen value (``choice``) or the city (``city``) it names."""
    facts: Facts = tuple(
        (key, value)
        for key in ("choice", "city")
        if isinstance(value := action.get(key), int | str) and not isinstance(value, bool)
    )
    return Answer(action, str(action.get("type")), facts)
