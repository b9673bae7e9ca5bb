// mstx (mstx/ms_tools_ext.h): markers, ranges and domains reach the trace
// through the injection library (MSTX_INJECTION_PATH = libprofapi.so, set
// for this binary by CMake, as msprof sets it); a domain named in
// SIMNPU_MSTX_DOMAIN_EXCLUDE (here "hidden") records nothing.
#include "mstx/ms_tools_ext.h"

#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "profiling/prof_test_util.h"

using namespace proftest;

TEST(Mstx, MarkersRangesAndDomainsReachTheTrace) {
  const char* base = std::getenv("SIMNPU_PROFILE");
  ASSERT_NE(base, nullptr);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  mstxMarkA("plain mark", nullptr);
  mstxRangeId r = mstxRangeStartA("plain range", nullptr);
  EXPECT_NE(r, 0u);
  mstxDomainHandle_t d = mstxDomainCreateA("DoAclAdd_Inner");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(mstxDomainCreateA("DoAclAdd_Inner"), d);  // same name, same handle
  EXPECT_EQ(mstxDomainCreateA("bad name!"), nullptr);
  mstxDomainMarkA(d, "domain mark", nullptr);
  mstxRangeId dr = mstxDomainRangeStartA(d, "domain range", nullptr);
  EXPECT_NE(dr, 0u);
  mstxDomainRangeEnd(d, dr);
  mstxDomainHandle_t hidden = mstxDomainCreateA("hidden");
  mstxDomainMarkA(hidden, "hidden mark", nullptr);
  EXPECT_EQ(mstxDomainRangeStartA(hidden, "hidden range", nullptr), 0u);
  mstxRangeEnd(r);
  mstxDomainDestroy(d);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);

  nlohmann::json t;
  for (auto& s : Sessions(base)) {
    // (other tests of this binary share the directory and may be writing
    // their own session right now: only complete traces are considered)
    const std::string f = FileWithPrefix(s + "/mindstudio_profiler_output", "msprof_");
    if (f.empty()) continue;
    nlohmann::json j = nlohmann::json::parse(Slurp(f), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) continue;
    if (j["traceEvents"].dump().find("\"Host (pid " + std::to_string(getpid()) + ")\"") != std::string::npos) t = j;
  }
  ASSERT_FALSE(t.is_null());
  auto mark = Named(t, "plain mark");
  ASSERT_EQ(mark.size(), 1u);
  EXPECT_EQ(mark[0]["ph"], "i");
  EXPECT_EQ(mark[0]["args"]["domain"], "default");
  auto range = Named(t, "plain range");
  ASSERT_EQ(range.size(), 1u);
  EXPECT_EQ(range[0]["ph"], "X");
  auto dm = Named(t, "domain mark");
  ASSERT_EQ(dm.size(), 1u);
  EXPECT_EQ(dm[0]["args"]["domain"], "DoAclAdd_Inner");
  auto drange = Named(t, "domain range");
  ASSERT_EQ(drange.size(), 1u);
  // The domain range lies inside the plain range.
  EXPECT_GE(drange[0]["ts"].get<double>(), range[0]["ts"].get<double>());
  EXPECT_LE(drange[0]["ts"].get<double>() + drange[0]["dur"].get<double>(),
            range[0]["ts"].get<double>() + range[0]["dur"].get<double>());
  EXPECT_TRUE(Named(t, "hidden mark").empty());
  EXPECT_TRUE(Named(t, "hidden range").empty());
}

// Run by the next test in a fresh process without MSTX_INJECTION_PATH.
TEST(Mstx, DISABLED_NoInjectionChild) {
  mstxMarkA("x", nullptr);
  EXPECT_EQ(mstxRangeStartA("y", nullptr), 0u);
  EXPECT_EQ(mstxDomainCreateA("d"), nullptr);
  mstxRangeEnd(0);
}

TEST(Mstx, WithoutAnInjectionLibraryEveryCallIsANoOp) {
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    unsetenv("MSTX_INJECTION_PATH");
    unsetenv("SIMNPU_PROFILE");  // a SIMNPU_PROFILE session would point mstx at libprofapi.so itself
    execl("/proc/self/exe", "mstx_child", "--gtest_also_run_disabled_tests",
          "--gtest_filter=Mstx.DISABLED_NoInjectionChild", static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}
