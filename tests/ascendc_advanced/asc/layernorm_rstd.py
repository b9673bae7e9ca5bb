"""layernorm_rstd.asc golden: LayerNorm of [32, 100] float rows padded to
104 (the padding of y stays 0), mean and rstd = 1 / sqrt(var + 1e-5) per row,
computed in float64; float32 results within 2e-5 relative."""
import os
import sys

import numpy as np

A, R, RP = 32, 100, 104
EPS = float(np.float32(1e-5))


def gen(work):
    rng = np.random.default_rng(1416)
    x = np.zeros((A, RP), np.float32)
    x[:, :R] = rng.uniform(-4, 4, (A, R)).astype(np.float32)
    x[:, R:] = 99.0  # padding the kernel must ignore
    x.tofile(os.path.join(work, "input_x.bin"))
    rng.uniform(0.5, 1.5, R).astype(np.float32).tofile(os.path.join(work, "input_gamma.bin"))
    rng.uniform(-1, 1, R).astype(np.float32).tofile(os.path.join(work, "input_beta.bin"))
    return 0


def rd(work, name, shape):
    return np.fromfile(os.path.join(work, name), dtype=np.float32).reshape(shape)


def check(work):
    x = rd(work, "input_x.bin", (A, RP)).astype(np.float64)[:, :R]
    g = rd(work, "input_gamma.bin", (R,)).astype(np.float64)
    b = rd(work, "input_beta.bin", (R,)).astype(np.float64)
    m = x.mean(-1)
    v = ((x - m[:, None]) ** 2).mean(-1)
    rs = 1.0 / np.sqrt(v + EPS)
    y = np.zeros((A, RP))
    y[:, :R] = (x - m[:, None]) * rs[:, None] * g + b
    bad = 0
    for name, want, shape in (("output_y.bin", y, (A, RP)), ("output_mean.bin", m, (A,)),
                              ("output_rstd.bin", rs, (A,))):
        got = rd(work, name, shape).astype(np.float64)
        err = np.max(np.abs(got - want) / np.maximum(1.0, np.abs(want)))
        print("%s: max relative error %g" % (name, err))
        bad |= not err <= 2e-5
    return int(bad)


if __name__ == "__main__":
    sys.exit(gen(sys.argv[2]) if sys.argv[1] == "gen" else check(sys.argv[2]))
