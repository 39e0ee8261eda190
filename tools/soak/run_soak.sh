#!/usr/bin/env bash
# `make soak`: starts a Release `leadline serve --demo` on a fresh temporary database, creates a
# read+write key for the demo workspace with the CLI, drives tools/soak/soak_driver against it
# for the given number of seconds and stops the server with SIGTERM.
#
#   tools/soak/run_soak.sh BUILD_DIR SECONDS
#
# Environment: SOAK_CONCURRENCY (8), SOAK_INTERVAL (60 s), SOAK_WARMUP (30 s),
# SOAK_MAX_RSS_GROWTH (5 %), SOAK_SUMMARY (file for the result table; default: none).
# Exits non-zero when the driver reports errors or memory growth, or the server misbehaves.
set -euo pipefail

build=${1:?usage: run_soak.sh BUILD_DIR SECONDS}
seconds=${2:?usage: run_soak.sh BUILD_DIR SECONDS}
leadline="$build/leadline"
driver="$build/soak_driver"
for exe in "$leadline" "$driver"; do
  [ -x "$exe" ] || { echo "run_soak.sh: $exe is not built" >&2; exit 3; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/leadline-soak-XXXXXX")
db="sqlite:$work/soak.db"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

"$leadline" serve --listen 127.0.0.1:0 --db "$db" --demo --rate-limit 1000000000/1s \
  >"$work/server.log" 2>&1 &
server_pid=$!

port=""
for _ in $(seq 1 300); do
  port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$work/server.log" | head -n1)
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "run_soak.sh: leadline serve did not start:" >&2
  cat "$work/server.log" >&2
  exit 3
fi

workspace=$("$leadline" workspaces list --db "$db" --json |
  grep -o '"id":"[^"]*"' | head -n1 | cut -d'"' -f4)
key=$("$leadline" keys create --workspace "$workspace" --name soak --scopes read,write \
  --db "$db" --json | grep -o '"key":"[^"]*"' | cut -d'"' -f4)
if [ -z "$workspace" ] || [ -z "$key" ]; then
  echo "run_soak.sh: could not create the soak key" >&2
  exit 3
fi
echo "soak: leadline serve pid $server_pid on 127.0.0.1:$port, workspace $workspace"

status=0
"$driver" --port "$port" --key "$key" --pid "$server_pid" --seconds "$seconds" \
  --concurrency "${SOAK_CONCURRENCY:-8}" --interval "${SOAK_INTERVAL:-60}" \
  --warmup "${SOAK_WARMUP:-30}" --max-rss-growth "${SOAK_MAX_RSS_GROWTH:-5}" \
  ${SOAK_SUMMARY:+--summary "$SOAK_SUMMARY"} || status=$?

kill -TERM "$server_pid"
server_status=0
wait "$server_pid" || server_status=$?
server_pid=""
if [ "$server_status" -ne 0 ]; then
  echo "soak: leadline serve exited with status $server_status after SIGTERM; its log (tail):" >&2
  tail -n 50 "$work/server.log" >&2
  [ "$status" -ne 0 ] || status=4
fi
if grep -q -E '(ERROR|WARNING): [A-Za-z]+Sanitizer|runtime error:|^error request_id=' "$work/server.log"; then
  echo "soak: the server log reports failures:" >&2
  grep -E -m 20 '(ERROR|WARNING): [A-Za-z]+Sanitizer|runtime error:|^error request_id=' "$work/server.log" >&2
  [ "$status" -ne 0 ] || status=4
fi
exit "$status"
