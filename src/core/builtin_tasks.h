// Built-in stream tasks: the SDMA reduce (aclrtReduceAsync) and the random
// number generator (aclrtRandomNumAsync), plus the overflow-status copy and
// reset tasks (aclrtGetOverflowStatus / aclrtResetOverflowStatus).
//
// Each is an ordinary stream task: its arguments are fixed at submission,
// device memory is read and written when the stream reaches it (through the
// simulated device's memory path, so managed memory migrates as for a copy).
//
// Random numbers (docs/builtin_tasks.md): Philox4x32-10 keyed by the 64-bit
// seed, counter = the 128-bit little-endian value at randomCounterAddr, which
// the task advances by the number of 128-bit blocks it used. Same seed and
// counter: the same numbers on every machine.
#ifndef SIMNPU_CORE_BUILTIN_TASKS_H_
#define SIMNPU_CORE_BUILTIN_TASKS_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/task.h"

namespace simnpu::core {

// Element types the reduce and random tasks handle (aclDataType values).
enum class Elem : int {
  kF32 = 0, kF16 = 1, kI8 = 2, kI32 = 3, kU8 = 4, kI16 = 6, kU16 = 7, kU32 = 8,
  kI64 = 9, kU64 = 10, kBf16 = 27, kI4 = 29,
};
size_t ElemBits(Elem e);

// Reduce kinds (aclrtReduceKind values).
constexpr int kReduceSum = 10, kReduceMax = 11, kReduceMin = 12, kReduceEqual = 13;

// dst[i] = dst[i] op src[i] over `bytes` bytes. Float results that leave the
// finite range raise the overflow status (and saturate in SATURATION mode).
class ReduceTask : public Task {
 public:
  ReduceTask(void* dst, const void* src, uint64_t bytes, int kind, Elem type)
      : dst_(dst), src_(src), bytes_(bytes), kind_(kind), type_(type) {}
  int Run(ExecContext& ctx) override;
  const char* name() const override { return "reduce"; }

 private:
  void* dst_;
  const void* src_;
  uint64_t bytes_;
  int kind_;
  Elem type_;
};

// One parameter of a random task: an immediate value (raw little-endian
// bytes) or a device address read when the task runs.
struct RandomParam {
  bool is_addr = false;
  uint64_t raw = 0;      // immediate bytes, or the address
  uint8_t size = 0;      // bytes of the immediate
};

struct RandomSpec {
  int func = 0;          // aclrtRandomNumFuncType
  Elem type = Elem::kF32;
  RandomParam p0, p1;    // ratio / min,max / mean,stddev
  RandomParam seed, num;
  void* result = nullptr;
  void* counter = nullptr;
};

class RandomTask : public Task {
 public:
  explicit RandomTask(const RandomSpec& s) : s_(s) {}
  int Run(ExecContext& ctx) override;
  const char* name() const override { return "random_num"; }

 private:
  RandomSpec s_;
};

// Copies the overflow status of the stream's device (64 bytes, first uint32
// the flag) to out, or clears it.
class OverflowStatusTask : public Task {
 public:
  OverflowStatusTask(void* out, bool reset) : out_(out), reset_(reset) {}
  int Run(ExecContext& ctx) override;
  const char* name() const override { return reset_ ? "overflow_reset" : "overflow_status"; }

 private:
  void* out_;
  bool reset_;
};

// Philox4x32-10 (Salmon et al., SC'11): one 128-bit block of output for a
// 128-bit counter and a 64-bit key.
std::array<uint32_t, 4> Philox4x32(std::array<uint32_t, 4> ctr, std::array<uint32_t, 2> key);

// IEEE half / bfloat16 conversions (round to nearest even; overflow -> inf).
float HalfToFloat(uint16_t h);
uint16_t FloatToHalf(float f);
float Bf16ToFloat(uint16_t b);
uint16_t FloatToBf16(float f);

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_BUILTIN_TASKS_H_
