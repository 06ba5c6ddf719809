"""The one JSON type of the package, and small readers that narrow it.

Everything read from a file or a request (game files, traces, web bodies, settings kept in a
database) is a :data:`JSONValue` until a reader has checked the part it needs.  The readers
take the error to raise for a malformed value (``error``: a callable from a reason to an
exception, e.g. ``GameFileError`` or ``ConfigError``), so each front end keeps its own error
type and its own wording of where the fault is; the default is :class:`ShapeError`.

Why one recursive union and not ``Any``: a value from outside is unchecked by definition, and
mypy then makes the reader say what it expects before using it (a missing check is a type
error, not a ``TypeError`` deep inside a rule).  Known shapes built by us (the views, the web
API's answers) are ``TypedDict`` s in their own modules; an action stays a ``JSONObject``
because its fields depend on its type (checked by ``stellwerk.core.actions.check_shape``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias, TypeGuard

JSONValue: TypeAlias = bool | int | float | str | list["JSONValue"] | dict[str, "JSONValue"] | None
"""A value ``json.loads`` can return."""
JSONObject: TypeAlias = dict[str, JSONValue]
"""A JSON object: what ``json.loads`` returns for ``{...}``."""
JSONList: TypeAlias = list[JSONValue]

ErrorFactory = Callable[[str], Exception]


class ShapeError(ValueError):
    """A JSON value that does not have the shape a reader expects (``reason`` says which)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def is_int(value: object) -> TypeGuard[int]:
    """An integer that is not a bool (JSON ``true`` is no number)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_object(value: object) -> TypeGuard[JSONObject]:
    """A JSON object (its values are not looked at)."""
    return isinstance(value, dict)


def as_object(value: object, what: str, error: ErrorFactory = ShapeError) -> JSONObject:
    """``value`` as a JSON object, or ``error`` naming ``what``."""
    if not isinstance(value, dict):
        raise error(f"{what} must be an object, not {value!r}")
    return value


def as_list(value: object, what: str, error: ErrorFactory = ShapeError) -> JSONList:
    """``value`` as a JSON list, or ``error`` naming ``what``."""
    if not isinstance(value, list):
        raise error(f"{what} must be a list, not {value!r}")
    return value


def objects(value: object, what: str, error: ErrorFactory = ShapeError) -> list[JSONObject]:
    """``value`` as a list of JSON objects, or ``error`` naming ``what``."""
    return [as_object(item, f"an entry of {what}", error) for item in as_list(value, what, error)]


def text(obj: JSONObject, key: str, error: ErrorFactory = ShapeError) -> str:
    """The string at ``obj[key]``; missing or of another type: ``error``."""
    value = obj.get(key)
    if not isinstance(value, str):
        raise error(f"'{key}' must be a string, not {value!r}")
    return value


def integer(obj: JSONObject, key: str, error: ErrorFactory = ShapeError) -> int:
    """The integer at ``obj[key]`` (not a bool); missing or of another type: ``error``."""
    value = obj.get(key)
    if not is_int(value):
        raise error(f"'{key}' must be an integer, not {value!r}")
    return value


def optional_text(obj: JSONObject, key: str, error: ErrorFactory = ShapeError) -> str | None:
    """The string at ``obj[key]``, None when missing or null; another type: ``error``."""
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise error(f"'{key}' must be a string, not {value!r}")
    return value


def optional_integer(obj: JSONObject, key: str, error: ErrorFactory = ShapeError) -> int | None:
    """The integer at ``obj[key]``, None when missing or null; another type: ``error``."""
    value = obj.get(key)
    if value is None:
        return None
    if not is_int(value):
        raise error(f"'{key}' must be an integer, not {value!r}")
    return value


def optional_number(
    obj: JSONObject, key: str, error: ErrorFactory = ShapeError
) -> int | float | None:
    """The number at ``obj[key]`` (integer or float, not a bool), None when missing or null;
    another type: ``error``."""
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise error(f"'{key}' must be a number, not {value!r}")
    return value


def list_at(obj: JSONObject, key: str, error: ErrorFactory = ShapeError) -> JSONList:
    """The list at ``obj[key]`` (missing or null: empty); another type: ``error``."""
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise error(f"'{key}' must be a list, not {value!r}")
    return value


def objects_at(obj: JSONObject, key: str, error: ErrorFactory = ShapeError) -> list[JSONObject]:
    """The list of objects at ``obj[key]`` (missing or null: empty); else ``error``."""
    return objects(list_at(obj, key, error), f"'{key}'", error)


def first_text(obj: JSONObject, key: str, error: ErrorFactory = ShapeError) -> str:
    """The first entry of the list at ``obj[key]`` as text ("" when the list is empty or
    missing), e.g. the first certificate of a share action."""
    values = list_at(obj, key, error)
    return str(values[0]) if values else ""


def texts(obj: JSONObject, key: str, error: ErrorFactory = ShapeError) -> list[str]:
    """The list of strings at ``obj[key]`` (missing or null: empty); another shape: ``error``."""
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise error(f"'{key}' must be a list of strings, not {value!r}")
    return [item for item in value if isinstance(item, str)]


def ident(obj: JSONObject, key: str, error: ErrorFactory = ShapeError) -> int | str:
    """An id at ``obj[key]``: a string or an integer (a player's id); else ``error``."""
    value = obj.get(key)
    if not (isinstance(value, str) or is_int(value)):
        raise error(f"'{key}' must be an integer or a string, not {value!r}")
    return value


def scalar_text(value: JSONValue) -> str:
    """A scalar shown as text (``None`` as the empty string); lists and objects as JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    import json

    return json.dumps(value, ensure_ascii=False)
