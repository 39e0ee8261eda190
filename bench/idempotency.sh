#!/usr/bin/env bash
# `make bench` (after bench/webhooks.sh) and `make bench-idempotency`: what an Idempotency-Key
# costs a durable POST /leads (issue 14: the keyed POST at most 15% slower, ratio >= 0.85).
#
# One server build, SQLite with default durability, a fresh empty database per run; wrk with
# bench/wrk/create_lead.lua (plain) and bench/wrk/create_lead_idempotent.lua (keyed: the same
# bodies, each request with a new key "RANDOM_RUN_TAG-THREAD-N"), same settings as run.sh.
# BENCH_IDEM_ROUNDS rounds alternate the order (plain keyed, keyed plain, ...); the table has
# every run, the medians and keyed/plain.
#
# Environment (defaults in brackets): BENCH_BUILD [build-bench], BENCH_SECONDS [10],
# BENCH_THREADS [2], BENCH_CONNECTIONS [64], BENCH_TIMEOUT [30s], BENCH_IDEM_ROUNDS [9].
# Result: BENCH_BUILD/results/idempotency.md; raw wrk output in BENCH_BUILD/results/raw/idem-*.
# Exits non-zero when a request failed, or when the server does not replay a keyed request
# (the scenario would then measure a header the server ignores), or a keyed run repeated keys.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/settings.sh"

rounds=${BENCH_IDEM_ROUNDS:-9}

. "$here/processes.sh"
. "$here/wrk_results.sh"
require_built "$leadline"
require_tools wrk curl
bench_session bench-idempotency

# A new empty SQLite database with a workspace and a read+write key; sets db and key.
fresh_db() {
  local out workspace
  rm -rf "$work/sqlite"
  mkdir -p "$work/sqlite"
  db="sqlite:$work/sqlite/bench.db"
  out=$("$leadline" workspaces create --name bench --db "$db" --json)
  workspace=$(grep -o '"id":"[^"]*"' <<<"$out" | head -n1 | cut -d'"' -f4)
  out=$("$leadline" keys create --workspace "$workspace" --name bench --scopes read,write \
    --db "$db" --json)
  key=$(grep -o '"key":"[^"]*"' <<<"$out" | head -n1 | cut -d'"' -f4)
  [ -n "$workspace" ] && [ -n "$key" ] || die "could not create workspace/key"
}

# Random per run, so that no two runs (nor a rerun on a kept database) share a key.
run_tag() { od -An -N8 -tx1 /dev/urandom | tr -d ' \n'; }

# POST a keyed lead twice: the second answer must be the stored one (Idempotent-Replayed).
check_replay() {
  local k body first second replayed
  k="check-$(run_tag)"
  body='{"visitor_name":"Replay check"}'
  for attempt in first second; do
    curl -s -D "$work/head-$attempt" -o "$work/body-$attempt" -X POST \
      -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
      -H "Idempotency-Key: $k" --data-binary "$body" "http://127.0.0.1:$port$api_base/leads"
  done
  first=$(head -n1 "$work/head-first" | cut -d' ' -f2)
  second=$(head -n1 "$work/head-second" | cut -d' ' -f2)
  replayed=$(tr -d '\r' <"$work/head-second" | awk -F': ' 'tolower($1) == "idempotent-replayed" { print $2 }')
  if [ "$first" != 201 ] || [ "$second" != 201 ] || [ "$replayed" != true ] ||
    ! cmp -s "$work/body-first" "$work/body-second"; then
    fail "the server does not replay a keyed POST /leads (answers $first, $second; Idempotent-Replayed '$replayed'): the keyed runs measure a header it ignores"
  fi
}

# pagination.total_count of GET /leads.
lead_count() {
  curl -s -H "Authorization: Bearer $key" "http://127.0.0.1:$port$api_base/leads?limit=1" |
    grep -o '"total_count":[0-9]*' | cut -d: -f2
}

# After a keyed run: request 10 of wrk's thread 1 (key TAG-1-10, body as
# bench/wrk/create_lead.lua made it) sent again is replayed, so the keys did reach the server.
# Not request 1: wrk calls request() once per thread at start-up and never sends that one.
check_keys_were_used() {
  local tag=$1 round=$2 body code
  body=$(printf '{"visitor_name":"Bench Lead %s-1-10","visitor_email":"lead.%s.1.10@bench.example.net","visitor_company":"Benchmark Inc","pipeline_stage":"new","need_summary":"created by wrk","tags":["bench"],"source":"bench","expected_billing_amount":110}' "$tag" "$tag")
  code=$(curl -s -D "$work/head-wrk" -o /dev/null -w '%{http_code}' -X POST \
    -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
    -H "Idempotency-Key: $tag-1-10" --data-binary "$body" "http://127.0.0.1:$port$api_base/leads")
  tr -d '\r' <"$work/head-wrk" | grep -qi '^idempotent-replayed: true$' ||
    fail "keyed round $round: key $tag-1-10 sent again answered $code without Idempotent-Replayed: true"
}

rows=""
declare -A rps_of=()
declare -A p50_of=()
declare -A p99_of=()
run_writes() {  # plain|keyed ROUND
  local which=$1 round=$2 script out tag leads rps p50 p99 requests errors
  case $which in
    plain) script=create_lead.lua ;;
    keyed) script=create_lead_idempotent.lua ;;
  esac
  fresh_db
  launch_server "$leadline" "$db" --rate-limit 1000000000/1s --log-level warn
  [ "$which" = keyed ] && [ "$round" = 1 ] && check_replay
  sleep 1
  out="$raw/idem-$which-$round.txt"
  tag=$(run_tag)
  log "$which POST /leads, round $round (serve pid $server_pid)"
  wrk -t"$threads" -c"$connections" -d"${seconds}s" --timeout "$wrk_timeout" --latency \
    -H "Authorization: Bearer $key" -s "$here/wrk/$script" \
    "http://127.0.0.1:$port$api_base/leads" -- "$tag" >"$out" 2>&1 ||
    { cat "$out" >&2; die "wrk failed"; }
  leads=$(lead_count)
  [ "$which" = keyed ] && check_keys_were_used "$tag" "$round"
  stop_server
  read -r rps p50 p99 requests errors < <(wrk_summary "$out")
  [ "$errors" -gt 0 ] && fail "$which round $round: $errors errors in $requests requests"
  # Each answered request created a lead (more may have been in flight when wrk stopped): fewer
  # leads would mean that keys were repeated and replayed, which measures less than a create.
  [ "${leads:-0}" -ge "$requests" ] ||
    fail "$which round $round: $leads leads for $requests answered requests"
  rps_of[$which]+="$rps "
  p50_of[$which]+="$p50 "
  p99_of[$which]+="$p99 "
  rows+="| $round | $which | $rps | $p50 | $p99 | $errors/$requests |"$'\n'
  log "$which: $rps req/s p50 $p50 ms p99 $p99 ms ($errors errors in $requests requests)"
}

# --- main -------------------------------------------------------------------------------------
started=$(date +%s)
order=(plain keyed)
for round in $(seq 1 "$rounds"); do
  for which in "${order[@]}"; do run_writes "$which" "$round"; done
  order=("${order[1]}" "${order[0]}")
done

mp=$(median "${rps_of[plain]}")
mk=$(median "${rps_of[keyed]}")
r=$(ratio "$mk" "$mp")
verdict=$(awk -v r="$r" 'BEGIN { print (r >= 0.85 ? "meets" : "misses") }')
dirty=""
git -C "$root" diff --quiet HEAD -- src 2>/dev/null || dirty=" + uncommitted changes in src/"
out="$results/idempotency.md"
{
  echo "### Idempotency-Key — durable POST /leads, SQLite"
  echo
  echo "- CPU: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) cores; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- leadline $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$dirty (Release, $build); $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "- serve: --rate-limit 1000000000/1s --log-level warn, default durability; wrk -t$threads -c$connections -d${seconds}s; fresh empty database per run; rounds alternate the order"
  echo "- plain: bench/wrk/create_lead.lua; keyed: bench/wrk/create_lead_idempotent.lua (the same bodies, a new Idempotency-Key per request)"
  echo
  echo "| round | POST /leads | req/s | p50 ms | p99 ms | errors/requests |"
  echo "|---:|---|---:|---:|---:|---:|"
  printf '%s' "$rows"
  echo
  echo "Medians: plain $mp req/s (p50 $(median "${p50_of[plain]}" 2) ms, p99 $(median "${p99_of[plain]}" 2) ms), keyed $mk req/s (p50 $(median "${p50_of[keyed]}" 2) ms, p99 $(median "${p99_of[keyed]}" 2) ms); keyed/plain **$r** ($verdict the target >= 0.85)."
  echo
} >"$out"
echo
cat "$out"
echo "bench-idempotency: finished in $(($(date +%s) - started)) s; table in $out, raw output in $raw/idem-*"
if [ ${#failures[@]} -gt 0 ]; then
  echo >&2
  echo "bench-idempotency: FAILED:" >&2
  printf '  %s\n' "${failures[@]}" >&2
  exit 1
fi
