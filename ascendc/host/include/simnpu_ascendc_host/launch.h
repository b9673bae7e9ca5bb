// simnpu Ascend C host launch glue: what the ascendc.cmake source pre-pass
// turns a kernel launch into.
//
//   kernel<<<numBlocks, l2ctrl, stream>>>(args...)
//     becomes
//   ::simnpu::ascendc::host::Chevron< &kernel >("kernel", numBlocks, l2ctrl, stream)(args...)
//   tmpl<A, B><<<numBlocks, l2ctrl, stream>>>(args...)     (a kernel template)
//     becomes
//   ::simnpu::ascendc::host::Chevron< &tmpl<A, B>, SIMNPU_KERNEL_AIV >("tmpl<A,B>", ...)(args...)
//
// and the generated aclrtlaunch_<kernel>() entry points call the same thing.
// The call converts each argument to the kernel's parameter type, lays the
// values out in a host argument blob as include/simnpu/kernel_abi.h defines
// (parameter i at the next multiple of max(8, alignof)), and enqueues the
// kernel with aclrtLaunchKernelWithHostArgs on `stream` (null: the default
// stream). It returns the aclError of the enqueue as uint32_t; 0 means the
// launch was enqueued (the kernel runs asynchronously).
//
// The kernels come from the image the calling code is linked into: its table
// (ProcessKernelTable(), built once per image) is loaded once with
// aclrtBinaryLoadFromData as a simnpu_inproc_image, and each kernel is looked
// up once by name with aclrtBinaryGetFunction. Both are cached per process,
// keyed by table and kernel address, and guarded by a mutex; each kernel also
// keeps its resolved handle in an atomic slot of its own, so a launch takes
// the mutex only on a miss. A handle the runtime no longer knows (after
// aclFinalize and a new aclInit) makes the launch drop that image's handles,
// load the image again and retry once.
//
// Header-only; included by the kernel translation units of ascendc_library
// targets. Needs C++17.
#ifndef SIMNPU_ASCENDC_HOST_LAUNCH_H_
#define SIMNPU_ASCENDC_HOST_LAUNCH_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"
#include "simnpu/kernel_abi.h"

namespace simnpu {
namespace ascendc {
namespace host {

namespace detail {

// Error codes returned by the glue itself (values of rt_error_codes.h).
constexpr uint32_t kErrParamInvalid = 107000u;   // ACL_ERROR_RT_PARAM_INVALID
constexpr uint32_t kErrInvalidHandle = 107017u;  // ACL_ERROR_RT_INVALID_HANDLE
constexpr uint32_t kErrKernelLookup = 507027u;   // ACL_ERROR_RT_KERNEL_LOOKUP

template <typename F>
struct FnTraits {
  static_assert(sizeof(F) == 0, "a kernel launch needs a kernel function");
};
template <typename R, typename... A>
struct FnTraits<R (*)(A...)> {
  using Params = std::tuple<A...>;
  static constexpr std::size_t kCount = sizeof...(A);
};
template <typename R, typename... A>
struct FnTraits<R (*)(A...) noexcept> : FnTraits<R (*)(A...)> {};

template <typename T>
struct AlwaysFalse : std::false_type {};

constexpr std::size_t AlignUp(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }

// Offsets of each parameter in the host argument blob; the last element is
// the blob size (end of the last parameter).
template <typename... A>
constexpr std::array<std::size_t, sizeof...(A) + 1> BlobOffsets() {
  std::array<std::size_t, sizeof...(A) + 1> out{};
  const std::size_t sizes[] = {sizeof(A)..., 0};
  const std::size_t aligns[] = {alignof(A)..., 1};
  std::size_t off = 0;
  for (std::size_t i = 0; i < sizeof...(A); ++i) {
    off = AlignUp(off, aligns[i] > 8 ? aligns[i] : 8);
    out[i] = off;
    off += sizes[i];
  }
  out[sizeof...(A)] = off;
  return out;
}

// One argument converted to the kernel's parameter type P. Pointers of any
// kind (and integers holding addresses) convert to the parameter's pointer
// type, as the real launch stub takes them as void*.
template <typename P, typename U>
inline P ConvertArg(U&& u) {
  using D = std::decay_t<U>;
  static_assert(!std::is_reference<P>::value, "kernel parameters cannot be references");
  if constexpr (std::is_pointer<P>::value) {
    if constexpr (std::is_null_pointer<D>::value) {
      return nullptr;
    } else if constexpr (std::is_pointer<D>::value) {
      static_assert(!std::is_function<std::remove_pointer_t<D>>::value,
                    "a function pointer cannot be passed to a kernel pointer parameter");
      return reinterpret_cast<P>(const_cast<void*>(static_cast<const volatile void*>(u)));
    } else if constexpr (std::is_integral<D>::value) {
      return reinterpret_cast<P>(static_cast<std::uintptr_t>(u));
    } else {
      static_assert(AlwaysFalse<D>::value, "this argument cannot be passed to a kernel pointer parameter");
      return nullptr;
    }
  } else {
    return static_cast<P>(std::forward<U>(u));
  }
}

template <typename P, typename U>
inline void StoreArg(unsigned char* dst, U&& u) {
  static_assert(std::is_trivially_copyable<P>::value, "kernel parameters must be trivially copyable");
  const P value = ConvertArg<P>(std::forward<U>(u));
  std::memcpy(dst, &value, sizeof(P));
}

template <typename S>
inline void* ToStream(S&& s) {
  using D = std::decay_t<S>;
  if constexpr (std::is_null_pointer<D>::value) {
    return nullptr;
  } else if constexpr (std::is_pointer<D>::value) {
    return const_cast<void*>(static_cast<const volatile void*>(s));
  } else if constexpr (std::is_integral<D>::value) {
    return reinterpret_cast<void*>(static_cast<std::uintptr_t>(s));
  } else {
    static_assert(AlwaysFalse<D>::value, "the third launch value must be a stream (aclrtStream)");
    return nullptr;
  }
}

// Cache of loaded in-process images and kernel handles, one per shared
// object (hidden, like everything here that holds per-image state: an image
// never uses another's cache, table or handles). Never destroyed, so
// launches from static destructors stay safe.
class SIMNPU_ASCENDC_HIDDEN LaunchCache {
 public:
  struct Image;
  // One resolved kernel. Immutable once published and never freed: a
  // kernel's slot (FuncSlot) may point at it after Forget dropped it.
  struct Func {
    const simnpu_kernel_table* table;
    const void* entry;
    aclrtFuncHandle func;
    const Image* image;  // the load it came from
  };
  struct Image {
    simnpu_inproc_image record{};
    aclrtBinHandle bin = nullptr;
    std::atomic<bool> dropped{false};  // set by Forget: its handles are stale
  };

  static LaunchCache& Get() {
    static LaunchCache* cache = new LaunchCache();
    return *cache;
  }

  // The handle published in `slot` if it is for kernel `entry` of `table` and
  // its image was not dropped; else nullptr. No lock.
  static const Func* Cached(const std::atomic<const Func*>& slot, const simnpu_kernel_table* table,
                            const void* entry) {
    const Func* f = slot.load(std::memory_order_acquire);
    if (f != nullptr && f->table == table && f->entry == entry &&
        !f->image->dropped.load(std::memory_order_acquire)) {
      return f;
    }
    return nullptr;
  }

  // The function handle of kernel `entry` in image `table`, loading the image
  // and looking the kernel up on first use. Returns an aclError.
  uint32_t Function(const simnpu_kernel_table* table, const void* entry, const char* name, const Func** out) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const Func* f : funcs_) {
      if (f->table == table && f->entry == entry) {
        *out = f;
        return 0;
      }
    }
    if (table == nullptr) {
      Report(name, "this image has no kernel table");
      return kErrKernelLookup;
    }
    if (table->magic != SIMNPU_KERNEL_TABLE_MAGIC || table->abi_version != SIMNPU_KERNEL_ABI_VERSION) {
      Report(name, "the kernel table does not match this simnpu kernel ABI version");
      return kErrParamInvalid;
    }
    Image* image = nullptr;
    for (Image* im : images_) {
      if (im->record.table == table) image = im;
    }
    if (image == nullptr) {
      Image* fresh = new Image();
      fresh->record.magic = SIMNPU_INPROC_IMAGE_MAGIC;
      fresh->record.abi_version = SIMNPU_KERNEL_ABI_VERSION;
      fresh->record.table = table;
      const aclError rc = aclrtBinaryLoadFromData(&fresh->record, sizeof(fresh->record), nullptr, &fresh->bin);
      if (rc != ACL_SUCCESS) {
        Report(name, "aclrtBinaryLoadFromData failed", rc);
        delete fresh;
        return static_cast<uint32_t>(rc);
      }
      images_.push_back(fresh);
      image = fresh;
    }
    // The kernel: the table entry with this address (looked up by entry, so
    // kernels of equal names never alias), else by the name written at the
    // launch site.
    const char* registered = nullptr;
    for (uint32_t i = 0; i < table->kernel_count; ++i) {
      if (table->kernels[i].entry == entry) {
        registered = table->kernels[i].name != nullptr ? table->kernels[i].name : name;
        break;
      }
    }
    aclrtFuncHandle func = nullptr;
    const aclError rc =
        registered != nullptr
            ? aclrtBinaryGetFunctionByEntry(image->bin, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(entry)), &func)
            : aclrtBinaryGetFunction(image->bin, name, &func);
    if (registered == nullptr) registered = name;
    if (rc != ACL_SUCCESS) {
      Report(registered, "aclrtBinaryGetFunction failed (is the kernel registered?)", rc);
      return static_cast<uint32_t>(rc);
    }
    const Func* f = new Func{table, entry, func, image};
    funcs_.push_back(f);
    *out = f;
    return 0;
  }

  // Forget the image `stale` came from and all its handles (after the runtime
  // reported `stale` invalid). Nothing happens if another launch already did.
  void Forget(const Func* stale) {
    std::lock_guard<std::mutex> lock(mu_);
    if (stale->image->dropped.load(std::memory_order_relaxed)) return;
    std::vector<const Func*> kept;
    for (const Func* f : funcs_) {
      if (f->image != stale->image) kept.push_back(f);
    }
    funcs_.swap(kept);
    std::vector<Image*> keptImages;
    for (Image* im : images_) {
      if (im == stale->image) {
        // Leaked on purpose: the runtime may still refer to its record, and
        // kernel slots to its Funcs.
        im->dropped.store(true, std::memory_order_release);
      } else {
        keptImages.push_back(im);
      }
    }
    images_.swap(keptImages);
  }

 private:
  static void Report(const char* kernel, const char* what, int rc = 0) {
    if (rc != 0) {
      // the runtime's own message says why (e.g. an architecture mismatch)
      const char* why = aclGetRecentErrMsg();
      std::fprintf(stderr, "[ERROR] simnpu ascendc: cannot launch kernel %s: %s (error %d)%s%s\n",
                   kernel != nullptr ? kernel : "?", what, rc, why != nullptr ? ": " : "", why != nullptr ? why : "");
    } else {
      std::fprintf(stderr, "[ERROR] simnpu ascendc: cannot launch kernel %s: %s\n",
                   kernel != nullptr ? kernel : "?", what);
    }
  }

  // Lock order: mu_ is held while calling aclrtBinaryLoadFromData and
  // aclrtBinaryGetFunction (runtime locks nest inside it); nothing else.
  std::mutex mu_;
  std::vector<Image*> images_;      // live (not dropped) images; guarded by mu_
  std::vector<const Func*> funcs_;  // handles of live images; guarded by mu_
};

// The handle of kernel Fn last resolved in this image (hidden: one per
// shared object; Cached() checks table and entry anyway).
template <auto Fn>
SIMNPU_ASCENDC_HIDDEN inline std::atomic<const LaunchCache::Func*> FuncSlot{nullptr};

// Enqueue kernel `entry` of this image with a ready argument blob; `slot`
// caches its handle.
SIMNPU_ASCENDC_HIDDEN inline uint32_t Launch(std::atomic<const LaunchCache::Func*>& slot, const void* entry,
                                             const char* name, uint32_t numBlocks, void* stream, void* blob,
                                             std::size_t size) {
  const simnpu_kernel_table* table = ::simnpu::ascendc::ProcessKernelTable();
  for (int attempt = 0;; ++attempt) {
    const LaunchCache::Func* f = LaunchCache::Cached(slot, table, entry);
    if (f == nullptr) {
      const uint32_t rc = LaunchCache::Get().Function(table, entry, name, &f);
      if (rc != 0) return rc;
      slot.store(f, std::memory_order_release);
    }
    const aclError lrc = aclrtLaunchKernelWithHostArgs(f->func, numBlocks, static_cast<aclrtStream>(stream),
                                                       nullptr, blob, size, nullptr, 0);
    // A handle the runtime no longer knows (e.g. after aclFinalize and a new
    // aclInit): load the image again, once.
    if (static_cast<uint32_t>(lrc) == kErrInvalidHandle && attempt == 0) {
      LaunchCache::Get().Forget(f);
      continue;
    }
    return static_cast<uint32_t>(lrc);
  }
}

}  // namespace detail

// The type of parameter I of kernel Fn (used by generated aclrtlaunch_ stubs).
template <auto Fn, std::size_t I>
using ParamType = std::tuple_element_t<I, typename detail::FnTraits<decltype(Fn)>::Params>;

// Value of Chevron's TemplateType for a kernel registered where it is defined.
constexpr int kRegisteredKernel = -1;

// A pending launch of kernel Fn: built from the <<<...>>> values, called
// with the kernel arguments. Hidden: a kernel of the same name in another
// shared object must not take over this one's launches.
// TemplateType is kRegisteredKernel for ordinary kernels (registered after
// their definition); for an instantiation of a kernel template it is the
// kernel's simnpu_kernel_type, and the launch registers the instantiation in
// the image's table (glue.h, TemplateKernelRegistration).
template <auto Fn, int TemplateType = kRegisteredKernel>
class SIMNPU_ASCENDC_HIDDEN Chevron {
  using Traits = detail::FnTraits<decltype(Fn)>;

 public:
  // l2ctrl (the second launch value) has no meaning on the CPU model.
  template <typename NB, typename L2, typename S>
  Chevron(const char* name, NB numBlocks, L2&& /*l2ctrl*/, S&& stream)
      : name_(name), numBlocks_(static_cast<uint32_t>(numBlocks)), stream_(detail::ToStream(std::forward<S>(stream))) {
    static_assert(std::is_integral<NB>::value || std::is_enum<NB>::value,
                  "the first launch value (numBlocks) must be an integer");
  }

  template <typename... U>
  uint32_t operator()(U&&... args) const {
    static_assert(sizeof...(U) == Traits::kCount, "kernel launch: wrong number of arguments for this kernel");
    if constexpr (TemplateType != kRegisteredKernel) {
      (void)&::simnpu::ascendc::detail::TemplateKernelRegistration<Fn, static_cast<uint32_t>(TemplateType)>;
    }
    return Pack(std::make_index_sequence<Traits::kCount>{}, std::forward<U>(args)...);
  }

 private:
  template <std::size_t... I, typename... U>
  uint32_t Pack(std::index_sequence<I...>, U&&... args) const {
    using Params = typename Traits::Params;
    static constexpr auto kOffsets = detail::BlobOffsets<std::tuple_element_t<I, Params>...>();
    constexpr std::size_t kSize = kOffsets[Traits::kCount];
    // Never a null pointer, even for a kernel without parameters.
    alignas(16) unsigned char blob[kSize > 0 ? kSize : 8] = {};
    (detail::StoreArg<std::tuple_element_t<I, Params>>(blob + kOffsets[I], std::forward<U>(args)), ...);
    return detail::Launch(detail::FuncSlot<Fn>, reinterpret_cast<const void*>(Fn), name_, numBlocks_, stream_,
                          blob, kSize);
  }

  const char* name_;
  uint32_t numBlocks_;
  void* stream_;
};

}  // namespace host
}  // namespace ascendc
}  // namespace simnpu

#endif  // SIMNPU_ASCENDC_HOST_LAUNCH_H_
