// Shared fixture for the managed-memory tests: a device, a stream, counters
// reset at the start of each test, and helpers to read residency.
#ifndef SIMNPU_TESTS_UVM_FIXTURE_H_
#define SIMNPU_TESTS_UVM_FIXTURE_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "simnpu/uvm.h"

namespace uvmtest {

constexpr size_t kPage = 4096;
constexpr size_t kBlock = 2u << 20;
constexpr uint32_t kHostBit = 1u;
inline uint32_t DevBit(int d) { return 1u << (d + 1); }

inline simnpu_uvm_counters Counters() {
  simnpu_uvm_counters c;
  simnpu_uvm_get_counters(&c, sizeof c);
  return c;
}

inline std::vector<uint32_t> Residency(const void* p, size_t n) {
  std::vector<uint32_t> r((n + kPage - 1) / kPage);
  EXPECT_EQ(simnpu_uvm_query_residency(p, n, r.data(), r.size()), 0);
  return r;
}

// Number of pages of [p, p+n) whose residency mask equals `mask`.
inline size_t PagesWith(const void* p, size_t n, uint32_t mask) {
  size_t k = 0;
  for (uint32_t m : Residency(p, n)) k += m == mask;
  return k;
}

class UvmTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    simnpu_uvm_reset_counters();
    (void)aclGetRecentErrMsg();
  }
  void TearDown() override {
    for (void* p : allocs_) EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
  }
  char* Alloc(size_t n) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMemAllocManaged(&p, n, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS);
    allocs_.push_back(p);
    return static_cast<char*>(p);
  }
  // A device write of the whole range (device-side memset).
  void DeviceFill(void* p, size_t n, int v) {
    ASSERT_EQ(aclrtMemsetAsync(p, n, v, n, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  }
  // A device read of the whole range into host memory (D2H copy).
  std::vector<char> DeviceRead(const void* p, size_t n) {
    std::vector<char> out(n);
    EXPECT_EQ(aclrtMemcpy(out.data(), n, p, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return out;
  }
  aclrtMemManagedLocation Dev(int id) { return {ACL_MEM_LOCATIONTYPE_DEVICE, id}; }
  aclrtMemManagedLocation Host() { return {ACL_MEM_LOCATIONTYPE_HOST, 0}; }

  aclrtStream stream_ = nullptr;
  std::vector<void*> allocs_;
};

}  // namespace uvmtest

#endif  // SIMNPU_TESTS_UVM_FIXTURE_H_
