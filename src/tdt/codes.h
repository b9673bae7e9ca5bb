// The ACL codes the TDT engine returns (names from acl/acl_base_rt.h and
// error_codes/rt_error_codes.h; this layer does not include the public
// headers, as core does not).
#ifndef SIMNPU_TDT_CODES_H_
#define SIMNPU_TDT_CODES_H_

namespace simnpu::tdt {

constexpr int kInvalidParam = 100000;        // ACL_ERROR_INVALID_PARAM
constexpr int kInvalidQueueId = 100032;      // ACL_ERROR_INVALID_QUEUE_ID
constexpr int kFeatureUnsupported = 200006;  // ACL_ERROR_FEATURE_UNSUPPORTED
constexpr int kFailure = 500001;             // ACL_ERROR_FAILURE
constexpr int kQueueEmpty = 207013;          // ACL_ERROR_RT_QUEUE_EMPTY
constexpr int kQueueFull = 207014;           // ACL_ERROR_RT_QUEUE_FULL

}  // namespace simnpu::tdt

#endif  // SIMNPU_TDT_CODES_H_
