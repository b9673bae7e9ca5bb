// The profiling API (acl/acl_prof.h): codes and call-order rules, and a
// session's trace and CSVs checked against what the program did.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <regex>
#include <thread>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "profiling/prof_test_util.h"
#include "simnpu/uvm.h"

using namespace proftest;

namespace {

constexpr size_t kBlock = 2u << 20;

simnpu_uvm_counters Counters() {
  simnpu_uvm_counters c;
  simnpu_uvm_get_counters(&c, sizeof c);
  return c;
}

aclprofConfig* TaskConfig(uint64_t mask = ACL_PROF_ACL_API | ACL_PROF_TASK_TIME) {
  uint32_t dev = 0;
  return aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, nullptr, mask);
}

}  // namespace

TEST(ProfApi, InitChecksItsArguments) {
  const std::string dir = ScratchDir("prof_init");
  EXPECT_EQ(aclprofInit(nullptr, 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofInit(dir.c_str(), 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofInit(dir.c_str(), dir.size() + 1), ACL_ERROR_INVALID_PARAM);
  std::string longpath(4096, 'a');
  EXPECT_EQ(aclprofInit(longpath.c_str(), longpath.size()), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofInit("a|b", 3), ACL_ERROR_INVALID_FILE);
  EXPECT_EQ(aclprofInit(dir.c_str(), dir.size()), ACL_SUCCESS);
  EXPECT_EQ(aclprofInit(dir.c_str(), dir.size()), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS);  // not initialised: a no-op
  EXPECT_EQ(aclprofInit(dir.c_str(), dir.size()), ACL_SUCCESS);  // again after Finalize
  EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS);
  EXPECT_TRUE(Sessions(dir).empty());  // no session was started
}

TEST(ProfApi, DynamicProfilingModeIsUnsupported) {
  setenv("PROFILING_MODE", "dynamic", 1);
  EXPECT_EQ(aclprofInit("./x", 3), ACL_ERROR_FEATURE_UNSUPPORTED);
  unsetenv("PROFILING_MODE");
}

TEST(ProfApi, CreateConfigRefusesBadDeviceLists) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  uint32_t devs[3] = {0, 0, 1};
  EXPECT_EQ(aclprofCreateConfig(nullptr, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_ACL_API), nullptr);
  EXPECT_EQ(aclprofCreateConfig(devs, 1, ACL_AICORE_NONE, reinterpret_cast<const aclprofAicoreEvents*>(devs),
                                ACL_PROF_ACL_API),
            nullptr);
  EXPECT_EQ(aclprofCreateConfig(devs, 3, ACL_AICORE_NONE, nullptr, ACL_PROF_ACL_API), nullptr);  // > 2 devices
  EXPECT_EQ(aclprofCreateConfig(devs, 2, ACL_AICORE_NONE, nullptr, ACL_PROF_ACL_API), nullptr);  // duplicate
  uint32_t bad = 8;
  EXPECT_EQ(aclprofCreateConfig(&bad, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_ACL_API), nullptr);
  EXPECT_EQ(aclprofCreateConfig(nullptr, 0, ACL_AICORE_NONE, nullptr, ACL_PROF_ACL_API), nullptr);
  aclprofConfig* tx = aclprofCreateConfig(nullptr, 0, ACL_AICORE_NONE, nullptr, ACL_PROF_MSPROFTX);
  EXPECT_NE(tx, nullptr);
  aclprofConfig* two = aclprofCreateConfig(devs + 1, 2, ACL_AICORE_NONE, nullptr, ACL_PROF_ACL_API);
  EXPECT_NE(two, nullptr);
  EXPECT_NE(aclGetRecentErrMsg(), nullptr);
  EXPECT_EQ(aclprofDestroyConfig(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofDestroyConfig(tx), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroyConfig(tx), ACL_ERROR_INVALID_PARAM);  // already destroyed
  EXPECT_EQ(aclprofDestroyConfig(two), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(ProfApi, SetConfigChecksTypesLengthsAndRanges) {
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_ARGS_MIN, "1", 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_ARGS_MAX, "1", 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 1), ACL_ERROR_INVALID_PARAM);
  std::string big(257, '1');
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, big.c_str(), big.size()), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 2), ACL_SUCCESS);  // before aclprofInit: kept
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "0", 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "101", 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "200MB", 5), ACL_SUCCESS);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "199MB", 5), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "300", 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_LLC_MODE, "read", 4), ACL_SUCCESS);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_LLC_MODE, "both", 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_HOST_SYS_USAGE_FREQ, "50", 2), ACL_SUCCESS);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_HOST_SYS_USAGE_FREQ, "51", 2), ACL_ERROR_INVALID_PARAM);
}

TEST(ProfApi, StartStopFollowTheCallOrder) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  aclprofConfig* cfg = TaskConfig();
  ASSERT_NE(cfg, nullptr);
  EXPECT_EQ(aclprofStop(cfg), ACL_ERROR_PROF_NOT_RUN);  // before aclprofInit
  const std::string dir = ScratchDir("prof_order");
  ASSERT_EQ(aclprofInit(dir.c_str(), dir.size()), ACL_SUCCESS);
  EXPECT_EQ(aclprofStart(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofStop(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofStop(cfg), ACL_ERROR_PROF_NOT_RUN);
  aclprofConfig* odd = TaskConfig(ACL_PROF_ACL_API | (1ULL << 40));
  ASSERT_NE(odd, nullptr);
  EXPECT_EQ(aclprofStart(odd), ACL_ERROR_PROF_MODULES_UNSUPPORTED);
  EXPECT_EQ(aclprofStart(cfg), ACL_SUCCESS);
  EXPECT_EQ(aclprofStart(cfg), ACL_ERROR_PROF_ALREADY_RUN);
  EXPECT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  EXPECT_EQ(aclprofStop(cfg), ACL_ERROR_PROF_NOT_RUN);
  EXPECT_EQ(aclprofStart(cfg), ACL_SUCCESS);  // a second session
  EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS);  // ends it
  EXPECT_EQ(aclprofDestroyConfig(cfg), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroyConfig(odd), ACL_SUCCESS);
  auto s = Sessions(dir);
  ASSERT_EQ(s.size(), 2u);
  const std::regex name(".*/PROF_00000[12]_[0-9]{17}_[0-9]{8}[A-R]{8}$");
  for (auto& d : s) {
    EXPECT_TRUE(std::regex_match(d, name)) << d;
    EXPECT_FALSE(FileWithPrefix(d + "/mindstudio_profiler_output", "msprof_").empty());
    EXPECT_FALSE(FileWithPrefix(d + "/mindstudio_profiler_output", "README").empty());
  }
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

// Stream tasks, copies, memsets, host functions, events and unified-memory
// faults all appear in the trace with their sizes, and the CSV totals equal
// the runtime's own counters.
TEST(ProfApi, SessionTraceMatchesTheWork) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  int32_t stream_id = -1;
  ASSERT_EQ(aclrtStreamGetId(s, &stream_id), ACL_SUCCESS);
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 4096), ACL_SUCCESS);
  std::memset(host, 7, 4096);
  aclrtEvent ev = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);

  const std::string dir = ScratchDir("prof_session");
  ASSERT_EQ(aclprofInit(dir.c_str(), dir.size()), ACL_SUCCESS);
  aclprofConfig* cfg = TaskConfig();
  simnpu_uvm_reset_counters();
  ASSERT_EQ(aclprofStart(cfg), ACL_SUCCESS);

  char* m = nullptr;
  ASSERT_EQ(aclrtMemAllocManaged(reinterpret_cast<void**>(&m), kBlock, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS);
  std::memset(m, 1, kBlock);  // host fault: first touch
  ASSERT_EQ(aclrtMemsetAsync(dev, 1 << 20, 3, 1 << 20, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dev, 1 << 20, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  static int calls = 0;
  ASSERT_EQ(aclrtLaunchHostFunc(s, [](void*) { ++calls; }, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(ev, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedPrefetchAsync(m, kBlock, aclrtMemManagedLocation{ACL_MEM_LOCATIONTYPE_DEVICE, 0}, 0, s),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  volatile char sink = m[100];  // host fault: back from the device
  (void)sink;
  const simnpu_uvm_counters c = Counters();
  ASSERT_EQ(aclrtFree(m), ACL_SUCCESS);
  ASSERT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);
  ASSERT_EQ(aclprofDestroyConfig(cfg), ACL_SUCCESS);
  EXPECT_EQ(calls, 1);

  auto sessions = Sessions(dir);
  ASSERT_EQ(sessions.size(), 1u);
  nlohmann::json t = LoadTrace(sessions[0]);
  // memset and copy: on the stream's lane, with their sizes.
  auto memsets = Named(t, "memset_async");
  ASSERT_EQ(memsets.size(), 1u);
  EXPECT_EQ(memsets[0]["pid"], 100);
  EXPECT_EQ(memsets[0]["tid"], stream_id);
  EXPECT_EQ(memsets[0]["args"]["bytes"], 1 << 20);
  EXPECT_EQ(memsets[0]["args"]["value"], 3);
  auto copies = Named(t, "memcpy_async");
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0]["args"]["bytes"], 4096);
  EXPECT_EQ(copies[0]["args"]["direction"], "host to device");
  EXPECT_EQ(Named(t, "host_func").size(), 1u);
  EXPECT_EQ(Named(t, "event_record").size(), 1u);
  EXPECT_EQ(Named(t, "aclrtMemcpyAsync").size(), 1u);
  EXPECT_EQ(Named(t, "aclrtLaunchHostFunc").size(), 1u);
  // Stream tasks in submission order.
  EXPECT_LT(memsets[0]["ts"].get<double>(), copies[0]["ts"].get<double>());
  // Unified memory: allocation, first-touch fault, prefetch migration, fault back.
  auto faults = Named(t, "host fault");
  ASSERT_EQ(faults.size(), c.host_faults);
  ASSERT_EQ(faults.size(), 2u);
  auto migrations = Named(t, "migrate");
  ASSERT_EQ(migrations.size(), 2u);
  EXPECT_EQ(migrations[0]["args"]["cause"], "prefetch");
  EXPECT_EQ(migrations[0]["args"]["to"], "device 0");
  EXPECT_EQ(migrations[0]["args"]["bytes"], kBlock);
  EXPECT_EQ(migrations[1]["args"]["to"], "host");
  EXPECT_LT(faults[0]["ts"].get<double>(), migrations[0]["ts"].get<double>());
  EXPECT_LT(migrations[0]["ts"].get<double>(), faults[1]["ts"].get<double>());
  EXPECT_EQ(Named(t, "managed alloc").size(), 1u);
  EXPECT_EQ(Named(t, "managed free").size(), 1u);
  // Resident bytes end at zero on both sides after the free.
  int64_t host_res = -1, dev_res = -1;
  for (auto& e : Named(t, "resident bytes")) {
    if (e["args"].contains("host")) host_res = e["args"]["host"];
    if (e["args"].contains("device 0")) dev_res = e["args"]["device 0"];
  }
  EXPECT_EQ(host_res, 0);
  EXPECT_EQ(dev_res, 0);

  // CSV totals equal the counters.
  auto u = UvmSummary(sessions[0]);
  EXPECT_EQ(u["host_faults"], c.host_faults);
  EXPECT_EQ(u["device_faults"], c.device_faults);
  EXPECT_EQ(u["bytes_h2d"], c.bytes_h2d);
  EXPECT_EQ(u["bytes_d2h"], c.bytes_d2h);
  EXPECT_EQ(u["bytes_populated_host"], c.pages_populated_host * 4096);
  EXPECT_EQ(u["managed_allocations"], 1u);
  auto api = LoadCsv(sessions[0], "api_statistic_");
  ASSERT_GE(api.size(), 2u);
  EXPECT_EQ(api[0][0], "Level");
  bool found = false;
  for (auto& row : api)
    if (row.size() == 7 && row[1] == "aclrtMemsetAsync") {
      found = true;
      EXPECT_EQ(row[2], "1");
    }
  EXPECT_TRUE(found);
  auto tasks = LoadCsv(sessions[0], "task_time_");
  size_t memset_rows = 0;
  for (auto& row : tasks)
    if (row.size() == 7 && row[3] == "memset") {
      ++memset_rows;
      EXPECT_EQ(row[6], std::to_string(1 << 20));
    }
  EXPECT_EQ(memset_rows, 1u);

  ASSERT_EQ(aclrtDestroyEvent(ev), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

// A forked child does not own the parent's session: it neither records into
// it nor can stop (and write) it.
TEST(ProfApi, AForkedChildLeavesTheSessionToItsParent) {
  const std::string dir = ScratchDir("prof_fork");
  ASSERT_EQ(aclprofInit(dir.c_str(), dir.size()), ACL_SUCCESS);
  aclprofConfig* cfg = aclprofCreateConfig(nullptr, 0, ACL_AICORE_NONE, nullptr, ACL_PROF_MSPROFTX);
  ASSERT_EQ(aclprofStart(cfg), ACL_SUCCESS);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const bool ok = aclprofCreateStamp() == nullptr && aclprofStop(cfg) == ACL_ERROR_PROF_NOT_RUN;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  void* stamp = aclprofCreateStamp();  // the parent still records
  ASSERT_NE(stamp, nullptr);
  aclprofDestroyStamp(stamp);
  EXPECT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS);
  aclprofDestroyConfig(cfg);
}

TEST(ProfApi, NothingIsRecordedOutsideASession) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const std::string dir = ScratchDir("prof_outside");
  ASSERT_EQ(aclprofInit(dir.c_str(), dir.size()), ACL_SUCCESS);
  void* p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);  // before Start
  aclprofConfig* cfg = TaskConfig();
  ASSERT_EQ(aclprofStart(cfg), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(p, 4096, 0, 4096), ACL_SUCCESS);
  ASSERT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(p), ACL_SUCCESS);  // after Stop
  ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);
  nlohmann::json t = LoadTrace(Sessions(dir).at(0));
  EXPECT_EQ(Named(t, "aclrtMalloc").size(), 0u);
  EXPECT_EQ(Named(t, "aclrtMemset").size(), 1u);
  EXPECT_EQ(Named(t, "aclrtFree").size(), 0u);
  auto sets = Named(t, "memset");
  ASSERT_EQ(sets.size(), 1u);  // the synchronous fill, on the calling thread
  EXPECT_EQ(sets[0]["pid"], 0);
  EXPECT_EQ(sets[0]["args"]["bytes"], 4096);
  aclprofDestroyConfig(cfg);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

// A replayed task graph is one "graph replay" span on its stream (args: the
// model's id), with each replayed task its own span inside it.
TEST(ProfApi, GraphReplayIsASpanHoldingItsTasks) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  void* p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 8192, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(p, 8192, 1, 4096, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(static_cast<char*>(p) + 4096, 4096, 2, 4096, s), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(s, &model), ACL_SUCCESS);
  uint32_t model_id = 0;
  ASSERT_EQ(aclmdlRIGetId(model, &model_id), ACL_SUCCESS);

  const std::string dir = ScratchDir("prof_graph");
  ASSERT_EQ(aclprofInit(dir.c_str(), dir.size()), ACL_SUCCESS);
  aclprofConfig* cfg = TaskConfig();
  ASSERT_EQ(aclprofStart(cfg), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  ASSERT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);
  std::vector<unsigned char> back(8192);
  ASSERT_EQ(aclrtMemcpy(back.data(), back.size(), p, 8192, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(back[0], 1);
  EXPECT_EQ(back[8191], 2);

  nlohmann::json t = LoadTrace(Sessions(dir).at(0));
  auto replay = Named(t, "graph replay");
  ASSERT_EQ(replay.size(), 1u);
  EXPECT_EQ(replay[0]["ph"], "X");
  EXPECT_EQ(replay[0]["args"]["model id"], model_id);
  const double r0 = replay[0]["ts"].get<double>(), r1 = r0 + replay[0]["dur"].get<double>();
  auto sets = Named(t, "memset_async");
  ASSERT_EQ(sets.size(), 2u);
  for (auto& m : sets) {
    EXPECT_EQ(m["args"]["bytes"], 4096);
    EXPECT_EQ(m["tid"], replay[0]["tid"]);  // on the executing stream's track
    EXPECT_GE(m["ts"].get<double>(), r0);
    EXPECT_LE(m["ts"].get<double>() + m["dur"].get<double>(), r1 + 0.001);
  }
  aclprofDestroyConfig(cfg);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

// Pages resident before the session started count from the start.
TEST(ProfApi, ResidentBytesStartFromWhatIsResidentAtStart) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  char* m = nullptr;
  ASSERT_EQ(aclrtMemAllocManaged(reinterpret_cast<void**>(&m), 2 * kBlock, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS);
  std::memset(m, 1, 2 * kBlock);  // 4 MiB on the host before the session
  const std::string dir = ScratchDir("prof_baseline");
  ASSERT_EQ(aclprofInit(dir.c_str(), dir.size()), ACL_SUCCESS);
  aclprofConfig* cfg = TaskConfig();
  ASSERT_EQ(aclprofStart(cfg), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(m), ACL_SUCCESS);
  ASSERT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);
  aclprofDestroyConfig(cfg);
  auto counters = Named(LoadTrace(Sessions(dir).at(0)), "resident bytes");
  std::vector<int64_t> host;
  for (auto& e : counters)
    if (e["args"].contains("host")) host.push_back(e["args"]["host"]);
  ASSERT_EQ(host.size(), 3u);  // the baseline, then one block freed, then the other
  EXPECT_EQ(host[0], static_cast<int64_t>(2 * kBlock));
  EXPECT_EQ(host[1], static_cast<int64_t>(kBlock));
  EXPECT_EQ(host[2], 0);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(ProfApi, MsproftxStampsRangesAndSteps) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclprofCreateStamp(), nullptr);  // before aclprofStart
  EXPECT_EQ(aclprofMark(nullptr), -1);
  EXPECT_EQ(aclprofPop(), -1);
  const std::string dir = ScratchDir("prof_tx");
  ASSERT_EQ(aclprofInit(dir.c_str(), dir.size()), ACL_SUCCESS);
  aclprofConfig* cfg = aclprofCreateConfig(nullptr, 0, ACL_AICORE_NONE, nullptr, ACL_PROF_MSPROFTX);
  ASSERT_NE(cfg, nullptr);
  ASSERT_EQ(aclprofStart(cfg), ACL_SUCCESS);
  void* a = aclprofCreateStamp();
  void* b = aclprofCreateStamp();
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  std::string too_long(128, 'x');
  EXPECT_EQ(aclprofSetStampTraceMessage(a, too_long.c_str(), 128), -1);
  EXPECT_EQ(aclprofSetStampTraceMessage(nullptr, "m", 1), -1);
  int not_a_stamp = 0;
  EXPECT_EQ(aclprofMark(&not_a_stamp), -1);
  EXPECT_EQ(aclprofSetStampTraceMessage(a, "outer", 5), ACL_SUCCESS);
  EXPECT_EQ(aclprofSetStampTraceMessage(b, "instant", 7), ACL_SUCCESS);
  aclprofStepInfo* step = aclprofCreateStepInfo();
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(aclprofGetStepTimestamp(step, ACL_STEP_START, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclprofGetStepTimestamp(step, ACL_STEP_START, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofPush(a), ACL_SUCCESS);
  EXPECT_EQ(aclprofMark(b), ACL_SUCCESS);
  uint32_t id = 0;
  EXPECT_EQ(aclprofRangeStart(b, &id), ACL_SUCCESS);
  EXPECT_NE(id, 0u);
  std::thread([id] { EXPECT_EQ(aclprofRangeStop(id), ACL_SUCCESS); }).join();  // another thread may stop it
  EXPECT_EQ(aclprofRangeStop(id), -1);
  EXPECT_EQ(aclprofPop(), ACL_SUCCESS);
  EXPECT_EQ(aclprofPop(), -1);
  EXPECT_EQ(aclprofGetStepTimestamp(step, ACL_STEP_END, nullptr), ACL_SUCCESS);
  aclprofDestroyStepInfo(step);
  EXPECT_EQ(aclprofMarkEx("ex mark", 7, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclprofMarkEx("ex mark", 3, nullptr), ACL_ERROR_INVALID_PARAM);
  aclprofDestroyStamp(a);
  aclprofDestroyStamp(b);
  EXPECT_EQ(aclprofMark(a), -1);  // destroyed
  ASSERT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);
  aclprofDestroyConfig(cfg);

  nlohmann::json t = LoadTrace(Sessions(dir).at(0));
  auto outer = Named(t, "outer");
  auto inst = Named(t, "instant");
  ASSERT_EQ(outer.size(), 1u);
  EXPECT_EQ(outer[0]["ph"], "X");
  ASSERT_EQ(inst.size(), 2u);  // the mark and the range
  const double o0 = outer[0]["ts"], o1 = o0 + outer[0]["dur"].get<double>();
  for (auto& e : inst) {
    EXPECT_GE(e["ts"].get<double>(), o0);
    EXPECT_LE(e["ts"].get<double>(), o1);
  }
  EXPECT_EQ(Named(t, "step start").size(), 1u);
  EXPECT_EQ(Named(t, "step end").size(), 1u);
  EXPECT_EQ(Named(t, "ex mark").size(), 1u);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(ProfApi, UnsubscribeClosesThePipeEvenWithoutAModel) {
  int fd[2];
  ASSERT_EQ(pipe(fd), 0);
  EXPECT_EQ(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, nullptr), nullptr);
  aclprofSubscribeConfig* cfg = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fd[1]);
  ASSERT_NE(cfg, nullptr);
  EXPECT_EQ(aclprofModelSubscribe(0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofModelSubscribe(0, cfg), ACL_ERROR_INVALID_MODEL_ID);
  EXPECT_EQ(aclprofModelUnSubscribe(7), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofModelUnSubscribe(0), ACL_SUCCESS);
  char buf[80];
  EXPECT_EQ(read(fd[0], buf, sizeof buf), 0);  // EOF: the write end was closed
  close(fd[0]);
  EXPECT_EQ(aclprofDestroySubscribeConfig(cfg), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroySubscribeConfig(nullptr), ACL_ERROR_INVALID_PARAM);
  size_t n = 0;
  EXPECT_EQ(aclprofGetOpDescSize(&n), ACL_SUCCESS);
  EXPECT_EQ(n, 80u);
  EXPECT_EQ(aclprofGetOpDescSize(nullptr), ACL_ERROR_INVALID_PARAM);
  std::vector<char> zeros(240, 0);
  uint32_t ops = 0;
  EXPECT_EQ(aclprofGetOpNum(zeros.data(), 240, &ops), ACL_SUCCESS);
  EXPECT_EQ(ops, 3u);
  EXPECT_EQ(aclprofGetOpNum(zeros.data(), 81, &ops), ACL_ERROR_INVALID_PARAM);
  size_t len = 0;
  EXPECT_EQ(aclprofGetOpNameLen(zeros.data(), 240, 0, &len), ACL_ERROR_INVALID_PARAM);  // no valid record
  EXPECT_EQ(aclprofGetOpStart(zeros.data(), 240, 0), 0u);
  EXPECT_EQ(aclprofGetOpFlag(zeros.data(), 240, 0), ACL_SUBSCRIBE_NONE);
}
