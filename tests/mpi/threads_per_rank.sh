#!/usr/bin/env bash
# threads_per_rank.sh MPIEXEC IMMERSE OUT_DIR
# Four unbound ranks on this machine, OMP_NUM_THREADS unset: each rank's result.json records its
# share of the machine's processors as its OpenMP threads (backend_id.hpp, threads_per_rank), not
# a thread per processor in every rank.
set -u
mpiexec=$1 immerse=$2 out=$3
. "$(dirname "$0")/../cli/result_json.sh"
rm -rf "$out"
unset OMP_NUM_THREADS
"$mpiexec" -np 4 --oversubscribe --bind-to none "$immerse" run jellyfish --quick --quiet --out "$out" ||
  fail "the run on 4 ranks failed"
cpus=$(getconf _SC_NPROCESSORS_ONLN)
want=$((cpus / 4 > 0 ? cpus / 4 : 1))
grep -q "\"concurrency\": $want," "$out/result.json" ||
  fail "expected $want OpenMP threads per rank ($cpus processors, 4 ranks): $(grep '"concurrency"' "$out/result.json")"
echo "threads per rank: $want ($cpus processors, 4 ranks)"
