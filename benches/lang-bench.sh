#!/usr/bin/env bash
# `check` in Chinese against `check` in English (issue 39): the same release
# binary on the 1,000-game synthetic corpus (benches/gen-corpus.py, 1000 games
# x 4 locales x 100 activities), clean and with injected defects, run with
# `--lang en-US` and `--lang zh-CN` in alternation (en, zh, en, zh, ...) so
# the machine's drift falls on both alike. Prints the median wall time of
# each language and the ratio zh/en per corpus.
#
# Example:
#
#     benches/lang-bench.sh --rounds 15
#
# Needs python3; uses the corpora check-bench.sh leaves in target/ when they
# are there, and generates them otherwise.

set -euo pipefail

ROUNDS=11
GAMES=1000
DEFECTS=1000
NOW=2026-11-22T12:00:00
while [ $# -gt 0 ]; do
    case $1 in
        --rounds) ROUNDS=$2; shift 2 ;;
        --games) GAMES=$2; shift 2 ;;
        --defects) DEFECTS=$2; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "error: unknown option $1" >&2; exit 2 ;;
    esac
done

REPO=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=$REPO/target/lang-bench-corpus
CORPUS_BAD=$REPO/target/lang-bench-corpus-defects
BIN=$REPO/target/release/activity-site

log() { echo "==> $*" >&2; }

log "building the release binary"
(cd "$REPO" && cargo build --locked --release --quiet)

generate() {
    local out=$1; shift
    if [ ! -f "$out/games.json" ]; then
        log "generating $out"
        python3 "$REPO/benches/gen-corpus.py" "$out" --force --games "$GAMES" --locales 4 --activities 100 "$@" >/dev/null
    fi
}
generate "$CORPUS"
generate "$CORPUS_BAD" --defects "$DEFECTS" \
    --defect-kinds bad-date,unknown-key,end-before-start,offset,hour-24,wrong-type,missing-field,bad-cover,duplicate

# One run: wall seconds of `check` with the given language, human output to /dev/null.
run() {
    local root=$1 lang=$2 start end
    start=$(date +%s.%N)
    "$BIN" --lang "$lang" check --root "$root" --now "$NOW" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

printf '| corpus | diagnostics | en-US median | zh-CN median | zh/en |\n|---|---|---|---|---|\n'
for root in "$CORPUS" "$CORPUS_BAD"; do
    count=$( { "$BIN" check --root "$root" --now "$NOW" --format json 2>/dev/null || true; } \
        | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["diagnostics"]))')
    # Warm the page cache once per language.
    run "$root" en-US >/dev/null; run "$root" zh-CN >/dev/null
    en=(); zh=()
    for _ in $(seq "$ROUNDS"); do
        en+=("$(run "$root" en-US)")
        zh+=("$(run "$root" zh-CN)")
    done
    m_en=$(printf '%s\n' "${en[@]}" | median)
    m_zh=$(printf '%s\n' "${zh[@]}" | median)
    printf '| %s | %s | %.0f ms | %.0f ms | %.3f |\n' "$(basename "$root")" "$count" \
        "$(echo "$m_en * 1000" | bc -l)" "$(echo "$m_zh * 1000" | bc -l)" "$(echo "$m_zh / $m_en" | bc -l)"
done
