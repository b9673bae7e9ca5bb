// Element-wise add of two half-precision vectors, z = x + y, written in Ascend C.
//
// Launch with 8 blocks. Block b owns the 2048 elements starting at 2048 * b.
// It streams its slice through the unified buffer in 16 tiles of 128 halves:
// two input queues and one output queue, each holding two buffers, so the
// copy-in of the next tile can overlap the add and copy-out of the current one.
#include "kernel_operator.h"

namespace uvm_sample {

constexpr uint32_t kElemsPerBlock = 2048;
constexpr uint32_t kQueueDepth = 2;                                       // double buffering
constexpr uint32_t kTileElems = 128;                                      // 256 bytes per tile
constexpr uint32_t kTilesPerBlock = kElemsPerBlock / kTileElems;          // 16
static_assert(kTileElems * sizeof(half) % 32 == 0, "DataCopy moves whole 32-byte units");
static_assert(kElemsPerBlock % kTileElems == 0, "a block's slice is a whole number of tiles");

class VectorAdd {
public:
    __aicore__ inline VectorAdd() {}

    __aicore__ inline void Setup(GM_ADDR x, GM_ADDR y, GM_ADDR z)
    {
        const uint32_t first = kElemsPerBlock * static_cast<uint32_t>(AscendC::GetBlockIdx());
        lhs_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + first, kElemsPerBlock);
        rhs_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + first, kElemsPerBlock);
        sum_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + first, kElemsPerBlock);
        pipe_.InitBuffer(lhsQueue_, kQueueDepth, kTileElems * sizeof(half));
        pipe_.InitBuffer(rhsQueue_, kQueueDepth, kTileElems * sizeof(half));
        pipe_.InitBuffer(sumQueue_, kQueueDepth, kTileElems * sizeof(half));
    }

    __aicore__ inline void Run()
    {
        for (uint32_t tile = 0; tile < kTilesPerBlock; ++tile) {
            Load(tile);
            Compute();
            Store(tile);
        }
    }

private:
    __aicore__ inline void Load(uint32_t tile)
    {
        AscendC::LocalTensor<half> a = lhsQueue_.AllocTensor<half>();
        AscendC::LocalTensor<half> b = rhsQueue_.AllocTensor<half>();
        AscendC::DataCopy(a, lhs_[tile * kTileElems], kTileElems);
        AscendC::DataCopy(b, rhs_[tile * kTileElems], kTileElems);
        lhsQueue_.EnQue(a);
        rhsQueue_.EnQue(b);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<half> a = lhsQueue_.DeQue<half>();
        AscendC::LocalTensor<half> b = rhsQueue_.DeQue<half>();
        AscendC::LocalTensor<half> c = sumQueue_.AllocTensor<half>();
        AscendC::Add(c, a, b, kTileElems);
        sumQueue_.EnQue<half>(c);
        lhsQueue_.FreeTensor(a);
        rhsQueue_.FreeTensor(b);
    }

    __aicore__ inline void Store(uint32_t tile)
    {
        AscendC::LocalTensor<half> c = sumQueue_.DeQue<half>();
        AscendC::DataCopy(sum_[tile * kTileElems], c, kTileElems);
        sumQueue_.FreeTensor(c);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, kQueueDepth> lhsQueue_;
    AscendC::TQue<AscendC::QuePosition::VECIN, kQueueDepth> rhsQueue_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, kQueueDepth> sumQueue_;
    AscendC::GlobalTensor<half> lhs_;
    AscendC::GlobalTensor<half> rhs_;
    AscendC::GlobalTensor<half> sum_;
};

}  // namespace uvm_sample

extern "C" __global__ __aicore__ void add_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    uvm_sample::VectorAdd op;
    op.Setup(x, y, z);
    op.Run();
}
