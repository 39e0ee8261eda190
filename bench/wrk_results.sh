# Sourced by bench/run.sh, bench/webhooks.sh and bench/idempotency.sh: reading wrk's output and
# summarising rounds.

# wrk_summary FILE: "req/s p50_ms p99_ms requests errors" of one wrk --latency run. wrk prints
# latencies as 812.00us / 1.23ms / 2.00s; everything is converted to ms. Errors are non-2xx/3xx
# answers and socket errors.
wrk_summary() {
  awk '
    function ms(v) {
      if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0
      if (v ~ /m$/) return v * 60000; if (v ~ /s$/) return v * 1000; return v }
    /^Requests\/sec:/ { rps = $2 }
    $1 == "50%" { p50 = ms($2) }
    $1 == "99%" { p99 = ms($2) }
    / requests in / { requests = $1 }
    /Non-2xx or 3xx responses:/ { errors += $NF }
    /Socket errors:/ { gsub(/,/, ""); errors += $4 + $6 + $8 + $10 }
    END { printf "%.0f %.2f %.2f %d %d\n", rps, p50, p99, requests, errors }' "$1"
}

# median "V1 V2 ..." [DECIMALS, default 0]: the median of space-separated numbers.
median() {
  tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -g | awk -v d="${2:-0}" '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.*f\n", d, m }'
}

# ratio A B: A / B to two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
