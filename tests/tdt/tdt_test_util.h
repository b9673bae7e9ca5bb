// Shared pieces of the TDT tests: a fixture with aclInit + device 0, and
// helpers to build float datasets.
#ifndef SIMNPU_TESTS_TDT_TDT_TEST_UTIL_H_
#define SIMNPU_TESTS_TDT_TDT_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"

namespace tdttest {

class TdtTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  void TearDown() override {
    (void)aclrtResetDeviceForce(0);
    (void)aclFinalize();
  }
};

inline std::string ErrMsg() {
  std::string all;
  while (const char* m = aclGetRecentErrMsg()) all += m;
  return all;
}

// A dataset of one TENSOR item {1, n} ACL_FLOAT borrowing v's buffer.
inline acltdtDataset* FloatDataset(std::vector<float>& v, acltdtDataItem** item) {
  const int64_t dims[2] = {1, static_cast<int64_t>(v.size())};
  *item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT, v.data(), v.size() * sizeof(float));
  acltdtDataset* ds = acltdtCreateDataset();
  if (*item == nullptr || ds == nullptr || acltdtAddDataItem(ds, *item) != ACL_SUCCESS) return nullptr;
  return ds;
}

inline double MsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace tdttest

#endif  // SIMNPU_TESTS_TDT_TDT_TEST_UTIL_H_
