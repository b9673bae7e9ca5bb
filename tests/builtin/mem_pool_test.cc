// acl/acl_rt_memory_soma.h: stream-ordered memory pools.
#include <cstring>
#include <vector>

#include "acl/acl_rt_memory_soma.h"
#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::Gate;

aclrtMemPoolProps Props(size_t max_size) {
  aclrtMemPoolProps p;
  std::memset(&p, 0, sizeof p);
  p.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  p.location.id = 0;
  p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  p.maxSize = max_size;
  return p;
}

uint64_t Attr64(aclrtMemPool pool, aclrtMemPoolAttr a) {
  uint64_t v = ~0ull;
  EXPECT_EQ(ACL_SUCCESS, aclrtMemPoolGetAttr(pool, a, &v));
  return v;
}

class MemPoolTest : public apitest::DeviceTest {
 protected:
  void SetUp() override {
    apitest::DeviceTest::SetUp();
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s_));
    auto props = Props(64 << 20);
    ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolCreate(&pool_, &props));
  }
  void TearDown() override {
    if (pool_) {
      EXPECT_ACL_OK(aclrtMemPoolDestroy(pool_));
    }
    if (s_) {
      EXPECT_ACL_OK(aclrtDestroyStream(s_));
    }
    apitest::DeviceTest::TearDown();
  }
  aclrtStream s_ = nullptr;
  aclrtMemPool pool_ = nullptr;
};

TEST_F(MemPoolTest, AllocationIsUsableDeviceMemory) {
  void* p = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&p, 4096, pool_, s_));
  ASSERT_NE(nullptr, p);
  std::vector<uint8_t> in(4096), out(4096);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 7);
  EXPECT_ACL_OK(aclrtMemcpyAsync(p, 4096, in.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, s_));
  EXPECT_ACL_OK(aclrtMemcpyAsync(out.data(), 4096, p, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s_));
  EXPECT_ACL_OK(aclrtMemPoolFreeAsync(p, s_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_EQ(in, out);
}

TEST_F(MemPoolTest, SameStreamReusesAFreedBlockAtOnce) {
  uint64_t keep = 64 << 20;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s_));  // nothing on the stream runs yet
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&a, 1 << 20, pool_, s_));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolFreeAsync(a, s_));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&b, 1 << 20, pool_, s_));
  EXPECT_EQ(a, b);  // stream order makes the reuse safe
  EXPECT_EQ(1u << 20, Attr64(pool_, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT));
  EXPECT_EQ(1u << 20, Attr64(pool_, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT));
  gate.Open();
  EXPECT_ACL_OK(aclrtMemPoolFreeAsync(b, s_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
}

TEST_F(MemPoolTest, OtherStreamReusesOnlyAfterTheFreeRanWithoutDependencies) {
  uint64_t keep = 64 << 20;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
  uint32_t off = 0;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES, &off));
  aclrtStream t = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&t));
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s_));
  void* a = nullptr;
  void* b = nullptr;
  void* c = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&a, 1 << 20, pool_, s_));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolFreeAsync(a, s_));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&b, 1 << 20, pool_, t));
  EXPECT_NE(a, b);  // the free has not run: a new block
  EXPECT_EQ(2u << 20, Attr64(pool_, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT));
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&c, 1 << 20, pool_, t));
  EXPECT_EQ(a, c);  // opportunistic reuse of an executed free
  EXPECT_ACL_OK(aclrtMemPoolFreeAsync(b, t));
  EXPECT_ACL_OK(aclrtMemPoolFreeAsync(c, t));
  EXPECT_ACL_OK(aclrtSynchronizeStream(t));
  EXPECT_ACL_OK(aclrtDestroyStream(t));
}

TEST_F(MemPoolTest, InternalDependencyMakesTheOtherStreamWait) {
  uint64_t keep = 64 << 20;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
  aclrtStream t = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&t));
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s_));
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&a, 1 << 20, pool_, s_));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolFreeAsync(a, s_));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&b, 1 << 20, pool_, t));
  EXPECT_EQ(a, b);  // reused, with a wait queued on t
  aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
  apitest::SleepMs(50);
  EXPECT_ACL_OK(aclrtStreamQuery(t, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, st);  // t waits for s_'s free
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(t));
  EXPECT_ACL_OK(aclrtMemPoolFreeAsync(b, t));
  EXPECT_ACL_OK(aclrtSynchronizeStream(t));
  EXPECT_ACL_OK(aclrtDestroyStream(t));
}

TEST_F(MemPoolTest, ReleaseThresholdAndTrim) {
  void* a = nullptr;
  // Threshold 0 (default): the synchronize after the free gives the memory back.
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&a, 1000, pool_, s_));
  EXPECT_EQ(1024u, Attr64(pool_, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT));  // 512-byte granules
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolFreeAsync(a, s_));
  EXPECT_EQ(0u, Attr64(pool_, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT));
  ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s_));
  EXPECT_EQ(0u, Attr64(pool_, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT));
  EXPECT_EQ(1024u, Attr64(pool_, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH));
  EXPECT_EQ(1024u, Attr64(pool_, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH));
  // A large threshold keeps it until TrimTo.
  uint64_t keep = 1 << 20;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
  EXPECT_EQ(keep, Attr64(pool_, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD));
  void* b = nullptr;
  void* c = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&b, 4096, pool_, s_));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&c, 8192, pool_, s_));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolFreeAsync(b, s_));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolFreeAsync(c, s_));
  ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s_));
  EXPECT_EQ(12288u, Attr64(pool_, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT));
  EXPECT_ACL_OK(aclrtMemPoolTrimTo(pool_, 8192));
  EXPECT_EQ(8192u, Attr64(pool_, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT));
  EXPECT_ACL_OK(aclrtMemPoolTrimTo(pool_, 0));
  EXPECT_EQ(0u, Attr64(pool_, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT));
  // High-water marks reset to the current value.
  uint64_t zero = 0;
  EXPECT_ACL_OK(aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH, &zero));
  EXPECT_EQ(0u, Attr64(pool_, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH));
}

TEST_F(MemPoolTest, MaxSizeIsEnforced) {
  aclrtMemPool small = nullptr;
  auto props = Props(1 << 20);
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolCreate(&small, &props));
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&a, 768 << 10, small, s_));
  EXPECT_ACL(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMemPoolMallocAsync(&b, 512 << 10, small, s_));
  ClearErrorState();
  // Once a's free has run, its memory makes room.
  uint32_t off = 0;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolSetAttr(small, ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES, &off));
  EXPECT_ACL_OK(aclrtMemPoolFreeAsync(a, s_));
  uint64_t keep = 1 << 20;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolSetAttr(small, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_ACL_OK(aclrtMemPoolMallocAsync(&b, 512 << 10, small, s_));
  EXPECT_ACL_OK(aclrtMemPoolFreeAsync(b, s_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_ACL_OK(aclrtMemPoolDestroy(small));
}

TEST_F(MemPoolTest, Attributes) {
  uint32_t v = 7;
  EXPECT_ACL_OK(aclrtMemPoolGetAttr(pool_, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &v));
  EXPECT_EQ(1u, v);
  v = 0;
  EXPECT_ACL_OK(aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, &v));
  v = 9;
  EXPECT_ACL_OK(aclrtMemPoolGetAttr(pool_, ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, &v));
  EXPECT_EQ(0u, v);
  v = 2;
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &v));
  uint64_t x = 5;
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &x));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, &x));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &x));
  aclrtMemPoolAttr bad;
  int nine = 9;
  std::memcpy(&bad, &nine, sizeof bad);
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtMemPoolGetAttr(pool_, bad, &x));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMemPoolGetAttr(nullptr, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &x));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMemPoolGetAttr(pool_, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, nullptr));
  ClearErrorState();
}

TEST_F(MemPoolTest, ArgumentErrors) {
  aclrtMemPool p2 = nullptr;
  auto props = Props(0);
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMemPoolCreate(nullptr, &props));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMemPoolCreate(&p2, nullptr));
  auto bad = props;
  bad.reserved[3] = 1;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMemPoolCreate(&p2, &bad));
  bad = props;
  bad.location.type = ACL_MEM_LOCATION_TYPE_HOST;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMemPoolCreate(&p2, &bad));
  bad = props;
  int v = 5;
  std::memcpy(&bad.allocType, &v, sizeof v);
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMemPoolCreate(&p2, &bad));
  bad = props;
  bad.location.id = 99;
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtMemPoolCreate(&p2, &bad));
  void* p = nullptr;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMemPoolMallocAsync(nullptr, 16, pool_, s_));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMemPoolMallocAsync(&p, 16, nullptr, s_));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMemPoolMallocAsync(&p, 16, pool_, nullptr));
  EXPECT_ACL_OK(aclrtMemPoolMallocAsync(&p, 0, pool_, s_));  // size 0: nothing
  int junk = 0;
  EXPECT_ACL(ACL_ERROR_RT_INVALID_HANDLE, aclrtMemPoolMallocAsync(&p, 16, &junk, s_));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMemPoolFreeAsync(nullptr, s_));
  void* dev = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtMemPoolFreeAsync(dev, s_));  // not pool memory
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&p, 64, pool_, s_));
  EXPECT_ACL_OK(aclrtMemPoolFreeAsync(p, s_));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtMemPoolFreeAsync(p, s_));  // twice
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMemPoolDestroy(nullptr));
  EXPECT_ACL(ACL_ERROR_RT_INVALID_HANDLE, aclrtMemPoolDestroy(&junk));
  EXPECT_ACL(ACL_ERROR_RT_INVALID_HANDLE, aclrtMemPoolTrimTo(&junk, 0));
  ClearErrorState();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(MemPoolTest, DestroyWithBlocksInUseFreesThem) {
  void* p = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&p, 4096, pool_, s_));
  EXPECT_ACL_OK(aclrtMemPoolDestroy(pool_));
  pool_ = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtMemPoolFreeAsync(p, s_));
  ClearErrorState();
}

// aclrtResetDevice tears the device down with its pools: the pool handle
// names no pool any more (107017), its blocks are no longer device memory,
// and memory the device hands out after the reset is not touched by the old
// pool (destroying it cannot free a new allocation that reuses an address).
TEST_F(MemPoolTest, ResetDeviceDestroysItsPools) {
  void* in_use = nullptr;
  void* cached = nullptr;
  uint64_t keep = 1 << 20;  // the freed block stays cached in the pool
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolSetAttr(pool_, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &keep));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&in_use, 4096, pool_, s_));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&cached, 4096, pool_, s_));
  EXPECT_ACL_OK(aclrtMemPoolFreeAsync(cached, s_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_EQ(8192u, Attr64(pool_, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT));
  EXPECT_ACL_OK(aclrtDestroyStream(s_));
  s_ = nullptr;
  EXPECT_ACL_OK(aclrtResetDevice(0));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s_));
  // New device memory, likely at the addresses the pool held.
  std::vector<void*> fresh;
  for (int i = 0; i < 4; ++i) {
    void* q = nullptr;
    ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&q, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    fresh.push_back(q);
  }
  void* p = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_INVALID_HANDLE, aclrtMemPoolMallocAsync(&p, 4096, pool_, s_));
  uint64_t v = 0;
  EXPECT_ACL(ACL_ERROR_RT_INVALID_HANDLE, aclrtMemPoolGetAttr(pool_, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, &v));
  EXPECT_ACL(ACL_ERROR_RT_INVALID_HANDLE, aclrtMemPoolDestroy(pool_));
  pool_ = nullptr;
  // The old in-use block is not a pool block any more (unless the address
  // was handed out again by aclrtMalloc above, when it is that allocation).
  bool reused = false;
  for (void* q : fresh) reused |= q == in_use;
  if (!reused) {
    EXPECT_NE(ACL_SUCCESS, aclrtMemPoolFreeAsync(in_use, s_));
  }
  ClearErrorState();
  // Every new allocation is intact and usable.
  for (size_t i = 0; i < fresh.size(); ++i) {
    std::vector<uint8_t> in(4096, static_cast<uint8_t>(0x40 + i)), out(4096);
    EXPECT_ACL_OK(aclrtMemcpy(fresh[i], 4096, in.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE));
    EXPECT_ACL_OK(aclrtMemcpy(out.data(), 4096, fresh[i], 4096, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(in, out);
  }
  for (void* q : fresh) EXPECT_ACL_OK(aclrtFree(q));
  // A pool created after the reset works as usual.
  auto props = Props(1 << 20);
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolCreate(&pool_, &props));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&p, 4096, pool_, s_));
  EXPECT_ACL_OK(aclrtMemPoolFreeAsync(p, s_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
}

// A reset of another device leaves this device's pools alone.
TEST_F(MemPoolTest, ResetOfAnotherDeviceKeepsThePool) {
  uint32_t n = 0;
  ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceCount(&n));
  if (n < 2) GTEST_SKIP() << "needs two devices";
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
  EXPECT_ACL_OK(aclrtResetDevice(1));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  void* p = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMemPoolMallocAsync(&p, 4096, pool_, s_));
  EXPECT_ACL_OK(aclrtMemPoolFreeAsync(p, s_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
}

}  // namespace
