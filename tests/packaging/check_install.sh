#!/usr/bin/env bash
# `cmake --install` into a temporary prefix must lay out a working package: the binary, a man
# page covering every command, the hardened systemd unit, and a configuration the binary
# accepts.
#
#   check_install.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: check_install.sh BUILD_DIR}
prefix=$(mktemp -d "${TMPDIR:-/tmp}/leadline-install-XXXXXX")
trap 'rm -rf "$prefix"' EXIT
fail() { echo "check_install: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null

bin=$prefix/bin/leadline
man=$prefix/share/man/man1/leadline.1
unit=$prefix/lib/systemd/system/leadline.service
conf=$prefix/etc/leadline/leadline.toml
for f in "$bin" "$man" "$unit" "$conf" "$prefix/share/doc/leadline/leadline.example.toml"; do
  [ -e "$f" ] || fail "missing $f"
done
[ -x "$bin" ] || fail "$bin is not executable"

# Every command of --help has its section in the man page.
head -n1 "$man" | grep -q '^\.TH LEADLINE 1' || fail "man page has no .TH header"
"$bin" --help | sed -n 's/^  \([a-z][a-z]*\( [a-z][a-z]*\)\?\)  .*/\1/p' | while read -r cmd; do
  grep -qx "\.SS $cmd" "$man" || fail "man page lacks the command '$cmd'"
done
if command -v groff >/dev/null; then
  warnings=$(groff -man -Tutf8 -ww -z "$man" 2>&1 || true)
  [ -z "$warnings" ] || fail "groff warns about the man page: $warnings"
fi

for setting in DynamicUser=yes ProtectSystem=strict StateDirectory=leadline NoNewPrivileges=yes \
               PrivateTmp=yes ProtectHome=yes CapabilityBoundingSet= SystemCallFilter=@system-service; do
  grep -qx "$setting" "$unit" || fail "the unit lacks $setting"
done
grep -q "^ExecStart=.*/leadline serve --config .*/leadline/leadline.toml$" "$unit" ||
  fail "the unit's ExecStart does not serve with the installed configuration"

# The installed configuration is valid and is what the service would run with.
printed=$("$bin" serve --config "$conf" --print-config) || fail "the installed configuration is rejected"
grep -q 'sqlite:/var/lib/leadline/leadline.db' <<<"$printed" ||
  fail "the installed configuration does not put the database in the state directory"
echo "check_install: binary, man page ($(grep -c '^\.SS' "$man") commands), unit and configuration OK"
