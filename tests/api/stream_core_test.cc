// core::Stream without the ACL layer (label "api", built against the static
// core library): what happens to tasks submitted after a stream has shut
// down.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>

#include "core/stream.h"

namespace {

using simnpu::core::ExecContext;
using simnpu::core::Stream;
using simnpu::core::Task;

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

}  // namespace
