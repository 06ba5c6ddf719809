"""The one company rule code names (rules/1835.md 10)."""

PR = "PR"
"""Rule code names no company but PR, the company formed by exchange (rules/1835.md 10)."""
