// KernelDumper (see kernel_dump.h).
#include "loader/kernel_dump.h"

#include <sys/time.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "dfx/log.h"
#include "loader/kernel_args.h"
#include "platform/env.h"
#include "sim/memory_path.h"
#include "sim/npu_system.h"
#include "uvm/engine.h"

namespace simnpu::loader {
namespace {

uint64_t WallUs() {
  struct timeval tv;
  gettimeofday(&tv, nullptr);
  return static_cast<uint64_t>(tv.tv_sec) * 1000000 + static_cast<uint64_t>(tv.tv_usec);
}

// The bytes from p to the end of the allocation holding it (0 if none).
size_t ExtentOf(const void* p) {
  uintptr_t base = 0;
  size_t size = 0;
  if (uvm::Engine::Get().IsManaged(reinterpret_cast<uintptr_t>(p), 1) && uvm::Engine::Get().Lookup(p, &base, &size))
    return base + size - reinterpret_cast<uintptr_t>(p);
  if (sim::NpuDevice* dev = sim::NpuSystem::Get().DeviceOwning(p)) {
    if (dev->arena().FindAllocation(p, &base, &size)) return base + size - reinterpret_cast<uintptr_t>(p);
  }
  return 0;
}

}  // namespace

void KernelDumper::Before(const simnpu_kernel_desc& desc, const ArgSnapshot& args, uint32_t blocks, int phys,
                          int stream, uint32_t task) {
  const char* op = dfx::dump::CurrentOpName();
  const char* name = op ? op : desc.name;
  const uint32_t want = dfx::dump::Wanted();
  const bool data = dfx::dump::WantsKernel(name, &want_inputs_, &want_outputs_);
  if (!data && !(want & (dfx::dump::kWantArgs | dfx::dump::kWantException))) return;
  active_ = true;
  desc_ = &desc;
  args_ = &args;
  d_ = std::make_unique<dfx::dump::KernelDump>();
  d_->kernel = name;
  d_->block_dim = blocks;
  d_->device = phys;
  d_->stream = stream;
  d_->task = task;
  d_->timestamp_us = WallUs();
  d_->args.assign(args.data(), args.data() + args.size);
  if (!data) want_inputs_ = want_outputs_ = false;
  if (want & dfx::dump::kWantArgs) {
    std::vector<uint64_t> ptrs;
    for (uint32_t i = 0; i < desc.param_count && i < args.argc(); ++i) {
      if (desc.params[i].kind != SIMNPU_PARAM_POINTER) continue;
      uint64_t v = 0;
      std::memcpy(&v, args.argv()[i], sizeof v);
      ptrs.push_back(v);
    }
    dfx::dump::WriteArgs(*d_, ptrs);
  }
  if (want_inputs_) ReadBuffers(0);
}

void KernelDumper::ReadBuffers(uint32_t kind) {
  static const size_t cap = platform::GetEnvSize("SIMNPU_DUMP_MAX_TENSOR_BYTES", size_t{64} << 20);
  for (uint32_t i = 0; i < desc_->param_count && i < args_->argc(); ++i) {
    if (desc_->params[i].kind != SIMNPU_PARAM_POINTER) continue;
    void* p = nullptr;
    std::memcpy(&p, args_->argv()[i], sizeof p);
    const size_t n = std::min(ExtentOf(p), cap);
    if (!p || n == 0) continue;
    dfx::dump::Tensor t;
    t.kind = kind;
    t.arg_index = i;
    t.address = reinterpret_cast<uintptr_t>(p);
    t.data.resize(n);
    Status st = sim::DeviceRead(d_->device, t.data.data(), p, n, sim::AccessCause::kCopy);
    if (!st.ok()) {
      SIMNPU_LOGW(kRuntime, "dump: argument %u of %s could not be read: %s", i, d_->kernel.c_str(),
                  st.message().c_str());
      continue;
    }
    d_->tensors.push_back(std::move(t));
  }
}

void KernelDumper::AfterImpl(int rc, const std::string& reason, int64_t failed_block) {
  if (rc != 0) {
    if (!dfx::dump::ExceptionEnabled()) return;
    d_->tensors.clear();
    ReadBuffers(2);  // the argument buffers as the failure left them
    d_->reason = reason;
    d_->failed_block = failed_block;
    d_->error_code = rc;
    const std::string f = dfx::dump::WriteException(*d_);
    if (!f.empty()) std::fprintf(stderr, "[simnpu] exception dump of kernel %s written to %s\n", d_->kernel.c_str(), f.c_str());
    return;
  }
  if (want_outputs_) ReadBuffers(1);
  if (want_inputs_ || want_outputs_) dfx::dump::WriteData(*d_);
}

}  // namespace simnpu::loader
