// Built-in tasks and overflow entry points: aclrtReduceAsync,
// aclrtRandomNumAsync, saturation mode, overflow switch and status
// (acl-api-ext.md §6, §7.2). The tasks themselves live in
// core/builtin_tasks.h; the overflow state in core/overflow.h.
#include <cstring>

#include "api/api_common.h"
#include "api/range_checks.h"
#include "core/builtin_tasks.h"
#include "core/overflow.h"
#include "core/runtime.h"
#include "dfx/trace/trace.h"
#include "sim/soc.h"

using namespace simnpu;

namespace {

constexpr uint64_t kMaxSumBytes = 4ull << 30;  // SUM over more than 4 GiB -> 107000
constexpr uint64_t kMaxRandomNum = 1ull << 32;  // values per random task (simnpu's limit)

bool ReduceTypeAccepted(int t) {
  switch (t) {
    case ACL_FLOAT: case ACL_FLOAT16: case ACL_INT16: case ACL_INT4: case ACL_INT8:
    case ACL_INT32: case ACL_BF16: case ACL_UINT8: case ACL_UINT16: case ACL_UINT32:
      return true;
    default:
      return false;
  }
}

// aclDataType -> the runtime's random-number type code (written back into
// the caller's struct, as CANN does): INT32 0, INT64 1, UINT32 2, UINT64 3,
// BF16 4, FP16 5, FP32 6; -1 if not accepted.
int RandomRuntimeType(int t) {
  switch (t) {
    case ACL_INT32: return 0;
    case ACL_INT64: return 1;
    case ACL_UINT32: return 2;
    case ACL_UINT64: return 3;
    case ACL_BF16: return 4;
    case ACL_FLOAT16: return 5;
    case ACL_FLOAT: return 6;
    default: return -1;
  }
}

core::Elem ElemOfRuntimeType(int rt) {
  static const core::Elem kMap[] = {core::Elem::kI32, core::Elem::kI64, core::Elem::kU32, core::Elem::kU64,
                                    core::Elem::kBf16, core::Elem::kF16, core::Elem::kF32};
  return kMap[rt];
}

core::RandomParam ParamOf(const aclrtRandomParaInfo& p) {
  core::RandomParam r;
  r.is_addr = p.isAddr == 1;
  std::memcpy(&r.raw, p.valueOrAddr, 8);
  r.size = p.size;
  return r;
}

// seed and num: isAddr 0 or 1, size 1..8.
aclError CheckCountParam(const char* func, const char* what, const aclrtRandomParaInfo& p) {
  if (p.isAddr > 1) return api::RtBadParam(func, what, std::to_string(p.isAddr) + " (isAddr)", "isAddr must be 0 or 1");
  if (p.size < 1 || p.size > 8) return api::RtBadParam(func, what, std::to_string(p.size) + " (size)", "size must be in [1, 8]");
  if (p.isAddr == 1) {
    uint64_t a;
    std::memcpy(&a, p.valueOrAddr, 8);
    if (a == 0) return api::RtBadParam(func, what, "NULL", "a device address when isAddr is 1");
    if (aclError e = api::CheckFillRange(func, reinterpret_cast<const void*>(a), p.size)) return e;
  }
  return ACL_SUCCESS;
}

// A distribution parameter: isAddr 0 or 1, size at most the type's width (8 with isAddr).
aclError CheckDistParam(const char* func, const char* what, const aclrtRandomParaInfo& p, size_t width) {
  if (p.isAddr > 1) return api::RtBadParam(func, what, std::to_string(p.isAddr) + " (isAddr)", "isAddr must be 0 or 1");
  const size_t limit = p.isAddr ? 8 : width;
  if (p.size > limit)
    return api::RtBadParam(func, what, std::to_string(p.size) + " (size)",
                           "size must be at most " + std::to_string(limit) + " bytes");
  if (p.isAddr == 1) {
    uint64_t a;
    std::memcpy(&a, p.valueOrAddr, 8);
    if (a == 0) return api::RtBadParam(func, what, "NULL", "a device address when isAddr is 1");
    if (aclError e = api::CheckFillRange(func, reinterpret_cast<const void*>(a), width)) return e;
  }
  return ACL_SUCCESS;
}

uint64_t ImmediateCount(const aclrtRandomParaInfo& p) {
  uint64_t v = 0;
  std::memcpy(&v, p.valueOrAddr, 8);
  if (p.size < 8) v &= (1ull << (8 * p.size)) - 1;
  return v;
}

bool RandomFeature() {
  const sim::SocInfo* soc = sim::CurrentSoc();
  return soc && soc->npu_arch == 2201;  // Atlas A2 / A3 only
}

aclError SubmitOverflowTask(const char* func, void* out, uint64_t size, aclrtStream stream, bool reset) {
  if (!reset) {
    ACL_REQUIRE_NOT_NULL(out);
    if (size != 64) return api::RtBadParam(func, "outputSize", std::to_string(size), "must be 64");
    if (aclError e = api::CheckFillRange(func, out, 64)) return e;
  }
  ACL_RESOLVE_STREAM(s, stream);
  s->Submit(std::make_unique<core::OverflowStatusTask>(out, reset));
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtReduceAsync(void* dst, const void* src, uint64_t count, aclrtReduceKind kind, aclDataType type,
                          aclrtStream stream, void* reserve) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(dst);
  ACL_REQUIRE_NOT_NULL(src);
  if (reserve != nullptr) return api::BadParam(__func__, "reserve", api::Hex(reserve), "NULL");
  const int t = api::RawEnum(type);
  if (!ReduceTypeAccepted(t))
    return api::BadParam(__func__, "type", std::to_string(t),
                         "ACL_FLOAT, FLOAT16, INT16, INT4, INT8, INT32, BF16, UINT8, UINT16 or UINT32");
  if (count == 0) return api::RtBadParam(__func__, "count", "0", "must be > 0 bytes");
  const int k = api::RawEnum(kind);
  if (k < ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM || k > ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL)
    return api::RtBadParam(__func__, "kind", std::to_string(k), "must be an aclrtReduceKind (10..13)");
  if (k == ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM && count > kMaxSumBytes)
    return api::RtBadParam(__func__, "count", std::to_string(count), "SUM reduces at most 4 GiB");
  const core::Elem e = static_cast<core::Elem>(t);
  const size_t bits = core::ElemBits(e);
  if (bits >= 8 && count % (bits / 8) != 0)
    return api::RtBadParam(__func__, "count", std::to_string(count),
                           "must be a multiple of the element size (" + std::to_string(bits / 8) + " bytes)");
  if (aclError rc = api::CheckFillRange(__func__, dst, count)) return rc;
  if (aclError rc = api::CheckFillRange(__func__, src, count)) return rc;
  ACL_RESOLVE_STREAM(s, stream);
  s->Submit(std::make_unique<core::ReduceTask>(dst, src, count, k, e));
  return ACL_SUCCESS;
}

aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo* taskInfo, const aclrtStream stream, void* reserve) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(taskInfo);
  const int dt = api::RawEnum(taskInfo->dataType);
  const int rt = RandomRuntimeType(dt);
  if (rt < 0)
    return api::BadParam(__func__, "dataType", std::to_string(dt),
                         "ACL_INT32, INT64, UINT32, UINT64, BF16, FLOAT16 or FLOAT");
  // The ACL layer of CANN converts the type in place, although the argument
  // is const (acl-api-ext.md §14 trap 2): passing the struct again fails.
  const int runtime_code = rt;
  std::memcpy(const_cast<aclrtRandomNumTaskInfo*>(taskInfo), &runtime_code, sizeof runtime_code);
  if (!RandomFeature())
    return api::NotSupported(__func__, "random-number tasks exist on Atlas A2/A3 only");
  if (reserve != nullptr) return api::RtBadParam(__func__, "reserve", api::Hex(reserve), "must be NULL");
  const core::Elem e = ElemOfRuntimeType(rt);
  const bool is_float = rt >= 4;
  const int func = api::RawEnum(taskInfo->randomNumFuncParaInfo.funcType);
  if (func < ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK || func > ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS)
    return api::RtBadParam(__func__, "funcType", std::to_string(func), "an aclrtRandomNumFuncType");
  if (func != ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS && !is_float)
    return api::RtBadParam(__func__, "dataType", std::to_string(dt),
                           "this distribution takes ACL_BF16, ACL_FLOAT16 or ACL_FLOAT");
  if (taskInfo->randomCounterAddr == nullptr)
    return api::RtBadParam(__func__, "randomCounterAddr", "NULL", "a 16-byte device buffer");
  if (taskInfo->randomResultAddr == nullptr)
    return api::RtBadParam(__func__, "randomResultAddr", "NULL", "a device buffer for the results");
  if (aclError rc = CheckCountParam(__func__, "randomSeed", taskInfo->randomSeed)) return rc;
  if (aclError rc = CheckCountParam(__func__, "randomNum", taskInfo->randomNum)) return rc;
  const size_t width = core::ElemBits(e) / 8;
  const auto& pi = taskInfo->randomNumFuncParaInfo.paramInfo;
  // The parameter pair shares its place in the union: uniform {min, max},
  // normal {mean, stddev}, dropout {ratio}.
  const aclrtRandomParaInfo& p0 = pi.uniformDisInfo.min;
  const aclrtRandomParaInfo& p1 = pi.uniformDisInfo.max;
  if (aclError rc = CheckDistParam(__func__, "paramInfo[0]", p0, width)) return rc;
  if (func != ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK)
    if (aclError rc = CheckDistParam(__func__, "paramInfo[1]", p1, width)) return rc;
  if (aclError rc = api::CheckFillRange(__func__, taskInfo->randomCounterAddr, 16)) return rc;
  // The result range can be checked now when the count is immediate.
  if (taskInfo->randomNum.isAddr == 0) {
    const uint64_t num = ImmediateCount(taskInfo->randomNum);
    if (num == 0 || num > kMaxRandomNum)
      return api::RtBadParam(__func__, "randomNum", std::to_string(num), "must be in [1, 2^32]");
    const uint64_t bytes = func == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK ? (num + 7) / 8 : num * width;
    if (aclError rc = api::CheckFillRange(__func__, taskInfo->randomResultAddr, bytes)) return rc;
  }
  ACL_RESOLVE_STREAM(s, stream);
  core::RandomSpec spec;
  spec.func = func;
  spec.type = e;
  spec.p0 = ParamOf(p0);
  spec.p1 = ParamOf(p1);
  spec.seed = ParamOf(taskInfo->randomSeed);
  spec.num = ParamOf(taskInfo->randomNum);
  spec.result = taskInfo->randomResultAddr;
  spec.counter = taskInfo->randomCounterAddr;
  s->Submit(std::make_unique<core::RandomTask>(spec));
  return ACL_SUCCESS;
}

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
  const int m = api::RawEnum(mode);
  if (m < ACL_RT_OVERFLOW_MODE_SATURATION || m >= ACL_RT_OVERFLOW_MODE_UNDEF)
    return api::RtBadParam(__func__, "mode", std::to_string(m), "ACL_RT_OVERFLOW_MODE_SATURATION or _INFNAN");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  if (!core::overflow::ModeSupported(m))
    return api::NotSupported(__func__, std::string("this SOC does not support overflow mode ") + std::to_string(m));
  core::overflow::SetDeviceMode(ctx.value()->phys_id(), m);
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) {
  ACL_REQUIRE_NOT_NULL(mode);
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  *mode = static_cast<aclrtFloatOverflowMode>(core::overflow::DeviceMode(ctx.value()->phys_id()));
  return ACL_SUCCESS;
}

aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag) {
  if (flag > 1) return api::BadParam(__func__, "flag", std::to_string(flag), "0 or 1");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  ACL_RESOLVE_STREAM(s, stream);
  if (!core::overflow::HasSwitch())
    return api::NotSupported(__func__, "the overflow switch exists on Ascend 950 and Atlas A2/A3 only");
  core::overflow::SetStreamSwitch(s->id(), flag);
  return ACL_SUCCESS;
}

aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag) {
  ACL_REQUIRE_NOT_NULL(flag);
  ACL_RESOLVE_STREAM(s, stream);
  *flag = core::overflow::StreamSwitch(s->id());
  return ACL_SUCCESS;
}

aclError aclrtGetOverflowStatus(void* outputAddr, size_t outputSize, aclrtStream stream) {
  SIMNPU_TRACE_API();
  return SubmitOverflowTask(__func__, outputAddr, outputSize, stream, false);
}

aclError aclrtResetOverflowStatus(aclrtStream stream) {
  SIMNPU_TRACE_API();
  return SubmitOverflowTask(__func__, nullptr, 0, stream, true);
}

aclError aclrtGetFloatOverflowStatus(void* outputAddr, uint64_t outputSize, aclrtStream stream) {
  SIMNPU_TRACE_API();
  return SubmitOverflowTask(__func__, outputAddr, outputSize, stream, false);
}

aclError aclrtResetFloatOverflowStatus(aclrtStream stream) {
  SIMNPU_TRACE_API();
  return SubmitOverflowTask(__func__, nullptr, 0, stream, true);
}

}  // extern "C"
