"""pad.asc golden (bit-exact): Pad of [16, 15] half slices to [16, 16] with
321, UnPad back to [16, 15], Pad of the last 3 columns of [8, 16] float
slices with -2, and Fill of 256 floats per block: 2 repeats of 4 32-byte
blocks, 4 blocks apart, value 1.5 + block; the rest of the A1 buffer is what
the pipe left there, so only the filled ranges are compared."""
import os
import sys

import numpy as np

B, H, W, WA, AH, AW, FILL = 2, 16, 15, 16, 8, 16, 256


def gen(work):
    rng = np.random.default_rng(1414)
    rng.uniform(-100, 100, B * H * W).astype(np.float16).tofile(os.path.join(work, "input_x.bin"))
    rng.uniform(-9, 9, B * AH * AW).astype(np.float32).tofile(os.path.join(work, "input_a.bin"))
    return 0


def rd(work, name, dt):
    return np.fromfile(os.path.join(work, name), dtype=dt)


def check(work):
    x = rd(work, "input_x.bin", np.float16).reshape(B, H, W)
    a = rd(work, "input_a.bin", np.float32).reshape(B, AH, AW)
    padded = np.full((B, H, WA), np.float16(321), np.float16)
    padded[:, :, :W] = x
    ap = a.copy()
    ap[:, :, AW - 3:] = np.float32(-2)
    bad = 0
    for name, want, dt in (("output_padded.bin", padded, np.float16), ("output_unpadded.bin", x, np.float16),
                           ("output_apadded.bin", ap, np.float32)):
        got = rd(work, name, dt)
        diff = np.count_nonzero(got.view(np.uint8) != want.reshape(-1).view(np.uint8)) if got.size == want.size else -1
        print("%s: %d bytes differ" % (name, diff))
        bad |= diff != 0
    f = rd(work, "output_filled.bin", np.float32).reshape(B, FILL)
    diff = 0
    for b in range(B):
        for r in range(2):
            seg = f[b, r * 64:r * 64 + 32]  # 4 blocks of 8 floats, 8 blocks apart in floats: 64
            diff += np.count_nonzero(seg != np.float32(1.5 + b))
    print("output_filled.bin: %d elements differ" % diff)
    bad |= diff != 0
    return int(bad)


if __name__ == "__main__":
    sys.exit(gen(sys.argv[2]) if sys.argv[1] == "gen" else check(sys.argv[2]))
