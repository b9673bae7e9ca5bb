#!/usr/bin/env python3
"""Compares the sample's output with the golden data, both raw float16.

usage: verify_result.py <output file> <golden file>
An element mismatches when it is not within rtol 1e-3 / atol 1e-5 of the
golden value (NaN equals NaN). The result is correct when at most 0.1% of
the elements mismatch. Exit 0 when correct, 1 otherwise (also on any error).
"""
import sys

import numpy as np

RTOL = 1e-3
ATOL = 1e-5
TOLERANCE = 1e-3  # largest allowed fraction of mismatching elements
SHOWN = 100       # mismatches listed at most


def verify(output_path, golden_path):
    out = np.fromfile(output_path, dtype="<f2").reshape(-1)
    golden = np.fromfile(golden_path, dtype="<f2").reshape(-1)
    if out.size != golden.size or golden.size == 0:
        print(f"size mismatch: output has {out.size} elements, golden has {golden.size}")
        return False
    close = np.isclose(out, golden, rtol=RTOL, atol=ATOL, equal_nan=True)
    bad = np.flatnonzero(~close)
    for index in bad[:SHOWN]:
        expected = float(golden[index])
        actual = float(out[index])
        rdiff = abs(actual - expected) / abs(expected) if expected != 0 else float("inf")
        print(f"data index: {index:06d}, expected: {expected:-.9f}, actual: {actual:-.9f}, rdiff: {rdiff:-.6f}")
    if bad.size > SHOWN:
        print(f"... and {bad.size - SHOWN} more mismatches")
    ratio = bad.size / golden.size
    print(f"error ratio: {ratio:.4f}, tolerance: {TOLERANCE:.4f}")
    return ratio <= TOLERANCE


def main(argv):
    if len(argv) != 3:
        print("usage: verify_result.py <output file> <golden file>")
        return 1
    try:
        correct = verify(argv[1], argv[2])
    except Exception as exc:  # any problem reading or comparing is a failure
        print(f"verification error: {exc}")
        correct = False
    print("[SUCCESS] result correct" if correct else "[FAILURE] result error")
    return 0 if correct else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
