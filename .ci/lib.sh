# Helpers the end-to-end scripts share; source it, do not run it.
#
#   apt_need PKG...      installs the Debian packages given (as root or with
#                        sudo), after one `apt-get update`; a no-op for none.
#   python_venv_missing  prints the Debian packages that python3 with venv
#                        (and ensurepip) still needs: nothing, python3-venv,
#                        or python3 and python3-venv. Add them to the script's
#                        one apt_need. (python3-venv brings the pip wheel,
#                        which depends on ca-certificates for PyPI.)
#   python_venv DIR SPEC...
#                        makes a virtual environment at DIR (kept when one
#                        is there) and pip-installs the requirement SPECs
#                        into it, in at most 600 s; then run DIR/bin/python.
#   wait_for_port PORT LOG
#                        waits (at most 120 s) until 127.0.0.1:PORT takes a
#                        connection; otherwise prints LOG and fails.
#   log TEXT...          prints a heading line (`== TEXT`) for a step.
#   say TEXT...          prints a line naming the script (`e2e-mcp.sh: TEXT`).
#   missing_commands CMD...
#                        prints each CMD that is not on PATH (for the Debian
#                        package of the same name): `apt_need $(missing_commands curl)`.
#   free_port            prints a TCP port of 127.0.0.1 that is free now.
#   scratch_dir          sets `work` to a new temporary folder and
#                        `server_pid` to empty; on exit, stops the server
#                        (stop_server) and removes the folder.
#   stop_server          stops the server whose process id the script put in
#                        `server_pid` (the one it started), if any, and
#                        empties `server_pid`.
#   use_activity_site    sets ACTIVITY_SITE_BIN to the binary under test:
#                        the one given in the environment (`.ci/run` passes
#                        the debug binary `cargo test` built), otherwise a
#                        `cargo build` of it. Building again after the tests
#                        would compile every dependency a second time with
#                        the features of a plain build, gigabytes of disk
#                        a CI machine may not have.

log() { printf '\n== %s\n' "$*"; }

say() { echo "$(basename "$0"): $*"; }

missing_commands() {
    local cmd
    for cmd in "$@"; do
        command -v "$cmd" >/dev/null 2>&1 || echo "$cmd"
    done
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

stop_server() {
    if [ -n "${server_pid:-}" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
        server_pid=""
    fi
}

scratch_dir() {
    work="$(mktemp -d)"
    server_pid=""
    trap 'stop_server; rm -rf "$work"' EXIT
}

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

apt_need() {
    [ "$#" -gt 0 ] || return 0
    echo "installing $* (apt)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

use_activity_site() {
    if [ -n "${ACTIVITY_SITE_BIN:-}" ]; then
        if [ ! -x "$ACTIVITY_SITE_BIN" ]; then
            echo "ACTIVITY_SITE_BIN=$ACTIVITY_SITE_BIN is not an executable file" >&2
            return 1
        fi
    else
        echo "building activity-site"
        timeout 1800 cargo build --locked --quiet --bin activity-site
        ACTIVITY_SITE_BIN="$PWD/target/debug/activity-site"
    fi
    export ACTIVITY_SITE_BIN
    echo "testing $ACTIVITY_SITE_BIN"
}

python_venv_missing() {
    if ! command -v python3 >/dev/null 2>&1; then
        echo python3 python3-venv
        return 0
    fi
    python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || echo python3-venv
}

python_venv() {
    local dir="$1"
    shift
    [ -x "$dir/bin/python" ] || python3 -m venv "$dir"
    timeout 600 "$dir/bin/pip" install --quiet --disable-pip-version-check "$@"
}

wait_for_port() {
    if ! python3 - "$1" <<'EOF'; then
import socket, sys, time
deadline = time.monotonic() + 120
while time.monotonic() < deadline:
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.2)
sys.exit(1)
EOF
        echo "the server did not start on port $1; its log:" >&2
        cat "$2" >&2
        return 1
    fi
}
