// core::Stream without the ACL layer (label "api", built against the static
// core library): what happens to tasks submitted after a stream has shut
// down, and forced shutdown of a stream blocked on a wait or in a task that
// never ends.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "core/basic_tasks.h"
#include "core/event.h"
#include "core/stream.h"

namespace {

using simnpu::core::Event;
using simnpu::core::EventWaitTask;
using simnpu::core::ExecContext;
using simnpu::core::HostFuncTask;
using simnpu::core::Stream;
using simnpu::core::Task;
using Clock = std::chrono::steady_clock;

// Counts how it ended.
struct Probe {
  std::atomic<int> ran{0};
  std::atomic<int> discarded{0};
};

class ProbeTask : public Task {
 public:
  explicit ProbeTask(Probe* p) : p_(p) {}
  int Run(ExecContext&) override {
    ++p_->ran;
    return 0;
  }
  void Discard() override { ++p_->discarded; }
  const char* name() const override { return "probe"; }

 private:
  Probe* p_;
};

std::shared_ptr<Stream> NewStream() { return std::make_shared<Stream>(nullptr, 0, 0, 0, 0, false); }

int64_t MsSince(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

TEST(StreamCoreTest, ATaskSubmittedAfterShutdownIsDiscardedAndCompleted) {
  auto s = NewStream();
  Probe before, after;
  s->Submit(std::make_unique<ProbeTask>(&before));
  EXPECT_EQ(0, s->Synchronize());
  s->Shutdown();
  const uint64_t seq = s->Submit(std::make_unique<ProbeTask>(&after));
  EXPECT_TRUE(s->WaitFor(seq, 2000)) << "a task nobody will run must not be waited for";
  EXPECT_EQ(0, after.ran.load());
  EXPECT_EQ(1, after.discarded.load());
  EXPECT_TRUE(s->idle());
  EXPECT_EQ(0, s->Synchronize(2000));
  EXPECT_EQ(1, before.ran.load());
}

TEST(StreamCoreTest, AStreamNeverStartedAcceptsTasksAfterShutdown) {
  auto s = NewStream();
  s->Shutdown();
  Probe p;
  const uint64_t seq = s->Submit(std::make_unique<ProbeTask>(&p));
  EXPECT_TRUE(s->WaitFor(seq, 2000));
  EXPECT_EQ(1, p.discarded.load());
}

TEST(StreamCoreTest, ForcedShutdownCancelsAWaitAndDiscardsWhatFollows) {
  auto s = NewStream();
  auto e = std::make_shared<Event>(0, 0);
  const uint64_t gen = e->BeginRecord();  // recorded, never executed
  Probe before, behind;
  s->Submit(std::make_unique<ProbeTask>(&before));
  s->Submit(std::make_unique<EventWaitTask>(e, gen, -1));
  s->Submit(std::make_unique<ProbeTask>(&behind));
  EXPECT_FALSE(s->WaitFor(s->submitted(), 50));
  const auto t0 = Clock::now();
  s->ShutdownForced(30000);
  EXPECT_LT(MsSince(t0), 5000);
  EXPECT_TRUE(s->idle());
  EXPECT_EQ(1, before.ran.load());
  EXPECT_EQ(0, behind.ran.load());
  EXPECT_EQ(1, behind.discarded.load());
  EXPECT_EQ(0, s->pending_error()) << "a cancelled wait is not a failure";
}

TEST(StreamCoreTest, ForcedShutdownIsBoundedByTheDrainTime) {
  auto s = NewStream();
  std::atomic<bool> release{false};
  Probe behind;
  s->Submit(std::make_unique<HostFuncTask>(
      [&release](ExecContext&) {
        while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return 0;
      },
      "endless", false));
  s->Submit(std::make_unique<ProbeTask>(&behind));
  const auto t0 = Clock::now();
  s->ShutdownForced(100);
  const int64_t ms = MsSince(t0);
  EXPECT_GE(ms, 95);
  EXPECT_LT(ms, 5000);
  release = true;  // the worker, left to finish on its own, drops the rest
  EXPECT_TRUE(s->WaitFor(s->submitted(), 5000));
  EXPECT_EQ(0, behind.ran.load());
  EXPECT_EQ(1, behind.discarded.load());
}

}  // namespace
