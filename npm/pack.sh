#!/usr/bin/env bash
# Lays out and packs the npm packages of activity-site from built binaries,
# the way Biome and esbuild ship a native tool to JavaScript projects:
#
#   activity-site-<os>-<cpu>  one per binary given: the binary in bin/, and
#                             `os`, `cpu` (and `libc` on Linux) so npm
#                             installs only the one that fits the machine;
#   activity-site             the main package (npm/activity-site/): its
#                             `bin` launcher finds the platform package
#                             installed beside it and runs its binary; its
#                             optionalDependencies are exactly the platform
#                             packages packed here, at the same version.
#
# Usage: npm/pack.sh --version VERSION --out DIR [--all-platforms] [--repository URL] TARGET=BINARY...
#   TARGET         a Rust target triple of the release (x86_64-unknown-linux-gnu, ...)
#   BINARY         the activity-site binary built for it
#   --repository   the git URL of the source, the packages' `repository` field
#   --all-platforms  refuse unless every target of the table below is given
#                  (the release: a main package missing a platform is never published)
#
# Writes DIR/<name>-<VERSION>.tgz for each package (what `npm publish` takes)
# and prints their names and sizes. A binary this machine can run must say
# it is VERSION (`activity-site --version`), so a package never carries
# another version's binary. Needs bash, node and npm; no network.
set -euo pipefail

usage() {
    sed -n '/^# Usage:/,/^#                  (the release/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit "${1:-2}"
}

here="$(cd "$(dirname "$0")" && pwd)"
version=""
out=""
all=0
repository=""
binaries=()
while [ "$#" -gt 0 ]; do
    case "$1" in
        --version) version="${2:?--version needs a value}"; shift 2 ;;
        --out) out="${2:?--out needs a value}"; shift 2 ;;
        --all-platforms) all=1; shift ;;
        --repository) repository="${2:?--repository needs a value}"; shift 2 ;;
        -h|--help) usage 0 ;;
        -*) echo "pack.sh: unknown option $1" >&2; usage ;;
        *=*) binaries+=("$1"); shift ;;
        *) echo "pack.sh: $1 is not TARGET=BINARY" >&2; usage ;;
    esac
done
[ -n "$version" ] && [ -n "$out" ] && [ "${#binaries[@]}" -gt 0 ] || usage
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
    echo "pack.sh: $version is not a version npm takes (MAJOR.MINOR.PATCH[-PRE]; a tag's leading v removed)" >&2
    exit 2
fi

# Rust target -> npm os, cpu, libc (empty where npm has none to match).
# The package name follows from them: activity-site-<os>-<cpu>, the name the
# launcher asks for on process.platform and process.arch.
TARGETS="
x86_64-unknown-linux-gnu linux x64 glibc
aarch64-unknown-linux-gnu linux arm64 glibc
x86_64-apple-darwin darwin x64 -
aarch64-apple-darwin darwin arm64 -
x86_64-pc-windows-msvc win32 x64 -
aarch64-pc-windows-msvc win32 arm64 -
"
RELEASED="x86_64-unknown-linux-gnu aarch64-apple-darwin x86_64-apple-darwin x86_64-pc-windows-msvc"

host_os="$(node -p process.platform)"
host_cpu="$(node -p process.arch)"

mkdir -p "$out"
out="$(cd "$out" && pwd)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

packed=()
given=()
optional="{}"
for pair in "${binaries[@]}"; do
    target="${pair%%=*}"
    binary="${pair#*=}"
    row="$(echo "$TARGETS" | awk -v t="$target" '$1 == t')"
    if [ -z "$row" ]; then
        echo "pack.sh: no npm platform for the target $target; known:$(echo "$TARGETS" | awk 'NF {printf " %s", $1}')" >&2
        exit 2
    fi
    read -r _ os cpu libc <<<"$row"
    [ -f "$binary" ] || { echo "pack.sh: $binary (for $target) is not a file" >&2; exit 2; }
    name="activity-site-$os-$cpu"
    case " ${given[*]-} " in *" $name "*) echo "pack.sh: $target is given twice" >&2; exit 2 ;; esac
    given+=("$name")
    exe="activity-site"
    [ "$os" = win32 ] && exe="activity-site.exe"

    if [ "$os" = "$host_os" ] && [ "$cpu" = "$host_cpu" ]; then
        said="$("$binary" --version)"
        if [ "$said" != "activity-site $version" ]; then
            echo "pack.sh: $binary says \`$said\`, not activity-site $version" >&2
            exit 2
        fi
    fi

    dir="$stage/$name"
    mkdir -p "$dir/bin"
    cp "$binary" "$dir/bin/$exe"
    chmod 755 "$dir/bin/$exe"
    cat >"$dir/README.md" <<EOF
# $name

The activity-site binary for $os $cpu: install
[\`activity-site\`](https://www.npmjs.com/package/activity-site), which picks this
package on this platform, instead of this one.

$os $cpu 平台的 activity-site 程序：请安装
[\`activity-site\`](https://www.npmjs.com/package/activity-site)，它会在此平台上自动选用本包，
不必直接安装本包。
EOF
    NAME="$name" VERSION="$version" OS="$os" CPU="$cpu" LIBC="$libc" EXE="$exe" TARGET="$target" REPOSITORY="$repository" \
        node -e '
            const e = process.env;
            const pkg = {
              name: e.NAME,
              version: e.VERSION,
              description: `The activity-site binary for ${e.OS} ${e.CPU} (${e.TARGET})`,
              license: "MIT",
              ...(e.REPOSITORY ? { repository: { type: "git", url: e.REPOSITORY } } : {}),
              os: [e.OS],
              cpu: [e.CPU],
              ...(e.LIBC === "-" ? {} : { libc: [e.LIBC] }),
              files: [`bin/${e.EXE}`, "README.md"],
              preferUnplugged: true,
            };
            require("fs").writeFileSync(`${process.argv[1]}/package.json`, JSON.stringify(pkg, null, 2) + "\n");
        ' "$dir"
    optional="$(NAME="$name" VERSION="$version" node -e '
        const o = JSON.parse(process.argv[1]);
        o[process.env.NAME] = process.env.VERSION;
        process.stdout.write(JSON.stringify(o));
    ' "$optional")"
    packed+=("$dir")
done

if [ "$all" = 1 ]; then
    for target in $RELEASED; do
        row="$(echo "$TARGETS" | awk -v t="$target" '$1 == t')"
        read -r _ os cpu _ <<<"$row"
        case " ${given[*]} " in
            *" activity-site-$os-$cpu "*) ;;
            *) echo "pack.sh: --all-platforms: no binary for $target" >&2; exit 2 ;;
        esac
    done
fi

main="$stage/activity-site"
mkdir -p "$main/bin"
cp "$here/activity-site/bin/activity-site.js" "$main/bin/"
chmod 755 "$main/bin/activity-site.js"
cp "$here/activity-site/README.md" "$main/"
VERSION="$version" OPTIONAL="$optional" REPOSITORY="$repository" node -e '
    const fs = require("fs");
    const pkg = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    pkg.version = process.env.VERSION;
    pkg.optionalDependencies = JSON.parse(process.env.OPTIONAL);
    if (process.env.REPOSITORY) pkg.repository = { type: "git", url: process.env.REPOSITORY };
    fs.writeFileSync(process.argv[2] + "/package.json", JSON.stringify(pkg, null, 2) + "\n");
' "$here/activity-site/package.json" "$main"
packed+=("$main")

for dir in "${packed[@]}"; do
    file="$(cd "$dir" && npm pack --silent --pack-destination "$out")"
    echo "$file $(du -h "$out/$file" | cut -f1)"
done
