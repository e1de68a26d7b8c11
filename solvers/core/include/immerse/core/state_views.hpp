#pragma once
// Kokkos Views in a StateArchive: copied through a host mirror, so a device field checkpoints like a
// host one. The View must be contiguous (every View the solvers allocate is).
#include <Kokkos_Core.hpp>

#include "immerse/core/error.hpp"
#include "immerse/core/state_archive.hpp"

namespace immerse {

template <class View>
void archive_view(StateArchive& a, const std::string& name, const View& v) {
  if (!v.span_is_contiguous()) throw Error("archive_view '" + name + "': not a contiguous View", kExitInternal);
  auto host = Kokkos::create_mirror_view(v);
  if (!a.loading()) Kokkos::deep_copy(host, v);
  a.bytes(name, host.data(), host.span() * sizeof(typename View::value_type));
  if (a.loading()) Kokkos::deep_copy(v, host);
}

}  // namespace immerse
