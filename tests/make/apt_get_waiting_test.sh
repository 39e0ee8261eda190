#!/usr/bin/env bash
# tools/apt-get-waiting.sh against a stand-in apt-get: a run stopped by another package
# manager's lock is repeated until it passes or the wait is over, any other failure ends it at
# once, and the Makefile installs through it. Usage: apt_get_waiting_test.sh SOURCE_DIR
set -euo pipefail
# Run from `make test`, the outer make's flags (jobserver, -n of its own) must not leak in.
unset MAKEFLAGS MFLAGS MAKELEVEL

src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The stand-in fails with apt's lock message while $work/locked-runs says so, then as told.
mkdir "$work/bin"
cat > "$work/bin/apt-get" <<'STUB'
#!/usr/bin/env bash
echo "$*" >> "$WORK/calls"
left=$(cat "$WORK/locked-runs")
if [ "$left" -gt 0 ]; then
  echo $((left - 1)) > "$WORK/locked-runs"
  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 1 (apt-get)"
  exit 100
fi
[ "${STUB_FAILS:-}" = 1 ] && { echo "E: Unable to locate package nope"; exit 100; }
exit 0
STUB
chmod +x "$work/bin/apt-get"
export WORK=$work PATH="$work/bin:$PATH"
# The script sleeps 5 s between tries; a stand-in sleep keeps this test quick.
printf '#!/bin/sh\nexit 0\n' > "$work/bin/sleep" && chmod +x "$work/bin/sleep"

echo 2 > "$work/locked-runs"
"$src/tools/apt-get-waiting.sh" update -qq > "$work/out" 2>&1 || fail "did not wait out the lock"
[ "$(wc -l < "$work/calls")" = 3 ] || fail "expected 3 runs, got: $(cat "$work/calls")"
grep -q -- "-o DPkg::Lock::Timeout=" "$work/calls" || fail "DPkg::Lock::Timeout not passed"

: > "$work/calls"; echo 0 > "$work/locked-runs"
if STUB_FAILS=1 "$src/tools/apt-get-waiting.sh" install -y nope > "$work/out" 2>&1; then
  fail "a failure that is not a lock passed"
fi
[ "$(wc -l < "$work/calls")" = 1 ] || fail "a failure that is not a lock was repeated"

: > "$work/calls"; echo 1000000 > "$work/locked-runs"
if APT_LOCK_TIMEOUT=0 "$src/tools/apt-get-waiting.sh" update > "$work/out" 2>&1; then
  fail "passed while the lock was held"
fi
grep -q "gave up" "$work/out" || fail "no word on giving up: $(cat "$work/out")"

# Every apt-get of the Makefile that takes locks (update, install) goes through the script.
plan=$(make -n -C "$src" deps test-deps bench-deps BUILD_DIR="$work/build" 2>/dev/null || true)
if grep -E "apt-get (-[^ ]+ )*(update|install)" <<< "$plan" | grep -v "apt-get-waiting.sh" | grep -q .; then
  fail "the Makefile runs apt-get update/install without waiting for locks"
fi
grep -q "apt-get-waiting.sh install" <<< "$plan" || fail "the Makefile does not install through the script"
echo "apt-get-waiting: ok"
