#!/usr/bin/env bash
# apt-get that waits for another package manager (unattended-upgrades on a fresh machine, say)
# instead of failing at once on its lock: `tools/apt-get-waiting.sh install -y -qq PACKAGE…`.
#
# DPkg::Lock::Timeout makes apt-get wait for dpkg's locks, but apt 2.6 (Debian 12) applies it to
# no other lock: `update` still gives up at once on /var/lib/apt/lists/lock, and a download on
# /var/cache/apt/archives/lock. A run stopped by a lock is therefore repeated, up to the same
# APT_LOCK_TIMEOUT seconds (default 600) in all.
set -uo pipefail

timeout=${APT_LOCK_TIMEOUT:-600}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$SECONDS
while :; do
  apt-get -o DPkg::Lock::Timeout=$((timeout - (SECONDS - start))) "$@" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  [ "$status" -eq 0 ] && exit 0
  grep -q "Could not get lock" "$log" || exit "$status"
  if [ $((SECONDS - start)) -ge "$timeout" ]; then
    echo "apt-get: gave up after waiting ${timeout} s for another package manager's lock" >&2
    exit "$status"
  fi
  echo "apt-get: another package manager holds a lock; trying again in 5 s" >&2
  sleep 5
done
