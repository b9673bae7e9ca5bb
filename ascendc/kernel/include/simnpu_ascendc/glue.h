// simnpu Ascend C model: runtime glue used by the generated code. RunBlock<Fn>
// (typed trampoline behind simnpu_kernel_desc.run_block), KernelParams<Fn>
// (parameter descriptors), the per-image kernel registry and the macros
// SIMNPU_ASCENDC_REGISTER_KERNEL / SIMNPU_ASCENDC_DEFINE_KERNEL_TABLE.
#ifndef SIMNPU_ASCENDC_GLUE_H_
#define SIMNPU_ASCENDC_GLUE_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

// ---- parameter kinds.
template <typename T>
constexpr uint32_t ParamKindOf() {
  if constexpr (std::is_pointer<T>::value || std::is_same<T, std::nullptr_t>::value) {
    return SIMNPU_PARAM_POINTER;
  } else if constexpr (std::is_integral<T>::value || std::is_enum<T>::value) {
    return SIMNPU_PARAM_INT;
  } else if constexpr (std::is_floating_point<T>::value || fp::IsHalfLike<T>::value) {
    return SIMNPU_PARAM_FLOAT;
  } else {
    return SIMNPU_PARAM_STRUCT;
  }
}

template <typename T>
constexpr simnpu_param_desc ParamDescOf() {
  static_assert(!std::is_reference<T>::value, "kernel parameters must be passed by value");
  static_assert(std::is_trivially_copyable<T>::value, "kernel parameters must be trivially copyable");
  return simnpu_param_desc{static_cast<uint32_t>(sizeof(T)), static_cast<uint32_t>(alignof(T)), ParamKindOf<T>()};
}

template <typename F>
struct KernelFnTraits;

template <typename R, typename... A>
struct KernelFnTraits<R (*)(A...)> {
  static constexpr uint32_t kCount = static_cast<uint32_t>(sizeof...(A));
  SIMNPU_ASCENDC_HIDDEN static constexpr simnpu_param_desc kDescs[sizeof...(A) + 1] = {ParamDescOf<A>()..., simnpu_param_desc{0, 0, 0}};

  template <auto Fn, size_t... I>
  static void Call(void* const* argv, std::index_sequence<I...>) {
    (void)argv;
    Fn(*static_cast<typename std::remove_cv<A>::type*>(argv[I])...);
  }
  template <auto Fn>
  static void Invoke(void* const* argv) {
    Call<Fn>(argv, std::index_sequence_for<A...>{});
  }
};
template <typename R, typename... A>
struct KernelFnTraits<R (*)(A...) noexcept> : KernelFnTraits<R (*)(A...)> {};

// ---- block begin/end (shared by every RunBlock instantiation).
struct BlockScope {
  BlockContext* prev_ctx;
  int64_t prev_idx;
  int64_t prev_num;
};

inline BlockScope BeginBlock(BlockContext& c, const simnpu_block_env* env) {
  BlockScope s{tls_ctx, ::block_idx, ::block_num};
  c.env = env;
  c.ub_base = static_cast<uint8_t*>(env->ub_base);
  c.ub_size = env->ub_size;
  c.managed_lo = env->managed_base;
  c.managed_hi = env->managed_size != 0 ? env->managed_base + env->managed_size : env->managed_base;
  c.flags = env->flags;
  c.core_type = env->core_type;
  c.block_idx = env->block_idx;
  c.mix_group = tls_next_group;
  c.sub_block_idx = tls_next_sub > 1 ? tls_next_sub - 1 : 0;
  MemcheckBegin(c.memcheck, env);
  tls_ctx = &c;
  ::block_idx = env->block_idx;
  ::block_num = env->block_num;
  return s;
}

inline void WriteErrorMsg(const simnpu_block_env* env, const char* msg, size_t len) noexcept {
  if (env->error_msg == nullptr || env->error_msg_cap == 0) return;
  const size_t n = len < env->error_msg_cap - 1 ? len : env->error_msg_cap - 1;
  std::memcpy(env->error_msg, msg, n);
  env->error_msg[n] = '\0';
}
inline void WriteErrorMsg(const simnpu_block_env* env, const char* msg) noexcept {
  WriteErrorMsg(env, msg, std::strlen(msg));
}

inline int EndBlock(BlockContext& c, const BlockScope& s, int rc) noexcept {
  const simnpu_block_env* env = c.env;
  try {
    if (rc == SIMNPU_BLOCK_OK && c.events_pending != 0) {
      for (int e = 0; e < kNumHardEvents; ++e) {
        for (int id = 0; id < kNumEventIds; ++id) {
          if (c.events[e][id] != 0) {
            Diagnostic(2, SrcLoc{"kernel", "block end", 0},
                       "SetFlag<%s>(%d) was set %u time(s) without a matching WaitFlag when the block ended",
                       HardEventName(static_cast<AscendC::HardEvent>(e)), id, static_cast<unsigned>(c.events[e][id]));
          }
        }
      }
    }
    if (rc == SIMNPU_BLOCK_OK && c.mutex_locked != 0) {
      for (int id = 0; id < 28; ++id) {
        if ((c.mutex_locked >> id) & 1u) {
          Diagnostic(2, SrcLoc{"kernel", "block end", 0},
                     "Mutex::Lock<%s>(%d) was not matched by an Unlock when the block ended",
                     PipeName(static_cast<pipe_t>(c.mutex_pipe[id])), id);
        }
      }
    }
    if (c.print_truncated) {
      char note[160];
      std::snprintf(note, sizeof note,
                    "\n[simnpu] printf output of block %lld exceeded %zu bytes; the rest was dropped\n",
                    static_cast<long long>(c.block_idx), kPrintfCap);
      c.print_buf += note;
    }
    if (!c.print_buf.empty() && env->services != nullptr && env->services->print != nullptr) {
      if (c.mix_group != nullptr) {  // the sub-cores of a MIX block share the block's output
        std::lock_guard<std::mutex> lk(static_cast<MixGroup*>(c.mix_group)->print_mu);
        env->services->print(env->services_ctx, c.print_buf.data(), c.print_buf.size());
      } else {
        env->services->print(env->services_ctx, c.print_buf.data(), c.print_buf.size());
      }
    }
    if (rc != SIMNPU_BLOCK_OK) WriteErrorMsg(env, c.fail_msg.data(), c.fail_msg.size());
  } catch (...) {
    if (rc == SIMNPU_BLOCK_OK) rc = SIMNPU_BLOCK_CHECK_FAILED;
  }
  tls_ctx = s.prev_ctx;
  ::block_idx = s.prev_idx;
  ::block_num = s.prev_num;
  return rc;
}

SIMNPU_ASCENDC_COLD inline int UnexpectedException(BlockContext& c, const char* what) noexcept {
  try {
    c.fail_msg = Prefix("ERROR", SrcLoc{"kernel", "kernel", 0}) + "unexpected C++ exception escaped the kernel: " +
                 (what != nullptr ? what : "(unknown type)");
  } catch (...) {
  }
  return SIMNPU_BLOCK_CHECK_FAILED;
}

// ---- per-image registry. A function-local static of trivial type: zero
// before any constructor runs, so registration order does not matter.
// Written only by the registrars below, which run among the image's static
// constructors (before another thread can reach the image), and once by
// ImageTable's one-time initialisation; read-only afterwards, so launches
// from several host threads read it without a lock.
constexpr uint32_t kMaxKernels = 4096;

struct Registry {
  simnpu_kernel_desc descs[kMaxKernels];
  simnpu_kernel_table table;
};

SIMNPU_ASCENDC_HIDDEN inline Registry& ImageRegistry() {
  static Registry r;
  return r;
}

SIMNPU_ASCENDC_HIDDEN inline void FillTableHeader(Registry& r) {
  r.table.magic = SIMNPU_KERNEL_TABLE_MAGIC;
  r.table.abi_version = SIMNPU_KERNEL_ABI_VERSION;
  r.table.npu_arch = __NPU_ARCH__;
  r.table.reserved = 0;
  r.table.builder = "simnpu-ascendc 1";
  r.table.kernels = r.descs;
  if (r.table.soc_version == nullptr) r.table.soc_version = "";
}

struct RegOptions {
  uint32_t kernel_type;
  uint64_t flags;
  constexpr RegOptions(uint32_t type, uint64_t f = 0) : kernel_type(type), flags(f) {}  // NOLINT
};

struct KernelRegistrar {
  KernelRegistrar(const char* name, RegOptions opt, uint32_t param_count, const simnpu_param_desc* params,
                  simnpu_run_block_fn run, const void* entry) {
    Registry& r = ImageRegistry();
    if (r.table.kernel_count >= kMaxKernels) {
      std::fprintf(stderr, "[simnpu] too many kernels in one image (max %u); cannot register %s\n", kMaxKernels, name);
      std::abort();
    }
    simnpu_kernel_desc& d = r.descs[r.table.kernel_count];
    d.name = name;
    d.kernel_type = opt.kernel_type;
    d.param_count = param_count;
    d.params = params;
    d.run_block = run;
    d.entry = entry;
    d.flags = opt.flags;
    ++r.table.kernel_count;
    FillTableHeader(r);
  }
};

// Records the SOC named by SIMNPU_ASCENDC_DEFINE_KERNEL_TABLE while the image loads.
struct SocRegistrar {
  explicit SocRegistrar(const char* soc_version) {
    Registry& r = ImageRegistry();
    if (soc_version != nullptr) r.table.soc_version = soc_version;
    FillTableHeader(r);
  }
};

// The table of this image. Its header is filled once (a function-local
// static: thread-safe initialisation), never on later calls, so concurrent
// launches do not write shared memory. soc_version is the one of
// SIMNPU_ASCENDC_DEFINE_KERNEL_TABLE if the image has it, else the
// `soc_version` of the first call (non-null), else "".
SIMNPU_ASCENDC_HIDDEN inline const simnpu_kernel_table* ImageTable(const char* soc_version, const volatile char* section) {
  (void)section[0];  // keeps the section referenced
  static const simnpu_kernel_table* const table = [soc_version] {
    Registry& r = ImageRegistry();
    if (soc_version != nullptr && (r.table.soc_version == nullptr || r.table.soc_version[0] == '\0')) {
      r.table.soc_version = soc_version;
    }
    FillTableHeader(r);
    return &r.table;
  }();
  return table;
}

// ---- template kernels. A kernel template has no single address to register
// where it is defined, so each instantiation that is launched registers
// itself: the launch glue odr-uses TemplateKernelRegistration<&k<A...>, type>,
// a variable template whose initialisation (among the image's static
// constructors, once per image whatever the number of launch sites) adds the
// instantiation to the image's table under its canonical name, e.g.
// "add_custom<MainTileOnlyTiling>" (the compiler's spelling of the template
// arguments, so two launch sites that spell them differently agree).

// "k<A, B>" from the signature of KernelNameOf<&k<A, B>>; stored once per
// instantiation, never freed (the table points at it for the image's lifetime).
template <auto Fn>
SIMNPU_ASCENDC_HIDDEN inline const char* KernelNameOf() {
  static const std::string name = [](std::string s) {
    const std::string key = "Fn = ";
    size_t b = s.find(key);
    if (b == std::string::npos) return std::string("template_kernel");
    b += key.size();
    size_t e = s.find_first_of(";]", b);
    std::string n = s.substr(b, e == std::string::npos ? std::string::npos : e - b);
    if (!n.empty() && n[0] == '&') n.erase(0, 1);
    return n;
  }(__PRETTY_FUNCTION__);
  return name.c_str();
}

template <auto Fn, uint32_t KernelType>
struct TemplateKernelRegistrar {
  TemplateKernelRegistrar();  // defined after RunBlock
};

template <auto Fn, uint32_t KernelType>
SIMNPU_ASCENDC_HIDDEN inline const TemplateKernelRegistrar<Fn, KernelType> TemplateKernelRegistration{};

}  // namespace detail

// Runs one block of kernel Fn: installs env as this thread's block context,
// calls Fn with the parameters argv[i] points at, and returns a
// SIMNPU_BLOCK_* code. No exception escapes.
template <auto Fn>
int RunBlock(const simnpu_block_env* env, void* const* argv) noexcept {
  using Traits = detail::KernelFnTraits<decltype(Fn)>;
  if (env == nullptr) return SIMNPU_BLOCK_CHECK_FAILED;
  if (env->abi_version != SIMNPU_KERNEL_ABI_VERSION) {
    detail::WriteErrorMsg(env, "[ERROR] kernel ABI version mismatch between the runtime and the kernel image");
    return SIMNPU_BLOCK_CHECK_FAILED;
  }
#if SIMNPU_ASCENDC_SPLIT_CORES
  // a MIX block runs as its AIC and AIV sub-cores (mix.h), each through here again
  if (env->core_type == SIMNPU_KERNEL_MIX) return detail::RunMixBlock(env, argv, &RunBlock<Fn>);
#endif
  detail::BlockContext ctx;
  detail::BlockScope scope{};
  try {
    scope = detail::BeginBlock(ctx, env);
  } catch (...) {
    return SIMNPU_BLOCK_CHECK_FAILED;
  }
  int rc = SIMNPU_BLOCK_OK;
  try {
    Traits::template Invoke<Fn>(argv);
  } catch (const detail::KernelFailure& f) {
    rc = f.code;
  } catch (const std::exception& e) {
    rc = detail::UnexpectedException(ctx, e.what());
  } catch (...) {
    rc = detail::UnexpectedException(ctx, nullptr);
  }
  return detail::EndBlock(ctx, scope, rc);
}

template <auto Fn, uint32_t KernelType>
detail::TemplateKernelRegistrar<Fn, KernelType>::TemplateKernelRegistrar() {
  using Traits = KernelFnTraits<decltype(Fn)>;
  KernelRegistrar(KernelNameOf<Fn>(), RegOptions(KernelType), Traits::kCount, Traits::kDescs, &RunBlock<Fn>,
                  reinterpret_cast<const void*>(Fn));
}

// Parameter descriptors of kernel Fn.
template <auto Fn>
struct KernelParams {
  static constexpr uint32_t count = detail::KernelFnTraits<decltype(Fn)>::kCount;
  static const simnpu_param_desc* descs() { return detail::KernelFnTraits<decltype(Fn)>::kDescs; }
};

// The kernel table of the image this code is linked into (in-process images).
// Hidden: each shared object answers with its own table, never another's.
SIMNPU_ASCENDC_HIDDEN inline const simnpu_kernel_table* ProcessKernelTable() {
#ifdef SIMNPU_ASCENDC_SOC_VERSION
  return detail::ImageTable(SIMNPU_ASCENDC_SOC_VERSION, "");
#else
  return detail::ImageTable(nullptr, "");
#endif
}

}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {
using ::simnpu::ascendc::Trap;
}  // namespace AscendC

#define SIMNPU_ASCENDC_CAT_(a, b) a##b
#define SIMNPU_ASCENDC_CAT(a, b) SIMNPU_ASCENDC_CAT_(a, b)

#if defined(__has_attribute)
#if __has_attribute(retain)
#define SIMNPU_ASCENDC_RETAIN , retain
#endif
#endif
#ifndef SIMNPU_ASCENDC_RETAIN
#define SIMNPU_ASCENDC_RETAIN
#endif

// Registers kernel fn (defined above, at namespace scope) in this image's
// table. kernel_type is SIMNPU_KERNEL_AIV/AIC/MIX; an optional third argument
// gives simnpu_kernel_desc.flags (e.g. SIMNPU_KERNEL_FLAG_PRINTF).
#define SIMNPU_ASCENDC_REGISTER_KERNEL(fn, ...)                                                        \
  static const ::simnpu::ascendc::detail::KernelRegistrar SIMNPU_ASCENDC_CAT(simnpu_ascendc_registrar_, \
                                                                             __COUNTER__)(            \
      #fn, ::simnpu::ascendc::detail::RegOptions(__VA_ARGS__), ::simnpu::ascendc::KernelParams<fn>::count,     \
      ::simnpu::ascendc::KernelParams<fn>::descs(), &::simnpu::ascendc::RunBlock<fn>,                    \
      reinterpret_cast<const void*>(&fn))

// Once per fatbin image: the exported table function and the marker section.
#define SIMNPU_ASCENDC_DEFINE_KERNEL_TABLE(soc_version_cstr)                                                   \
  __attribute__((section(SIMNPU_KERNEL_SECTION), used SIMNPU_ASCENDC_RETAIN, aligned(16))) static const char  \
      simnpu_ascendc_kernel_section_magic[16] = SIMNPU_KERNEL_SECTION_MAGIC;                                  \
  static const ::simnpu::ascendc::detail::SocRegistrar simnpu_ascendc_soc_registrar(soc_version_cstr);        \
  extern "C" __attribute__((visibility("default"))) const simnpu_kernel_table* simnpu_kernel_table_v1(void) { \
    return ::simnpu::ascendc::detail::ImageTable(soc_version_cstr, simnpu_ascendc_kernel_section_magic);      \
  }                                                                                                           \
  static_assert(sizeof(SIMNPU_KERNEL_SECTION_MAGIC) == 16, "section magic is 16 bytes")

#endif  // SIMNPU_ASCENDC_GLUE_H_
