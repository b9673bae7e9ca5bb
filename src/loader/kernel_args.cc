// Kernel argument builder and launch snapshots.
#include "loader/kernel_args.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_set>

namespace simnpu::loader {
namespace {
constexpr int kParamInvalid = 107000;
constexpr int kNotSupport = 207000;  // ACL_ERROR_RT_FEATURE_NOT_SUPPORT (ordering errors)

inline uint32_t Align(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

std::mutex g_live_mu;
std::unordered_set<const void*>& Live() {
  static auto* s = new std::unordered_set<const void*>();
  return *s;
}

struct ThreadBuilder {
  std::unique_ptr<ArgsBuilder> b;
  ~ThreadBuilder() {
    std::lock_guard<std::mutex> g(g_live_mu);
    Live().erase(b.get());
  }
};
thread_local ThreadBuilder tls_builder;
}  // namespace

ArgsBuilder* ArgsBuilder::InitForThread(std::shared_ptr<Function> fn) {
  if (!tls_builder.b) {
    tls_builder.b = std::make_unique<ArgsBuilder>();
    std::lock_guard<std::mutex> g(g_live_mu);
    Live().insert(tls_builder.b.get());
  }
  ArgsBuilder* b = tls_builder.b.get();
  b->fn_ = std::move(fn);
  b->area_.clear();
  b->params_.clear();
  b->finalized_ = false;
  b->buffers_taken_ = false;
  return b;
}

bool ArgsBuilder::Valid(const void* h) {
  std::lock_guard<std::mutex> g(g_live_mu);
  return Live().count(h) != 0;
}

Status ArgsBuilder::Append(const void* param, size_t size, uint32_t* index) {
  if (finalized_) return Status(kNotSupport, "arguments cannot be appended after aclrtKernelArgsFinalize");
  if (buffers_taken_)
    return Status(kNotSupport, "arguments cannot be appended after aclrtKernelArgsGetPlaceHolderBuffer");
  if (params_.size() >= kMaxParams)
    return Status(kParamInvalid, "a kernel takes at most " + std::to_string(kMaxParams) + " parameters");
  uint32_t off = Align(static_cast<uint32_t>(area_.size()), 8);
  if (size > kMaxArgsBytes || off > kMaxArgsBytes - size)
    return Status(kParamInvalid, "the arguments exceed " + std::to_string(kMaxArgsBytes) + " bytes");
  area_.resize(off + size, 0);
  std::memcpy(area_.data() + off, param, size);
  ArgParam p;
  p.offset = off;
  p.size = static_cast<uint32_t>(size);
  params_.push_back(std::move(p));
  *index = static_cast<uint32_t>(params_.size() - 1);
  return Status::Ok();
}

Status ArgsBuilder::Finalize() {
  if (finalized_) return Status(kNotSupport, "the arguments are already finalized (aclrtKernelArgsFinalize was called twice)");
  finalized_ = true;
  return Status::Ok();
}

Status ArgsBuilder::AppendPlaceHolder(uint32_t* index) {
  uint64_t zero = 0;
  SIMNPU_RETURN_IF_ERROR(Append(&zero, sizeof zero, index));
  params_[*index].placeholder = true;
  return Status::Ok();
}

Status ArgsBuilder::PlaceHolderBuffer(uint32_t index, size_t size, void** out) {
  if (finalized_) return Status(kNotSupport, "the arguments are already finalized");
  if (index >= params_.size() || !params_[index].placeholder)
    return Status(kParamInvalid, "the parameter handle is not a placeholder of these arguments");
  size_t total = area_.size();
  for (auto& p : params_) total += p.data.size();
  if (size > kMaxArgsBytes || total > kMaxArgsBytes - size)
    return Status(kParamInvalid, "the arguments exceed " + std::to_string(kMaxArgsBytes) + " bytes");
  ArgParam& p = params_[index];
  p.data.assign(size, 0);
  p.has_data = true;
  buffers_taken_ = true;
  *out = p.data.data();
  return Status::Ok();
}

// The appended parameters must match the kernel's declared ones (count,
// sizes; placeholders only for pointers).
static Status CheckAgainstKernel(const Function& fn, const std::vector<ArgParam>& params) {
  const simnpu_kernel_desc& d = *fn.desc;
  if (params.size() != d.param_count)
    return Status(kParamInvalid, std::string("kernel ") + d.name + " takes " + std::to_string(d.param_count) +
                                     " parameter(s), " + std::to_string(params.size()) + " were given");
  for (size_t i = 0; i < params.size(); ++i) {
    const simnpu_param_desc& pd = d.params[i];
    if (params[i].placeholder && pd.kind != SIMNPU_PARAM_POINTER)
      return Status(kParamInvalid, std::string("kernel ") + d.name + " parameter " + std::to_string(i) +
                                       " is not a pointer, so it cannot be a placeholder");
    if (params[i].size != pd.size)
      return Status(kParamInvalid, std::string("kernel ") + d.name + " parameter " + std::to_string(i) +
                                       " is " + std::to_string(pd.size) + " bytes, " +
                                       std::to_string(params[i].size) + " were appended");
  }
  return Status::Ok();
}

void ArgSnapshot::Allocate(size_t capacity) {
  const size_t n = (std::max<size_t>(capacity, 8) + 63) / 64 * 64;
  if (n <= kInlineBytes) {
    const uintptr_t a = reinterpret_cast<uintptr_t>(inline_bytes_);
    bytes_ = inline_bytes_ + ((64 - (a & 63)) & 63);
  } else {
    heap_bytes_.reset(static_cast<uint8_t*>(std::aligned_alloc(64, n)));
    if (!heap_bytes_) throw std::bad_alloc();
    bytes_ = heap_bytes_.get();
  }
  std::memset(bytes_, 0, n);
}

void ArgSnapshot::AddArg(void* p) {
  if (argc_ < kInlineArgs) {
    inline_argv_[argc_++] = p;
    return;
  }
  if (argc_ == kInlineArgs) heap_argv_.assign(inline_argv_, inline_argv_ + kInlineArgs);
  heap_argv_.push_back(p);
  ++argc_;
}

StatusOr<std::shared_ptr<ArgSnapshot>> SnapshotFromBuilder(const ArgsBuilder& b) {
  const auto& params = b.params();
  SIMNPU_RETURN_IF_ERROR(CheckAgainstKernel(*b.function(), params));
  const simnpu_param_desc* descs = b.function()->desc->params;
  // Layout: parameter area | placeholder data blocks (8-aligned, in order) =
  // `total` bytes | aligned copies of parameters whose type needs more than
  // the 8-byte alignment of the appended layout.
  const size_t data_start = Align(static_cast<uint32_t>(b.area().size()), 8);
  size_t total = data_start;
  for (const ArgParam& p : params)
    if (p.has_data) total = Align(static_cast<uint32_t>(total + p.data.size()), 8);
  auto needs_copy = [&](size_t i) { return descs[i].align > 8 && params[i].offset % descs[i].align != 0; };
  size_t capacity = total;
  for (size_t i = 0; i < params.size(); ++i)
    if (needs_copy(i)) capacity = (capacity + descs[i].align - 1) / descs[i].align * descs[i].align + params[i].size;
  auto s = std::make_shared<ArgSnapshot>();
  s->size = total;
  s->Allocate(capacity);
  if (!b.area().empty()) std::memcpy(s->data(), b.area().data(), b.area().size());
  size_t data_at = data_start, copy_at = total;
  for (size_t i = 0; i < params.size(); ++i) {
    const ArgParam& p = params[i];
    if (p.has_data) {
      void* addr = s->data() + data_at;
      if (!p.data.empty()) std::memcpy(addr, p.data.data(), p.data.size());
      std::memcpy(s->data() + p.offset, &addr, sizeof addr);  // patch the slot
      data_at = Align(static_cast<uint32_t>(data_at + p.data.size()), 8);
    }
    if (needs_copy(i)) {
      copy_at = (copy_at + descs[i].align - 1) / descs[i].align * descs[i].align;
      std::memcpy(s->data() + copy_at, s->data() + p.offset, p.size);
      s->AddArg(s->data() + copy_at);
      copy_at += p.size;
    } else {
      s->AddArg(s->data() + p.offset);
    }
  }
  return s;
}

StatusOr<std::shared_ptr<ArgSnapshot>> SnapshotFromBlob(const Function& fn, const void* blob, size_t size,
                                                        const PlaceHolderRef* ph, size_t ph_count) {
  const simnpu_kernel_desc& d = *fn.desc;
  auto s = std::make_shared<ArgSnapshot>();
  s->size = size;
  s->Allocate(size);  // 64-byte aligned: offsets aligned in the blob stay aligned
  if (size) std::memcpy(s->data(), blob, size);
  for (size_t k = 0; k < ph_count; ++k) {
    if (static_cast<size_t>(ph[k].addr_offset) + 8 > size || ph[k].data_offset >= size)
      return Status(kParamInvalid, "placeholder " + std::to_string(k) + " lies outside the " +
                                       std::to_string(size) + "-byte argument block");
    void* addr = s->data() + ph[k].data_offset;
    std::memcpy(s->data() + ph[k].addr_offset, &addr, sizeof addr);
  }
  uint32_t off = 0;
  for (uint32_t i = 0; i < d.param_count; ++i) {
    uint32_t a = std::max<uint32_t>(8, d.params[i].align);
    off = Align(off, a);
    if (off + d.params[i].size > size)
      return Status(kParamInvalid, std::string("kernel ") + d.name + " needs at least " +
                                       std::to_string(off + d.params[i].size) + " bytes of arguments, " +
                                       std::to_string(size) + " were given");
    s->AddArg(s->data() + off);
    off += d.params[i].size;
  }
  return s;
}

}  // namespace simnpu::loader
