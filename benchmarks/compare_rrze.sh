#!/usr/bin/env bash
# compare_rrze.sh: the D3Q15 FP32 kernel at 256^3 beside the fastest public CPU lattice kernels,
# RRZE-HPC/lbm-benchmark-kernels (D3Q19, AA pattern), in alternating rounds on the same machine.
#
#   benchmarks/compare_rrze.sh RRZE_DIR [ROUNDS] [THREADS]
#
# RRZE_DIR: a checkout of https://github.com/RRZE-HPC/lbm-benchmark-kernels (not fetched here: the
# suite does not download code). It is built once in RRZE_DIR/src (single precision, -march=native,
# make CONFIG=linux-gcc PRECISION=sp TARCH=-march=native). ROUNDS (default 3) alternate
# bench_lbm3d's collide_stream/openmp/fp32/256 and in-place rows with RRZE's aa-vec-sl-soa and
# aa-vec-soa kernels at 256^3 (about 35 s each); THREADS defaults to nproc.
# Prints every row, then per RRZE kernel the median of immerse's MLUPS over the median of its own,
# and each kernel's bytes per second (updates x bytes per update) against the median in-place row.
# The two count differently: RRZE's MFLUP/s are fluid nodes of its channel (16.52 of 16.78 M
# nodes), updating 19 populations (152 B per node); ours are all cells, 15 populations (120 B).
# This machine's memory bandwidth can change between rounds: compare medians, not single rows.
# RRZE's single-precision kernels are AVX2 intrinsics (it has no AVX-512 single-precision kernel).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RRZE=${1:?usage: benchmarks/compare_rrze.sh RRZE_DIR [ROUNDS] [THREADS]}
ROUNDS=${2:-3}
THREADS=${3:-$(nproc)}
BENCH=$ROOT/build/openmp/benchmarks/bench_lbm3d
[ -d "$RRZE/src" ] || { echo "compare_rrze: $RRZE/src not found: pass a checkout of lbm-benchmark-kernels" >&2; exit 2; }
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "compare_rrze: ROUNDS must be a positive integer, got '$ROUNDS'" >&2; exit 2; }
[[ $THREADS =~ ^[1-9][0-9]*$ ]] || { echo "compare_rrze: THREADS must be a positive integer, got '$THREADS'" >&2; exit 2; }
[ -x "$BENCH" ] || "$ROOT/immerse.sh" build openmp bench_lbm3d >&2

RRZE_BIN=$RRZE/bin/lbmbenchk-linux-gcc-release-sp
if [ ! -x "$RRZE_BIN" ]; then
  echo "compare_rrze: building RRZE's kernels in $RRZE/src" >&2
  make -C "$RRZE/src" CONFIG=linux-gcc PRECISION=sp TARCH=-march=native >&2 ||
    { echo "compare_rrze: RRZE's build failed (see above)" >&2; exit 1; }
fi
[ -x "$RRZE_BIN" ] || { echo "compare_rrze: no $RRZE_BIN after the build" >&2; exit 1; }

export OMP_NUM_THREADS=$THREADS OMP_PROC_BIND=spread OMP_PLACES=threads
LOG=$(mktemp -d)
trap 'rm -rf "$LOG"' EXIT

ours() {  # MLUPS of collide_stream/openmp/fp32/256 and the in-place row's GB/s, one line
  "$BENCH" --benchmark_filter='stream_inplace/openmp|collide_stream/openmp/fp32/256/real' \
    --benchmark_format=console 2>/dev/null | awk '
      /^collide_stream\/openmp\/fp32\/256\/real/ { for (i = 1; i <= NF; i++) if ($i ~ /^lattice_updates_per_s=/) { v = $i; sub(/.*=/, "", v); m = v + 0; if (v ~ /G\/s$/) m *= 1000 } }
      /^stream_inplace\/openmp\/real/ { for (i = 1; i <= NF; i++) if ($i ~ /^bytes_per_second=/) { v = $i; sub(/.*=/, "", v); b = v + 0 } }
      END { printf "%.1f %.1f\n", m, b }'
}
theirs() {  # MFLUP/s of one RRZE kernel at 256^3
  local iters=$((THREADS >= 2 ? 600 : 300))
  (cd "$LOG" && "$RRZE_BIN" -kernel "$1" -dims 256x256x256 -iterations "$iters" -t "$THREADS") >"$LOG/$1.txt" 2>&1 ||
    { echo "compare_rrze: RRZE's $1 failed:" >&2; tail -5 "$LOG/$1.txt" >&2; exit 1; }
  awk '/^P:/ { print $2 }' "$LOG/$1.txt"
}

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }

: >"$LOG/ours"
: >"$LOG/inplace"
: >"$LOG/aa-vec-sl-soa"
: >"$LOG/aa-vec-soa"
printf '%-6s %-32s %10s %s\n' round row MLUPS note
for r in $(seq "$ROUNDS"); do
  read -r m b < <(ours)
  echo "$m" >>"$LOG/ours"
  echo "$b" >>"$LOG/inplace"
  printf '%-6s %-32s %10s %s\n' "$r" "immerse D3Q15 fp32 (AA)" "$m" "in-place row ${b} GB/s"
  for k in aa-vec-sl-soa aa-vec-soa; do
    t=$(theirs "$k")
    echo "$t" >>"$LOG/$k"
    printf '%-6s %-32s %10.1f %s\n' "$r" "RRZE D3Q19 fp32 $k" "$t" "MFLUP/s of fluid nodes"
  done
done
mo=$(median <"$LOG/ours")
mb=$(median <"$LOG/inplace")
awk -v a="$mo" -v b="$mb" 'BEGIN {
  printf "summary: immerse fp32/256 median %.1f MLUPS, %.1f GB/s at 120 B = %.2f of the median in-place row (%.1f GB/s)\n", a, a * 0.12, a * 0.12 / b, b }'
for k in aa-vec-sl-soa aa-vec-soa; do
  mt=$(median <"$LOG/$k")
  awk -v a="$mo" -v r="$mt" -v b="$mb" -v k="$k" -v t="$THREADS" -v n="$ROUNDS" 'BEGIN {
    printf "summary: immerse fp32/256 median %.1f MLUPS / RRZE %s median %.1f = %.2fx (%d threads, %d rounds); RRZE %.1f GB/s at 152 B = %.2f of the in-place row\n", a, k, r, a / r, t, n, r * 0.152, r * 0.152 / b }'
done
