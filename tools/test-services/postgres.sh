#!/usr/bin/env bash
# A private, throw-away PostgreSQL server for the tests, living entirely in DIR.
#
#   postgres.sh start DIR    initdb + start on 127.0.0.1 (free port), socket in DIR;
#                            writes the base URL (postgres://postgres@127.0.0.1:PORT) to DIR/url
#   postgres.sh stop DIR     immediate shutdown (no checkpoint: the data goes), then removes DIR
#   postgres.sh halt DIR     fast shutdown, keeping DIR (to test a database going away)
#   postgres.sh resume DIR   starts a halted server again on the same port
#
# initdb refuses to run as root, so as root the server runs as the `postgres` OS user.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop|halt|resume DIR" >&2
  exit 2
}

[[ $# -eq 2 ]] || usage
command=$1
dir=$2

bindir() {
  if command -v pg_config >/dev/null 2>&1 && [[ -x "$(pg_config --bindir)/initdb" ]]; then
    pg_config --bindir
    return
  fi
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [[ -z $found || ! -x $found/initdb ]]; then
    echo "postgres.sh: no PostgreSQL server binaries (initdb) found" >&2
    exit 1
  fi
  echo "$found"
}

BIN=$(bindir)

# The server's own files (data, socket, logs). As root they live in a directory of their own
# under /tmp owned by `postgres`, because DIR's parents (a clone under /root, say) may not be
# reachable for that user; DIR/server-dir names it.
srv=$dir
if [[ -f $dir/server-dir ]]; then
  srv=$(cat "$dir/server-dir")
fi

as_server_user() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Tests trade durability for speed (a test kills leadline, never this server). The benchmark
# sets PG_DURABLE=1 to measure writes as a production server makes them: every commit flushed.
if [[ ${PG_DURABLE:-0} == 1 ]]; then
  durability="-c fsync=on -c full_page_writes=on -c synchronous_commit=on \
              -c shared_buffers=256MB -c max_wal_size=1GB"
else
  durability="-c fsync=off -c full_page_writes=off -c synchronous_commit=off \
              -c shared_buffers=64MB -c max_wal_size=64MB -c min_wal_size=32MB"
fi

# Starts the server of $srv/data on port $1; fails when it does not come up.
start_server() {
  local port=$1
  as_server_user "$BIN/pg_ctl" -D "$srv/data" -l "$srv/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='$srv' \
        $durability -c max_connections=300" \
    start >/dev/null
}

wait_ready() {
  local port=$1
  for _ in $(seq 1 100); do
    if "$BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres; then
      return 0
    fi
    sleep 0.1
  done
  echo "postgres.sh: server on port $port did not become ready" >&2
  return 1
}

# stop_server [MODE]: fast (the default) writes a shutdown checkpoint, which `halt` needs to
# resume; immediate skips it, for a server whose data is removed next.
stop_server() {
  if [[ -f $srv/data/postmaster.pid ]]; then
    as_server_user "$BIN/pg_ctl" -D "$srv/data" -m "${1:-fast}" -w -t 60 stop >/dev/null || true
  fi
}

remove_all() {
  if [[ $srv != "$dir" ]]; then
    rm -rf "$srv"
  fi
  rm -rf "$dir"
}

start() {
  # A directory left behind by an interrupted run is cleaned up first.
  if [[ -d $dir ]]; then
    stop_server immediate
    remove_all
  fi
  mkdir -p "$dir"
  srv=$dir
  if [[ $(id -u) -eq 0 ]]; then
    srv=$(mktemp -d /tmp/leadline-pg.XXXXXX)
    chown postgres: "$srv"
    echo "$srv" >"$dir/server-dir"
  fi
  as_server_user "$BIN/initdb" -D "$srv/data" -U postgres --auth=trust -E UTF8 \
    --locale=C.UTF-8 >"$srv/initdb.log" 2>&1 || {
    cat "$srv/initdb.log" >&2
    exit 1
  }
  local attempt port
  for attempt in $(seq 1 20); do
    port=$((20000 + RANDOM % 30000))
    port_in_use "$port" && continue
    # Another process may take the port between the check and the bind: then try another.
    if start_server "$port"; then
      wait_ready "$port"
      echo "$port" >"$dir/port"
      echo "postgres://postgres@127.0.0.1:$port" >"$dir/url"
      echo "postgres://postgres@127.0.0.1:$port"
      return 0
    fi
  done
  echo "postgres.sh: could not start PostgreSQL (see $srv/server.log)" >&2
  exit 1
}

case $command in
  start)
    start
    ;;
  stop)
    stop_server immediate
    remove_all
    ;;
  halt)
    stop_server
    ;;
  resume)
    port=$(cat "$dir/port")
    start_server "$port"
    wait_ready "$port"
    ;;
  *)
    usage
    ;;
esac
