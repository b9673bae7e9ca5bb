// The extern "C" boundary of libacl_rt.so (issue 10): no exception leaves an
// exported function. Every ACL function of this layer is renamed to
// simnpu_impl_<name> at link time and the exported <name> is a generated
// wrapper (gen_boundary.py) that calls it inside try/catch and, when
// something escapes, returns BoundaryFailure<R>(name):
//   aclError                 the code BoundaryCode gives (below), with a message
//   pointers                 NULL (aclrtGetSocName, aclCreateDataBuffer, ...)
//   other values             0 (aclDataTypeSize, aclFloat16ToFloat, ...)
// BoundaryCode, called inside the catch handler, classifies the exception:
//   std::bad_alloc           ACL_ERROR_RT_MEMORY_ALLOCATION (207001)
//   std::length_error,
//   std::out_of_range,
//   std::invalid_argument    ACL_ERROR_RT_PARAM_INVALID (107000): a size or an
//                            index the runtime cannot honour
//   std::system_error        ACL_ERROR_RT_RESOURCE_ALLOC_FAIL (207005): a
//                            thread or lock the system refused
//   anything else            ACL_ERROR_RT_INTERNAL_ERROR (507000)
// and queues a message for aclGetRecentErrMsg (and sets the thread's last
// error), never throwing itself.
#ifndef SIMNPU_API_BOUNDARY_H_
#define SIMNPU_API_BOUNDARY_H_

#include <type_traits>

namespace simnpu::api {

int BoundaryCode(const char* func) noexcept;

template <typename R>
R BoundaryFailure(const char* func) noexcept {
  const int code = BoundaryCode(func);
  if constexpr (std::is_void_v<R>) {
    return;
  } else if constexpr (std::is_same_v<R, int>) {
    return code;
  } else if constexpr (std::is_pointer_v<R>) {
    return nullptr;
  } else {
    return R{};
  }
}

}  // namespace simnpu::api

#endif  // SIMNPU_API_BOUNDARY_H_
