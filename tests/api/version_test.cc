// System information and versions (acl-api.md §4.1, §7.2): aclrtGetSocName,
// aclrtGetRunMode, aclrtGetVersion, aclsysGetVersionStr/Num (install-tree
// version.info; ASCEND_HOME_PATH points at the build tree, which holds
// share/info/runtime/version.info), the CANN attribute table,
// aclrtCheckArchCompatibility, aclrtGetDeviceCapability.
//
// Runs with the default SOC (SIMNPU_SOC unset = Ascend910B1).
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::TakeErrMsg;

class ApiVersionTest : public ::testing::Test {
 protected:
  void SetUp() override { ClearErrorState(); }
  void TearDown() override { ClearErrorState(); }
};

TEST_F(ApiVersionTest, SocNameWithoutInitIsTheDefault) {
  const char* soc = aclrtGetSocName();
  ASSERT_NE(nullptr, soc);
  EXPECT_STREQ("Ascend910B1", soc);
  // Cached and stable.
  EXPECT_EQ(soc, aclrtGetSocName());
}

TEST_F(ApiVersionTest, RunMode) {
  aclrtRunMode mode = ACL_DEVICE;
  EXPECT_ACL_OK(aclrtGetRunMode(&mode));
  EXPECT_EQ(ACL_HOST, mode);
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetRunMode(nullptr));
  std::string msg = TakeErrMsg();
  EXPECT_NE(std::string::npos, msg.find("aclrtGetRunMode")) << msg;
  EXPECT_NE(std::string::npos, msg.find("runMode")) << msg;
}

// aclrtGetVersion is deprecated in the header (kept as the reference has it).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST_F(ApiVersionTest, AclrtGetVersion) {
  int32_t major = -1, minor = -1, patch = -1;
  EXPECT_ACL_OK(aclrtGetVersion(&major, &minor, &patch));
  EXPECT_EQ(ACL_MAJOR_VERSION, major);
  EXPECT_EQ(ACL_MINOR_VERSION, minor);
  EXPECT_EQ(ACL_PATCH_VERSION, patch);
  EXPECT_EQ(1, major);
  EXPECT_EQ(17, minor);
  EXPECT_EQ(0, patch);
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetVersion(nullptr, &minor, &patch));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetVersion(&major, nullptr, &patch));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetVersion(&major, &minor, nullptr));
}

#pragma GCC diagnostic pop

TEST_F(ApiVersionTest, RuntimeVersionFromInstallTree) {
  char pkg[] = "runtime";
  char ver[ACL_PKG_VERSION_MAX_SIZE];
  std::memset(ver, 'x', sizeof ver);
  ASSERT_EQ(ACL_SUCCESS, aclsysGetVersionStr(pkg, ver));
  EXPECT_STREQ(SIMNPU_TEST_PROJECT_VERSION, ver);
  int32_t num = 0;
  ASSERT_EQ(ACL_SUCCESS, aclsysGetVersionNum(pkg, &num));
  int maj = 0, min = 0, pat = 0;
  ASSERT_EQ(3, std::sscanf(SIMNPU_TEST_PROJECT_VERSION, "%d.%d.%d", &maj, &min, &pat));
  EXPECT_EQ(maj * 10000000 + min * 100000 + pat * 1000, num);
}

TEST_F(ApiVersionTest, VersionNullArguments) {
  char pkg[] = "runtime";
  char ver[ACL_PKG_VERSION_MAX_SIZE];
  int32_t num = 0;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclsysGetVersionStr(nullptr, ver));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclsysGetVersionStr(pkg, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclsysGetVersionNum(nullptr, &num));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclsysGetVersionNum(pkg, nullptr));
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
}

TEST_F(ApiVersionTest, UnknownPackageFails) {
  char pkg[] = "no_such_package_simnpu";
  char ver[ACL_PKG_VERSION_MAX_SIZE];
  int32_t num = 0;
  EXPECT_NE(ACL_SUCCESS, aclsysGetVersionStr(pkg, ver));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_NE(ACL_SUCCESS, aclsysGetVersionNum(pkg, &num));
}

// Version numbers: major*10^7 + minor*10^5 + patch*10^3, pre-releases
// -300/-200/-100 + n. Uses a private install root through ASCEND_HOME_PATH.
class ApiVersionNumTest : public ApiVersionTest {
 protected:
  void SetUp() override {
    ApiVersionTest::SetUp();
    root_ = ::testing::TempDir() + "/simnpu_api_version_" + std::to_string(getpid());
    std::filesystem::create_directories(root_ + "/share/info/my_pkg");
    const char* old = std::getenv("ASCEND_HOME_PATH");
    had_old_ = old != nullptr;
    if (old) old_ = old;
    setenv("ASCEND_HOME_PATH", root_.c_str(), 1);
  }
  void TearDown() override {
    if (had_old_)
      setenv("ASCEND_HOME_PATH", old_.c_str(), 1);
    else
      unsetenv("ASCEND_HOME_PATH");
    std::filesystem::remove_all(root_);
    ApiVersionTest::TearDown();
  }
  void WriteVersion(const std::string& v) {
    std::ofstream f(root_ + "/share/info/my_pkg/version.info", std::ios::trunc);
    f << "Version=" << v << "\nversion_dir=" << v << "\n";
  }
  int32_t Num(const char* name = "my_pkg") {
    std::string n = name;
    int32_t num = -1;
    EXPECT_ACL_OK(aclsysGetVersionNum(n.data(), &num)) << name;
    return num;
  }
  std::string root_, old_;
  bool had_old_ = false;
};

TEST_F(ApiVersionNumTest, Release) {
  WriteVersion("8.5.0");
  EXPECT_EQ(80500000, Num());
  char ver[ACL_PKG_VERSION_MAX_SIZE];
  std::string n = "my_pkg";
  EXPECT_ACL_OK(aclsysGetVersionStr(n.data(), ver));
  EXPECT_STREQ("8.5.0", ver);
}

TEST_F(ApiVersionNumTest, PreReleases) {
  WriteVersion("9.0.0-beta.1");
  EXPECT_EQ(90000000 - 200 + 1, Num());
  WriteVersion("9.0.0-alpha.2");
  EXPECT_EQ(90000000 - 300 + 2, Num());
  WriteVersion("9.0.0-rc.3");
  EXPECT_EQ(90000000 - 100 + 3, Num());
}

TEST_F(ApiVersionNumTest, DashAndUnderscoreSpellings) {
  WriteVersion("8.1.2");
  EXPECT_EQ(80102000, Num("my-pkg"));
  EXPECT_EQ(80102000, Num("my_pkg"));
}

// version.info is user data: a part of any length, or a number that does
// not fit the int32_t result, is a parse error (ACL_ERROR_PARSE_FILE), never
// an exception escaping the C API.
TEST_F(ApiVersionNumTest, OversizedPartsAreParseErrors) {
  std::string n = "my_pkg";
  for (const char* v : {"99999999999999999999999999.0.0", "8.99999999999999999999999999", "8.5.123456789012345678901",
                        "8.5.0-rc.99999999999999999999999", "8.0.RC99999999999999999999999", "1000000.0.0",
                        "215.0.0"}) {
    WriteVersion(v);
    int32_t num = 12345;
    EXPECT_ACL(ACL_ERROR_PARSE_FILE, aclsysGetVersionNum(n.data(), &num)) << v;
    EXPECT_EQ(12345, num) << v;
    EXPECT_FALSE(TakeErrMsg().empty()) << v;
  }
  // The largest numbers that still fit are accepted.
  WriteVersion("214.74.83");
  EXPECT_EQ(2147483000, Num());
  WriteVersion("8.0.RC1");
  EXPECT_EQ(80000000 - 100 + 1, Num());
}

TEST_F(ApiVersionTest, CannAttributeList) {
  const aclCannAttr* list = nullptr;
  size_t num = 0;
  ASSERT_EQ(ACL_SUCCESS, aclGetCannAttributeList(&list, &num));
  ASSERT_NE(nullptr, list);
  // Runtime 8.5 on Ascend910B1 (bf16 and inf/nan capable): all three.
  std::set<int> got(list, list + num);
  EXPECT_EQ(3u, num);
  EXPECT_TRUE(got.count(ACL_CANN_ATTR_INF_NAN));
  EXPECT_TRUE(got.count(ACL_CANN_ATTR_BF16));
  EXPECT_TRUE(got.count(ACL_CANN_ATTR_JIT_COMPILE));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclGetCannAttributeList(nullptr, &num));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclGetCannAttributeList(&list, nullptr));
}

TEST_F(ApiVersionTest, CannAttribute) {
  for (aclCannAttr a : {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE}) {
    int32_t v = -1;
    EXPECT_ACL_OK(aclGetCannAttribute(a, &v)) << a;
    EXPECT_EQ(1, v) << a;
  }
  int32_t v = -1;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &v));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclGetCannAttribute(static_cast<aclCannAttr>(77), &v));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclGetCannAttribute(ACL_CANN_ATTR_BF16, nullptr));
}

TEST_F(ApiVersionTest, CheckArchCompatibility) {
  int32_t ok = -1;
  EXPECT_ACL_OK(aclrtCheckArchCompatibility("Ascend910B4", &ok));
  EXPECT_EQ(1, ok);
  ok = -1;
  EXPECT_ACL_OK(aclrtCheckArchCompatibility("Ascend910_9391", &ok));  // A3: same arch 2201
  EXPECT_EQ(1, ok);
  ok = -1;
  EXPECT_ACL_OK(aclrtCheckArchCompatibility("Ascend910A", &ok));
  EXPECT_EQ(0, ok);
  ok = -1;
  EXPECT_ACL_OK(aclrtCheckArchCompatibility("Ascend910B", &ok));  // the old C100 part
  EXPECT_EQ(0, ok);
  ok = -1;
  EXPECT_ACL_OK(aclrtCheckArchCompatibility("Ascend950PR_9599", &ok));
  EXPECT_EQ(0, ok);
  ClearErrorState();
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtCheckArchCompatibility("NoSuchSoc", &ok));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  // Exact, case-sensitive names.
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtCheckArchCompatibility("ascend910b4", &ok));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtCheckArchCompatibility(nullptr, &ok));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtCheckArchCompatibility("Ascend910B4", nullptr));
}

TEST_F(ApiVersionTest, DeviceCapability) {
  int32_t v = -1;
  EXPECT_ACL_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &v));
  EXPECT_EQ(ACL_DEV_FEATURE_SUPPORT, v);
  v = -1;
  EXPECT_ACL_OK(aclrtGetDeviceCapability(1, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &v));
  EXPECT_EQ(ACL_DEV_FEATURE_SUPPORT, v);
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM,
             aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, nullptr));
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID,
             aclrtGetDeviceCapability(8, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &v));
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID,
             aclrtGetDeviceCapability(-1, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &v));
}

TEST_F(ApiVersionTest, AclGetDeviceCapability) {
  int64_t v = -1;
  EXPECT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &v));
  EXPECT_EQ(24, v);
  EXPECT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &v));
  EXPECT_EQ(48, v);
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, nullptr));
}

}  // namespace
