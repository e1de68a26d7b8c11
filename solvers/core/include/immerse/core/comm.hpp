#pragma once
// The processes of one run: a single process, or the ranks of an MPI launch (`mpirun -np N immerse
// run ...`). Solvers reach MPI only through this interface, so every family builds and runs without
// it; an MPI build (IMMERSE_MPI) uses MPI's world communicator when the program was started by an
// MPI launcher, and a single process otherwise (no MPI_Init for an ordinary run).
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace immerse {

class Comm {
 public:
  virtual ~Comm() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // How many ranks each node holds, where every node holds the same number of consecutive ranks
  // (mpirun's default mapping by slot), else 1. The environment variable IMMERSE_RANKS_PER_NODE
  // overrides it (a layout for other nodes than the launch found: the tests use it on one machine).
  virtual int ranks_per_node() const { return 1; }
  // A run of bytes that one message sends from or receives into.
  struct SendPart {
    const void* data;
    std::size_t bytes;
  };
  struct RecvPart {
    void* data;
    std::size_t bytes;
  };
  // Starts sending each part of `send` to rank `to`, one message per part, and receiving each part
  // of `recv` from rank `from` (either may be this rank; a negative rank skips that half), and
  // returns at once, with a ticket for wait(). No part may be touched until then. The sender's
  // parts and the receiver's pair up in order and have the same sizes. `tag` tells apart the
  // transfers in flight at once between the same two ranks (both ranks pass the same).
  virtual long start_sendrecv(const std::vector<SendPart>& send, int to, const std::vector<RecvPart>& recv, int from,
                              int tag) = 0;
  // The same with one part each way.
  long start_sendrecv(const void* send, std::size_t send_bytes, int to, void* recv, std::size_t recv_bytes, int from,
                      int tag) {
    return start_sendrecv({{send, send_bytes}}, to, {{recv, recv_bytes}}, from, tag);
  }
  // Returns when every message of start_sendrecv's transfer `ticket` is done.
  virtual void wait(long ticket) = 0;
  // Lets transfer `ticket` move on and returns at once: whether every message is done (wait() then
  // returns at once). MPI moves a large message only inside its calls (the receiver copies it once
  // both sides have met there): work that should hide a transfer calls this now and then.
  virtual bool progress(long ticket) = 0;
  // Both at once: returns when the transfer is done.
  void sendrecv(const void* send, std::size_t send_bytes, int to, void* recv, std::size_t recv_bytes, int from) {
    wait(start_sendrecv(send, send_bytes, to, recv, recv_bytes, from, 0));
  }
  // Whether sendrecv takes device (CUDA) memory directly: a CUDA-aware MPI says so
  // (MPIX_Query_cuda_support). Otherwise device buffers are staged through host memory.
  virtual bool device_buffers() const = 0;
  // Every rank's `mine`, concatenated in rank order, on every rank (the lengths may differ).
  virtual std::vector<double> allgather(const std::vector<double>& mine) = 0;
  // The largest `value` of all ranks, on every rank.
  virtual double max(double value) = 0;
  virtual void barrier() = 0;
  // The ranks of the run on this process's machine (they share its cores), whatever
  // IMMERSE_RANKS_PER_NODE says; 1 for a single process.
  virtual int ranks_on_machine() const { return 1; }
  // Whether every rank of the run shares this machine's memory (one node, and no
  // IMMERSE_RANKS_PER_NODE laying them out as several): then shared_memory() serves them all.
  virtual bool one_node() const { return true; }
  // `bytes` of memory that every rank of one_node() maps at once, allocated once for all of them (a
  // file in the node's shared-memory directory, shared_file.hpp) and freed when every rank has let
  // its pointer go. Collective: every rank asks with the same size. A single process: its own memory.
  virtual std::shared_ptr<void> shared_memory(std::size_t bytes);
  // The bytes shared_memory() can still place on every rank's node (the least over the ranks; a
  // single process: no limit). Collective. The files lie in /dev/shm (IMMERSE_SHARED_MEMORY_DIR
  // names another directory), which a container may keep small (Docker: 64 MiB).
  virtual double shared_memory_room();
  // Ends every rank at once with `code` (an error only some ranks met: the others would wait).
  [[noreturn]] virtual void abort(int code) = 0;
};

// The communicator of this process (a single process until init_world found an MPI launch).
Comm& world();
// Called first by main: starts MPI when built with it and launched by an MPI launcher.
void init_world(int& argc, char**& argv);
// Called last by main (MPI_Finalize when MPI was started).
void finalize_world();
// Whether this build can run on several ranks (built with MPI).
bool mpi_built();
// The MPI library this build uses ("Open MPI v4.1.4"), or "" without MPI.
std::string mpi_library();

}  // namespace immerse
