#!/usr/bin/env bash
# `make bench`: loads a deterministic dataset into leadline (SQLite and PostgreSQL), then drives
# each scenario with wrk against leadline and against nginx serving the very same bytes.
#
#   bench/run.sh [--large] [--growth] [--backends sqlite,postgres]
#
# --large   1,000,000 leads instead of 100,000 (contacts and conversations as default).
# --growth  list/search/stage/deep-cursor and tag-filter scenarios at 10k, 100k and 1M leads
#           (as many contacts, a tenth as many conversations; leadline only) and a growth
#           table per backend; SQLite and PostgreSQL unless --backends says otherwise.
# Environment (defaults in brackets): BENCH_BUILD [build-bench], BENCH_SECONDS [10],
# BENCH_THREADS [2], BENCH_CONNECTIONS [64], BENCH_TIMEOUT [30s], BENCH_BACKENDS
# [sqlite,postgres], BENCH_LEADS / BENCH_CONTACTS / BENCH_CONVERSATIONS /
# BENCH_MESSAGES (dataset size overrides for quick runs), BENCH_GROWTH_SIZES
# [10000,100000,1000000], BENCH_DEEP_PAGE [1000], BENCH_CHUNK [100000 lines per import call].
# Results: BENCH_BUILD/results/*.md (Markdown tables) and BENCH_BUILD/results/raw/ (wrk output).
# Exits non-zero when any scenario saw a non-2xx answer or a socket error.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/settings.sh"

deep_page=${BENCH_DEEP_PAGE:-1000}
chunk=${BENCH_CHUNK:-100000}

mode=default
backends_arg=""
while [ $# -gt 0 ]; do
  case $1 in
    --large) mode=large ;;
    --growth) mode=growth ;;
    --backends) backends_arg=${2:?--backends needs a list}; shift ;;
    --backends=*) backends_arg=${1#--backends=} ;;
    *) echo "usage: bench/run.sh [--large] [--growth] [--backends sqlite,postgres]" >&2; exit 2 ;;
  esac
  shift
done
backends=${backends_arg:-${BENCH_BACKENDS:-sqlite,postgres}}

. "$here/processes.sh"
. "$here/wrk_results.sh"
require_built "$leadline" "$gen"
require_tools wrk curl /usr/sbin/nginx
# The private PostgreSQL lives in one fixed directory: fresh_db starts it inside a command
# substitution, whose variables never reach this shell, so stopping it cannot rely on one.
stop_postgres() {
  if [ -n "${work:-}" ] && [ -d "$work/pg" ]; then
    "$root/tools/test-services/postgres.sh" stop "$work/pg" >/dev/null 2>&1 || true
  fi
}
stop_extra() { stop_postgres; }
bench_session bench

# --- dataset ----------------------------------------------------------------------------------
# Generated once per size into BENCH_BUILD/data/ and reused: the generator is deterministic.
# "-t10": made by the generator that tags every tenth contact and conversation "key-account".
dataset_dir() {  # LEADS CONTACTS CONVERSATIONS MESSAGES -> prints the directory
  local dir="$build/data/l$1-c$2-v$3x$4-k$chunk-t10"
  if [ ! -f "$dir/.complete" ]; then
    rm -rf "$dir"
    log "generating dataset: $1 leads, $2 contacts, $3 conversations x $4 messages"
    "$gen" --out "$dir" --leads "$1" --contacts "$2" --conversations "$3" --messages "$4" \
      --chunk "$chunk" >&2
    touch "$dir/.complete"
  fi
  echo "$dir"
}

# --- databases --------------------------------------------------------------------------------
# Prints the --db URL of a fresh, empty database for BACKEND.
fresh_db() {
  case $1 in
    sqlite)
      rm -rf "$work/sqlite"
      mkdir -p "$work/sqlite"
      echo "sqlite:$work/sqlite/bench.db"
      ;;
    postgres)
      stop_postgres
      local pg_dir="$work/pg"
      # The project's throw-away server (tools/test-services/postgres.sh): it prints the base
      # URL; as root it runs as the postgres OS user. PG_DURABLE=1 gives it production
      # durability (fsync, synchronous_commit, full_page_writes on), so its writes are measured
      # as durable as SQLite's synchronous=FULL ones.
      local base
      base=$(PG_DURABLE=1 "$root/tools/test-services/postgres.sh" start "$pg_dir" | tail -n 1)
      psql "$base/postgres" -v ON_ERROR_STOP=1 -q -c "CREATE DATABASE leadline_bench" >&2
      echo "$base/leadline_bench"
      ;;
    *) die "unknown backend '$1' (sqlite or postgres)" ;;
  esac
}

# Creates the workspace and a read+write key; sets workspace, key_id, key.
create_workspace_and_key() {
  local db=$1 out
  out=$("$leadline" workspaces create --name bench --db "$db" --json)
  workspace=$(grep -o '"id":"[^"]*"' <<<"$out" | head -n1 | cut -d'"' -f4)
  out=$("$leadline" keys create --workspace "$workspace" --name bench --scopes read,write \
    --db "$db" --json)
  key_id=$(grep -o '"id":"[^"]*"' <<<"$out" | head -n1 | cut -d'"' -f4)
  key=$(grep -o '"key":"[^"]*"' <<<"$out" | head -n1 | cut -d'"' -f4)
  [ -n "$workspace" ] && [ -n "$key_id" ] && [ -n "$key" ] || die "could not create workspace/key"
}

# Seconds between two `date +%s.%N` stamps, one decimal (awk: bc is not on every machine).
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# Imports every chunk of DATASET_DIR in name order, one `leadline import` call per chunk (each
# call is one all-or-nothing batch held in memory, so chunks bound the importer's memory).
# Appends "| backend | dataset | file | lines | seconds |" rows to $import_rows.
import_dataset() {
  local db=$1 dir=$2 backend=$3 file lines start end secs total_start
  total_start=$(date +%s.%N)
  for file in "$dir"/*.jsonl; do
    lines=$(wc -l <"$file")
    start=$(date +%s.%N)
    "$leadline" import --workspace "$workspace" --db "$db" "$file" >"$work/import.out" 2>&1 ||
      { cat "$work/import.out" >&2; die "import of $file failed"; }
    end=$(date +%s.%N)
    secs=$(elapsed "$start" "$end")
    import_rows+="| $backend | $(basename "$dir") | $(basename "$file") | $lines | $secs |"$'\n'
    log "imported $(basename "$file") ($lines lines) in $secs s"
  done
  import_total=$(elapsed "$total_start" "$(date +%s.%N)")
}

# --- the server -------------------------------------------------------------------------------
# All serve flags live here. The operator's --rate-limit lifts the limit out of reach; the
# limiter still runs on every request, as it does in production. --log-level warn drops the
# per-request log line, as nginx's `access_log off` does for the baseline.
serve_flags=()
choose_serve_flags() {
  serve_flags=(--rate-limit 1000000000/1s --log-level warn)
  limit_note="--rate-limit 1000000000/1s --log-level warn (the limiter still runs on every request)"
}

start_server() {
  local db=$1
  choose_serve_flags
  log "serve flags: --listen 127.0.0.1:0 --db $db ${serve_flags[*]}"
  launch_server "$leadline" "$db" "${serve_flags[@]}"
  log "leadline serve pid $server_pid on 127.0.0.1:$port ($limit_note)"
}

# VmRSS / VmHWM of PID in MiB.
rss_mib() { awk -v f="$2:" '$1 == f { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

# Waits (up to 10 s) until process PID used no CPU for 200 ms: when wrk stops, the server still
# answers the requests it had in flight, and a slow scenario's leftovers (a search at 1M) would
# otherwise land in the next scenario's latencies.
settle() {
  local ticks last=-1 tries=0
  while [ -r "/proc/$1/stat" ] && [ "$tries" -lt 50 ]; do
    ticks=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
    [ "$ticks" = "$last" ] && return 0
    last=$ticks
    tries=$((tries + 1))
    sleep 0.2
  done
}

# --- talking to the API with curl -------------------------------------------------------------
# api METHOD PATH [BODY]: writes the body to $work/resp, prints the status code.
api() {
  local args=(-s -o "$work/resp" -w '%{http_code}' -X "$1" -H "Authorization: Bearer $key")
  [ $# -ge 3 ] && args+=(-H 'Content-Type: application/json' --data-binary "$3")
  curl "${args[@]}" "http://127.0.0.1:$port$2"
}
# json_field NAME: sets REPLY to the first string value of "NAME" in the last response (bash
# regex, no subprocess: the cursor walk calls it a thousand times).
json_field() {
  local body="" re="\"$1\":\"([^\"]*)\""
  REPLY=""
  IFS= read -r -d '' body <"$work/resp" || true
  if [[ $body =~ $re ]]; then REPLY=${BASH_REMATCH[1]}; fi
}

# Finds the cursor of page $deep_page of PATH (50 per page), or of the deepest page there is;
# sets deep_path and deep_reached. A cursor is a keyset position that does not depend on the page
# size (docs/api.md: "limit may change between pages"), so the walk takes hops of 100 rows.
walk_cursor() {
  local path=$1 want=$(( (deep_page - 1) * 50 )) rows=0 step url cursor="" code
  while [ "$rows" -lt "$want" ]; do
    step=$(( want - rows < 100 ? want - rows : 100 ))
    url="$path?limit=$step${cursor:+&cursor=$cursor}"
    code=$(api GET "$url")
    [ "$code" = 200 ] || die "GET $url answered $code"
    json_field next_cursor
    [ -n "$REPLY" ] || break  # no more rows after this hop: the current cursor is the deepest
    cursor=$REPLY
    rows=$((rows + step))
  done
  deep_reached=$(( rows / 50 + 1 ))
  deep_path="$path${cursor:+?cursor=$cursor}"
}

# Collects up to N lead ids (newest first) into FILE for the PATCH scenario.
collect_lead_ids() {
  local n=$1 file=$2 path="$api_base/leads?limit=100"
  : >"$file"
  while [ "$(wc -l <"$file")" -lt "$n" ]; do
    [ "$(api GET "$path")" = 200 ] || die "GET $path failed"
    grep -o '"id":"[^"]*"' "$work/resp" | cut -d'"' -f4 >>"$file"
    json_field next_cursor
    [ -n "$REPLY" ] || break
    path="$api_base/leads?limit=100&cursor=$REPLY"
  done
  [ -s "$file" ] || die "no lead ids to PATCH"
}

# --- scenarios --------------------------------------------------------------------------------
# One line per scenario: name|method|path|status|lua script args|title. Filled by
# prepare_scenarios, which also saves the exact response bytes for nginx.
scenarios=()
nginx_map=""

# save_response NAME METHOD PATH STATUS [BODY]: asks leadline once, checks the status, keeps the
# bytes as $work/www/NAME.json and maps the request to them for nginx.
save_response() {
  local name=$1 method=$2 path=$3 status=$4 code
  code=$(api "$method" "$path" "${@:5}")
  [ "$code" = "$status" ] || { cat "$work/resp" >&2; die "$method $path answered $code, expected $status"; }
  cp "$work/resp" "$work/www/$name.json"
  case $method in
    # Requests whose URI varies per request (PATCH ?id=...) are matched by prefix.
    PATCH) nginx_map+="    \"~^PATCH ${path%%\?*}\\?id=\" $status/$name.json;"$'\n' ;;
    *) nginx_map+="    \"$method $path\" $status/$name.json;"$'\n' ;;
  esac
}

prepare_scenarios() {
  local reads_only=$1 stage=qualified conv_id lead_id
  rm -rf "$work/www"
  mkdir -p "$work/www"
  scenarios=()
  nginx_map=""

  save_response list_default GET "$api_base/leads" 200
  scenarios+=("list_default|GET|$api_base/leads|200||list leads, default page (50, total_count)")
  save_response list_search GET "$api_base/leads?search=zephyr" 200
  scenarios+=("list_search|GET|$api_base/leads?search=zephyr|200||list leads, search=zephyr (~1%)")
  save_response list_stage GET "$api_base/leads?stage=$stage" 200
  scenarios+=("list_stage|GET|$api_base/leads?stage=$stage|200||list leads, stage=$stage")
  walk_cursor "$api_base/leads"
  save_response deep_cursor GET "$deep_path" 200
  scenarios+=("deep_cursor|GET|$deep_path|200||list leads, cursor page $deep_reached")
  if [ "$reads_only" = yes ]; then
    # The growth run's tag filters: "key-account" is on every tenth contact and conversation.
    save_response contacts_tag GET "$api_base/contacts?tag=key-account" 200
    scenarios+=("contacts_tag|GET|$api_base/contacts?tag=key-account|200||list contacts, tag=key-account (10%)")
    save_response conversations_tag GET "$api_base/conversations?tag=key-account" 200
    scenarios+=("conversations_tag|GET|$api_base/conversations?tag=key-account|200||list conversations, tag=key-account (10%)")
    return 0
  fi

  save_response contacts_by_name GET "$api_base/contacts?sort=name" 200
  scenarios+=("contacts_by_name|GET|$api_base/contacts?sort=name|200||list contacts, sort=name")
  [ "$(api GET "$api_base/conversations?limit=1")" = 200 ] || die "GET conversations failed"
  json_field id
  conv_id=$REPLY
  [ -n "$conv_id" ] || die "no conversation to fetch"
  save_response conversation_get GET "$api_base/conversations?id=$conv_id" 200
  scenarios+=("conversation_get|GET|$api_base/conversations?id=$conv_id|200||get conversation + messages")

  collect_lead_ids 5000 "$work/lead_ids.txt"
  lead_id=$(head -n1 "$work/lead_ids.txt")
  save_response update_lead PATCH "$api_base/leads?id=$lead_id" 200 \
    '{"need_summary":"updated by curl before wrk","expected_billing_amount":1}'
  scenarios+=("update_lead|PATCH|$api_base/leads?id=$lead_id|200|update_lead.lua $work/lead_ids.txt|update lead (PATCH, $(wc -l <"$work/lead_ids.txt") ids)")
  save_response create_lead POST "$api_base/leads" 201 \
    '{"visitor_name":"Bench Lead curl","visitor_email":"lead.curl@bench.example.net","visitor_company":"Benchmark Inc","pipeline_stage":"new","need_summary":"created by wrk","tags":["bench"],"source":"bench","expected_billing_amount":100}'
  scenarios+=("create_lead|POST|$api_base/leads|201|create_lead.lua|create lead (POST)")
  save_response create_contact POST "$api_base/contacts" 201 \
    '{"first_name":"Bench","last_name":"Contact curl","email":"contact.curl@bench.example.net","phone":"+1 555 0100","company_name":"Benchmark Inc","tags":["bench"]}'
  scenarios+=("create_contact|POST|$api_base/contacts|201|create_contact.lua|create contact (POST)")
}

# --- nginx ------------------------------------------------------------------------------------

start_nginx() {
  local dir="$work/nginx" attempt
  stop_nginx
  mkdir -p "$dir/tmp"
  rm -rf "$dir/www"
  cp -r "$work/www" "$dir/www"
  # As root, nginx workers run as "nobody": they must be able to reach and read the files.
  chmod 711 "$work"
  chmod -R a+rX "$dir"
  for attempt in 1 2 3 4 5; do
    nginx_port=$(free_port)
    local map_file="$dir/map.inc"
    printf '%s' "$nginx_map" >"$map_file"
    # @MAP@ is replaced by the generated map lines (they may hold any URL characters, so this is
    # done with awk reading a file rather than sed).
    awk -v dir="$dir" -v port="$nginx_port" -v mapfile="$map_file" '
      /^@MAP@$/ { while ((getline line < mapfile) > 0) print line; next }
      { gsub(/@DIR@/, dir); gsub(/@PORT@/, port); print }' \
      "$here/nginx.conf.in" >"$dir/nginx.conf"
    /usr/sbin/nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" >"$dir/stdout.log" 2>&1 &
    nginx_pid=$!
    for _ in $(seq 1 50); do
      (exec 3<>"/dev/tcp/127.0.0.1/$nginx_port") 2>/dev/null && break
      kill -0 "$nginx_pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$nginx_pid" 2>/dev/null; then
      log "nginx pid $nginx_pid on 127.0.0.1:$nginx_port"
      return 0
    fi
    wait "$nginx_pid" 2>/dev/null || true
    nginx_pid=""
  done
  cat "$dir/error.log" "$dir/stdout.log" >&2 || true
  die "nginx did not start"
}

# Checks that nginx answers every scenario with exactly leadline's bytes and status.
check_nginx() {
  local line name method path status lua title code body=()
  for line in "${scenarios[@]}"; do
    IFS='|' read -r name method path status lua title <<<"$line"
    body=()
    [ "$method" = GET ] || body=(-H 'Content-Type: application/json' --data-binary '{"x":1}')
    code=$(curl -s -o "$work/nginx.resp" -w '%{http_code}' -X "$method" "${body[@]}" \
      -H "Authorization: Bearer $key" "http://127.0.0.1:$nginx_port$path")
    [ "$code" = "$status" ] || die "nginx answered $method $path with $code, expected $status"
    cmp -s "$work/nginx.resp" "$work/www/$name.json" || die "nginx bytes differ for $name"
  done
}

# --- wrk --------------------------------------------------------------------------------------
# run_wrk LABEL PORT METHOD PATH LUA... -> raw output in $raw/LABEL.txt; sets w_rps w_p50 w_p99
# (ms) w_requests w_errors.
run_wrk() {
  local label=$1 port=$2 method=$3 path=$4 lua=$5 out="$raw/$1.txt" script=() lua_args=()
  if [ -n "$lua" ]; then
    read -r -a lua_args <<<"$lua"
    script=(-s "$here/wrk/${lua_args[0]}")
    # + a short run tag (hex nanoseconds) that keeps generated e-mails unique and within 64 chars
    lua_args=("${lua_args[@]:1}" "$(printf %x "$(date +%s%N)")")
  fi
  settle "$server_pid"
  wrk -t"$threads" -c"$connections" -d"${seconds}s" --timeout "$wrk_timeout" --latency \
    -H "Authorization: Bearer $key" "${script[@]}" "http://127.0.0.1:$port$path" \
    ${lua_args[@]:+-- "${lua_args[@]}"} >"$out" 2>&1 || { cat "$out" >&2; die "wrk failed for $label"; }
  read -r w_rps w_p50 w_p99 w_requests w_errors < <(wrk_summary "$out")
  if [ "$w_errors" -gt 0 ]; then
    failures+=("$label: $w_errors errors (non-2xx or socket) in $w_requests requests, see $out")
    log "ERROR: $label had $w_errors errors"
  fi
}

# --- one backend: import, serve, every scenario against leadline and nginx --------------------
bench_backend() {
  local backend=$1 dir=$2 leads=$3 db line name method path status lua title
  local idle_before idle_after hwm_after rows="" bytes ratio
  log "=== $backend: $leads leads ==="
  db=$(fresh_db "$backend")
  create_workspace_and_key "$db"
  import_dataset "$db" "$dir" "$backend"
  start_server "$db"
  sleep 1
  idle_before=$(rss_mib "$server_pid" VmRSS)
  prepare_scenarios no
  start_nginx
  check_nginx
  for line in "${scenarios[@]}"; do
    IFS='|' read -r name method path status lua title <<<"$line"
    bytes=$(wc -c <"$work/www/$name.json")
    log "$backend/$name: leadline"
    run_wrk "$backend-$name-leadline" "$port" "$method" "$path" "$lua"
    local l_rps=$w_rps l_p50=$w_p50 l_p99=$w_p99 l_err=$w_errors l_req=$w_requests
    local rss hwm
    rss=$(rss_mib "$server_pid" VmRSS)
    hwm=$(rss_mib "$server_pid" VmHWM)
    log "$backend/$name: nginx"
    run_wrk "$backend-$name-nginx" "$nginx_port" "$method" "$path" "$lua"
    ratio=$(awk -v a="$l_rps" -v b="$w_rps" 'BEGIN { if (b > 0) printf "%.1f%%", 100 * a / b; else print "-" }')
    rows+="| $title | $l_rps | $l_p50 | $l_p99 | $w_rps | $w_p50 | $w_p99 | $ratio | $l_err/$l_req | $rss | $hwm | $bytes |"$'\n'
    log "$backend/$name: leadline $l_rps req/s p50 $l_p50 ms p99 $l_p99 ms; nginx $w_rps req/s ($ratio)"
  done
  sleep 2  # let the server settle (usage flush, idle connections closed) before the idle sample
  idle_after=$(rss_mib "$server_pid" VmRSS)
  hwm_after=$(rss_mib "$server_pid" VmHWM)
  stop_nginx
  stop_server
  if [ "$backend" = postgres ]; then stop_postgres; fi

  local out="$results/$backend.md"
  {
    echo "### $backend — $leads leads, $contacts_n contacts, $conversations_n conversations × $messages_n messages"
    echo
    echo "wrk -t$threads -c$connections -d${seconds}s --latency on loopback; same requests against nginx serving leadline's bytes."
    echo "Server: leadline serve ($limit_note). Deep cursor: page $deep_reached of 50 leads."
    [ "$backend" = postgres ] && echo "PostgreSQL 15: tools/test-services/postgres.sh with PG_DURABLE=1 (fsync, synchronous_commit and full_page_writes on; shared_buffers=256MB)."
    echo
    echo "| scenario | leadline req/s | p50 ms | p99 ms | nginx req/s | nginx p50 ms | nginx p99 ms | leadline/nginx | errors/requests | VmRSS MiB | VmHWM MiB | body bytes |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    printf '%s' "$rows"
    echo
    echo "Server RSS: idle after start ${idle_before} MiB; idle after load ${idle_after} MiB; peak (VmHWM) ${hwm_after} MiB."
    echo "Import: ${import_total} s in total for the dataset (one \`leadline import\` call per chunk of $chunk lines)."
    echo
  } >"$out"
  log "wrote $out"
}

# --- growth: the list scenarios at several sizes (leadline only) ------------------------------
bench_growth() {
  local backend=$1 size dir db line name method path status lua title rows="" rss hwm
  local sizes
  IFS=',' read -r -a sizes <<<"${BENCH_GROWTH_SIZES:-10000,100000,1000000}"
  for size in "${sizes[@]}"; do
    log "=== growth $backend: $size leads ==="
    dir=$(dataset_dir "$size" "$size" "$((size / 10))" 0)
    db=$(fresh_db "$backend")
    create_workspace_and_key "$db"
    import_dataset "$db" "$dir" "$backend"
    start_server "$db"
    prepare_scenarios yes
    for line in "${scenarios[@]}"; do
      IFS='|' read -r name method path status lua title <<<"$line"
      log "growth $backend/$size/$name"
      run_wrk "growth-$backend-$size-$name" "$port" "$method" "$path" "$lua"
      rss=$(rss_mib "$server_pid" VmRSS)
      hwm=$(rss_mib "$server_pid" VmHWM)
      rows+="| $size | $title | $w_rps | $w_p50 | $w_p99 | $w_errors/$w_requests | $rss | $hwm |"$'\n'
    done
    rows+="| $size | (import) | ${import_total} s | | | | | |"$'\n'
    stop_server
    if [ "$backend" = postgres ]; then stop_postgres; fi
  done
  local out="$results/growth-$backend.md"
  {
    echo "### growth ($backend) — leadline only, wrk -t$threads -c$connections -d${seconds}s"
    echo
    echo "N leads, N contacts, N/10 conversations (no messages); \"key-account\" tags every tenth contact and conversation."
    echo
    echo "| N | scenario | req/s | p50 ms | p99 ms | errors/requests | VmRSS MiB | VmHWM MiB |"
    echo "|---:|---|---:|---:|---:|---:|---:|---:|"
    printf '%s' "$rows"
    echo
  } >"$out"
  log "wrote $out"
}

machine_info() {
  {
    echo "### machine"
    echo
    echo "- CPU: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) cores"
    echo "- memory: $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
    echo "- kernel: $(uname -r); $(. /etc/os-release && echo "$PRETTY_NAME")"
    echo "- $(wrk -v 2>&1 | head -n1 | cut -c1-60); $(/usr/sbin/nginx -v 2>&1); $(psql --version 2>/dev/null || true)"
    local dirty=""
    git -C "$root" diff --quiet HEAD -- src 2>/dev/null || dirty=" + uncommitted changes in src/"
    echo "- leadline: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$dirty (Release, $build)"
    echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"
    echo
  } >"$results/machine.md"
}

# --- main -------------------------------------------------------------------------------------
started=$(date +%s)
machine_info
import_rows=""
IFS=',' read -r -a backend_list <<<"$backends"
if [ "$mode" = growth ]; then
  for backend in "${backend_list[@]}"; do bench_growth "$backend"; done
  outputs=("$results"/growth-*.md)
else
  if [ "$mode" = large ]; then leads_n=${BENCH_LEADS:-1000000}; else leads_n=${BENCH_LEADS:-100000}; fi
  contacts_n=${BENCH_CONTACTS:-100000}
  conversations_n=${BENCH_CONVERSATIONS:-20000}
  messages_n=${BENCH_MESSAGES:-10}
  data=$(dataset_dir "$leads_n" "$contacts_n" "$conversations_n" "$messages_n")
  outputs=()
  for backend in "${backend_list[@]}"; do
    bench_backend "$backend" "$data" "$leads_n"
    outputs+=("$results/$backend.md")
  done
fi
{
  echo "### import times"
  echo
  echo "| backend | dataset | file | lines | seconds |"
  echo "|---|---|---|---:|---:|"
  printf '%s' "$import_rows"
  echo
} >"$results/import-$mode.md"

echo
cat "$results/machine.md" "${outputs[@]}" "$results/import-$mode.md"
echo "bench: finished in $(( $(date +%s) - started )) s; tables in $results, raw wrk output in $raw"
if [ ${#failures[@]} -gt 0 ]; then
  echo >&2
  echo "bench: FAILED — scenarios with errors:" >&2
  printf '  %s\n' "${failures[@]}" >&2
  exit 1
fi
