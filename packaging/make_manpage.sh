#!/usr/bin/env bash
# Writes leadline(1) in roff from the binary's own --help texts, so the man page can never
# disagree with the program.
#
#   make_manpage.sh LEADLINE_BINARY OUTPUT_FILE VERSION
set -euo pipefail
bin=${1:?usage: make_manpage.sh LEADLINE_BINARY OUTPUT VERSION}
out=${2:?usage: make_manpage.sh LEADLINE_BINARY OUTPUT VERSION}
version=${3:-}

# roff: a leading dot or quote would start a request, and backslashes are escapes.
escape() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

{
  echo ".TH LEADLINE 1 \"\" \"leadline $version\" \"User Commands\""
  echo ".SH NAME"
  echo "leadline \\- REST API service for CRM leads, contacts and chat conversations"
  echo ".SH SYNOPSIS"
  echo ".B leadline"
  echo ".I COMMAND"
  echo "[\\fIOPTIONS\\fR]"
  echo ".SH DESCRIPTION"
  echo ".nf"
  "$bin" --help | escape
  echo ".fi"
  echo ".SH COMMANDS"
  # The command list of --help: two-space indent, the command words, then its summary.
  "$bin" --help | sed -n 's/^  \([a-z][a-z]*\( [a-z][a-z]*\)\?\)  .*/\1/p' | while read -r cmd; do
    echo ".SS $cmd"
    echo ".nf"
    # shellcheck disable=SC2086  # the command is one or two words
    "$bin" $cmd --help | escape
    echo ".fi"
  done
  echo ".SH FILES"
  echo ".TP"
  echo ".I /etc/leadline/leadline.toml"
  echo "configuration of the packaged service (keys are the serve flags)"
  echo ".TP"
  echo ".I /var/lib/leadline/leadline.db"
  echo "the packaged service's SQLite database"
  echo ".SH SEE ALSO"
  echo "The API reference (docs/api.md) and the OpenAPI description served at"
  echo ".IR /api/v1/external/openapi.json ."
} >"$out.tmp"
mv "$out.tmp" "$out"
