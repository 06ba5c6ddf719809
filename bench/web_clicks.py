"""Click to next position on the game page, in a real Chromium (Debian's), on localhost.

Usage: python bench/web_clicks.py [--clicks 40] [--cut 300] [--game FILE]

Starts ``stellwerk serve --port 0`` on an SQLite file in a temporary folder, imports an
18xx.games game file cut after ``--cut`` actions (default the 1849 fixture of ../shared, as a
game in progress), opens the page of the player to act in Chromium and plays ``--clicks``
moves by clicking: each time the first offered button of a move that is no undo (a pass, a
dividend, a run of the best routes, a train, a station, a share...), or, when the only moves
are tile lays, a lay by clicking its hex and confirming.  Timed on the page's own clock
(``performance.now()``) from the click to the moment the next position is on screen: the
``#game`` element shows the new action count (after a full page load, or after the script
swapped the new position in).  Prints count, median, p90 and worst in milliseconds, and the
page's size in bytes.  The machine's load average is printed too: wall times on a shared
machine grow with its load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / ".." / "shared" / "fixtures" / "18xx.games" / "1849" / "1849_game_end_bank.json"
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
SKIP = {"undo", "accept_offer", "decline_offer", "withdraw_offer"}


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    exe = REPO / ".venv" / "bin" / "stellwerk"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "stellwerk"]
    process = subprocess.Popen(
        [*command, "serve", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if "http://" not in line:
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, "http://" + line.split("http://", 1)[1].split("/", 1)[0]


def acting_page(browser: Any, url: str, links: list[str]) -> Any:
    """A page of the player who has a move now (a new tab per look)."""
    for link in links:
        page = browser.new_page()
        page.goto(url + link)
        if page.locator("#game[data-yours='1']").count():
            return page
        page.close()
    raise SystemExit("nobody has a move")


CLICK = """
(selector) => {
  const count = document.getElementById('game').dataset.count;
  window.__clicked = {count: count, at: performance.now()};
  sessionStorage.setItem('clicked', JSON.stringify({count: count, at: Date.now()}));
  document.querySelector(selector).click();
}
"""

SHOWN = """
() => {
  const game = document.getElementById('game');
  const before = window.__clicked || JSON.parse(sessionStorage.getItem('clicked') || 'null');
  return !!(game && before && game.dataset.count !== before.count);
}
"""

ELAPSED = """
() => {
  if (window.__clicked) { return performance.now() - window.__clicked.at; }
  const before = JSON.parse(sessionStorage.getItem('clicked'));
  return Date.now() - before.at;
}
"""


def one_click(page: Any) -> float | None:
    """Click the first plain move; the milliseconds until the next position shows."""
    buttons = page.locator("#game button[data-kind]")
    for index in range(buttons.count()):
        button = buttons.nth(index)
        kind = button.get_attribute("data-kind")
        if kind in SKIP or not button.is_visible():
            continue
        form = button.locator("xpath=ancestor::form[1]")
        if form.locator("input[name=price]").count() or form.locator("input[name=bid]").count():
            continue  # a price to type: not a single click
        button.evaluate("b => b.setAttribute('data-bench', '1')")
        page.evaluate(CLICK, "[data-bench='1']")
        page.wait_for_function(SHOWN, timeout=30000)
        elapsed: float = page.evaluate(ELAPSED)
        return elapsed
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument("--cut", type=int, default=300)
    parser.add_argument("--game", type=Path, default=FIXTURE)
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    data = json.loads(args.game.read_text(encoding="utf-8"))
    data["actions"] = data["actions"][: args.cut]
    data.pop("result", None)
    data["status"] = "active"
    times: list[float] = []
    size = 0
    with tempfile.TemporaryDirectory() as folder:
        server, url = start_server(Path(folder) / "web.db")
        try:
            made = httpx.post(f"{url}/api/games/import", json=data, timeout=120).json()
            links = [p["link"] for p in made["players"]]
            size = len(httpx.get(url + links[0], follow_redirects=True).content)
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
                page = acting_page(browser, url, links)
                while len(times) < args.clicks:
                    took = one_click(page)
                    if took is None:  # not this player's move any more: find who has one
                        page.close()
                        page = acting_page(browser, url, links)
                        continue
                    times.append(took)
                browser.close()
        finally:
            server.kill()
    times.sort()
    p90 = times[int(len(times) * 0.9) - 1] if len(times) >= 10 else times[-1]
    print(
        f"clicks {len(times)}  median {statistics.median(times):.0f} ms  p90 {p90:.0f} ms  "
        f"worst {times[-1]:.0f} ms  page {size} bytes  load {os.getloadavg()[0]:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
