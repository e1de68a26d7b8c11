// world() without MPI: always the single process (the MPI build compiles comm_mpi.cpp instead).
#include "immerse/core/comm.hpp"

namespace immerse {

Comm& single_process();

Comm& world() { return single_process(); }
void init_world(int&, char**&) {}
void finalize_world() {}
bool mpi_built() { return false; }
std::string mpi_library() { return ""; }

}  // namespace immerse
