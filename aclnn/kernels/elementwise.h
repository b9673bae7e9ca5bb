// Shared machinery of the aclnn element-wise kernels (Ascend C, simnpu CPU
// model). An operator kernel file defines an Op struct (derived from OpBase)
// and one kernel entry per element type that calls RunBinary / RunUnary.
//
// Op interface (static members):
//   template <typename C> C Apply(C x, C y, const EwArgs&)   (binary)
//   template <typename C> C Apply(C x, const EwArgs&)        (unary)
//   template <typename T> bool Vector(z, x, [y, y_is_tensor,] count, args)
//       (optional fast path on whole UB tiles; false falls back to Apply)
// C is the compute type of the element type T: float for float, half and
// bfloat16 (so half/bf16 results are rounded once from the float result),
// int64_t for the integer types and bool (stored back with wrap-around, bool
// as value != 0).
//
// Work split: the n elements are cut into tiles of kTileBytes; block b of B
// takes tiles [T*b/B, T*(b+1)/B). Whole tiles move with DataCopy through
// double-buffered queues; a last tile whose size is not a multiple of 32
// bytes is processed element by element straight from GM.
#ifndef SIMNPU_ACLNN_KERNELS_ELEMENTWISE_H_
#define SIMNPU_ACLNN_KERNELS_ELEMENTWISE_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"
#include "common/op_args.h"

namespace aclnn_kernels {

using simnpu::aclnn::EwArgs;

constexpr uint32_t kTileBytes = 16384;
constexpr int32_t kBufferNum = 2;

template <typename T>
struct ComputeOf {
  using type = int64_t;
};
template <>
struct ComputeOf<float> {
  using type = float;
};
template <>
struct ComputeOf<half> {
  using type = float;
};
template <>
struct ComputeOf<bfloat16_t> {
  using type = float;
};
template <typename T>
using Compute = typename ComputeOf<T>::type;

template <typename T>
__aicore__ inline Compute<T> ToCompute(T v) {
  if constexpr (std::is_same<T, bool>::value) {
    return v ? 1 : 0;
  } else {
    return static_cast<Compute<T>>(v);
  }
}

template <typename T, typename C>
__aicore__ inline T FromCompute(C v) {
  if constexpr (std::is_same<T, bool>::value) {
    return v != 0;
  } else if constexpr (std::is_integral<T>::value) {
    // two's complement wrap-around (numpy's behaviour for same-type integers)
    return static_cast<T>(static_cast<uint64_t>(v));
  } else {
    return T(v);
  }
}

// The scalar operand / alpha in the compute type.
template <typename C>
__aicore__ inline C ScalarOf(const EwArgs& a) {
  if constexpr (std::is_floating_point<C>::value) {
    return static_cast<C>(a.scalar_f);
  } else {
    return static_cast<C>(a.scalar_i);
  }
}
template <typename C>
__aicore__ inline C AlphaOf(const EwArgs& a) {
  if constexpr (std::is_floating_point<C>::value) {
    return static_cast<C>(a.alpha_f);
  } else {
    return static_cast<C>(a.alpha_i);
  }
}

// Base of every Op: no vector fast path.
struct OpBase {
  template <typename T>
  __aicore__ static inline bool Vector(const AscendC::LocalTensor<T>&, const AscendC::LocalTensor<T>&,
                                       const AscendC::LocalTensor<T>&, bool, int32_t, const EwArgs&) {
    return false;
  }
  template <typename T>
  __aicore__ static inline bool Vector(const AscendC::LocalTensor<T>&, const AscendC::LocalTensor<T>&, int32_t,
                                       const EwArgs&) {
    return false;
  }
};

// Element-wise kernel body with NIn inputs (1 or 2).
template <typename T, typename Op, int NIn>
class Elementwise {
  using C = Compute<T>;

 public:
  __aicore__ inline void Run(GM_ADDR x, GM_ADDR y, GM_ADDR z, const EwArgs& a) {
    args_ = a;
    const uint64_t tile = kTileBytes / sizeof(T);
    const uint64_t tiles = (a.n + tile - 1) / tile;
    const uint64_t blocks = static_cast<uint64_t>(AscendC::GetBlockNum());
    const uint64_t idx = static_cast<uint64_t>(AscendC::GetBlockIdx());
    uint64_t begin = tiles * idx / blocks * tile;
    uint64_t end = tiles * (idx + 1) / blocks * tile;
    if (end > a.n) end = a.n;
    if (begin >= end) return;
    const uint64_t len = end - begin;
    two_ = NIn == 2 && a.y_is_scalar == 0;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + begin, len);
    if (two_) yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + begin, len);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z) + begin, len);
    pipe_.InitBuffer(inX_, kBufferNum, tile * sizeof(T));
    if (two_) pipe_.InitBuffer(inY_, kBufferNum, tile * sizeof(T));
    pipe_.InitBuffer(outZ_, kBufferNum, tile * sizeof(T));
    for (uint64_t off = 0; off < len; off += tile) {
      const uint32_t count = static_cast<uint32_t>(len - off < tile ? len - off : tile);
      if ((static_cast<uint64_t>(count) * sizeof(T)) % 32 != 0) {
        Tail(off, count);
        continue;
      }
      CopyIn(off, count);
      Step(count);
      CopyOut(off, count);
    }
  }

 private:
  __aicore__ inline C Elem(C xv, C yv) const {
    if constexpr (NIn == 2) {
      return Op::template Apply<C>(xv, yv, args_);
    } else {
      (void)yv;
      return Op::template Apply<C>(xv, args_);
    }
  }
  __aicore__ inline C YAt(uint64_t i, bool gm, const AscendC::LocalTensor<T>* yl) const {
    if constexpr (NIn == 2) {
      if (!two_) return ScalarOf<C>(args_);
      return gm ? ToCompute<T>(yGm_.GetValue(i)) : ToCompute<T>(yl->GetValue(static_cast<uint32_t>(i)));
    } else {
      return C(0);
    }
  }
  __aicore__ inline void Tail(uint64_t off, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) {
      const C xv = ToCompute<T>(xGm_.GetValue(off + i));
      zGm_.SetValue(off + i, FromCompute<T>(Elem(xv, YAt(off + i, true, nullptr))));
    }
  }
  __aicore__ inline void CopyIn(uint64_t off, uint32_t count) {
    AscendC::LocalTensor<T> xl = inX_.template AllocTensor<T>();
    AscendC::DataCopy(xl, xGm_[off], count);
    inX_.EnQue(xl);
    if (two_) {
      AscendC::LocalTensor<T> yl = inY_.template AllocTensor<T>();
      AscendC::DataCopy(yl, yGm_[off], count);
      inY_.EnQue(yl);
    }
  }
  __aicore__ inline void Step(uint32_t count) {
    AscendC::LocalTensor<T> xl = inX_.template DeQue<T>();
    AscendC::LocalTensor<T> yl;
    if (two_) yl = inY_.template DeQue<T>();
    AscendC::LocalTensor<T> zl = outZ_.template AllocTensor<T>();
    bool done = false;
    if constexpr (NIn == 2) {
      done = Op::template Vector<T>(zl, xl, yl, two_, static_cast<int32_t>(count), args_);
    } else {
      done = Op::template Vector<T>(zl, xl, static_cast<int32_t>(count), args_);
    }
    if (!done) {
      for (uint32_t i = 0; i < count; ++i) {
        zl.SetValue(i, FromCompute<T>(Elem(ToCompute<T>(xl.GetValue(i)), YAt(i, false, &yl))));
      }
    }
    outZ_.EnQue(zl);
    inX_.FreeTensor(xl);
    if (two_) inY_.FreeTensor(yl);
  }
  __aicore__ inline void CopyOut(uint64_t off, uint32_t count) {
    AscendC::LocalTensor<T> zl = outZ_.template DeQue<T>();
    AscendC::DataCopy(zGm_[off], zl, count);
    outZ_.FreeTensor(zl);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> inX_, inY_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, kBufferNum> outZ_;
  AscendC::GlobalTensor<T> xGm_, yGm_, zGm_;
  EwArgs args_{};
  bool two_ = false;
};

template <typename T, typename Op>
__aicore__ inline void RunBinary(GM_ADDR x, GM_ADDR y, GM_ADDR z, const EwArgs& a) {
  Elementwise<T, Op, 2> k;
  k.Run(x, y, z, a);
}
template <typename T, typename Op>
__aicore__ inline void RunUnary(GM_ADDR x, GM_ADDR z, const EwArgs& a) {
  Elementwise<T, Op, 1> k;
  k.Run(x, nullptr, z, a);
}

}  // namespace aclnn_kernels

#endif  // SIMNPU_ACLNN_KERNELS_ELEMENTWISE_H_
