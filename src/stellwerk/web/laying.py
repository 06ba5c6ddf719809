"""The tile lays of one hex as a page shows them: every legal tile in every legal rotation
drawn on the hex among its neighbours (``stellwerk.pictures.layview``), with the hex's printed
terrain and what each lay would cost, each a form that sends the exact ``lay_tile`` action.

The page ``/play/{game}/{token}/lay/{hex}`` is the map's move without a script; the game
page's script fetches the same page and draws its pictures on the map (the preview in place).
The cost of a lay is the cash the corporation would pay, found by trying the lay on a copy
of the game (``Reader.outcome``), so the title's own terrain rule decides it (1849 rules §3.3:
a quarter for narrow track only).  Nothing here changes the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from stellwerk.api import Game
from stellwerk.web.choices import Action, hex_lays
from stellwerk.words import money

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "heading": "Lay a tile on {hex}",
        "terrain": "Terrain: {kind}, {cost}",
        "no_terrain": "No terrain cost",
        "lay": "Tile {tile}, rotation {rotation}",
        "costs": "costs {cost}",
        "free": "no cost",
        "mountain": "mountain",
        "water": "water",
        "swamp": "swamp",
        "other": "terrain",
        "hint": "Each picture shows the tile as it would lie on the hex, among its neighbours; "
        "choose one to lay it.",
        "back": "Back to the game",
        "none": "No tile can be laid on this hex now.",
    },
    "de": {
        "heading": "Plättchen auf {hex} legen",
        "terrain": "Gelände: {kind}, {cost}",
        "no_terrain": "Keine Geländekosten",
        "lay": "Plättchen {tile}, Drehung {rotation}",
        "costs": "kostet {cost}",
        "free": "kostenlos",
        "mountain": "Berge",
        "water": "Wasser",
        "swamp": "Sumpf",
        "other": "Gelände",
        "hint": "Jedes Bild zeigt das Plättchen, wie es auf dem Feld zwischen seinen Nachbarn "
        "läge; wähle eines, um es zu legen.",
        "back": "Zurück zum Spiel",
        "none": "Auf dieses Feld kann jetzt kein Plättchen gelegt werden.",
    },
}
"""The words of the lay page and the map's confirm bar."""


@dataclass(frozen=True)
class LayOption:
    """One legal lay: its tile, rotation, action, picture on the hex, and cost."""

    tile: str
    name: str
    rotation: int
    action: Action
    picture: str
    cost: int | None
    """The cash the lay would cost (None: the try found no answer)."""
    label: str
    cost_text: str


@dataclass(frozen=True)
class HexPage:
    """The lays of one hex: its name, the terrain in words and money, the options."""

    hex: str
    heading: str
    terrain: str
    options: tuple[LayOption, ...]


def terrain_text(game: Game, hex_id: str, lang: str) -> str:
    """The hex's printed terrain in words and money ("Terrain: mountain, L.80")."""
    words = WORDS.get(lang, WORDS["en"])
    spec = game.board.hexes[hex_id].spec
    if not spec.terrain_cost:
        return words["no_terrain"]
    kind = words.get(spec.terrain or "other", spec.terrain)
    return words["terrain"].format(kind=kind, cost=money(game.view.title, spec.terrain_cost, lang))


def lay_costs(game: Game, actions: list[Action]) -> dict[tuple[str, int], int | None]:
    """(tile, rotation) -> the cash each lay would cost, tried on a copy of the game."""
    out: dict[tuple[str, int], int | None] = {}
    for action in actions:
        outcome = game.view.outcome(action)
        out[(str(action["tile"]), int(str(action["rotation"])))] = (
            None if outcome is None else outcome.spent
        )
    return out


def hex_page(
    game: Game, hex_id: str, lang: str, allowed: Callable[[Action], bool]
) -> HexPage | None:
    """The lays of ``hex_id`` for the entities ``allowed`` lets through, each drawn on the
    hex; None when none is legal there now."""
    from stellwerk.pictures.layview import render_lay_preview
    from stellwerk.pictures.scene import map_scene

    lays = hex_lays(game, hex_id, lang, allowed)
    if lays is None:
        return None
    words = WORDS.get(lang, WORDS["en"])
    actions = [a for t in lays.tiles for a in t.rotations.values()]
    costs = game.kept(f"web.lay-costs.{hex_id}", lambda: lay_costs(game, actions))
    scene = map_scene(game.view, lang=lang)
    board = game.board
    options: list[LayOption] = []
    for tile in lays.tiles:
        definition = board.tile_defs[tile.name]
        for rotation, action in tile.rotations.items():
            cost = costs.get((tile.tile, rotation))
            if cost is None:
                cost_text = ""
            elif cost:
                cost_text = words["costs"].format(cost=money(game.view.title, cost, lang))
            else:
                cost_text = words["free"]
            options.append(
                LayOption(
                    tile=tile.tile,
                    name=tile.name,
                    rotation=rotation,
                    action=action,
                    picture=render_lay_preview(scene, hex_id, definition.rotated(rotation)),
                    cost=cost,
                    label=words["lay"].format(tile=tile.name, rotation=rotation),
                    cost_text=cost_text,
                )
            )
    return HexPage(
        hex=hex_id,
        heading=words["heading"].format(hex=lays.label),
        terrain=terrain_text(game, hex_id, lang),
        options=tuple(options),
    )
