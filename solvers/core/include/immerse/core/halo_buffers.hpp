#pragma once
// The send and receive buffers of a ghost-layer exchange on execution space Exec, and one exchange
// through them: the buffers go to MPI as they are where it takes device memory
// (Comm::device_buffers, a CUDA-aware MPI), else through host mirrors (on host spaces the mirrors
// are the buffers themselves and the copies are no-ops).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>

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

  // exchange() in two halves, for work to run while the values travel: begin() packs and starts
  // the transfer (`tag`: Comm::start_sendrecv), end() waits for it and unpacks. One transfer per
  // buffer pair at a time.
  template <class Pack>
  void begin(std::size_t count, int dest, int source, const Pack& pack, int tag) {
    if (dest >= 0) {
      pack();
      if (!direct_) Kokkos::deep_copy(h_send_, send);
      Exec().fence();
    }
    const std::size_t bytes = count * sizeof(T);
    if (dest >= 0) sent_ += bytes;
    source_ = source;
    ticket_ = comm_.start_sendrecv(direct_ ? send.data() : h_send_.data(), dest >= 0 ? bytes : 0, dest,
                                   direct_ ? recv.data() : h_recv_.data(), source >= 0 ? bytes : 0, source, tag);
  }
  // Between begin() and end(): lets the transfer move on; whether it is done (Comm::progress).
  // With none in flight (before the first begin(), after end()): true at once.
  bool progress() { return comm_.progress(ticket_); }
  template <class Unpack>
  void end(const Unpack& unpack) {
    comm_.wait(ticket_);
    if (source_ >= 0) {
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
  int source_ = -1;  // of the transfer begun
  long ticket_ = 0;
  Comm& comm_;
  bool direct_ =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible && comm_.device_buffers();
  typename View::HostMirror h_send_, h_recv_;
};

}  // namespace immerse
