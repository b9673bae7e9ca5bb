#!/usr/bin/env python3
"""Writes the sample's inputs and the expected result (run from the sample dir).

input/input_x.bin, input/input_y.bin: 8 x 2048 float16 values drawn uniformly
from [1, 100); output/golden.bin: x + y computed in float16. Raw little-endian
float16, 32768 bytes each. A new random draw every run.
"""
import os
import sys

import numpy as np

SHAPE = (8, 2048)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng()
    x = rng.uniform(1.0, 100.0, SHAPE).astype(np.float16)
    y = rng.uniform(1.0, 100.0, SHAPE).astype(np.float16)
    golden = np.add(x, y, dtype=np.float16)
    x.astype("<f2").tofile(os.path.join("input", "input_x.bin"))
    y.astype("<f2").tofile(os.path.join("input", "input_y.bin"))
    golden.astype("<f2").tofile(os.path.join("output", "golden.bin"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
