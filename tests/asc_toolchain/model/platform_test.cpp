// platform_ascendc (libplatform) against the platform_config INI files of
// the build tree (ASCEND_HOME_PATH=<build>). The first successful
// GetInstance fixes the instance for the process, so each SOC scenario is
// its own test program (PLATFORM_SCENARIO): 1 the runtime's default SOC
// (Ascend910B1), 2 SIMNPU_SOC=Ascend310P1, 3 a named SOC after bad names.
#include <gtest/gtest.h>

#include "tiling/platform/platform_ascendc.h"

using platform_ascendc::CoreMemType;
using platform_ascendc::PlatformAscendCManager;
using platform_ascendc::SocVersion;

namespace {
uint64_t Mem(platform_ascendc::PlatformAscendC* p, CoreMemType t) {
  uint64_t v = 12345;
  p->GetCoreMemSize(t, v);
  return v;
}
}  // namespace

#if PLATFORM_SCENARIO == 1
TEST(AscPlatform, RuntimeSocFacts) {
  auto* p = PlatformAscendCManager::GetInstance();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->GetCoreNum(), 24u);
  EXPECT_EQ(p->GetCoreNumAic(), 24u);
  EXPECT_EQ(p->GetCoreNumAiv(), 48u);
  EXPECT_EQ(p->GetCoreNumVector(), 0u);
  EXPECT_EQ(Mem(p, CoreMemType::UB), 196608u);
  EXPECT_EQ(Mem(p, CoreMemType::L1), 524288u);
  EXPECT_EQ(Mem(p, CoreMemType::L0_A), 65536u);
  EXPECT_EQ(Mem(p, CoreMemType::L0_B), 65536u);
  EXPECT_EQ(Mem(p, CoreMemType::L0_C), 131072u);
  EXPECT_EQ(Mem(p, CoreMemType::L2), 201326592u);
  EXPECT_EQ(Mem(p, CoreMemType::HBM), 68719476736u);
  EXPECT_EQ(Mem(p, CoreMemType::RESERVED), 0u);
  EXPECT_EQ(p->GetSocVersion(), SocVersion::ASCEND910B);
  EXPECT_EQ(p->GetCurNpuArch(), NpuArch::DAV_2201);
  EXPECT_EQ(p->GetLibApiWorkSpaceSize(), 16u * 1024u * 1024u);
  // mix kernels run in groups of 1 AIC + 2 AIV
  EXPECT_EQ(p->CalcTschBlockDim(48, 24, 48), 24u);
  EXPECT_EQ(p->CalcTschBlockDim(47, 24, 48), 24u);
  EXPECT_EQ(p->CalcTschBlockDim(40, 0, 48), 40u);
  EXPECT_EQ(p->CalcTschBlockDim(20, 24, 0), 20u);
  EXPECT_EQ(p->CalcTschNumBlocks(48, 24, 48), 24u);
  p->ReserveLocalMemory(platform_ascendc::ReservedSize::RESERVED_SIZE_16K);
  EXPECT_EQ(Mem(p, CoreMemType::UB), 196608u - 16384u);
  p->ReserveLocalMemory(platform_ascendc::ReservedSize::RESERVED_SIZE_8K);
  EXPECT_EQ(Mem(p, CoreMemType::UB), 196608u - 8192u);
  // the first instance stays
  EXPECT_EQ(PlatformAscendCManager::GetInstance("Ascend310P1"), p);
  EXPECT_EQ(PlatformAscendCManager::GetInstance(), p);
}
#elif PLATFORM_SCENARIO == 2
TEST(AscPlatform, CoupledSocWithVectorCores) {
  auto* p = PlatformAscendCManager::GetInstance();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->GetSocVersion(), SocVersion::ASCEND310P);
  EXPECT_EQ(p->GetCurNpuArch(), NpuArch::DAV_2002);
  EXPECT_EQ(p->GetCoreNum(), 10u);
  EXPECT_EQ(p->GetCoreNumAiv(), 10u);  // coupled: every AI core has its vector unit
  EXPECT_EQ(p->GetCoreNumVector(), 8u);
  EXPECT_EQ(Mem(p, CoreMemType::UB), 262144u);
  EXPECT_EQ(p->CalcTschBlockDim(16, 10, 10), 16u);  // no AIC/AIV groups on a coupled SOC
}
#elif PLATFORM_SCENARIO == 3
TEST(AscPlatform, NamedSocAfterFailures) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(PlatformAscendCManager::GetInstance("NoSuchSoc"), nullptr);
  EXPECT_EQ(PlatformAscendCManager::GetInstance("../../etc/passwd"), nullptr);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("no platform configuration for SOC NoSuchSoc"), std::string::npos) << err;
  EXPECT_NE(err.find("\"../../etc/passwd\" is not a SOC name"), std::string::npos) << err;
  auto* p = PlatformAscendCManager::GetInstance("Ascend910B3");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->GetCoreNumAic(), 20u);
  EXPECT_EQ(p->GetCoreNumAiv(), 40u);
  EXPECT_EQ(p->GetSocVersion(), SocVersion::ASCEND910B);
  EXPECT_EQ(PlatformAscendCManager::GetInstance(), p);
}
#endif
