// Fuzz target for Wavefront OBJ meshes (floating bodies, Langevin `shape: mesh`): the input is the
// file's text. It is read, checked closed and oriented, and its mass properties computed, as a case
// does before using a mesh. Bad input must end in InputError; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_input.hpp"
#include "immerse/bodies/trimesh.hpp"
#include "immerse/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string path =
      immerse::fuzz::write_input("mesh.obj", std::string(reinterpret_cast<const char*>(data), size));
  try {
    const immerse::bodies::TriMesh mesh = immerse::bodies::read_obj(path);
    immerse::bodies::check_closed(mesh, path);
    immerse::bodies::mass_properties(mesh);
  } catch (const immerse::InputError&) {
    // rejected with a message
  }
  return 0;
}
