# Helpers shared by the benchmark scripts: `source` it.

BENCH_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# need_apt COMMAND PACKAGE...: installs the Debian packages (with sudo when
# not root) unless COMMAND (a name on PATH or an absolute path) exists.
need_apt() {
  local command=$1
  shift
  command -v "$command" >/dev/null 2>&1 && return 0
  echo "installing $* (apt)" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# release_bin: sets BIN to a release build of this tree, built now, unless
# BIN is already set (BIN=path/to/activity-site measures that binary).
release_bin() {
  if [ -z "${BIN:-}" ]; then
    (cd "$BENCH_REPO" && timeout 3000 cargo build --release --locked -q)
    BIN=$BENCH_REPO/target/release/activity-site
  fi
}
