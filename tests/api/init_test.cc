// aclInit / aclFinalize (acl-api.md §4.1): configuration handling, the
// reference count, repeat and finalize codes, and that the runtime works
// without aclInit.
//
// aclInit state is process-global. ctest runs every test case in its own
// process (gtest_discover_tests); in addition every test finalizes what it
// initialized, so the binary also passes when run as a whole.
#include <unistd.h>

#include <fstream>
#include <string>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::TakeErrMsg;

std::string WriteTemp(const std::string& tag, const std::string& content) {
  std::string path = ::testing::TempDir() + "/simnpu_api_init_" + std::to_string(getpid()) + "_" + tag + ".json";
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << content;
  return path;
}

class ApiInitTest : public ::testing::Test {
 protected:
  void SetUp() override { ClearErrorState(); }
  void TearDown() override {
    (void)aclFinalize();  // one call drops the whole reference count
    for (const auto& p : files_) unlink(p.c_str());
    ClearErrorState();
  }
  std::string File(const std::string& tag, const std::string& content) {
    files_.push_back(WriteTemp(tag, content));
    return files_.back();
  }
  std::vector<std::string> files_;
};

TEST_F(ApiInitTest, NullConfigInitializesAndFinalizes) {
  EXPECT_ACL_OK(aclInit(nullptr));
  EXPECT_ACL_OK(aclFinalize());
  EXPECT_EQ(nullptr, aclGetRecentErrMsg());
}

TEST_F(ApiInitTest, EmptyStringConfigMeansNoConfig) {
  EXPECT_ACL_OK(aclInit(""));
  EXPECT_ACL_OK(aclFinalize());
}

TEST_F(ApiInitTest, ValidJsonFile) {
  EXPECT_ACL_OK(aclInit(File("valid", "{\n  \"err_msg_mode\": \"1\"\n}\n").c_str()));
  EXPECT_ACL_OK(aclFinalize());
}

TEST_F(ApiInitTest, EmptyJsonObject) {
  EXPECT_ACL_OK(aclInit(File("empty_obj", "{}").c_str()));
  EXPECT_ACL_OK(aclFinalize());
}

TEST_F(ApiInitTest, MissingFileIsInvalidFile) {
  std::string path = ::testing::TempDir() + "/simnpu_api_init_does_not_exist_" + std::to_string(getpid()) + ".json";
  EXPECT_ACL(ACL_ERROR_INVALID_FILE, aclInit(path.c_str()));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(nullptr, aclGetRecentErrMsg());
  // An ACL-layer failure does not touch the runtime's last error.
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  // Nothing was initialized: a later aclInit works.
  EXPECT_ACL_OK(aclInit(nullptr));
  EXPECT_ACL_OK(aclFinalize());
}

TEST_F(ApiInitTest, DirectoryIsInvalidFile) {
  EXPECT_ACL(ACL_ERROR_INVALID_FILE, aclInit(::testing::TempDir().c_str()));
}

TEST_F(ApiInitTest, InvalidJsonIsParseError) {
  EXPECT_ACL(ACL_ERROR_PARSE_FILE, aclInit(File("bad", "{ \"dump\": ").c_str()));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_ACL(ACL_ERROR_PARSE_FILE, aclInit(File("bad2", "not json at all").c_str()));
  EXPECT_ACL_OK(aclInit(nullptr));
}

TEST_F(ApiInitTest, RepeatInitIsReportedAndCounted) {
  ASSERT_EQ(ACL_SUCCESS, aclInit(nullptr));
  EXPECT_ACL(ACL_ERROR_REPEAT_INITIALIZE, aclInit(nullptr));
  EXPECT_ACL(ACL_ERROR_REPEAT_INITIALIZE, aclInit(""));
  // One aclFinalize resets the whole count.
  EXPECT_ACL_OK(aclFinalize());
  EXPECT_ACL(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
}

TEST_F(ApiInitTest, RepeatWithSameConfigFile) {
  std::string a = File("same_a", "{\"err_msg_mode\": \"1\"}");
  ASSERT_EQ(ACL_SUCCESS, aclInit(a.c_str()));
  EXPECT_ACL(ACL_ERROR_REPEAT_INITIALIZE, aclInit(a.c_str()));
  // Same content under another name is the same configuration.
  std::string b = File("same_b", "{\"err_msg_mode\": \"1\"}");
  EXPECT_ACL(ACL_ERROR_REPEAT_INITIALIZE, aclInit(b.c_str()));
  EXPECT_ACL_OK(aclFinalize());
}

TEST_F(ApiInitTest, RepeatWithDifferentConfigIsInvalidParam) {
  ASSERT_EQ(ACL_SUCCESS, aclInit(nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclInit(File("diff", "{\"err_msg_mode\": \"1\"}").c_str()));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL_OK(aclFinalize());
}

TEST_F(ApiInitTest, RepeatFromFileWithDifferentFile) {
  ASSERT_EQ(ACL_SUCCESS, aclInit(File("first", "{\"err_msg_mode\": \"0\"}").c_str()));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclInit(File("second", "{\"err_msg_mode\": \"1\"}").c_str()));
  EXPECT_ACL_OK(aclFinalize());
}

TEST_F(ApiInitTest, FinalizeTwice) {
  ASSERT_EQ(ACL_SUCCESS, aclInit(nullptr));
  EXPECT_ACL_OK(aclFinalize());
  EXPECT_ACL(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_ACL(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
}

TEST_F(ApiInitTest, RuntimeWorksWithoutInit) {
  const char* soc = aclrtGetSocName();
  ASSERT_NE(nullptr, soc);
  uint32_t n = 0;
  EXPECT_ACL_OK(aclrtGetDeviceCount(&n));
  EXPECT_GE(n, 1u);
  EXPECT_ACL_OK(aclrtSetDevice(0));
  void* p = nullptr;
  EXPECT_ACL_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtFree(p));
  EXPECT_ACL_OK(aclrtResetDeviceForce(0));
}

TEST_F(ApiInitTest, InitDoesNotOpenADevice) {
  ASSERT_EQ(ACL_SUCCESS, aclInit(nullptr));
  int32_t dev = -1;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev));
  EXPECT_ACL_OK(aclFinalize());
}

TEST_F(ApiInitTest, FinalizeDoesNotResetDevices) {
  ASSERT_EQ(ACL_SUCCESS, aclInit(nullptr));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  EXPECT_ACL_OK(aclFinalize());
  int32_t dev = -1;
  EXPECT_ACL_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(0, dev);
  EXPECT_ACL_OK(aclrtResetDeviceForce(0));
}

TEST_F(ApiInitTest, TypicalSampleSequence) {
  ASSERT_EQ(ACL_SUCCESS, aclInit(nullptr));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtDestroyStreamForce(s));
  EXPECT_ACL_OK(aclrtResetDeviceForce(0));
  EXPECT_ACL_OK(aclFinalize());
}

}  // namespace
