"""topk.asc golden (bit-exact): per row of [8, 64] float slices (4 blocks),
the 10 largest of the first 60 columns (ties in column order) and their
column indices, in rows of 16 (the rest 0); the slice scattered into
reversed column order; the slice's 32-byte blocks gathered in reverse order."""
import os
import sys

import numpy as np

B, R, C, N, K, KP = 4, 8, 64, 60, 10, 16


def gen(work):
    rng = np.random.default_rng(1415)
    x = (rng.integers(-30, 30, B * R * C).astype(np.float32) * np.float32(0.5))  # ties
    x.tofile(os.path.join(work, "input_x.bin"))
    return 0


def rd(work, name, dt):
    return np.fromfile(os.path.join(work, name), dtype=dt)


def check(work):
    x = rd(work, "input_x.bin", np.float32).reshape(B, R, C)
    vals = np.zeros((B, R, KP), np.float32)
    idxs = np.zeros((B, R, KP), np.int32)
    for b in range(B):
        for r in range(R):
            order = sorted(range(N), key=lambda j: (-float(x[b, r, j]), j))[:K]
            vals[b, r, :K] = x[b, r, order]
            idxs[b, r, :K] = order
    scat = x[:, :, ::-1]
    blocks = x.reshape(B, R * C // 8, 8)[:, ::-1, :]
    want = {"output_vals.bin": vals, "output_idxs.bin": idxs, "output_scatter.bin": scat,
            "output_gatherb.bin": blocks}
    bad = 0
    for name, w in want.items():
        got = rd(work, name, np.uint8)
        wb = np.ascontiguousarray(w).reshape(-1).view(np.uint8)
        diff = np.count_nonzero(got != wb) if got.size == wb.size else -1
        print("%s: %d bytes differ" % (name, diff))
        bad |= diff != 0
    return int(bad)


if __name__ == "__main__":
    sys.exit(gen(sys.argv[2]) if sys.argv[1] == "gen" else check(sys.argv[2]))
