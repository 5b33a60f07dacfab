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

# Debian's PostgreSQL server: the unit tests' PostgreSQL pass and the cluster's e2e pass start throwaway ones.
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing PostgreSQL (Debian package)…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  else
    echo "PostgreSQL is missing: install it (Debian: apt-get install postgresql) to run the tests on PostgreSQL." >&2
    exit 1
  fi
fi

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Chromium (Debian package)…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: install it (Debian: apt-get install chromium) to run the browser tests." >&2
    exit 1
  fi
fi
