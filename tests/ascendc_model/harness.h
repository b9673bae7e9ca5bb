// Test harness for the Ascend C model: a fake services table (counts GM
// traffic through the managed window, collects printf output and
// diagnostics) and a block runner that calls RunBlock like the runtime does.
#ifndef SIMNPU_TESTS_ASCENDC_MODEL_HARNESS_H_
#define SIMNPU_TESTS_ASCENDC_MODEL_HARNESS_H_

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "kernel_operator.h"

namespace simnpu_test {

struct FakeServices {
  simnpu_kernel_services table{};
  std::atomic<int> reads{0};
  std::atomic<int> writes{0};
  std::atomic<size_t> read_bytes{0};
  std::atomic<size_t> write_bytes{0};
  int fail_rc = 0;  // nonzero: gm_read/gm_write fail with this code
  std::mutex mu;
  std::vector<std::string> prints;  // one entry per print() call
  std::vector<std::pair<int, std::string>> diags;

  FakeServices() {
    table.abi_version = SIMNPU_KERNEL_ABI_VERSION;
    table.gm_read = &GmRead;
    table.gm_write = &GmWrite;
    table.print = &Print;
    table.diagnostic = &Diag;
  }
  static int GmRead(void* ctx, void* dst, const void* src, size_t n) {
    auto* s = static_cast<FakeServices*>(ctx);
    if (s->fail_rc != 0) return s->fail_rc;
    ++s->reads;
    s->read_bytes += n;
    std::memcpy(dst, src, n);
    return 0;
  }
  static int GmWrite(void* ctx, void* dst, const void* src, size_t n) {
    auto* s = static_cast<FakeServices*>(ctx);
    if (s->fail_rc != 0) return s->fail_rc;
    ++s->writes;
    s->write_bytes += n;
    std::memcpy(dst, src, n);
    return 0;
  }
  static void Print(void* ctx, const char* text, size_t n) {
    auto* s = static_cast<FakeServices*>(ctx);
    std::lock_guard<std::mutex> lock(s->mu);
    s->prints.emplace_back(text, n);
  }
  static void Diag(void* ctx, int level, const char* text) {
    auto* s = static_cast<FakeServices*>(ctx);
    std::lock_guard<std::mutex> lock(s->mu);
    s->diags.emplace_back(level, text);
  }
  std::string AllPrinted() {
    std::lock_guard<std::mutex> lock(mu);
    std::string all;
    for (const auto& p : prints) all += p;
    return all;
  }
};

// Runs blocks of one kernel through RunBlock, one UB per worker thread.
class Runner {
 public:
  explicit Runner(FakeServices* svc, size_t ub_size = 196608) : svc_(svc), ub_size_(ub_size) {}

  uint32_t flags = 0;
  uint32_t core_type = SIMNPU_KERNEL_AIV;
  uintptr_t managed_base = 0;
  size_t managed_size = 0;
  std::vector<std::string> errors;  // error_msg per failed block
  std::vector<int> codes;           // return code per block

  // Calls run_block for blocks [0, n) on `threads` threads; returns the first
  // nonzero code (or 0).
  int RunRaw(simnpu_run_block_fn run, int64_t n, void* const* argv, int threads = 1) {
    codes.assign(static_cast<size_t>(n), 0);
    errors.assign(static_cast<size_t>(n), std::string());
    std::atomic<int64_t> next{0};
    auto worker = [&] {
      void* ub = std::aligned_alloc(32, ub_size_);
      std::memset(ub, 0xcd, ub_size_);
      char msg[1024];
      for (;;) {
        const int64_t b = next.fetch_add(1);
        if (b >= n) break;
        simnpu_block_env env{};
        env.abi_version = SIMNPU_KERNEL_ABI_VERSION;
        env.core_type = core_type;
        env.block_idx = b;
        env.block_num = n;
        env.npu_arch = 2201;
        env.ub_base = ub;
        env.ub_size = ub_size_;
        env.managed_base = managed_base;
        env.managed_size = managed_size;
        env.services = &svc_->table;
        env.services_ctx = svc_;
        msg[0] = '\0';
        env.error_msg = msg;
        env.error_msg_cap = sizeof msg;
        env.flags = flags;
        const int rc = run(&env, argv);
        codes[static_cast<size_t>(b)] = rc;
        if (rc != 0) errors[static_cast<size_t>(b)] = msg;
      }
      std::free(ub);
    };
    if (threads <= 1) {
      worker();
    } else {
      std::vector<std::thread> ts;
      for (int t = 0; t < threads; ++t) ts.emplace_back(worker);
      for (auto& t : ts) t.join();
    }
    for (int c : codes) {
      if (c != 0) return c;
    }
    return 0;
  }

  template <auto Fn, typename... Args>
  int Run(int64_t n, Args... args) {
    std::tuple<Args...> values(args...);
    return RunTuple<Fn>(n, values, std::index_sequence_for<Args...>{});
  }

  template <auto Fn, typename... Args>
  int RunThreads(int threads, int64_t n, Args... args) {
    std::tuple<Args...> values(args...);
    return RunTupleThreads<Fn>(threads, n, values, std::index_sequence_for<Args...>{});
  }

  std::string FirstError() const {
    for (const auto& e : errors) {
      if (!e.empty()) return e;
    }
    return std::string();
  }

 private:
  template <auto Fn, typename Tuple, size_t... I>
  int RunTuple(int64_t n, Tuple& t, std::index_sequence<I...>) {
    void* argv[sizeof...(I) + 1] = {static_cast<void*>(&std::get<I>(t))..., nullptr};
    return RunRaw(&::simnpu::ascendc::RunBlock<Fn>, n, argv);
  }
  template <auto Fn, typename Tuple, size_t... I>
  int RunTupleThreads(int threads, int64_t n, Tuple& t, std::index_sequence<I...>) {
    void* argv[sizeof...(I) + 1] = {static_cast<void*>(&std::get<I>(t))..., nullptr};
    return RunRaw(&::simnpu::ascendc::RunBlock<Fn>, n, argv, threads);
  }

  FakeServices* svc_;
  size_t ub_size_;
};

inline uint16_t HalfBits(float f) { return half(f).val; }

}  // namespace simnpu_test

#endif  // SIMNPU_TESTS_ASCENDC_MODEL_HARNESS_H_
