# Helpers the end-to-end scripts share; source it, do not run it.
#
#   apt_need PKG...      installs the Debian packages given (as root or with
#                        sudo), after one `apt-get update`; a no-op for none.
#   use_activity_site    sets ACTIVITY_SITE_BIN to the binary under test:
#                        the one given in the environment (`.ci/run` passes
#                        the debug binary `cargo test` built), otherwise a
#                        `cargo build` of it. Building again after the tests
#                        would compile every dependency a second time with
#                        the features of a plain build, gigabytes of disk
#                        a CI machine may not have.

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
