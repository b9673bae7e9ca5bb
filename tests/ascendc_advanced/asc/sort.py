"""sort.asc golden (bit-exact): per-block descending sort of 128 scores with
their global indices (ties in index order), the 4-way merge of the blocks'
lists, Where(x > 0 and mask, x, -1), Broadcast of a row to [8, 64],
DropOut(x, mask bytes, keepProb 0.8)."""
import os
import sys

import numpy as np

B, PER, R, C = 4, 128, 8, 64


def gen(work):
    rng = np.random.default_rng(15)
    (rng.integers(-40, 40, B * PER).astype(np.float32) * np.float32(0.25)).tofile(os.path.join(work, "input_scores.bin"))
    rng.uniform(-3, 3, B * R * C).astype(np.float32).tofile(os.path.join(work, "input_x.bin"))
    (rng.random(B * R * C) < 0.6).astype(np.uint8).tofile(os.path.join(work, "input_mask.bin"))
    rng.uniform(-9, 9, C).astype(np.float32).tofile(os.path.join(work, "input_row.bin"))
    return 0


def rd(work, name, dt):
    return np.fromfile(os.path.join(work, name), dtype=dt)


def check(work):
    sc = rd(work, "input_scores.bin", np.float32)
    vals, idxs = [], []
    for b in range(B):
        order = sorted(range(PER), key=lambda i: (-float(sc[b * PER + i]), i))
        vals += [sc[b * PER + i] for i in order]
        idxs += [b * PER + i for i in order]
    vals = np.array(vals, np.float32)
    idxs = np.array(idxs, np.uint32)
    # merge: the highest head first, ties to the earlier list
    pos = [0] * B
    mv, mi = [], []
    while True:
        best = -1
        for b in range(B):
            if pos[b] < PER and (best < 0 or vals[b * PER + pos[b]] > vals[best * PER + pos[best]]):
                best = b
        if best < 0:
            break
        mv.append(vals[best * PER + pos[best]])
        mi.append(idxs[best * PER + pos[best]])
        pos[best] += 1
    merged = np.zeros(B * PER * 2, np.uint32)
    merged[0::2] = np.array(mv, np.float32).view(np.uint32)
    merged[1::2] = np.array(mi, np.uint32)
    x = rd(work, "input_x.bin", np.float32)
    m = rd(work, "input_mask.bin", np.uint8)
    row = rd(work, "input_row.bin", np.float32)
    want = {
        "output_vals.bin": vals.view(np.uint8), "output_idxs.bin": idxs.view(np.uint8),
        "output_merged.bin": merged.view(np.uint8),
        "output_where.bin": np.where((x > 0) & (m != 0), x, np.float32(-1)).astype(np.float32).view(np.uint8),
        "output_bcast.bin": np.tile(np.tile(row, (R, 1)).reshape(-1), B).astype(np.float32).view(np.uint8),
        "output_drop.bin": np.where(m != 0, (x / np.float32(0.8)).astype(np.float32), np.float32(0)).view(np.uint8),
    }
    bad = 0
    for name, w in want.items():
        got = rd(work, name, np.uint8)
        diff = np.count_nonzero(got != w) if got.size == w.size else -1
        print("%s: %d bytes differ" % (name, diff))
        bad |= diff != 0
    return int(bad)


if __name__ == "__main__":
    sys.exit(gen(sys.argv[2]) if sys.argv[1] == "gen" else check(sys.argv[2]))
