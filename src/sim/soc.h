// The SOC table and the SOC the simulated NPUs are (SIMNPU_SOC).
#ifndef SIMNPU_SIM_SOC_H_
#define SIMNPU_SIM_SOC_H_

#include <cstdint>
#include <string>

namespace simnpu::sim {

struct SocInfo {
  const char* name;          // exact SoC_version string, e.g. "Ascend910B1"
  const char* short_name;    // e.g. "Ascend910B"
  const char* family;        // "A2", "A3", "910", "310P", "310B", "950", "350"
  uint32_t npu_arch;         // 2201, 1001, 2002, 3002, 3510
  const char* aic_version;   // "AIC-C-220", ...
  uint32_t chip_type;
  uint32_t ai_cores;
  uint32_t cube_cores;
  uint32_t vector_cores;     // 0 on coupled-core parts without separate vector cores
  uint32_t ub_bytes;         // unified buffer per core
  uint32_t l1_bytes, l0a_bytes, l0b_bytes, l0c_bytes;
  uint64_t l2_bytes;
  uint64_t memory_gib;       // device memory (HBM/DDR) per device
  bool uvm;                  // managed memory (aclrtMemAllocManaged) supported
  bool bf16, inf_nan;
  const char* kernel_build_mode;  // ascendc build mode: c220, c100, m200, m300, c310
};

// All known SOCs, in table order.
const SocInfo* SocTable(size_t* count);
// Exact-name lookup (the runtime compares exact strings); nullptr if unknown.
const SocInfo* FindSoc(const std::string& name);

// The SOC of this process: SIMNPU_SOC, default "Ascend910B1". nullptr when
// SIMNPU_SOC names an unknown SOC (then aclrtGetSocName returns NULL, as the
// real runtime does when it cannot determine the SOC). Read once.
const SocInfo* CurrentSoc();
// Explanation when CurrentSoc() is nullptr.
const std::string& CurrentSocError();

}  // namespace simnpu::sim

#endif  // SIMNPU_SIM_SOC_H_
