#!/usr/bin/env python3
"""Golden data for the advanced-API tests (tests/ascendc_advanced).

For each case: four inputs (in0, in1: up to 32 KiB, in2: up to 16 KiB, in3:
the initial contents of the three output segments) and the expected output
(three segments d | w | e of out_bytes / 3 bytes each), computed with numpy
in float64 from the formulas of the Ascend C pages, and a manifest line

  <case> <op> <n> <p0> <p1> <p2> <p3> <in_bytes> <out_bytes> <dtypes> <tol>

dtypes names each segment's element type (f32, f16, i8, i32, raw: compared
byte for byte); tol is the tolerance of float segments, relative to
max(1, |expected|) (0: bit-exact). Op ids match adv_kernels.h. Seeded.
Usage: gen_golden.py <output dir>
"""
import os
import struct
import sys

import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else "golden"
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(20261202)
IN_BYTES = 16384
SEG = 8192
manifest = []


def fbits(f):
    return struct.unpack("<I", struct.pack("<f", f))[0]


def pad(arr, nbytes):
    b = np.frombuffer(np.ascontiguousarray(arr).tobytes(), dtype=np.uint8)
    out = np.zeros(nbytes, dtype=np.uint8)
    out[: b.size] = b
    return out


def case(name, op, n, p, ins, outs, dtypes, tol, seg=SEG, init=None):
    """ins: up to 3 arrays; outs: 3 arrays (or None: the segment keeps in3)."""
    in_bytes = IN_BYTES
    files = [pad(ins[0] if len(ins) > 0 else np.zeros(0), in_bytes),
             pad(ins[1] if len(ins) > 1 else np.zeros(0), in_bytes),
             pad(ins[2] if len(ins) > 2 else np.zeros(0), in_bytes // 2)]
    init_seg = init if init is not None else np.zeros(seg * 3, dtype=np.uint8)
    files.append(init_seg)
    expect = init_seg.copy()
    for i, o in enumerate(outs):
        if o is None:
            continue
        b = np.frombuffer(np.ascontiguousarray(o).tobytes(), dtype=np.uint8)
        expect[i * seg:i * seg + b.size] = b
    for i, f in enumerate(files):
        f.tofile(os.path.join(OUT, f"{name}.in{i}"))
    expect.tofile(os.path.join(OUT, f"{name}.out"))
    pp = list(p) + [0] * (4 - len(p))
    manifest.append(f"{name} {op} {n} {pp[0]} {pp[1]} {pp[2]} {pp[3]} {in_bytes} {seg * 3} {dtypes} {tol}")


def uni(count, lo, hi, dtype=np.float32):
    return rng.uniform(lo, hi, size=count).astype(dtype)


def f64(a):
    return a.astype(np.float64)


erf = np.vectorize(__import__("math").erf)
erfc = np.vectorize(__import__("math").erfc)


def gelu(x):
    return x / (1.0 + np.exp(-1.59576912 * (x + 0.044715 * x ** 3)))


def fgelu(x):
    a = np.abs(x)
    return x / (1.0 + np.exp(-1.702 * a)) * np.exp(0.851 * (x - a))


# ---- element-wise (n elements, one output)
N = 1000
F32T, F16T = 2e-6, 1e-3
x = uni(N, -4, 4)
case("erf_f32", 1, N, [], [x], [erf(f64(x)).astype(np.float32), None, None], "f32:raw:raw", F32T)
xh = uni(N, -3, 3, np.float16)
case("erf_f16", 2, N, [], [xh], [erf(f64(xh)).astype(np.float16), None, None], "f16:raw:raw", F16T)
case("tanh_f32", 3, N, [], [x], [np.tanh(f64(x)).astype(np.float32), None, None], "f32:raw:raw", F32T)
xs = uni(N, -20, 20)
case("sigmoid_f32", 4, N, [], [xs], [(1 / (1 + np.exp(-f64(xs)))).astype(np.float32), None, None], "f32:raw:raw", F32T)
case("sigmoid_f16", 5, N, [], [xh], [(1 / (1 + np.exp(-f64(xh)))).astype(np.float16), None, None], "f16:raw:raw", F16T)
case("gelu_f32", 6, N, [], [x], [gelu(f64(x)).astype(np.float32), None, None], "f32:raw:raw", F32T)
case("fastergelu_f32", 7, N, [], [x], [fgelu(f64(x)).astype(np.float32), None, None], "f32:raw:raw", F32T)
case("silu_f32", 8, N, [], [x], [(f64(x) / (1 + np.exp(-f64(x)))).astype(np.float32), None, None], "f32:raw:raw", F32T)
beta = np.float32(1.5)
case("swish_f32", 9, N, [fbits(beta)], [x],
     [(f64(x) / (1 + np.exp(-float(beta) * f64(x)))).astype(np.float32), None, None], "f32:raw:raw", F32T)
y = uni(N, -4, 4)
sw = f64(x) * (f64(y) / (1 + np.exp(-float(beta) * f64(y))))
case("swiglu_f32", 10, N, [fbits(beta)], [x, y], [sw.astype(np.float32), None, None], "f32:raw:raw", F32T)
yh = uni(N, -3, 3, np.float16)
case("geglu_f16", 11, N, [], [xh, yh], [(f64(xh) * gelu(f64(yh))).astype(np.float16), None, None], "f16:raw:raw", F16T)
case("reglu_f32", 12, N, [], [x, y], [(f64(x) * np.maximum(f64(y), 0)).astype(np.float32), None, None], "f32:raw:raw", 0)
xp = uni(N, 0.01, 50)
case("log_f32", 13, N, [], [xp], [np.log(f64(xp)).astype(np.float32), None, None], "f32:raw:raw", F32T)
xph = uni(N, 0.01, 50, np.float16)
case("log2_f16", 14, N, [], [xph], [np.log2(f64(xph)).astype(np.float16), None, None], "f16:raw:raw", F16T)
case("log10_f32", 28, N, [], [xp], [np.log10(f64(xp)).astype(np.float32), None, None], "f32:raw:raw", F32T)
case("exp_f32", 15, N, [], [x], [np.exp(f64(x)).astype(np.float32), None, None], "f32:raw:raw", F32T)
e = uni(N, -2, 2)
case("power_tt_f32", 16, N, [], [xp, e], [np.power(f64(xp), f64(e)).astype(np.float32), None, None], "f32:raw:raw", F32T)
xi = rng.integers(-9, 10, size=N).astype(np.int32)
case("power_ts_i32", 17, N, [3], [xi], [np.power(xi.astype(np.int64), 3).astype(np.int32), None, None], "i32:raw:raw", 0)
case("power_st_f32", 18, N, [fbits(2.5)], [np.zeros(N, np.float32), e],
     [np.power(2.5, f64(e)).astype(np.float32), None, None], "f32:raw:raw", F32T)
case("clampmax_f32", 19, N, [fbits(1.25)], [x], [np.minimum(x, np.float32(1.25)), None, None], "f32:raw:raw", 0)
case("clampmin_f16", 20, N, [fbits(-0.5)], [xh], [np.maximum(xh, np.float16(-0.5)), None, None], "f16:raw:raw", 0)
case("floor_f32", 21, N, [], [x], [np.floor(x), None, None], "f32:raw:raw", 0)
xz = x.copy()
xz[::7] = 0
case("sign_f32", 22, N, [], [xz], [np.sign(xz).astype(np.float32), None, None], "f32:raw:raw", 0)
case("sin_f32", 25, N, [], [x], [np.sin(f64(x)).astype(np.float32), None, None], "f32:raw:raw", F32T)
case("cos_f32", 26, N, [], [x], [np.cos(f64(x)).astype(np.float32), None, None], "f32:raw:raw", F32T)
case("atan_f32", 27, N, [], [xs], [np.arctan(f64(xs)).astype(np.float32), None, None], "f32:raw:raw", F32T)
case("erfc_f32", 29, N, [], [x], [erfc(f64(x)).astype(np.float32), None, None], "f32:raw:raw", F32T)

# CumSum: sums in float32 in index order, rounded at each step
R, C = 12, 32
cs = uni(R * C, -2, 2).reshape(R, C)
acc = np.zeros((R, C), np.float32)
for r in range(R):
    s = np.float32(0)
    for c in range(C):
        s = np.float32(s + cs[r, c])
        acc[r, c] = s
case("cumsum_last_f32", 23, 0, [R, C], [cs], [acc, acc[-1], None], "f32:f32:raw", 0)
Rh, Ch = 10, 48
csh = uni(Rh * Ch, -2, 2, np.float16).reshape(Rh, Ch)
acch = np.zeros((Rh, Ch), np.float16)
for c in range(Ch):
    s = np.float16(0)
    for r in range(Rh):
        s = np.float16(np.float32(s) + np.float32(csh[r, c]))
        acch[r, c] = s
case("cumsum_first_f16", 24, 0, [Rh, Ch], [csh], [acch, None, None], "f16:raw:raw", 0)


# ---- SoftMax family: max/sum as one 32-byte block per row
def rows_block(v, dtype):
    per = 32 // np.dtype(dtype).itemsize
    return np.repeat(v.astype(dtype)[:, None], per, axis=1)


def softmax(src, cols):
    s = f64(src[:, :cols])
    mx = s.max(axis=1)
    ex = np.exp(s - mx[:, None])
    sm = ex.sum(axis=1)
    return ex / sm[:, None], mx, sm


M, K = 24, 64
sx = uni(M * K, -5, 5).reshape(M, K)
d, mx, sm = softmax(sx, K)
SMT = 2e-6
case("softmax_f32", 30, 0, [M, K], [sx], [d.astype(np.float32), rows_block(sm, np.float32), rows_block(mx, np.float32)],
     "f32:f32:f32", SMT)
Mh, Kh = 16, 128
sxh = uni(Mh * Kh, -4, 4, np.float16).reshape(Mh, Kh)
dh, mxh, smh = softmax(sxh, Kh)
case("softmax_f16", 31, 0, [Mh, Kh], [sxh],
     [dh.astype(np.float16), rows_block(smh, np.float16), rows_block(mxh, np.float16)], "f16:f16:f16", F16T)
case("softmax_half_float", 32, 0, [Mh, Kh], [sxh],
     [dh.astype(np.float16), rows_block(smh, np.float32), rows_block(mxh, np.float32)], "f16:f32:f32", F16T)
case("softmax_nosum_f16", 39, 0, [Mh, Kh], [sxh], [dh.astype(np.float16), None, None], "f16:raw:raw", F16T)
# padded rows: 40 real columns of 64; the padding keeps the initial contents (0)
dp, mxp, smp = softmax(sx, 40)
dfull = np.zeros((M, K), np.float32)
dfull[:, :40] = dp
case("softmax_pad_f32", 37, 0, [M, K, 40], [sx],
     [dfull, rows_block(smp, np.float32), rows_block(mxp, np.float32)], "f32:f32:f32", SMT)
# SimpleSoftMax with given (rounded) row max and sum
insum = rows_block(sm, np.float32)
inmax = rows_block(mx, np.float32)
simple = np.exp(f64(sx) - f64(inmax[:, :1])) / f64(insum[:, :1])
case("simplesoftmax_f32", 33, 0, [M, K], [sx, insum, inmax], [simple.astype(np.float32), None, None], "f32:raw:raw", SMT)
# FlashV2 without update: dst = e^(x - max), expSum = rowsum
ex = np.exp(f64(sx) - mx[:, None])
case("flashv2_f32", 34, 0, [M, K], [sx], [ex.astype(np.float32), rows_block(ex.sum(1), np.float32),
                                           rows_block(mx, np.float32)], "f32:f32:f32", SMT)
# FlashV2 with update
Mu = 16
sxu = sx[:Mu]
old_max = uni(Mu, -1, 6)
old_sum = uni(Mu, 1, 50)
nm = np.maximum(f64(old_max), f64(sxu).max(1))
exu = np.exp(f64(sxu) - nm[:, None])
em = np.exp(f64(old_max) - nm)
nsum = em * f64(old_sum) + exu.sum(1)
case("flashv2_upd_f32", 35, 0, [Mu, K], [sxu, rows_block(old_sum, np.float32), rows_block(old_max, np.float32)],
     [exu.astype(np.float32), rows_block(nsum, np.float32), rows_block(nm, np.float32)], "f32:f32:f32", SMT)
case("flashv2_upd_expmax", 36, 0, [Mu, K], [sxu, rows_block(old_sum, np.float32), rows_block(old_max, np.float32)],
     [exu.astype(np.float32), rows_block(nsum, np.float32), rows_block(em, np.float32)], "f32:f32:f32", SMT)
case("softmaxflash_upd_f32", 38, 0, [Mu, K], [sxu, rows_block(old_sum, np.float32), rows_block(old_max, np.float32)],
     [(exu / nsum[:, None]).astype(np.float32), rows_block(nsum, np.float32), rows_block(nm, np.float32)],
     "f32:f32:f32", SMT)

# SoftmaxGrad: y = softmax rows (float32), dy random
gy = d.astype(np.float32)
gdy = uni(M * K, -1, 1).reshape(M, K)
dot = (f64(gdy) * f64(gy)).sum(1)
case("softmaxgrad_f32", 46, 0, [M, K], [gy, gdy], [((f64(gdy) - dot[:, None]) * f64(gy)).astype(np.float32), None, None],
     "f32:raw:raw", 2e-6)
gyh = dh.astype(np.float16)
gdyh = uni(Mh * Kh, -1, 1, np.float16).reshape(Mh, Kh)
doth = (f64(gdyh) * f64(gyh)).sum(1)
case("softmaxgrad_front_f16", 47, 0, [Mh, Kh], [gyh, gdyh], [rows_block(doth, np.float16), None, None], "f16:raw:raw",
     F16T)


# ---- LayerNorm / RmsNorm
def layernorm(x, g, b, eps):
    x = f64(x)
    m = x.mean(axis=-1)
    v = ((x - m[..., None]) ** 2).mean(axis=-1)
    y = (x - m[..., None]) / np.sqrt(v[..., None] + eps) * f64(g) + f64(b)
    return y, m, v


B, S, H = 2, 4, 128
lx = uni(B * S * H, -3, 3).reshape(B, S, H)
lg = uni(H, 0.5, 1.5)
lb = uni(H, -0.5, 0.5)
eps = np.float32(1e-5)
ly, lm, lv = layernorm(lx, lg, lb, float(eps))
case("layernorm_f32", 40, 0, [B, S, H, fbits(eps)], [lx, lg, lb],
     [ly.astype(np.float32), lm.astype(np.float32), lv.astype(np.float32)], "f32:f32:f32", 2e-5)
Hh = 64
lxh = uni(B * S * Hh, -3, 3, np.float16).reshape(B, S, Hh)
lgh = uni(Hh, 0.5, 1.5, np.float16)
lbh = uni(Hh, -0.5, 0.5, np.float16)
epsh = np.float16(1e-3)
lyh, lmh, lvh = layernorm(lxh, lgh, lbh, float(epsh))
case("layernorm_f16", 41, 0, [B, S, Hh, fbits(float(epsh))], [lxh, lgh, lbh],
     [lyh.astype(np.float16), lmh.astype(np.float16), lvh.astype(np.float16)], "f16:f16:f16", 2e-3)


def rmsnorm(x, g, eps):
    x = f64(x)
    r = np.sqrt((x * x).mean(axis=-1) + eps)
    return x / r[..., None] * f64(g)


case("rmsnorm_f32", 42, 0, [B, S, H, fbits(1e-6)], [lx, lg], [rmsnorm(lx, lg, float(np.float32(1e-6))).astype(np.float32),
                                                            None, None], "f32:raw:raw", 2e-5)
case("rmsnorm_f16", 43, 0, [B, S, Hh, fbits(float(epsh))], [lxh, lgh],
     [rmsnorm(lxh, lgh, float(epsh)).astype(np.float16), None, None], "f16:raw:raw", 2e-3)

# Welford update: 4 rows of 64, the first 48 columns updated with nRec = 1/3
RN, AB, ABC = 4, 64, 48
wx = uni(RN * AB, -2, 2)
wm = uni(RN * AB, -1, 1)
wv = uni(RN * AB, 0, 3)
nrec = np.float32(1.0 / 3.0)
wx2, wm2, wv2 = wx.reshape(RN, AB), wm.reshape(RN, AB), wv.reshape(RN, AB)
om = wm2.copy()
ov = wv2.copy()
dl = (wx2[:, :ABC] - wm2[:, :ABC]).astype(np.float32)
om[:, :ABC] = (wm2[:, :ABC] + dl * nrec).astype(np.float32)
ov[:, :ABC] = (wv2[:, :ABC] + dl * (wx2[:, :ABC] - om[:, :ABC])).astype(np.float32)
case("welford_update", 44, 0, [RN, AB, ABC, fbits(nrec)], [wx, wm, wv], [om, ov, None], "f32:f32:raw", 1e-6)
# Welford finalize: 64 partials, the first 40 of 6 samples, the rest of 5
AB2, HC, HL, TC = 64, 6, 40, 5
pm = uni(AB2, -1, 1)
pv = uni(AB2, 0, 4)
cnt = np.array([HC] * HL + [TC] * (AB2 - HL), dtype=np.float64)
tot = cnt.sum()
mean = (cnt * f64(pm)).sum() / tot
var = (f64(pv) + cnt * (f64(pm) - mean) ** 2).sum() / tot
case("welford_finalize", 45, 0, [AB2, HC, HL, TC], [pm, pv],
     [np.array([mean], np.float32), np.array([var], np.float32), None], "f32:f32:raw", 1e-6)


# ---- quantisation
def quant(v, scale, offset):
    r = np.rint(f64(v.astype(np.float32)) * np.float64(np.float32(scale)) + np.float64(np.float32(offset)))
    # the model multiplies and adds in float32
    r = np.rint((v.astype(np.float32) * np.float32(scale) + np.float32(offset)).astype(np.float32))
    return np.clip(r, -128, 127).astype(np.int8)


qx = uni(N, -40, 40)
case("quant_f32", 50, N, [fbits(3.5), fbits(-2.0)], [qx], [quant(qx, 3.5, -2.0), None, None], "i8:raw:raw", 0)
qxh = uni(N, -20, 20, np.float16)
case("quant_f16", 51, N, [fbits(6.0), fbits(1.0)], [qxh], [quant(qxh, 6.0, 1.0), None, None], "i8:raw:raw", 0)
DM, DN, DC = 8, 64, 56
di = rng.integers(-100000, 100000, size=DM * DN).astype(np.int32).reshape(DM, DN)
ds = uni(DN, 0.001, 0.01)
dq = np.zeros((DM, DN), np.float32)
dq[:, :DC] = (di[:, :DC].astype(np.float32) * ds[:DC]).astype(np.float32)
case("dequant_f32", 52, 0, [DM, DN, DC], [di, ds], [dq, None, None], "f32:raw:raw", 0)
dqh = np.zeros((DM, DN), np.float16)
dqh[:, :DC] = (di[:, :DC].astype(np.float32) * ds[:DC]).astype(np.float32).astype(np.float16)
case("dequant_f16", 53, 0, [DM, DN, DC], [di, ds], [dqh, None, None], "f16:raw:raw", 0)
AK, AN = 16, 64
ai = rng.integers(-128, 128, size=AK * AN).astype(np.int8)
ao = uni(AN, -3, 3, np.float16)
asc = uni(AN, 0.01, 0.5, np.float16)
aq = ((ai.reshape(AK, AN).astype(np.float32) + ao.astype(np.float32)) * asc.astype(np.float32)).astype(np.float16)
case("antiquant_channel", 54, AK * AN, [AK], [ai, ao, asc], [aq, None, None], "f16:raw:raw", 0)
so, ss = np.float16(1.5), np.float16(0.25)
aqs = ((ai.astype(np.float32) + np.float32(so)) * np.float32(ss)).astype(np.float16)
case("antiquant_scalar", 55, AK * AN, [fbits(float(so)), fbits(float(ss)), AK], [ai], [aqs, None, None], "f16:raw:raw", 0)


# ---- sort: (score, index) pairs of 8 bytes, descending, ties in input order
def pairs(scores, idx, dtype):
    out = np.zeros(len(scores) * 8, np.uint8)
    for k, (sc, ix) in enumerate(zip(scores, idx)):
        b = np.array([sc], dtype=dtype).tobytes()
        out[k * 8:k * 8 + len(b)] = np.frombuffer(b, np.uint8)
        out[k * 8 + 4:k * 8 + 8] = np.frombuffer(np.array([ix], np.uint32).tobytes(), np.uint8)
    return out


def sort_desc(scores, idx):
    order = sorted(range(len(scores)), key=lambda i: (-float(scores[i]), i))
    return [scores[i] for i in order], [idx[i] for i in order]


REP = 4
ss = rng.integers(-20, 20, REP * 32).astype(np.float32) * np.float32(0.5)  # many equal scores
si = (np.arange(REP * 32, dtype=np.uint32) * 3 + 100).astype(np.uint32)
grp = [sort_desc(list(ss[g * 32:(g + 1) * 32]), list(si[g * 32:(g + 1) * 32])) for g in range(REP)]
case("sort32_f32", 60, 0, [REP], [ss, si],
     [np.concatenate([pairs(a, b, np.float32) for a, b in grp]), None, None], "raw:raw:raw", 0)
fs, fi = sort_desc(list(ss), list(si))
case("sort_full_f32", 61, 0, [REP], [ss, si],
     [pairs(fs, fi, np.float32), np.array(fs, np.float32), np.array(fi, np.uint32)], "raw:f32:raw", 0)
sh = uni(REP * 32, -100, 100, np.float16)
hs, hi = sort_desc(list(sh), list(si))
case("sort_full_f16", 62, 0, [REP], [sh, si], [pairs(hs, hi, np.float16), None, None], "raw:raw:raw", 0)
lists = []
for L in (20, 33, 7):
    sc = uni(L, -5, 5)
    ix = rng.integers(0, 1000, L).astype(np.uint32)
    a, b = sort_desc(list(sc), list(ix))
    lists.append((a, b))
merged = []
for li, (a, b) in enumerate(lists):
    merged += [(x, y, li, k) for k, (x, y) in enumerate(zip(a, b))]
merged.sort(key=lambda t: (-float(t[0]), t[3], t[2]))
# a k-way merge with ties to the earlier list: equal scores cannot come from one list out of order
def kmerge(ls):
    pos = [0] * len(ls)
    out = []
    while True:
        best = -1
        for i, (a, b) in enumerate(ls):
            if pos[i] < len(a) and (best < 0 or a[pos[i]] > ls[best][0][pos[best]]):
                best = i
        if best < 0:
            return out
        out.append((ls[best][0][pos[best]], ls[best][1][pos[best]]))
        pos[best] += 1
mg = kmerge(lists)
case("mrgsort3_f32", 63, 0, [20, 33, 7], [pairs(*lists[0], np.float32), pairs(*lists[1], np.float32),
                                          pairs(*lists[2], np.float32)],
     [pairs([m[0] for m in mg], [m[1] for m in mg], np.float32), None, None], "raw:raw:raw", 0)

# ---- broadcast, dropout
BM, BN = 12, 40
brow = uni(BN, -9, 9)
case("broadcast_axis0_f32", 64, 0, [BM, BN], [brow], [np.tile(brow, (BM, 1)), None, None], "raw:raw:raw", 0)
bcol = uni(BM, -9, 9, np.float16)
case("broadcast_axis1_f16", 65, 0, [BM, 48], [bcol], [np.repeat(bcol[:, None], 48, 1), None, None], "raw:raw:raw", 0)
DR, DC = 8, 64
dx = uni(DR * DC, -4, 4).reshape(DR, DC)
dm = (rng.random((DR, DC)) < 0.7).astype(np.uint8) * rng.integers(1, 255, (DR, DC)).astype(np.uint8)
kp = np.float32(0.7)
case("dropout_byte_f32", 66, 0, [DR, DC, DC, fbits(kp)], [dx, dm],
     [np.where(dm != 0, (dx / kp).astype(np.float32), np.float32(0)), None, None], "f32:raw:raw", 0)
dxh = uni(DR * DC, -4, 4, np.float16).reshape(DR, DC)
bits = (rng.random((DR, DC)) < 0.5).astype(np.uint8)
packed = np.packbits(bits, axis=1, bitorder="little")
kph = np.float32(0.5)
case("dropout_bit_f16", 67, 0, [DR, DC, DC // 8, fbits(kph)], [dxh, packed],
     [np.where(bits != 0, (dxh.astype(np.float32) / kph).astype(np.float16), np.float16(0)), None, None],
     "f16:raw:raw", 0)

# ---- logical / bitwise / where (bool as one byte 0/1)
NL = 512
la = uni(NL, -1, 1, np.float16)
la[::3] = 0
lb = uni(NL, -1, 1, np.float16)
lb[::5] = 0
case("logical_and_f16", 70, NL, [], [la, lb], [((la != 0) & (lb != 0)).astype(np.uint8), None, None], "raw:raw:raw", 0)
ia = rng.integers(-2, 3, NL).astype(np.int32)
ib = rng.integers(-2, 3, NL).astype(np.int32)
case("logical_xor_i32", 71, NL, [], [ia, ib], [((ia != 0) != (ib != 0)).astype(np.uint8), None, None], "raw:raw:raw", 0)
fa = uni(NL, -1, 1)
fa[::4] = 0
case("logical_not_f32", 72, NL, [], [fa], [(fa == 0).astype(np.uint8), None, None], "raw:raw:raw", 0)
ua = rng.integers(0, 3, NL).astype(np.uint8)
ub = rng.integers(0, 3, NL).astype(np.uint8)
case("logical_or_u8", 79, NL, [], [ua, ub], [((ua != 0) | (ub != 0)).astype(np.uint8), None, None], "raw:raw:raw", 0)
wa = rng.integers(0, 65536, NL).astype(np.uint16)
wb = rng.integers(0, 65536, NL).astype(np.uint16)
case("bitwise_and_u16", 73, NL, [], [wa, wb], [wa & wb, None, None], "raw:raw:raw", 0)
ja = rng.integers(-2**31, 2**31, NL).astype(np.int32)
jb = rng.integers(-2**31, 2**31, NL).astype(np.int32)
case("bitwise_or_i32", 78, NL, [], [ja, jb], [ja | jb, None, None], "raw:raw:raw", 0)
qa = rng.integers(-2**62, 2**62, 256).astype(np.int64)
qb = rng.integers(-2**62, 2**62, 256).astype(np.int64)
case("bitwise_xor_i64", 74, 256, [], [qa, qb], [qa ^ qb, None, None], "raw:raw:raw", 0)
ba = rng.integers(-128, 128, NL).astype(np.int8)
case("bitwise_not_i8", 75, NL, [], [ba], [~ba, None, None], "raw:raw:raw", 0)
cond = (rng.random(NL) < 0.5).astype(np.uint8)
wx, wy = uni(NL, -5, 5), uni(NL, -5, 5)
case("where_tt_f32", 76, NL, [], [wx, wy, cond], [np.where(cond != 0, wx, wy), None, None], "raw:raw:raw", 0)
hx = rng.integers(-1000, 1000, NL).astype(np.int16)
case("where_ts_i16", 77, NL, [7], [hx, np.zeros(0), cond], [np.where(cond != 0, hx, np.int16(7)), None, None],
     "raw:raw:raw", 0)

# ---- pad / unpad (issue 14 leftovers): p0 = height, p1 = srcWidth,
# p2 = leftPad | rightPad << 16, p3 = padValue (int32 bits), n = srcOriWidth.
# Element bits are copied: bit-exact. Untouched dst columns keep in3 (zero).
rng2 = np.random.default_rng(14014)


def pad_rows(src, h, w, wa, left, right, value, dtype):
    out = np.zeros((h, wa), dtype)
    out[:, :left] = dtype(value)
    out[:, left:left + w] = src.reshape(h, w)
    out[:, left + w:left + w + right] = dtype(value)
    return out


def u32(v):
    return v & 0xFFFFFFFF


ph = np.arange(16 * 15).astype(np.float16)  # the page's example: 16 x 15 half, right pad 1 with 321
case("pad_unaligned_f16", 80, 15, [16, 15, 0 | 1 << 16, 321], [ph],
     [pad_rows(ph, 16, 15, 16, 0, 1, 321, np.float16), None, None], "raw:raw:raw", 0)
pf = uni(8 * 5, -9, 9)
case("pad_unaligned_lr_f32", 81, 5, [8, 5, 1 | 2 << 16, u32(-7)], [pf],
     [pad_rows(pf, 8, 5, 8, 1, 2, -7, np.float32), None, None], "raw:raw:raw", 0)
pi = rng2.integers(-1000, 1000, 6 * 10).astype(np.int16)
case("pad_unaligned_short_i16", 82, 10, [6, 10, 2 | 3 << 16, u32(-1)], [pi],
     [pad_rows(pi, 6, 10, 16, 2, 3, -1, np.int16), None, None], "raw:raw:raw", 0)
pa = rng2.uniform(-5, 5, 8 * 16).astype(np.float32)
pa_out = pa.reshape(8, 16).copy()
pa_out[:, 13:16] = np.float32(9)
case("pad_aligned_f32", 81, 13, [8, 16, 0 | 3 << 16, 9], [pa], [pa_out, None, None], "raw:raw:raw", 0)
pu = rng2.integers(0, 2**32, 4 * 24, dtype=np.uint64).astype(np.uint32)
pu_out = pu.reshape(4, 24).copy()
pu_out[:, 20:21] = np.uint32(77)
case("pad_aligned_u32", 83, 20, [4, 24, 0 | 1 << 16, 77], [pu], [pu_out, None, None], "raw:raw:raw", 0)
uh = np.arange(16 * 16).astype(np.float16)
case("unpad_f16", 84, 0, [16, 16, 0 | 1 << 16], [uh], [uh.reshape(16, 16)[:, :15], None, None], "raw:raw:raw", 0)
ui = rng2.integers(-2**31, 2**31, 5 * 8).astype(np.int32)
case("unpad_i32", 85, 0, [5, 8, 0 | 3 << 16], [ui], [ui.reshape(5, 8)[:, :5], None, None], "raw:raw:raw", 0)

# ---- TopK: p0 = outter, p1 = inner, p2 = n, p3 = k, n = isLargest.
# NaN first, then by value (descending when largest), ties in column order.
def topk_rows(vals, idx_rows, outter, inner, n, k, largest, finish, vpad, ipad, vdt):
    ov = np.zeros(outter * vpad, vdt)
    oi = np.zeros(outter * ipad, np.int32)
    for r in range(outter):
        row = vals[r * inner:r * inner + n]
        def key(j):
            v = row[j]
            isnan = bool(np.isnan(v)) if np.issubdtype(vdt, np.floating) else False
            x = 0 if isnan else (-float(v) if largest else float(v))
            if not np.issubdtype(vdt, np.floating):
                x = 0 if isnan else (-int(v) if largest else int(v))
            return (0 if isnan else 1, x, j)
        order = sorted(range(n), key=key)[:k]
        ov[r * vpad:r * vpad + k] = row[order]
        ids = idx_rows(r)
        oi[r * ipad:r * ipad + k] = n if (finish is not None and finish[r]) else np.array([ids[j] for j in order], np.int32)
    return ov, oi


tv = rng2.uniform(-60000, 60000, 2 * 32).astype(np.float32)
tv[5] = tv[9]  # a tie
tv[40] = np.nan
tidx = (np.arange(32, dtype=np.int32) * 2 + 1)
tfin = np.zeros(32, np.uint8)
tfin[1] = 1
ov, oi = topk_rows(tv, lambda r: tidx, 2, 32, 32, 5, False, tfin, 8, 8, np.float32)
case("topk_normal_f32", 86, 0, [2, 32, 32, 5], [tv, tidx, tfin], [ov, oi, None], "raw:raw:raw", 0)
sv = np.full(4 * 32, -np.inf, np.float32)
for r in range(4):
    sv[r * 32:r * 32 + 17] = rng2.uniform(-60000, 60000, 17).astype(np.float32)
sidx = np.tile(np.arange(32, dtype=np.int32) + 100, 4)
ov, oi = topk_rows(sv, lambda r: sidx[r * 32:(r + 1) * 32], 4, 32, 17, 8, True, None, 8, 8, np.float32)
case("topk_small_f32", 87, 1, [4, 32, 17, 8], [sv, sidx], [ov, oi, None], "raw:raw:raw", 0)
hv = rng2.integers(-40, 40, 3 * 64).astype(np.float16)  # many ties
ov, oi = topk_rows(hv, lambda r: np.arange(64), 3, 64, 50, 10, True, None, 16, 16, np.float16)
case("topk_normal_f16", 88, 1, [3, 64, 50, 10], [hv], [ov, oi, None], "raw:raw:raw", 0)
iv = rng2.integers(-5, 5, 2 * 96).astype(np.int32)
ov, oi = topk_rows(iv, lambda r: np.arange(96), 2, 96, 90, 12, False, None, 16, 16, np.int32)
case("topk_radix_i32", 89, 1, [2, 96, 90, 12], [iv], [ov, oi, None], "raw:raw:raw", 0)

# ---- LayerNorm with rstd ([A, R] rows rLengthWithPadding apart): y, mean, rstd / variance
def layernorm_ar(x, a, r, rp, g, b, eps, out_dt):
    xr = f64(x).reshape(a, rp)[:, :r]
    m = xr.mean(axis=-1)
    v = ((xr - m[:, None]) ** 2).mean(axis=-1)
    rs = 1.0 / np.sqrt(v + eps)
    y = (xr - m[:, None]) * rs[:, None]
    if g is not None:
        y = y * f64(g)
    if b is not None:
        y = y + f64(b)
    full = np.zeros((a, rp), out_dt)
    full[:, :r] = y.astype(out_dt)
    return full, m.astype(np.float32), rs.astype(np.float32), v.astype(np.float32)


A1, R1, RP1 = 6, 100, 104
ax1 = rng2.uniform(-3, 3, A1 * RP1).astype(np.float32)
ag1 = rng2.uniform(0.5, 1.5, R1).astype(np.float32)
ab1 = rng2.uniform(-0.5, 0.5, R1).astype(np.float32)
e1 = np.float32(1e-5)
y1, m1, rs1, _ = layernorm_ar(ax1, A1, R1, RP1, ag1, ab1, float(e1), np.float32)
case("layernorm_rstd_f32", 90, 0, [A1, R1, RP1, fbits(e1)], [ax1, ag1, ab1], [y1, m1, rs1], "f32:f32:f32", 2e-5)
A2, R2 = 4, 64
ax2 = rng2.uniform(-3, 3, A2 * R2).astype(np.float16)
ag2 = rng2.uniform(0.5, 1.5, R2).astype(np.float32)
e2 = np.float32(1e-3)
y2, m2, _, v2 = layernorm_ar(ax2, A2, R2, R2, ag2, None, float(e2), np.float16)
case("layernorm_var_nobeta_f16", 91, 0, [A2, R2, R2, fbits(e2)], [ax2, ag2], [y2, m2, v2], "f16:f32:f32", 2e-3)
A3, R3, RP3 = 3, 40, 48
ax3 = rng2.uniform(-3, 3, A3 * RP3).astype(np.float32)
ab3 = rng2.uniform(-0.5, 0.5, R3).astype(np.float32)
y3, _, _, _ = layernorm_ar(ax3, A3, R3, RP3, None, ab3, float(e1), np.float32)
case("layernorm_only_nogamma_f32", 92, 0, [A3, R3, RP3, fbits(e1)], [ax3, np.zeros(R3, np.float32), ab3],
     [y3, None, None], "f32:f32:f32", 2e-5)

# ---- Gatherb (32-byte blocks by byte offset) and Scatter (elements by byte offset)
def gatherb(src_bytes, offs, rep, blk, reps, dst_bytes):
    out = np.zeros(dst_bytes, np.uint8)
    for r in range(rep):
        for b in range(8):
            o = int(offs[r * 8 + b])
            d = (r * reps + b * blk) * 32
            out[d:d + 32] = src_bytes[o:o + 32]
    return out


gsrc = rng2.integers(0, 2**32, 4096, dtype=np.uint64).astype(np.uint32)  # 16 KiB: 512 blocks
goff = (rng2.integers(0, 512, 24) * 32).astype(np.uint32)
case("gatherb_u32", 93, 0, [3, 1, 8], [gsrc, goff],
     [gatherb(gsrc.view(np.uint8), goff, 3, 1, 8, 3 * 256), None, None], "raw:raw:raw", 0)
gsrc16 = rng2.integers(0, 2**16, 8192).astype(np.uint16)
goff16 = (rng2.integers(0, 512, 16) * 32).astype(np.uint32)
case("gatherb_strided_u16", 94, 0, [2, 2, 20], [gsrc16, goff16],
     [gatherb(gsrc16.view(np.uint8), goff16, 2, 2, 20, (20 + 14) * 32 + 32), None, None], "raw:raw:raw", 0)


def scatter(vals, offs, base, dst_bytes):
    out = np.zeros(dst_bytes, np.uint8)
    vb = vals.view(np.uint8).reshape(len(vals), -1)
    es = vb.shape[1]
    for i in range(len(vals)):
        a = base + int(offs[i])
        out[a:a + es] = vb[i]
    return out


NS = 300
sv32 = rng2.uniform(-9, 9, NS).astype(np.float32)
so32 = (rng2.permutation(NS + 20)[:NS] * 4).astype(np.uint32)
case("scatter_f32", 95, NS, [0, 0, 0, 64], [sv32, so32], [scatter(sv32, so32, 64, 64 + (NS + 20) * 4), None, None],
     "raw:raw:raw", 0)
# mask form, continuous mask 100 of 128 halves, 2 repeats, srcRepStride 8 (dense)
sv16 = rng2.uniform(-9, 9, 256).astype(np.float16)
so16 = (rng2.permutation(256) * 2).astype(np.uint32)
act = [r * 128 + j for r in range(2) for j in range(100)]
case("scatter_mask_f16", 96, 0, [2, 100, 8, 0], [sv16, so16],
     [scatter(sv16[act], so16[act], 0, 512), None, None], "raw:raw:raw", 0)
# mask bits 0xF0F0... over 64 int32 lanes, 2 repeats, srcRepStride 10 (repeat 1 at element 80)
svi = rng2.integers(-2**31, 2**31, 160).astype(np.int32)
soi = (rng2.permutation(128) * 4).astype(np.uint32)
lanes = [j for j in range(64) if (0xF0F0F0F0F0F0F0F0 >> j) & 1]
src_idx = [r * 80 + j for r in range(2) for j in lanes]
off_idx = [r * 64 + j for r in range(2) for j in lanes]
case("scatter_maskbits_i32", 97, 0, [2, 0, 10, 32], [svi, soi],
     [scatter(svi[src_idx], soi[off_idx], 32, 32 + 512), None, None], "raw:raw:raw", 0)

# ---- the 950 Sort forms: stable, ascending unless descending, NaN the largest value
def stable_order(v, desc):
    isn = np.isnan(v) if np.issubdtype(v.dtype, np.floating) else np.zeros(v.size, bool)
    if desc:
        key = lambda i: (0 if isn[i] else 1, 0 if isn[i] else -float(v[i]), i)
    else:
        key = lambda i: (1 if isn[i] else 0, 0 if isn[i] else float(v[i]), i)
    return sorted(range(v.size), key=key)


NSC = 300
scf = rng2.integers(-50, 50, NSC).astype(np.float32) * np.float32(0.25)
scf[[3, 77, 200]] = np.nan
o = stable_order(scf, False)
case("sortcfg_radix_f32", 98, NSC, [], [scf], [scf[o], None, None], "raw:raw:raw", 0)
sch = rng2.integers(-30, 30, 256).astype(np.float16)
o = stable_order(sch, True)
case("sortcfg_merge_desc_f16", 99, 256, [], [sch], [sch[o], np.array(o, np.uint32), None], "raw:raw:raw", 0)
sci = rng2.integers(-1000, 1000, 200).astype(np.int32)
sci[10:20] = 5  # ties keep input order
scx = (np.arange(200, dtype=np.int64) * 1000003 + 7)
o = stable_order(sci, True)
case("sortcfg_radix_desc_i32_idx64", 100, 200, [], [sci, scx], [sci[o], scx[o], None], "raw:raw:raw", 0)

with open(os.path.join(OUT, "manifest.txt"), "w") as f:
    f.write("\n".join(manifest) + "\n")
