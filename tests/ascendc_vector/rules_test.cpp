// Rules the vector-API pages state, checked with a clear message: event ids
// and flag pairing, static tensors (alignment, capacity), LocalMemAllocator,
// operand alignment and bounds, mask register use, TBufPool and the in-place
// queue forms.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ascendc_model/harness.h"
#include "kernel_operator.h"

using namespace AscendC;
using simnpu_test::FakeServices;
using simnpu_test::Runner;

extern "C" __global__ __aicore__ void rule_kernel(int32_t which, GM_ADDR out) {
  switch (which) {
    case 0: {  // a flag waited for twice after one set
      SetFlag<HardEvent::MTE2_V>(EVENT_ID2);
      WaitFlag<HardEvent::MTE2_V>(EVENT_ID2);
      WaitFlag<HardEvent::MTE2_V>(EVENT_ID2);
      break;
    }
    case 1:  // event id 8 does not exist
      SetFlag<HardEvent::V_MTE3>(8);
      break;
    case 2: {  // set twice, waited once: reported, the second wait would hang
      SetFlag<HardEvent::S_V>(EVENT_ID1);
      SetFlag<HardEvent::S_V>(EVENT_ID1);
      WaitFlag<HardEvent::S_V>(EVENT_ID1);
      break;
    }
    case 3: {  // intrinsics and TQueSync pair through the same flags
      set_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
      WaitFlag<HardEvent::MTE2_V>(EVENT_ID3);
      TQueSync<PIPE_S, PIPE_MTE3> sync;
      sync.SetFlag(0);
      wait_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
      pipe_barrier(PIPE_ALL);
      break;
    }
    case 4: {  // static tensor not 32-byte aligned
      LocalTensor<float> t(TPosition::VECCALC, 48, 16);
      (void)t;
      break;
    }
    case 5: {  // static tensor past the end of the UB
      LocalTensor<half> t(TPosition::VECIN, 196608 - 64, 64);
      (void)t;
      break;
    }
    case 6: {  // allocator overflow
      LocalMemAllocator<Hardware::UB> ub;
      LocalTensor<float> a = ub.Alloc<float, 40000>();
      LocalTensor<float> b = ub.Alloc<float>(10000);
      (void)a;
      (void)b;
      break;
    }
    case 7: {  // unaligned vector operand
      LocalMemAllocator<Hardware::UB> ub;
      LocalTensor<float> a = ub.Alloc<float, 256>();
      Add(a, a[3], a, 64);
      break;
    }
    case 8: {  // strides that leave the tensor
      LocalMemAllocator<Hardware::UB> ub;
      LocalTensor<half> a = ub.Alloc<half, 256>();
      LocalTensor<half> b = ub.Alloc<half, 2048>();
      Add(a, b, b, 128, 3, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
      break;
    }
    case 9: {  // count form with isSetMask = false but the register in Normal mode
      LocalMemAllocator<Hardware::UB> ub;
      LocalTensor<float> a = ub.Alloc<float, 256>();
      Adds<float, false>(a, a, 1.0f, 1);
      break;
    }
    case 10: {  // allocator positions, GetCurAddr, L1 allocator, and the results land where expected
      LocalMemAllocator<Hardware::UB> ub;
      LocalTensor<float> a = ub.Alloc<TPosition::VECIN, float, 10>();  // 40 bytes -> next address 64
      const uint32_t next = ub.GetCurAddr();
      LocalTensor<float> b = ub.Alloc<float>(8);
      LocalMemAllocator<Hardware::L1> l1;
      LocalTensor<half> c = l1.Alloc<half, 64>();
      GlobalTensor<uint32_t> o;
      o.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(out), 8);
      o.SetValue(0, next);
      o.SetValue(1, static_cast<uint32_t>(reinterpret_cast<uint8_t*>(b.GetPhyAddr()) -
                                          reinterpret_cast<uint8_t*>(a.GetPhyAddr())));
      o.SetValue(2, static_cast<uint32_t>(a.GetPosition()));
      o.SetValue(3, static_cast<uint32_t>(b.GetPosition()));
      o.SetValue(4, static_cast<uint32_t>(c.GetPosition()));
      o.SetValue(5, GetVecLen());
      o.SetValue(6, static_cast<uint32_t>(GetPhyType(TPosition::CO1)));
      break;
    }
    case 11: {  // TBufPool and the in-place queue forms
      TPipe pipe;
      TBufPool<TPosition::VECCALC> pool;
      pipe.InitBufPool(pool, 4096);
      TQue<TPosition::VECIN, 1> q;
      TBuf<TPosition::VECCALC> tb;
      pool.InitBuffer(q, 2, 1024);
      pool.InitBuffer(tb, 1024);
      LocalTensor<float> t;
      q.AllocTensor<float>(t);
      Duplicate(t, 2.5f, 256);
      q.EnQue(t);
      LocalTensor<float> u;
      q.DeQue<float>(u);
      LocalTensor<float> v = tb.Get<float>();
      Muls(v, u, 2.0f, 256);
      GlobalTensor<float> o;
      o.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 256);
      DataCopy(o, v, 256);
      q.FreeTensor(u);
      pool.Reset();
      TBuf<TPosition::VECCALC> big;
      pool.InitBuffer(big, 8192);  // larger than the pool: fails
      break;
    }
    case 12:  // GM positions are not local memory
    {
      LocalTensor<float> t(TPosition::GM, 0, 8);
      (void)t;
      break;
    }
    default:
      break;
  }
}

namespace {

struct Rule {
  int which;
  int code;
  const char* msg;
};

class VecRules : public ::testing::TestWithParam<Rule> {};

TEST_P(VecRules, FailsWithAClearMessage) {
  const Rule r = GetParam();
  std::vector<uint8_t> out(4096, 0);
  FakeServices svc;
  Runner run(&svc);
  EXPECT_EQ(run.Run<rule_kernel>(1, int32_t{r.which}, out.data()), r.code) << run.FirstError();
  if (r.code != 0) {
    EXPECT_NE(run.errors[0].find(r.msg), std::string::npos) << run.errors[0];
  }
}

INSTANTIATE_TEST_SUITE_P(
    Pages, VecRules,
    ::testing::Values(
        Rule{0, SIMNPU_BLOCK_CHECK_FAILED, "WaitFlag<MTE2_V>(2) without a matching SetFlag<MTE2_V>(2): the NPU would hang"},
        Rule{1, SIMNPU_BLOCK_CHECK_FAILED, "SetFlag<V_MTE3>(8): event id out of range [0, 7]"},
        Rule{3, 0, ""},
        Rule{4, SIMNPU_BLOCK_CHECK_FAILED, "the start address must be 32-byte aligned"},
        Rule{5, SIMNPU_BLOCK_CHECK_FAILED, "overflow the unified buffer (UB) (196608 bytes)"},
        Rule{6, SIMNPU_BLOCK_CHECK_FAILED,
             "LocalMemAllocator::Alloc: 10000 elements of float (40000 bytes) at address 160000 overflow the unified "
             "buffer (UB) (196608 bytes, 36608 bytes left)"},
        Rule{7, SIMNPU_BLOCK_CHECK_FAILED, "Add: the src operand starts at UB offset 12, which is not 32-byte aligned"},
        Rule{8, SIMNPU_BLOCK_CHECK_FAILED, "Add: the dst operand reaches byte 768 (repeat 2) but its LocalTensor has 512 bytes"},
        Rule{9, SIMNPU_BLOCK_CHECK_FAILED, "needs SetMaskCount()"},
        Rule{12, SIMNPU_BLOCK_CHECK_FAILED, "position GM is not a local memory"}));

TEST(VecRules, DoubleSetFlagIsReportedOnce) {
  FakeServices svc;
  Runner run(&svc);
  std::vector<uint8_t> out(64, 0);
  ASSERT_EQ(run.Run<rule_kernel>(1, int32_t{2}, out.data()), 0) << run.FirstError();
  ASSERT_EQ(svc.diags.size(), 1u);
  EXPECT_NE(svc.diags[0].second.find("SetFlag<S_V>(1) while the flag is already set"), std::string::npos)
      << svc.diags[0].second;
}

TEST(VecRules, AllocatorAddressesAndPositions) {
  FakeServices svc;
  Runner run(&svc);
  std::vector<uint32_t> out(16, 0xffffffffu);
  ASSERT_EQ(run.Run<rule_kernel>(1, int32_t{10}, reinterpret_cast<GM_ADDR>(out.data())), 0) << run.FirstError();
  EXPECT_EQ(out[0], 64u);  // 40 bytes rounded up to 32
  EXPECT_EQ(out[1], 64u);
  EXPECT_EQ(out[2], static_cast<uint32_t>(TPosition::VECIN));
  EXPECT_EQ(out[3], static_cast<uint32_t>(TPosition::VECCALC));  // the UB default
  EXPECT_EQ(out[4], static_cast<uint32_t>(TPosition::A1));       // the L1 default
  EXPECT_EQ(out[5], 256u);
  EXPECT_EQ(out[6], static_cast<uint32_t>(Hardware::L0C));
}

TEST(VecRules, BufPoolAndInPlaceQueueForms) {
  FakeServices svc;
  Runner run(&svc);
  std::vector<float> out(256, -1.0f);
  EXPECT_EQ(run.Run<rule_kernel>(1, int32_t{11}, reinterpret_cast<GM_ADDR>(out.data())), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(run.errors[0].find("TBufPool: 1 buffer(s) of 8192 bytes at offset 0 need 8192 bytes, but the pool has 4096"),
            std::string::npos)
      << run.errors[0];
  for (float v : out) ASSERT_EQ(v, 5.0f);
}

}  // namespace
