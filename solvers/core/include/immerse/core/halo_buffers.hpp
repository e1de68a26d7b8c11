#pragma once
// The send and receive buffers of a ghost-layer exchange on execution space Exec, and one exchange
// through them: the buffers go to MPI as they are where it takes device memory
// (Comm::device_buffers, a CUDA-aware MPI) and on host spaces, else through host mirrors. Where
// the values already lie in runs MPI can take, they travel without the buffers (Runs).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "immerse/core/comm.hpp"

namespace immerse {

template <class T, class Exec>
class HaloBuffers {
 public:
  using View = Kokkos::View<T*, typename Exec::device_type>;

  HaloBuffers(const std::string& label, std::size_t values, Comm& comm)
      : send(label + "_send", values), recv(label + "_recv", values), comm_(comm) {
    h_send_ = Kokkos::create_mirror_view(send);
    h_recv_ = Kokkos::create_mirror_view(recv);
  }

  // With a destination (rank >= 0), pack() fills `send` and its first `count` values go there;
  // with a source, `count` values from it arrive in `recv` and unpack() reads them. Both ranks of
  // a pair call it alike (Comm::sendrecv).
  template <class Pack, class Unpack>
  void exchange(std::size_t count, int dest, int source, const Pack& pack, const Unpack& unpack) {
    begin(count, dest, source, pack, 0);
    end(unpack);
  }

  // How the values of one transfer lie: `parts` runs of `part` values each, a message per run, in
  // `send` and `recv` one after another, or, where `from` / `into` hold a pointer per run, there:
  // the sender's own memory, sent as it lies (in_place()) without pack(), or the receiver's, which
  // the values reach without unpack(). The two ranks of a pair may choose differently.
  struct Runs {
    int parts = 1;
    std::size_t part = 0;
    std::vector<const T*> from;
    std::vector<T*> into;
  };
  // Whether MPI takes Exec's memory as it is (host memory, or a CUDA-aware MPI): Runs::from and
  // Runs::into may be used, and the buffers go to MPI without host mirrors.
  bool in_place() const { return direct_; }

  // exchange() in two halves, for work to run while the values travel: begin() packs and starts
  // the transfer (`tag`: Comm::start_sendrecv), end() waits for it and unpacks. One transfer per
  // buffer pair at a time.
  template <class Pack>
  void begin(std::size_t count, int dest, int source, const Pack& pack, int tag) {
    begin(Runs{1, count, {}, {}}, dest, source, pack, tag);
  }
  template <class Pack>
  void begin(const Runs& runs, int dest, int source, const Pack& pack, int tag) {
    const std::size_t bytes = runs.part * sizeof(T);
    std::vector<Comm::SendPart> out;
    std::vector<Comm::RecvPart> in;
    if (dest >= 0) {
      if (runs.from.empty()) {
        pack();
        if (!direct_) Kokkos::deep_copy(h_send_, send);
      }
      Exec().fence();  // what pack() or earlier kernels wrote is in memory before MPI reads it
      sent_ += runs.parts * bytes;
      for (int i = 0; i < runs.parts; ++i)
        out.push_back(
            {runs.from.empty() ? (direct_ ? send.data() : h_send_.data()) + i * runs.part : runs.from[i], bytes});
    }
    if (source >= 0)
      for (int i = 0; i < runs.parts; ++i)
        in.push_back(
            {runs.into.empty() ? (direct_ ? recv.data() : h_recv_.data()) + i * runs.part : runs.into[i], bytes});
    unpack_ = source >= 0 && runs.into.empty();
    ticket_ = comm_.start_sendrecv(out, dest, in, source, tag);
  }
  // Between begin() and end(): lets the transfer move on; whether it is done (Comm::progress).
  // With none in flight (before the first begin(), after end()): true at once.
  bool progress() { return comm_.progress(ticket_); }
  template <class Unpack>
  void end(const Unpack& unpack) {
    comm_.wait(ticket_);
    if (unpack_) {
      if (!direct_) Kokkos::deep_copy(recv, h_recv_);
      unpack();
      Exec().fence();
    }
  }

  // Bytes sent to other ranks (or to this one, across a periodic face) by every exchange so far.
  std::size_t bytes_sent() const { return sent_; }

  View send, recv;

 private:
  std::size_t sent_ = 0;
  bool unpack_ = false;  // the transfer begun arrives in `recv`
  long ticket_ = 0;
  Comm& comm_;
  bool direct_ =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible || comm_.device_buffers();
  typename View::HostMirror h_send_, h_recv_;
};

}  // namespace immerse
