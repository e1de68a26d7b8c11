#!/usr/bin/env bash
# readme_keys.sh IMMERSE README: every row of `immerse list --keys` must appear in README.md, so the
# documented case-file keys cannot drift from the schema the program enforces.
set -euo pipefail
missing=0
while IFS= read -r row; do
  grep -qF -- "$row" "$2" || { echo "README.md lacks: $row"; missing=1; }
done < <("$1" list --keys | grep '^| `')
[ "$missing" = 0 ] && echo "README.md documents every case-file key"
exit "$missing"
