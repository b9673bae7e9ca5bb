// SOC table (from soc_table.def) and the process's SOC.
#include "sim/soc.h"

#include "dfx/log.h"
#include "platform/env.h"

namespace simnpu::sim {
namespace {

const SocInfo kSocs[] = {
#define SIMNPU_SOC(name, shortn, fam, arch, aic, chip, aicore, cube, vec, ub, l1, l0a, l0b, l0c, l2, \
                   mem, uvm, bf16, infnan, mode)                                                     \
  {name, shortn, fam, arch, aic, chip, aicore, cube, vec, ub, l1, l0a, l0b, l0c, l2, mem, uvm != 0,  \
   bf16 != 0, infnan != 0, mode},
#include "sim/soc_table.def"
#undef SIMNPU_SOC
};

struct CurrentState {
  const SocInfo* soc = nullptr;
  std::string error;
};

const CurrentState& Current() {
  static const CurrentState state = [] {
    CurrentState s;
    auto name = platform::GetEnv("SIMNPU_SOC");
    std::string n = name ? *name : "Ascend910B1";
    s.soc = FindSoc(n);
    if (!s.soc) {
      s.error = "SIMNPU_SOC=\"" + n +
                "\" is not a SOC simnpu knows (names are case-sensitive, e.g. Ascend910B1, "
                "Ascend910_9391, Ascend910A, Ascend310P3, Ascend950PR_9599)";
      SIMNPU_LOGE(kDrv, "%s", s.error.c_str());
    }
    return s;
  }();
  return state;
}

}  // namespace

const SocInfo* SocTable(size_t* count) {
  *count = sizeof(kSocs) / sizeof(kSocs[0]);
  return kSocs;
}

const SocInfo* FindSoc(const std::string& name) {
  for (const SocInfo& s : kSocs)
    if (name == s.name) return &s;
  return nullptr;
}

const SocInfo* CurrentSoc() { return Current().soc; }
const std::string& CurrentSocError() { return Current().error; }

}  // namespace simnpu::sim
