// libnnopbase.so: the aclnn tensor layer (aclnn/acl_meta.h) and the executor
// functions of aclnn/aclnn_base.h. Objects are plain heap objects
// (common/objects.h); creation validates everything an operator later relies
// on (dimension counts, non-negative dims and strides, the view inside the
// storage), so the operators only check what is specific to them.
#include <cmath>
#include <cstring>
#include <limits>
#include <new>

#include "aclnn/aclnn_base.h"
#include "common/dtypes.h"
#include "common/live_objects.h"
#include "common/objects.h"
#include "common/report.h"

using simnpu::aclnn::DTypeName;
using simnpu::aclnn::DTypeSize;
using simnpu::aclnn::Fail;

namespace {

constexpr uint64_t kMaxDims = 8;  // the aclnn pages: at most 8 dimensions

// The number of elements of `dims`, or -1 on overflow.
int64_t Elements(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d == 0) return 0;
    if (n > std::numeric_limits<int64_t>::max() / d) return -1;
    n *= d;
  }
  return n;
}

template <typename T, typename... A>
T* Make(A&&... a) {
  T* obj = new (std::nothrow) T{std::forward<A>(a)...};
  simnpu::aclnn::LiveAdd(obj);
  return obj;
}

template <typename T>
aclnnStatus Destroy(const T* obj, uint32_t magic, const char* api) {
  if (obj == nullptr) return ACLNN_SUCCESS;  // like free(NULL)
  if (!simnpu::aclnn::IsLive(obj, magic))
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "the object is not a live one of this kind (destroyed already?)");
  T* o = const_cast<T*>(obj);
  o->magic = kAclnnDeadMagic;
  simnpu::aclnn::Drop(o);
  return ACLNN_SUCCESS;
}

// Copies dims into a new[] array owned by the caller.
aclnnStatus CopyOut(const std::vector<int64_t>& v, int64_t** out, uint64_t* num, const char* api) {
  if (out == nullptr || num == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, api, "the output pointers must not be NULL");
  int64_t* a = new (std::nothrow) int64_t[v.empty() ? 1 : v.size()];
  if (a == nullptr) return Fail(ACLNN_ERR_INNER, api, "out of host memory");
  for (size_t i = 0; i < v.size(); ++i) a[i] = v[i];
  *out = a;
  *num = v.size();
  return ACLNN_SUCCESS;
}

const aclTensor* LiveTensor(const aclTensor* t) { return simnpu::aclnn::IsLive(t, kAclnnTensorMagic) ? t : nullptr; }

}  // namespace

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) {
  const char* api = "aclCreateTensor";
  if ((viewDimsNum > 0 && viewDims == nullptr) || (viewDimsNum > 0 && stride == nullptr) ||
      (storageDimsNum > 0 && storageDims == nullptr)) {
    Fail(ACLNN_ERR_PARAM_NULLPTR, api, "viewDims, stride and storageDims must not be NULL when their count is > 0");
    return nullptr;
  }
  if (viewDimsNum > kMaxDims || storageDimsNum > kMaxDims) {
    Fail(ACLNN_ERR_PARAM_INVALID, api, "at most %llu dimensions are supported (view %llu, storage %llu)",
         static_cast<unsigned long long>(kMaxDims), static_cast<unsigned long long>(viewDimsNum),
         static_cast<unsigned long long>(storageDimsNum));
    return nullptr;
  }
  if (DTypeSize(dataType) == 0) {
    Fail(ACLNN_ERR_PARAM_INVALID, api, "data type %d is not supported", static_cast<int>(dataType));
    return nullptr;
  }
  if (offset < 0) {
    Fail(ACLNN_ERR_PARAM_INVALID, api, "the storage offset %lld must not be negative", static_cast<long long>(offset));
    return nullptr;
  }
  auto* t = Make<aclTensor>();
  if (t == nullptr) {
    Fail(ACLNN_ERR_INNER, api, "out of host memory");
    return nullptr;
  }
  t->dtype = dataType;
  t->format = format;
  t->offset = offset;
  t->data = tensorData;
  t->view.assign(viewDims, viewDims + viewDimsNum);
  t->strides.assign(stride, stride + viewDimsNum);
  t->storage.assign(storageDims, storageDims + storageDimsNum);
  for (uint64_t i = 0; i < viewDimsNum; ++i) {
    if (t->view[i] < 0 || t->strides[i] < 0) {
      Fail(ACLNN_ERR_PARAM_INVALID, api, "view dimension %llu has size %lld and stride %lld; both must be >= 0",
           static_cast<unsigned long long>(i), static_cast<long long>(t->view[i]),
           static_cast<long long>(t->strides[i]));
      simnpu::aclnn::Drop(t);
      return nullptr;
    }
  }
  for (int64_t d : t->storage) {
    if (d < 0) {
      Fail(ACLNN_ERR_PARAM_INVALID, api, "storage dimensions must be >= 0");
      simnpu::aclnn::Drop(t);
      return nullptr;
    }
  }
  // The view must lie inside the storage.
  const int64_t viewElems = Elements(t->view);
  const int64_t storageElems = Elements(t->storage);
  if (viewElems < 0 || storageElems < 0) {
    Fail(ACLNN_ERR_PARAM_INVALID, api, "the shape's element count overflows");
    simnpu::aclnn::Drop(t);
    return nullptr;
  }
  if (viewElems > 0) {
    // highest element offset reached by the view
    long double last = static_cast<long double>(offset);
    for (uint64_t i = 0; i < viewDimsNum; ++i) last += static_cast<long double>(t->view[i] - 1) * t->strides[i];
    if (last >= static_cast<long double>(storageElems)) {
      Fail(ACLNN_ERR_PARAM_INVALID, api,
           "the view (offset %lld, last element %.0Lf) does not fit in the storage of %lld elements",
           static_cast<long long>(offset), last, static_cast<long long>(storageElems));
      simnpu::aclnn::Drop(t);
      return nullptr;
    }
  }
  return t;
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  const char* api = "aclCreateScalar";
  if (value == nullptr) {
    Fail(ACLNN_ERR_PARAM_NULLPTR, api, "value must not be NULL");
    return nullptr;
  }
  auto* s = Make<aclScalar>();
  if (s == nullptr) {
    Fail(ACLNN_ERR_INNER, api, "out of host memory");
    return nullptr;
  }
  s->dtype = dataType;
  s->is_float = false;
  // host values are read with memcpy: the caller's pointer needs no alignment
  auto rd = [value](auto v) {
    std::memcpy(&v, value, sizeof v);
    return v;
  };
  switch (dataType) {
    case ACL_FLOAT: s->is_float = true; s->f = rd(float{}); break;
    case ACL_DOUBLE: s->is_float = true; s->f = rd(double{}); break;
    case ACL_FLOAT16: {
      const uint16_t h = rd(uint16_t{});
      const int e = (h >> 10) & 0x1f;
      const int m = h & 0x3ff;
      double v = e == 0 ? std::ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(m + 1024, e - 25);
      s->is_float = true;
      s->f = (h & 0x8000) ? -v : v;
      break;
    }
    case ACL_BF16: {
      const uint32_t bits = static_cast<uint32_t>(rd(uint16_t{})) << 16;
      float f;
      std::memcpy(&f, &bits, sizeof f);
      s->is_float = true;
      s->f = f;
      break;
    }
    case ACL_INT8: s->i = rd(int8_t{}); break;
    case ACL_UINT8: s->i = rd(uint8_t{}); break;
    case ACL_INT16: s->i = rd(int16_t{}); break;
    case ACL_UINT16: s->i = rd(uint16_t{}); break;
    case ACL_INT32: s->i = rd(int32_t{}); break;
    case ACL_UINT32: s->i = rd(uint32_t{}); break;
    case ACL_INT64: s->i = rd(int64_t{}); break;
    case ACL_UINT64: s->i = static_cast<int64_t>(rd(uint64_t{})); break;
    case ACL_BOOL: s->i = rd(uint8_t{}) != 0 ? 1 : 0; break;
    default:
      Fail(ACLNN_ERR_PARAM_INVALID, api, "data type %d is not supported for a scalar", static_cast<int>(dataType));
      simnpu::aclnn::Drop(s);
      return nullptr;
  }
  return s;
}

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    Fail(ACLNN_ERR_PARAM_NULLPTR, "aclCreateIntArray", "value must not be NULL when size > 0");
    return nullptr;
  }
  auto* a = Make<aclIntArray>();
  if (a != nullptr && size > 0) a->values.assign(value, value + size);
  return a;
}

aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    Fail(ACLNN_ERR_PARAM_NULLPTR, "aclCreateFloatArray", "value must not be NULL when size > 0");
    return nullptr;
  }
  auto* a = Make<aclFloatArray>();
  if (a != nullptr && size > 0) a->values.assign(value, value + size);
  return a;
}

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    Fail(ACLNN_ERR_PARAM_NULLPTR, "aclCreateBoolArray", "value must not be NULL when size > 0");
    return nullptr;
  }
  auto* a = Make<aclBoolArray>();
  if (a != nullptr && size > 0) a->values.assign(value, value + size);
  return a;
}

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    Fail(ACLNN_ERR_PARAM_NULLPTR, "aclCreateTensorList", "value must not be NULL when size > 0");
    return nullptr;
  }
  for (uint64_t i = 0; i < size; ++i) {
    if (LiveTensor(value[i]) == nullptr) {
      Fail(ACLNN_ERR_PARAM_INVALID, "aclCreateTensorList", "element %llu is not a tensor",
           static_cast<unsigned long long>(i));
      return nullptr;
    }
  }
  auto* a = Make<aclTensorList>();
  if (a != nullptr && size > 0) a->values.assign(value, value + size);
  return a;
}

aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    Fail(ACLNN_ERR_PARAM_NULLPTR, "aclCreateScalarList", "value must not be NULL when size > 0");
    return nullptr;
  }
  for (uint64_t i = 0; i < size; ++i) {
    if (!simnpu::aclnn::IsLive(value[i], kAclnnScalarMagic)) {
      Fail(ACLNN_ERR_PARAM_INVALID, "aclCreateScalarList", "element %llu is not a scalar",
           static_cast<unsigned long long>(i));
      return nullptr;
    }
  }
  auto* a = Make<aclScalarList>();
  if (a != nullptr && size > 0) a->values.assign(value, value + size);
  return a;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) { return Destroy(tensor, kAclnnTensorMagic, "aclDestroyTensor"); }
aclnnStatus aclDestroyScalar(const aclScalar* scalar) { return Destroy(scalar, kAclnnScalarMagic, "aclDestroyScalar"); }
aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  return Destroy(array, kAclnnIntArrayMagic, "aclDestroyIntArray");
}
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
  return Destroy(array, kAclnnFloatArrayMagic, "aclDestroyFloatArray");
}
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
  return Destroy(array, kAclnnBoolArrayMagic, "aclDestroyBoolArray");
}
// Lists borrow their elements: destroying a list leaves the tensors alive.
aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
  return Destroy(array, kAclnnTensorListMagic, "aclDestroyTensorList");
}
aclnnStatus aclDestroyScalarList(const aclScalarList* array) {
  return Destroy(array, kAclnnScalarListMagic, "aclDestroyScalarList");
}

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
  if (LiveTensor(tensor) == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclGetViewShape", "tensor is not a live tensor");
  return CopyOut(tensor->view, viewDims, viewDimsNum, "aclGetViewShape");
}
aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims, uint64_t* storageDimsNum) {
  if (LiveTensor(tensor) == nullptr)
    return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclGetStorageShape", "tensor is not a live tensor");
  return CopyOut(tensor->storage, storageDims, storageDimsNum, "aclGetStorageShape");
}
aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue, uint64_t* stridesNum) {
  if (LiveTensor(tensor) == nullptr)
    return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclGetViewStrides", "tensor is not a live tensor");
  return CopyOut(tensor->strides, stridesValue, stridesNum, "aclGetViewStrides");
}
aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
  if (LiveTensor(tensor) == nullptr || offset == nullptr)
    return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclGetViewOffset", "tensor and offset must be valid");
  *offset = tensor->offset;
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
  if (LiveTensor(tensor) == nullptr || format == nullptr)
    return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclGetFormat", "tensor and format must be valid");
  *format = tensor->format;
  return ACLNN_SUCCESS;
}
aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
  if (LiveTensor(tensor) == nullptr || dataType == nullptr)
    return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclGetDataType", "tensor and dataType must be valid");
  *dataType = tensor->dtype;
  return ACLNN_SUCCESS;
}

#define SIMNPU_ACLNN_SIZE_GETTER(fn, Type, kMagic)                                          \
  aclnnStatus fn(const Type* array, uint64_t* size) {                                     \
    if (size == nullptr || !simnpu::aclnn::IsLive(array, (kMagic)))                   \
      return Fail(ACLNN_ERR_PARAM_NULLPTR, #fn, "the array and size must be valid");      \
    *size = array->values.size();                                                         \
    return ACLNN_SUCCESS;                                                                 \
  }
SIMNPU_ACLNN_SIZE_GETTER(aclGetIntArraySize, aclIntArray, kAclnnIntArrayMagic)
SIMNPU_ACLNN_SIZE_GETTER(aclGetFloatArraySize, aclFloatArray, kAclnnFloatArrayMagic)
SIMNPU_ACLNN_SIZE_GETTER(aclGetBoolArraySize, aclBoolArray, kAclnnBoolArrayMagic)
SIMNPU_ACLNN_SIZE_GETTER(aclGetTensorListSize, aclTensorList, kAclnnTensorListMagic)
SIMNPU_ACLNN_SIZE_GETTER(aclGetScalarListSize, aclScalarList, kAclnnScalarListMagic)
#undef SIMNPU_ACLNN_SIZE_GETTER

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  if (executor == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclSetAclOpExecutorRepeatable", "executor is NULL");
  if (!simnpu::aclnn::IsLive(executor, kAclnnExecutorMagic))
    return Fail(ACLNN_ERR_PARAM_INVALID, "aclSetAclOpExecutorRepeatable", "executor is not a live executor");
  executor->repeatable = true;
  return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  if (executor == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclDestroyAclOpExecutor", "executor is NULL");
  if (!simnpu::aclnn::IsLive(executor, kAclnnExecutorMagic))
    return Fail(ACLNN_ERR_PARAM_INVALID, "aclDestroyAclOpExecutor", "executor is not a live executor (destroyed or consumed already?)");
  simnpu::aclnn::Drop(executor);
  return ACLNN_SUCCESS;
}

}  // extern "C"
