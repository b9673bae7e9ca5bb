// Input patterns of the vector-add benchmarks and their expected sums.
//
// x[i] = i mod 1024, y[i] = (7 i) mod 512: small integers, so x + y is exact
// in half and in float and the result can be compared bit for bit. The
// patterns repeat every 1024 elements; writers copy one 64 KiB chunk over
// and over, which costs what writing the data costs (the chunk stays in
// cache).
#ifndef SIMNPU_BENCH_PATTERNS_H_
#define SIMNPU_BENCH_PATTERNS_H_

#include <cstdint>
#include <cstring>
#include <vector>

namespace bench_patterns {

constexpr size_t kChunk = 64 * 1024;  // bytes; a multiple of 1024 elements of half and of float

inline float XValue(size_t i) { return static_cast<float>(i % 1024); }
inline float YValue(size_t i) { return static_cast<float>((7 * i) % 512); }

inline uint16_t HalfBits(float v) {
  _Float16 h = static_cast<_Float16>(v);
  uint16_t b;
  std::memcpy(&b, &h, sizeof b);
  return b;
}

// One chunk of x, y and the expected z for element type T (uint16_t = half bits, or float).
template <typename T>
struct Chunks {
  std::vector<char> x, y, z;
  Chunks() : x(kChunk), y(kChunk), z(kChunk) {
    const size_t n = kChunk / sizeof(T);
    for (size_t i = 0; i < n; ++i) {
      T a, b, c;
      if constexpr (sizeof(T) == 2) {
        a = HalfBits(XValue(i));
        b = HalfBits(YValue(i));
        c = HalfBits(XValue(i) + YValue(i));
      } else {
        a = XValue(i);
        b = YValue(i);
        c = XValue(i) + YValue(i);
      }
      std::memcpy(&x[i * sizeof(T)], &a, sizeof(T));
      std::memcpy(&y[i * sizeof(T)], &b, sizeof(T));
      std::memcpy(&z[i * sizeof(T)], &c, sizeof(T));
    }
  }
};

// Writes `bytes` of a repeating chunk to dst.
inline void Fill(char* dst, const std::vector<char>& chunk, size_t bytes) {
  for (size_t off = 0; off < bytes; off += kChunk)
    std::memcpy(dst + off, chunk.data(), bytes - off < kChunk ? bytes - off : kChunk);
}

// Offset of the first mismatch of src against the repeating chunk, or SIZE_MAX.
inline size_t Mismatch(const char* src, const std::vector<char>& chunk, size_t bytes) {
  for (size_t off = 0; off < bytes; off += kChunk) {
    size_t n = bytes - off < kChunk ? bytes - off : kChunk;
    if (std::memcmp(src + off, chunk.data(), n) != 0) {
      for (size_t i = 0; i < n; ++i)
        if (src[off + i] != chunk[i]) return off + i;
    }
  }
  return SIZE_MAX;
}

}  // namespace bench_patterns

#endif  // SIMNPU_BENCH_PATTERNS_H_
