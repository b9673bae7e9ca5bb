"""tiling.asc golden: y = x * scale[i % 4] + 1.5 in float32."""
import os
import sys

import numpy as np

N = 8 * 1024


def gen(work):
    np.random.default_rng(7).uniform(-10, 10, N).astype(np.float32).tofile(os.path.join(work, "input_x.bin"))
    return 0


def check(work):
    x = np.fromfile(os.path.join(work, "input_x.bin"), dtype=np.float32)
    y = np.fromfile(os.path.join(work, "output_y.bin"), dtype=np.float32)
    scale = np.array([0.5, -2.0, 3.0, 0.25], dtype=np.float32)
    golden = (x * np.tile(scale, N // 4)).astype(np.float32) + np.float32(1.5)
    if not np.array_equal(y.view(np.uint32), golden.view(np.uint32)):
        print("mismatch at %d elements" % np.count_nonzero(y != golden))
        return 1
    print("%d elements bit-exact" % N)
    return 0


if __name__ == "__main__":
    sys.exit(gen(sys.argv[2]) if sys.argv[1] == "gen" else check(sys.argv[2]))
