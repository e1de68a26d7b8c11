#!/usr/bin/env bash
# Applies the minimal source changes that let Kokkos 3.4.01 (as shipped in Debian's trilinos 13.2.0
# source package) build with CUDA 13 (nvcc 13.0) for Hopper, sm_90 (H100/H200). The facts behind
# each change are in shared/KOKKOS.md. Called by ci/setup.sh on a fresh copy of the pristine source:
#
#   bash ci/kokkos-cuda13.sh <kokkos-source-dir>
#
# IMPORTANT: in a build made from the patched source, "AMPERE80" means sm_90. Kokkos 3.4 knows no
# Hopper arch option, so -DKokkos_ARCH_AMPERE80=ON is re-targeted to -arch=sm_90 (SASS for sm_90 plus
# PTX for compute_90). The macros KOKKOS_ARCH_AMPERE80 / KOKKOS_ARCH_AMPERE are still defined in
# KokkosCore_config.h (no Kokkos 3.4 source tests them). The binaries do NOT run on real Ampere
# (compute capability 8.x) GPUs. Only the CMake route is changed; Makefile.kokkos still says sm_80.
#
# Edits (each a small unified diff, applied with `patch --fuzz=0`):
#   1. core/src/Cuda/Kokkos_Cuda_Half.hpp: in the CUDA >= 11.1 branch, pass half_t::impl_type(val)
#      (half_t converts to __half only explicitly) to the __half2* intrinsics, and replace the
#      non-existent __half2double with a cast of __half2float (nvcc 13 rejects both).
#   2. core/src/Cuda/Kokkos_CudaSpace.cpp: CUDA 13 changed cudaMemPrefetchAsync to take a
#      cudaMemLocation and a flags argument; use it under CUDART_VERSION >= 13000, keep the old call
#      otherwise so the source still compiles with older CUDA.
#   3. cmake/kokkos_arch.cmake: CHECK_CUDA_ARCH(AMPERE80 sm_80) -> sm_90, which is what goes into the
#      -arch= compile and link flags Kokkos exports to its users.
#   4. bin/nvcc_wrapper: default_arch sm_35 (rejected by nvcc 13, breaking CMake's compiler check)
#      -> sm_90.
#   5. core/src/Cuda/Kokkos_Cuda_BlockSize_Deduction.hpp: the shared-memory-per-SM (prefer L1)
#      table throws "Unknown device in cuda block size deduction" for compute capability 9.0;
#      add case 90 (8 KB, the smallest non-zero H100 carveout, as for 8.0). The other H100 limits
#      (64K registers/SM, 2048 threads/SM, 228 KB shared/SM, 227 KB/block, 32 blocks/SM) are read
#      from cudaDeviceProp at run time in Kokkos 3.4 (the CUDA < 11 fallback table is never compiled
#      with a CUDA that knows sm_90); Kokkos_Cuda_Instance.cpp's m_maxBlocksPerSM gives 32 for 900.
#   6. core/src/Cuda/Kokkos_Cuda_BlockSize_Deduction.hpp: among the block sizes that give a kernel
#      its highest occupancy, Kokkos 3.4 takes the smallest (32 or 64 threads for most of ours). On an
#      H200 a range of such blocks is bound by the rate at which blocks start: the STREAM copy
#      kernel ran 1M blocks of 64 threads at 27% achieved occupancy (100% theoretical) and 42% of
#      cudaMemcpy's bandwidth, the D3Q15 AA kernel 512K blocks of 32 at 32%. Ties now go to the
#      block size nearest 256 threads (the larger of two as near): 256 for the copy, 224 for the
#      AA kernel (72 registers), 160 at 80 registers.
#   Checked, not changed: Kokkos_Cuda_Instance.cpp aborts when the compiled compute capability major
#   differs from the device's. The compiled value is __CUDA_ARCH__ read back from a kernel at
#   start-up (not the KOKKOS_ARCH_* macro), so with -arch=sm_90 it is 900 -> major 9 = H100/H200.
#   The script verifies that this is still how the check works and fails otherwise.
#
# Idempotent: a change whose result is already in place is reported as "already applied" and
# skipped. Fails (non-zero exit, message on stderr) if a file or the expected code is missing.
set -euo pipefail

die()  { printf 'kokkos-cuda13.sh: error: %s\n' "$*" >&2; exit 1; }
info() { printf 'kokkos-cuda13.sh: %s\n' "$*"; }

[ $# -eq 1 ] || die "usage: $0 <kokkos-3.4.01-source-dir>"
SRC=$1
[ -f "$SRC/CMakeLists.txt" ] || die "$SRC is not a Kokkos source tree (no CMakeLists.txt)"
if ! grep -q 'set(Kokkos_VERSION_MAJOR 3)' "$SRC/CMakeLists.txt" \
   || ! grep -q 'set(Kokkos_VERSION_MINOR 4)' "$SRC/CMakeLists.txt"; then
  die "$SRC is not Kokkos 3.4 (these edits are written for 3.4.01)"
fi
command -v patch >/dev/null || die "the 'patch' program is needed (Debian package: patch)"

# apply_edit NAME FILE  (unified diff, paths a/FILE b/FILE, on stdin)
apply_edit() {
  local name=$1 file=$2 diff out
  diff=$(cat)
  [ -f "$SRC/$file" ] || die "$name: $SRC/$file not found"
  # Already applied <=> the diff applies in reverse, exactly.
  if printf '%s\n' "$diff" | patch -d "$SRC" -p1 -R -f --dry-run --fuzz=0 >/dev/null 2>&1; then
    info "already applied: $name"; return 0
  fi
  if ! out=$(printf '%s\n' "$diff" | patch -d "$SRC" -p1 -N -f --dry-run --fuzz=0 2>&1); then
    die "$name: the expected code was not found in $file (not pristine Kokkos 3.4.01, or partly edited?); patch said: $out"
  fi
  printf '%s\n' "$diff" | patch -d "$SRC" -p1 -N -f --fuzz=0 --no-backup-if-mismatch -s \
    || die "$name: applying the change to $file failed"
  info "applied: $name"
}

# ---- 1. half_t <-> __half casts and the non-existent __half2double (CUDA 13)
apply_edit "half_t casts / __half2double (CUDA 13)" core/src/Cuda/Kokkos_Cuda_Half.hpp <<'PATCH_EOF'
--- a/core/src/Cuda/Kokkos_Cuda_Half.hpp
+++ b/core/src/Cuda/Kokkos_Cuda_Half.hpp
@@ -863,6 +863,10 @@

 #else  // CUDA 11.1 versions follow

+// immerse/CUDA 13: half_t only converts explicitly to __half, and there is no
+// __half2double: cast to half_t::impl_type and go through float (as the
+// CUDA < 11.1 branch above does).
+
 KOKKOS_INLINE_FUNCTION
 half_t cast_to_half(float val) { return __float2half(val); }
 KOKKOS_INLINE_FUNCTION
@@ -891,44 +895,44 @@
 template <class T>
 KOKKOS_INLINE_FUNCTION std::enable_if_t<std::is_same<T, float>::value, T>
 cast_from_half(half_t val) {
-  return __half2float(val);
+  return __half2float(half_t::impl_type(val));
 }
 template <class T>
 KOKKOS_INLINE_FUNCTION std::enable_if_t<std::is_same<T, double>::value, T>
 cast_from_half(half_t val) {
-  return __half2double(val);
+  return static_cast<T>(__half2float(half_t::impl_type(val)));
 }
 template <class T>
 KOKKOS_INLINE_FUNCTION std::enable_if_t<std::is_same<T, short>::value, T>
 cast_from_half(half_t val) {
-  return __half2short_rz(val);
+  return __half2short_rz(half_t::impl_type(val));
 }
 template <class T>
 KOKKOS_INLINE_FUNCTION
     std::enable_if_t<std::is_same<T, unsigned short>::value, T>
     cast_from_half(half_t val) {
-  return __half2ushort_rz(val);
+  return __half2ushort_rz(half_t::impl_type(val));
 }
 template <class T>
 KOKKOS_INLINE_FUNCTION std::enable_if_t<std::is_same<T, int>::value, T>
 cast_from_half(half_t val) {
-  return __half2int_rz(val);
+  return __half2int_rz(half_t::impl_type(val));
 }
 template <class T>
 KOKKOS_INLINE_FUNCTION std::enable_if_t<std::is_same<T, unsigned int>::value, T>
 cast_from_half(half_t val) {
-  return __half2uint_rz(val);
+  return __half2uint_rz(half_t::impl_type(val));
 }
 template <class T>
 KOKKOS_INLINE_FUNCTION std::enable_if_t<std::is_same<T, long long>::value, T>
 cast_from_half(half_t val) {
-  return __half2ll_rz(val);
+  return __half2ll_rz(half_t::impl_type(val));
 }
 template <class T>
 KOKKOS_INLINE_FUNCTION
     std::enable_if_t<std::is_same<T, unsigned long long>::value, T>
     cast_from_half(half_t val) {
-  return __half2ull_rz(val);
+  return __half2ull_rz(half_t::impl_type(val));
 }
 template <class T>
 KOKKOS_INLINE_FUNCTION std::enable_if_t<std::is_same<T, long>::value, T>
PATCH_EOF

# ---- 2. cudaMemPrefetchAsync: CUDA 13 signature (cudaMemLocation + flags), older CUDA unchanged
apply_edit "cudaMemPrefetchAsync CUDA 13 signature" core/src/Cuda/Kokkos_CudaSpace.cpp <<'PATCH_EOF'
--- a/core/src/Cuda/Kokkos_CudaSpace.cpp
+++ b/core/src/Cuda/Kokkos_CudaSpace.cpp
@@ -593,8 +593,17 @@
 #endif
   if (to_device && is_managed &&
       space.cuda_device_prop().concurrentManagedAccess) {
+#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000
+    // immerse/CUDA 13: cudaMemPrefetchAsync takes a cudaMemLocation and flags
+    cudaMemLocation location = {};
+    location.type            = cudaMemLocationTypeDevice;
+    location.id              = space.cuda_device();
+    CUDA_SAFE_CALL(
+        cudaMemPrefetchAsync(ptr, bytes, location, 0, space.cuda_stream()));
+#else
     CUDA_SAFE_CALL(cudaMemPrefetchAsync(ptr, bytes, space.cuda_device(),
                                         space.cuda_stream()));
+#endif
   }
 }

PATCH_EOF

# ---- 3. Kokkos_ARCH_AMPERE80 -> -arch=sm_90 (compile and link flags)
apply_edit "AMPERE80 arch option -> sm_90" cmake/kokkos_arch.cmake <<'PATCH_EOF'
--- a/cmake/kokkos_arch.cmake
+++ b/cmake/kokkos_arch.cmake
@@ -415,7 +415,9 @@
 CHECK_CUDA_ARCH(VOLTA70   sm_70)
 CHECK_CUDA_ARCH(VOLTA72   sm_72)
 CHECK_CUDA_ARCH(TURING75  sm_75)
-CHECK_CUDA_ARCH(AMPERE80  sm_80)
+# immerse: Kokkos 3.4 knows no Hopper arch; AMPERE80 is mapped to sm_90 (H100/H200)
+# so that -DKokkos_ARCH_AMPERE80=ON emits -arch=sm_90 (SASS sm_90 + PTX compute_90).
+CHECK_CUDA_ARCH(AMPERE80  sm_90)
 CHECK_CUDA_ARCH(AMPERE86  sm_86)

 SET(AMDGPU_ARCH_ALREADY_SPECIFIED "")
PATCH_EOF

# ---- 4. nvcc_wrapper default arch sm_35 (rejected by nvcc 13) -> sm_90
apply_edit "nvcc_wrapper default arch -> sm_90" bin/nvcc_wrapper <<'PATCH_EOF'
--- a/bin/nvcc_wrapper
+++ b/bin/nvcc_wrapper
@@ -12,7 +12,8 @@
 # or g++ as their back-end compiler.  The defaults can be overwritten
 # by using the usual arguments (e.g., -arch=sm_30 -ccbin icpc).

-default_arch="sm_35"
+# immerse: nvcc 13 rejects sm_35; default to sm_90 (H100/H200), matching AMPERE80 -> sm_90
+default_arch="sm_90"
 #default_arch="sm_50"

 #
PATCH_EOF
chmod +x "$SRC/bin/nvcc_wrapper"

# ---- 5. block-size deduction: compute capability 9.0 in the shared-memory table
apply_edit "block-size deduction: compute capability 9.0" core/src/Cuda/Kokkos_Cuda_BlockSize_Deduction.hpp <<'PATCH_EOF'
--- a/core/src/Cuda/Kokkos_Cuda_BlockSize_Deduction.hpp
+++ b/core/src/Cuda/Kokkos_Cuda_BlockSize_Deduction.hpp
@@ -223,7 +223,12 @@
       case 61: return 96;
       case 70:
       case 80:
-      case 86: return 8;
+      case 86:
+      // immerse: compute capability 9.0 (H100/H200). Carveouts 0..228 KB per
+      // SM (227 KB max per block); like 8.0, the smallest non-zero one is 8 KB.
+      // Registers (64K/SM), threads (2048/SM) and blocks (32/SM) come from
+      // cudaDeviceProp at run time.
+      case 90: return 8;
       case 75: return 32;
       default:
         Kokkos::Impl::throw_runtime_exception(
PATCH_EOF

# ---- 6. block-size deduction: at equal occupancy, the block size nearest 256
apply_edit "block-size deduction: nearest 256 threads at equal occupancy" core/src/Cuda/Kokkos_Cuda_BlockSize_Deduction.hpp <<'PATCH_EOF'
--- a/core/src/Cuda/Kokkos_Cuda_BlockSize_Deduction.hpp
+++ b/core/src/Cuda/Kokkos_Cuda_BlockSize_Deduction.hpp
@@ -134,7 +134,13 @@
     }

     if (blocks_per_sm >= min_blocks_per_sm) {
-      if (threads_per_sm >= opt_threads_per_sm) {
+      // immerse: at equal occupancy, the block size nearest 256 threads
+      // (Kokkos took the smallest: on an H200, ranges of 32- or 64-thread
+      // blocks are bound by the rate at which blocks start).
+      auto const from_256 = [](int b) { return b > 256 ? b - 256 : 256 - b; };
+      if (threads_per_sm > opt_threads_per_sm ||
+          (threads_per_sm == opt_threads_per_sm &&
+           from_256(block_size) < from_256(opt_block_size))) {
         opt_block_size     = block_size;
         opt_threads_per_sm = threads_per_sm;
       }
PATCH_EOF

# ---- Check (no change): the start-up compute-capability check compares the device against the
# arch the kernels were compiled for (__CUDA_ARCH__, read back at run time), so sm_90 code on a
# 9.0 device passes. Fail if the code no longer looks like that.
inst=$SRC/core/src/Cuda/Kokkos_Cuda_Instance.cpp
[ -f "$inst" ] || die "$inst not found"
for pat in '*d_arch = __CUDA_ARCH__;' 'm_cudaArch = cuda_kernel_arch();' \
           'int compiled_major = m_cudaArch / 100;' 'if (compiled_major != cudaProp.major'; do
  grep -qF -- "$pat" "$inst" \
    || die "Kokkos_Cuda_Instance.cpp: expected '$pat' (compiled-arch check); review the sm_90 mapping by hand"
done
info "checked: compiled-arch check uses __CUDA_ARCH__ (900 with sm_90 -> major 9, matches H100/H200)"
info "done: $SRC is ready for -DKokkos_ARCH_AMPERE80=ON (= sm_90) with CUDA 13"
