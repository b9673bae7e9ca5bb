// simnpu: NpuArch, the NPU architecture of a SOC (platform/soc_spec.h), as
// PlatformAscendC::GetCurNpuArch() reports it; the values are the
// architecture numbers of __NPU_ARCH__.
#ifndef SIMNPU_PLATFORM_SOC_SPEC_H_
#define SIMNPU_PLATFORM_SOC_SPEC_H_

#include <cstdint>

enum class NpuArch : uint32_t {
  DAV_1001 = 1001,
  DAV_2002 = 2002,
  DAV_2201 = 2201,
  DAV_3002 = 3002,
  DAV_3510 = 3510,
  DAV_RESV = 0xFFFFFFFFu
};

#endif  // SIMNPU_PLATFORM_SOC_SPEC_H_
