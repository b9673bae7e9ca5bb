// A minimal stand-in for libacl_rt.so used only by the toolchain tests: just
// enough of the ACL API (device memory = host memory, one synchronous
// "stream", kernels run block by block at launch) to check what the
// ascendc.cmake flow produces — kernel images, the kernel table, the host
// argument blob of the launch glue — independently of the real runtime.
// Launch errors are kept and returned by the next synchronize, as the real
// runtime reports kernel failures.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "simnpu/kernel_abi.h"

namespace {

struct Binary {
  const simnpu_kernel_table* table = nullptr;
  void* dl = nullptr;
};

struct Func {
  const simnpu_kernel_desc* desc = nullptr;
};

struct Args {
  Func* func = nullptr;
  std::vector<unsigned char> blob;
  std::vector<size_t> offsets;
  bool finalized = false;
};

std::mutex g_mu;
int g_pending_error = 0;  // guarded by g_mu
int g_launches = 0;       // guarded by g_mu

int GmRead(void*, void* dst, const void* src, size_t n) {
  std::memcpy(dst, src, n);
  return 0;
}
int GmWrite(void*, void* dst, const void* src, size_t n) {
  std::memcpy(dst, src, n);
  return 0;
}
void Print(void*, const char* text, size_t n) {
  std::fwrite(text, 1, n, stdout);
  std::fflush(stdout);
}
void Diagnostic(void*, int level, const char* text) { std::fprintf(stderr, "[fake-rt diag %d] %s\n", level, text); }

// (no memory check: the extension fields stay null and env->flags has no SIMNPU_ENV_FLAG_EXT)
const simnpu_kernel_services kServices = {SIMNPU_KERNEL_ABI_VERSION, GmRead, GmWrite, Print, Diagnostic, nullptr, nullptr, nullptr};

// Runs all blocks now; returns the task's error code (0, 507035 or 507015).
int RunKernel(const simnpu_kernel_desc* d, uint32_t numBlocks, void* const* argv) {
  void* ub = std::aligned_alloc(32, 196608);
  char msg[512];
  int rc = 0;
  for (uint32_t b = 0; b < numBlocks && rc == 0; ++b) {
    msg[0] = '\0';
    simnpu_block_env env{};
    env.abi_version = SIMNPU_KERNEL_ABI_VERSION;
    env.core_type = d->kernel_type;
    env.block_idx = b;
    env.block_num = numBlocks;
    env.device_id = 0;
    env.npu_arch = 2201;
    env.ub_base = ub;
    env.ub_size = 196608;
    env.services = &kServices;
    env.services_ctx = nullptr;
    env.error_msg = msg;
    env.error_msg_cap = sizeof msg;
    const int brc = d->run_block(&env, argv);
    if (brc != SIMNPU_BLOCK_OK) {
      std::fprintf(stderr, "[fake-rt] kernel %s block %u failed (%d): %s\n", d->name, b, brc, msg);
      rc = d->kernel_type == SIMNPU_KERNEL_AIV ? 507035 : 507015;
    }
  }
  std::free(ub);
  return rc;
}

aclError Launch(Func* f, uint32_t numBlocks, const unsigned char* blob, size_t size, const size_t* fixedOffsets) {
  if (f == nullptr || numBlocks == 0) return ACL_ERROR_INVALID_PARAM;
  const simnpu_kernel_desc* d = f->desc;
  std::vector<void*> argv(d->param_count + 1, nullptr);
  std::vector<unsigned char> copy(blob, blob + size);
  size_t off = 0;
  for (uint32_t i = 0; i < d->param_count; ++i) {
    if (fixedOffsets != nullptr) {
      off = fixedOffsets[i];
    } else {
      const size_t a = d->params[i].align > 8 ? d->params[i].align : 8;
      off = (off + a - 1) / a * a;
    }
    if (off + d->params[i].size > size) {
      std::fprintf(stderr, "[fake-rt] kernel %s: argument blob too small (%zu) for param %u\n", d->name, size, i);
      return ACL_ERROR_INVALID_PARAM;
    }
    argv[i] = copy.data() + off;
    off += d->params[i].size;
  }
  const int rc = RunKernel(d, numBlocks, argv.data());
  std::lock_guard<std::mutex> lock(g_mu);
  ++g_launches;
  if (rc != 0 && g_pending_error == 0) g_pending_error = rc;
  return ACL_SUCCESS;
}

aclError TakeError() {
  std::lock_guard<std::mutex> lock(g_mu);
  const int rc = g_pending_error;
  g_pending_error = 0;
  return rc;
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclInit(const char*) { return ACL_SUCCESS; }
ACL_FUNC_VISIBILITY aclError aclFinalize(void) { return ACL_SUCCESS; }
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t) { return ACL_SUCCESS; }
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream* s) {
  *s = reinterpret_cast<aclrtStream>(0x5157);
  return ACL_SUCCESS;
}
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream) { return TakeError(); }
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void) { return TakeError(); }
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void** p, size_t n, aclrtMemMallocPolicy) {
  *p = std::aligned_alloc(64, (n + 63) / 64 * 64);
  return *p != nullptr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
ACL_FUNC_VISIBILITY aclError aclrtFree(void* p) {
  std::free(p);
  return ACL_SUCCESS;
}
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind) {
  if (count > destMax) return ACL_ERROR_INVALID_PARAM;
  std::memcpy(dst, src, count);
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char* path, aclrtBinaryLoadOptions*, aclrtBinHandle* bin) {
  void* dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (dl == nullptr) {
    std::fprintf(stderr, "[fake-rt] dlopen %s: %s\n", path, dlerror());
    return 107009;
  }
  auto fn = reinterpret_cast<simnpu_kernel_table_fn>(dlsym(dl, SIMNPU_KERNEL_TABLE_SYMBOL));
  if (fn == nullptr) return ACL_ERROR_INVALID_FILE;
  auto* b = new Binary();
  b->table = fn();
  b->dl = dl;
  *bin = b;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(const void* data, size_t length, const aclrtBinaryLoadOptions*,
                                                     aclrtBinHandle* bin) {
  if (data == nullptr || bin == nullptr || length != sizeof(simnpu_inproc_image)) return ACL_ERROR_INVALID_PARAM;
  const auto* img = static_cast<const simnpu_inproc_image*>(data);
  if (img->magic != SIMNPU_INPROC_IMAGE_MAGIC || img->abi_version != SIMNPU_KERNEL_ABI_VERSION ||
      img->table == nullptr || img->table->magic != SIMNPU_KERNEL_TABLE_MAGIC) {
    return ACL_ERROR_INVALID_PARAM;
  }
  auto* b = new Binary();
  b->table = img->table;
  *bin = b;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle bin, const char* name, aclrtFuncHandle* func) {
  if (bin == nullptr || name == nullptr || func == nullptr) return ACL_ERROR_INVALID_PARAM;
  const simnpu_kernel_table* t = static_cast<Binary*>(bin)->table;
  for (uint32_t i = 0; i < t->kernel_count; ++i) {
    if (std::strcmp(t->kernels[i].name, name) == 0) {
      auto* f = new Func();
      f->desc = &t->kernels[i];
      *func = f;
      return ACL_SUCCESS;
    }
  }
  std::fprintf(stderr, "[fake-rt] no kernel named %s\n", name);
  return 107000;
}

ACL_FUNC_VISIBILITY const char* aclGetRecentErrMsg(void) { return nullptr; }

ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle bin, uint64_t entry, aclrtFuncHandle* func) {
  if (bin == nullptr || func == nullptr) return ACL_ERROR_INVALID_PARAM;
  const simnpu_kernel_table* t = static_cast<Binary*>(bin)->table;
  for (uint32_t i = 0; i < t->kernel_count; ++i) {
    if (reinterpret_cast<uint64_t>(t->kernels[i].entry) == entry) {
      auto* f = new Func();
      f->desc = &t->kernels[i];
      *func = f;
      return ACL_SUCCESS;
    }
  }
  std::fprintf(stderr, "[fake-rt] no kernel with entry %llu\n", static_cast<unsigned long long>(entry));
  return 107000;
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle bin) {
  auto* b = static_cast<Binary*>(bin);
  if (b == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (b->dl != nullptr) dlclose(b->dl);
  delete b;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle func, aclrtArgsHandle* args) {
  auto* a = new Args();
  a->func = static_cast<Func*>(func);
  *args = a;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle args, void* param, size_t size,
                                                   aclrtParamHandle* ph) {
  auto* a = static_cast<Args*>(args);
  if (a == nullptr || param == nullptr || size == 0 || ph == nullptr || a->finalized) return ACL_ERROR_INVALID_PARAM;
  const size_t off = (a->blob.size() + 7) / 8 * 8;
  a->blob.resize(off + size);
  std::memcpy(a->blob.data() + off, param, size);
  a->offsets.push_back(off);
  *ph = reinterpret_cast<aclrtParamHandle>(a->offsets.size());
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle args) {
  static_cast<Args*>(args)->finalized = true;
  return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle func, uint32_t numBlocks, aclrtStream,
                                                         aclrtLaunchKernelCfg*, aclrtArgsHandle args, void*) {
  auto* a = static_cast<Args*>(args);
  if (a == nullptr || a->func != func) return ACL_ERROR_INVALID_PARAM;
  if (a->offsets.size() != a->func->desc->param_count) return ACL_ERROR_INVALID_PARAM;
  return Launch(a->func, numBlocks, a->blob.data(), a->blob.size(), a->offsets.data());
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle func, uint32_t numBlocks, aclrtStream,
                                                           aclrtLaunchKernelCfg*, void* hostArgs, size_t argsSize,
                                                           aclrtPlaceHolderInfo*, size_t) {
  if (hostArgs == nullptr) return ACL_ERROR_INVALID_PARAM;
  return Launch(static_cast<Func*>(func), numBlocks, static_cast<const unsigned char*>(hostArgs), argsSize, nullptr);
}

}  // extern "C"
