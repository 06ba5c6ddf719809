"""Pictures of a game: the map, the market, the charters and the players as SVG (and PNG).

Front-end code: it reads a game through its public objects and never changes it.
"""
