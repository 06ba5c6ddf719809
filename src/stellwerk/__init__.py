"""stellwerk: an 18xx engine and game master for 1841, 1849 and 1835."""

__version__ = "0.1.0"
