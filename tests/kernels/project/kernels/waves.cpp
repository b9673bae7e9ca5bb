// Kernel tests: how many blocks run at the same time. Each block counts
// itself in state[kWaveCurrent] (atomically, in global memory), records the
// largest count in state[kWaveMax], stays busy for spinUs microseconds (or
// until `wanted` blocks are running at once), then leaves.
#include <chrono>

#include "kernel_operator.h"
#include "kt_types.h"

extern "C" __global__ __aicore__ void kt_waves(GM_ADDR state, uint32_t spinUs, uint32_t wanted)
{
    __gm__ uint32_t* s = reinterpret_cast<__gm__ uint32_t*>(state);
    const uint32_t now = __atomic_add_fetch(&s[kWaveCurrent], 1u, __ATOMIC_SEQ_CST);
    uint32_t seen = __atomic_load_n(&s[kWaveMax], __ATOMIC_SEQ_CST);
    while (now > seen && !__atomic_compare_exchange_n(&s[kWaveMax], &seen, now, false, __ATOMIC_SEQ_CST,
                                                       __ATOMIC_SEQ_CST)) {
    }
    const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(spinUs);
    while (std::chrono::steady_clock::now() < end) {
        const uint32_t cur = __atomic_load_n(&s[kWaveCurrent], __ATOMIC_SEQ_CST);
        uint32_t m = __atomic_load_n(&s[kWaveMax], __ATOMIC_SEQ_CST);
        while (cur > m && !__atomic_compare_exchange_n(&s[kWaveMax], &m, cur, false, __ATOMIC_SEQ_CST,
                                                        __ATOMIC_SEQ_CST)) {
        }
        if (m >= wanted) {
            break;
        }
    }
    __atomic_add_fetch(&s[kWaveTotal], 1u, __ATOMIC_SEQ_CST);
    __atomic_sub_fetch(&s[kWaveCurrent], 1u, __ATOMIC_SEQ_CST);
}
