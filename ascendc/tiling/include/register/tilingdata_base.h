// simnpu: host tiling data classes (register/tilingdata_base.h).
//
//   namespace optiling {
//   BEGIN_TILING_DATA_DEF(MyTiling)
//   TILING_DATA_FIELD_DEF(uint32_t, totalLength);
//   TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, shape);
//   TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmax);   // another tiling class
//   END_TILING_DATA_DEF;
//   REGISTER_TILING_DATA_CLASS(MyOp, MyTiling)
//   }
//   optiling::MyTiling t; t.set_totalLength(n); t.SaveToBuffer(buf, size);
//
// Layout of the saved bytes (what a kernel reads back into a struct of the
// same fields): fields in declaration order, each at the next multiple of
// its type's size (arrays: of their element's size), nested tiling structs
// at the next multiple of 8, the whole padded to a multiple of 8; padding is
// zero. That is the layout of a C struct of the same fields whose nested
// structs are 8-byte aligned, as the kernel-side tiling structs of
// kernel_tiling/kernel_tiling.h are.
//
// set_<f>(v) stores v in the data (and in a copy get_<f>() returns);
// set_<arr>(p) copies the array in, get_<arr>() points at it in the data;
// a nested struct is a member (t.softmax.set_x(...)) whose data is copied in
// by SaveToBuffer / GetDataPtr. SaveToBuffer fails (an error on stderr,
// nothing written) when capacity is smaller than GetDataSize().
//
// Header-only (libregister exists for link lines that name it). A tiling
// object is a plain value: not thread-safe, use one per thread.
#ifndef SIMNPU_REGISTER_TILINGDATA_BASE_H_
#define SIMNPU_REGISTER_TILINGDATA_BASE_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace optiling {

struct CharPtrCmp {
  bool operator()(const char* a, const char* b) const { return std::strcmp(a, b) < 0; }
};

// dtype, name; arrSize_ for arrays; structType_/structSize_ for nested structs;
// classType_ "0" scalar, "1" array, "2" struct.
class FieldInfo {
 public:
  FieldInfo(const char* dtype, const char* name) : dtype_(dtype), name_(name), classType_("0") {}
  FieldInfo(const char* dtype, const char* name, size_t arrSize)
      : dtype_(dtype), name_(name), arrSize_(arrSize), classType_("1") {}
  FieldInfo(const char* dtype, const char* name, const char* structType, size_t structSize)
      : dtype_(dtype), name_(name), structType_(structType), structSize_(structSize), classType_("2") {}

  const char* dtype_;
  const char* name_;
  size_t arrSize_ = 0;
  const char* structType_ = nullptr;
  size_t structSize_ = 0;
  const char* classType_;
};

// Sizes of the tiling classes constructed so far, by class name.
class StructSizeInfoBase {
 public:
  static StructSizeInfoBase& GetInstance() {
    static StructSizeInfoBase instance;
    return instance;
  }
  void SetStructSize(const char* structType, size_t structSize) { sizes_.emplace(structType, structSize); }
  size_t GetStructSize(const char* structType) const {
    auto it = sizes_.find(structType);
    return it == sizes_.end() ? 0 : it->second;
  }

 private:
  StructSizeInfoBase() = default;
  std::map<std::string, size_t> sizes_;
};

class TilingDef {
 public:
  TilingDef() = default;
  TilingDef(const TilingDef& o) { *this = o; }
  // Copies the layout and the data, never the nested-struct bookkeeping (a
  // tiling class's nested members register themselves with their own object).
  TilingDef& operator=(const TilingDef& o) {
    if (this == &o) return *this;
    field_info_ = o.field_info_;
    data_size_ = o.data_size_;
    class_name_ = o.class_name_;
    own_.assign(o.data_ptr_, o.data_ptr_ + (o.data_ptr_ != nullptr ? o.data_size_ : 0));
    own_.resize(data_size_);
    data_ptr_ = own_.data();
    return *this;
  }
  virtual ~TilingDef() = default;

  // Copies the data (nested structs included) to pdata.
  void SaveToBuffer(void* pdata, size_t capacity) {
    if (pdata == nullptr) {
      GeLogError(std::string("SaveToBuffer(") + ClassName() + "): the buffer is null");
      return;
    }
    if (capacity < data_size_) {
      GeLogError(std::string("SaveToBuffer(") + ClassName() + "): the buffer holds " + std::to_string(capacity) +
                 " bytes, the tiling data needs " + std::to_string(data_size_));
      return;
    }
    SyncNested();
    if (data_size_ != 0) std::memcpy(pdata, data_ptr_, data_size_);
  }
  std::vector<FieldInfo> GetFieldInfo() const { return field_info_; }
  const char* GetTilingClassName() const { return class_name_; }
  size_t GetDataSize() const { return data_size_; }
  // The data in its saved layout (nested structs copied in first).
  const uint8_t* GetDataPtr() {
    SyncNested();
    return data_ptr_;
  }
  // Makes the object read and write its data at dataPtr (GetDataSize()
  // bytes, which must stay valid); the current values are copied there.
  void SetDataPtr(void* dataPtr) {
    if (dataPtr == nullptr) return;
    SyncNested();
    if (data_ptr_ != nullptr && data_size_ != 0) std::memmove(dataPtr, data_ptr_, data_size_);
    data_ptr_ = static_cast<uint8_t*>(dataPtr);
  }
  void InitData() {
    own_.assign(data_size_, 0);
    data_ptr_ = own_.data();
  }

 protected:
  // Field registration, in declaration order (member initialisers).
  size_t SimnpuAddField(FieldInfo info, size_t bytes, size_t align) {
    data_size_ = (data_size_ + align - 1) / align * align;
    const size_t off = data_size_;
    data_size_ += bytes;
    field_info_.push_back(info);
    return off;
  }
  size_t SimnpuAddStruct(FieldInfo info, TilingDef* nested) {
    const size_t off = SimnpuAddField(info, nested->GetDataSize(), 8);
    nested_.emplace_back(nested, off);
    return off;
  }
  // The constructor body: pad to 8, allocate zeroed data.
  void SimnpuFinish(const char* name) {
    class_name_ = name;
    data_size_ = (data_size_ + 7) / 8 * 8;
    InitData();
    StructSizeInfoBase::GetInstance().SetStructSize(name, data_size_);
  }
  void SyncNested() {
    for (auto& n : nested_) {
      const uint8_t* src = n.first->GetDataPtr();
      if (src != nullptr && data_ptr_ != nullptr) std::memcpy(data_ptr_ + n.second, src, n.first->GetDataSize());
    }
  }
  void GeLogError(const std::string& str) const { std::fprintf(stderr, "[ERROR] tiling data: %s\n", str.c_str()); }
  const char* ClassName() const { return class_name_ != nullptr ? class_name_ : "?"; }

  std::vector<FieldInfo> field_info_;
  std::vector<uint8_t> own_;
  uint8_t* data_ptr_ = nullptr;
  size_t data_size_ = 0;
  const char* class_name_ = nullptr;
  std::vector<std::pair<TilingDef*, size_t>> nested_;  // nested struct members, their offsets
};

using TilingDataConstructor = std::shared_ptr<TilingDef> (*)();

// Tiling classes by operator type (REGISTER_TILING_DATA_CLASS).
class CTilingDataClassFactory {
 public:
  static CTilingDataClassFactory& GetInstance() {
    static CTilingDataClassFactory instance;
    return instance;
  }
  void RegisterTilingData(const char* op_type, const TilingDataConstructor constructor) {
    instance_[op_type] = constructor;
  }
  std::shared_ptr<TilingDef> CreateTilingDataInstance(const char* op_type) {
    auto it = instance_.find(op_type);
    if (it == instance_.end()) return nullptr;
    return it->second();
  }

 private:
  CTilingDataClassFactory() = default;
  std::map<std::string, TilingDataConstructor> instance_;
};

}  // namespace optiling

// A copy is built like a fresh object (the fields register again, in the
// same order, at the same offsets), then takes the other's values.
#define BEGIN_TILING_DATA_DEF(class_name)                                \
  class class_name : public ::optiling::TilingDef {                      \
   public:                                                               \
    class_name() { SimnpuFinish(#class_name); }                          \
    class_name(const class_name& o) : class_name() { *this = o; }        \
    class_name& operator=(const class_name&) = default;

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                                       \
 public:                                                                                                   \
  void set_##field_name(data_type field_name) {                                                            \
    field_name##_ = field_name;                                                                            \
    std::memcpy(data_ptr_ + field_name##_offset_, &field_name##_, sizeof(data_type));                     \
  }                                                                                                        \
  data_type get_##field_name() const { return field_name##_; }                                             \
                                                                                                           \
 private:                                                                                                  \
  data_type field_name##_ = 0;                                                                             \
  size_t field_name##_offset_ =                                                                            \
      SimnpuAddField(::optiling::FieldInfo(#data_type, #field_name), sizeof(data_type), sizeof(data_type))

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                            \
 public:                                                                                                     \
  void set_##field_name(const arr_type* field_name) {                                                        \
    if (field_name == nullptr || reinterpret_cast<const uint8_t*>(field_name) == data_ptr_ + field_name##_offset_) \
      return;                                                                                                \
    std::memcpy(data_ptr_ + field_name##_offset_, field_name, (arr_size) * sizeof(arr_type));                \
  }                                                                                                          \
  arr_type* get_##field_name() { return reinterpret_cast<arr_type*>(data_ptr_ + field_name##_offset_); }     \
                                                                                                             \
 private:                                                                                                    \
  size_t field_name##_offset_ = SimnpuAddField(::optiling::FieldInfo(#arr_type, #field_name, (arr_size)),    \
                                               (arr_size) * sizeof(arr_type), sizeof(arr_type))

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                           \
 public:                                                                                                \
  struct_type field_name;                                                                               \
                                                                                                        \
 private:                                                                                               \
  size_t field_name##_offset_ = SimnpuAddStruct(                                                        \
      ::optiling::FieldInfo("struct", #field_name, #struct_type, field_name.GetDataSize()), &field_name)

#define END_TILING_DATA_DEF \
  }                         \
  ;

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                                       \
  class op_type##class_name##Helper {                                                                         \
   public:                                                                                                    \
    op_type##class_name##Helper() {                                                                           \
      ::optiling::CTilingDataClassFactory::GetInstance().RegisterTilingData(#op_type,                         \
                                                                            CreateTilingDataInstance);        \
    }                                                                                                         \
    static std::shared_ptr<::optiling::TilingDef> CreateTilingDataInstance() {                                \
      return std::make_shared<class_name>();                                                                  \
    }                                                                                                         \
  };                                                                                                          \
  static op_type##class_name##Helper g_tilingdata_##op_type##class_name##helper;

#endif  // SIMNPU_REGISTER_TILINGDATA_BASE_H_
