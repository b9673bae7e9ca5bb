// Kernel memory check (SIMNPU_MEMCHECK): out-of-bounds and freed accesses
// fail the task with the vector/AI core exception code and a report naming
// the kernel, the block, the access, the allocation's bounds and the source
// line; valid kernels are unaffected. The same binary runs with
// SIMNPU_MEMCHECK=0 (checking_memcheck_off_test), =racecheck and =initcheck,
// and picks the expectations from the variable.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "api/api_test_util.h"
#include "memcheck_kernels.h"

namespace {

using apitest::ClearErrorState;
using apitest::TakeErrMsg;

std::string Mode() {
  const char* m = std::getenv("SIMNPU_MEMCHECK");
  return m ? m : "";
}
bool Off() { return Mode() == "0"; }
bool Race() { return Mode().find("racecheck") != std::string::npos; }
bool Init() { return Mode().find("initcheck") != std::string::npos; }

class MemcheckTest : public apitest::DeviceTest {
 protected:
  void SetUp() override {
    apitest::DeviceTest::SetUp();
    ACL_OK(aclrtCreateStream(&stream_));
    img_ = {SIMNPU_INPROC_IMAGE_MAGIC, SIMNPU_KERNEL_ABI_VERSION, McKernelTable()};
    ACL_OK(aclrtBinaryLoadFromData(&img_, sizeof img_, nullptr, &bin_));
  }
  void TearDown() override {
    (void)aclrtBinaryUnLoad(bin_);
    (void)aclrtDestroyStream(stream_);
    apitest::DeviceTest::TearDown();
  }
  aclrtFuncHandle Func(const char* name) {
    aclrtFuncHandle f = nullptr;
    EXPECT_EQ(ACL_SUCCESS, aclrtBinaryGetFunction(bin_, name, &f)) << name;
    return f;
  }
  // Launches with a host argument blob of the given parameters.
  template <typename... A>
  aclError Launch(const char* name, uint32_t blocks, A... args) {
    struct alignas(8) Slot {
      unsigned char b[8];
    };
    std::vector<Slot> blob;
    auto put = [&](auto v) {
      static_assert(sizeof(v) <= 16);
      Slot s[2] = {};
      std::memcpy(s, &v, sizeof v);
      blob.push_back(s[0]);
      if (sizeof v > 8) blob.push_back(s[1]);
    };
    (put(args), ...);
    return aclrtLaunchKernelWithHostArgs(Func(name), blocks, stream_, nullptr, blob.data(), blob.size() * 8, nullptr, 0);
  }
  aclError Sync() { return aclrtSynchronizeStream(stream_); }
  void* Dev(size_t n) {
    void* p = nullptr;
    EXPECT_EQ(ACL_SUCCESS, aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    return p;
  }
  aclrtStream stream_ = nullptr;
  simnpu_inproc_image img_{};
  aclrtBinHandle bin_ = nullptr;
};

TEST_F(MemcheckTest, ValidKernelIsUnaffected) {
  constexpr uint32_t n = 1024;
  std::vector<float> x(n), y(n), z(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.5f * static_cast<float>(i);
  }
  void *dx = Dev(n * 4), *dy = Dev(n * 4), *dz = Dev(n * 4);
  ACL_OK(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_OK(aclrtMemcpy(dy, n * 4, y.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_OK(aclrtMemset(dz, n * 4, 0, n * 4));
  ACL_OK(Launch("mc_vadd", 8, dx, dy, dz, n));
  ACL_OK(Sync());
  ACL_OK(aclrtMemcpy(z.data(), n * 4, dz, n * 4, ACL_MEMCPY_DEVICE_TO_HOST));
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(1.5f * static_cast<float>(i), z[i]) << i;
  // managed memory too
  void* m = nullptr;
  ACL_OK(aclrtMemAllocManaged(&m, n * 4, ACL_RT_MEM_ATTACH_GLOBAL));
  std::memcpy(m, x.data(), n * 4);
  ACL_OK(Launch("mc_vadd", 4, m, m, dz, n));
  ACL_OK(Sync());
  ACL_OK(aclrtMemcpy(z.data(), n * 4, dz, n * 4, ACL_MEMCPY_DEVICE_TO_HOST));
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(2.0f * static_cast<float>(i), z[i]) << i;
  ACL_OK(aclrtFree(m));
}

TEST_F(MemcheckTest, WriteOnePastTheEndIsReportedWithNameAndLine) {
  constexpr uint32_t n = 64;
  void* z = Dev(n * 4);
  ACL_OK(aclrtMemset(z, n * 4, 0, n * 4));
  ClearErrorState();
  ACL_OK(Launch("mc_write_past", 4, z, n));
  const aclError rc = Sync();
  if (Off()) {
    EXPECT_EQ(ACL_SUCCESS, rc);  // lands in the allocation's padding
    return;
  }
  EXPECT_EQ(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, rc);
  const std::string msg = TakeErrMsg();
  for (const char* needle : {"mc_write_past", "Block_3", "write of 4 bytes", "past the end of the 256-byte device memory",
                             MC_WRITE_PAST_FILE ":", "kernel argument 0 points into it"})
    EXPECT_NE(std::string::npos, msg.find(needle)) << needle << " in: " << msg;
  // the failure is the stream's; the stream and the memory stay usable
  ACL_OK(aclrtMemset(z, n * 4, 0, n * 4));
  ACL_OK(Sync());
}

TEST_F(MemcheckTest, DataCopyPastTheEndAndStopOnFailure) {
  void* x = Dev(256);
  void* z = Dev(4096);
  ACL_OK(aclrtMemset(x, 256, 0, 256));
  ACL_OK(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE));
  ACL_OK(Launch("mc_copy", 1, x, z, 128u));  // reads 512 bytes from a 256-byte allocation
  apitest::Seq seq;
  ACL_OK(seq.Append(stream_, 1));  // discarded after the failure in stop-on-failure mode
  const aclError rc = Sync();
  if (Off()) {
    EXPECT_EQ(ACL_SUCCESS, rc);
    return;
  }
  EXPECT_EQ(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, rc);
  const std::string msg = TakeErrMsg();
  EXPECT_NE(std::string::npos, msg.find("read of 512 bytes")) << msg;
  EXPECT_NE(std::string::npos, msg.find("exceeds the 256-byte device memory")) << msg;
  EXPECT_EQ(0u, seq.size());
}

TEST_F(MemcheckTest, FreedMemoryIsReported) {
  void* x = Dev(256);
  void* z = Dev(256);
  ACL_OK(aclrtFree(x));
  ACL_OK(Launch("mc_copy", 1, x, z, 16u));
  const aclError rc = Sync();
  if (Off()) return;
  EXPECT_EQ(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, rc);
  const std::string msg = TakeErrMsg();
  EXPECT_NE(std::string::npos, msg.find("which was freed")) << msg;
}

TEST_F(MemcheckTest, PointersInsideStructsAreResolved) {
  void* z = Dev(64 * 4);
  ACL_OK(aclrtMemset(z, 256, 0, 256));
  ACL_OK(Launch("mc_indirect", 1, McIndirect{z, 64}));
  ACL_OK(Sync());
  std::vector<int32_t> back(64);
  ACL_OK(aclrtMemcpy(back.data(), 256, z, 256, ACL_MEMCPY_DEVICE_TO_HOST));
  for (int32_t v : back) ASSERT_EQ(7, v);
  ACL_OK(Launch("mc_indirect", 1, McIndirect{z, 65}));
  const aclError rc = Sync();
  if (Off()) return;
  EXPECT_EQ(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, rc);
  EXPECT_NE(std::string::npos, TakeErrMsg().find("past the end")) << "pointer from a struct";
}

TEST_F(MemcheckTest, PlaceholderTilingDataIsReachable) {
  void* z = Dev(16 * 4);
  ACL_OK(aclrtMemset(z, 64, 0, 64));
  aclrtArgsHandle args = nullptr;
  ACL_OK(aclrtKernelArgsInit(Func("mc_tiling"), &args));
  aclrtParamHandle p0 = nullptr, p1 = nullptr;
  ACL_OK(aclrtKernelArgsAppend(args, &z, sizeof z, &p0));
  ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &p1));
  void* buf = nullptr;
  ACL_OK(aclrtKernelArgsGetPlaceHolderBuffer(args, p1, sizeof(uint32_t), &buf));
  *static_cast<uint32_t*>(buf) = 16;
  ACL_OK(aclrtKernelArgsFinalize(args));
  ACL_OK(aclrtLaunchKernelWithConfig(Func("mc_tiling"), 1, stream_, nullptr, args, nullptr));
  ACL_OK(Sync());
  std::vector<uint32_t> back(16);
  ACL_OK(aclrtMemcpy(back.data(), 64, z, 64, ACL_MEMCPY_DEVICE_TO_HOST));
  for (uint32_t v : back) ASSERT_EQ(16u, v);
}

TEST_F(MemcheckTest, Racecheck) {
  void* z = Dev(64 * 4);
  ACL_OK(aclrtMemset(z, 256, 0, 256));
  ACL_OK(Launch("mc_race", 4, z, 0u));  // disjoint elements: no race in any mode
  ACL_OK(Sync());
  ACL_OK(Launch("mc_race", 4, z, 1u));  // every block writes element 0
  aclError rc = Sync();
  if (!Race()) {
    EXPECT_EQ(ACL_SUCCESS, rc);
    return;
  }
  EXPECT_EQ(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, rc);
  std::string msg = TakeErrMsg();
  EXPECT_NE(std::string::npos, msg.find("racecheck: blocks")) << msg;
  EXPECT_NE(std::string::npos, msg.find("writes")) << msg;
  EXPECT_NE(std::string::npos, msg.find("memcheck_kernels.cpp:")) << msg;
  ACL_OK(Launch("mc_race_rw", 2, z));
  rc = Sync();
  EXPECT_EQ(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, rc);
  msg = TakeErrMsg();
  EXPECT_NE(std::string::npos, msg.find("block 0 writes")) << msg;
  EXPECT_NE(std::string::npos, msg.find("block 1 reads")) << msg;
}

TEST_F(MemcheckTest, Initcheck) {
  void* x = Dev(64 * 4);
  void* z = Dev(4);
  ACL_OK(aclrtMemset(z, 4, 0, 4));
  ACL_OK(Launch("mc_sum", 1, x, z, 64u));  // x was never written
  aclError rc = Sync();
  if (!Init()) {
    EXPECT_EQ(ACL_SUCCESS, rc);
    return;
  }
  EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, rc);  // an AIC kernel
  EXPECT_NE(std::string::npos, TakeErrMsg().find("initcheck: block 0 of kernel mc_sum reads 4 bytes"));
  std::vector<int32_t> ones(64, 1);
  ACL_OK(aclrtMemcpy(x, 256, ones.data(), 128, ACL_MEMCPY_HOST_TO_DEVICE));  // half of it
  ACL_OK(Launch("mc_sum", 1, x, z, 64u));
  EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, Sync());
  EXPECT_NE(std::string::npos, TakeErrMsg().find("nothing ever wrote byte 128"));
  ACL_OK(aclrtMemcpy(x, 256, ones.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_OK(Launch("mc_sum", 1, x, z, 64u));
  ACL_OK(Sync());
  int32_t s = 0;
  ACL_OK(aclrtMemcpy(&s, 4, z, 4, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(64, s);
}

}  // namespace
