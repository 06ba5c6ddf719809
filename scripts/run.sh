#!/usr/bin/env bash
# Sets up .venv, plays a whole 1849 game with the seeded random driver, replays it and prints
# the result and draws its map and market; replays the real 1849 fixture too when ../shared/fixtures exists;
# then plays a demonstration game of 1849 by mail (Maildir in, reports out in $OUT/gm/outbox; no mail
# server, no ../shared needed) and shows its state with `stellwerk gm status`; then the seeds' own
# case by mail: 1841 with seed 003's house rules (zugzwang), in German, through the concession
# auction, a merger answered by mail and a missed deadline settled by default orders.
# Environment: SEED (default 1), PLAYERS (default 3), OUT (default out/).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || { echo "run.sh: setup failed" >&2; exit 1; }
SEED="${SEED:-1}"
PLAYERS="${PLAYERS:-3}"
OUT="${OUT:-out}"
mkdir -p "$OUT"
game="$OUT/selfplay_1849_seed${SEED}.json"
status=0

echo "== selfplay: 1849, $PLAYERS players, seed $SEED"
.venv/bin/stellwerk selfplay 1849 --players "$PLAYERS" --seed "$SEED" -o "$game" || status=1

if [ -f "$game" ]; then
    echo "== replay $game"
    .venv/bin/stellwerk replay "$game" --json || status=1
    echo "== pictures of its final state: $OUT/selfplay_1849_seed${SEED}.map.svg, .market.svg"
    .venv/bin/stellwerk map "$game" -o "$OUT/selfplay_1849_seed${SEED}.map.svg" || status=1
    .venv/bin/stellwerk market "$game" -o "$OUT/selfplay_1849_seed${SEED}.market.svg" || status=1
fi

fixture=../shared/fixtures/18xx.games/1849/1849_game_end_bank
if [ -d ../shared/fixtures ] && [ -f "$fixture.json" ]; then
    echo "== replay $fixture.json against its trace"
    .venv/bin/stellwerk replay "$fixture.json" --trace "$fixture.trace.jsonl" --json || status=1
fi

echo "== game master: a demonstration game of 1849 by mail into $OUT/gm"
.venv/bin/python -m stellwerk.gm.demo "$OUT/gm" || status=1
if [ -f "$OUT/gm/gm.db" ]; then
    .venv/bin/stellwerk gm status demo1849 --db "$OUT/gm/gm.db" || status=1
fi

echo "== game master: the seeds' own case, 1841 with the zugzwang house rules by mail in German, into $OUT/gm1841"
.venv/bin/python -m stellwerk.gm.demo1841 "$OUT/gm1841" || status=1
if [ -f "$OUT/gm1841/gm.db" ]; then
    .venv/bin/stellwerk gm status zugzwang1841 --db "$OUT/gm1841/gm.db" || status=1
fi

echo "== web app: a demonstration game of 1849 in the browser (SQLite $OUT/web/demo.db)"
mkdir -p "$OUT/web"
rm -f "$OUT/web/demo.db" "$OUT/web/demo.db-wal" "$OUT/web/demo.db-shm"
.venv/bin/stellwerk serve --demo --port 0 --db "$OUT/web/demo.db" > "$OUT/web/serve.txt" 2>&1 &
server=$!
if .venv/bin/python scripts/web_check.py "$OUT/web/serve.txt"; then
    cat "$OUT/web/serve.txt"
else
    status=1
fi
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
echo "   (to play it: .venv/bin/stellwerk serve --demo --db $OUT/web/demo.db, then open a link)"

if [ "$status" -ne 0 ]; then
    echo "run.sh: finished with failures (see above)" >&2
else
    echo "run.sh: all steps matched"
fi
exit "$status"
