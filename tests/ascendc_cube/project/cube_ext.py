"""cube_ext.asc golden (numpy). conv: im2col (columns [kh, kw, c]) @ the
weights, accumulated in float32 in ascending k, bit for bit, and within
(K + 1) * eps32 * |x| @ |w| of the float64 convolution. batch: per batch
A @ B + bias in the same order, bit for bit. mode0: every block sums the
values all blocks wrote before the mode-0 meeting (mode0mix: every AIV of a
MIX kernel)."""
import os
import sys

import numpy as np

IMGS, C, H, W, F = 4, 16, 8, 8, 16
KK = 9 * C
BM, BN, BK, BATCH = 32, 48, 64, 3
BLOCKS = 8


def im2col(x):  # x: C x H x W -> (H*W) x (9*C)
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1)))
    cols = np.zeros((H * W, KK), np.float32)
    for oh in range(H):
        for ow in range(W):
            cols[oh * W + ow] = xp[:, oh:oh + 3, ow:ow + 3].transpose(1, 2, 0).reshape(-1)
    return cols


def korder(a, b, bias=None):
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32) if bias is None else np.broadcast_to(bias, (a.shape[0], b.shape[1])).astype(np.float32).copy()
    for k in range(a.shape[1]):
        acc = (acc + np.outer(a[:, k], b[k, :]).astype(np.float32)).astype(np.float32)
    return acc


def gen(work, case):
    rng = np.random.default_rng(1515)
    if case == "conv":
        x = rng.uniform(-2, 2, (IMGS, C, H, W)).astype(np.float16)
        w = rng.uniform(-1, 1, (KK, F)).astype(np.float16)  # rows [kh, kw, c]
        # NC1HWC0 with C1 = 1: H x W x 16 per image
        x.transpose(0, 2, 3, 1).copy().tofile(os.path.join(work, "input_x.bin"))
        # ZN for L0B: fractal (k / 16, n / 16) row-major, inside column-major (n, k % 16)
        zn = w.reshape(KK // 16, 16, F // 16, 16).transpose(0, 2, 3, 1).copy()
        zn.tofile(os.path.join(work, "input_w.bin"))
        np.save(os.path.join(work, "x.npy"), x)
        np.save(os.path.join(work, "w.npy"), w)
    elif case == "batch":
        a = rng.uniform(-1, 1, (BATCH, BM, BK)).astype(np.float16)
        b = rng.uniform(-1, 1, (BATCH, BK, BN)).astype(np.float16)
        bias = rng.uniform(-1, 1, (BATCH, BN)).astype(np.float32)
        a.tofile(os.path.join(work, "input_a.bin"))
        b.tofile(os.path.join(work, "input_b.bin"))
        bias.tofile(os.path.join(work, "input_bias.bin"))
    return 0


def check(work, case):
    out = open(os.path.join(work, "stdout.txt")).read()
    if "sync 0: ok" not in out:
        print("kernel failed:\n" + out)
        return 1
    path = os.path.join(work, "output.bin")
    if case == "conv":
        x = np.load(os.path.join(work, "x.npy")).astype(np.float32)
        w = np.load(os.path.join(work, "w.npy")).astype(np.float32)
        y = np.fromfile(path, np.float32).reshape(IMGS, H * W, F)
        for i in range(IMGS):
            cols = im2col(x[i])
            want = korder(cols, w)
            if not np.array_equal(want.view(np.uint32), y[i].view(np.uint32)):
                print("conv image %d: %d elements differ from the k-ascending order" % (i, np.count_nonzero(want != y[i])))
                return 1
            exact = cols.astype(np.float64) @ w.astype(np.float64)
            bound = (KK + 1) * np.finfo(np.float32).eps * (np.abs(cols.astype(np.float64)) @ np.abs(w.astype(np.float64)))
            if np.count_nonzero(np.abs(y[i] - exact) > bound):
                print("conv image %d outside the accumulation bound" % i)
                return 1
        print("conv: %d outputs ok" % y.size)
    elif case == "batch":
        a = np.fromfile(os.path.join(work, "input_a.bin"), np.float16).reshape(BATCH, BM, BK).astype(np.float32)
        b = np.fromfile(os.path.join(work, "input_b.bin"), np.float16).reshape(BATCH, BK, BN).astype(np.float32)
        bias = np.fromfile(os.path.join(work, "input_bias.bin"), np.float32).reshape(BATCH, BN)
        c = np.fromfile(path, np.float32).reshape(BATCH, BM, BN)
        for i in range(BATCH):
            want = korder(a[i], b[i], bias[i])
            if not np.array_equal(want.view(np.uint32), c[i].view(np.uint32)):
                print("batch %d: %d elements differ" % (i, np.count_nonzero(want != c[i])))
                return 1
        print("batch: %d outputs ok" % c.size)
    else:
        v = np.fromfile(path, np.int32)
        vals = np.array([(i + 1) * (i + 3) for i in range(BLOCKS)], np.int32)
        if not np.array_equal(v[:BLOCKS], vals) or not np.all(v[BLOCKS:] == vals.sum()):
            print("mode0: got %s" % v)
            return 1
        print("%s: %d cores saw sum %d" % (case, BLOCKS, vals.sum()))
    return 0


if __name__ == "__main__":
    sys.exit({"gen": gen, "check": check}[sys.argv[1]](sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else ""))
