#!/usr/bin/env bash
# Differential test against 18xx.games' engine (local only; CI never runs this).
#
# Needs the oracle laid out in /tmp/x18 (see ../shared/tools/oracle/README.md: fetch
# tobymao/18xx, then ../shared/tools/oracle/setup.sh SNAPSHOT).  For each line
# "PLAYERS SEED [OPTION ...]" on standard input it plays a game with our selfplay driver,
# has the oracle replay it and write its state after every action (refusing an action ends
# its trace with a "refused_action_id" line), and replays our file against that trace.
#
#   printf '3 1\n4 2 bonds\n' | bash scripts/oracle_diff.sh [OUTDIR]
#   printf '3 1 lite\n' | TITLE=1841 bash scripts/oracle_diff.sh [OUTDIR]
# MAX_ACTIONS caps each selfplay game.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${1:-/tmp/stellwerk-oracle}"
title="${TITLE:-1849}"
mkdir -p "$out"
oracle=/tmp/x18
[ -f "$oracle/trace.rb" ] || { echo "no oracle in $oracle (see ../shared/tools/oracle)" >&2; exit 2; }
# a trace writer that stops at the first action the oracle refuses (its engine swallows errors)
if [ ! -f "$oracle/trace_strict.rb" ]; then
    sed 's/      game.process_action(a)/      game.process_action(a)\n      if (ex = game.instance_variable_get(:@exception))\n        f.puts(JSON.generate({ "refused_action_id" => a["id"], "error" => ex.message[0, 500] }))\n        exit 3\n      end/' \
        "$oracle/trace.rb" > "$oracle/trace_strict.rb"
fi
while read -r players seed opts; do
    [ -n "${players:-}" ] || continue
    name="$out/${title}_p${players}_s${seed}_$(echo "${opts:-}" | tr ' ' '+')"
    args=()
    for o in ${opts:-}; do args+=(--option "$o"); done
    .venv/bin/stellwerk selfplay "$title" ${MAX_ACTIONS:+--max-actions "$MAX_ACTIONS"} --players "$players" --seed "$seed" "${args[@]}" --veto tools/oracle_defects_1841.py:veto -o "$name.json" > "$name.selfplay.log" 2>&1
    (cd "$oracle" && ENGINE_LOG_LEVEL=4 timeout 900 ruby -Ishim trace_strict.rb "$name.json" "$name.trace.jsonl" > "$name.oracle.log" 2>&1)
    verdict=$(.venv/bin/stellwerk replay "$name.json" --trace "$name.trace.jsonl" --json 2>/dev/null | tail -n 1)
    echo "$(basename "$name"): $(tail -n 1 "$name.selfplay.log" | cut -c1-70) | ${verdict:0:400}"
done
