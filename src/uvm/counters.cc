// UVM counters.
#include "uvm/counters.h"

#include <cstring>

namespace simnpu::uvm {

Counters& Stats() {
  static Counters* c = new Counters();
  return *c;
}

void Counters::Snapshot(simnpu_uvm_counters* out) const {
  std::memset(out, 0, sizeof *out);
  out->version = SIMNPU_UVM_COUNTERS_VERSION;
#define SIMNPU_COPY(f) out->f = f.load(std::memory_order_relaxed);
  SIMNPU_UVM_COUNTER_FIELDS(SIMNPU_COPY)
#undef SIMNPU_COPY
}

void Counters::Reset() {
#define SIMNPU_ZERO(f) f.store(0, std::memory_order_relaxed);
  SIMNPU_UVM_COUNTER_FIELDS(SIMNPU_ZERO)
#undef SIMNPU_ZERO
}

}  // namespace simnpu::uvm
