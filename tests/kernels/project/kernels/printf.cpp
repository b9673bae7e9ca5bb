// Kernel tests: device printf with integer, float, string, char, hex and
// 64-bit conversions; two lines per block.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kt_printf(int32_t tag, float value)
{
    const int32_t b = static_cast<int32_t>(AscendC::GetBlockIdx());
    const int32_t n = static_cast<int32_t>(AscendC::GetBlockNum());
    AscendC::printf("kt_printf block %d of %d: tag=%d value=%f name=%s\n", b, n, tag, value, "kernel");
    AscendC::printf("kt_printf block %d: hex=%x char=%c u=%u big=%lld half=%.2f pct=100%%\n", b, 255 + b,
                    static_cast<char>('a' + b), static_cast<uint32_t>(3000000000u), -1234567890123LL,
                    static_cast<half>(1.5f));
}

// Prints `lines` numbered lines of 64 characters (more than the 32 KiB the
// device keeps per block when lines > 512), then traps if trap != 0.
extern "C" __global__ __aicore__ void kt_printf_flood(uint32_t lines, int32_t trap)
{
    for (uint32_t i = 0; i < lines; ++i) {
        AscendC::printf("kt_printf_flood block %d line %05u ............................\n",
                        static_cast<int32_t>(AscendC::GetBlockIdx()), i);
    }
    if (trap != 0) {
        asm("trap");
    }
}
