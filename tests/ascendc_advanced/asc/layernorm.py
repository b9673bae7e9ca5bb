"""layernorm.asc golden: LayerNorm (output, mean, population variance) and
RmsNorm of [4, 8, 256] float32, gamma/beta [256], eps 1e-5."""
import os
import sys

import numpy as np

B, S, H = 4, 8, 256
EPS = float(np.float32(1e-5))


def gen(work):
    rng = np.random.default_rng(12)
    rng.uniform(-4, 4, B * S * H).astype(np.float32).tofile(os.path.join(work, "input_x.bin"))
    rng.uniform(0.5, 1.5, H).astype(np.float32).tofile(os.path.join(work, "input_gamma.bin"))
    rng.uniform(-1, 1, H).astype(np.float32).tofile(os.path.join(work, "input_beta.bin"))
    return 0


def load(work, name, shape):
    return np.fromfile(os.path.join(work, name), dtype=np.float32).reshape(shape).astype(np.float64)


def check(work):
    x = load(work, "input_x.bin", (B, S, H))
    g = load(work, "input_gamma.bin", (H,))
    b = load(work, "input_beta.bin", (H,))
    m = x.mean(-1)
    v = ((x - m[..., None]) ** 2).mean(-1)
    y = (x - m[..., None]) / np.sqrt(v[..., None] + EPS) * g + b
    r = x / np.sqrt((x * x).mean(-1)[..., None] + EPS) * g
    bad = 0
    for name, file, want, tol in (("y", "output_y.bin", y, 2e-5), ("mean", "output_mean.bin", m, 2e-6),
                                  ("var", "output_var.bin", v, 2e-5), ("rms", "output_rms.bin", r, 2e-5)):
        got = load(work, file, want.shape)
        err = (np.abs(got - want) / np.maximum(1.0, np.abs(want))).max()
        print("%s: max relative error %g" % (name, err))
        bad |= err > tol
    return int(bad)


if __name__ == "__main__":
    sys.exit(gen(sys.argv[2]) if sys.argv[1] == "gen" else check(sys.argv[2]))
