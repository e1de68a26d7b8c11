#!/usr/bin/env bash
# The CUDA build, packed for a machine that has a GPU, nvcc and CMake but none of the Debian -dev
# packages and no network (docs/gpu-kit.md).
#   bash ci/device-kit.sh pack [BUILD]      here: build every target of BUILD (default build/cuda,
#                                           configured from the cuda preset if need be) and pack
#                                           it into .kit/ (ignored by git; xz-compressed, at most
#                                           56 MiB)
#   bash ci/device-kit.sh run [SECONDS] [RESULTS]
#                                           there, from the repository root: put the kit in place,
#                                           then run, each section cut to fit SECONDS (default 480):
#                                           immerse info, the cuda tests, `immerse compare --quick`,
#                                           the benchmarks' cuda rows (KIT_BENCH_FILTER, default
#                                           /cuda/), an Nsight Compute profile of the lattice
#                                           kernels where ncu exists, the other tests, every
#                                           canned case on cuda; results in RESULTS (default
#                                           $OUT, else kit-results/) as kit-results.tar.gz plus
#                                           summary.md. KIT_SECTIONS (section names,
#                                           space-separated) runs only those, in the order above;
#                                           KIT_BENCH_SECONDS caps each benchmark program (default
#                                           45)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
KIT=.kit
MAX_MIB=56

die() { printf 'device-kit: error: %s\n' "$*" >&2; exit 1; }
say() { printf '== device-kit: %s\n' "$*" >&2; }

# Shared libraries every Linux machine has (glibc's); everything else a binary needs is packed.
is_glibc() { case $1 in linux-vdso* | ld-linux* | libc.so* | libm.so* | libdl.so* | libpthread.so* | librt.so*) return 0 ;; esac; return 1; }

cmd_pack() {
  local build=${1:-build/cuda}
  if [ -z "${1:-}" ] && [ ! -f "$build/CMakeCache.txt" ]; then
    say "configuring build/cuda (cmake --preset cuda)"
    IMMERSE_CUDA=1 bash ci/setup.sh >&2
    cmake --preset cuda -G Ninja >&2 || die "cannot configure the cuda preset: see the errors above"
  fi
  [ -f "$build/CMakeCache.txt" ] || die "$build is not a configured build (cmake --preset cuda -G Ninja configures build/cuda)"
  # Every target up to date: built here if need be. (A dry run cannot tell: the build re-checks
  # its globbed sources first, and `ninja -n` stops at that manifest step, listing nothing else.)
  say "bringing every target of $build up to date (cmake --build)"
  PATH=/usr/local/cuda/bin:$PATH cmake --build "$build" >&2 || die "$build does not build: see the errors above"
  local src build_abs kokkos
  src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
  build_abs=$(cd "$build" && pwd)
  kokkos=$(sed -n 's/^Kokkos_DIR:PATH=//p' "$build/CMakeCache.txt")
  kokkos=${kokkos%/lib*/cmake/Kokkos}
  [ -d "$kokkos/include" ] || die "cannot find the Kokkos install of $build (Kokkos_DIR in CMakeCache.txt)"

  rm -rf "$KIT"
  mkdir -p "$KIT/build" "$KIT/lib" "$KIT/kokkos"
  say "programs and test lists of $build"
  local f n=0
  while IFS= read -r f; do
    mkdir -p "$KIT/build/$(dirname "$f")"
    if [ -x "$build/$f" ] && [ "${f##*/}" != CTestTestfile.cmake ]; then
      strip --strip-unneeded -o "$KIT/build/$f" "$build/$f"
      n=$((n + 1))
    else
      cp "$build/$f" "$KIT/build/$f"
    fi
  done < <(cd "$build" && find . -path '*/CMakeFiles' -prune -o -path './Testing' -prune -o -name out -prune -o \
    -type f \( -name CTestTestfile.cmake -o -name '*_include.cmake' -o -name '*_tests.cmake' -o -perm -u+x \) ! -name '*.so*' -print | sed 's|^\./||')
  say "$n programs"

  say "shared libraries outside glibc"
  local lib name
  while IFS= read -r lib; do
    name=${lib##*/}
    is_glibc "$name" && continue
    cp -L "$lib" "$KIT/lib/$name"
  done < <(find "$KIT/build" -type f -perm -u+x ! -name CTestTestfile.cmake -exec ldd {} + 2>/dev/null |
    awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u)
  ls "$KIT/lib" | sed 's/^/  /' >&2

  say "Kokkos install $kokkos"
  cp -a "$kokkos/." "$KIT/kokkos/"

  {
    printf 'KIT_SOURCE_DIR=%q\nKIT_BUILD_DIR=%q\nKIT_KOKKOS=%q\n' "$src" "$build_abs" "$kokkos"
    printf 'KIT_COMMIT=%q\nKIT_PACKED=%q\n' "$(git -C "$src" describe --always --dirty 2>/dev/null || echo unknown)" "$(date -u +%FT%TZ)"
  } >"$KIT/kit.env"
  say "compressing (xz)"
  tar -C "$KIT" -cf - build lib kokkos | xz -T0 -9 >"$KIT/kit.tar.xz"
  rm -rf "$KIT/build" "$KIT/lib" "$KIT/kokkos"
  local mib
  mib=$(du -sm "$KIT" | cut -f1)
  say "packed $KIT: $mib MiB (limit $MAX_MIB MiB, the rest of the 64 MiB a device call carries is the repository)"
  [ "$mib" -le "$MAX_MIB" ] || die "$KIT is $mib MiB, over $MAX_MIB MiB"
}

# ---------------------------------------------------------------- run (on the GPU machine)
DEADLINE=0
left() { echo $((DEADLINE - SECONDS)); }
# section NAME CAP CMD...: run CMD with at most CAP seconds, never past the deadline less 30 s
# (kept for packing the results); its output goes to RESULTS/NAME.log.
section() {
  local name=$1 cap=$2
  shift 2
  if [ -n "${KIT_SECTIONS:-}" ] && [[ " $KIT_SECTIONS " != *" $name "* ]]; then
    printf '| %s | not asked for (KIT_SECTIONS) | |\n' "$name" >>"$RESULTS/sections.md"
    return 0
  fi
  local t
  t=$(($(left) - 30))
  [ "$t" -gt "$cap" ] && t=$cap
  if [ "$t" -lt 10 ]; then
    say "$name: skipped (no time left)"
    printf '| %s | skipped: no time left | |\n' "$name" >>"$RESULTS/sections.md"
    return 0
  fi
  say "$name (at most $t s)"
  local start=$SECONDS rc=0
  timeout -k 10 "$t" "$@" >"$RESULTS/$name.log" 2>&1 || rc=$?
  local note="rc $rc"
  [ "$rc" = 124 ] || [ "$rc" = 137 ] && note="cut at $t s"
  printf '| %s | %s | %d s |\n' "$name" "$note" $((SECONDS - start)) >>"$RESULTS/sections.md"
  tail -n 3 "$RESULTS/$name.log" | sed 's/^/  /' >&2
}

put_in_place() {
  [ -f "$KIT/kit.env" ] || die "no $KIT/kit.env: pack the kit here first (bash ci/device-kit.sh pack) and carry $KIT"
  # shellcheck disable=SC1091
  . "$KIT/kit.env"
  if [ ! -d "$KIT/build" ]; then
    local unxz=(xz -dc)
    command -v xz >/dev/null || unxz=(python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)')
    "${unxz[@]}" "$KIT/kit.tar.xz" | tar -C "$KIT" -xf - || die "cannot unpack $KIT/kit.tar.xz (needs xz or python3)"
  fi
  # The test lists name the source and build folders of the packing machine: make them resolve here.
  if [ "$(cd "$KIT_SOURCE_DIR" 2>/dev/null && pwd -P)" != "$(pwd -P)" ]; then
    [ -e "$KIT_SOURCE_DIR" ] && die "$KIT_SOURCE_DIR exists and is not this checkout"
    mkdir -p "$(dirname "$KIT_SOURCE_DIR")"
    ln -s "$ROOT" "$KIT_SOURCE_DIR"
  fi
  local rel=${KIT_BUILD_DIR#"$KIT_SOURCE_DIR"/}
  mkdir -p "$(dirname "$rel")"
  [ -e "$rel" ] && [ ! -L "$rel" ] && die "$rel exists: remove it or pack with another build folder"
  ln -sfn "$ROOT/$KIT/build" "$rel"
  if [ ! -e "$KIT_KOKKOS" ]; then
    mkdir -p "$(dirname "$KIT_KOKKOS")"
    ln -s "$ROOT/$KIT/kokkos" "$KIT_KOKKOS"
  fi
  # Only the libraries this machine lacks are put on the path: its own newer libstdc++ stays.
  mkdir -p "$KIT/missing"
  local lib name
  for lib in "$KIT"/lib/*; do
    name=${lib##*/}
    ldconfig -p | grep -q " $name " || ln -sf "$ROOT/$lib" "$KIT/missing/$name"
  done
  export LD_LIBRARY_PATH=$ROOT/$KIT/missing${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  BUILD=$rel
}

cmd_run() {
  local budget=${1:-480}
  RESULTS=${2:-${OUT:-$ROOT/kit-results}}
  DEADLINE=$((SECONDS + budget))
  mkdir -p "$RESULTS"
  RESULTS=$(cd "$RESULTS" && pwd)
  local work=$RESULTS/kit-results
  rm -rf "$work"
  mkdir -p "$work"
  put_in_place
  local out=$RESULTS
  RESULTS=$work
  export OMP_PROC_BIND=spread OMP_PLACES=threads
  local immerse=$ROOT/$BUILD/app/immerse jobs
  jobs=$(nproc)
  printf '| section | result | time |\n|---|---|---|\n' >"$RESULTS/sections.md"
  {
    echo "kit: $KIT_COMMIT packed $KIT_PACKED; libraries from the kit: $(ls "$KIT/missing" | tr '\n' ' ')"
    nvidia-smi || true
    nvidia-smi -q -d CLOCK,PERFORMANCE || true  # clocks and throttle reasons, for the bandwidth rows
    uname -a
  } >"$RESULTS/machine.txt" 2>&1
  # run.json: what reports/gpu/<run>/ keeps for the report's "CUDA on a GPU" section.
  local gpu
  gpu=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -n 1 || true)
  [ -n "$gpu" ] || gpu="none, 0 MiB, none"
  printf '{"gpu": "%s", "driver": "%s", "commit": "%s", "date": "%s", "host": "%s cores"}\n' \
    "$(echo "$gpu" | cut -d, -f1-2 | sed 's/, */ (/; s/$/)/')" "$(echo "$gpu" | cut -d, -f3 | tr -d ' ')" \
    "$KIT_COMMIT" "$(date -u +%F)" "$jobs" >"$RESULTS/run.json"
  section info 30 "$immerse" info
  # The tests that run on the GPU first (typed tests instantiated for Kokkos::Cuda), the rest after
  # the comparison and the benchmarks. Two OpenMP threads per test, half as many tests as cores.
  local ctest="cd '$BUILD' && OMP_NUM_THREADS=2 ctest -j $(((jobs + 1) / 2)) --timeout 300 --output-on-failure"
  section ctest_cuda 150 bash -c "$ctest -R '[Cc]uda' --output-junit '$RESULTS/ctest_cuda.xml'"
  section compare 120 "$immerse" compare --quick --dir "$RESULTS/report"
  local b
  mkdir -p "$RESULTS/report"  # the benchmarks' JSON goes there, also when compare did not run
  for b in "$BUILD"/benchmarks/bench_*; do
    section "${b##*/}" "${KIT_BENCH_SECONDS:-45}" "$b" --benchmark_filter="${KIT_BENCH_FILTER:-/cuda/}" --benchmark_min_time=0.05 \
      --benchmark_out="$RESULTS/report/${b##*/}.json" --benchmark_out_format=json
  done
  # Where Nsight Compute is installed: the lattice and STREAM kernels' memory throughput, occupancy
  # and launch shape, the figures that say why a kernel is below the device's bandwidth.
  # One ncu run per kernel kind (filter, kernel regex, launches to skip, launches to profile).
  local ncu="command -v ncu >/dev/null || { echo 'no ncu (Nsight Compute) here'; exit 0; }" spec
  # The clocks are left as the benchmarks find them (--clock-control none); WarpStateStats says what
  # the warps wait for.
  for spec in 'collide_stream/cuda/fp32/256/real;AaStep;2;2' 'collide_stream/cuda/fp32/256/pull;CollideStream;2;1' \
    'collide_stream/cuda/fp16s/256/real;AaStep;2;2' 'stream_copy/cuda/real;Copy<;1;1' \
    'stream_inplace/cuda/real;InPlace<;1;1'; do
    IFS=';' read -r -a f <<<"$spec"
    ncu+="; ncu --clock-control none --kernel-name-base demangled --kernel-name 'regex:${f[1]}'"
    ncu+=" --launch-skip ${f[2]} --launch-count ${f[3]} --section SpeedOfLight --section MemoryWorkloadAnalysis"
    ncu+=" --section LaunchStats --section Occupancy --section WarpStateStats"
    ncu+=" '$ROOT/$BUILD/benchmarks/bench_lbm3d' --benchmark_filter='${f[0]}' --benchmark_min_time=0"
  done
  section profile 120 bash -c "$ncu"
  # The mpi.* tests need an MPI launcher (mpirun), which the device machine does not have.
  section ctest_rest 300 bash -c "$ctest -E '[Cc]uda|^install[.]|^mpi[.]' --output-junit '$RESULTS/ctest_rest.xml'"
  section report 300 "$immerse" report --backend cuda --dir "$RESULTS/report" --no-bench --no-compare
  section report_index 30 "$immerse" report --dir "$RESULTS/report" --reuse
  {
    echo "# GPU kit results ($KIT_COMMIT)"
    echo
    cat "$RESULTS/sections.md"
    echo
    local part
    for part in ctest_cuda ctest_rest; do
      echo "## $part"
      grep -E 'tests passed|tests failed|^\s+[0-9]+ - ' "$RESULTS/$part.log" 2>/dev/null || echo 'no ctest summary (cut short: see the log)'
      echo
    done
    echo
    echo '## Backends (quick)'
    cat "$RESULTS/report/backends.md" 2>/dev/null || echo 'no backends.md'
  } >"$out/summary.md"
  # VTK frames and checkpoints stay behind: a file that comes back holds at most 16 MiB.
  local skip=(--exclude="*.vt?" --exclude="*.pvd" --exclude="checkpoint*")
  tar -C "$out" "${skip[@]}" -czf "$out/kit-results.tar.gz" kit-results
  if [ "$(du -m "$out/kit-results.tar.gz" | cut -f1)" -ge 15 ]; then
    say "results over 15 MiB: packed again without the final-field CSVs"
    tar -C "$out" "${skip[@]}" --exclude="*fields*.csv" -czf "$out/kit-results.tar.gz" kit-results
  fi
  rm -rf "$work"
  say "results: $out/summary.md, $out/kit-results.tar.gz"
}

case ${1:-} in
  pack) shift; cmd_pack "$@" ;;
  run) shift; cmd_run "$@" ;;
  *) sed -n '2,19p' "$0" | cut -c3- ; exit 2 ;;
esac
