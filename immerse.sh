#!/usr/bin/env bash
# immerse: one entry point.
#   ./immerse.sh test      set up (if needed), check the formatting (.clang-format), configure,
#                          build, run ctest on every enabled backend, the core's tests and the
#                          input replays under ASan + UBSan and 20 s of libFuzzer on each fuzz
#                          target (preset fuzz: clang); where nvcc is present also
#                          build the CUDA preset and test it on a GPU (without one, compile
#                          the cuda-check preset); ends with
#                          `immerse compare --quick` (every case on every backend, the backend
#                          table written to reports/latest/backends.md)
#   ./immerse.sh format    reformat every C++ file of the project in place
#   ./immerse.sh fuzz [case_file|obj_mesh] [SECONDS]
#                          build the libFuzzer targets (preset fuzz, clang) and fuzz one for SECONDS
#                          (default 60) from the canned cases and the regression corpus; crashing
#                          inputs land in build/fuzz/findings/ (docs/fuzzing.md)
#   ./immerse.sh report [OPTIONS]
#                          set up (if needed), build, run every canned case, the benchmarks and the
#                          quick backend comparison, write reports/latest/index.md; OPTIONS go to
#                          `immerse report` (e.g. --baseline DIR: benchmarks against an earlier report)
#   ./immerse.sh build PRESET [TARGET...]
#                          configure (if needed) and build a preset (CMakePresets.json) into
#                          build/PRESET: everything, or the TARGETs
#   ./immerse.sh ARGS...   build, then run `immerse ARGS...` (e.g. ./immerse.sh run channel5x5)
# Environment: IMMERSE_CACHE (default ~/.cache/immerse) holds Kokkos builds outside the clone;
# IMMERSE_JOBS (default nproc) sets build parallelism; IMMERSE_RRZE_DIR (unset: skipped), a
# checkout of RRZE's lbm-benchmark-kernels for `report` to time beside the D3Q15 kernel.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"
export IMMERSE_CACHE=${IMMERSE_CACHE:-$HOME/.cache/immerse}
JOBS=${IMMERSE_JOBS:-$(nproc)}
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}

log() { printf '== immerse.sh: %s\n' "$*" >&2; }

have_nvcc() { command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; }
have_gpu() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }

setup() {
  local cuda=0
  if [ "${1:-}" = cuda ] && have_nvcc; then cuda=1; fi
  IMMERSE_CUDA=$cuda bash ci/setup.sh >&2
}

# build PRESET [TARGET...]: configure and build into build/PRESET (everything, or the TARGETs).
build() {
  local preset=$1 kokkos
  shift
  local targets=("${@:-all}")
  case $preset in
    cuda*) kokkos=$IMMERSE_CACHE/kokkos-3.4.01-cuda-sm90 ;;
    *) kokkos=$IMMERSE_CACHE/kokkos-3.4.01-openmp ;;
  esac
  # Configured once, and again when the presets changed since (a cached option would outlive them).
  if { [ ! -f "build/$preset/build.ninja" ] && [ ! -f "build/$preset/Makefile" ]; } ||
    [ CMakePresets.json -nt "build/$preset/CMakeCache.txt" ]; then
    log "configuring preset $preset"
    cmake --preset "$preset" -G Ninja -DKokkos_ROOT="$kokkos" \
      $(case $preset in cuda*) echo "-DCMAKE_CXX_COMPILER=$kokkos/bin/nvcc_wrapper" ;; esac) >&2
  fi
  log "building preset $preset (${targets[*]})"
  cmake --build "build/$preset" -j "$JOBS" --target "${targets[@]}" >&2
}

# ctest in build/$1 with the remaining arguments. Tests run $JOBS at a time, each with as many
# OpenMP threads as there are cores, so threads of different tests share cores: a thread that
# waits at a barrier spins 20,000 rounds before it sleeps instead of libgomp's 300,000, which
# otherwise takes the core from the thread it waits for.
run_ctest() {
  local dir=$1
  shift
  (cd "build/$dir" && GOMP_SPINCOUNT=${GOMP_SPINCOUNT:-20000} ctest --output-on-failure -j "$JOBS" --timeout 900 "$@")
}

# The project's C++ files: tracked ones in a git checkout, else every .cpp/.hpp outside build/.
cxx_files() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -co --exclude-standard '*.cpp' '*.hpp'
  else
    find . -path ./build -prune -o \( -name '*.cpp' -o -name '*.hpp' \) -print
  fi
}

check_format() {
  log "checking the formatting (clang-format-14, .clang-format)"
  if ! cxx_files | xargs clang-format-14 --dry-run --Werror 2>/tmp/immerse-format.$$; then
    grep -E '^[^ ].*: (error|warning):' /tmp/immerse-format.$$ | cut -d: -f1 | sort -u | sed 's/^/  not formatted: /' >&2
    rm -f /tmp/immerse-format.$$
    log "formatting differs from .clang-format: run ./immerse.sh format, then commit"
    return 1
  fi
  rm -f /tmp/immerse-format.$$
}

cmd_test() {
  setup cuda
  check_format
  build openmp
  # Without a GPU the CUDA build is a compile check: the libraries (every kernel instantiated for
  # Cuda alone: the openmp preset compiles the host backends) and the program, by the cuda-check
  # preset (a unity build, the host code at -O0). Tests and benchmarks are built only where they
  # can run. It builds in the background at the lowest priority, on the cores the tests below
  # leave idle, and is waited for at the end.
  local compare_build=openmp check_pid=""
  if have_nvcc && ! have_gpu; then
    start_background_build cuda-check immerse
    check_pid=$BACKGROUND_PID
  fi
  log "ctest (serial and openmp backends)"
  run_ctest openmp
  # One sanitizer build (preset fuzz: clang, ASan + UBSan, libFuzzer) for the code that reads
  # untrusted input and is not behind a solver: the core (case-file schema, formulas, checkpoint
  # files), the case files' keys and the OBJ mesh reader. Its tests and input replays run, then a
  # short, fixed fuzzing run of each target. Building every family under ASan would take longer
  # than the CI budget allows (docs/fuzzing.md).
  log "ASan + UBSan: the core's tests, the case-file and mesh reader replays (preset fuzz)"
  build fuzz test_core fuzz_case_file fuzz_obj_mesh
  run_ctest fuzz -R '^(Schema|Expression|StateArchive|CheckpointFile|Choices)|^fuzz[.]'
  cmd_fuzz case_file 20
  cmd_fuzz obj_mesh 20
  if have_nvcc && have_gpu; then
    PATH=/usr/local/cuda/bin:$PATH build cuda
    log "GPU present: ctest on the cuda build (serial, openmp and cuda backends)"
    run_ctest cuda
    compare_build=cuda
  fi
  log "backends compared (quick mode): build/$compare_build/app/immerse compare --quick"
  "build/$compare_build/app/immerse" compare --quick --dir reports/latest
  if [ -n "$check_pid" ]; then
    wait_background_build "$check_pid" cuda-check
    log "cuda-check preset built (compile only: no GPU on this machine)"
  fi
}

# start_background_build PRESET [TARGET...]: `./immerse.sh build` at nice 19 in a process group of
# its own, its output in build/PRESET.log, its pid in BACKGROUND_PID. At the lowest priority it
# takes only the cores the foreground leaves idle. Stopped if this script exits first. It stays in
# this session (set -m, not setsid): Linux shares the processor between sessions (autogroups)
# before nice values count, and a session of its own got half the cores whatever its nice.
start_background_build() {
  local preset=$1
  mkdir -p build
  log "building preset $preset in the background at nice 19 (log: build/$preset.log)"
  set -m
  PATH=/usr/local/cuda/bin:$PATH nice -n 19 "$ROOT/immerse.sh" build "$@" >"build/$preset.log" 2>&1 &
  BACKGROUND_PID=$!
  set +m
  trap "kill -- -$BACKGROUND_PID 2>/dev/null || true" EXIT
}

# wait_background_build PID PRESET: wait for it; on failure show the end of its log.
wait_background_build() {
  local pid=$1 preset=$2
  log "waiting for the background build of preset $preset"
  if ! wait "$pid"; then
    tail -n 40 "build/$preset.log" >&2
    log "building preset $preset failed (whole log: build/$preset.log)"
    return 1
  fi
  trap - EXIT
}

cmd_report() {
  setup
  build openmp
  rm -f reports/latest/rrze.txt  # an earlier report's
  if [ -n "${IMMERSE_RRZE_DIR:-}" ]; then
    log "timing RRZE's kernels in $IMMERSE_RRZE_DIR beside ours (benchmarks/compare_rrze.sh, about 5 min)"
    mkdir -p reports/latest
    benchmarks/compare_rrze.sh "$IMMERSE_RRZE_DIR" >reports/latest/rrze.txt.part &&
      mv reports/latest/rrze.txt.part reports/latest/rrze.txt ||
      { rm -f reports/latest/rrze.txt.part; log "compare_rrze.sh failed (above): the report leaves RRZE out"; }
  fi
  build/openmp/app/immerse report --dir reports/latest --bench-dir build/openmp/benchmarks "$@"
}

cmd_fuzz() {
  local target=${1:-case_file} seconds=${2:-60}
  case $target in
    case_file | obj_mesh) ;;
    *) log "unknown fuzz target '$target' (case_file or obj_mesh)"; return 2 ;;
  esac
  setup
  build fuzz "fuzz_$target"
  local corpus=build/fuzz/corpus/$target findings=build/fuzz/findings/$target seeds=build/fuzz/seeds/$target
  local dict=fuzz/obj_mesh.dict
  mkdir -p "$corpus" "$findings" "$seeds"
  if [ "$target" = case_file ]; then
    # Seeds: the canned cases. Dictionary: JSON tokens and every key name of docs/case-keys.md.
    cp cases/*/*.json "$seeds/"
    dict=build/fuzz/case_file.dict
    { printf '"%s"\n' '{' '}' '[' ']' ':' ',' 'true' 'false' 'null' '1e308' '-1' '0.5'
      grep -o '^| `[^`]*`' docs/case-keys.md | sed 's/^| `//; s/`$//' | tr '.' '\n' | grep -v '^N$' | sort -u |
        sed 's/.*/"\\"&\\""/'; } >"$dict"
  else
    cp fuzz/seeds/obj_mesh/* "$seeds/"
  fi
  log "fuzzing $target for $seconds s (new inputs: $corpus, findings: $findings)"
  # -fork=1 with -ignore_*: a finding is written and the fuzzing goes on for the whole time. Fork
  # mode names every newly covered function (-print_funcs does not reach it): those lines dropped.
  "build/fuzz/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -dict="$dict" -artifact_prefix="$findings/" "$corpus" "$seeds" "fuzz/regressions/$target" 2>&1 |
    sed '/^  NEW_FUNC/d' >&2
  local n; n=$(find "$findings" -type f | wc -l)
  log "fuzzing done: $n finding(s) in $findings"
  [ "$n" -eq 0 ]
}

cmd_format() {
  command -v clang-format-14 >/dev/null || setup
  cxx_files | xargs clang-format-14 -i
  log "formatted $(cxx_files | wc -l) files"
}

case "${1:-}" in
  test) shift; cmd_test "$@" ;;
  report) shift; cmd_report "$@" ;;
  format) shift; cmd_format ;;
  fuzz) shift; cmd_fuzz "$@" ;;
  build) shift; [ $# -ge 1 ] || { log "usage: ./immerse.sh build PRESET [TARGET...]"; exit 2; }; build "$@" ;;
  ""|-h|--help) sed -n '2,/^set -euo/{/^#/p}' "$0" | cut -c3- ;;
  *) setup >/dev/null; build openmp; exec build/openmp/app/immerse "$@" ;;
esac
