"""cube_basic.asc golden (numpy). half: C = bias + sum_k A[:, k] * B[k, :]
accumulated in float32 in ascending k (the cube model's documented order),
compared bit for bit, and within a bound derived from that order of the
float64 product. int8: C = relu(float16(int32(A @ B + bias) * 2**-8)), exact."""
import os
import sys

import numpy as np

M, N, K = 128, 192, 256


def gen(work, case):
    rng = np.random.default_rng(15)
    if case == "int8":
        a = rng.integers(-128, 128, (M, K)).astype(np.int8)
        b = rng.integers(-128, 128, (K, N)).astype(np.int8)
        bias = rng.integers(-5000, 5000, N).astype(np.int32)
    else:
        a = rng.uniform(-2, 2, (M, K)).astype(np.float16)
        b = rng.uniform(-2, 2, (K, N)).astype(np.float16)
        bias = rng.uniform(-1, 1, N).astype(np.float32)
    a.tofile(os.path.join(work, "input_a.bin"))
    b.tofile(os.path.join(work, "input_b.bin"))
    bias.tofile(os.path.join(work, "input_bias.bin"))
    return 0


def check(work, case):
    if "sync 0: ok" not in open(os.path.join(work, "stdout.txt")).read():
        print("kernel failed")
        return 1
    if case == "int8":
        a = np.fromfile(os.path.join(work, "input_a.bin"), np.int8).reshape(M, K).astype(np.int64)
        b = np.fromfile(os.path.join(work, "input_b.bin"), np.int8).reshape(K, N).astype(np.int64)
        bias = np.fromfile(os.path.join(work, "input_bias.bin"), np.int32)
        acc = (a @ b + bias).astype(np.int32)
        golden = np.maximum(acc.astype(np.float64) / 256.0, 0).astype(np.float32).astype(np.float16)
        c = np.fromfile(os.path.join(work, "output_c.bin"), np.float16).reshape(M, N)
        if not np.array_equal(c.view(np.uint16), golden.view(np.uint16)):
            print("int8: %d mismatches" % np.count_nonzero(c != golden))
            return 1
        print("int8: %d elements exact" % c.size)
        return 0
    a = np.fromfile(os.path.join(work, "input_a.bin"), np.float16).reshape(M, K).astype(np.float32)
    b = np.fromfile(os.path.join(work, "input_b.bin"), np.float16).reshape(K, N).astype(np.float32)
    bias = np.fromfile(os.path.join(work, "input_bias.bin"), np.float32)
    c = np.fromfile(os.path.join(work, "output_c.bin"), np.float32).reshape(M, N)
    acc = np.broadcast_to(bias, (M, N)).astype(np.float32).copy()
    for k in range(K):
        acc = (acc + np.outer(a[:, k], b[k, :]).astype(np.float32)).astype(np.float32)
    exact = a.astype(np.float64) @ b.astype(np.float64) + bias
    # K sequential float32 additions: |err| <= K * eps * sum|terms|
    bound = (K + 1) * np.finfo(np.float32).eps * (np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)) + np.abs(bias))
    if np.any(np.abs(c - exact) > bound):
        print("half: outside the accumulation bound at %d elements" % np.count_nonzero(np.abs(c - exact) > bound))
        return 1
    if not np.array_equal(c.view(np.uint32), acc.view(np.uint32)):
        print("half: %d elements differ from the k-ascending float32 order" % np.count_nonzero(c != acc))
        return 1
    print("half: %d elements bit-exact, max |err| vs float64 %.3g" % (c.size, np.max(np.abs(c - exact))))
    return 0


if __name__ == "__main__":
    mode, work = sys.argv[1], sys.argv[2]
    case = sys.argv[3] if len(sys.argv) > 3 else "half"
    sys.exit(gen(work, case) if mode == "gen" else check(work, case))
