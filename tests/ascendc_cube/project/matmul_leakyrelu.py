"""matmul_leakyrelu.asc golden (numpy): C = leaky_relu(A @ B, 0.125) with
half inputs; the product accumulated in float32 in ascending k (bit-exact)."""
import os
import sys

import numpy as np

M, N, K = 256, 256, 128


def gen(work, case):
    rng = np.random.default_rng(1515)
    rng.uniform(-1, 1, (M, K)).astype(np.float16).tofile(os.path.join(work, "input_a.bin"))
    rng.uniform(-1, 1, (K, N)).astype(np.float16).tofile(os.path.join(work, "input_b.bin"))
    return 0


def check(work, case):
    out = open(os.path.join(work, "stdout.txt")).read()
    if "sync 0: ok" not in out:
        print("kernel failed:\n" + out)
        return 1
    a = np.fromfile(os.path.join(work, "input_a.bin"), np.float16).reshape(M, K).astype(np.float32)
    b = np.fromfile(os.path.join(work, "input_b.bin"), np.float16).reshape(K, N).astype(np.float32)
    acc = np.zeros((M, N), np.float32)
    for k in range(K):
        acc = (acc + np.outer(a[:, k], b[k, :]).astype(np.float32)).astype(np.float32)
    golden = np.where(acc >= 0, acc, acc * np.float32(0.125)).astype(np.float32)
    c = np.fromfile(os.path.join(work, "output_c.bin"), np.float32).reshape(M, N)
    if not np.array_equal(c.view(np.uint32), golden.view(np.uint32)):
        print("%s: %d mismatches" % (case, np.count_nonzero(c != golden)))
        return 1
    print("%s: %d elements bit-exact" % (case, c.size))
    return 0


if __name__ == "__main__":
    mode, work = sys.argv[1], sys.argv[2]
    case = sys.argv[3] if len(sys.argv) > 3 else "basic"
    sys.exit(gen(work, case) if mode == "gen" else check(work, case))
