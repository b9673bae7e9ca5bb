// PeerAccess: which device may reach which other device's memory
// (aclrtDeviceEnablePeerAccess). One direction per pair, per process,
// by logical device id; not tied to a context or a thread.
// Lock-free: one atomic bit per ordered pair.
#ifndef SIMNPU_CORE_PEER_ACCESS_H_
#define SIMNPU_CORE_PEER_ACCESS_H_

#include <atomic>
#include <cstdint>

namespace simnpu::core {

class PeerAccess {
 public:
  static constexpr int kMax = 64;
  static PeerAccess& Get();
  void Set(int from, int to, bool on) {
    if (from < 0 || to < 0 || from >= kMax || to >= kMax) return;
    if (on)
      bits_[from].fetch_or(uint64_t{1} << to);
    else
      bits_[from].fetch_and(~(uint64_t{1} << to));
  }
  bool Enabled(int from, int to) const {
    if (from < 0 || to < 0 || from >= kMax || to >= kMax) return false;
    return (bits_[from].load() >> to) & 1;
  }

 private:
  std::atomic<uint64_t> bits_[kMax] = {};
};

inline PeerAccess& PeerAccess::Get() {
  static PeerAccess p;
  return p;
}

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_PEER_ACCESS_H_
