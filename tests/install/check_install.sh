#!/usr/bin/env bash
# Usage: check_install.sh BUILD_DIR KOKKOS_ROOT
# Installs the (already built) BUILD_DIR into a temporary prefix, configures and builds the consumer
# project next to this script against it (find_package(immerse), immerse::mac2d), runs it and checks
# it prints OK. Exits non-zero on any failure; the temporary directory is removed on exit.
# $CMAKE picks the cmake program (default: cmake on PATH).
set -euo pipefail
cmake() { command "${CMAKE:-cmake}" "$@"; }

if [[ $# -ne 2 ]]; then
  echo "usage: $0 BUILD_DIR KOKKOS_ROOT" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
kokkos_root=$(cd "$2" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache="$build_dir/CMakeCache.txt"
[[ -f "$cache" ]] || { echo "check_install: $cache not found (configure and build first)" >&2; exit 2; }

cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$cache" | head -n 1; }
cxx=$(cache_value CMAKE_CXX_COMPILER)          # the same compiler (nvcc_wrapper for CUDA builds)
build_type=$(cache_value CMAKE_BUILD_TYPE)
generator=$(cache_value CMAKE_GENERATOR)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/immerse-install-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

echo "== install $build_dir -> $prefix"
cmake --install "$build_dir" --prefix "$prefix" > "$tmp/install.log" || { cat "$tmp/install.log"; exit 1; }
for f in lib/cmake/immerse/immerseConfig.cmake lib/cmake/immerse/immerseConfigVersion.cmake \
         lib/cmake/immerse/immerseTargets.cmake include/immerse/mac2d/penalty_flow.hpp; do
  [[ -f "$prefix/$f" ]] || { echo "check_install: $prefix/$f was not installed" >&2; exit 1; }
done

echo "== configure consumer"
cmake -S "$here" -B "$tmp/build" ${generator:+-G "$generator"} \
  ${cxx:+"-DCMAKE_CXX_COMPILER=$cxx"} "-DCMAKE_BUILD_TYPE=${build_type:-Release}" \
  "-DCMAKE_PREFIX_PATH=$prefix;$kokkos_root" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF
found=$(sed -n 's/^immerse_DIR:PATH=//p' "$tmp/build/CMakeCache.txt")
if [[ "$found" != "$prefix/lib/cmake/immerse" ]]; then
  echo "check_install: the consumer found immerse at '$found', not in the temporary prefix" >&2
  exit 1
fi

echo "== build consumer"
cmake --build "$tmp/build"

echo "== run consumer"
out=$(OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads} "$tmp/build/immerse_consumer")
echo "$out"
[[ "$(tail -n 1 <<< "$out")" == "OK" ]] || { echo "check_install: consumer did not print OK" >&2; exit 1; }
echo "check_install: PASSED"
