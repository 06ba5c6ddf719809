"""18Tiny: a made-up title written only through the title contract, for the tests.

What a new title writes: its data (``data/game.toml`` in the core schema, ``data/map.toml``
and ``data/tiles.toml`` in the map schema), its game class (:mod:`tinytitle.game`, the core
:class:`~stellwerk.core.boardgame.BoardGame` naming its tables) and its
:class:`~stellwerk.titles.contract.Title` (:mod:`tinytitle.title`); the tests register it
with ``stellwerk.titles.registry.register``.
"""
