"""stellwerk: an 18xx engine and game master for 1841, 1849 and 1835."""

__version__ = "0.1.0"


def build() -> str:
    """Which build of the engine runs: ``native`` when the core's hot modules were compiled by
    mypyc (``scripts/build_native.sh``, or a wheel built with ``STELLWERK_NATIVE=1``;
    docs/native-build.md), else ``pure Python``.  Both play exactly the same."""
    from stellwerk.core import game

    return "pure Python" if str(game.__file__).endswith(".py") else "native"
