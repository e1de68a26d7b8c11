#include "immerse/core/comm.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace immerse {

namespace {

// One process: a rank that sends to and receives from itself only.
class SingleProcess final : public Comm {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  // The transfer happens at the start: there is nobody to wait for.
  long start_sendrecv(const void* send, std::size_t send_bytes, int to, void* recv, std::size_t recv_bytes, int from,
                      int) override {
    if ((to == 0) != (from == 0) || (to == 0 && send_bytes != recv_bytes))
      throw std::logic_error("sendrecv: a single process can only exchange with itself, the same byte count");
    if (to == 0 && send_bytes > 0) std::memmove(recv, send, send_bytes);
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
