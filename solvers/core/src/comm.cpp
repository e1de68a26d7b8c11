#include "immerse/core/comm.hpp"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>

namespace immerse {

std::shared_ptr<void> Comm::shared_memory(const std::size_t bytes) {
  // Page-aligned: one process's fields need no huge-page alignment (the ranks' files have it).
  void* p = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  if (!p && bytes > 0) throw std::bad_alloc();
  return std::shared_ptr<void>(p, [](void* q) { std::free(q); });
}

double Comm::shared_memory_room() { return std::numeric_limits<double>::infinity(); }

namespace {

// One process: a rank that sends to and receives from itself only.
class SingleProcess final : public Comm {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  using Comm::start_sendrecv;
  // The transfer happens at the start: there is nobody to wait for.
  long start_sendrecv(const std::vector<SendPart>& send, int to, const std::vector<RecvPart>& recv, int from,
                      int) override {
    if ((to == 0) != (from == 0) || (to == 0 && send.size() != recv.size()))
      throw std::logic_error("sendrecv: a single process can only exchange with itself, the same parts");
    if (to != 0) return 0;
    for (std::size_t i = 0; i < send.size(); ++i) {
      if (send[i].bytes != recv[i].bytes)
        throw std::logic_error("sendrecv: part " + std::to_string(i) + " sends " + std::to_string(send[i].bytes) +
                               " bytes into " + std::to_string(recv[i].bytes));
      if (send[i].bytes > 0) std::memmove(recv[i].data, send[i].data, send[i].bytes);
    }
    return 0;
  }
  void wait(long) override {}
  bool progress(long) override { return true; }
  bool device_buffers() const override { return false; }  // memmove needs host memory
  std::vector<double> allgather(const std::vector<double>& mine) override { return mine; }
  double max(double value) override { return value; }
  void barrier() override {}
  [[noreturn]] void abort(int code) override { std::exit(code); }
};

}  // namespace

Comm& single_process() {
  static SingleProcess single;
  return single;
}

}  // namespace immerse
