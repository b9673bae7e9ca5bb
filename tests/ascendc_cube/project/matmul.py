"""matmul.asc golden (numpy): C = A @ B + bias with half inputs, float32
output. norm/mdl: bit-exact with the k-ascending float32 order (bias first);
splitk: the parts are added in an order the blocks decide, so within the
bound of that order's rounding. All: within K * eps * (|A| @ |B| + |bias|)
of the float64 product."""
import os
import sys

import numpy as np

M, N, K = 256, 320, 384


def gen(work, case):
    rng = np.random.default_rng(151)
    a = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    b = rng.uniform(-1, 1, (K, N)).astype(np.float16)
    if case == "mdl":
        b.T.copy().tofile(os.path.join(work, "input_b.bin"))  # B given transposed (N x K)
    else:
        b.tofile(os.path.join(work, "input_b.bin"))
    np.save(os.path.join(work, "b.npy"), b)
    a.tofile(os.path.join(work, "input_a.bin"))
    rng.uniform(-1, 1, N).astype(np.float32).tofile(os.path.join(work, "input_bias.bin"))
    return 0


def check(work, case):
    out = open(os.path.join(work, "stdout.txt")).read()
    if "sync 0: ok" not in out:
        print("kernel failed:\n" + out)
        return 1
    a = np.fromfile(os.path.join(work, "input_a.bin"), np.float16).reshape(M, K).astype(np.float32)
    b = np.load(os.path.join(work, "b.npy")).astype(np.float32)
    bias = np.fromfile(os.path.join(work, "input_bias.bin"), np.float32)
    c = np.fromfile(os.path.join(work, "output_c.bin"), np.float32).reshape(M, N)
    exact = a.astype(np.float64) @ b.astype(np.float64) + bias
    bound = (K + 4) * np.finfo(np.float32).eps * (np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)) + np.abs(bias))
    bad = np.count_nonzero(np.abs(c - exact) > bound)
    if bad:
        print("%s: %d elements outside the accumulation bound" % (case, bad))
        return 1
    if case != "splitk":
        acc = np.broadcast_to(bias, (M, N)).astype(np.float32).copy()
        for k in range(K):
            acc = (acc + np.outer(a[:, k], b[k, :]).astype(np.float32)).astype(np.float32)
        if not np.array_equal(acc.view(np.uint32), c.view(np.uint32)):
            print("%s: %d elements differ from the k-ascending order" % (case, np.count_nonzero(acc != c)))
            return 1
    print("%s: %d elements ok, max |err| %.3g" % (case, c.size, np.max(np.abs(c - exact))))
    return 0


if __name__ == "__main__":
    mode, work = sys.argv[1], sys.argv[2]
    case = sys.argv[3] if len(sys.argv) > 3 else "norm"
    sys.exit(gen(work, case) if mode == "gen" else check(work, case))
