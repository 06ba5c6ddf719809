"""The web app's own refusals, each with its HTTP status (docs/web.md, "Status codes").

The engine's and the store's errors keep their types (``IllegalAction`` 422,
``GameMovedOn`` 409, ``GameNotFound`` 404, ``EngineError`` 500); these are the ones the web
layer adds: a request it cannot read, a missing or wrong token, a player acting for an entity
he does not control.
"""

from __future__ import annotations


class WebError(Exception):
    """A refused request: ``status`` is the HTTP status, ``message`` a sentence for the user."""

    status = 400

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class BadRequest(WebError):
    """The request is not what the API reads (not JSON, wrong fields): 400."""

    status = 400


class NoToken(WebError):
    """No token given where one is needed: 401."""

    status = 401


class Forbidden(WebError):
    """A wrong token for this game, a spectator acting, or a player acting for an entity he
    does not control: 403."""

    status = 403


class TooLarge(WebError):
    """The request body is over the limit of its route: 413."""

    status = 413


class NotFound(WebError):
    """A page of a game that does not exist (an action id the game does not have): 404."""

    status = 404
