#!/usr/bin/env python3
"""Golden data for the vector-API tests (tests/ascendc_vector).

Writes, for each case, four inputs and the expected destination computed with
numpy from the rules of the Ascend C pages (repeat addressing, masks, the
pairwise sum trees), plus a manifest the C++ test reads:

  <case> <op> <n> <p0> <p1> <p2> <p3> <in_bytes> <out_bytes> <tolerance>

The op ids match tests/ascendc_vector/vec_kernels.h. Inputs are seeded, so the
files are the same on every run.  Usage: gen_golden.py <output dir>
"""
import os
import sys

import numpy as np

IN_BYTES = 16384
OUT = sys.argv[1] if len(sys.argv) > 1 else "golden"
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(20260514)
manifest = []


def off(r, j, size, blk, rep):
    """Byte offset of element j of repeat r (block j // (32/size), lane j % (32/size))."""
    epb = 32 // size
    return (r * rep + (j // epb) * blk) * 32 + (j % epb) * size


def mask_bits(lo, hi, per):
    return [((lo >> j) & 1) if j < 64 else ((hi >> (j - 64)) & 1) for j in range(per)]


def cont_mask(n, per):
    return [1 if j < min(n, per) else 0 for j in range(per)]


def get(buf, dtype, o):
    return np.frombuffer(buf[o:o + np.dtype(dtype).itemsize].tobytes(), dtype=dtype)[0]


def put(buf, dtype, o, v):
    buf[o:o + np.dtype(dtype).itemsize] = np.frombuffer(np.array([v], dtype=dtype).tobytes(), dtype=np.uint8)


def rand_bytes(nbytes):
    return rng.integers(0, 256, size=nbytes, dtype=np.uint8)


def floats(dtype, count, lo=-8.0, hi=8.0):
    v = rng.uniform(lo, hi, size=count).astype(dtype)
    return np.frombuffer(v.tobytes(), dtype=np.uint8).copy()


def tree_sum(vals, present, dtype):
    """Adjacent-pair tree; absent entries pass their partner up; odd last passes up."""
    v = list(vals)
    p = list(present)
    while len(v) > 1:
        nv, np_ = [], []
        for i in range(0, len(v) - 1, 2):
            a, b = p[i], p[i + 1]
            if a and b:
                nv.append(dtype(v[i] + v[i + 1]))
            else:
                nv.append(v[i] if a else v[i + 1])
            np_.append(a or b)
        if len(v) % 2:
            nv.append(v[-1])
            np_.append(p[-1])
        v, p = nv, np_
    return v[0], p[0]


def case(name, op, ins, init, expect, n=0, p=(0, 0, 0, 0), tol=0.0):
    ins = list(ins) + [np.zeros(IN_BYTES, dtype=np.uint8)] * (3 - len(ins))
    files = [ins[0], ins[1], init, ins[2]]
    for i, b in enumerate(files):
        assert len(b) == (IN_BYTES if i != 2 else len(init))
        b.astype(np.uint8).tofile(os.path.join(OUT, f"{name}.in{i}"))
    assert len(expect) == len(init) and len(init) % 32 == 0
    expect.astype(np.uint8).tofile(os.path.join(OUT, f"{name}.out"))
    manifest.append(f"{name} {op} {n} {p[0]} {p[1]} {p[2]} {p[3]} {IN_BYTES} {len(init)} {tol}")


def count_case(name, op, dtype, fn, n, out_bytes=4096, ints=True, p=(0, 0, 0, 0), lo=None, hi=None):
    size = np.dtype(dtype).itemsize
    if ints:
        info = np.iinfo(dtype)
        a = rng.integers(info.min if lo is None else lo, (info.max if hi is None else hi) + 1,
                         size=IN_BYTES // size, dtype=np.int64).astype(dtype)
        b = rng.integers(info.min, info.max + 1, size=IN_BYTES // size, dtype=np.int64).astype(dtype)
    else:
        a = rng.uniform(-8, 8, IN_BYTES // size).astype(dtype)
        b = rng.uniform(-8, 8, IN_BYTES // size).astype(dtype)
    init = rand_bytes(out_bytes)
    exp = init.copy()
    r = fn(a[:n], b[:n]).astype(dtype)
    exp[:n * size] = np.frombuffer(r.tobytes(), dtype=np.uint8)
    case(name, op, [np.frombuffer(a.tobytes(), dtype=np.uint8).copy(), np.frombuffer(b.tobytes(), dtype=np.uint8).copy()],
         init, exp, n=n, p=p)


# ---- bitwise
count_case("and_u16", 1, np.uint16, lambda a, b: a & b, 1000)
count_case("or_i16", 2, np.int16, lambda a, b: a | b, 1000)
count_case("not_u16", 3, np.uint16, lambda a, b: ~a, 777)
count_case("shl_u16", 4, np.uint16, lambda a, b: (a.astype(np.uint32) << 3).astype(np.uint16), 512, p=(3, 0, 0, 0))
count_case("shr_i16", 5, np.int16, lambda a, b: a >> 5, 512, p=(5, 0, 0, 0))
count_case("maxs_i32", 64, np.int32, lambda a, b: np.maximum(a, np.int32(100)), 333, lo=-300, hi=300)


def shr_round_case():
    a = rng.integers(-(1 << 20), 1 << 20, IN_BYTES // 4, dtype=np.int64).astype(np.int32)
    init = rand_bytes(1024)
    exp = init.copy()
    mask, rep, s = 40, 3, 7
    abuf = np.frombuffer(a.tobytes(), dtype=np.uint8).copy()
    for r in range(rep):
        for j in range(64):
            if j < mask:
                x = int(get(abuf, np.int32, off(r, j, 4, 1, 8)))
                put(exp, np.int32, off(r, j, 4, 1, 8), (x >> s) + ((x >> (s - 1)) & 1))
    case("shr_i32_round_l0", 6, [abuf], init, exp, p=(s, mask, rep, 0))


shr_round_case()


def and_strided_case():
    a = rand_bytes(IN_BYTES)
    b = rand_bytes(IN_BYTES)
    init = rand_bytes(1024)
    exp = init.copy()
    bits = mask_bits(0xf0f0f0f0f0f0f0f0, 0x00000000ffffffff, 128)
    rep = 2
    for r in range(rep):
        for j in range(128):
            if bits[j]:
                x = get(a, np.uint16, off(r, j, 2, 2, 16))
                y = get(b, np.uint16, off(r, j, 2, 1, 8))
                put(exp, np.uint16, off(r, j, 2, 1, 8), x & y)
    case("and_l0_strided", 7, [a, b], init, exp, p=(rep, 0, 0, 0))


and_strided_case()


# ---- compare / select
def bits_of(results):
    out = np.zeros((len(results) + 7) // 8, dtype=np.uint8)
    for i, v in enumerate(results):
        if v:
            out[i // 8] |= 1 << (i % 8)
    return out


def compare_count(name, op, dtype, fn, n, scalar=None, ints=False):
    size = np.dtype(dtype).itemsize
    cnt = IN_BYTES // size
    if ints:
        a = rng.integers(0, 4, cnt).astype(dtype)
        b = rng.integers(0, 4, cnt).astype(dtype)
    else:
        a = rng.uniform(-1, 1, cnt).astype(dtype)
        b = rng.uniform(-1, 1, cnt).astype(dtype)
        b[::7] = a[::7]  # some equal pairs
    per = 256 // size
    whole = (n // per) * per
    res = fn(a[:whole], b[:whole] if scalar is None else scalar)
    bits = bits_of(list(res))
    init = rand_bytes(((len(bits) + 31) // 32) * 32 + 32)
    exp = init.copy()
    exp[:len(bits)] = bits
    case(name, op, [np.frombuffer(a.tobytes(), dtype=np.uint8).copy(), np.frombuffer(b.tobytes(), dtype=np.uint8).copy()],
         init, exp, n=n)


compare_count("cmp_lt_f32", 20, np.float32, lambda a, b: a < b, 600)
compare_count("cmps_gt_f32", 22, np.float32, lambda a, s: a > np.float32(0.25), 256, scalar=0.25)
compare_count("cmp_eq_i32", 23, np.int32, lambda a, b: a == b, 128, ints=True)


def cmp_ge_l0():
    a = floats(np.float16, IN_BYTES // 2, -1, 1)
    b = floats(np.float16, IN_BYTES // 2, -1, 1)
    rep = 3
    res = []
    for r in range(rep):
        for j in range(128):
            res.append(get(a, np.float16, off(r, j, 2, 1, 8)) >= get(b, np.float16, off(r, j, 2, 2, 16)))
    bits = bits_of(res)
    init = rand_bytes(64)
    exp = init.copy()
    exp[:len(bits)] = bits
    case("cmp_ge_f16_l0", 21, [a, b], init, exp, p=(rep, 0, 0, 0))


cmp_ge_l0()


def select_count(name, op, dtype, n, scalar=None):
    size = np.dtype(dtype).itemsize
    a = floats(dtype, IN_BYTES // size)
    b = floats(dtype, IN_BYTES // size)
    sel = rand_bytes(IN_BYTES)
    av = np.frombuffer(a.tobytes(), dtype=dtype)
    bv = np.frombuffer(b.tobytes(), dtype=dtype)
    init = rand_bytes(2048)
    exp = init.copy()
    for i in range(n):
        bit = (sel[i // 8] >> (i % 8)) & 1
        v = av[i] if bit else (bv[i] if scalar is None else dtype(scalar))
        put(exp, dtype, i * size, v)
    case(name, op, [a, b, sel], init, exp, n=n)


select_count("sel_mode2_f32", 24, np.float32, 300)
select_count("sel_mode1_f16", 25, np.float16, 200, scalar=-7.5)


def sel_mode0_l0():
    a = floats(np.float32, IN_BYTES // 4)
    b = floats(np.float32, IN_BYTES // 4)
    sel = rand_bytes(IN_BYTES)
    rep, mask = 3, 48
    init = rand_bytes(1024)
    exp = init.copy()
    for r in range(rep):
        for j in range(mask):
            bit = (sel[j // 8] >> (j % 8)) & 1
            src = a if bit else b
            put(exp, np.float32, off(r, j, 4, 1, 8), get(src, np.float32, off(r, j, 4, 1, 8)))
    case("sel_mode0_f32_l0", 26, [a, b, sel], init, exp, p=(rep, mask, 0, 0))


sel_mode0_l0()


def cmp_then_select():
    a = floats(np.float32, IN_BYTES // 4)
    b = floats(np.float32, IN_BYTES // 4)
    n = 256
    av = np.frombuffer(a.tobytes(), dtype=np.float32)
    bv = np.frombuffer(b.tobytes(), dtype=np.float32)
    init = rand_bytes(1024)
    exp = init.copy()
    exp[:n * 4] = np.frombuffer(np.where(av[:n] < bv[:n], av[:n], bv[:n]).astype(np.float32).tobytes(), dtype=np.uint8)
    case("cmp_then_select", 27, [a, b], init, exp, n=n)


cmp_then_select()


def gather_mask_builtin():
    a = floats(np.float32, IN_BYTES // 4)
    pattern, rep = 2, 4
    kept = []
    for r in range(rep):
        for j in range(64):
            if j % 2 == 1:
                kept.append(get(a, np.float32, off(r, j, 4, 1, 8)))
    w = rand_bytes(IN_BYTES)
    init = rand_bytes(1024 + 32)
    exp = init.copy()
    exp[:len(kept) * 4] = np.frombuffer(np.array(kept, dtype=np.float32).tobytes(), dtype=np.uint8)
    tail = w[:32].copy()
    tail[:4] = np.frombuffer(np.array([len(kept)], dtype=np.uint32).tobytes(), dtype=np.uint8)
    exp[1024:] = tail
    case("gather_mask_builtin", 28, [a, rand_bytes(IN_BYTES), w], init, exp, p=(pattern, rep, 0, 0))


gather_mask_builtin()


def gather_mask_user():
    a = floats(np.float16, IN_BYTES // 2)
    pat = rand_bytes(IN_BYTES)
    mask, rep, s0rep, s1rep = 70, 2, 4, 0
    kept = []
    for r in range(rep):
        base = r * s1rep * 32 * 8
        for j in range(mask):
            bit = base + j
            if (pat[bit // 8] >> (bit % 8)) & 1:
                kept.append(get(a, np.float16, (r * s0rep + (j // 16)) * 32 + (j % 16) * 2))
    w = rand_bytes(IN_BYTES)
    init = rand_bytes(512 + 32)
    exp = init.copy()
    exp[:len(kept) * 2] = np.frombuffer(np.array(kept, dtype=np.float16).tobytes(), dtype=np.uint8)
    tail = w[:32].copy()
    tail[:4] = np.frombuffer(np.array([len(kept)], dtype=np.uint32).tobytes(), dtype=np.uint8)
    exp[512:] = tail
    case("gather_mask_user", 29, [a, pat, w], init, exp, p=(mask, rep, s0rep, s1rep))


gather_mask_user()


# ---- reductions
def whole_case(name, op, dtype, kind, rep, mask, order="vi", bitsmask=None):
    size = np.dtype(dtype).itemsize
    per = 256 // size
    a = floats(dtype, IN_BYTES // size, -4, 4)
    init = rand_bytes(1024)
    exp = init.copy()
    active = bitsmask if bitsmask is not None else cont_mask(mask, per)
    ibits = np.uint16 if size == 2 else np.uint32
    for r in range(rep):
        vals = [get(a, dtype, off(r, j, size, 1, 8)) for j in range(per)]
        if kind == "sum":
            v, anyp = tree_sum(vals, active, dtype)
            if anyp:
                put(exp, dtype, r * size, v)
            continue
        cand = [(vals[j], j) for j in range(per) if active[j]]
        best = cand[0]
        for v, j in cand[1:]:
            if (v > best[0]) if kind == "max" else (v < best[0]):
                best = (v, j)
        if order == "vi":
            put(exp, dtype, r * 2 * size, best[0])
            put(exp, ibits, r * 2 * size + size, best[1])
        else:  # index only, uint32
            put(exp, np.uint32, r * 4, best[1])
    case(name, op, [a], init, exp, p=(rep, mask, 0, 0))


whole_case("whole_sum_f32", 40, np.float32, "sum", 4, 64)
whole_case("whole_max_f16", 41, np.float16, "max", 3, 128)
whole_case("whole_min_f32_idx", 42, np.float32, "min", 3, 50, order="i")
whole_case("whole_sum_f16_masked", 47, np.float16, "sum", 2, 0,
           bitsmask=mask_bits(0x00ff00ff00ff00ff, 0xffff0000ffff0000, 128))


def block_case(name, op, dtype, kind, rep, mask):
    size = np.dtype(dtype).itemsize
    per, epb = 256 // size, 32 // size
    a = floats(dtype, IN_BYTES // size, -4, 4)
    init = rand_bytes(1024)
    exp = init.copy()
    active = cont_mask(mask, per)
    for r in range(rep):
        for blk in range(8):
            vals = [get(a, dtype, off(r, blk * epb + k, size, 1, 8)) for k in range(epb)]
            act = active[blk * epb:(blk + 1) * epb]
            if not any(act):
                continue
            if kind == "sum":
                v, _ = tree_sum(vals, act, dtype)
            else:
                v = max(x for x, on in zip(vals, act) if on)
            put(exp, dtype, r * 8 * size + blk * size, v)
    case(name, op, [a], init, exp, p=(rep, mask, 0, 0))


block_case("block_sum_f32", 43, np.float32, "sum", 2, 64)
block_case("block_max_f16", 44, np.float16, "max", 2, 100)


def pair_case():
    a = floats(np.float32, IN_BYTES // 4)
    rep, mask = 2, 64
    init = rand_bytes(1024)
    exp = init.copy()
    for r in range(rep):
        for i in range(32):
            x = get(a, np.float32, off(r, 2 * i, 4, 1, 8))
            y = get(a, np.float32, off(r, 2 * i + 1, 4, 1, 8))
            put(exp, np.float32, r * 128 + i * 4, np.float32(x + y))
    case("pair_sum_f32", 45, [a], init, exp, p=(rep, mask, 0, 0))


pair_case()


def reduce_sum_l0():
    a = floats(np.float16, IN_BYTES // 2, -2, 2)
    rep, mask = 3, 128
    init = rand_bytes(64)
    exp = init.copy()
    acc = None
    for r in range(rep):
        vals = [get(a, np.float16, off(r, j, 2, 1, 8)) for j in range(128)]
        v, _ = tree_sum(vals, [1] * 128, np.float16)
        acc = v if acc is None else np.float16(acc + v)
    put(exp, np.float16, 0, acc)
    case("reduce_sum_f16_l0", 46, [a], init, exp, p=(rep, mask, 0, 0))


reduce_sum_l0()


# ---- repeat engine on element-wise ops
def add_strided():
    a = floats(np.float16, IN_BYTES // 2)
    b = floats(np.float16, IN_BYTES // 2)
    rep = 2
    bits = mask_bits(0x5555555555555555, 0xffff0000ffff0000, 128)
    init = rand_bytes(2048)
    exp = init.copy()
    for r in range(rep):
        for j in range(128):
            if bits[j]:
                v = np.float16(get(a, np.float16, off(r, j, 2, 1, 8)) + get(b, np.float16, off(r, j, 2, 1, 8)))
                put(exp, np.float16, off(r, j, 2, 2, 16), v)
    case("add_f16_l0_strided", 60, [a, b], init, exp, p=(rep, 0, 0, 0))


add_strided()


def adds_counter():
    a = floats(np.float32, IN_BYTES // 4)
    cnt = 150
    init = rand_bytes(1024)
    exp = init.copy()
    av = np.frombuffer(a.tobytes(), dtype=np.float32)
    exp[:cnt * 4] = np.frombuffer((av[:cnt] + np.float32(1.5)).astype(np.float32).tobytes(), dtype=np.uint8)
    case("adds_f32_counter", 61, [a], init, exp, p=(cnt, 0, 0, 0))


adds_counter()


def mul_register():
    a = floats(np.float32, IN_BYTES // 4)
    b = floats(np.float32, IN_BYTES // 4)
    rep, ln = 2, 20
    init = rand_bytes(1024)
    exp = init.copy()
    for r in range(rep):
        for j in range(ln):
            o = off(r, j, 4, 1, 8)
            put(exp, np.float32, o, np.float32(get(a, np.float32, o) * get(b, np.float32, o)))
    case("mul_f32_register_mask", 62, [a, b], init, exp, p=(rep, ln, 0, 0))


mul_register()


def dup_l0():
    rep, mask = 2, 100
    init = rand_bytes(2048)
    exp = init.copy()
    for r in range(rep):
        for j in range(mask):
            put(exp, np.int16, off(r, j, 2, 2, 16), -1234)
    case("dup_i16_l0", 63, [], init, exp, p=(rep, mask, 0, 0))


dup_l0()


# ---- gather / broadcast / layout
def gather_case():
    a = floats(np.float32, IN_BYTES // 4)
    n, base = 300, 64
    offs = (rng.integers(0, (IN_BYTES - base) // 4 - 1, IN_BYTES // 4) * 4).astype(np.uint32)
    init = rand_bytes(2048)
    exp = init.copy()
    for i in range(n):
        put(exp, np.float32, i * 4, get(a, np.float32, base + int(offs[i])))
    case("gather_f32", 80, [a, np.frombuffer(offs.tobytes(), dtype=np.uint8).copy()], init, exp, n=n, p=(base, 0, 0, 0))


gather_case()


def brcb_case():
    a = floats(np.float16, IN_BYTES // 2)
    rep = 3
    init = rand_bytes(rep * 256)
    exp = init.copy()
    for r in range(rep):
        for b in range(8):
            v = get(a, np.float16, (r * 8 + b) * 2)
            for k in range(16):
                put(exp, np.float16, (r * 8 + b) * 32 + k * 2, v)
    case("brcb_f16", 81, [a], init, exp, p=(rep, 0, 0, 0))


brcb_case()


def vec_index_case():
    n, first = 200, 7
    init = rand_bytes(1024)
    exp = init.copy()
    exp[:n * 4] = np.frombuffer(np.arange(first - 50, first - 50 + n, dtype=np.int32).tobytes(), dtype=np.uint8)
    case("vec_index_i32", 82, [], init, exp, n=n, p=(first, 0, 0, 0))


vec_index_case()


def transpose_case():
    a = floats(np.float16, IN_BYTES // 2)
    m = np.frombuffer(a[:512].tobytes(), dtype=np.float16).reshape(16, 16)
    init = rand_bytes(512)
    exp = np.frombuffer(m.T.copy().tobytes(), dtype=np.uint8).copy()
    case("transpose_f16", 83, [a], init, exp)


transpose_case()


# ---- Cast into and out of the small formats (tables decoded from the format rules)
def dec_e4m3(c):
    s = -1.0 if c & 0x80 else 1.0
    e, m = (c >> 3) & 15, c & 7
    if e == 15 and m == 7:
        return float("nan")
    return s * (m / 8 * 2.0 ** -6 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7))


def dec_e5m2(c):
    s = -1.0 if c & 0x80 else 1.0
    e, m = (c >> 2) & 31, c & 3
    if e == 31:
        return s * float("inf") if m == 0 else float("nan")
    return s * (m / 4 * 2.0 ** -14 if e == 0 else (1 + m / 4) * 2.0 ** (e - 15))


def dec_hif8(c):
    s = -1.0 if c & 0x80 else 1.0
    v = c & 0x7f
    if c == 0x80:
        return float("nan")
    if v == 0:
        return 0.0 * s
    if v == 0x6f:
        return s * float("inf")
    if (v >> 3) == 0:          # dot 0000: 2^(m-23)
        return s * 2.0 ** ((v & 7) - 23)
    if (v >> 3) == 1:          # dot 0001: exponent 0
        return s * (1 + (v & 7) / 8)
    if (v >> 4) == 1:          # dot 001: exponent +-1
        e = -1 if v & 8 else 1
        return s * (1 + (v & 7) / 8) * 2.0 ** e
    dot = v >> 5               # 01, 10, 11 -> exponent widths 2, 3, 4
    ew = dot + 1
    mw = 5 - ew
    rest = v & 31
    esign = -1 if rest >> 4 else 1
    emag = (1 << (ew - 1)) + ((rest & 15) >> mw)
    m = rest & ((1 << mw) - 1)
    return s * (1 + m / (1 << mw)) * 2.0 ** (esign * emag)


def dec_e2m1(c):
    s = -1.0 if c & 8 else 1.0
    e, m = (c >> 1) & 3, c & 1
    return s * (m * 0.5 if e == 0 else (1 + m / 2) * 2.0 ** (e - 1))


def encode(x, dec, ncodes, sign, saturate, inf_code, mode):
    """Nearest (ties to even code) or away from zero; overflow per format."""
    if np.isnan(x):
        return None
    pos = sorted((dec(c), c) for c in range(ncodes) if np.isfinite(dec(c)))
    neg = x < 0 or (x == 0 and np.signbit(x))
    a = abs(float(x))
    top_v, top_c = pos[-1]
    if a > top_v:
        step = top_v - pos[-2][0]
        if a < top_v + step / 2 or (a == top_v + step / 2 and mode == "rne" and top_c % 2 == 0):
            return top_c | (sign if neg else 0)
        return (top_c if saturate else inf_code) | (sign if neg else 0)
    lo = max(i for i in range(len(pos)) if pos[i][0] <= a)
    if pos[lo][0] == a:
        return pos[lo][1] | (sign if neg else 0)
    up = lo + 1
    dl, du = a - pos[lo][0], pos[up][0] - a
    if mode == "away":
        pick = lo if dl < du else up
    else:
        pick = lo if dl < du else (up if du < dl else (lo if pos[lo][1] % 2 == 0 else up))
    return pos[pick][1] | (sign if neg else 0)


def cast_small_case(name, op, dec, ncodes, sign, saturate, inf_code, mode, span):
    n = 512
    x = rng.uniform(-span, span, IN_BYTES // 4).astype(np.float32)
    x[:8] = [0.0, -0.0, span * 4, -span * 4, 1e-9, 0.3333, 1.0, -2.5]
    init = rand_bytes(1024)
    exp = init.copy()
    for i in range(n):
        exp[i] = encode(x[i], dec, ncodes, sign, saturate, inf_code, mode)
    case(name, op, [np.frombuffer(x.tobytes(), dtype=np.uint8).copy()], init, exp, n=n)


cast_small_case("cast_f32_e4m3", 90, dec_e4m3, 128, 0x80, True, 0, "rne", 500.0)
cast_small_case("cast_f32_e5m2", 91, dec_e5m2, 128, 0x80, False, 0x7c, "rne", 60000.0)
cast_small_case("cast_f32_hif8", 92, dec_hif8, 128, 0x80, False, 0x6f, "away", 30000.0)


def cast_bf16_e2m1():
    n = 256
    f = rng.uniform(-7, 7, IN_BYTES // 2).astype(np.float32)
    bf = (f.view(np.uint32) >> 16).astype(np.uint16)  # truncated to bf16 bits (exact inputs)
    vals = (bf.astype(np.uint32) << 16).view(np.float32)
    init = rand_bytes(512)
    exp = init.copy()
    for i in range(0, n, 2):
        lo = encode(vals[i], dec_e2m1, 8, 8, True, 0, "rne")
        hi = encode(vals[i + 1], dec_e2m1, 8, 8, True, 0, "rne")
        exp[i // 2] = lo | (hi << 4)
    case("cast_bf16_e2m1", 93, [np.frombuffer(bf.tobytes(), dtype=np.uint8).copy()], init, exp, n=n)


cast_bf16_e2m1()


def cast_f16_int4():
    n = 256
    h = rng.uniform(-10, 10, IN_BYTES // 2).astype(np.float16)
    init = rand_bytes(512)
    exp = init.copy()
    q = np.clip(np.floor(h[:n].astype(np.float64)), -8, 7).astype(np.int64) & 15
    for i in range(0, n, 2):
        exp[i // 2] = int(q[i]) | (int(q[i + 1]) << 4)
    case("cast_f16_int4", 94, [np.frombuffer(h.tobytes(), dtype=np.uint8).copy()], init, exp, n=n)


cast_f16_int4()


def cast_e4m3_f32():
    n = 256
    codes = np.arange(IN_BYTES, dtype=np.uint32).astype(np.uint8)
    codes[codes == 0x7f] = 0x7e  # keep NaN codes out of the byte compare
    codes[codes == 0xff] = 0xfe
    init = rand_bytes(1024)
    exp = init.copy()
    exp[:n * 4] = np.frombuffer(np.array([dec_e4m3(int(c)) for c in codes[:n]], dtype=np.float32).tobytes(), dtype=np.uint8)
    case("cast_e4m3_f32", 95, [codes], init, exp, n=n)


cast_e4m3_f32()


def cast_i32_f16_deq():
    n = 256
    v = rng.integers(-100000, 100000, IN_BYTES // 4).astype(np.int32)
    init = rand_bytes(512)
    exp = init.copy()
    exp[:n * 2] = np.frombuffer((v[:n].astype(np.float64) * 0.125).astype(np.float16).tobytes(), dtype=np.uint8)
    case("cast_i32_f16_deq", 96, [np.frombuffer(v.tobytes(), dtype=np.uint8).copy()], init, exp, n=n)


cast_i32_f16_deq()


def cast_f16_i32_ceil_l0():
    rep = 3
    h = rng.uniform(-1000, 1000, IN_BYTES // 2).astype(np.float16)
    hb = np.frombuffer(h.tobytes(), dtype=np.uint8).copy()
    init = rand_bytes(1024)
    exp = init.copy()
    for r in range(rep):
        for j in range(64):
            x = get(hb, np.float16, off(r, j, 2, 1, 4))
            put(exp, np.int32, off(r, j, 4, 1, 8), int(np.ceil(np.float64(x))))
    case("cast_f16_i32_ceil_l0", 97, [hb], init, exp, p=(rep, 0, 0, 0))


cast_f16_i32_ceil_l0()


def cast_f32_bf16_trunc():
    n = 512
    f = rng.uniform(-100, 100, IN_BYTES // 4).astype(np.float32)
    init = rand_bytes(1024)
    exp = init.copy()
    exp[:n * 2] = np.frombuffer((f[:n].view(np.uint32) >> 16).astype(np.uint16).tobytes(), dtype=np.uint8)
    case("cast_f32_bf16_trunc", 98, [np.frombuffer(f.tobytes(), dtype=np.uint8).copy()], init, exp, n=n)


cast_f32_bf16_trunc()


# ---- DataCopyPad GM -> UB: bursts of 31 floats, 12-byte source gaps, one 37.0 pad each
def data_copy_pad_case():
    f = floats(np.float32, IN_BYTES // 4)
    bursts, blen, gap, right = 10, 31 * 4, 12, 1
    init = rand_bytes(bursts * 128)
    exp = init.copy()
    for i in range(bursts):
        exp[i * 128:i * 128 + blen] = f[i * (blen + gap):i * (blen + gap) + blen]
        put(exp, np.float32, i * 128 + blen, 37.0)
    case("data_copy_pad_gm", 100, [f], init, exp, p=(bursts, blen, gap, right))


data_copy_pad_case()

with open(os.path.join(OUT, "manifest.txt"), "w") as f:
    f.write("\n".join(manifest) + "\n")
