// Kernel tests: z = x + y in half and in float. Each block takes a
// contiguous slice of total/blockNum elements and walks it tile by tile
// through double-buffered queues (TQue depth 2): tile i+1 is copied in
// before tile i is computed, so two tensors sit in each input queue at once.
#include "kernel_operator.h"

namespace kt {

constexpr int32_t kBufferNum = 2;

template <typename T>
class TiledAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile)
    {
        const uint32_t blocks = static_cast<uint32_t>(AscendC::GetBlockNum());
        sliceLen_ = total / blocks;
        tileLen_ = tile;
        tiles_ = tile == 0 ? 0 : sliceLen_ / tile;
        const uint64_t first = static_cast<uint64_t>(sliceLen_) * static_cast<uint64_t>(AscendC::GetBlockIdx());
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + first, sliceLen_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + first, sliceLen_);
        zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z) + first, sliceLen_);
        pipe_.InitBuffer(qx_, kBufferNum, tileLen_ * sizeof(T));
        pipe_.InitBuffer(qy_, kBufferNum, tileLen_ * sizeof(T));
        pipe_.InitBuffer(qz_, kBufferNum, tileLen_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (tiles_ == 0) {
            return;
        }
        Load(0);
        for (uint32_t i = 0; i < tiles_; ++i) {
            if (i + 1 < tiles_) {
                Load(i + 1);  // second tensor in each input queue
            }
            Compute();
            Store(i);
        }
    }

private:
    __aicore__ inline void Load(uint32_t i)
    {
        AscendC::LocalTensor<T> x = qx_.template AllocTensor<T>();
        AscendC::LocalTensor<T> y = qy_.template AllocTensor<T>();
        AscendC::DataCopy(x, xGm_[i * tileLen_], tileLen_);
        AscendC::DataCopy(y, yGm_[i * tileLen_], tileLen_);
        qx_.EnQue(x);
        qy_.EnQue(y);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> x = qx_.template DeQue<T>();
        AscendC::LocalTensor<T> y = qy_.template DeQue<T>();
        AscendC::LocalTensor<T> z = qz_.template AllocTensor<T>();
        AscendC::Add(z, x, y, static_cast<int32_t>(tileLen_));
        qz_.EnQue(z);
        qx_.FreeTensor(x);
        qy_.FreeTensor(y);
    }

    __aicore__ inline void Store(uint32_t i)
    {
        AscendC::LocalTensor<T> z = qz_.template DeQue<T>();
        AscendC::DataCopy(zGm_[i * tileLen_], z, tileLen_);
        qz_.FreeTensor(z);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> qx_;
    AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> qy_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, kBufferNum> qz_;
    AscendC::GlobalTensor<T> xGm_;
    AscendC::GlobalTensor<T> yGm_;
    AscendC::GlobalTensor<T> zGm_;
    uint32_t sliceLen_ = 0;
    uint32_t tileLen_ = 0;
    uint32_t tiles_ = 0;
};

}  // namespace kt

// total: elements of x, y and z (a multiple of blockNum * tile); tile: elements per tile
extern "C" __global__ __aicore__ void kt_vadd_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile)
{
    kt::TiledAdd<half> op;
    op.Init(x, y, z, total, tile);
    op.Process();
}

extern "C" __global__ __aicore__ void kt_vadd_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile)
{
    kt::TiledAdd<float> op;
    op.Init(x, y, z, total, tile);
    op.Process();
}
