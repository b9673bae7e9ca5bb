// Profiling without code changes: SIMNPU_PROFILE (set for this binary by
// CMake) records from the start; aclFinalize writes the session; the API
// cannot take over while the command line owns profiling.
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "profiling/prof_test_util.h"

using namespace proftest;

TEST(ProfEnv, CommandLineSessionWritesAtFinalize) {
  const char* base = std::getenv("SIMNPU_PROFILE");
  ASSERT_NE(base, nullptr);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclprofInit("./p", 3), ACL_ERROR_PROF_ALREADY_RUN);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(p), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  // The session started when the library was loaded (its directory exists
  // from then on); find the one this process wrote.
  auto s = Sessions(base);
  nlohmann::json t;
  bool found = false;
  for (auto& d : s) {
    nlohmann::json j = LoadTrace(d);
    if (j["traceEvents"].dump().find("\"Host (pid " + std::to_string(getpid()) + ")\"") != std::string::npos) {
      t = j;
      found = true;
    }
  }
  ASSERT_TRUE(found);
  EXPECT_EQ(Named(t, "aclrtMalloc").size(), 1u);
  EXPECT_EQ(Named(t, "aclrtFree").size(), 1u);
  EXPECT_EQ(Named(t, "aclrtSetDevice").size(), 1u);
}
