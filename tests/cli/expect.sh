#!/usr/bin/env bash
# expect.sh CODE REGEX -- COMMAND...
# Runs COMMAND and passes when it exits with CODE and its combined output matches REGEX (grep -E).
set -u
code=$1 regex=$2
shift 3
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out" | tail -n 20
if [ "$rc" != "$code" ]; then echo "expect.sh: exit code $rc, expected $code" >&2; exit 1; fi
if ! printf '%s\n' "$out" | grep -Eq -- "$regex"; then echo "expect.sh: output does not match /$regex/" >&2; exit 1; fi
echo "expect.sh: ok (exit $rc, output matches)"
