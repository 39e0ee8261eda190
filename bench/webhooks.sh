#!/usr/bin/env bash
# `make bench` (after bench/run.sh) and `make bench-webhooks`: the webhook and event measurements
# of issue 13, on SQLite, against a local receiver.
#
#   1. drain   — delivery throughput: N leads imported while no worker runs (one lead.created
#                event and one pending delivery per enabled endpoint each), then `serve` with
#                the default 16 workers; deliveries/s = pending deliveries at the first sample /
#                seconds until `webhook-deliveries?status=pending` counts 0. Receiver: nginx,
#                `location /hook/ { return 200; }`. With 1 and with 2 endpoints.
#   2. latency — commit-to-first-attempt: build-bench/tools/webhook_latency is the API client
#                and the receiver in one process (one clock); POST /leads one at a time, spaced
#                --interval-ms; latency = arrival of the delivery at the receiver - arrival of
#                the client's 201 (also - request sent).
#   3. writes  — durable POST /leads (wrk, bench/wrk/create_lead.lua, same settings as run.sh)
#                on three servers side by side, each on a fresh empty database:
#                (a) this tree, no endpoint (events recorded, no delivery rows);
#                (r) this tree, one endpoint subscribed to everything, --webhook-workers 0:
#                    the delivery rows are recorded, nothing is sent (the cost of the rows);
#                (b) this tree, one endpoint subscribed to everything, workers delivering to
#                    nginx during the run;
#                (c) the tree before events (BENCH_BEFORE_COMMIT, built by `make bench-build`
#                    into build-bench/before/).
#                Rounds alternate the order (a r b c, then c b r a, ...); the table has every run
#                and the median per server.
#
# Environment (defaults in brackets): BENCH_BUILD [build-bench], BENCH_BEFORE_LEADLINE
# [BENCH_BUILD/before/build/leadline], BENCH_SECONDS [10], BENCH_THREADS [2],
# BENCH_CONNECTIONS [64], BENCH_TIMEOUT [30s], BENCH_WH_LEADS [20000], BENCH_WH_ROUNDS [3],
# BENCH_WH_PROBES [300], BENCH_WH_INTERVAL_MS [20], BENCH_WH_DRAIN_LIMIT [600 s per drain].
# Result: BENCH_BUILD/results/webhooks.md; raw output in BENCH_BUILD/results/raw/webhooks-*.
# Exits non-zero when a request failed, a delivery failed or did not arrive, or a drain timed out.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/settings.sh"
before=${BENCH_BEFORE_LEADLINE:-$build/before/build/leadline}
latency_tool="$build/tools/webhook_latency"

drain_leads=${BENCH_WH_LEADS:-20000}
rounds=${BENCH_WH_ROUNDS:-3}
probes=${BENCH_WH_PROBES:-300}
interval_ms=${BENCH_WH_INTERVAL_MS:-20}
drain_limit=${BENCH_WH_DRAIN_LIMIT:-600}

. "$here/processes.sh"
. "$here/wrk_results.sh"
require_built "$leadline" "$before" "$gen" "$latency_tool"
require_tools wrk curl /usr/sbin/nginx
bench_session bench-webhooks
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }


# --- the receiver: nginx answering 200 to every POST under /hook/ -----------------------------
start_receiver() {
  local dir="$work/nginx"
  mkdir -p "$dir/tmp"
  chmod 711 "$work"
  chmod -R a+rX "$dir"
  for _ in 1 2 3 4 5; do
    hook_port=$(free_port)
    cat >"$dir/nginx.conf" <<EOF
daemon off;
master_process on;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  keepalive_requests 100000000;
  keepalive_timeout 300s;
  server {
    listen 127.0.0.1:$hook_port backlog=4096;
    # The body is read and discarded; the answer is an empty 200 (Content-Length: 0), and the
    # connection stays open for the next delivery.
    location /hook/ { return 200; }
  }
}
EOF
    /usr/sbin/nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" >"$dir/stdout.log" 2>&1 &
    nginx_pid=$!
    for _ in $(seq 1 50); do
      (exec 3<>"/dev/tcp/127.0.0.1/$hook_port") 2>/dev/null && break
      kill -0 "$nginx_pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$nginx_pid" 2>/dev/null; then
      local code
      code=$(curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary '{"x":1}' \
        "http://127.0.0.1:$hook_port/hook/check")
      [ "$code" = 200 ] || die "the receiver answered $code to POST /hook/check"
      log "receiver: nginx pid $nginx_pid on 127.0.0.1:$hook_port"
      return 0
    fi
    wait "$nginx_pid" 2>/dev/null || true
    nginx_pid=""
  done
  cat "$dir/error.log" "$dir/stdout.log" >&2 || true
  die "nginx did not start"
}

# --- databases, keys and the server -----------------------------------------------------------
# fresh_db BINARY: a new empty SQLite database with a workspace and a read+write key; sets db,
# workspace, key.
fresh_db() {
  local exe=$1 out
  rm -rf "$work/sqlite"
  mkdir -p "$work/sqlite"
  db="sqlite:$work/sqlite/bench.db"
  out=$("$exe" workspaces create --name bench --db "$db" --json)
  workspace=$(grep -o '"id":"[^"]*"' <<<"$out" | head -n1 | cut -d'"' -f4)
  out=$("$exe" keys create --workspace "$workspace" --name bench --scopes read,write --db "$db" --json)
  key=$(grep -o '"key":"[^"]*"' <<<"$out" | head -n1 | cut -d'"' -f4)
  [ -n "$workspace" ] && [ -n "$key" ] || die "could not create workspace/key"
}

# start_server BINARY EXTRA_FLAGS...: serve on a free port, the flags of bench/run.sh plus extras.
start_server() {
  local exe=$1
  shift
  launch_server "$exe" "$db" --rate-limit 1000000000/1s --log-level warn "$@"
}
webhook_flags=(--webhook-allow-private 127.0.0.0/8 --webhook-allow-http)

api() {  # METHOD PATH [BODY] -> status code; body in $work/resp
  local args=(-s -o "$work/resp" -w '%{http_code}' -X "$1" -H "Authorization: Bearer $key")
  [ $# -ge 3 ] && args+=(-H 'Content-Type: application/json' --data-binary "$3")
  curl "${args[@]}" "http://127.0.0.1:$port$2"
}
register_endpoint() {  # NAME: one endpoint, every event type, at the receiver's /hook/NAME
  local code
  code=$(api POST "$api_base/webhooks" "{\"url\":\"http://127.0.0.1:$hook_port/hook/$1\"}")
  [ "$code" = 201 ] || { cat "$work/resp" >&2; die "POST /webhooks answered $code"; }
}
deliveries() {  # STATUS -> total_count of the delivery log filtered by STATUS
  local code
  code=$(api GET "$api_base/webhook-deliveries?status=$1&limit=1")
  [ "$code" = 200 ] || { cat "$work/resp" >&2; die "GET webhook-deliveries answered $code"; }
  grep -o '"total_count":[0-9]*' "$work/resp" | cut -d: -f2
}
cpu_seconds() {  # PID -> user+system CPU seconds so far
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"
}

# --- 1. drain ---------------------------------------------------------------------------------
drain_rows=""
bench_drain() {
  local endpoints=$1 dir="$work/dataset" i expected t0 p0 t1 pending c0 c1 secs rate succeeded failed
  log "drain: $drain_leads leads, $endpoints endpoint(s)"
  if [ ! -f "$dir/.complete" ]; then
    "$gen" --out "$dir" --leads "$drain_leads" --contacts 0 --conversations 0 --messages 0 \
      --chunk 1000000 >&2
    touch "$dir/.complete"
  fi
  fresh_db "$leadline"
  # Endpoints first (deliveries are made only for endpoints that exist when the event commits),
  # with delivery off, then the leads by import: one transaction, one event and one pending
  # delivery per endpoint for each lead.
  start_server "$leadline" "${webhook_flags[@]}" --webhook-workers 0
  for i in $(seq 1 "$endpoints"); do register_endpoint "drain$i"; done
  stop_server
  "$leadline" import --workspace "$workspace" --db "$db" "$dir"/*.jsonl >"$work/import.out" 2>&1 ||
    { cat "$work/import.out" >&2; die "import failed"; }
  expected=$((drain_leads * endpoints))
  start_server "$leadline" "${webhook_flags[@]}"
  t0=$(now)
  c0=$(cpu_seconds "$server_pid")
  p0=$(deliveries pending)
  log "drain: serve pid $server_pid on $port, $p0 of $expected pending at the first sample"
  while true; do
    sleep 0.2
    pending=$(deliveries pending)
    [ "$pending" = 0 ] && break
    if [ "$(elapsed "$t0" "$(now)" | cut -d. -f1)" -ge "$drain_limit" ]; then
      fail "drain with $endpoints endpoint(s): $pending still pending after $drain_limit s"
      break
    fi
  done
  t1=$(now)
  c1=$(cpu_seconds "$server_pid")
  succeeded=$(deliveries succeeded)
  failed=$(deliveries failed)
  stop_server
  secs=$(elapsed "$t0" "$t1")
  rate=$(awk -v n="$p0" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')
  [ "$succeeded" = "$expected" ] && [ "$failed" = 0 ] ||
    fail "drain with $endpoints endpoint(s): $succeeded succeeded, $failed failed of $expected"
  drain_rows+="| $endpoints | $expected | $p0 | $secs | **$rate** | $(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.1f", b - a }') | $succeeded/$failed |"$'\n'
  log "drain: $p0 deliveries in $secs s = $rate/s ($endpoints endpoint(s))"
}

# --- 2. latency -------------------------------------------------------------------------------
latency_rows=""
bench_latency() {
  local out="$raw/webhooks-latency.txt" name n p50 p90 p99 max
  log "latency: $probes POST /leads, ${interval_ms} ms apart"
  fresh_db "$leadline"
  start_server "$leadline" "${webhook_flags[@]}"
  "$latency_tool" --port "$port" --key "$key" --count "$probes" --interval-ms "$interval_ms" \
    >"$out" 2>&1 || fail "webhook_latency failed: $(tail -n 3 "$out" | tr '\n' ' ')"
  stop_server
  cat "$out" >&2
  while read -r name n p50 p90 p99 max; do
    case $name in
      from_201) latency_rows+="| delivery arrival − client's 201 arrival | $n | **$p50** | $p90 | $p99 | $max |"$'\n' ;;
      from_send) latency_rows+="| delivery arrival − POST sent | $n | $p50 | $p90 | $p99 | $max |"$'\n' ;;
      post_round_trip) latency_rows+="| (POST /leads round trip, for scale) | $n | $p50 | $p90 | $p99 | $max |"$'\n' ;;
    esac
  done <"$out"
  latency_received=$(grep '^received' "$out" || echo "received ?")
}

# --- 3. durable writes ------------------------------------------------------------------------
write_rows=""
declare -A rps_of=()
run_writes() {  # a|b|c ROUND
  local which=$1 round=$2 exe label out rps p50 p99 requests errors delivered="" pending=""
  case $which in
    a) exe=$leadline label="(a) events, no endpoint" ;;
    r) exe=$leadline label="(r) events + 1 endpoint, workers off (rows only)" ;;
    b) exe=$leadline label="(b) events + 1 endpoint, delivering" ;;
    c) exe=$before label="(c) before events ($before_commit)" ;;
  esac
  fresh_db "$exe"
  case $which in
    c) start_server "$exe" ;;
    r) start_server "$exe" "${webhook_flags[@]}" --webhook-workers 0 ;;
    *) start_server "$exe" "${webhook_flags[@]}" ;;
  esac
  case $which in b | r) register_endpoint writes ;; esac
  sleep 1
  out="$raw/webhooks-writes-$which-$round.txt"
  log "writes $label, round $round"
  wrk -t"$threads" -c"$connections" -d"${seconds}s" --timeout "$wrk_timeout" --latency \
    -H "Authorization: Bearer $key" -s "$here/wrk/create_lead.lua" \
    "http://127.0.0.1:$port$api_base/leads" -- "$(printf %x "$(date +%s%N)")" >"$out" 2>&1 ||
    { cat "$out" >&2; die "wrk failed"; }
  if [ "$which" = b ] || [ "$which" = r ]; then
    delivered=$(deliveries succeeded)
    pending=$(deliveries pending)
  fi
  stop_server
  read -r rps p50 p99 requests errors < <(wrk_summary "$out")
  [ "$errors" -gt 0 ] && fail "writes $which round $round: $errors errors in $requests requests"
  rps_of[$which]+="$rps "
  local note=""
  case $which in b | r) note="$delivered delivered, $pending pending at the end of the run" ;; esac
  write_rows+="| $round | $label | $rps | $p50 | $p99 | $errors/$requests | $note |"$'\n'
  log "writes $label: $rps req/s p50 $p50 ms p99 $p99 ms $note"
}

# --- main -------------------------------------------------------------------------------------
started=$(date +%s)
before_commit=${BENCH_BEFORE_COMMIT:-$(cat "$(dirname "$(dirname "$before")")/commit" 2>/dev/null || echo before)}
start_receiver

bench_drain 1
bench_drain 2
bench_latency
order=(a r b c)
for round in $(seq 1 "$rounds"); do
  for which in "${order[@]}"; do run_writes "$which" "$round"; done
  order=("${order[3]}" "${order[2]}" "${order[1]}" "${order[0]}")
done
stop_nginx

ma=$(median "${rps_of[a]}")
mr=$(median "${rps_of[r]}")
mb=$(median "${rps_of[b]}")
mc=$(median "${rps_of[c]}")
dirty=""
git -C "$root" diff --quiet HEAD -- src 2>/dev/null || dirty=" + uncommitted changes in src/"
out="$results/webhooks.md"
{
  echo "### Webhooks and events — SQLite, receiver nginx on loopback"
  echo
  echo "- CPU: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) cores; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- leadline $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$dirty (Release, $build); before: $before_commit ($before); $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "- serve: --rate-limit 1000000000/1s --log-level warn --webhook-allow-private 127.0.0.0/8 --webhook-allow-http, --webhook-workers 16 (the default)"
  echo
  echo "**Delivery throughput** (backlog drain: $drain_leads leads imported with workers off, then serve with 16 workers; receiver nginx \`return 200\`)"
  echo
  echo "| endpoints | deliveries | pending at first sample | seconds to none pending | deliveries/s | leadline CPU s | succeeded/failed |"
  echo "|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s' "$drain_rows"
  echo
  echo "**Commit-to-first-attempt latency** ($probes POST /leads one at a time, ${interval_ms} ms apart, one endpoint for lead.created; one process is client and receiver, steady clock; $latency_received)"
  echo
  echo "| latency | n | p50 ms | p90 ms | p99 ms | max ms |"
  echo "|---|---:|---:|---:|---:|---:|"
  printf '%s' "$latency_rows"
  echo
  echo "**Durable POST /leads** (wrk -t$threads -c$connections -d${seconds}s, bench/wrk/create_lead.lua, fresh empty database per run, rounds in alternating order)"
  echo
  echo "| round | server | req/s | p50 ms | p99 ms | errors/requests | deliveries |"
  echo "|---:|---|---:|---:|---:|---:|---|"
  printf '%s' "$write_rows"
  echo
  echo "Medians: (a) $ma, (r) $mr, (b) $mb, (c) $mc req/s; (a)/(c) **$(ratio "$ma" "$mc")**, (r)/(c) $(ratio "$mr" "$mc"), (b)/(c) **$(ratio "$mb" "$mc")**, (b)/(a) $(ratio "$mb" "$ma")."
  echo
} >"$out"
echo
cat "$out"
echo "bench-webhooks: finished in $(( $(date +%s) - started )) s; table in $out, raw output in $raw/webhooks-*"
if [ ${#failures[@]} -gt 0 ]; then
  echo >&2
  echo "bench-webhooks: FAILED:" >&2
  printf '  %s\n' "${failures[@]}" >&2
  exit 1
fi
