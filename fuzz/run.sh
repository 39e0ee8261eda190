#!/bin/sh
# Runs the libFuzzer targets of a fuzz build (used by `make fuzz` and `make fuzz-smoke`): each on
# a scratch copy of its seed corpus, so the committed corpus never grows; prints runs and time.
#
#   fuzz/run.sh smoke BUILD_DIR SECONDS [TARGET...]   replay corpus + regressions, then fuzz
#   fuzz/run.sh long  BUILD_DIR SECONDS [TARGET...]   fuzz only
#
# A crash stops the script with a non-zero status and leaves the input in
# BUILD_DIR/fuzz-artifacts/TARGET/; copy it to fuzz/regressions/TARGET/ once it is fixed.
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

here=$(cd "$(dirname "$0")" && pwd)
if [ $# -gt 0 ]; then
  targets=$*
else
  targets=""
  for source in "$here"/fuzz_*.cpp; do
    name=${source##*/}
    targets="$targets ${name%.cpp}"
  done
fi

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
  find "$here/corpus/$1" "$here/regressions/$1" -type f ! -name '*.md' 2>/dev/null | sort
}

summary=""
for target in $targets; do
  binary=$build/fuzz/$target
  if [ ! -x "$binary" ]; then
    echo "$0: $binary is not built (make fuzz-build)" >&2
    exit 1
  fi
  work=$build/fuzz-work/$target
  artifacts=$build/fuzz-artifacts/$target
  log=$build/fuzz-work/$target.log
  rm -rf "$work"
  mkdir -p "$work" "$artifacts"
  cp "$here/corpus/$target"/* "$work"/
  dict=$(dictionary_of "$target")

  if [ "$mode" = smoke ]; then
    count=$(inputs_of "$target" | wc -l)
    echo "== $target: replaying $count seed and regression inputs"
    # shellcheck disable=SC2046 # one argument per input file; paths have no spaces
    if ! "$binary" -artifact_prefix="$artifacts/" $(inputs_of "$target") >"$log" 2>&1; then
      tail -n 40 "$log"
      echo "$0: $target failed on a committed input (log: $log)" >&2
      exit 1
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
    exit 1
  fi
  elapsed=$(($(date +%s) - started))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  corpus=$(find "$work" -type f | wc -l)
  line=$(printf '%-28s %10s runs %8s/s %5ss  corpus %s' "$target" "$runs" "$rate" "$elapsed" "$corpus")
  echo "$line"
  summary="$summary$line
"
done

echo "== summary ($mode, ${seconds}s per target)"
printf '%s' "$summary"
