#!/bin/sh
# Runs the libFuzzer targets of a fuzz build (used by `make fuzz` and `make fuzz-smoke`): each on
# a scratch copy of its seed corpus, so the committed corpus never grows; prints runs and time.
#
#   fuzz/run.sh smoke BUILD_DIR SECONDS [TARGET...]   replay corpus + regressions, then fuzz
#   fuzz/run.sh long  BUILD_DIR SECONDS [TARGET...]   fuzz only
#
# FUZZ_JOBS (default 2) targets run at a time. A crash makes the script fail and leaves the input
# in BUILD_DIR/fuzz-artifacts/TARGET/; copy it to fuzz/regressions/TARGET/ once it is fixed.
set -eu

if [ $# -lt 3 ]; then
  echo "usage: $0 smoke|long BUILD_DIR SECONDS [TARGET...]" >&2
  exit 2
fi
mode=$1
build=$2
seconds=$3
shift 3
case $mode in smoke | long) ;; *)
  echo "$0: mode must be smoke or long" >&2
  exit 2
  ;;
esac
jobs=${FUZZ_JOBS:-2}

here=$(cd "$(dirname "$0")" && pwd)
if [ $# -eq 0 ]; then
  for source in "$here"/fuzz_*.cpp; do
    name=${source##*/}
    set -- "$@" "${name%.cpp}"
  done
fi
targets=$*

# The dictionary of a target, if it has one: the three body targets share the JSON one.
dictionary_of() {
  case $1 in
    fuzz_*_body) name=json_body ;;
    *) name=${1#fuzz_} ;;
  esac
  if [ -f "$here/dict/$name.dict" ]; then echo "-dict=$here/dict/$name.dict"; fi
}

# Seed corpus and regression inputs of a target, one path a line.
inputs_of() {
  find "$here/corpus/$1" "$here/regressions/$1" -type f 2>/dev/null | sort
}

# Replays (smoke) and fuzzes one target; leaves its summary line in fuzz-work/TARGET.result.
fuzz_target() {
  target=$1
  binary=$build/fuzz/$target
  work=$build/fuzz-work/$target
  artifacts=$build/fuzz-artifacts/$target
  log=$build/fuzz-work/$target.log
  if [ ! -x "$binary" ]; then
    echo "$0: $binary is not built (make fuzz-build)" >&2
    return 1
  fi
  rm -rf "$work" "$work.result"
  mkdir -p "$work" "$artifacts"
  cp "$here/corpus/$target"/* "$work"/
  dict=$(dictionary_of "$target")

  if [ "$mode" = smoke ]; then
    echo "== $target: replaying $(inputs_of "$target" | wc -l) seed and regression inputs"
    # shellcheck disable=SC2046 # one argument per input file; the paths have no spaces
    if ! "$binary" -artifact_prefix="$artifacts/" $(inputs_of "$target") >"$log" 2>&1; then
      tail -n 40 "$log"
      echo "$0: $target failed on a committed input (log: $log)" >&2
      return 1
    fi
  fi

  echo "== $target: fuzzing for ${seconds}s"
  regressions=""
  if [ -d "$here/regressions/$target" ]; then regressions=$here/regressions/$target; fi
  started=$(date +%s)
  # shellcheck disable=SC2086 # $dict and $regressions are empty or one word
  if ! "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" $dict "$work" $regressions >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "$0: $target crashed; the input is in $artifacts/ (log: $log)" >&2
    return 1
  fi
  elapsed=$(($(date +%s) - started))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  corpus=$(find "$work" -type f | wc -l)
  printf '%-28s %10s runs %8s/s %5ss  corpus %s\n' "$target" "$runs" "$rate" "$elapsed" \
    "$corpus" >"$work.result"
}

# In batches of $jobs; every target of a batch finishes before the verdict.
# shellcheck disable=SC2086 # target names are single words
set -- $targets
failed=0
while [ $# -gt 0 ] && [ $failed -eq 0 ]; do
  pids=""
  batch=0
  while [ $batch -lt "$jobs" ] && [ $# -gt 0 ]; do
    fuzz_target "$1" &
    pids="$pids $!"
    batch=$((batch + 1))
    shift
  done
  for pid in $pids; do
    wait "$pid" || failed=1
  done
done

echo "== $mode: ${seconds}s per target, $jobs at a time"
for target in $targets; do
  if [ -f "$build/fuzz-work/$target.result" ]; then cat "$build/fuzz-work/$target.result"; fi
done
exit $failed
