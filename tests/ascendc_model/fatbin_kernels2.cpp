// Second translation unit of the test fatbin image.
#include "kernel_operator.h"

struct FbTiling {
  uint32_t a;
  uint16_t b;
};

extern "C" __global__ __aicore__ void fb_struct(GM_ADDR out, FbTiling t) {
  *(__gm__ uint32_t*)out = t.a + t.b;
}

SIMNPU_ASCENDC_REGISTER_KERNEL(fb_struct, SIMNPU_KERNEL_AIC);
