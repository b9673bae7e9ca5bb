"""quant.asc golden (bit-exact): AscendQuant rint(x * 2.5 + 0.5) saturated to
int8 (float32 arithmetic); AscendDequant int32 * scale[column] in float32;
AscendAntiQuant (int8 + offset[column]) * scale[column] in float32, to half."""
import os
import sys

import numpy as np

BLOCKS, PER, M, N = 4, 2048, 32, 64


def gen(work):
    rng = np.random.default_rng(14)
    rng.uniform(-60, 60, BLOCKS * PER).astype(np.float32).tofile(os.path.join(work, "input_x.bin"))
    rng.integers(-50000, 50000, BLOCKS * M * N).astype(np.int32).tofile(os.path.join(work, "input_acc.bin"))
    rng.uniform(0.001, 0.01, N).astype(np.float32).tofile(os.path.join(work, "input_scale.bin"))
    rng.integers(-128, 128, BLOCKS * M * N).astype(np.int8).tofile(os.path.join(work, "input_w8.bin"))
    rng.uniform(-2, 2, N).astype(np.float16).tofile(os.path.join(work, "input_woff.bin"))
    rng.uniform(0.01, 0.1, N).astype(np.float16).tofile(os.path.join(work, "input_wscale.bin"))
    return 0


def rd(work, name, dt):
    return np.fromfile(os.path.join(work, name), dtype=dt)


def check(work):
    x = rd(work, "input_x.bin", np.float32)
    q = np.clip(np.rint((x * np.float32(2.5) + np.float32(0.5)).astype(np.float32)), -128, 127).astype(np.int8)
    acc = rd(work, "input_acc.bin", np.int32).reshape(BLOCKS * M, N)
    sc = rd(work, "input_scale.bin", np.float32)
    deq = (acc.astype(np.float32) * sc).astype(np.float32)
    w8 = rd(work, "input_w8.bin", np.int8).reshape(BLOCKS * M, N)
    off = rd(work, "input_woff.bin", np.float16).astype(np.float32)
    wsc = rd(work, "input_wscale.bin", np.float16).astype(np.float32)
    w16 = ((w8.astype(np.float32) + off) * wsc).astype(np.float16)
    bad = 0
    for name, file, want, dt in (("quant", "output_q.bin", q, np.int8), ("dequant", "output_deq.bin", deq, np.float32),
                                 ("antiquant", "output_w16.bin", w16, np.float16)):
        got = rd(work, file, dt).reshape(want.shape)
        diff = np.count_nonzero(got.view(np.uint8) != want.view(np.uint8))
        print("%s: %d of %d bytes differ" % (name, diff, want.nbytes))
        bad |= diff != 0
    return int(bad)


if __name__ == "__main__":
    sys.exit(gen(sys.argv[2]) if sys.argv[1] == "gen" else check(sys.argv[2]))
