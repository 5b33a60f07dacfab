#!/usr/bin/env bash
# The README's start command on a fresh data folder with nothing configured: it must build, start,
# seed the demo and answer. Used by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
data=$(mktemp -d)
port=${SMOKE_PORT:-3390}
log="$data/start.log"
setsid env DATA_DIR="$data/data" PORT="$port" npm start >"$log" 2>&1 &
pid=$!
stop() {
  kill -TERM -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$data"
}
trap stop EXIT
for _ in $(seq 1 180); do
  if curl -fs -o /dev/null "http://127.0.0.1:$port/healthz"; then
    # Both loopback names, following the redirect to the app's own one as a browser does.
    for host in localhost 127.0.0.1; do
      projects=$(curl -fsL "http://$host:$port/projects" || true)
      curl -fsL -o /dev/null "http://$host:$port/" && [[ "$projects" == *"<h1"*"Projects"* ]] || {
        echo "npm start answered /healthz but not its pages at http://$host:$port" >&2
        cat "$log" >&2
        exit 1
      }
    done
    echo "npm start: answering on port $port"
    exit 0
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "npm start exited" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 1
done
echo "npm start did not answer within 180 s" >&2
cat "$log" >&2
exit 1
