// Mutex (pipe locks: pairing rules, AllocMutexID / ReleaseMutexID) and
// GroupBarrier in one block (Arrive then Wait, round after round; argument
// rules) under the harness. GroupBarrier across blocks needs the runtime's
// co-residency: asc/mutex_barrier.asc.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ascendc_model/harness.h"

using namespace AscendC;
using simnpu_test::FakeServices;
using simnpu_test::Runner;

namespace {

// Double-buffered pipe chain of the pages' Mutex example: each tile takes
// its id through MTE2, V, MTE3; out[i] = 2 * in[i] + 1.
extern "C" __global__ __aicore__ void mb_mutex_chain(GM_ADDR in, GM_ADDR out, GM_ADDR ids) {
  GlobalTensor<float> gi, go;
  gi.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in), 1024);
  go.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 1024);
  GlobalTensor<int32_t> gid;
  gid.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(ids), 8);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> buf[2] = {ub.Alloc<float, 256>(), ub.Alloc<float, 256>()};
  const MutexID m[2] = {AllocMutexID(), AllocMutexID()};
  for (uint32_t t = 0; t < 4; ++t) {
    const MutexID id = m[t % 2];
    LocalTensor<float>& b = buf[t % 2];
    Mutex::Lock<PIPE_MTE2>(id);
    DataCopy(b, gi[t * 256], 256);
    Mutex::Unlock<PIPE_MTE2>(id);
    Mutex::Lock<PIPE_V>(id);
    Muls(b, b, 2.0f, 256);
    Adds(b, b, 1.0f, 256);
    Mutex::Unlock<PIPE_V>(id);
    Mutex::Lock<PIPE_MTE3>(id);
    DataCopy(go[t * 256], b, 256);
    Mutex::Unlock<PIPE_MTE3>(id);
  }
  ReleaseMutexID(m[0]);
  const MutexID again = AllocMutexID();  // the released id comes back first
  gid.SetValue(0, m[0]);
  gid.SetValue(1, m[1]);
  gid.SetValue(2, again);
  ReleaseMutexID(again);
  ReleaseMutexID(m[1]);
}

TEST(AdvMutex, PipeChainDoubleBuffered) {
  std::vector<float> in(1024), out(1024, 0.0f);
  for (uint32_t i = 0; i < 1024; ++i) in[i] = static_cast<float>(i) * 0.5f - 100.0f;
  std::vector<int32_t> ids(8, -1);
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<mb_mutex_chain>(1, reinterpret_cast<uint8_t*>(in.data()), reinterpret_cast<uint8_t*>(out.data()),
                                  reinterpret_cast<uint8_t*>(ids.data())),
            0)
      << r.FirstError();
  for (uint32_t i = 0; i < 1024; ++i) ASSERT_EQ(out[i], in[i] * 2.0f + 1.0f) << i;
  EXPECT_EQ(ids[0], 0);
  EXPECT_EQ(ids[1], 1);
  EXPECT_EQ(ids[2], 0);
}

extern "C" __global__ __aicore__ void mb_misuse(GM_ADDR ws, uint32_t which) {
  switch (which) {
    case 0:  // a second Lock before the Unlock
      Mutex::Lock<PIPE_MTE2>(3);
      Mutex::Lock<PIPE_V>(3);
      break;
    case 1:  // Unlock without Lock
      Mutex::Unlock<PIPE_V>(5);
      break;
    case 2:  // Unlock on another pipe
      Mutex::Lock<PIPE_MTE2>(1);
      Mutex::Unlock<PIPE_MTE3>(1);
      break;
    case 3:  // id out of range
      Mutex::Lock<PIPE_V>(28);
      break;
    case 4:  // more than 28 ids
      for (int i = 0; i < 29; ++i) (void)AllocMutexID();
      break;
    case 5:  // releasing an id never allocated
      ReleaseMutexID(7);
      break;
    case 6: {  // workspace not 512-byte aligned
      GroupBarrier<PipeMode::MTE3_MODE> bar(ws + 32, 1, 1);
      break;
    }
    case 7: {  // Arrive index beyond the arrive group
      GroupBarrier<PipeMode::MTE3_MODE> bar(ws, 2, 1);
      bar.Arrive(2);
      break;
    }
    case 8: {  // TPipe members: more than 28 ids, some taken by the free function
      TPipe pipe;
      (void)AllocMutexID();
      for (int i = 0; i < 28; ++i) (void)pipe.AllocMutexID();
      break;
    }
    case 9: {  // TPipe member: the same id released twice
      TPipe pipe;
      const MutexID id = pipe.AllocMutexID();
      pipe.ReleaseMutexID(id);
      pipe.ReleaseMutexID(id);
      break;
    }
    case 10: {  // TPipe member: releasing an id that is still locked
      TPipe pipe;
      (void)pipe.AllocMutexID();
      (void)pipe.AllocMutexID();
      const MutexID id = GetTPipePtr()->AllocMutexID();
      Mutex::Lock<PIPE_V>(id);
      pipe.ReleaseMutexID(id);
      break;
    }
    case 11: {  // free function: releasing an id that is still locked
      const MutexID id = AllocMutexID();
      Mutex::Lock<PIPE_MTE2>(id);
      ReleaseMutexID(id);
      break;
    }
    default: break;
  }
}

std::string Misuse(uint32_t which) {
  std::vector<uint8_t> storage(4096 + 512, 0);
  uint8_t* ws = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(storage.data()) + 511) & ~uintptr_t{511});
  FakeServices svc;
  Runner r(&svc);
  EXPECT_EQ(r.Run<mb_misuse>(1, ws, which), SIMNPU_BLOCK_CHECK_FAILED);
  const std::string e = r.FirstError();
  const size_t k = e.find("] ", e.rfind("]["));
  return k == std::string::npos ? e : e.substr(k + 2);
}

TEST(AdvMutex, LockTwice) {
  EXPECT_EQ(Misuse(0),
            "Mutex::Lock<PIPE_V>(3): the mutex is held by PIPE_MTE2 and only its Unlock releases it (the NPU would "
            "hang here)");
}
TEST(AdvMutex, UnlockWithoutLock) {
  EXPECT_EQ(Misuse(1), "Mutex::Unlock<PIPE_V>(5): the mutex is not locked (Lock and Unlock must pair)");
}
TEST(AdvMutex, UnlockOnAnotherPipe) {
  EXPECT_EQ(Misuse(2), "Mutex::Unlock<PIPE_MTE3>(1): the mutex was locked by PIPE_MTE2 (Lock and Unlock take the same pipe)");
}
TEST(AdvMutex, IdOutOfRange) { EXPECT_EQ(Misuse(3), "Mutex::Lock<PIPE_V>(28): MutexID must be in [0, 27]"); }
TEST(AdvMutex, AllocBeyond28) {
  EXPECT_EQ(Misuse(4), "AllocMutexID: all 28 MutexIDs are allocated (ReleaseMutexID returns one)");
}
TEST(AdvMutex, ReleaseUnallocated) { EXPECT_EQ(Misuse(5), "ReleaseMutexID(7): the id was not given by AllocMutexID"); }
TEST(AdvMutex, ReleaseLocked) {
  EXPECT_EQ(Misuse(11), "ReleaseMutexID(0): the mutex is still locked by PIPE_MTE2");
}
TEST(AdvMutex, PipeAllocBeyond28) {
  EXPECT_EQ(Misuse(8), "TPipe::AllocMutexID: all 28 MutexIDs are allocated (ReleaseMutexID returns one)");
}
TEST(AdvMutex, PipeReleaseTwice) {
  EXPECT_EQ(Misuse(9), "TPipe::ReleaseMutexID(0): the id was not given by AllocMutexID");
}
TEST(AdvMutex, PipeReleaseLocked) {
  EXPECT_EQ(Misuse(10), "TPipe::ReleaseMutexID(2): the mutex is still locked by PIPE_V");
}

// The TPipe members and the free functions share one pool of ids: out gets
// the ids in the order they were given.
extern "C" __global__ __aicore__ void mb_pipe_ids(GM_ADDR out) {
  GlobalTensor<int32_t> go;
  go.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out), 8);
  TPipe pipe;
  const MutexID a = pipe.AllocMutexID();  // 0
  const MutexID b = AllocMutexID();       // 1
  const MutexID c = pipe.AllocMutexID();  // 2
  pipe.ReleaseMutexID(a);
  const MutexID d = AllocMutexID();  // 0 again
  ReleaseMutexID(b);                 // a member's id back through the free function and the other way
  const MutexID e = GetTPipePtr()->AllocMutexID();  // 1 again
  Mutex::Lock<PIPE_MTE2>(e);
  Mutex::Unlock<PIPE_MTE2>(e);
  pipe.ReleaseMutexID(e);
  pipe.ReleaseMutexID(d);
  ReleaseMutexID(c);
  const MutexID f = pipe.AllocMutexID();  // all free: 0
  const int32_t ids[6] = {a, b, c, d, e, f};
  for (int i = 0; i < 6; ++i) go.SetValue(i, ids[i]);
  pipe.ReleaseMutexID(f);
}

TEST(AdvMutex, PipeMembersShareThePool) {
  std::vector<int32_t> out(8, -1);
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<mb_pipe_ids>(1, reinterpret_cast<uint8_t*>(out.data())), 0) << r.FirstError();
  EXPECT_EQ(out, (std::vector<int32_t>{0, 1, 2, 0, 1, 0, -1, -1}));
}

TEST(AdvGroupBarrier, WorkspaceAlignment) {
  EXPECT_EQ(Misuse(6), "GroupBarrier: groupWorkspace must be 512-byte aligned (it is 32 bytes past)");
}
TEST(AdvGroupBarrier, ArriveIndex) {
  EXPECT_EQ(Misuse(7), "GroupBarrier::Arrive(2): the index must be below arriveSize (2)");
}

// One block is both groups (arrive 1, wait 2 slots): three rounds of
// Arrive then Wait(0); the counters count every arrival.
extern "C" __global__ __aicore__ void mb_barrier_one_block(GM_ADDR ws, GM_ADDR out) {
  GroupBarrier<PipeMode::MTE3_MODE> bar(ws, 1, 2);
  GlobalTensor<int32_t> go;
  go.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out), 8);
  go.SetValue(0, static_cast<int32_t>(bar.GetWorkspaceLen()));
  for (int round = 0; round < 3; ++round) {
    bar.Arrive(0);
    bar.Wait(0);
  }
}

TEST(AdvGroupBarrier, OneBlockRounds) {
  std::vector<uint8_t> storage(1024 + 512, 0);
  uint8_t* ws = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(storage.data()) + 511) & ~uintptr_t{511});
  std::vector<int32_t> out(8, 0);
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<mb_barrier_one_block>(1, ws, reinterpret_cast<uint8_t*>(out.data())), 0) << r.FirstError();
  EXPECT_EQ(out[0], 1024);
  int32_t c0, c1;
  std::memcpy(&c0, ws, 4);
  std::memcpy(&c1, ws + 512, 4);
  EXPECT_EQ(c0, 3);
  EXPECT_EQ(c1, 3);
}

}  // namespace
