"""1841 (Northern Italy): title data, map, routes and the game flow (docs/architecture.md)."""
