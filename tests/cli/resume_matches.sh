#!/usr/bin/env bash
# resume_matches.sh IMMERSE OUT_DIR CASE CHECKPOINT_EVERY [run options...]
# Runs CASE uninterrupted, then again with checkpoints, killed with SIGKILL once a checkpoint exists,
# resumed with `immerse run --resume`; passes when the resumed run's metrics, checks, series.csv and
# every frame equal the uninterrupted run's bitwise. Then damages the newest checkpoint and resumes
# again: the previous checkpoint must be used, with the same result.
# IMMERSE_LAUNCH (e.g. "mpirun -np 2 --oversubscribe"): starts the checkpointed runs, whose ranks
# are then all killed; the uninterrupted run stays one process.
# RESUME_BLOCKS: the result.json blocks compared (default "metrics checks status"; a scene whose
# metrics nest timings where result_json.sh's filter does not reach compares its checks instead).
set -u
immerse=$1 out=$2 case=$3 every=$4
shift 4
read -r -a launch <<< "${IMMERSE_LAUNCH:-}"
# The steps whose checkpoints are complete in $1 (one file per rank and step; a run killed while
# writing may leave a step with fewer), oldest first.
complete_steps() {
  ls "$1"/checkpoints/*.ckpt 2> /dev/null | sed 's/\(_r[0-9]*\)\?\.ckpt$//' | sort | uniq -c |
    awk '{n[NR] = $1; s[NR] = $2; if ($1 > m) m = $1} END {for (k = 1; k <= NR; ++k) if (n[k] == m) print s[k]}'
}
steps_in() { complete_steps "$1" | wc -l; }
rm -rf "$out" && mkdir -p "$out"
. "$(dirname "$0")/result_json.sh"
same_run() {
  for key in ${RESUME_BLOCKS:-metrics checks status}; do
    [ -n "$(block "$out/whole/result.json" $key)" ] || fail "no '$key' in the uninterrupted result.json"
    diff <(block "$out/whole/result.json" $key) <(block "$1/result.json" $key) > /dev/null ||
      fail "$1: '$key' differs from the uninterrupted run"
  done
  for f in "$out"/whole/*.csv "$out"/whole/*.vti "$out"/whole/*.vtp "$out"/whole/*.pvd; do
    [ -e "$f" ] || continue
    cmp -s "$f" "$1/$(basename "$f")" || fail "$1: $(basename "$f") differs from the uninterrupted run"
  done
}

"$immerse" run "$case" --quiet --out "$out/whole" "$@" || fail "the uninterrupted run failed"
# Open MPI's shared-memory segments of the ranks about to be killed lie in $out/shm, not /dev/shm,
# where nothing would remove them.
mkdir -p "$out/shm"
OMPI_MCA_btl_vader_backing_directory="$out/shm" \
  "${launch[@]}" "$immerse" run "$case" --quiet --out "$out/killed" --checkpoint-every "$every" "$@" &
pid=$!
# Killed once two checkpoints exist (so a damaged newest one has one to fall back on).
for _ in $(seq 1 1200); do
  [ "$(steps_in "$out/killed")" -ge 2 ] && break
  sleep 0.05
done
kill -9 $pid 2> /dev/null
[ ${#launch[@]} -eq 0 ] || pkill -9 -f -- "--out $out/killed" 2> /dev/null  # every rank
wait $pid 2> /dev/null
# Open MPI's launcher, killed, leaves its session directory (~8 MB) behind in the temp folder.
[ ${#launch[@]} -eq 0 ] || rm -rf "${TMPDIR:-/tmp}/ompi.$(hostname).$(id -u)/pid.$pid"
ls "$out"/killed/checkpoints/*.ckpt > /dev/null 2>&1 || fail "no checkpoint was written"
cp -r "$out/killed" "$out/damaged"
"${launch[@]}" "$immerse" run --resume "$out/killed" --quiet || fail "the resumed run failed"
same_run "$out/killed"
echo "resume_matches.sh: resumed run equals the uninterrupted one"

# A truncated newest checkpoint is skipped (when there is an older one to fall back on).
# On several ranks, one rank's file of the newest complete step: all ranks go back to the previous.
newest=$(ls "$(complete_steps "$out/damaged" | tail -1)"*.ckpt | tail -1)
if [ "$(steps_in "$out/damaged")" -ge 2 ]; then
  truncate -s -100 "$newest"
  log=$("${launch[@]}" "$immerse" run --resume "$out/damaged" --quiet 2>&1) ||
    fail "resuming past a damaged checkpoint failed: $log"
  printf '%s\n' "$log" | grep -q "skipping checkpoint: .*truncated" || fail "the damaged checkpoint was not reported"
  same_run "$out/damaged"
  echo "resume_matches.sh: a damaged checkpoint is skipped, the previous one gives the same result"
fi
