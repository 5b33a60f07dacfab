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
port=${PG_PORT:-55432}
as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$dir"

stop() {
  as_postgres "$bin/pg_ctl -D $dir/data -m fast stop" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

as_postgres "$bin/initdb -D $dir/data -A trust -U postgres --no-sync" >/dev/null
as_postgres "$bin/pg_ctl -D $dir/data -l $dir/log -w -o \"-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off\" start" >/dev/null
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"

DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres" "$@"
