// Bandwidth of model vector kernels (z = x op y over 64 MiB arrays, half and
// float) against plain C++ loops over the same data on the same thread count.
// Not a ctest; run by hand: ascendc_model_bench [threads] [reps]
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

#include "ascendc_model/harness.h"
#include "ascendc_model/kernels.h"

using simnpu_test::FakeServices;
using simnpu_test::Runner;

namespace {

double Seconds(const std::function<void()>& f, int reps) {
  f();  // warm-up (page faults)
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto a = std::chrono::steady_clock::now();
    f();
    const auto b = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void Parallel(int threads, size_t n, const std::function<void(size_t, size_t)>& body) {
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t) {
    const size_t lo = n * t / threads, hi = n * (t + 1) / threads;
    ts.emplace_back([=] { body(lo, hi); });
  }
  for (auto& t : ts) t.join();
}

__attribute__((noinline)) void PlainAddFloat(float* z, const float* x, const float* y, size_t lo, size_t hi) {
  for (size_t i = lo; i < hi; ++i) z[i] = x[i] + y[i];
}
__attribute__((noinline)) void PlainAddF16(_Float16* z, const _Float16* x, const _Float16* y, size_t lo, size_t hi) {
  for (size_t i = lo; i < hi; ++i) z[i] = x[i] + y[i];
}
__attribute__((noinline, target("avx2,f16c"))) void F16cAdd(uint16_t* z, const uint16_t* x, const uint16_t* y,
                                                            size_t lo, size_t hi) {
  size_t i = lo;
  for (; i + 8 <= hi; i += 8) {
    const __m256 a = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i)));
    const __m256 b = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(y + i)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(z + i), _mm256_cvtps_ph(_mm256_add_ps(a, b), 0));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 9;
  const size_t bytes = 64u << 20;
  const int64_t blocks = 48;
  FakeServices svc;
  Runner runner(&svc);

  {
    const size_t n = bytes / 4;
    std::vector<float> x(n, 1.0f), y(n, 2.0f), z(n, 0.0f);
    const double plain = Seconds([&] { Parallel(threads, n, [&](size_t lo, size_t hi) { PlainAddFloat(z.data(), x.data(), y.data(), lo, hi); }); }, reps);
    for (uint32_t tile : {128u, 2048u, 8192u}) {
      const double model = Seconds([&] {
        runner.RunThreads<vadd_float>(threads, blocks, (GM_ADDR)x.data(), (GM_ADDR)y.data(), (GM_ADDR)z.data(),
                                      static_cast<uint32_t>(n), tile);
      }, reps);
      std::printf("float add %2d threads tile %5u: plain %6.1f GB/s  model %6.1f GB/s  ratio %.2f\n", threads, tile,
                  3.0 * bytes / plain / 1e9, 3.0 * bytes / model / 1e9, plain / model);
    }
    if (z[n - 1] != 3.0f) std::printf("WRONG float result\n");
  }
  {
    const size_t n = bytes / 2;
    std::vector<uint16_t> x(n, 0x3c00), y(n, 0x4000), z(n, 0);
    const double naive = Seconds([&] { Parallel(threads, n, [&](size_t lo, size_t hi) {
      PlainAddF16(reinterpret_cast<_Float16*>(z.data()), reinterpret_cast<const _Float16*>(x.data()),
                  reinterpret_cast<const _Float16*>(y.data()), lo, hi); }); }, 1);
    const double f16c = Seconds([&] { Parallel(threads, n, [&](size_t lo, size_t hi) { F16cAdd(z.data(), x.data(), y.data(), lo, hi); }); }, reps);
    for (uint32_t tile : {128u, 2048u, 8192u}) {
      const double model = Seconds([&] {
        runner.RunThreads<vadd_half>(threads, blocks, (GM_ADDR)x.data(), (GM_ADDR)y.data(), (GM_ADDR)z.data(),
                                     static_cast<uint32_t>(n), tile);
      }, reps);
      std::printf("half  add %2d threads tile %5u: plain(_Float16) %6.2f GB/s  plain(F16C) %6.1f GB/s  model %6.1f GB/s  "
                  "ratio vs F16C %.2f\n",
                  threads, tile, 3.0 * bytes / naive / 1e9, 3.0 * bytes / f16c / 1e9, 3.0 * bytes / model / 1e9,
                  f16c / model);
    }
    if (z[n - 1] != 0x4200) std::printf("WRONG half result %x\n", z[n - 1]);
  }
  return 0;
}
