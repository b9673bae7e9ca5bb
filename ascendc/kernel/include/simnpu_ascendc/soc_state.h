// simnpu Ascend C model: AscendC::InitSocState, the reset of the AI core's
// global state (the mask mode and vector mask, the atomic mode of copies to
// GM, control registers...) that an earlier kernel may have left behind.
//
// The state itself belongs to the families that use it; each resets its
// part through a hook registered here:
//
//   namespace simnpu::ascendc::detail {
//   inline void ResetMyState() { ... }          // runs on the block's thread
//   SIMNPU_ASCENDC_SOC_STATE_RESET(ResetMyState);
//   }
//
// InitSocState() runs every hook (in registration order); TPipe's
// constructor does so too, as on the NPU, where TPipe initialises this state
// for kernels written with it. Outside a block (host code) the hooks run as
// well and must cope with having no block context (Ctx() == nullptr).
//
// Registration happens while the image's static constructors run (one list
// per image, a trivial type, so the order of those constructors does not
// matter); afterwards the list is only read. At most kMaxSocStateResets hooks.
#ifndef SIMNPU_ASCENDC_SOC_STATE_H_
#define SIMNPU_ASCENDC_SOC_STATE_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

using SocStateResetFn = void (*)();
constexpr int kMaxSocStateResets = 32;

struct SocStateResets {
  SocStateResetFn fns[kMaxSocStateResets];
  int count;
};

SIMNPU_ASCENDC_HIDDEN inline SocStateResets& SocStateResetList() {
  static SocStateResets list;  // zero-initialised before any constructor runs
  return list;
}

// Adds fn once; returns true (the value initialises the registration variable).
SIMNPU_ASCENDC_HIDDEN inline bool RegisterSocStateReset(SocStateResetFn fn) {
  SocStateResets& l = SocStateResetList();
  for (int i = 0; i < l.count; ++i) {
    if (l.fns[i] == fn) return true;
  }
  if (l.count >= kMaxSocStateResets) {
    std::fprintf(stderr, "[simnpu] too many SoC-state reset hooks (max %d)\n", kMaxSocStateResets);
    std::abort();
  }
  l.fns[l.count++] = fn;
  return true;
}

SIMNPU_ASCENDC_HIDDEN inline void ResetSocState() {
  const SocStateResets& l = SocStateResetList();
  for (int i = 0; i < l.count; ++i) l.fns[i]();
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

// At namespace scope of simnpu::ascendc::detail, after the hook's definition.
#define SIMNPU_ASCENDC_SOC_STATE_RESET(fn)                                                              \
  SIMNPU_ASCENDC_HIDDEN inline const bool SIMNPU_ASCENDC_SOC_STATE_CAT(simnpu_soc_state_reset_, fn) = \
      ::simnpu::ascendc::detail::RegisterSocStateReset(&fn)
#define SIMNPU_ASCENDC_SOC_STATE_CAT_(a, b) a##b
#define SIMNPU_ASCENDC_SOC_STATE_CAT(a, b) SIMNPU_ASCENDC_SOC_STATE_CAT_(a, b)

namespace AscendC {

// Initialises the AI core's global state; call it at the kernel entry of
// kernels written without TPipe (static tensor programming). Also callable
// from host code, where there is no core state: it then only runs the hooks.
inline void InitSocState() { ::simnpu::ascendc::detail::ResetSocState(); }

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_SOC_STATE_H_
