#!/usr/bin/env bash
# expect.sh CODE REGEX [COUNT] -- COMMAND...
# Runs COMMAND and passes when it exits with CODE and its combined output matches REGEX (grep -E);
# with COUNT, when exactly COUNT lines match (what every rank of an MPI run would print, once).
set -u
code=$1 regex=$2 count=
shift 2
if [ "$1" != -- ]; then count=$1 && shift; fi
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out" | tail -n 20
if [ "$rc" != "$code" ]; then echo "expect.sh: exit code $rc, expected $code" >&2; exit 1; fi
if ! printf '%s\n' "$out" | grep -Eq -- "$regex"; then echo "expect.sh: output does not match /$regex/" >&2; exit 1; fi
n=$(printf '%s\n' "$out" | grep -Ec -- "$regex")
if [ -n "$count" ] && [ "$n" != "$count" ]; then
  echo "expect.sh: $n lines match /$regex/, expected $count" >&2
  exit 1
fi
echo "expect.sh: ok (exit $rc, output matches)"
