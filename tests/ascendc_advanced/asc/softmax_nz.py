"""softmax_nz.asc golden: four [32, 96] float tiles in the NZ layout
([6, 32, 16], column blocks outermost), 90 real columns and 6 of padding
(50.0, which would win every max if it were not left out). Checks the NZ
SoftMax (float and half), the two-step SoftmaxFlashV2 and SoftmaxGradFront
against numpy, and that the padding columns of the outputs stay 0."""
import os
import sys

import numpy as np

BLOCKS, ROWS, COLS, ORI = 4, 32, 96, 90
TILE = ROWS * COLS
RB = ROWS * 8
PER = 2 * TILE + 8 * RB + TILE // 2


def to_nz(nd):
    # [rows, cols] -> [cols / 16, rows, 16]
    return nd.reshape(ROWS, COLS // 16, 16).transpose(1, 0, 2).reshape(-1)


def from_nz(flat):
    return flat.reshape(COLS // 16, ROWS, 16).transpose(1, 0, 2).reshape(ROWS, COLS)


def tiles(work):
    x = np.random.default_rng(23).uniform(-5, 5, (BLOCKS, ROWS, COLS)).astype(np.float32)
    x[:, :, ORI:] = 50.0
    return x


def gen(work):
    x = tiles(work)
    np.concatenate([to_nz(x[b]) for b in range(BLOCKS)]).astype(np.float32).tofile(os.path.join(work, "input_x.bin"))
    return 0


def softmax(x):
    mx = x.max(axis=1)
    ex = np.exp(x - mx[:, None])
    sm = ex.sum(axis=1)
    return ex / sm[:, None], sm, mx


def check(work):
    x = tiles(work)
    out = np.fromfile(os.path.join(work, "output.bin"), dtype=np.float32)
    if out.size != BLOCKS * PER:
        print("output has %d floats, want %d" % (out.size, BLOCKS * PER))
        return 1
    bad = 0

    def cmp(name, got, want, tol):
        nonlocal bad
        err = np.abs(got.astype(np.float64) - want) / np.maximum(1.0, np.abs(want))
        if not err.max() <= tol:
            print("%s: max relative error %g > %g" % (name, err.max(), tol))
            bad = 1

    for b in range(BLOCKS):
        o = out[b * PER:(b + 1) * PER]
        xr = x[b, :, :ORI].astype(np.float64)
        y = from_nz(o[:TILE])
        f = from_nz(o[TILE:2 * TILE])
        rows = o[2 * TILE:2 * TILE + 8 * RB].reshape(8, ROWS, 8)
        yh = from_nz(o[2 * TILE + 8 * RB:].view(np.float16))
        for name, r in (("sum", rows[0]), ("max", rows[1]), ("expMax", rows[2]), ("flash sum", rows[3]),
                        ("flash max", rows[4]), ("half sum", rows[5]), ("half max", rows[6]),
                        ("grad front", rows[7])):
            if not (r == r[:, :1]).all():
                print("block %d %s: a row block does not repeat one value" % (b, name))
                bad = 1
        rows = rows[:, :, 0]
        for name, got in (("softmax", y), ("flash", f), ("half softmax", yh)):
            if (got[:, ORI:] != 0).any():
                print("block %d %s: a padding column was written" % (b, name))
                bad = 1
        want, sm, mx = softmax(xr)
        cmp("block %d softmax" % b, y[:, :ORI], want, 2e-6)
        cmp("block %d sum" % b, rows[0], sm, 2e-6)
        cmp("block %d max" % b, rows[1], mx, 0)
        # flash: the first 48 columns against their own max, then the rest
        # against the running max
        m1 = xr[:, :48].max(axis=1)
        mall = xr.max(axis=1)
        cmp("block %d flash first" % b, f[:, :48], np.exp(xr[:, :48] - m1[:, None]), 2e-6)
        cmp("block %d flash second" % b, f[:, 48:ORI], np.exp(xr[:, 48:] - mall[:, None]), 2e-6)
        cmp("block %d expMax" % b, rows[2], np.exp(m1 - mall), 2e-6)
        cmp("block %d flash sum" % b, rows[3], np.exp(xr - mall[:, None]).sum(axis=1), 4e-6)
        cmp("block %d flash max" % b, rows[4], mall, 0)
        xh = x[b, :, :ORI].astype(np.float16).astype(np.float64)
        wh, smh, mxh = softmax(xh)
        cmp("block %d half softmax" % b, yh[:, :ORI], wh, 1e-3)
        cmp("block %d half sum" % b, rows[5], smh, 2e-6)
        cmp("block %d half max" % b, rows[6], mxh, 0)
        grad = (x[b, :, :ORI] * np.float32(0.125)).astype(np.float64)
        cmp("block %d grad front" % b, rows[7], (grad * y[:, :ORI].astype(np.float64)).sum(axis=1), 1e-6)
    print("softmax_nz: %s" % ("mismatch" if bad else "all outputs match"))
    return bad


if __name__ == "__main__":
    sys.exit(gen(sys.argv[2]) if sys.argv[1] == "gen" else check(sys.argv[2]))
