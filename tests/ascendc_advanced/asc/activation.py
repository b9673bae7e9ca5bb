"""activation.asc golden: Gelu, Sigmoid, SwiGLU(beta 1), GeGLU, Erf,
ClampMax(1), Silu of 8192 float32 and float16 elements (formulas of the
Ascend C pages, in float64)."""
import math
import os
import sys

import numpy as np

N = 8 * 1024


def gen(work):
    rng = np.random.default_rng(13)
    rng.uniform(-5, 5, N).astype(np.float32).tofile(os.path.join(work, "input_x.bin"))
    rng.uniform(-5, 5, N).astype(np.float32).tofile(os.path.join(work, "input_x2.bin"))
    rng.uniform(-4, 4, N).astype(np.float16).tofile(os.path.join(work, "input_h.bin"))
    rng.uniform(-4, 4, N).astype(np.float16).tofile(os.path.join(work, "input_h2.bin"))
    return 0


def gelu(x):
    return x / (1.0 + np.exp(-1.59576912 * (x + 0.044715 * x ** 3)))


def goldens(a, b):
    erf = np.vectorize(math.erf)
    return [gelu(a), 1 / (1 + np.exp(-a)), a * (b / (1 + np.exp(-b))), a * gelu(b), erf(a), np.minimum(a, 1.0),
            a / (1 + np.exp(-a))]


def check(work):
    bad = 0
    for dt, suffix, fa, fb, tol in ((np.float32, "f32", "input_x.bin", "input_x2.bin", 2e-6),
                                    (np.float16, "f16", "input_h.bin", "input_h2.bin", 1e-3)):
        a = np.fromfile(os.path.join(work, fa), dtype=dt).astype(np.float64)
        b = np.fromfile(os.path.join(work, fb), dtype=dt).astype(np.float64)
        y = np.fromfile(os.path.join(work, "output_%s.bin" % suffix), dtype=dt).reshape(7, N).astype(np.float64)
        for k, (name, want) in enumerate(zip(["gelu", "sigmoid", "swiglu", "geglu", "erf", "clampmax", "silu"],
                                             goldens(a, b))):
            err = (np.abs(y[k] - want) / np.maximum(1.0, np.abs(want))).max()
            print("%s %s: max relative error %g" % (suffix, name, err))
            bad |= err > tol
    return int(bad)


if __name__ == "__main__":
    sys.exit(gen(sys.argv[2]) if sys.argv[1] == "gen" else check(sys.argv[2]))
