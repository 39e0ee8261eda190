# Sourced by bench/run.sh, bench/webhooks.sh and bench/idempotency.sh: the processes a benchmark
# starts and stops.
# Uses the caller's globals server_pid, nginx_pid, port and work, and its die().

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
