#!/usr/bin/env bash
# case_keys_doc.sh IMMERSE DOC: DOC (docs/case-keys.md) must equal `immerse list --keys --markdown`,
# so the documented case-file keys cannot drift from the schemas the program enforces.
set -euo pipefail
generated=$(mktemp)
trap 'rm -f "$generated"' EXIT
"$1" list --keys --markdown >"$generated"
if ! diff -u "$2" "$generated"; then
  echo "$2 is out of date: regenerate it with"
  echo "  build/openmp/app/immerse list --keys --markdown > docs/case-keys.md"
  exit 1
fi
echo "$2 documents every case-file key"
