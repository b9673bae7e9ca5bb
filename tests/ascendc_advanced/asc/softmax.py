"""softmax.asc golden: row softmax of [64, 128] float32 (plain SoftMax), and
the same rows computed by two SoftmaxFlashV2 steps over the two column
halves (with the final row sum and max)."""
import os
import sys

import numpy as np

ROWS, COLS = 64, 128


def gen(work):
    np.random.default_rng(11).uniform(-6, 6, ROWS * COLS).astype(np.float32).tofile(os.path.join(work, "input_x.bin"))
    return 0


def check(work):
    x = np.fromfile(os.path.join(work, "input_x.bin"), dtype=np.float32).reshape(ROWS, COLS).astype(np.float64)
    mx = x.max(axis=1)
    ex = np.exp(x - mx[:, None])
    sm = ex.sum(axis=1)
    golden = ex / sm[:, None]
    bad = 0
    y = np.fromfile(os.path.join(work, "output_y.bin"), dtype=np.float32).reshape(ROWS, COLS)
    y2 = np.fromfile(os.path.join(work, "output_flash.bin"), dtype=np.float32).reshape(ROWS, COLS)
    s = np.fromfile(os.path.join(work, "output_sum.bin"), dtype=np.float32).reshape(ROWS, 8)
    m = np.fromfile(os.path.join(work, "output_max.bin"), dtype=np.float32).reshape(ROWS, 8)
    for name, got, want, tol in (("softmax", y, golden, 2e-6), ("flash", y2, golden, 5e-6),
                                 ("sum", s, np.repeat(sm[:, None], 8, 1), 2e-6 * COLS),
                                 ("max", m, np.repeat(mx[:, None], 8, 1), 0)):
        err = np.abs(got.astype(np.float64) - want) / np.maximum(1.0, np.abs(want))
        if err.max() > tol:
            print("%s: max relative error %g > %g" % (name, err.max(), tol))
            bad = 1
        else:
            print("%s: max relative error %g" % (name, err.max()))
    return bad


if __name__ == "__main__":
    sys.exit(gen(sys.argv[2]) if sys.argv[1] == "gen" else check(sys.argv[2]))
