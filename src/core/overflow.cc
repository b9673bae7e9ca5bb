// Float overflow state (see overflow.h).
#include "core/overflow.h"

#include <cfloat>
#include <cmath>
#include <map>
#include <mutex>

#include "sim/soc.h"

namespace simnpu::core::overflow {
namespace {

constexpr int kMaxDevices = 64;

struct StreamState {
  int phys = 0;
  int mode = kModeInfNan;
  uint32_t sw = 0;
};

struct State {
  std::mutex mu;
  int mode[kMaxDevices];                   // GUARDED_BY(mu); -1 = default
  uint32_t status[kMaxDevices] = {};       // GUARDED_BY(mu)
  std::map<int32_t, StreamState> streams;  // by stream id (never reused). GUARDED_BY(mu)
  State() {
    for (int& m : mode) m = -1;
  }
};

State& S() {
  static auto* s = new State();  // outlives streams destroyed at exit
  return *s;
}

uint32_t Arch() {
  const sim::SocInfo* soc = sim::CurrentSoc();
  return soc ? soc->npu_arch : 2201;
}

bool ValidPhys(int phys) { return phys >= 0 && phys < kMaxDevices; }

}  // namespace

bool ModeSupported(int mode) {
  switch (Arch()) {
    case 2201: return mode == kModeSaturation || mode == kModeInfNan;
    case 3510: return mode == kModeInfNan;
    default: return mode == kModeSaturation;
  }
}

int DefaultMode() {
  const uint32_t a = Arch();
  return a == 2201 || a == 3510 ? kModeInfNan : kModeSaturation;
}

bool HasSwitch() {
  const uint32_t a = Arch();
  return a == 2201 || a == 3510;
}

int DeviceMode(int phys) {
  if (!ValidPhys(phys)) return DefaultMode();
  std::lock_guard<std::mutex> g(S().mu);
  return S().mode[phys] < 0 ? DefaultMode() : S().mode[phys];
}

void SetDeviceMode(int phys, int mode) {
  if (!ValidPhys(phys)) return;
  std::lock_guard<std::mutex> g(S().mu);
  S().mode[phys] = mode;
}

void StreamCreated(int32_t stream_id, int phys) {
  const int mode = DeviceMode(phys);
  std::lock_guard<std::mutex> g(S().mu);
  S().streams[stream_id] = StreamState{phys, mode, HasSwitch() ? 0u : 1u};
}

void StreamDestroyed(int32_t stream_id) {
  std::lock_guard<std::mutex> g(S().mu);
  S().streams.erase(stream_id);
}

int StreamMode(int32_t stream_id) {
  std::lock_guard<std::mutex> g(S().mu);
  auto it = S().streams.find(stream_id);
  return it == S().streams.end() ? DefaultMode() : it->second.mode;
}

uint32_t StreamSwitch(int32_t stream_id) {
  if (!HasSwitch()) return 1;
  std::lock_guard<std::mutex> g(S().mu);
  auto it = S().streams.find(stream_id);
  return it == S().streams.end() ? 0u : it->second.sw;
}

void SetStreamSwitch(int32_t stream_id, uint32_t flag) {
  std::lock_guard<std::mutex> g(S().mu);
  auto it = S().streams.find(stream_id);
  if (it != S().streams.end()) it->second.sw = flag;
}

void Raise(int32_t stream_id, int phys) {
  if (StreamSwitch(stream_id) == 0 || !ValidPhys(phys)) return;
  std::lock_guard<std::mutex> g(S().mu);
  S().status[phys] = 1;
}

uint32_t Status(int phys) {
  if (!ValidPhys(phys)) return 0;
  std::lock_guard<std::mutex> g(S().mu);
  return S().status[phys];
}

void Reset(int phys) {
  if (!ValidPhys(phys)) return;
  std::lock_guard<std::mutex> g(S().mu);
  S().status[phys] = 0;
}

bool SaturateFloat(float* v) {
  if (std::isnan(*v)) {
    *v = 0.0f;
    return true;
  }
  if (std::isinf(*v)) {
    *v = *v > 0 ? FLT_MAX : -FLT_MAX;
    return true;
  }
  return false;
}

bool SaturateDouble(double* v) {
  if (std::isnan(*v)) {
    *v = 0.0;
    return true;
  }
  if (std::isinf(*v)) {
    *v = *v > 0 ? DBL_MAX : -DBL_MAX;
    return true;
  }
  return false;
}

}  // namespace simnpu::core::overflow
