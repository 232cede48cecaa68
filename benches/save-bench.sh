#!/usr/bin/env bash
# Save to served at scale, for every way a file gets saved (issue 67), and
# a git checkout of many games served whole.
#
# - The corpus is benches/gen-corpus.py's (GAMES games x 4 locales x 100
#   activities), generated once under target/bench-scale-build/ as
#   build-bench.sh --scale makes it.
#   The tree is given activity ids once (`check --fix`), as a project that
#   adopted the tool has them.
# - Each session copies it, starts `serve` on it (RUST_LOG=info, so each
#   rebuild's own time is in its log) and, once the first build and its
#   background compression are done, saves EDITS times with each pattern of
#   benches/save_patterns.py (same file in place, another game in place, a
#   rename over, Vim's save, JetBrains' safe write), PAUSE seconds apart;
#   each save is timed from its first syscall until the edited game's JSON
#   holds the new text (polled every 5 ms).
# - Then, when CHECKOUTS > 0, the copy is made a git repository with a
#   branch that changes CHANGED games (all their locales), and `git
#   checkout` goes back and forth CHECKOUTS times: each is timed from the
#   start of `git checkout` until the last changed game is served new, while
#   the first and the last changed games are polled in turn: a first game
#   seen new and then a last game seen old is a half-served checkout
#   (counted; the site is replaced whole, so it never goes back).
# - With BEFORE=path/to/binary the sessions alternate between BEFORE and
#   BIN (SESSIONS of each).
#
# Usage: benches/save-bench.sh  (env: BIN, BEFORE, GAMES=1000 EDITS=20
#        PAUSE=1.5 SESSIONS=1 CHECKOUTS=10 CHANGED=50 PATTERNS="same other
#        rename vim jetbrains" PORT=5195)
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/lib.sh
need_apt python3 python3
need_apt git git
release_bin

GAMES=${GAMES:-1000}
WORK=$PWD/target/bench-scale-build
mkdir -p "$WORK"
if [ ! -f "$WORK/corpus-$GAMES/.done" ]; then
  rm -rf "$WORK/corpus-$GAMES"
  python3 benches/gen-corpus.py "$WORK/corpus-$GAMES" --games "$GAMES" --locales 4 --activities 100 >&2
  touch "$WORK/corpus-$GAMES/.done"
fi
# The generated activities have no ids: the tree is given them once, as a
# project does after adopting the tool (`check --fix`), so that `serve`
# measures edits of a clean tree, not 400,000 warnings printed again.
if [ ! -f "$WORK/corpus-$GAMES/.ids" ]; then
  "$BIN" --root "$WORK/corpus-$GAMES" check --fix >/dev/null 2>&1 || true
  touch "$WORK/corpus-$GAMES/.ids"
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" >&2

python3 - "$BIN" "${BEFORE:-}" "$WORK/corpus-$GAMES" "$WORK" <<'PY'
import os, re, shutil, statistics, subprocess, sys, tempfile, threading, time, urllib.request
sys.path.insert(0, "benches")
from save_patterns import PATTERNS, served
from serve_proc import stop

after, before, corpus, work = sys.argv[1:5]
edits = int(os.environ.get("EDITS", "20"))
pause = float(os.environ.get("PAUSE", "1.5"))
sessions = int(os.environ.get("SESSIONS", "1"))
checkouts = int(os.environ.get("CHECKOUTS", "10"))
changed = int(os.environ.get("CHANGED", "50"))
patterns = os.environ.get("PATTERNS", " ".join(PATTERNS)).split()
port = int(os.environ.get("PORT", "5195"))
now = "2026-11-22T12:00:00"
bins = [("before", before), ("after", after)] if before else [("now", after)]
KEY = '"versionName": "'


def git(root, *args):
    subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.org",
                    "-c", "commit.gpgsign=false", *args], cwd=root, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def game_ids(root):
    return sorted(os.listdir(os.path.join(root, "data")))


def default_file(root, gid):
    return os.path.join(root, "data", gid, "zh-CN.json")


def url(gid):
    return f"http://127.0.0.1:{port}/api/v1/activity/{gid}.json"


class Log:
    """The server's stderr, kept; the times of its rebuilds in ms."""
    def __init__(self, pipe):
        self.lines, self.lock = [], threading.Lock()
        threading.Thread(target=self.read, args=(pipe,), daemon=True).start()

    def read(self, pipe):
        for line in iter(pipe.readline, b""):
            with self.lock:
                self.lines.append(line.decode(errors="replace"))

    def mark(self):
        with self.lock:
            return len(self.lines)

    def rebuilds(self, since):
        with self.lock:
            lines = self.lines[since:]
        out = []
        for line in lines:
            m = re.search(r"built the site in ([0-9.]+)(ms|s|µs)", line)
            if m:
                value = float(m.group(1))
                out.append(value * {"ms": 1, "s": 1000, "µs": 0.001}[m.group(2)])
        return out


def session(name, bin_, results):
    tmp = tempfile.mkdtemp(prefix="save-bench-", dir=work)
    root = os.path.join(tmp, "root")
    shutil.copytree(corpus, root, ignore=shutil.ignore_patterns(".done", ".ids"))
    ids = game_ids(root)
    if checkouts:
        # The branch `changed` changes the first `changed` games of the
        # second half, every locale; `main` is the corpus as generated.
        git(root, "init", "-q", "-b", "main")
        git(root, "add", "games.json", "data", "schema")
        git(root, "commit", "-q", "-m", "corpus")
        git(root, "checkout", "-q", "-b", "changed")
        for gid in ids[len(ids) // 2:][:changed]:
            for f in os.listdir(os.path.join(root, "data", gid)):
                p = os.path.join(root, "data", gid, f)
                text = open(p, encoding="utf-8").read()
                open(p, "w", encoding="utf-8").write(text.replace(KEY, KEY + "checked-out ", 1))
        git(root, "commit", "-q", "-am", "changed")
        git(root, "checkout", "-q", "main")
    serve = subprocess.Popen([bin_, "serve", "--root", root, "--out", os.path.join(root, "site"),
                              "--now", now, "--addr", f"127.0.0.1:{port}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env={**os.environ, "RUST_LOG": "info", "NO_COLOR": "1"})
    log = Log(serve.stderr)
    try:
        deadline = time.monotonic() + 900
        while True:
            try:
                urllib.request.urlopen(url(ids[0]), timeout=30).read()
                break
            except OSError:
                if time.monotonic() > deadline or serve.poll() is not None:
                    sys.exit("serve did not come up:\n" + "".join(log.lines[-20:]))
                time.sleep(0.2)
        time.sleep(3)
        fresh = iter(ids[: len(ids) // 2])
        for pattern in patterns:
            save = PATTERNS[pattern]
            same = next(fresh)
            for i in range(edits):
                gid = same if pattern == "same" else next(fresh)
                path = default_file(root, gid)
                original = open(path, encoding="utf-8").read()
                marker = f"bench-{pattern}-{i}-{time.time_ns()}"
                mark = log.mark()
                start = time.monotonic()
                save(path, original.replace(KEY, KEY + marker + " ", 1))
                took = served(url(gid), marker, start)
                time.sleep(pause)
                results.setdefault((name, pattern), []).append((took, log.rebuilds(mark)))
        if checkouts:
            first, last = ids[len(ids) // 2:][:changed][0], ids[len(ids) // 2:][:changed][-1]
            for i in range(checkouts):
                branch, new = ("changed", True) if i % 2 == 0 else ("main", False)
                mark = log.mark()
                start = time.monotonic()
                git(root, "checkout", "-q", branch)
                half = 0
                seen_first_new = False
                while True:
                    a = urllib.request.urlopen(url(first), timeout=30).read().decode()
                    seen_first_new |= ("checked-out " in a) == new
                    b = urllib.request.urlopen(url(last), timeout=30).read().decode()
                    last_new = ("checked-out " in b) == new
                    if last_new:
                        break
                    half += seen_first_new
                    if time.monotonic() - start > 120:
                        sys.exit("the checkout was not served within 120 s")
                    time.sleep(0.005)
                took = (time.monotonic() - start) * 1000
                time.sleep(pause)
                results.setdefault((name, "git checkout"), []).append((took, log.rebuilds(mark), half))
    finally:
        # The server's log of the last session of each binary, kept.
        with open(os.path.join(work, f"save-bench-{name}.log"), "w") as f:
            f.writelines(log.lines)
        stop(serve, tmp)


results = {}
for s in range(sessions):
    for name, bin_ in (bins if s % 2 == 0 else bins[::-1]):
        session(name, bin_, results)

print(f"Save to served at {len(game_ids(corpus))} games: medians of {edits * sessions} saves per "
      f"pattern ({checkouts * sessions} checkouts of {changed} games), polled every 5 ms, "
      f"{pause} s apart. \"Rebuilds\" are the rebuilds each save woke, as `serve` logs them "
      f"(median of their sum, and the most a save woke).\n")
print("| binary | pattern | saves | median | min | max | rebuild median | rebuilds per save (max) | half-served |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for (name, pattern), runs in sorted(results.items(), key=lambda kv: (kv[0][0], (patterns + ["git checkout"]).index(kv[0][1]))):
    took = sorted(r[0] for r in runs)
    rebuild = statistics.median(sum(r[1]) for r in runs)
    most = max(len(r[1]) for r in runs)
    half = sum(r[2] for r in runs) if pattern == "git checkout" else ""
    print(f"| {name} | {pattern} | {len(runs)} | {statistics.median(took):.0f} ms | {took[0]:.0f} ms "
          f"| {took[-1]:.0f} ms | {rebuild:.0f} ms | {most} | {half} |")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
