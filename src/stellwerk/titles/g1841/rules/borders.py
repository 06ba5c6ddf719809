"""1841's political borders by phase (rules/1841.md 1.2 "Borders by phase", 2.3.3-2.3.5, 2.4).

Province borders split the map into countries.  One set is in force at a time: the phase-2 set
until the first 4-train (Piedmont, Lombardy and Veneto (Austria), the Conservative Zone,
Tuscany; Lugano cut off), the phase-4 set until the first 5-train (only Veneto's border and
Lugano's), then the phase-5 set for the rest of the game (only Lugano's).  The sets and which
phase uses which are data (map.toml ``political_borders``, game.toml ``phases.borders``).

What they restrict belongs to the game flow: in phase 2 track may not be laid or traced across
one, tokens (and token purchases, merger partners) never reach across one.  Routes ignore them
in every phase (rules/1841.md 2.3.5); impassable borders are map borders of the core board.
"""

from __future__ import annotations

from stellwerk.titles.g1841.data_load import Edge, Variant, political_borders, title_data


def borders_in_force(phase: str, variant: Variant = ()) -> frozenset[Edge]:
    """The political border edges in force in ``phase``, both sides of each border."""
    return political_borders(variant)[title_data(variant).phase(phase).borders]
