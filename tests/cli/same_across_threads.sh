#!/usr/bin/env bash
# same_across_threads.sh IMMERSE OUT_DIR CASE [run options...]
# Runs CASE on the OpenMP backend with 1 thread, with 2 threads, and again with 2 threads; passes
# when the three runs' metrics and checks are identical (timing metrics aside): a deterministic
# family gives the same numbers whatever the thread count and from run to run.
set -u
immerse=$1 out=$2 case=$3
shift 3
rm -rf "$out" && mkdir -p "$out"
. "$(dirname "$0")/result_json.sh"
for run in t1 t2 t2again; do
  threads=${run:1:1}
  OMP_NUM_THREADS=$threads "$immerse" run "$case" --backend openmp --quiet --out "$out/$run" "$@" ||
    fail "the run with $threads thread(s) failed"
  grep -q "\"concurrency\": $threads," "$out/$run/result.json" || fail "$run did not run on $threads thread(s)"
done
for key in metrics checks; do
  for run in t2 t2again; do
    if ! diff <(block "$out/t1/result.json" $key) <(block "$out/$run/result.json" $key) > "$out/$run.$key.diff"; then
      head -20 "$out/$run.$key.diff" >&2
      fail "'$key' of $run differs from the 1-thread run"
    fi
  done
done
echo "same_across_threads.sh: $case gives the same metrics on 1 and 2 threads and from run to run"
