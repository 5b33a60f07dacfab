#!/usr/bin/env bash
# Makes sure what the tests need is installed: the npm packages (with Node 24 among them), PostgreSQL and Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm packages…"
  npm install --no-audit --no-fund
fi

node_version=$(node_modules/.bin/node -p 'process.versions.node')
if ! node_modules/.bin/node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=22)?0:1)'; then
  echo "Node >= 22.22 is required; node_modules/.bin/node is $node_version" >&2
  exit 1
fi

# A Debian package the tests need: installed (as root, with apt-get) when the `present` check fails, else asked for.
need_package() {
  local package=$1 what=$2 present=$3
  eval "$present" && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing $package (Debian package)…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null
  else
    echo "$package is missing: install it (Debian: apt-get install $package) $what." >&2
    exit 1
  fi
}

# PostgreSQL's server: the unit tests' PostgreSQL pass and the cluster's e2e pass start throwaway ones.
need_package postgresql "to run the tests on PostgreSQL" 'ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1'
need_package chromium "to run the browser tests" '[ -x /usr/bin/chromium ]'
# The browser tests run in Chromium's headless shell: the same engine without the full browser's
# compositor and GPU process, at about half the CPU per test (decision 049).
need_package chromium-headless-shell "to run the browser tests" '[ -x /usr/lib/chromium/chromium-headless-shell ]'
