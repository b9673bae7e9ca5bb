// Kernel binaries, arguments and launch.
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "dfx/trace/trace.h"
#include "api/api_common.h"
#include "api/range_checks.h"
#include "api/kernel_lookup.h"
#include "core/allocation_map.h"
#include "core/runtime.h"
#include "loader/binary.h"
#include "loader/kernel_args.h"
#include "loader/kernel_task.h"
#include "platform/vm.h"

using namespace simnpu;

namespace {

core::HandleRegistry<loader::Binary>& Binaries() {
  static auto* r = new core::HandleRegistry<loader::Binary>();
  return *r;
}
core::HandleRegistry<loader::Function>& Functions() {
  static auto* r = new core::HandleRegistry<loader::Function>();
  return *r;
}

aclError CheckOptions(const char* func, const aclrtBinaryLoadOptions* options) {
  if (!options) return ACL_SUCCESS;
  if (options->numOpt > 0 && options->options == nullptr) return api::NullParam(func, "options->options");
  for (size_t i = 0; i < options->numOpt; ++i) {
    int t = api::RawEnum(options->options[i].type);
    if (t != ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD && t != ACL_RT_BINARY_LOAD_OPT_MAGIC &&
        t != ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE)
      return api::BadParam(func, "options->options[].type", std::to_string(t), "LAZY_LOAD, MAGIC or CPU_KERNEL_MODE");
    if (t == ACL_RT_BINARY_LOAD_OPT_MAGIC) {
      const uint32_t m = options->options[i].value.magic;
      if (m != ACL_RT_BINARY_MAGIC_ELF_AICORE && m != ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE &&
          m != ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE)
        return api::RtBadParam(func, "options->options[].value.magic", std::to_string(m),
                               "ACL_RT_BINARY_MAGIC_ELF_AICORE, _VECTOR_CORE or _CUBE_CORE");
    }
    if (t == ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD && options->options[i].value.isLazyLoad > 1)
      return api::RtBadParam(func, "options->options[].value.isLazyLoad",
                             std::to_string(options->options[i].value.isLazyLoad), "0 or 1");
  }
  return ACL_SUCCESS;
}

aclError Register(const char* func, StatusOr<std::shared_ptr<loader::Binary>> b, aclrtBinHandle* out) {
  if (!b.ok()) return api::Fail(func, b.status());
  Binaries().Add(b.value());
  *out = b.value().get();
  return ACL_SUCCESS;
}

aclError FunctionOut(const char* func, StatusOr<std::shared_ptr<loader::Function>> f, aclrtFuncHandle* out) {
  if (!f.ok()) return api::Fail(func, f.status());
  Functions().Add(f.value());
  *out = f.value().get();
  return ACL_SUCCESS;
}

// Parses a launch configuration into loader terms.
aclError ParseCfg(const char* func, const aclrtLaunchKernelCfg* cfg, loader::LaunchConfig* out) {
  if (!cfg) return ACL_SUCCESS;
  if (cfg->numAttrs > 0 && cfg->attrs == nullptr) return api::NullParam(func, "cfg->attrs");
  for (size_t i = 0; i < cfg->numAttrs; ++i) {
    const aclrtLaunchKernelAttr& a = cfg->attrs[i];
    const int id = api::RawEnum(a.id);
    switch (id) {
      case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE: {
        const int engine = api::RawEnum(a.value.engineType);
        if (engine != ACL_RT_ENGINE_TYPE_AIC && engine != ACL_RT_ENGINE_TYPE_AIV)
          return api::RtBadParam(func, "engineType", std::to_string(engine), "AIC (0) or AIV (1)");
        out->engine_type = engine == ACL_RT_ENGINE_TYPE_AIC ? SIMNPU_KERNEL_AIC : SIMNPU_KERNEL_AIV;
        break;
      }
      case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
        out->block_offset = a.value.blockDimOffset;
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
      case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
      case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
      case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
      case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
      case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
      case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
        break;  // accepted; no effect on the simulated device
      default:
        return api::RtBadParam(func, "cfg->attrs[].id", std::to_string(id), "an aclrtLaunchKernelAttrId value");
    }
  }
  return ACL_SUCCESS;
}

// aclrtKernelArgsInit hands out the calling thread's builder, which lives
// until the thread exits (loader::ArgsBuilder::InitForThread). Remembering it
// lets the Append / Finalize / Launch calls of the same thread skip
// ArgsBuilder::Valid, a process-wide mutex on every call; a handle from
// another thread is still checked there.
thread_local const void* tls_own_args = nullptr;
// Forgets tls_own_args before the builder is freed at thread exit: it is first
// used just after InitForThread created the builder's thread_local, so its
// destructor runs before that one's (reverse order of construction), and a
// call made later in the thread's exit falls back to ArgsBuilder::Valid.
struct OwnArgsForget {
  bool armed = false;  // set by aclrtKernelArgsInit, which constructs the object
  ~OwnArgsForget() { tls_own_args = nullptr; }
};
thread_local OwnArgsForget tls_own_args_forget;

// The registry interface of ACL_FIND_HANDLE over the live argument builders.
struct LiveArgs {
  loader::ArgsBuilder* Find(aclrtArgsHandle h) const {
    if (h != nullptr && (h == tls_own_args || loader::ArgsBuilder::Valid(h)))
      return static_cast<loader::ArgsBuilder*>(h);
    return nullptr;
  }
};

// The builder's kernel must still be loaded (aclrtBinaryUnLoad removes its
// function handles): 107017 otherwise.
#define ACL_REQUIRE_LOADED(b)                                                                          \
  if (!Functions().Find((b)->function().get()))                                                        \
  return api::RtFail(__func__, ACL_ERROR_RT_INVALID_HANDLE,                                            \
                     "the arguments belong to kernel " + std::string((b)->function()->desc->name) +     \
                         ", whose binary was unloaded (aclrtBinaryUnLoad)")

// The host-argument placeholder table is passed to the loader as it is.
static_assert(std::is_standard_layout_v<aclrtPlaceHolderInfo> && std::is_standard_layout_v<loader::PlaceHolderRef>);
static_assert(sizeof(aclrtPlaceHolderInfo) == sizeof(loader::PlaceHolderRef) &&
              alignof(aclrtPlaceHolderInfo) == alignof(loader::PlaceHolderRef));
static_assert(offsetof(aclrtPlaceHolderInfo, addrOffset) == offsetof(loader::PlaceHolderRef, addr_offset) &&
              offsetof(aclrtPlaceHolderInfo, dataOffset) == offsetof(loader::PlaceHolderRef, data_offset));
static_assert(std::is_same_v<decltype(aclrtPlaceHolderInfo::addrOffset), decltype(loader::PlaceHolderRef::addr_offset)> &&
              std::is_same_v<decltype(aclrtPlaceHolderInfo::dataOffset), decltype(loader::PlaceHolderRef::data_offset)>);

}  // namespace

namespace simnpu::api {
std::shared_ptr<loader::Function> FindFunction(const void* h) { return Functions().Find(h); }
aclError ParseLaunchConfig(const char* func, const aclrtLaunchKernelCfg* cfg, loader::LaunchConfig* out) {
  return ParseCfg(func, cfg, out);
}
}  // namespace simnpu::api

extern "C" {

aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options, aclrtBinHandle* binHandle) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(binPath);
  ACL_REQUIRE_NOT_NULL(binHandle);
  if (aclError e = CheckOptions(__func__, options)) return e;
  return Register(__func__, loader::Binary::FromFile(binPath), binHandle);
}

aclError aclrtBinaryLoadFromData(const void* data, size_t length, const aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(data);
  ACL_REQUIRE_NOT_NULL(binHandle);
  if (length == 0) return api::BadParam(__func__, "length", "0", "a positive size");
  if (aclError e = CheckOptions(__func__, options)) return e;
  // Decision (the reference is silent): an image is at most 1 GiB; fatbins are megabytes.
  constexpr size_t kMaxImageBytes = size_t{1} << 30;
  if (length > kMaxImageBytes)
    return api::RtBadParam(__func__, "length", std::to_string(length), "at most 1 GiB of kernel image data");
  if (!platform::RangeMapped(data, length) || !platform::RangeReadable(data, length))
    return api::RtBadParam(__func__, "length", std::to_string(length),
                           "[data, data+length) is not readable memory of this process");
  return Register(__func__, loader::Binary::FromData(data, length), binHandle);
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName, aclrtFuncHandle* funcHandle) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(binHandle);
  ACL_REQUIRE_NOT_NULL(kernelName);
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_FIND_HANDLE(b, Binaries(), binHandle, "binary");
  return FunctionOut(__func__, b->FunctionByName(kernelName), funcHandle);
}

aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry, aclrtFuncHandle* funcHandle) {
  ACL_REQUIRE_NOT_NULL(binHandle);
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_FIND_HANDLE(b, Binaries(), binHandle, "binary");
  return FunctionOut(__func__, b->FunctionByEntry(funcEntry), funcHandle);
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(binHandle);
  auto b = Binaries().Remove(binHandle);
  if (!b) return api::InvalidHandle(__func__, "binary", binHandle);
  // Function handles of this binary become invalid; queued launches keep the image alive.
  for (auto& f : Functions().Select([&](const loader::Function& fn) { return fn.binary == b; }))
    Functions().Remove(f.get());
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_REQUIRE_NOT_NULL(argsHandle);
  ACL_FIND_HANDLE(f, Functions(), funcHandle, "function");
  loader::ArgsBuilder* b = loader::ArgsBuilder::InitForThread(f);
  tls_own_args_forget.armed = true;  // constructed after the builder's thread_local (see above)
  tls_own_args = b;
  *argsHandle = b;
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize, aclrtParamHandle* paramHandle) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(argsHandle);
  ACL_REQUIRE_NOT_NULL(param);
  ACL_REQUIRE_NOT_NULL(paramHandle);
  if (paramSize == 0) return api::BadParam(__func__, "paramSize", "0", "a positive size");
  ACL_FIND_HANDLE(b, LiveArgs(), argsHandle, "arguments");
  ACL_REQUIRE_LOADED(b);
  uint32_t idx;
  ACL_REQUIRE_OK(b->Append(param, paramSize, &idx));
  *paramHandle = reinterpret_cast<aclrtParamHandle>(static_cast<uintptr_t>(idx) + 1);
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle* paramHandle) {
  ACL_REQUIRE_NOT_NULL(argsHandle);
  ACL_REQUIRE_NOT_NULL(paramHandle);
  ACL_FIND_HANDLE(b, LiveArgs(), argsHandle, "arguments");
  ACL_REQUIRE_LOADED(b);
  uint32_t idx;
  ACL_REQUIRE_OK(b->AppendPlaceHolder(&idx));
  *paramHandle = reinterpret_cast<aclrtParamHandle>(static_cast<uintptr_t>(idx) + 1);
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                             size_t dataSize, void** bufferAddr) {
  ACL_REQUIRE_NOT_NULL(argsHandle);
  ACL_REQUIRE_NOT_NULL(paramHandle);
  ACL_REQUIRE_NOT_NULL(bufferAddr);
  if (dataSize == 0) return api::BadParam(__func__, "dataSize", "0", "a positive size");
  ACL_FIND_HANDLE(b, LiveArgs(), argsHandle, "arguments");
  ACL_REQUIRE_LOADED(b);
  uint32_t idx = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(paramHandle) - 1);
  ACL_REQUIRE_OK(b->PlaceHolderBuffer(idx, dataSize, bufferAddr));
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(argsHandle);
  ACL_FIND_HANDLE(b, LiveArgs(), argsHandle, "arguments");
  ACL_REQUIRE_LOADED(b);
  ACL_REQUIRE_OK(b->Finalize());
  return ACL_SUCCESS;
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                     aclrtLaunchKernelCfg* cfg, aclrtArgsHandle argsHandle, void* reserve) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_REQUIRE_NOT_NULL(argsHandle);
  if (numBlocks == 0) return api::BadParam(__func__, "numBlocks", "0", "a positive block count");
  if (reserve != nullptr) return api::BadParam(__func__, "reserve", api::Hex(reserve), "NULL");
  loader::LaunchConfig lc;
  lc.num_blocks = numBlocks;
  if (aclError e = ParseCfg(__func__, cfg, &lc)) return e;
  ACL_FIND_HANDLE(f, Functions(), funcHandle, "function");
  ACL_FIND_HANDLE(b, LiveArgs(), argsHandle, "arguments");
  if (!b->finalized())
    return api::RtBadParam(__func__, "argsHandle", api::Hex(argsHandle), "call aclrtKernelArgsFinalize before launching");
  if (b->function().get() != f.get())
    return api::RtBadParam(__func__, "argsHandle", api::Hex(argsHandle), "the arguments were built for another kernel");
  ACL_RESOLVE_STREAM(s, stream);
  auto snap = loader::SnapshotFromBuilder(*b);
  if (!snap.ok()) return api::Fail(__func__, snap.status());
  if (aclError e = api::CheckPeerKernelArgs(__func__, *f->desc, snap.value()->argv(), snap.value()->argc(),
                                            s->device_id(), s->phys_id()))
    return e;
  s->Submit(std::make_unique<loader::KernelTask>(f, snap.value(), lc, funcHandle));
  return ACL_SUCCESS;
}

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                       aclrtLaunchKernelCfg* cfg, void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray, size_t placeHolderNum) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_REQUIRE_NOT_NULL(hostArgs);  // also for argsSize 0 (acl-api.md §4.7: func/hostArgs NULL -> 100000)
  if (placeHolderNum > 0 && placeHolderArray == nullptr) return api::NullParam(__func__, "placeHolderArray");
  if (numBlocks == 0) return api::BadParam(__func__, "numBlocks", "0", "a positive block count");
  ACL_FIND_HANDLE(f, Functions(), funcHandle, "function");
  // The reference narrows argsSize to 32 bits; an argument block is at most
  // 64 KiB, and every byte of it must be readable.
  if (argsSize > loader::kMaxArgsBytes)
    return api::RtBadParam(__func__, "argsSize", std::to_string(argsSize),
                           "at most " + std::to_string(loader::kMaxArgsBytes) + " bytes of arguments");
  if (!platform::RangeReadable(hostArgs, argsSize))
    return api::RtBadParam(__func__, "hostArgs", api::Hex(hostArgs), "[hostArgs, hostArgs+argsSize) is not readable");
  if (placeHolderNum > loader::kMaxParams)
    return api::RtBadParam(__func__, "placeHolderNum", std::to_string(placeHolderNum),
                           "at most " + std::to_string(loader::kMaxParams) + " placeholders");
  if (placeHolderNum > 0 && !platform::RangeReadable(placeHolderArray, placeHolderNum * sizeof(aclrtPlaceHolderInfo)))
    return api::RtBadParam(__func__, "placeHolderArray", api::Hex(placeHolderArray), "the array is not readable");
  loader::LaunchConfig lc;
  lc.num_blocks = numBlocks;
  if (aclError e = ParseCfg(__func__, cfg, &lc)) return e;
  ACL_RESOLVE_STREAM(s, stream);
  auto snap = loader::SnapshotFromBlob(*f, hostArgs, static_cast<uint32_t>(argsSize),
                                       reinterpret_cast<const loader::PlaceHolderRef*>(placeHolderArray),
                                       placeHolderNum);
  if (!snap.ok()) return api::Fail(__func__, snap.status());
  if (aclError e = api::CheckPeerKernelArgs(__func__, *f->desc, snap.value()->argv(), snap.value()->argc(),
                                            s->device_id(), s->phys_id()))
    return e;
  s->Submit(std::make_unique<loader::KernelTask>(f, snap.value(), lc, funcHandle));
  return ACL_SUCCESS;
}

aclError aclrtGetHardwareSyncAddr(void** addr) {
  ACL_REQUIRE_NOT_NULL(addr);
  alignas(64) static uint64_t sync_area[64];
  // Kernels may reach it: it is memory the runtime handed out (memcheck).
  static const bool registered = core::AllocationMap::Get()
                                     .Register(reinterpret_cast<uintptr_t>(sync_area), sizeof sync_area, 0,
                                               core::MemKind::kHostRegistered, -1)
                                     .ok();
  (void)registered;
  *addr = sync_area;
  return ACL_SUCCESS;
}

}  // extern "C"
