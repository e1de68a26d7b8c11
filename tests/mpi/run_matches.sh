#!/usr/bin/env bash
# run_matches.sh MPIEXEC RANKS DECOMPOSE IMMERSE OUT_DIR CASE [run options...]
# Runs CASE in one process, then under `MPIEXEC -np RANKS` (the lattice split among the ranks as
# DECOMPOSE says, e.g. 1x2x2, or as the program chooses: "auto");
# passes when the split run's metrics, checks, status, series.csv and final_*.csv equal the single
# process's bitwise, and only rank 0 wrote (one result.json, no stray files). MATCH_BLOCKS names
# other result.json blocks to compare (a scene whose metrics hold wall-clock timings: "checks status").
set -u
mpiexec=$1 ranks=$2 decompose=$3 immerse=$4 out=$5 case=$6
shift 6
split=()
[ "$decompose" = auto ] || split=(--decompose "$decompose")
rm -rf "$out" && mkdir -p "$out"
. "$(dirname "$0")/../cli/result_json.sh"
"$immerse" run "$case" --quiet --out "$out/one" "$@" || fail "the single-process run failed"
"$mpiexec" -np "$ranks" --oversubscribe "$immerse" run "$case" --quiet --out "$out/split" "${split[@]}" "$@" ||
  fail "the run on $ranks ranks failed"
for key in ${MATCH_BLOCKS:-metrics checks status}; do
  [ -n "$(block "$out/one/result.json" $key)" ] || fail "no '$key' in the single-process result.json"
  diff <(block "$out/one/result.json" $key) <(block "$out/split/result.json" $key) ||
    fail "'$key' differs between 1 process and $ranks ranks"
done
grep -q "\"ranks\": $ranks" "$out/split/result.json" || fail "result.json does not record $ranks ranks"
for f in "$out"/one/*.csv; do  # final fields and the scenes' own tables (sailboat_roll.csv, ...)
  [ -e "$f" ] && [ "$(basename "$f")" != series.csv ] || continue
  cmp -s "$f" "$out/split/$(basename "$f")" || fail "$(basename "$f") differs between 1 process and $ranks ranks"
done
if [ -e "$out/one/series.csv" ]; then  # its first line names the run
  [ "$(tail -n +2 "$out/one/series.csv")" = "$(tail -n +2 "$out/split/series.csv" 2>/dev/null)" ] ||
    fail "series.csv differs between 1 process and $ranks ranks"
else
  [ ! -e "$out/split/series.csv" ] || fail "the split run wrote a series.csv, one process did not"
fi
# Frames: where one process wrote lattice_N.vti, the split run wrote lattice_N.pvti joining one
# piece per rank, each piece present.
for f in "$out"/one/lattice_*.vti; do
  [ -e "$f" ] || continue
  p="$out/split/$(basename "${f%.vti}").pvti"
  [ -f "$p" ] || fail "no $(basename "$p") for $(basename "$f")"
  [ "$(grep -c '<Piece ' "$p")" = "$ranks" ] || fail "$(basename "$p") does not list $ranks pieces"
  for piece in $(sed -n 's/.*Source="\([^"]*\)".*/\1/p' "$p"); do
    [ -f "$out/split/$piece" ] || fail "$(basename "$p") names $piece, which is missing"
  done
done
echo "run_matches.sh: $case on $ranks ranks equals one process"
