// aclrtReduceAsync and aclrtRandomNumAsync (acl-api-ext.md §6).
#include <cmath>
#include <cstring>
#include <vector>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;

class BuiltinTaskTest : public apitest::DeviceTest {
 protected:
  void* Dev(size_t n) {
    void* p = nullptr;
    EXPECT_EQ(ACL_SUCCESS, aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    bufs_.push_back(p);
    return p;
  }
  template <typename T>
  void* DevFrom(const std::vector<T>& v) {
    void* p = Dev(v.size() * sizeof(T));
    EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(p, v.size() * sizeof(T), v.data(), v.size() * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE));
    return p;
  }
  template <typename T>
  std::vector<T> Host(const void* p, size_t n) {
    std::vector<T> v(n);
    EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(v.data(), n * sizeof(T), p, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
  }
  // dst op= src over the vectors; returns dst afterwards.
  template <typename T>
  std::vector<T> Reduce(const std::vector<T>& d, const std::vector<T>& s, aclrtReduceKind k, aclDataType t) {
    void* dst = DevFrom(d);
    void* src = DevFrom(s);
    EXPECT_ACL_OK(aclrtReduceAsync(dst, src, d.size() * sizeof(T), k, t, nullptr, nullptr));
    EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
    return Host<T>(dst, d.size());
  }
  void TearDown() override {
    for (void* p : bufs_) (void)aclrtFree(p);
    apitest::DeviceTest::TearDown();
  }
  std::vector<void*> bufs_;
};

// ------------------------------------------------------------------ reduce

TEST_F(BuiltinTaskTest, ReduceSumFloatAsInSampleS29) {
  std::vector<float> a{1, 2, 3, 4};
  EXPECT_EQ((std::vector<float>{2, 4, 6, 8}), Reduce(a, a, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT));
}

TEST_F(BuiltinTaskTest, ReduceKindsOnIntegers) {
  std::vector<int32_t> d{5, -7, 100, 0}, s{3, 9, -200, 0};
  EXPECT_EQ((std::vector<int32_t>{8, 2, -100, 0}), Reduce(d, s, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32));
  EXPECT_EQ((std::vector<int32_t>{5, 9, 100, 0}), Reduce(d, s, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_INT32));
  EXPECT_EQ((std::vector<int32_t>{3, -7, -200, 0}), Reduce(d, s, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_INT32));
  // EQUAL (undocumented in CANN): simnpu stores the source element.
  EXPECT_EQ(s, Reduce(d, s, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_INT32));
  // Integer sums wrap.
  EXPECT_EQ((std::vector<int8_t>{-128, 1}), Reduce<int8_t>({127, -1}, {1, 2}, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT8));
  EXPECT_EQ((std::vector<uint8_t>{4, 200}), Reduce<uint8_t>({250, 100}, {10, 100}, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_UINT8));
  EXPECT_EQ((std::vector<uint8_t>{250, 100}), Reduce<uint8_t>({250, 100}, {10, 100}, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_UINT8));
  EXPECT_EQ((std::vector<int16_t>{-3, -300}), Reduce<int16_t>({-3, 5}, {7, -300}, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_INT16));
  EXPECT_EQ((std::vector<uint16_t>{65535, 7}), Reduce<uint16_t>({65535, 5}, {3, 7}, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_UINT16));
  EXPECT_EQ((std::vector<uint32_t>{1, 0xFFFFFFFFu}),
            Reduce<uint32_t>({0xFFFFFFFFu, 0xFFFFFFFEu}, {2, 1}, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_UINT32));
}

TEST_F(BuiltinTaskTest, ReduceInt4WorksOnNibbles) {
  // byte = (hi << 4) | lo, each a signed 4-bit value: {lo 3, hi -2} + {lo 4, hi -1}.
  std::vector<uint8_t> d{static_cast<uint8_t>((0xE << 4) | 0x3)}, s{static_cast<uint8_t>((0xF << 4) | 0x4)};
  // 3 + 4 = 7, -2 + -1 = -3 (0xD)
  EXPECT_EQ((std::vector<uint8_t>{0xD7}), Reduce(d, s, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT4));
  // max(3, 4) = 4, max(-2, -1) = -1 (0xF)
  EXPECT_EQ((std::vector<uint8_t>{0xF4}), Reduce(d, s, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_INT4));
}

TEST_F(BuiltinTaskTest, ReduceHalfAndBf16) {
  // half: 1.0 = 0x3C00, 2.0 = 0x4000, 3.0 = 0x4200, 0.5 = 0x3800, 1.5 = 0x3E00
  EXPECT_EQ((std::vector<uint16_t>{0x4200, 0x3E00}),
            Reduce<uint16_t>({0x3C00, 0x3800}, {0x4000, 0x3C00}, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT16));
  EXPECT_EQ((std::vector<uint16_t>{0x4000, 0x3C00}),
            Reduce<uint16_t>({0x3C00, 0x3800}, {0x4000, 0x3C00}, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_FLOAT16));
  // bf16: 1.0 = 0x3F80, 2.0 = 0x4000, 3.0 = 0x4040
  EXPECT_EQ((std::vector<uint16_t>{0x4040, 0x4080}),  // 1 + 2 = 3, 2 + 2 = 4
            Reduce<uint16_t>({0x3F80, 0x4000}, {0x4000, 0x4000}, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_BF16));
  EXPECT_EQ((std::vector<uint16_t>{0x3F80, 0x3F80}),
            Reduce<uint16_t>({0x3F80, 0x4000}, {0x4000, 0x3F80}, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_BF16));
}

TEST_F(BuiltinTaskTest, ReduceLargeBufferCrossesChunks) {
  const size_t n = (3u << 20) / 4 + 5;  // 3 MiB + 20 bytes of floats
  std::vector<float> d(n), s(n);
  for (size_t i = 0; i < n; ++i) {
    d[i] = static_cast<float>(i % 1000);
    s[i] = static_cast<float>(i % 7);
  }
  auto r = Reduce(d, s, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) bad += r[i] != d[i] + s[i];
  EXPECT_EQ(0u, bad);
}

TEST_F(BuiltinTaskTest, ReduceArgumentErrors) {
  void* a = Dev(64);
  void* b = Dev(64);
  const auto SUM = ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(nullptr, b, 16, SUM, ACL_FLOAT, nullptr, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(a, nullptr, 16, SUM, ACL_FLOAT, nullptr, nullptr));
  int reserve = 0;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(a, b, 16, SUM, ACL_FLOAT, nullptr, &reserve));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(a, b, 16, SUM, ACL_INT64, nullptr, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(a, b, 16, SUM, ACL_DOUBLE, nullptr, nullptr));
  EXPECT_FALSE(apitest::TakeErrMsg().empty());
  ClearErrorState();
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtReduceAsync(a, b, 0, SUM, ACL_FLOAT, nullptr, nullptr));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  aclrtReduceKind k9, k14;
  int v9 = 9, v14 = 14;
  std::memcpy(&k9, &v9, sizeof k9);
  std::memcpy(&k14, &v14, sizeof k14);
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtReduceAsync(a, b, 16, k9, ACL_FLOAT, nullptr, nullptr));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtReduceAsync(a, b, 16, k14, ACL_FLOAT, nullptr, nullptr));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtReduceAsync(a, b, 6, SUM, ACL_FLOAT, nullptr, nullptr));  // 1.5 floats
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtReduceAsync(a, b, (4ull << 30) + 4, SUM, ACL_FLOAT, nullptr, nullptr));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtReduceAsync(a, b, 128, SUM, ACL_FLOAT, nullptr, nullptr));  // past the buffer
  ClearErrorState();
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
}

// ------------------------------------------------------------------ random

aclrtRandomParaInfo Imm(uint64_t v, uint8_t size) {
  aclrtRandomParaInfo p;
  std::memset(&p, 0, sizeof p);
  std::memcpy(p.valueOrAddr, &v, 8);
  p.size = size;
  return p;
}
aclrtRandomParaInfo ImmF(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return Imm(u, 4);
}

class RandomTest : public BuiltinTaskTest {
 protected:
  void SetUp() override {
    BuiltinTaskTest::SetUp();
    result_ = Dev(1 << 16);
    counter_ = Dev(16);
    ASSERT_EQ(ACL_SUCCESS, aclrtMemset(counter_, 16, 0, 16));
  }
  aclrtRandomNumTaskInfo Info(aclDataType t, aclrtRandomNumFuncType f, aclrtRandomParaInfo p0, aclrtRandomParaInfo p1,
                              uint64_t seed, uint64_t num) {
    aclrtRandomNumTaskInfo info;
    std::memset(&info, 0xA5, sizeof info);  // reserved bytes are not checked
    info.dataType = t;
    info.randomNumFuncParaInfo.funcType = f;
    info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = p0;
    info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = p1;
    info.randomParaAddr = nullptr;
    info.randomResultAddr = result_;
    info.randomCounterAddr = counter_;
    info.randomSeed = Imm(seed, 8);
    info.randomNum = Imm(num, 4);
    return info;
  }
  aclError Run(aclrtRandomNumTaskInfo info) {
    aclError rc = aclrtRandomNumAsync(&info, nullptr, nullptr);
    if (rc == ACL_SUCCESS) rc = aclrtSynchronizeStream(nullptr);
    return rc;
  }
  void* result_ = nullptr;
  void* counter_ = nullptr;
};

// Philox4x32-10 of counter 0, key 0 (the Random123 known-answer vector).
constexpr uint32_t kKat[4] = {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u};

TEST_F(RandomTest, UniformUint32FollowsTheDocumentedGenerator) {
  ASSERT_EQ(ACL_SUCCESS, Run(Info(ACL_UINT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, Imm(0, 4), Imm(0xFFFFFFFFu, 4), 0, 2)));
  auto v = Host<uint32_t>(result_, 2);
  // value k = min + ((w[2k] << 32) | w[2k+1]) mod (max - min)
  const uint64_t x0 = (static_cast<uint64_t>(kKat[0]) << 32) | kKat[1];
  const uint64_t x1 = (static_cast<uint64_t>(kKat[2]) << 32) | kKat[3];
  EXPECT_EQ(static_cast<uint32_t>(x0 % 0xFFFFFFFFu), v[0]);
  EXPECT_EQ(static_cast<uint32_t>(x1 % 0xFFFFFFFFu), v[1]);
  // The counter advanced by the one 128-bit block used.
  auto c = Host<uint64_t>(counter_, 2);
  EXPECT_EQ(1u, c[0]);
  EXPECT_EQ(0u, c[1]);
}

TEST_F(RandomTest, SameSeedAndCounterSameNumbers) {
  auto info = Info(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, ImmF(3.0f), ImmF(2.0f), 1234, 1000);
  ASSERT_EQ(ACL_SUCCESS, Run(info));
  auto a = Host<float>(result_, 1000);
  ASSERT_EQ(ACL_SUCCESS, Run(info));  // counter advanced: different numbers
  auto b = Host<float>(result_, 1000);
  EXPECT_NE(a, b);
  ASSERT_EQ(ACL_SUCCESS, aclrtMemset(counter_, 16, 0, 16));
  ASSERT_EQ(ACL_SUCCESS, Run(info));
  EXPECT_EQ(a, Host<float>(result_, 1000));
  auto other = info;
  other.randomSeed = Imm(1235, 8);
  ASSERT_EQ(ACL_SUCCESS, aclrtMemset(counter_, 16, 0, 16));
  ASSERT_EQ(ACL_SUCCESS, Run(other));
  EXPECT_NE(a, Host<float>(result_, 1000));
}

TEST_F(RandomTest, DistributionsHaveTheirShape) {
  const int n = 8192;
  ASSERT_EQ(ACL_SUCCESS, Run(Info(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, ImmF(3.0f), ImmF(2.0f), 7, n)));
  auto v = Host<float>(result_, n);
  double sum = 0, sq = 0;
  for (float x : v) sum += x;
  const double mean = sum / n;
  for (float x : v) sq += (x - mean) * (x - mean);
  EXPECT_NEAR(3.0, mean, 0.1);
  EXPECT_NEAR(2.0, std::sqrt(sq / n), 0.1);

  ASSERT_EQ(ACL_SUCCESS, Run(Info(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, ImmF(3.0f), ImmF(2.0f), 7, n)));
  v = Host<float>(result_, n);
  for (float x : v) ASSERT_TRUE(x >= -1.0f && x <= 7.0f) << x;  // mean +- 2 stddev

  ASSERT_EQ(ACL_SUCCESS, Run(Info(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, Imm(1, 4), Imm(100, 4), 7, n)));
  auto iv = Host<int32_t>(result_, n);
  int lo = 1000, hi = -1000;
  for (int x : iv) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  EXPECT_EQ(1, lo);
  EXPECT_EQ(99, hi);  // [min, max)

  // fp16 uniform in [1, 2): every value's bits lie in [0x3C00, 0x4000].
  ASSERT_EQ(ACL_SUCCESS, Run(Info(ACL_FLOAT16, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, Imm(0x3C00, 2), Imm(0x4000, 2), 7, n)));
  auto hv = Host<uint16_t>(result_, n);
  for (uint16_t h : hv) ASSERT_TRUE(h >= 0x3C00 && h <= 0x4000) << h;

  // Dropout bitmask with ratio 0.4: about 60% of the bits are set.
  ASSERT_EQ(ACL_SUCCESS, Run(Info(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, ImmF(0.4f), Imm(0, 0), 7, n)));
  auto bits = Host<uint8_t>(result_, n / 8);
  int ones = 0;
  for (uint8_t b : bits) ones += __builtin_popcount(b);
  EXPECT_NEAR(0.6, static_cast<double>(ones) / n, 0.03);
}

TEST_F(RandomTest, ParametersFromDeviceMemory) {
  const float mean = 10.0f, stddev = 0.0f;
  void* pm = DevFrom(std::vector<float>{mean});
  void* ps = DevFrom(std::vector<float>{stddev});
  aclrtRandomParaInfo a = Imm(reinterpret_cast<uint64_t>(pm), 4), b = Imm(reinterpret_cast<uint64_t>(ps), 4);
  a.isAddr = b.isAddr = 1;
  ASSERT_EQ(ACL_SUCCESS, Run(Info(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, a, b, 1, 16)));
  EXPECT_EQ(std::vector<float>(16, 10.0f), Host<float>(result_, 16));
}

TEST_F(RandomTest, DataTypeIsRewrittenInPlace) {
  auto info = Info(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, ImmF(0), ImmF(1), 1, 4);
  ASSERT_EQ(ACL_SUCCESS, aclrtRandomNumAsync(&info, nullptr, nullptr));
  EXPECT_EQ(6, static_cast<int>(info.dataType));  // the runtime's FP32 code
  // 6 is ACL_INT16 to the ACL layer: the same struct passed again is refused.
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtRandomNumAsync(&info, nullptr, nullptr));
  ClearErrorState();
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
}

TEST_F(RandomTest, ArgumentErrors) {
  const auto U = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, N = ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtRandomNumAsync(nullptr, nullptr, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, Run(Info(ACL_INT8, U, Imm(0, 1), Imm(1, 1), 1, 4)));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, Run(Info(ACL_DOUBLE, U, Imm(0, 8), Imm(1, 8), 1, 4)));
  ClearErrorState();
  auto info = Info(ACL_FLOAT, U, ImmF(0), ImmF(1), 1, 4);
  int reserve = 0;
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtRandomNumAsync(&info, nullptr, &reserve));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, Run(Info(ACL_INT32, N, Imm(0, 4), Imm(1, 4), 1, 4)));  // normal needs a float
  auto no_counter = Info(ACL_FLOAT, U, ImmF(0), ImmF(1), 1, 4);
  no_counter.randomCounterAddr = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, Run(no_counter));
  auto no_result = Info(ACL_FLOAT, U, ImmF(0), ImmF(1), 1, 4);
  no_result.randomResultAddr = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, Run(no_result));
  auto seed0 = Info(ACL_FLOAT, U, ImmF(0), ImmF(1), 1, 4);
  seed0.randomSeed.size = 0;
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, Run(seed0));
  auto seed9 = Info(ACL_FLOAT, U, ImmF(0), ImmF(1), 1, 4);
  seed9.randomSeed.size = 9;
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, Run(seed9));
  auto isaddr2 = Info(ACL_FLOAT, U, ImmF(0), ImmF(1), 1, 4);
  isaddr2.randomNum.isAddr = 2;
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, Run(isaddr2));
  // A float16 parameter of 4 bytes is wider than the type.
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, Run(Info(ACL_FLOAT16, U, Imm(0x3C00, 4), Imm(0x4000, 2), 1, 4)));
  // More results than the result buffer holds.
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, Run(Info(ACL_FLOAT, U, ImmF(0), ImmF(1), 1, (1 << 16) / 4 + 1)));
  ClearErrorState();
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
}

}  // namespace
