#!/usr/bin/env bash
# Build at scale, side by side with Hugo.
#
# For each corpus size (games x 4 locales x 100 activities, from
# benches/gen-corpus.py):
#   1. `activity-site check --now NOW` (wall time);
#   2. a cold `activity-site build --no-cache --now NOW` (default `--compress
#      fast`): wall, user+sys CPU and peak RSS from `/usr/bin/time -v`, the
#      output's files and bytes;
#   3. `hugo` on a minimal site generated here that reads the same data
#      files (its `dataDir` is the corpus's `data/`) and renders one page per
#      game and locale with a template comparable to `game.html` (every
#      activity with its times, status against a pinned "now" and its bar's
#      position), plus a home page listing every game: wall, CPU, peak RSS.
# Each is run RUNS times (default 3); the medians are printed as a Markdown
# table with pages per second (game pages / wall) and build/check. The load
# average before and after is printed too: the machine may be shared.
#
# With --levels, instead: builds the bundled site and the 100-game corpus at
# `--compress none|fast|max` once each and prints the bytes of the text
# files, of their .br and .gz siblings (as % of the text) and the wall/CPU.
#
# Usage: benches/scale-build.sh [--runs N] [--sizes "100 1000"] [--levels]
# Installs hugo and time with apt-get when missing. Work stays in target/bench-scale-build/.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=3
SIZES="100 1000"
LEVELS=0
NOW=2026-11-22T12:00:00
while [ $# -gt 0 ]; do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --sizes) SIZES=$2; shift 2 ;;
    --levels) LEVELS=1; shift ;;
    -h|--help) sed -n 2,24p "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

source benches/lib.sh
need_apt hugo hugo
need_apt /usr/bin/time time
release_bin
WORK=$PWD/target/bench-scale-build
mkdir -p "$WORK"
log() { echo "==> $*" >&2; }

# Every build writes a fresh directory, and all are removed when the script
# ends: on a file system without a journal (this machine's ext4), creating a
# file skips the inodes freed in the last minutes, so a build right after an
# `rm -rf` of the previous output pays for the deletion (seen here: three to
# five times the system time of the same build in a quiet file system).
RUNS_DIR=$WORK/runs
rm -rf "$RUNS_DIR"
mkdir -p "$RUNS_DIR"
trap 'rm -rf "$RUNS_DIR"' EXIT
fresh() { mktemp -d "$RUNS_DIR/$1-XXXXXX"; }

# The corpus of N games, generated once (the generator is deterministic).
corpus() {
  local n=$1 dir=$WORK/corpus-$1
  if [ ! -f "$dir/.done" ]; then
    log "generating the $n-game corpus"
    rm -rf "$dir"
    python3 benches/gen-corpus.py "$dir" --games "$n" --locales 4 --activities 100 >&2
    touch "$dir/.done"
  fi
  echo "$dir"
}

# A minimal Hugo site over the corpus's data files: one stub per game and
# locale (front matter only), the data read from `dataDir`.
hugo_site() {
  local root=$1 site=$2
  rm -rf "$site"
  mkdir -p "$site/content" "$site/layouts/_default"
  cat >"$site/hugo.toml" <<EOF
baseURL = "https://example.org/"
title = "Activities"
dataDir = "$root/data"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
[params]
now = "$NOW"
EOF
  python3 - "$root" "$site/content" <<'PY'
import json, os, sys
root, content = sys.argv[1], sys.argv[2]
games = json.load(open(os.path.join(root, "games.json")))["games"]
for g in games:
    for loc in g["locales"]:
        d = os.path.join(content, g["id"])
        os.makedirs(d, exist_ok=True)
        default = loc == g["defaultLocale"]
        url = "/%s/" % g["id"] if default else "/%s/%s/" % (g["id"], loc)
        name = g["name"].get(loc) or g["name"][g["defaultLocale"]]
        with open(os.path.join(d, loc + ".md"), "w") as f:
            f.write('---\ntitle: %s\ngame: "%s"\nlocale: "%s"\nurl: "%s"\n---\n'
                    % (json.dumps(name), g["id"], loc, url))
PY
  cat >"$site/layouts/_default/single.html" <<'EOF'
{{- $doc := index (index site.Data .Params.game) .Params.locale -}}
{{- $now := time.AsTime site.Params.now -}}
{{- $start := time.AsTime $doc.startTime -}}
{{- $end := time.AsTime $doc.endTime -}}
{{- $span := math.Max 1 (sub $end.Unix $start.Unix) -}}
<!doctype html>
<html lang="{{ .Params.locale }}">
<head><meta charset="utf-8"><title>{{ .Title }} {{ $doc.version }} · {{ $doc.versionName }}</title>
<link rel="alternate" type="application/json" href="/api/v1/activity/{{ .Params.game }}-{{ .Params.locale }}.json"></head>
<body>
<header><a href="/">Home</a></header>
<main>
<section class="version"><h1>{{ .Title }}</h1>
<p>Version <strong>{{ $doc.version }}</strong> · {{ $doc.versionName }}</p>
<p class="meta"><time datetime="{{ $doc.startTime }}">{{ $start.Format "2006-01-02 15:04" }}</time> – <time datetime="{{ $doc.endTime }}">{{ $end.Format "2006-01-02 15:04" }}</time></p>
{{- $progress := math.Min 100 (math.Max 0 (div (mul 100.0 (sub $now.Unix $start.Unix)) $span)) }}
<div class="progress"><div class="fill" style="width: {{ $progress }}%"></div></div>
</section>
<section><h2>Timeline <span class="muted">({{ len $doc.activities }})</span></h2>
<ol class="acts">
{{- range $i, $a := $doc.activities }}
{{- $as := time.AsTime $a.startTime }}{{ $ae := time.AsTime $a.endTime }}
{{- $status := "ongoing" }}{{ if $now.Before $as }}{{ $status = "upcoming" }}{{ else if $ae.Before $now }}{{ $status = "ended" }}{{ end }}
{{- $left := math.Max 0 (div (mul 100.0 (sub $as.Unix $start.Unix)) $span) }}
{{- $width := math.Max 0.5 (div (mul 100.0 (sub $ae.Unix $as.Unix)) $span) }}
<li class="card act {{ $status }}" id="a{{ $i }}" data-start="{{ $a.startTime }}" data-end="{{ $a.endTime }}">
<div class="head"><h3>{{ $a.name }}</h3>{{ with $a.kind }} <span class="badge kind">{{ . }}</span>{{ end }} <span class="badge {{ $status }}">{{ $status }}</span></div>
<p class="meta"><time datetime="{{ $a.startTime }}">{{ $as.Format "2006-01-02 15:04" }}</time> – <time datetime="{{ $a.endTime }}">{{ $ae.Format "2006-01-02 15:04" }}</time></p>
{{- with $a.description }}<p class="desc">{{ . }}</p>{{ end }}
<div class="track"><div class="bar {{ $status }}" style="left: {{ $left }}%; width: {{ $width }}%"></div></div>
</li>
{{- end }}
</ol></section>
</main>
</body>
</html>
EOF
  cat >"$site/layouts/index.html" <<'EOF'
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ site.Title }}</title></head>
<body><main><h1>Games</h1><ul class="games">
{{- range site.RegularPages }}
<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> ({{ .Params.locale }})</li>
{{- end }}
</ul></main></body></html>
EOF
}

# Runs a command under /usr/bin/time -v; prints "wall cpu peak_kb".
measure() {
  local report
  report=$(mktemp)
  /usr/bin/time -v -o "$report" "$@" >/dev/null 2>"$report.err" || {
    cat "$report.err" >&2
    rm -f "$report" "$report.err"
    return 1
  }
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, t, ":"); wall = (n == 3) ? t[1]*3600 + t[2]*60 + t[3] : t[1]*60 + t[2] }
    /User time/ { cpu += $2 }
    /System time/ { cpu += $2 }
    /Maximum resident set size/ { peak = $2 }
    END { printf "%.2f %.2f %d\n", wall, cpu, peak }' "$report"
  rm -f "$report" "$report.err"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Medians of the "wall cpu peak" lines on stdin: "wall cpu peak".
medians() {
  local lines
  lines=$(cat)
  printf '%s %s %s\n' \
    "$(echo "$lines" | awk '{ print $1 }' | median)" \
    "$(echo "$lines" | awk '{ print $2 }' | median)" \
    "$(echo "$lines" | awk '{ print $3 }' | median)"
}

text_bytes() { find "$1" -type f \( -name '*.json' -o -name '*.ics' -o -name '*.html' \) -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }
ext_bytes() { find "$1" -type f -name "*.$2" -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }

if [ "$LEVELS" = 1 ]; then
  bundled=$WORK/bundled
  rm -rf "$bundled" && mkdir -p "$bundled" && cp -r games.json data schema "$bundled/"
  echo "| tree | --compress | text | .br | .br / text | .gz | .gz / text | wall | CPU |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
  for tree in bundled 100; do
    if [ "$tree" = bundled ]; then root=$bundled; else root=$(corpus "$tree"); fi
    for level in none fast max; do
      out=$(fresh "levels-$tree-$level")
      read -r wall cpu _ < <(measure "$BIN" build --root "$root" --out "$out" --no-cache --now "$NOW" --compress "$level")
      text=$(text_bytes "$out"); br=$(ext_bytes "$out" br); gz=$(ext_bytes "$out" gz)
      awk -v t="$tree" -v l="$level" -v text="$text" -v br="$br" -v gz="$gz" -v w="$wall" -v c="$cpu" 'BEGIN {
        printf "| %s | %s | %.1f MB | %.1f MB | %.1f %% | %.1f MB | %.1f %% | %.2f s | %.2f s |\n",
          t, l, text / 1e6, br / 1e6, 100 * br / text, gz / 1e6, 100 * gz / text, w, c }'
    done
  done
  exit 0
fi

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
rows=()
for n in $SIZES; do
  root=$(corpus "$n")
  site=$WORK/hugo-$n
  hugo_site "$root" "$site"
  pages=$((n * 4))
  check=$(for _ in $(seq "$RUNS"); do measure "$BIN" check --root "$root" --now "$NOW"; done | medians)
  ours=$(for _ in $(seq "$RUNS"); do
    out=$(fresh "ours-$n")
    measure "$BIN" build --root "$root" --out "$out" --no-cache --now "$NOW"
    echo "$out" >"$WORK/last-ours"
  done | medians)
  out=$(cat "$WORK/last-ours")
  files=$(find "$out" -type f | wc -l)
  bytes=$(du -sb "$out" | cut -f1)
  theirs=$(for _ in $(seq "$RUNS"); do
    out=$(fresh "hugo-$n")
    measure hugo --quiet --source "$site" --destination "$out"
    echo "$out" >"$WORK/last-hugo"
  done | medians)
  hugo_pages=$(find "$(cat "$WORK/last-hugo")" -name index.html | wc -l)
  read -r cw _ _ <<<"$check"
  read -r ow oc op <<<"$ours"
  read -r hw hc hp <<<"$theirs"
  rows+=("$(awk -v n="$n" -v p="$pages" -v cw="$cw" -v ow="$ow" -v oc="$oc" -v op="$op" -v f="$files" -v b="$bytes" 'BEGIN {
    printf "| %d games | activity-site build | %d | %.2f s | %.2f s | %.1f | %.0f MB | %.0f | %.0fx check (%.2f s); %d files, %.0f MB |",
      n, p, ow, oc, oc / ow, op / 1024, p / ow, ow / cw, cw, f, b / 1e6 }')")
  rows+=("$(awk -v n="$n" -v p="$hugo_pages" -v hw="$hw" -v hc="$hc" -v hp="$hp" 'BEGIN {
    printf "| %d games | hugo | %d | %.2f s | %.2f s | %.1f | %.0f MB | %.0f | pages only |",
      n, p, hw, hc, hc / hw, hp / 1024, p / hw }')")
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| corpus | tool | pages | wall (median of $RUNS) | CPU | CPU/wall | peak RSS | pages/s | notes |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
