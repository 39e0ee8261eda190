#!/bin/sh
# Self-test of the contract checker: the good fixture must pass, and every line of the bad
# fixture must be reported as a mismatch. Needs `npm ci` in tools/ first.
#   sh tools/openapi/selftest.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
checker="$here/check-responses.mjs"
good="$here/fixtures/good.jsonl"
bad="$here/fixtures/bad.jsonl"
fail=0

if [ ! -d "$here/../node_modules/ajv" ]; then
  echo "selftest: run 'npm ci' in $(cd "$here/.." && pwd) first" >&2
  exit 2
fi

out=$(node "$checker" "$good" 2>&1)
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "selftest: FAIL: good.jsonl should pass (exit $rc):" >&2
  echo "$out" >&2
  fail=1
else
  echo "selftest: good.jsonl passes: $(echo "$out" | tail -n 1)"
fi

out=$(node "$checker" "$bad" 2>&1)
rc=$?
expected=$(grep -c . "$bad")
reported=$(echo "$out" | sed -n 's/^contract: .*, \([0-9][0-9]*\) mismatches$/\1/p')
if [ "$rc" -ne 1 ]; then
  echo "selftest: FAIL: bad.jsonl should fail with exit 1 (exit $rc):" >&2
  echo "$out" >&2
  fail=1
elif [ "$reported" != "$expected" ]; then
  echo "selftest: FAIL: bad.jsonl has $expected lines but $reported mismatches were reported:" >&2
  echo "$out" >&2
  fail=1
else
  echo "selftest: bad.jsonl fails as it should: $(echo "$out" | tail -n 1)"
fi

if [ "$fail" -ne 0 ]; then exit 1; fi
echo "selftest: OK"
