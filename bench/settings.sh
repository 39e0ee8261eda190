# Sourced first by bench/run.sh, bench/webhooks.sh and bench/idempotency.sh (after they set
# `here`, their own folder): where the build and its results are, and how wrk loads the server.
# BENCH_BUILD [build-bench], BENCH_SECONDS [10], BENCH_THREADS [2], BENCH_CONNECTIONS [64],
# BENCH_TIMEOUT [30s].

root=$(cd "$here/.." && pwd)
build=${BENCH_BUILD:-build-bench}
case $build in /*) ;; *) build="$root/$build" ;; esac
leadline="$build/leadline"
gen="$build/tools/gen_dataset"
results="$build/results"
raw="$results/raw"
api_base="/api/v1/external"

seconds=${BENCH_SECONDS:-10}
threads=${BENCH_THREADS:-2}
connections=${BENCH_CONNECTIONS:-64}
wrk_timeout=${BENCH_TIMEOUT:-30s}
