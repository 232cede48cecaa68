#!/usr/bin/env bash
# The whole test suite again and again with both cores kept busy (issue 67,
# item 5): a test that reads something asynchronous once, instead of
# waiting for it with a deadline, fails here sooner or later. Two shell
# loops spin on the cores for the whole run; each round is the README's
# test command. One line per round goes to stdout: its exit status, the
# tests passed and failed, the seconds it took and the load average; each
# round's full output is kept in $LOGS/round-N.log.
#
# Usage: benches/suite-under-load.sh  (env: ROUNDS=10 BURNERS=2 LOGS=target/suite-under-load)
set -uo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-10}
BURNERS=${BURNERS:-2}
LOGS=${LOGS:-target/suite-under-load}
mkdir -p "$LOGS"

cargo test --workspace --locked --no-run >/dev/null 2>&1 || { echo "the tests do not build" >&2; exit 2; }

burners=()
for _ in $(seq "$BURNERS"); do
  (while :; do :; done) &
  burners+=($!)
done
trap 'kill "${burners[@]}" 2>/dev/null' EXIT

failed_rounds=0
for round in $(seq "$ROUNDS"); do
  log="$LOGS/round-$round.log"
  start=$(date +%s)
  cargo test --workspace --locked >"$log" 2>&1
  status=$?
  passed=$(grep -o '[0-9]* passed' "$log" | awk '{s += $1} END {print s + 0}')
  failed=$(grep -o '[0-9]* failed' "$log" | awk '{s += $1} END {print s + 0}')
  [ "$status" -eq 0 ] || failed_rounds=$((failed_rounds + 1))
  echo "round $round: exit $status, $passed passed, $failed failed, $(( $(date +%s) - start )) s, load $(cut -d' ' -f1-3 /proc/loadavg)"
done
echo "$failed_rounds of $ROUNDS rounds failed"
[ "$failed_rounds" -eq 0 ]
