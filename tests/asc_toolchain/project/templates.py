"""templates.asc golden data: z = x * alpha + y, each operation rounded to the
element type (numpy float16/float32 arithmetic, int32 wraps)."""
import os
import sys

import numpy as np

N = 8 * 2048
CASES = {"f32": (np.float32, 1.5), "f16": (np.float16, 0.75), "i32": (np.int32, 7)}


def gen(work):
    rng = np.random.default_rng(1234)
    for tag, (t, _) in CASES.items():
        if t == np.int32:
            x = rng.integers(-2**30, 2**30, N, dtype=np.int32)
            y = rng.integers(-2**30, 2**30, N, dtype=np.int32)
        else:
            x = rng.uniform(-100, 100, N).astype(t)
            y = rng.uniform(-100, 100, N).astype(t)
        x.tofile(os.path.join(work, "input_x_%s.bin" % tag))
        y.tofile(os.path.join(work, "input_y_%s.bin" % tag))
    return 0


def check(work):
    bad = 0
    for tag, (t, a) in CASES.items():
        x = np.fromfile(os.path.join(work, "input_x_%s.bin" % tag), dtype=t)
        y = np.fromfile(os.path.join(work, "input_y_%s.bin" % tag), dtype=t)
        z = np.fromfile(os.path.join(work, "output_z_%s.bin" % tag), dtype=t)
        with np.errstate(over="ignore"):
            golden = (x * t(a)).astype(t) + y
        if z.shape != golden.shape or not np.array_equal(z.view(np.uint8), golden.astype(t).view(np.uint8)):
            diff = np.nonzero(z != golden)[0] if z.shape == golden.shape else []
            print("%s: mismatch at %d elements, first %s" % (tag, len(diff), diff[:5]))
            bad = 1
        else:
            print("%s: %d elements bit-exact" % (tag, N))
    return bad


if __name__ == "__main__":
    mode, work = sys.argv[1], sys.argv[2]
    sys.exit(gen(work) if mode == "gen" else check(work))
