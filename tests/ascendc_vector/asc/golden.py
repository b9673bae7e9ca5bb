#!/usr/bin/env python3
"""Inputs and numpy golden check for masked_reduce.asc.
  golden.py gen     writes input/x.bin, input/y.bin
  golden.py check   compares output/out.bin with the numpy result (exit 1 on a mismatch)"""
import os
import sys

import numpy as np

N, BLOCKS = 4096, 4
PER = N // BLOCKS


def tree(v):
    v = list(v)
    while len(v) > 1:
        v = [np.float32(v[i] + v[i + 1]) for i in range(0, len(v) - 1, 2)] + ([v[-1]] if len(v) % 2 else [])
    return v[0]


def expected(x, y):
    out = np.zeros(BLOCKS * (PER + 64), dtype=np.float32)
    for b in range(BLOCKS):
        xs, ys = x[b * PER:(b + 1) * PER], y[b * PER:(b + 1) * PER]
        o = out[b * (PER + 64):(b + 1) * (PER + 64)]
        o[:PER] = np.where(xs < ys, xs, ys)
        o[PER:PER + 16] = [tree(xs[r * 64:(r + 1) * 64]) for r in range(PER // 64)]
        o[PER + 16:PER + 24] = [ys[k * 8:(k + 1) * 8].max() for k in range(8)]
    return out


rng = np.random.default_rng(14)
x = rng.uniform(-1, 1, N).astype(np.float32)
y = rng.uniform(-1, 1, N).astype(np.float32)
if sys.argv[1:] == ["gen"]:
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/x.bin")
    y.tofile("input/y.bin")
else:
    got = np.fromfile("output/out.bin", dtype=np.float32)
    want = expected(x, y)
    if got.tobytes() != want.tobytes():
        bad = np.nonzero(got.view(np.uint32) != want.view(np.uint32))[0]
        print(f"[FAIL] {len(bad)} floats differ, first at {bad[0]}: {got[bad[0]]} != {want[bad[0]]}")
        sys.exit(1)
    print("[PASS] masked_reduce matches numpy")
