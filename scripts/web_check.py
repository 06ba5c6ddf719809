"""run.sh's check of the web app's demonstration: wait for `stellwerk serve --demo` to print its
address and links (the file given), then load the first player's page and the game through the
JSON API (docs/web.md).  Exit 0 when both answer, 1 otherwise (with the reason)."""

from __future__ import annotations

import json
import re
import sys
import time
import urllib.request
from pathlib import Path

WAIT_SECONDS = 60.0


def main(out: Path) -> int:
    """Look at the server whose output goes to ``out``."""
    deadline = time.monotonic() + WAIT_SECONDS
    links: list[str] = []
    while time.monotonic() < deadline:
        text = out.read_text() if out.exists() else ""
        links = re.findall(r"^\s+\w+: (http://\S+)$", text, re.MULTILINE)
        if links:
            break
        time.sleep(0.3)
    if not links:
        print(f"web_check: the server printed no links in {WAIT_SECONDS:.0f} s", file=sys.stderr)
        return 1
    page = urllib.request.urlopen(links[0], timeout=30)
    match = re.match(r"(http://[^/]+)/games/([^?]+)\?token=(\S+)", links[0])
    if page.status != 200 or match is None:
        print(f"web_check: {links[0]} answered {page.status}", file=sys.stderr)
        return 1
    base, game, token = match.groups()
    request = urllib.request.Request(
        f"{base}/api/games/{game}", headers={"Authorization": f"Bearer {token}"}
    )
    view = json.load(urllib.request.urlopen(request, timeout=30))
    print(
        f"   web app answered: {view['title']} game {game}, {view['action_count']} actions, "
        f"{len(view['legal_actions'])} legal actions for {view['active']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
