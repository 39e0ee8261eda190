# Sourced by bench/run.sh, bench/webhooks.sh and bench/idempotency.sh: the processes a benchmark
# starts and stops.
# Uses the globals results, raw (settings.sh) and the session's own: server_pid, nginx_pid, port,
# work, failures.

# SIGTERM drains in-flight requests and flushes usage; give it a moment, then insist.
stop_server() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=""
}

stop_nginx() {
  if [ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null; then
    kill -QUIT "$nginx_pid" 2>/dev/null || true  # graceful: the master stops its workers
    for _ in $(seq 1 50); do kill -0 "$nginx_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
  fi
  nginx_pid=""
}

# A port nothing listens on now (nginx cannot be told to pick one and say which).
free_port() {
  local p
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 30000))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
  done
  die "no free port"
}

# launch_server BINARY DB FLAGS...: `serve` on a port of its choosing; returns once it prints
# that it listens, with server_pid and port set (the log is $work/server.log).
launch_server() {
  local exe=$1 db=$2
  shift 2
  "$exe" serve --listen 127.0.0.1:0 --db "$db" "$@" >"$work/server.log" 2>&1 &
  server_pid=$!
  port=""
  for _ in $(seq 1 1200); do
    port=$(sed -n 's/.*leadline listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' \
      "$work/server.log" | head -n1)
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.05
  done
  [ -n "$port" ] || { cat "$work/server.log" >&2; die "leadline serve did not start"; }
}

# require_built FILE...: exits 3 unless each is an executable of the bench build. The binary
# under test is first brought up to date with the tree when the bench build is configured (a
# no-op when nothing changed), so that a script run alone never measures an older binary.
require_built() {
  local exe
  if [ -f "$build/build.ninja" ]; then
    cmake --build "$build" --target leadline >/dev/null ||
      { echo "bench: rebuilding $leadline failed" >&2; exit 3; }
  fi
  for exe in "$@"; do
    [ -x "$exe" ] || { echo "bench: $exe is not built (run 'make bench-build')" >&2; exit 3; }
  done
}

# require_tools TOOL...: exits 3 unless each is installed.
require_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is missing (run 'make bench')" >&2; exit 3; }
  done
}

# bench_session NAME: the results folders, a scratch folder `work`, no processes yet, and on any
# exit (errors and Ctrl-C included) everything started is stopped: the server, nginx, and what
# the caller's stop_extra stops, if it defines one. log/die/fail print under NAME.
bench_session() {
  bench_name=$1
  mkdir -p "$results" "$raw"
  work=$(mktemp -d "${TMPDIR:-/tmp}/leadline-$1-XXXXXX")
  server_pid=""
  nginx_pid=""
  failures=()
  trap bench_cleanup EXIT
  trap 'exit 130' INT TERM
}
bench_cleanup() {
  stop_server
  stop_nginx
  if declare -F stop_extra >/dev/null; then stop_extra; fi
  rm -rf "$work"
}
log() { printf '%s %s: %s\n' "$(date +%H:%M:%S)" "$bench_name" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
fail() { failures+=("$*"); log "ERROR: $*"; }
