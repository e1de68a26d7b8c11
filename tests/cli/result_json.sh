# Helpers for the shell tests that compare runs (sourced, not run).
# fail MESSAGE: print it under the calling script's name and exit 1.
fail() { echo "$(basename "$0"): $*" >&2; exit 1; }
# block RESULT_JSON KEY: the lines of a top-level key of result.json (dumped with two-space indent
# and sorted keys), without timing metrics (names ending _per_s, _ms, _us: `immerse compare` skips
# them too).
block() {
  awk -v key="  \"$2\": " 'index($0, key) == 1 {on = 1} on && /^  "/ && index($0, key) != 1 {exit} on' "$1" |
    grep -v -E '"[A-Za-z0-9_]*(_per_s|_ms|_us)": '
}
