#!/usr/bin/env bash
# Rebuild time after an edit: touches one file of the dev server, one of
# the language server and one rule of the checker, then builds the binary
# (debug, incremental, as a developer builds) in each of two checkouts,
# each with its own target folder; alternating pairs (before then after,
# then after then before), the medians of wall and CPU time per file, and
# the crates cargo recompiled (its `Compiling` lines).
#
#   git worktree add --detach ../before b47f06a
#   benches/rebuild-bench.sh ../before . 3
#
# A file is found at its place in either layout: the root package's `src/`
# before the split, its crate after it.
set -euo pipefail
[ "$#" -ge 2 ] || { echo "usage: $0 BEFORE AFTER [PAIRS]" >&2; exit 2; }
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
pairs=${3:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The edited files, one case a line: a name, then its paths in either layout.
cases=(
  "server src/server/static.rs"
  "lsp src/lsp/hover.rs crates/lsp/src/hover.rs"
  "rule src/validate/rules/dates.rs crates/check/src/validate/rules/dates.rs"
)

# The path of case $2's file in checkout $1.
file_of() {
  local tree=$1 path
  shift 2
  for path in "$@"; do
    [ -e "$tree/$path" ] && { echo "$path"; return; }
  done
  echo "no file of the case in $tree" >&2
  exit 1
}

# Builds checkout $1 once, as a developer does after an edit.
build() {
  (cd "$1" && cargo build --locked --bin activity-site 2>&1)
}

# Touches case $3's file in checkout $2 and times the build; prints
# `case side wall cpu crates,...`.
run() {
  local side=$1 tree=$2 name=$3
  shift 3
  local file
  file=$(file_of "$tree" "$name" "$@")
  touch "$tree/$file"
  /usr/bin/time -f "%e %U %S" -o "$out/time" bash -c "cd '$tree' && cargo build --locked --bin activity-site" >"$out/log" 2>&1
  local crates
  crates=$(sed -n 's/^ *Compiling \([^ ]*\) .*/\1/p' "$out/log" | paste -sd, -)
  read -r wall user sys <"$out/time"
  echo "$name $side $wall $(echo "$user + $sys" | bc) ${crates:-none}"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo "warm-up builds (untimed)"
build "$before" >/dev/null
build "$after" >/dev/null
for spec in "${cases[@]}"; do
  # shellcheck disable=SC2086
  set -- $spec
  for i in $(seq "$pairs"); do
    if [ $((i % 2)) -eq 1 ]; then
      run before "$before" "$@"; run after "$after" "$@"
    else
      run after "$after" "$@"; run before "$before" "$@"
    fi
  done
done | tee "$out/runs"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out/runs" <<'PY'
import statistics, sys
runs = [line.split() for line in open(sys.argv[1])]
print("| the edit | before: wall / CPU | after: wall / CPU | after / before (wall, CPU) | recompiled after |")
print("|---|---|---|---|---|")
for case in dict.fromkeys(r[0] for r in runs):
    med = {}
    for side in ("before", "after"):
        rs = [r for r in runs if r[0] == case and r[1] == side]
        med[side] = (statistics.median(float(r[2]) for r in rs), statistics.median(float(r[3]) for r in rs))
    crates = sorted({r[4] for r in runs if r[0] == case and r[1] == "after"})
    b, a = med["before"], med["after"]
    print(f"| {case} | {b[0]:.1f} s / {b[1]:.1f} s | {a[0]:.1f} s / {a[1]:.1f} s "
          f"| {a[0] / b[0]:.2f}, {a[1] / b[1]:.2f} | {' '.join(crates)} |")
PY
