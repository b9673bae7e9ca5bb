// simnpu Ascend C model: DataSyncBarrier<MemDsbT>, the barrier that holds
// later instructions until the earlier memory accesses of the named kind
// (ALL, DDR = global memory, UB, SEQ) are done.
//
// The model performs every access in program order, so the barrier changes
// no data; what it still has to give is the ordering other blocks observe:
// it is a full memory fence, so a block that writes data, calls the barrier
// and then writes a flag never lets another block see the flag before the
// data. MemDsbT is a builtin enum of the kernel language (global, also
// reachable as AscendC::MemDsbT).
#ifndef SIMNPU_ASCENDC_DATA_SYNC_BARRIER_H_
#define SIMNPU_ASCENDC_DATA_SYNC_BARRIER_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

enum class MemDsbT : uint8_t { ALL = 0, DDR = 1, UB = 2, SEQ = 3 };

namespace AscendC {

using ::MemDsbT;

template <MemDsbT arg0>
inline void DataSyncBarrier() {
  static_assert(arg0 == MemDsbT::ALL || arg0 == MemDsbT::DDR || arg0 == MemDsbT::UB || arg0 == MemDsbT::SEQ,
                "DataSyncBarrier: the memory kind must be MemDsbT::ALL, DDR, UB or SEQ");
  ::simnpu::ascendc::detail::FullFence();
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_DATA_SYNC_BARRIER_H_
