#pragma once
// A zeroed View for a large array (a lattice's populations, its macroscopic fields). In host
// memory it is advised as huge pages before it is zeroed (huge_pages.hpp): zeroing a 1 GB lattice
// took 3.4 s on this project's CI machine in 4 KiB pages, most of bench_lbm3d's run time. Device
// memory is allocated and zeroed as Kokkos does.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

#include "immerse/core/huge_pages.hpp"

namespace immerse {

// A View of type V (any rank and layout) with these extents, zeroed; e.g.
// large_view<Kokkos::View<float*, Device>>("f0", n).
template <class V, class... Extents>
V large_view(const std::string& label, const Extents... extents) {
  V v(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), extents...);
  using value = typename V::non_const_value_type;
  if constexpr (std::is_same_v<typename V::memory_space, Kokkos::HostSpace>)
    advise_huge_pages(v.data(), v.span() * sizeof(value));
  const typename V::execution_space exec;
  Kokkos::deep_copy(exec, v, value{});
  exec.fence();
  return v;
}

}  // namespace immerse
