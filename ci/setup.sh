#!/usr/bin/env bash
# Installs everything immerse needs on a Debian bookworm machine, idempotently:
#   1. Debian packages (compiler, cmake, Eigen, fmt, nlohmann-json, CLI11, muparser, GoogleTest,
#      Google Benchmark, gnuplot, Bullet, clang-format 14 for the style check, Open MPI, ccache:
#      CMake compiles through it, so a rebuild of unchanged sources in a fresh clone is quick).
#   2. Kokkos 3.4.01 built from Debian's trilinos source package (Serial+OpenMP), installed into a
#      cache outside the clone (default ~/.cache/immerse; override with IMMERSE_CACHE).
#   3. With IMMERSE_CUDA=1 and nvcc on the machine: a Serial+OpenMP+CUDA (sm_90) Kokkos as well,
#      with the minimal source changes listed in shared/KOKKOS.md (ci/kokkos-cuda13.sh applies them).
# Prints the Kokkos prefixes as `KOKKOS_OPENMP=...` / `KOKKOS_CUDA=...` lines at the end.
set -euo pipefail

KOKKOS_VERSION=3.4.01
CACHE=${IMMERSE_CACHE:-$HOME/.cache/immerse}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
JOBS=${IMMERSE_JOBS:-$(nproc)}

step() { printf '\n== setup: %s\n' "$*" >&2; }
die()  { printf 'setup.sh: error: %s\n' "$*" >&2; exit 1; }
SUDO=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || die "not root and no sudo: run as root or install sudo"
  SUDO=sudo
fi

# ---------------------------------------------------------------- 1. Debian packages
PACKAGES=(build-essential cmake ninja-build pkg-config git ca-certificates dpkg-dev
          libeigen3-dev libfmt-dev nlohmann-json3-dev libcli11-dev libmuparser-dev
          libgtest-dev libgmock-dev googletest libbenchmark-dev gnuplot-nox libbullet-dev clang-format-14
          clang-14 libclang-rt-14-dev libopenmpi-dev openmpi-bin ccache)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  step "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq || die "apt-get update failed (network or sources problem)"
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    || die "apt-get install failed for: ${missing[*]}"
else
  step "Debian packages present"
fi

# ---------------------------------------------------------------- 2. Kokkos source
SRC_DIR=$CACHE/src/kokkos-$KOKKOS_VERSION
fetch_kokkos_source() {
  [ -f "$SRC_DIR/CMakeLists.txt" ] && return 0
  step "fetching Kokkos $KOKKOS_VERSION from Debian's trilinos source package"
  # apt-get source needs a deb-src entry: derive it from the machine's own Debian entry (same URI
  # and suite), so no host name is written into the project.
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    local uri suite
    uri=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    suite=$(awk '/^Suites:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    if [ -z "$uri" ]; then
      uri=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
      suite=$(awk '/^deb /{print $3; exit}' /etc/apt/sources.list 2>/dev/null || true)
    fi
    [ -n "$uri" ] && [ -n "$suite" ] || die "cannot find the machine's Debian source entry to derive deb-src from"
    printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$uri" "$suite" | $SUDO tee /etc/apt/sources.list.d/immerse-deb-src.sources >/dev/null
    $SUDO apt-get update -qq || die "apt-get update (with deb-src) failed"
  fi
  local dl=$CACHE/download
  mkdir -p "$dl"
  if ! ls "$dl"/trilinos_*.orig.tar.* >/dev/null 2>&1; then
    (cd "$dl" && apt-get source --download-only trilinos >/dev/null 2>&1) \
      || die "apt-get source --download-only trilinos failed"
  fi
  local tarball; tarball=$(ls "$dl"/trilinos_*.orig.tar.* | head -n1)
  local tmp; tmp=$(mktemp -d "$CACHE/extract.XXXX")
  tar -xf "$tarball" -C "$tmp" --wildcards '*/packages/kokkos/*' || die "extracting packages/kokkos from $tarball failed"
  local kdir; kdir=$(find "$tmp" -maxdepth 3 -type d -path '*/packages/kokkos' | head -n1)
  [ -f "$kdir/CMakeLists.txt" ] || die "no packages/kokkos/CMakeLists.txt in $tarball"
  grep -q "Kokkos_VERSION_MAJOR 3" "$kdir/CMakeLists.txt" || true
  mkdir -p "$(dirname "$SRC_DIR")"
  rm -rf "$SRC_DIR"; mv "$kdir" "$SRC_DIR"; rm -rf "$tmp"
}

# build_kokkos VARIANT PREFIX SRC CMAKE_ARGS...
build_kokkos() {
  local variant=$1 prefix=$2 src=$3; shift 3
  if [ -f "$prefix/lib/cmake/Kokkos/KokkosConfig.cmake" ] || [ -f "$prefix/lib64/cmake/Kokkos/KokkosConfig.cmake" ]; then
    step "Kokkos $variant present in $prefix"; return 0
  fi
  step "building Kokkos $KOKKOS_VERSION ($variant) into $prefix"
  local build=$CACHE/build/kokkos-$variant
  rm -rf "$build" "$prefix"; mkdir -p "$(dirname "$build")"
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
        -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF -DBUILD_SHARED_LIBS=OFF \
        -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON \
        -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF "$@" >"$build.configure.log" 2>&1 \
    || { tail -n 30 "$build.configure.log" >&2; die "Kokkos ($variant) configure failed; log: $build.configure.log"; }
  cmake --build "$build" -j "$JOBS" >"$build.build.log" 2>&1 \
    || { tail -n 30 "$build.build.log" >&2; die "Kokkos ($variant) build failed; log: $build.build.log"; }
  cmake --install "$build" >/dev/null || die "Kokkos ($variant) install failed"
  rm -rf "$build"
}

fetch_kokkos_source
OPENMP_PREFIX=$CACHE/kokkos-$KOKKOS_VERSION-openmp
build_kokkos openmp "$OPENMP_PREFIX" "$SRC_DIR"
echo "KOKKOS_OPENMP=$OPENMP_PREFIX"

# ---------------------------------------------------------------- 3. optional CUDA Kokkos
NVCC=$(command -v nvcc || true)
[ -z "$NVCC" ] && [ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc
if [ "${IMMERSE_CUDA:-0}" = 1 ]; then
  [ -n "$NVCC" ] || die "IMMERSE_CUDA=1 but no nvcc on PATH or in /usr/local/cuda/bin"
  CUDA_SRC=$CACHE/src/kokkos-$KOKKOS_VERSION-cuda13-sm90
  CUDA_PREFIX=$CACHE/kokkos-$KOKKOS_VERSION-cuda-sm90
  # The source is patched again, and Kokkos rebuilt, whenever the patch script changes.
  patches=$(sha256sum "$HERE/kokkos-cuda13.sh" | cut -c1-16)
  if [ "$(cat "$CUDA_SRC/.patched" 2>/dev/null)" != "$patches" ]; then
    step "preparing the CUDA 13 / sm_90 Kokkos source (patches $patches)"
    rm -rf "$CUDA_SRC" "$CUDA_PREFIX"; cp -a "$SRC_DIR" "$CUDA_SRC"
    bash "$HERE/kokkos-cuda13.sh" "$CUDA_SRC" || die "patching Kokkos for CUDA 13 / sm_90 failed"
    echo "$patches" >"$CUDA_SRC/.patched"
  fi
  export PATH="$(dirname "$NVCC"):$PATH"
  build_kokkos cuda "$CUDA_PREFIX" "$CUDA_SRC" -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON \
      -DKokkos_ARCH_AMPERE80=ON -DCMAKE_CXX_COMPILER="$CUDA_SRC/bin/nvcc_wrapper"
  echo "KOKKOS_CUDA=$CUDA_PREFIX"
fi
step "done"
