// Unit tests of the dfx profiling rooms (recorder, writers, subscription
// records, dump format and configuration), linked against the static dfx
// library.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "dfx/dump/dump.h"
#include "dfx/prof/subscription.h"
#include "dfx/prof/trace_writer.h"
#include "dfx/trace/chunk_pool.h"
#include "dfx/trace/trace.h"
#include "dfx/trace/trace_clock.h"
#include "platform/clock.h"
#include "profiling/prof_test_util.h"

namespace tr = simnpu::dfx::trace;
namespace prof = simnpu::dfx::prof;
namespace dump = simnpu::dfx::dump;

TEST(TraceRecorder, EveryThreadsEventsComeBackSorted) {
  ASSERT_TRUE(tr::Start(tr::kCatAll));
  EXPECT_FALSE(tr::Start(tr::kCatAll));  // one session at a time
  constexpr int kThreads = 4, kEach = 40000;  // more than one 2 MiB chunk (32768 events) per thread
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t)
    ts.emplace_back([t] {
      for (int i = 0; i < kEach; ++i) tr::RecordInstant(tr::Kind::kTxMark, -1, t % 2 ? "odd" : "even", t, i);
    });
  for (auto& t : ts) t.join();
  auto cap = tr::Stop();
  EXPECT_FALSE(tr::On(tr::kCatAll));
  ASSERT_EQ(cap->events.size(), static_cast<size_t>(kThreads * kEach));
  EXPECT_EQ(cap->dropped, 0u);
  std::vector<int> seen(kThreads, 0);
  for (size_t i = 0; i < cap->events.size(); ++i) {
    if (i) EXPECT_LE(cap->events[i - 1].ts, cap->events[i].ts);
    const auto& e = cap->events[i];
    EXPECT_EQ(cap->name(e.name), e.a % 2 ? "odd" : "even");
    ++seen[e.a];
  }
  for (int n : seen) EXPECT_EQ(n, kEach);
  tr::RecordInstant(tr::Kind::kTxMark, -1, "after");  // not recording: dropped silently
  EXPECT_TRUE(tr::Stop()->events.empty());
}

TEST(TraceRecorder, TheEventCapCountsDroppedEvents) {
  setenv("SIMNPU_PROFILE_MAX_EVENTS", "100", 1);
  ASSERT_TRUE(tr::Start(tr::kCatTx));
  for (int i = 0; i < 150; ++i) tr::RecordInstant(tr::Kind::kTxMark, -1, "m");
  auto cap = tr::Stop();
  unsetenv("SIMNPU_PROFILE_MAX_EVENTS");
  EXPECT_EQ(cap->events.size(), 100u);
  EXPECT_EQ(cap->dropped, 50u);
}

// Events are stamped with the cheap trace clock while recording and come
// out of Stop() in ns of platform::NowNs: an event recorded between two
// NowNs readings lands between them (the slack only covers a preempted
// calibration read; a tick/ns mix-up would be off by a factor of ~3).
TEST(TraceClock, RecordedTimesComeBackInMonotonicNs) {
  constexpr uint64_t kSlackNs = 50000;
  ASSERT_TRUE(tr::Start(tr::kCatAll));
  std::vector<std::pair<uint64_t, uint64_t>> brackets;
  for (int i = 0; i < 100; ++i) {
    const uint64_t t0 = simnpu::platform::NowNs();
    tr::RecordInstant(tr::Kind::kTxMark, -1, "mark", static_cast<uint64_t>(i));
    const uint64_t t1 = simnpu::platform::NowNs();
    brackets.emplace_back(t0, t1);
  }
  const uint64_t s0 = simnpu::platform::NowNs();
  {
    tr::TaskSpan span(0, 1, "task");
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  const uint64_t s1 = simnpu::platform::NowNs();
  // An event given in ns (RecordNs) keeps its times exactly.
  tr::GraphReplay(0, 1, 7, s0 + 10, s0 + 1010);
  auto cap = tr::Stop();
  size_t marks = 0;
  bool task = false, replay = false;
  for (const auto& e : cap->events) {
    if (e.kind == tr::Kind::kTxMark) {
      const auto& b = brackets.at(e.a);
      EXPECT_GE(e.ts + kSlackNs, b.first) << e.a;
      EXPECT_LE(e.ts, b.second + kSlackNs) << e.a;
      EXPECT_EQ(e.dur, 0u);
      ++marks;
    } else if (e.kind == tr::Kind::kTask) {
      task = true;
      EXPECT_GE(e.ts + kSlackNs, s0);
      EXPECT_LE(e.ts + e.dur, s1 + kSlackNs);
      EXPECT_GE(e.dur + kSlackNs, 2000000u);  // it slept 2 ms
    } else if (e.kind == tr::Kind::kGraphReplay) {
      replay = true;
      EXPECT_EQ(e.ts, s0 + 10);
      EXPECT_EQ(e.dur, 1000u);
      EXPECT_EQ(e.a, 7u);
    }
  }
  EXPECT_EQ(marks, 100u);
  EXPECT_TRUE(task);
  EXPECT_TRUE(replay);
  EXPECT_GE(cap->stop_ns, cap->start_ns);
}

// Appends racing with Stop(): every event of a session is either in its
// capture whole or not recorded, and nothing is written after Stop()
// returned (the buffers are unmapped then: a late write would crash).
TEST(TraceRecorder, AppendsRacingWithStopNeverTear) {
  std::atomic<bool> quit{false};
  std::vector<std::thread> ts;
  for (int t = 0; t < 3; ++t)
    ts.emplace_back([&quit, t] {
      uint64_t i = 0;
      while (!quit.load(std::memory_order_relaxed)) {
        tr::RecordInstant(tr::Kind::kTxMark, -1, "race", static_cast<uint64_t>(t), i, ~i);
        { tr::TaskSpan span(0, t, "racing task"); }
        ++i;
      }
    });
  uint64_t total = 0;
  for (int round = 0; round < 200; ++round) {
    ASSERT_TRUE(tr::Start(tr::kCatAll));
    std::this_thread::yield();
    auto cap = tr::Stop();
    for (const auto& e : cap->events) {
      if (e.kind == tr::Kind::kTxMark) {
        EXPECT_EQ(e.c, ~e.b);  // a whole record
        EXPECT_LT(e.a, 3u);
      } else {
        EXPECT_EQ(e.kind, tr::Kind::kTask);
      }
    }
    total += cap->events.size();
  }
  quit = true;
  for (auto& t : ts) t.join();
  EXPECT_GT(total, 0u);
}

// SIMNPU_TRACE_CLOCK=monotonic: the same recording on clock_gettime. The
// mode is chosen once per process, so a fresh copy of this binary runs the
// clock test with it.
TEST(TraceClock, MonotonicModeGivesTheSameTimes) {
  if (getenv("SIMNPU_TRACE_CLOCK")) GTEST_SKIP() << "already the child";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    setenv("SIMNPU_TRACE_CLOCK", "monotonic", 1);
    execl("/proc/self/exe", "profiling_unit_test", "--gtest_filter=TraceClock.RecordedTimesComeBackInMonotonicNs:"
          "TraceClock.ModeIsMonotonicInTheChild", static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(TraceClock, ModeIsMonotonicInTheChild) {
  const char* mode = getenv("SIMNPU_TRACE_CLOCK");
  if (!mode) GTEST_SKIP() << "run by MonotonicModeGivesTheSameTimes";
  ASSERT_TRUE(tr::Start(tr::kCatTx));
  tr::Stop();
  EXPECT_FALSE(tr::TraceClockIsTsc());
}

// Start() faults in the reserve; a stopped session's chunks return to it.
TEST(ChunkPool, StartFillsTheReserveAndStopRefillsIt) {
  setenv("SIMNPU_PROFILE_RESERVE_MB", "4", 1);  // two chunks
  ASSERT_TRUE(tr::Start(tr::kCatTx));
  EXPECT_EQ(simnpu::dfx::trace::ChunkPool::Get().ReadyForTest(), 2u);
  tr::RecordInstant(tr::Kind::kTxMark, -1, "one");  // takes a chunk
  EXPECT_LE(simnpu::dfx::trace::ChunkPool::Get().ReadyForTest(), 2u);
  auto cap = tr::Stop();
  EXPECT_EQ(cap->events.size(), 1u);
  EXPECT_EQ(simnpu::dfx::trace::ChunkPool::Get().ReadyForTest(), 2u);  // back (or refilled), never above
  setenv("SIMNPU_PROFILE_RESERVE_MB", "0", 1);  // off: a Start unmaps the reserve
  ASSERT_TRUE(tr::Start(tr::kCatTx));
  EXPECT_EQ(simnpu::dfx::trace::ChunkPool::Get().ReadyForTest(), 0u);
  tr::RecordInstant(tr::Kind::kTxMark, -1, "two");  // a fresh mapping still records
  cap = tr::Stop();
  EXPECT_EQ(cap->events.size(), 1u);
  EXPECT_EQ(simnpu::dfx::trace::ChunkPool::Get().ReadyForTest(), 0u);
  unsetenv("SIMNPU_PROFILE_RESERVE_MB");
}

TEST(TraceWriter, ChromeTraceIsValidJsonWithEscapedNames) {
  ASSERT_TRUE(tr::Start(tr::kCatAll));
  tr::RecordInstant(tr::Kind::kTxMark, -1, "quote \" backslash \\ newline \n tab \t \x01");
  { tr::TaskSpan span(0, 3, "copy task"); tr::AnnotateTask(tr::Kind::kCopy, "memcpy_async", 64, 1); }
  auto cap = tr::Stop();
  const std::string dir = proftest::ScratchDir("writer");
  ASSERT_TRUE(prof::WriteChromeTrace(*cap, dir + "/t.json", getpid()));
  nlohmann::json j = nlohmann::json::parse(proftest::Slurp(dir + "/t.json"));
  bool mark = false, copy = false;
  for (auto& e : j["traceEvents"]) {
    if (e["name"] == "quote \" backslash \\ newline \n tab \t \x01") mark = true;
    if (e["name"] == "memcpy_async") {
      copy = true;
      EXPECT_EQ(e["pid"], 100);
      EXPECT_EQ(e["tid"], 3);
      EXPECT_EQ(e["args"]["bytes"], 64);
      EXPECT_EQ(e["args"]["direction"], "host to device");
    }
  }
  EXPECT_TRUE(mark);
  EXPECT_TRUE(copy);
  EXPECT_TRUE(prof::WriteCsvSummaries(*cap, dir, "_x.csv"));
  EXPECT_FALSE(prof::WriteChromeTrace(*cap, "/nonexistent/dir/t.json", getpid()));
}

TEST(Subscription, RecordsGoToThePipeAndParseBack) {
  int fd[2];
  ASSERT_EQ(pipe(fd), 0);
  prof::RegisterModel(3);
  prof::SubscribeConfig cfg{prof::kSubscribeMagic, 1, 0xFF, fd[1]};
  ASSERT_EQ(prof::Subscribe(3, cfg), 0);
  EXPECT_EQ(prof::Subscribe(3, cfg), 148046);
  prof::ReportModelOp(3, "add_1", "Add", 5000, 12000, 0);
  prof::ReportModelOp(3, "mul_1", "Mul", 12000, 20000, 0);
  prof::OpRecord rec[2];
  ASSERT_EQ(read(fd[0], rec, sizeof rec), static_cast<ssize_t>(sizeof rec));
  prof::OpRecord r;
  ASSERT_TRUE(prof::RecordAt(rec, sizeof rec, 1, &r));
  EXPECT_EQ(r.model_id, 3u);
  EXPECT_EQ(r.start, 12u);
  EXPECT_EQ(r.end, 20u);
  EXPECT_EQ(r.duration, 8u);
  std::string name, type;
  ASSERT_TRUE(prof::OpNames(r.op_index, &name, &type));
  EXPECT_EQ(name, "mul_1");
  EXPECT_EQ(type, "Mul");
  EXPECT_FALSE(prof::RecordAt(rec, sizeof rec, 2, &r));
  EXPECT_FALSE(prof::RecordAt(rec, sizeof rec - 1, 0, &r));
  ASSERT_EQ(prof::Unsubscribe(3), 0);
  char c;
  EXPECT_EQ(read(fd[0], &c, 1), 0);
  close(fd[0]);
}

TEST(DumpFormat, SerializeLaysOutTheDocumentedSections) {
  dump::KernelDump d;
  d.kernel = "k";
  d.block_dim = 2;
  d.args = {1, 2, 3};
  dump::Tensor t;
  t.kind = 1;
  t.arg_index = 4;
  t.address = 0x1000;
  t.dtype = 0;
  t.data = {9, 9, 9, 9, 9};
  d.tensors.push_back(t);
  auto v = dump::Serialize(d, false);
  ASSERT_EQ(std::string(v.begin(), v.begin() + 8), "SNPUDMP1");
  uint32_t h[6];
  std::memcpy(h, v.data() + 8, sizeof h);
  EXPECT_EQ(h[0], 1u);
  EXPECT_EQ(h[1], 32u);
  EXPECT_EQ(h[3], 3u);
  EXPECT_EQ(h[4], 1u);
  size_t off = (32 + h[2] + 7) & ~size_t{7};
  EXPECT_EQ(v[off], 1);
  off += 8;  // args padded
  uint32_t kind, arg;
  uint64_t addr, size;
  std::memcpy(&kind, &v[off], 4);
  std::memcpy(&arg, &v[off + 4], 4);
  std::memcpy(&addr, &v[off + 8], 8);
  std::memcpy(&size, &v[off + 16], 8);
  EXPECT_EQ(kind, 1u);
  EXPECT_EQ(arg, 4u);
  EXPECT_EQ(addr, 0x1000u);
  EXPECT_EQ(size, 5u);
  EXPECT_EQ(v.size(), off + 32 + 8);
}

TEST(DumpConfig, ParsesScenesAndRejectsConflicts) {
  dump::Config c;
  std::string why;
  ASSERT_EQ(dump::ParseConfig(R"({"dump_path":"./","dump_scene":"lite_exception"})", &c, &why), dump::kOk);
  EXPECT_EQ(c.scene, "aic_err_brief_dump");
  EXPECT_TRUE(c.exception());
  EXPECT_FALSE(c.data_dump());
  ASSERT_EQ(dump::ParseConfig(R"({"dump_path":"./","dump_list":[{}],"dump_mode":"input"})", &c, &why), dump::kOk);
  EXPECT_TRUE(c.data_dump());
  EXPECT_EQ(c.mode, "input");
  EXPECT_EQ(dump::ParseConfig(R"({"dump_path":"./","dump_debug":"on","dump_op_switch":"on"})", &c, &why),
            dump::kInvalidDumpConfig);
  EXPECT_FALSE(why.empty());
  EXPECT_EQ(dump::ParseConfig(R"({"dump_path":"./","dump_scene":"nope"})", &c, &why), dump::kInvalidDumpConfig);
  EXPECT_EQ(dump::ParseConfig(R"([1])", &c, &why), dump::kInvalidDumpConfig);
  EXPECT_EQ(dump::ParseConfig(R"({"dump_path":7})", &c, &why), dump::kInvalidDumpConfig);
}
