#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster (Debian's server, run as the postgres user):
#   scripts/with-postgres.sh npm run test:unit
# DATABASE_URL points at it while the command runs; the cluster is removed afterwards.
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ]; then
  echo "PostgreSQL server binaries not found under /usr/lib/postgresql; install Debian's postgresql package." >&2
  exit 1
fi
dir=$(mktemp -d /tmp/questline-pg.XXXXXX)
chmod 755 "$dir"
# A port the system says is free (a fixed one can be taken by another server or connection on a
# shared machine), unless PG_PORT names one.
port=${PG_PORT:-$(node -e "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")}
# From /, which the postgres user can enter (the caller's folder may be private).
as_postgres() { if [ "$(id -u)" = 0 ]; then (cd / && su postgres -s /bin/sh -c "$*"); else sh -c "$*"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$dir"

stop() {
  as_postgres "$bin/pg_ctl -D $dir/data -m fast stop" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

as_postgres "$bin/initdb -D $dir/data -A trust -U postgres --no-sync" >/dev/null
if ! as_postgres "$bin/pg_ctl -D $dir/data -l $dir/log -w -o \"-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off\" start" >/dev/null; then
  echo "PostgreSQL did not start on 127.0.0.1:$port; its log:" >&2
  tail -n 20 "$dir/log" >&2 || true
  exit 1
fi
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"

DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres" "$@"
