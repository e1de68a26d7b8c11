// world() in an MPI build: MPI_COMM_WORLD when an MPI launcher started this process, else the
// single process (an ordinary `immerse run` does not initialise MPI at all).
#include <mpi.h>
#include <unistd.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>  // MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support
#endif

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "immerse/core/comm.hpp"
#include "immerse/core/huge_pages.hpp"
#include "immerse/core/shared_file.hpp"

namespace immerse {

Comm& single_process();

namespace {

void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, text, &len);
  throw std::runtime_error(std::string(what) + ": " + std::string(text, len));
}

int as_count(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::runtime_error("MPI message over 2 GiB: use more ranks");
  return static_cast<int>(bytes);
}

class MpiWorld final : public Comm {
 public:
  MpiWorld() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    cuda_aware_ = MPIX_Query_cuda_support() == 1;  // built with CUDA support and enabled at run time
#endif
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node_),
          "MPI_Comm_split_type");
    per_node_ = find_ranks_per_node();
    MPI_Comm_size(node_, &on_machine_);
    one_node_ = on_machine_ == size_ && per_node_ == size_;
  }
  int ranks_on_machine() const override { return on_machine_; }
  bool one_node() const override { return one_node_; }
  double shared_memory_room() override { return -max(-shared_memory_dir_room()); }
  // Rank 0 creates a file in the node's shared-memory directory, every rank maps it 2 MiB-aligned
  // (shared_file.hpp: MPI_Win_allocate_shared's mapping could never hold a 2 MiB page), and the file
  // is removed once all have: the memory goes with the last mapping, whichever rank holds it.
  std::shared_ptr<void> shared_memory(const std::size_t bytes) override {
    if (!one_node_) throw std::logic_error("Comm::shared_memory: the ranks are not on one node");
    std::string error;
    std::vector<char> path(4096, '\0');
    if (rank_ == 0) {
      const std::string made = create_shared_file(std::to_string(getpid()), bytes, error);
      made.copy(path.data(), path.size() - 1);
    }
    check(MPI_Bcast(path.data(), as_count(path.size()), MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
    void* const p = path[0] != '\0' ? map_shared_file(path.data(), bytes, error) : nullptr;
    const bool everywhere = max(p ? 0.0 : 1.0) == 0.0;  // every rank has mapped it (or given up)
    if (rank_ == 0 && path[0] != '\0') remove_shared_file(path.data());
    if (!everywhere) {
      unmap_shared_file(p, bytes);
      if (error.empty())
        error = path[0] != '\0' ? "another rank could not map " + std::string(path.data())
                                : "rank 0 could not create a file in " + shared_memory_dir();
      throw std::runtime_error("the ranks' shared memory: " + error);
    }
    // 2 MiB pages at the first touch where the node's shared memory gives them (/dev/shm mounted
    // with huge=advise); elsewhere NodeSharedFields makes them (collapse_huge_pages).
    advise_huge_pages(p, shared_file_size(bytes));
    return std::shared_ptr<void>(p, [bytes](void* q) { unmap_shared_file(q, bytes); });
  }
  int ranks_per_node() const override { return per_node_; }
  bool device_buffers() const override { return cuda_aware_; }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  using Comm::start_sendrecv;
  long start_sendrecv(const std::vector<SendPart>& send, int to, const std::vector<RecvPart>& recv, int from,
                      int tag) override {
    std::vector<MPI_Request>& r = pending_[++tickets_];
    if (from >= 0)
      for (const RecvPart& part : recv) {
        r.push_back(MPI_REQUEST_NULL);
        check(MPI_Irecv(part.data, as_count(part.bytes), MPI_BYTE, from, tag, MPI_COMM_WORLD, &r.back()), "MPI_Irecv");
      }
    if (to >= 0)
      for (const SendPart& part : send) {
        r.push_back(MPI_REQUEST_NULL);
        check(MPI_Isend(part.data, as_count(part.bytes), MPI_BYTE, to, tag, MPI_COMM_WORLD, &r.back()), "MPI_Isend");
      }
    return tickets_;
  }
  void wait(long ticket) override {
    const auto it = pending_.find(ticket);
    if (it == pending_.end())
      throw std::logic_error("Comm::wait: no transfer " + std::to_string(ticket) + " in flight");
    auto& r = it->second;
    check(MPI_Waitall(static_cast<int>(r.size()), r.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    pending_.erase(it);
  }
  bool progress(long ticket) override {
    const auto it = pending_.find(ticket);
    if (it == pending_.end()) return true;
    auto& r = it->second;
    int done = 0;  // once all are done they become MPI_REQUEST_NULL, which wait() passes at once
    check(MPI_Testall(static_cast<int>(r.size()), r.data(), &done, MPI_STATUSES_IGNORE), "MPI_Testall");
    return done != 0;
  }
  std::vector<double> allgather(const std::vector<double>& mine) override {
    const int n = as_count(mine.size());
    std::vector<int> counts(size_), offsets(size_);
    check(MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
    long total = 0;
    for (int r = 0; r < size_; ++r) {
      offsets[r] = as_count(total);
      total += counts[r];
    }
    std::vector<double> all(total);
    check(MPI_Allgatherv(mine.data(), n, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE,
                         MPI_COMM_WORLD),
          "MPI_Allgatherv");
    return all;
  }
  double max(double value) override {
    double out = value;
    check(MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
    return out;
  }
  void barrier() override { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }
  [[noreturn]] void abort(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::exit(code);
  }

 private:
  // The ranks sharing this rank's memory (MPI_COMM_TYPE_SHARED): their count where every node has
  // as many and they are consecutive world ranks, else 1; IMMERSE_RANKS_PER_NODE where set. A value
  // that is not a rank count ends the run with exit 2 (every rank reads the same environment, so
  // every rank stops here; no command has started yet).
  int find_ranks_per_node() const {
    if (const char* v = std::getenv("IMMERSE_RANKS_PER_NODE")) {
      char* end = nullptr;
      const long n = std::strtol(v, &end, 10);
      if (end == v || *end != '\0' || n < 1 || n > size_) {
        if (rank_ == 0)
          std::fprintf(stderr, "immerse: IMMERSE_RANKS_PER_NODE='%s': not a rank count from 1 to %d\n", v, size_);
        MPI_Finalize();
        std::exit(2);
      }
      return static_cast<int>(n);
    }
    const MPI_Comm node = node_;
    int n = 0, local = 0;
    MPI_Comm_size(node, &n);
    MPI_Comm_rank(node, &local);
    const int first = rank_ - local;  // the node's first rank, if its ranks are consecutive
    int lo = 0, hi = 0;
    check(MPI_Allreduce(&first, &lo, 1, MPI_INT, MPI_MIN, node), "MPI_Allreduce");
    check(MPI_Allreduce(&first, &hi, 1, MPI_INT, MPI_MAX, node), "MPI_Allreduce");
    const int mine[2] = {lo == hi && first % n == 0 ? n : 0, -n};
    int all[2] = {0, 0};  // the smallest usable count, minus the largest node's
    check(MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
    return all[0] == n && -all[1] == n ? n : 1;
  }

  int rank_ = 0, size_ = 1;
  int per_node_ = 1;
  int on_machine_ = 1;             // the size of node_
  MPI_Comm node_ = MPI_COMM_NULL;  // the ranks sharing this rank's memory (MPI_COMM_TYPE_SHARED)
  bool one_node_ = false;
  bool cuda_aware_ = false;
  std::map<long, std::vector<MPI_Request>> pending_;  // start_sendrecv's messages not yet waited for
  long tickets_ = 0;
};

MpiWorld* g_world = nullptr;

// Environment variables the common launchers set for every process they start (Open MPI, PMIx,
// MPICH/Hydra, Slurm's PMI).
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

}  // namespace

Comm& world() { return g_world ? static_cast<Comm&>(*g_world) : single_process(); }

void init_world(int& argc, char**& argv) {
  if (g_world || !launched_by_mpi()) return;
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  static MpiWorld w;
  g_world = &w;
}

void finalize_world() {
  if (!g_world) return;
  g_world = nullptr;
  MPI_Finalize();
}

bool mpi_built() { return true; }

std::string mpi_library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(text, &len);  // allowed before MPI_Init
  const std::string s(text, len);
  return s.substr(0, s.find_first_of(",\n"));  // "Open MPI v4.1.4, package: ..." -> "Open MPI v4.1.4"
}

}  // namespace immerse
