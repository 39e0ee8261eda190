#!/usr/bin/env bash
# `make run` builds the `leadline` binary alone (not the test suites nor the soak driver);
# `make build` and `make test` still build everything. Usage: run_builds_only_the_binary_test.sh SOURCE_DIR
set -euo pipefail
# Run from `make test`, the outer make's flags (jobserver, -n of its own) must not leak in.
unset MAKEFLAGS MFLAGS MAKELEVEL

src=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
builds() { make -n -C "$src" "$1" 2>/dev/null | grep -E '^cmake --build ' || true; }

run=$(builds run)
[ "$(wc -l <<< "$run")" = 1 ] || fail "make run builds more than once: $run"
grep -qE -- '--target leadline$' <<< "$run" || fail "make run builds more than the binary: $run"
for target in build test; do
  grep -qvE -- '--target' <<< "$(builds "$target")" || fail "make $target does not build everything"
done
echo "make run: builds only the binary"
