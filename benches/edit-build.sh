#!/bin/sh
# Edit-to-build time of a developer's edit: appends a comment line to FILE
# in the checkout TREE, then builds the binary (debug, incremental, as a
# developer builds) in TARGET. Run it twice side by side, once per
# checkout, sharing TARGET so both reuse the same dependencies:
#
#   farm-bench -n 5 --vs "benches/edit-build.sh ../before crates/site/src/ics.rs /tmp/t" \
#       -- benches/edit-build.sh . crates/site/src/ics.rs /tmp/t
#
# Use throwaway worktrees (`git worktree add`): FILE gains a line per run.
set -eu
[ "$#" -eq 3 ] || { echo "usage: $0 TREE FILE TARGET" >&2; exit 2; }
cd "$1"
echo "// edit $(date +%s%N)" >>"$2"
CARGO_TARGET_DIR="$3" exec cargo build --locked -q --bin activity-site
