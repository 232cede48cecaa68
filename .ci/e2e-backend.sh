#!/usr/bin/env bash
# End-to-end check of issue 38: the real backend, `sra-cli` of PyPI
# `starrailassistant==2.24.1` (Python >=3.12,<3.13), unchanged, behind
# `activity-site serve --backend-command`, through the whole control API
# (.ci/e2e_backend.py), then the web UI client checks (.ci/e2e-webui.sh)
# against it. Before that, it records the real program's answers again
# (crates/control/tests/fixtures/sra-cli/record.py) and fails when their shapes differ from
# the committed transcript the router tests replay, and runs the test that
# compares the simulator's shapes with the real program's.
#
# Python 3.12: `python3.12` on PATH, else pyenv's 3.12 (these machines have
# one), else Debian's python3.12 package when the release has one. When none
# is found the check FAILS and says what to install; it never skips.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=.ci/lib.sh
. .ci/lib.sh
# shellcheck disable=SC2046 # one word per package
apt_need $(missing_commands curl python3)

find_python312() {
    local candidate root
    for candidate in python3.12 "$(command -v pyenv >/dev/null 2>&1 && pyenv root)"/versions/3.12*/bin/python3.12 \
        "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.12*/bin/python3.12 /usr/bin/python3.12 /usr/local/bin/python3.12; do
        root="$(command -v "$candidate" 2>/dev/null || true)"
        if [[ -n "$root" ]] && "$root" -c 'import sys, venv, ensurepip; assert sys.version_info[:2] == (3, 12)' 2>/dev/null; then
            echo "$root"
            return 0
        fi
    done
    return 1
}

PY312="$(find_python312 || true)"
if [[ -z "$PY312" ]] && apt-cache policy python3.12 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    apt_need python3.12 python3.12-venv
    PY312="$(find_python312 || true)"
fi
if [[ -z "$PY312" ]]; then
    cat >&2 <<'MSG'
FAILED: no CPython 3.12 on this machine, and sra-cli 2.24.1 (PyPI starrailassistant==2.24.1)
requires Python >=3.12,<3.13. Install one, then run this check again:
  - with pyenv:  pyenv install 3.12   (or put any python3.12 with venv and ensurepip on PATH)
  - on a Debian or Ubuntu release that packages it:  apt-get install python3.12 python3.12-venv
(Debian 12 and 13 package no python3.12; PyPI, npm and crates.io carry no CPython 3.12 build
that installs without a download from elsewhere.)
MSG
    exit 1
fi
echo "Python 3.12: $PY312 ($("$PY312" --version))"

use_activity_site

scratch_dir

log "installing starrailassistant==2.24.1 into a Python 3.12 virtual environment"
VENV="${SRA_VENV:-$work/venv-sra}"
[[ -x "$VENV/bin/sra-cli" ]] || "$PY312" -m venv "$VENV"
timeout 900 "$VENV/bin/pip" install --quiet --disable-pip-version-check 'starrailassistant==2.24.1'
SRA_CLI="$VENV/bin/sra-cli"
"$SRA_CLI" --version

log "recording the real program's answers again; comparing their shapes with the committed transcript"
timeout 300 "$VENV/bin/python" crates/control/tests/fixtures/sra-cli/record.py "$SRA_CLI" "$work/transcript.json"
python3 .ci/e2e_backend.py compare crates/control/tests/fixtures/sra-cli/transcript-2.24.1.json "$work/transcript.json"

log "the simulator and the real backend give the same shapes (cargo test with SRA_CLI)"
# The test lives in the control crate; `--workspace` keeps the features of the
# README's test run, so nothing is compiled again.
SRA_CLI="$SRA_CLI" timeout 1200 cargo test --workspace --locked --test tests \
    control::real::the_simulator_and_the_real_backend_give_the_same_shapes -- --nocapture \
    >"$work/real.log" 2>&1 || { tail -n 40 "$work/real.log" >&2; exit 1; }
grep -v '^\s*$' "$work/real.log" | tail -n 8
grep -q 'the_simulator_and_the_real_backend_give_the_same_shapes \.\.\. ok' "$work/real.log" ||
    { echo "the shape comparison with the real backend did not run" >&2; exit 1; }
if grep -q '^skipped' "$work/real.log"; then
    echo "the shape comparison skipped the real backend (SRA_CLI=$SRA_CLI)" >&2
    exit 1
fi

log "the whole control API through the real backend"
PORT="$(free_port)"
"$ACTIVITY_SITE_BIN" serve --no-watch --root . --out "$work/site" --state-dir "$work/state" \
    --addr "127.0.0.1:$PORT" --backend-command "$SRA_CLI" >"$work/server.log" 2>&1 &
server_pid=$!
wait_for_port "$PORT" "$work/server.log"
timeout 600 python3 .ci/e2e_backend.py drive "http://127.0.0.1:$PORT" "$work/state" "$SRA_CLI" || {
    echo "--- server log" >&2
    tail -n 80 "$work/server.log" >&2
    exit 1
}
stop_server

log "the web UI client checks against the real backend"
BACKEND_COMMAND="$SRA_CLI" bash .ci/e2e-webui.sh

log "the real backend behind serve: passed"
