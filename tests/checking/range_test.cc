// Range and handle checks of the API entry points (issue 10): every case of
// the issue returns an error code, queues a message, and leaves the other
// allocations intact byte for byte.
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

#include "api/api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::TakeErrMsg;

class RangeTest : public apitest::DeviceTest {
 protected:
  void SetUp() override {
    apitest::DeviceTest::SetUp();
    ACL_OK(aclrtCreateStream(&stream_));
  }
  void TearDown() override {
    if (stream_) (void)aclrtDestroyStream(stream_);
    apitest::DeviceTest::TearDown();
  }
  // Two neighbouring 4 KiB device buffers, `b` filled with 0x5a.
  void TwoBuffers(void** a, void** b) {
    ACL_OK(aclrtMalloc(a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(b, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemset(*b, 4096, 0x5a, 4096));
  }
  void ExpectIntact(void* b) {
    std::vector<unsigned char> back(4096);
    ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(back.data(), 4096, b, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < back.size(); ++i) ASSERT_EQ(0x5a, back[i]) << "byte " << i << " of the neighbour changed";
  }
  // code and a message naming the problem
  void ExpectFail(int code, aclError got, const char* needle, const char* what) {
    EXPECT_EQ(code, got) << what;
    std::string msg = TakeErrMsg();
    EXPECT_NE(std::string::npos, msg.find(needle)) << what << ": " << msg;
    ClearErrorState();
  }
  aclrtStream stream_ = nullptr;
};

TEST_F(RangeTest, CopiesLargerThanTheAllocationAreRefused) {
  void *a, *b;
  TwoBuffers(&a, &b);
  std::vector<unsigned char> host(1 << 20, 0x11);
  ExpectFail(107000, aclrtMemcpy(a, 1 << 20, host.data(), 1 << 20, ACL_MEMCPY_HOST_TO_DEVICE), "exceeds", "H2D");
  ExpectFail(107000, aclrtMemcpy(host.data(), 1 << 20, a, 1 << 20, ACL_MEMCPY_DEVICE_TO_HOST), "exceeds", "D2H");
  ExpectFail(107000, aclrtMemcpy(b, 8192, a, 8192, ACL_MEMCPY_DEVICE_TO_DEVICE), "exceeds", "D2D");
  ExpectFail(107000, aclrtMemcpy(a, 1 << 20, host.data(), 1 << 20, ACL_MEMCPY_DEFAULT), "exceeds", "DEFAULT");
  ExpectFail(107000, aclrtMemcpyAsync(a, 1 << 20, host.data(), 1 << 20, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
             "exceeds", "async H2D");
  ExpectFail(107000, aclrtMemcpyAsync(b, 8192, a, 8192, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_), "exceeds", "async D2D");
  ExpectFail(107000, aclrtMemset(a, 8192, 0, 4097), "exceeds", "memset");
  ExpectFail(107000, aclrtMemsetAsync(a, 8192, 0, 4097, stream_), "exceeds", "memsetAsync");
  ACL_OK(aclrtSynchronizeStream(stream_));
  ExpectIntact(b);
  // exactly the allocation is fine
  ACL_OK(aclrtMemcpy(a, 4096, host.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_OK(aclrtMemcpyAsync(a, 4096, host.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ACL_OK(aclrtSynchronizeStream(stream_));
  ExpectIntact(b);
  ACL_OK(aclrtFree(a));
  ACL_OK(aclrtFree(b));
}

TEST_F(RangeTest, UseAfterFreeIsRefused) {
  void *a, *b;
  TwoBuffers(&a, &b);
  ACL_OK(aclrtFree(a));
  unsigned char host[64] = {};
  ExpectFail(107000, aclrtMemcpy(a, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), "freed", "copy");
  ExpectFail(107000, aclrtMemcpyAsync(host, 64, a, 64, ACL_MEMCPY_DEVICE_TO_HOST, stream_), "freed", "async copy");
  ExpectFail(107000, aclrtMemset(a, 64, 0, 64), "freed", "memset");
  ExpectFail(107000, aclrtMemsetAsync(a, 64, 0, 64, stream_), "freed", "memsetAsync");
  ExpectFail(107000, aclrtValueWrite(a, 1, 0, stream_), "freed", "value write");
  ExpectFail(107000, aclrtValueWait(a, 1, 0, stream_), "freed", "value wait");
  ExpectFail(107000, aclrtFree(a), "already freed", "double free");
  ACL_OK(aclrtSynchronizeStream(stream_));
  ExpectIntact(b);
  ACL_OK(aclrtFree(b));
}

TEST_F(RangeTest, FreedManagedMemoryIsRefusedByAsyncCalls) {
  void* m = nullptr;
  ACL_OK(aclrtMemAllocManaged(&m, 1 << 20, ACL_RT_MEM_ATTACH_GLOBAL));
  void* n = nullptr;
  ACL_OK(aclrtMemAllocManaged(&n, 1 << 20, ACL_RT_MEM_ATTACH_GLOBAL));
  ACL_OK(aclrtFree(m));
  ExpectFail(107000, aclrtMemcpyAsync(n, 64, m, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_), "freed", "D2D");
  ExpectFail(107000, aclrtMemsetAsync(m, 64, 0, 64, stream_), "freed", "memsetAsync");
  ACL_OK(aclrtSynchronizeStream(stream_));
  ACL_OK(aclrtFree(n));
}

TEST_F(RangeTest, OverflowingSizesReturnAtOnce) {
  void* a = nullptr;
  ACL_OK(aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  char* dev = static_cast<char*>(a);
  const auto t0 = std::chrono::steady_clock::now();
  ExpectFail(107000, aclrtMemset(dev + 64, SIZE_MAX - 32, 0, SIZE_MAX - 32), "wraps", "memset");
  ExpectFail(107000, aclrtMemsetAsync(dev + 64, SIZE_MAX - 32, 0, SIZE_MAX - 32, stream_), "wraps", "memsetAsync");
  unsigned char host[64] = {};
  ExpectFail(107000, aclrtMemcpy(dev + 64, SIZE_MAX, host, SIZE_MAX - 32, ACL_MEMCPY_HOST_TO_DEVICE), "wraps",
             "memcpy");
  ExpectFail(107000, aclrtMemcpyAsync(dev + 64, SIZE_MAX, host, SIZE_MAX - 32, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
             "wraps", "memcpyAsync");
  ExpectFail(107000, aclrtMemcpy(host, SIZE_MAX, dev, 1ull << 40, ACL_MEMCPY_DEVICE_TO_HOST), "not mapped", "huge D2H");
  ExpectFail(107000, aclrtMemcpy(host, SIZE_MAX, host + 1, 1ull << 40, ACL_MEMCPY_HOST_TO_HOST), "not mapped",
             "huge H2H");
  ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  ACL_OK(aclrtFree(a));
}

TEST_F(RangeTest, MemsetOnProgramMemoryIsRefused) {
  unsigned char stack_buf[64];
  std::vector<unsigned char> heap(64, 7);
  ExpectFail(107000, aclrtMemset(stack_buf, 64, 0, 64), "not memory the runtime allocated", "stack");
  ExpectFail(107000, aclrtMemsetAsync(heap.data(), 64, 0, 64, stream_), "not memory the runtime allocated", "heap");
  ExpectFail(107000, aclrtValueWrite(heap.data(), 1, 0, stream_), "not memory the runtime allocated", "value write");
  ACL_OK(aclrtSynchronizeStream(stream_));
  for (unsigned char c : heap) ASSERT_EQ(7, c);
  // memory the runtime allocated on the host is fine
  void* pinned = nullptr;
  ACL_OK(aclrtMallocHost(&pinned, 100));
  ACL_OK(aclrtMemset(pinned, 100, 3, 100));
  EXPECT_EQ(3, static_cast<unsigned char*>(pinned)[99]);
  ExpectFail(107000, aclrtMemset(pinned, 200, 3, 101), "exceeds", "pinned");
  ACL_OK(aclrtFreeHost(pinned));
  ExpectFail(107000, aclrtFreeHost(pinned), "already freed", "double free host");
}

TEST_F(RangeTest, HostRegisterChecksTheRange) {
  void* unmapped = mmap(nullptr, 1 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(MAP_FAILED, unmapped);
  munmap(unmapped, 1 << 20);
  ExpectFail(107000, aclrtHostRegisterV2(unmapped, 4096, ACL_HOST_REG_MAPPED), "not mapped", "unmapped");
  void* dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ExpectFail(107000, aclrtHostRegisterV2(dev, 4096, ACL_HOST_REG_MAPPED), "not host memory", "device pointer");
  std::vector<char> heap(8192);
  ExpectFail(107000, aclrtHostRegisterV2(heap.data(), 1ull << 50, ACL_HOST_REG_MAPPED), "not mapped", "2^50");
  ExpectFail(107000, aclrtHostRegisterV2(heap.data(), UINT64_MAX - 8, ACL_HOST_REG_MAPPED), "wraps", "overflow");
  ACL_OK(aclrtHostRegisterV2(heap.data(), heap.size(), ACL_HOST_REG_MAPPED));
  void* devp = nullptr;
  ACL_OK(aclrtHostGetDevicePointer(heap.data(), &devp, 0));
  ACL_OK(aclrtMemset(devp, 8192, 1, 8192));  // registered memory is known memory
  ExpectFail(107000, aclrtMemset(devp, 8193, 1, 8193), "exceeds", "registered + 1");
  ACL_OK(aclrtHostUnregister(heap.data()));
  ExpectFail(107000, aclrtMemset(heap.data(), 64, 1, 64), "freed", "after unregister");
  // memory from aclrtMallocHost may be registered (sample S51)
  void* pinned = nullptr;
  ACL_OK(aclrtMallocHost(&pinned, 1 << 16));
  ACL_OK(aclrtHostRegisterV2(pinned, 1 << 16, ACL_HOST_REG_MAPPED));
  ACL_OK(aclrtHostUnregister(pinned));
  ACL_OK(aclrtFreeHost(pinned));
  ACL_OK(aclrtFree(dev));
}

TEST_F(RangeTest, ManagedAdviceNeedsWholeBlocks) {
  void* m = nullptr;
  ACL_OK(aclrtMemAllocManaged(&m, 4 << 20, ACL_RT_MEM_ATTACH_GLOBAL));
  aclrtMemManagedLocation host{ACL_MEM_LOCATIONTYPE_HOST, 0};
  ExpectFail(107000, aclrtMemManagedAdvise(m, (2 << 20) + 4096, ACL_MEM_ADVISE_SET_READ_MOSTLY, host), "2 MiB",
             "unaligned");
  ACL_OK(aclrtMemManagedAdvise(m, 2 << 20, ACL_MEM_ADVISE_SET_READ_MOSTLY, host));
  ExpectFail(107000, aclrtMemManagedAdvise(m, 6 << 20, ACL_MEM_ADVISE_SET_READ_MOSTLY, host), "exceeds",
             "past the end");
  ACL_OK(aclrtFree(m));
}

TEST_F(RangeTest, DataBufferHandles) {
  int x = 0;
  aclDataBuffer* b = aclCreateDataBuffer(&x, sizeof x);
  ASSERT_NE(nullptr, b);
  EXPECT_EQ(&x, aclGetDataBufferAddr(b));
  ACL_OK(aclDestroyDataBuffer(b));
  ExpectFail(107017, aclDestroyDataBuffer(b), "data buffer", "double destroy");
  ExpectFail(107017, aclUpdateDataBuffer(b, &x, 4), "data buffer", "update after destroy");
  EXPECT_EQ(nullptr, aclGetDataBufferAddr(b));
  EXPECT_EQ(0u, aclGetDataBufferSizeV2(b));
  ClearErrorState();
  alignas(8) char foreign[64] = {};
  ExpectFail(107017, aclDestroyDataBuffer(reinterpret_cast<aclDataBuffer*>(foreign)), "data buffer", "foreign");
  EXPECT_EQ(nullptr, aclCreateDataBuffer(nullptr, 100));
  EXPECT_FALSE(TakeErrMsg().empty());
  aclDataBuffer* empty = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(nullptr, empty);
  ACL_OK(aclDestroyDataBuffer(empty));
}

TEST_F(RangeTest, StreamConfigHandles) {
  aclrtStreamConfigHandle* h = aclrtCreateStreamConfigHandle();
  ASSERT_NE(nullptr, h);
  uint32_t prio = 3;
  ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof prio));
  aclrtStream s = nullptr;
  ACL_OK(aclrtCreateStreamV2(&s, h));
  uint32_t got = 0;
  ACL_OK(aclrtStreamGetPriority(s, &got));
  EXPECT_EQ(3u, got);
  ACL_OK(aclrtDestroyStream(s));
  ACL_OK(aclrtDestroyStreamConfigHandle(h));
  ExpectFail(107017, aclrtDestroyStreamConfigHandle(h), "stream config handle", "double destroy");
  ExpectFail(107017, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof prio), "stream config handle",
             "set after destroy");
  aclrtStreamConfigHandle foreign{};
  ExpectFail(107017, aclrtCreateStreamV2(&s, &foreign), "stream config handle", "foreign");
}

TEST_F(RangeTest, OtherUsageErrors) {
  ExpectFail(107000, aclrtSubscribeReport(0, stream_), "threadId", "thread id 0");
  std::vector<char> small(4096, 0);
  aclrtBinHandle bin = nullptr;
  ExpectFail(107000, aclrtBinaryLoadFromData(small.data(), 1ull << 40, nullptr, &bin), "at most 1 GiB", "2^40");
  ExpectFail(107000, aclrtBinaryLoadFromData(reinterpret_cast<void*>(uintptr_t{0x10000}), 4096, nullptr, &bin), "not readable", "unmapped");
  aclrtBinaryLoadOption opt{};
  opt.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  opt.value.magic = 0x12345678u;
  aclrtBinaryLoadOptions opts{&opt, 1};
  ExpectFail(107000, aclrtBinaryLoadFromFile("/nonexistent.o", &opts, &bin), "magic", "unknown magic");
}

}  // namespace
