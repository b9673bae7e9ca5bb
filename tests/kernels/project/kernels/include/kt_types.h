// Types shared by the kernels of the kernel end-to-end tests and their host
// programs: the struct passed by value to kt_scalars and the record that
// kernel writes back so the host can compare every parameter bit for bit.
#ifndef KT_TYPES_H
#define KT_TYPES_H

#include <cstdint>

// 32 bytes, alignment 8: a double after an int, a short, a byte array and
// padding in between, so a wrong offset or size shows up in the echo.
struct KtParams {
    float a;
    int32_t b;
    double c;
    int16_t d;
    uint8_t e[3];
    uint64_t f;
};

// What block 0 of kt_scalars writes to its echo buffer.
struct KtEcho {
    float alpha;
    int32_t beta;
    uint64_t big;
    int8_t small;
    uint32_t n;
    KtParams p;
    int64_t blockNum;
};

// A parameter type aligned to 16 bytes (more than the 8-byte slots of
// aclrtKernelArgsAppend); a vector type, so that copies of it use aligned
// SSE loads and a misaligned argument faults instead of passing silently.
typedef float KtWide __attribute__((vector_size(16)));

// kt_waves state words (uint32_t each)
enum KtWaveWord : uint32_t {
    kWaveCurrent = 0,  // blocks running now
    kWaveMax = 1,      // largest value kWaveCurrent reached
    kWaveTotal = 2,    // blocks that ran
    kWaveWords = 8
};

#endif  // KT_TYPES_H
