// simnpu: the platform facts host tiling code asks for
// (tiling/platform/platform_ascendc.h): core counts, on-chip memory sizes,
// the SOC family, the library API workspace size.
//
//   auto* p = platform_ascendc::PlatformAscendCManager::GetInstance();       // the runtime's SOC
//   auto* q = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
//   p->GetCoreNumAiv(); p->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
//
// The facts come from the install's platform_config/<SOC>.ini (the files the
// runtime uses): GetInstance() reads the SOC of aclrtGetSocName() (the
// SIMNPU_SOC the runtime simulates), GetInstance(soc) a named one. It returns
// nullptr when the SOC is unknown or its file is missing (a message on
// stderr says which). Implemented in libplatform.so (link `platform`).
// GetInstance is thread-safe; the first successful call fixes the instance
// for the process, as in CANN.
#ifndef SIMNPU_PLATFORM_ASCENDC_H_
#define SIMNPU_PLATFORM_ASCENDC_H_

#include <csignal>
#include <cstdint>
#include <mutex>

#include "platform/soc_spec.h"

#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, behavior) \
  do {                                 \
    if (!(cond)) {                     \
      behavior;                        \
      raise(SIGABRT);                  \
    }                                  \
  } while (0)
#endif

namespace fe {
class PlatFormInfos;
}

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

enum class SocVersion {
  ASCEND910 = 0,
  ASCEND910B,
  ASCEND310P,
  ASCEND310B,
  ASCEND950,
  ASCEND910_55,
  ASCEND910_95 = ASCEND950,
  AS31XM1,
  ASCEND031,
  ASCEND035,
  ASCEND310,
  ASCEND610,
  ASCEND610Lite,
  ASCEND910_93,
  BS9SX1A,
  BS9SX2A,
  HI3796CV300CS,
  HI3796CV300ES,
  MC61AM21A,
  MC62,
  SD3403,
  KIRINX90,
  KIRIN9030,
  MC32DM11A,
  ASCEND350,
  RESERVED_VERSION = 99999
};

enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

class PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  ~PlatformAscendC() = default;
  explicit PlatformAscendC(fe::PlatFormInfos* platformInfo) : platformInfo_(platformInfo) {}

  // AI cores (cube cores on split SOCs; on coupled ones the cores)
  uint32_t GetCoreNum(void) const;
  uint32_t GetCoreNumAic(void) const;
  uint32_t GetCoreNumAiv(void) const;
  // vector cores next to the AI cores of the 310P; 0 elsewhere
  uint32_t GetCoreNumVector(void) const;
  // numBlocks for sliceNum slices on the cores given (aic/aiv counts, 0 if unused)
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
  uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
  // workspace the library APIs (matmul, softmax...) need in GM, bytes
  uint32_t GetLibApiWorkSpaceSize(void) const;
  uint32_t GetResCubeGroupWorkSpaceSize(void) const;
  uint32_t GetResGroupBarrierWorkSpaceSize(void) const;
  // bytes; UB less what ReserveLocalMemory reserved
  void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const;
  // bytes per cycle
  void GetCoreMemBw(const CoreMemType& memType, uint64_t& bwSize) const;
  void ReserveLocalMemory(ReservedSize size);
  SocVersion GetSocVersion(void) const;
  NpuArch GetCurNpuArch(void) const;
  // bytes of one vector register (the vector unit's width)
  uint32_t GetVecRegLen(void) const;

 private:
  fe::PlatFormInfos* platformInfo_;
  fe::PlatFormInfos* GetPlatFormInfo(void) const;
  uint32_t reservedMemSize_ = 0;
};

class PlatformAscendCManager {
 public:
  static PlatformAscendC* GetInstance();
  static PlatformAscendC* GetInstance(const char* customSocVersion);

 private:
  PlatformAscendCManager();
  ~PlatformAscendCManager() = default;
};

}  // namespace platform_ascendc

#endif  // SIMNPU_PLATFORM_ASCENDC_H_
