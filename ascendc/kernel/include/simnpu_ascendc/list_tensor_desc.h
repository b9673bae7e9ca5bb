// simnpu Ascend C model: ListTensorDesc, the reader of a list of tensors
// passed to a kernel as one GM address (dynamic inputs).
//
// The layout the host writes (the page's ListTensorDesc): one uint64 with
// the byte offset of the data-pointer table, then per tensor a description
// (uint32 dim, uint32 index, dim uint64 extents), then the table of uint64
// device addresses, one per tensor. The number of tensors is that of the
// descriptions before the table.
//   ListTensorDesc(data[, length, shapeInfoLength])  (the sizes are checked
//                                                     when given: 0xffffffff
//                                                     means not given)
//   GetSize()            the number of tensors
//   GetDataPtr<T>(i)     the device address of tensor i
//   GetDesc(desc, i)     desc (a TensorDesc<T>) gets tensor i's dim, index,
//                        extents (up to the capacity of its shape buffer)
// Every read is a checked GM access; an index out of range fails the block.
#ifndef SIMNPU_ASCENDC_LIST_TENSOR_DESC_H_
#define SIMNPU_ASCENDC_LIST_TENSOR_DESC_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

template <typename T>
class TensorDesc {
 public:
  TensorDesc() = default;
  void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
  uint64_t GetDim() const { return dim_; }
  uint64_t GetIndex() const { return index_; }
  uint64_t GetShape(uint32_t offset) const { return shape_ != nullptr && offset < dim_ ? shape_[offset] : 0; }
  __gm__ T* GetDataPtr() const { return data_; }
  GlobalTensor<T> GetDataObj() const {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(data_);
    return g;
  }

 private:
  friend class ListTensorDesc;
  uint64_t dim_ = 0;
  uint64_t index_ = 0;
  uint64_t* shape_ = nullptr;
  __gm__ T* data_ = nullptr;
};

class ListTensorDesc {
 public:
  ListTensorDesc() = default;
  explicit ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffffu, uint32_t shapeInfoLength = 0xffffffffu,
                          SIMNPU_ASCENDC_LOC_PARAM) {
    Init(data, length, shapeInfoLength, simnpuLoc);
  }
  void Init(__gm__ void* data, uint32_t length = 0xffffffffu, uint32_t shapeInfoLength = 0xffffffffu,
            SIMNPU_ASCENDC_LOC_PARAM) {
    namespace d = ::simnpu::ascendc::detail;
    base_ = reinterpret_cast<uint8_t*>(data);
    count_ = 0;
    if (base_ == nullptr) d::CheckFail(simnpuLoc, "ListTensorDesc: the list address is a null pointer");
    uint64_t ptrOffset = 0;
    d::GmRead(&ptrOffset, base_, 8, simnpuLoc);
    if (ptrOffset < 8 || ptrOffset % 8 != 0) {
      d::CheckFail(simnpuLoc, "ListTensorDesc: the pointer-table offset %llu is not a multiple of 8 past the header",
                   static_cast<unsigned long long>(ptrOffset));
    }
    if (shapeInfoLength != 0xffffffffu && ptrOffset != shapeInfoLength) {
      d::CheckFail(simnpuLoc, "ListTensorDesc: the pointer table is at byte %llu, shapeInfoLength says %u",
                   static_cast<unsigned long long>(ptrOffset), shapeInfoLength);
    }
    uint64_t pos = 8;
    while (pos < ptrOffset) {
      uint32_t dim = 0;
      d::GmRead(&dim, base_ + pos, 4, simnpuLoc);
      pos += 8 + 8ull * dim;
      ++count_;
    }
    if (pos != ptrOffset) {
      d::CheckFail(simnpuLoc, "ListTensorDesc: the tensor descriptions end at byte %llu, not at the pointer table (%llu)",
                   static_cast<unsigned long long>(pos), static_cast<unsigned long long>(ptrOffset));
    }
    if (length != 0xffffffffu && ptrOffset + 8ull * count_ > length) {
      d::CheckFail(simnpuLoc, "ListTensorDesc: %u tensors need %llu bytes, length is %u", count_,
                   static_cast<unsigned long long>(ptrOffset + 8ull * count_), length);
    }
    table_ = ptrOffset;
  }
  uint32_t GetSize() const { return count_; }
  template <typename T>
  __gm__ T* GetDataPtr(uint32_t index, SIMNPU_ASCENDC_LOC_PARAM) const {
    CheckIndex("GetDataPtr", index, simnpuLoc);
    uint64_t p = 0;
    ::simnpu::ascendc::detail::GmRead(&p, base_ + table_ + 8ull * index, 8, simnpuLoc);
    return reinterpret_cast<__gm__ T*>(static_cast<uintptr_t>(p));
  }
  template <typename T>
  void GetDesc(TensorDesc<T>& desc, uint32_t index, SIMNPU_ASCENDC_LOC_PARAM) const {
    namespace d = ::simnpu::ascendc::detail;
    CheckIndex("GetDesc", index, simnpuLoc);
    uint64_t pos = 8;
    for (uint32_t i = 0;; ++i) {
      uint32_t head[2] = {0, 0};
      d::GmRead(head, base_ + pos, 8, simnpuLoc);
      if (i == index) {
        desc.dim_ = head[0];
        desc.index_ = head[1];
        if (desc.shape_ != nullptr) d::GmRead(desc.shape_, base_ + pos + 8, 8ull * head[0], simnpuLoc);
        break;
      }
      pos += 8 + 8ull * head[0];
    }
    desc.data_ = GetDataPtr<T>(index, simnpuLoc);
  }

 private:
  void CheckIndex(const char* api, uint32_t index, const ::simnpu::ascendc::SrcLoc& loc) const {
    if (base_ == nullptr) ::simnpu::ascendc::detail::CheckFail(loc, "ListTensorDesc::%s: the list was not initialised", api);
    if (index >= count_) {
      ::simnpu::ascendc::detail::CheckFail(loc, "ListTensorDesc::%s: index %u is outside the list of %u tensors", api,
                                           index, count_);
    }
  }
  uint8_t* base_ = nullptr;
  uint64_t table_ = 0;
  uint32_t count_ = 0;
};

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_LIST_TENSOR_DESC_H_
