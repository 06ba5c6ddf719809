"""The web app (issue 11): pages, JSON API and live feed over the engine API and the game store."""
