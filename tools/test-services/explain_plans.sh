#!/usr/bin/env bash
# Prints the PostgreSQL query plans of a lead search and of deep keyset pages on 100,000 leads,
# and fails when one of them scans the table instead of using its index.
#
#   tools/test-services/explain_plans.sh [BUILD_DIR]    (default: build-pg; needs unit_store)
#
# Uses a private PostgreSQL server (tools/test-services/postgres.sh) unless
# LEADLINE_TEST_PG_DIR names a running one.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-pg}
binary=$build/tests/unit_store
if [[ ! -x $binary ]]; then
  echo "explain_plans.sh: $binary is missing; build the unit_store target first" >&2
  exit 1
fi
LEADLINE_EXPLAIN_PLANS=1 exec "$binary" --gtest_filter='QueryPlanTest.*' --gtest_brief=0
