#!/usr/bin/env python3
"""numpy golden data for the aclnn operator tests (tests/aclnn).

Writes <out>/manifest.jsonl (one case per line) and the binary storage files
it names. Each case: an operator, its tensors (data type, view shape, element
strides, storage offset, storage size and the storage file), scalars and
parameters, the output tensor with the storage the operator must leave
(expected file: the whole storage, so elements outside the view must stay
as they were) and the tolerance:
  exact        byte for byte
  ulp:<n>      floating values within n units in the last place of the type
  rel:<r>:<a>  |got - want| <= a + r * |want|

The golden values follow the rules simnpu documents (README "The aclnn
operator API"): inputs are converted to the computation type with the copy
rules below, the operation runs in float32 for FLOAT/FLOAT16/BFLOAT16 (one
rounding into the type) and in int64 with wrap-around for integers, the
result is converted to out's type.
"""
import json
import os
import sys

import numpy as np

NP = {"FLOAT": np.float32, "FLOAT16": np.float16, "BFLOAT16": np.uint16, "INT8": np.int8, "UINT8": np.uint8,
      "INT16": np.int16, "INT32": np.int32, "INT64": np.int64, "BOOL": np.uint8}
FLOATS = ["FLOAT", "FLOAT16", "BFLOAT16"]
INTS = ["INT8", "UINT8", "INT16", "INT32", "INT64"]
ALL = FLOATS + INTS + ["BOOL"]
RANGE = {"INT8": (-100, 100), "UINT8": (0, 200), "INT16": (-3000, 3000), "INT32": (-100000, 100000),
         "INT64": (-10**12, 10**12)}

rng = np.random.default_rng(20261202)


def bf16_from_f32(v):
    v = np.asarray(v, dtype=np.float32)
    shape = v.shape
    v = v.reshape(-1)
    bits = v.view(np.uint32).astype(np.uint64)
    nan = np.isnan(v)
    sh = np.uint64(16)
    r = ((bits + np.uint64(0x7FFF) + ((bits >> sh) & np.uint64(1))) >> sh).astype(np.uint16)
    r[nan] = ((bits[nan] >> sh) | np.uint64(0x40)).astype(np.uint16)
    return r.reshape(shape)


def bf16_to_f32(b):
    return (np.asarray(b, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def to_value(arr, dt):
    """storage values -> (is_float, float64 or int64 array)"""
    if dt == "BFLOAT16":
        return True, bf16_to_f32(arr).astype(np.float64)
    if dt in ("FLOAT", "FLOAT16"):
        return True, arr.astype(np.float64)
    if dt == "BOOL":
        return False, (arr != 0).astype(np.int64)
    return False, arr.astype(np.int64)


def from_value(isf, v, dt):
    """the copy kernel's conversion rules"""
    if dt in FLOATS:
        f32 = v.astype(np.float32) if isf else v.astype(np.float32)
        if dt == "FLOAT":
            return f32
        if dt == "FLOAT16":
            return f32.astype(np.float16)
        if not isf:
            f32 = v.astype(np.float64).astype(np.float32)
        return bf16_from_f32(f32)
    if dt == "BOOL":
        return (v != 0).astype(np.uint8)
    info = np.iinfo(NP[dt])
    if isf:
        t = np.where(np.isnan(v), 0.0, np.trunc(v))
        t = np.clip(t, float(info.min), float(info.max))
        with np.errstate(invalid="ignore"):
            iv = np.where(t >= 9.2e18, np.int64(info.max), t.astype(np.int64))
        return iv.astype(NP[dt])
    return v.astype(np.int64).astype(NP[dt])


def convert(arr, src, dst):
    isf, v = to_value(arr, src)
    return from_value(isf, v, dst)


def f32_of(arr, dt):
    return bf16_to_f32(arr) if dt == "BFLOAT16" else arr.astype(np.float32)


def store_f32(v, dt):
    v = np.asarray(v, dtype=np.float32)
    if dt == "FLOAT":
        return v
    if dt == "FLOAT16":
        return v.astype(np.float16)
    return bf16_from_f32(v)


def random_values(dt, n, nonzero=False, lo=-4.0, hi=4.0):
    if dt in FLOATS:
        v = rng.uniform(lo, hi, n).astype(np.float32)
        if nonzero:
            v = np.where(np.abs(v) < 0.5, np.float32(0.75), v).astype(np.float32)
        return store_f32(v, dt)
    if dt == "BOOL":
        return rng.integers(0, 2, n).astype(np.uint8)
    a, b = RANGE[dt]
    v = rng.integers(a, b + 1, n, dtype=np.int64)
    if nonzero:
        v = np.where(v == 0, 1, v)
    return v.astype(NP[dt])


def contiguous(shape):
    st = [1] * len(shape)
    acc = 1
    for i in range(len(shape) - 1, -1, -1):
        st[i] = acc
        acc *= max(shape[i], 1)
    return st


def storage_size(shape, strides, offset):
    if any(d == 0 for d in shape):
        return max(offset, 1)
    return offset + sum((d - 1) * s for d, s in zip(shape, strides)) + 1


def read_view(storage, shape, strides, offset):
    out = np.empty(shape, dtype=storage.dtype)
    for idx in np.ndindex(*shape):
        out[idx] = storage[offset + sum(i * s for i, s in zip(idx, strides))]
    return out


def write_view(storage, shape, strides, offset, values):
    s = storage.copy()
    for idx in np.ndindex(*shape):
        s[offset + sum(i * st for i, st in zip(idx, strides))] = values[idx]
    return s


class Writer:
    def __init__(self, out):
        self.out = out
        self.cases = []
        self.names = set()

    def file(self, case, tag, arr):
        name = "%s.%s.bin" % (case, tag)
        np.ascontiguousarray(arr).tofile(os.path.join(self.out, name))
        return name

    def tensor(self, case, tag, dt, shape, strides=None, offset=0, values=None, fill=None, nonzero=False):
        """A tensor with random (or given) view values; returns (spec, view values)."""
        strides = contiguous(shape) if strides is None else strides
        n = storage_size(shape, strides, offset)
        storage = random_values(dt, n) if fill is None else np.full(n, fill, dtype=NP[dt])
        view = values if values is not None else random_values(dt, int(np.prod(shape, dtype=np.int64)), nonzero)
        view = np.asarray(view, dtype=NP[dt]).reshape(shape)
        storage = write_view(storage, shape, strides, offset, view)
        spec = {"dtype": dt, "shape": list(shape), "strides": list(strides), "offset": offset,
                "storage": int(n), "file": self.file(case, tag, storage)}
        return spec, view, storage

    def add(self, case):
        assert case["name"] not in self.names, case["name"]
        self.names.add(case["name"])
        self.cases.append(case)

    def close(self):
        with open(os.path.join(self.out, "manifest.jsonl"), "w") as f:
            for c in self.cases:
                f.write(json.dumps(c, sort_keys=True) + "\n")


def promote(a, b):
    if a == b:
        return a
    if a == "BOOL":
        return b
    if b == "BOOL":
        return a
    fa, fb = a in FLOATS, b in FLOATS
    if fa and not fb:
        return a
    if fb and not fa:
        return b
    if fa and fb:
        return "FLOAT"
    if {a, b} == {"INT8", "UINT8"}:
        return "INT16"
    rank = {"UINT8": 1, "INT8": 1, "INT16": 2, "INT32": 3, "INT64": 4}
    if a == "UINT8":
        return b if rank[b] > 1 else "INT16"
    if b == "UINT8":
        return a if rank[a] > 1 else "INT16"
    return a if rank[a] >= rank[b] else b


def promote_scalar(t, s):
    cat = lambda d: 0 if d == "BOOL" else (2 if d in FLOATS else 1)
    if cat(s) <= cat(t):
        return t
    return "FLOAT" if cat(s) == 2 else "INT64"


# ---------------------------------------------------------------- the ops

def binary_compute(op, x, y, ct, alpha):
    """x, y: arrays already in ct storage; returns ct storage."""
    if ct in FLOATS:
        X, Y = f32_of(x, ct), f32_of(y, ct)
        a = np.float32(alpha)
        with np.errstate(all="ignore"):
            if op == "add":
                r = X + Y if a == 1 else X + a * Y
            elif op == "sub":
                r = X - Y if a == 1 else X - a * Y
            elif op == "mul":
                r = X * Y
            else:
                r = X / Y
        return store_f32(r, ct)
    X = (x != 0).astype(np.int64) if ct == "BOOL" else x.astype(np.int64)
    Y = (y != 0).astype(np.int64) if ct == "BOOL" else y.astype(np.int64)
    a = np.int64(alpha)
    with np.errstate(all="ignore"):
        if op == "add":
            r = X + Y if a == 1 else X + a * Y
        elif op == "sub":
            r = X - Y if a == 1 else X - a * Y
        else:
            r = X * Y
    if ct == "BOOL":
        return (r != 0).astype(np.uint8)
    return r.astype(NP[ct])


def unary_compute(op, x, ct):
    if ct in FLOATS:
        X = f32_of(x, ct)
        with np.errstate(all="ignore"):
            if op == "abs":
                r = np.abs(X)
            elif op == "neg":
                r = -X
            elif op == "exp":
                r = np.exp(X)
            elif op == "relu":
                r = np.where(X < 0, np.float32(0), X)
            else:
                r = np.float32(1) / (np.float32(1) + np.exp(-X))
        return store_f32(r.astype(np.float32), ct)
    X = x.astype(np.int64)
    if op == "abs":
        r = np.abs(X)
    elif op == "neg":
        r = -X
    else:
        r = np.where(X < 0, 0, X)
    return r.astype(NP[ct])


TOL_TRANSCENDENTAL = {"FLOAT": "ulp:2", "FLOAT16": "ulp:1", "BFLOAT16": "ulp:1"}


def gen_binary(w):
    ops = {"add": ("Add", ALL, True), "sub": ("Sub", FLOATS + INTS, True), "mul": ("Mul", ALL, False),
           "div": ("Div", FLOATS + INTS + ["BOOL"], False)}
    shapes = [("same", [3, 5], [3, 5]), ("bcast", [2, 1, 4], [3, 1]), ("tiles", [4100], [4100]), ("zero", [0, 3], [3])]
    for kern, (api, types, has_alpha) in ops.items():
        for dt in types:
            for tag, s0, s1 in shapes:
                if tag == "tiles" and dt not in ("FLOAT", "INT32", "FLOAT16"):
                    continue
                name = "%s_%s_%s" % (api, dt, tag)
                ct = promote(dt, dt)
                if kern == "div" and ct not in FLOATS:
                    ct = "FLOAT"
                alpha = (1.5 if ct in FLOATS else (1 if ct == "BOOL" else 3)) if has_alpha else 1
                x_spec, x, _ = w.tensor(name, "self", dt, s0)
                y_spec, y, _ = w.tensor(name, "other", dt, s1, nonzero=(kern == "div"))
                shape = list(np.broadcast_shapes(tuple(s0), tuple(s1)))
                r = binary_compute(kern, np.broadcast_to(convert(x, dt, ct), shape),
                                   np.broadcast_to(convert(y, dt, ct), shape), ct, alpha)
                out_dt = ct
                o_spec, _, o_store = w.tensor(name, "out_init", out_dt, shape, fill=0)
                o_spec["expected"] = w.file(name, "expected", write_view(o_store, shape, o_spec["strides"], 0, r))
                case = {"name": name, "op": api, "inputs": [x_spec, y_spec], "out": o_spec, "tol": "exact"}
                if has_alpha:
                    case["alpha"] = {"dtype": "FLOAT" if isinstance(alpha, float) else ("BOOL" if ct == "BOOL" else "INT64"),
                                     "value": alpha}
                w.add(case)


def gen_binary_extra(w):
    # type promotion, conversion of the output, non-contiguous views, scalars, in-place
    cases = [
        # name, op, kern, self(dt, shape, strides, offset), other, out(dt, shape, strides, offset), alpha
        ("Add_promote_i32_f16", "Add", "add", ("INT32", [2, 3], None, 0), ("FLOAT16", [2, 3], None, 0),
         ("FLOAT16", [2, 3], None, 0), 1.0),
        ("Add_promote_bool_i64", "Add", "add", ("BOOL", [4], None, 0), ("INT64", [4], None, 0),
         ("INT64", [4], None, 0), 2),
        ("Mul_promote_i8_u8", "Mul", "mul", ("INT8", [5], None, 0), ("UINT8", [5], None, 0), ("INT16", [5], None, 0), None),
        ("Mul_promote_f16_bf16", "Mul", "mul", ("FLOAT16", [6], None, 0), ("BFLOAT16", [6], None, 0),
         ("FLOAT", [6], None, 0), None),
        ("Add_out_f32_to_f16", "Add", "add", ("FLOAT", [7], None, 0), ("FLOAT", [7], None, 0), ("FLOAT16", [7], None, 0), 1.0),
        ("Add_out_i32_to_f32", "Add", "add", ("INT32", [7], None, 0), ("INT32", [7], None, 0), ("FLOAT", [7], None, 0), 2),
        ("Add_transposed_self", "Add", "add", ("FLOAT", [3, 4], [1, 3], 0), ("FLOAT", [3, 4], None, 0),
         ("FLOAT", [3, 4], None, 0), 0.5),
        ("Sub_offset_views", "Sub", "sub", ("FLOAT", [2, 3], [6, 2], 1), ("FLOAT", [3], [2], 3),
         ("FLOAT", [2, 3], [4, 1], 2), 1.0),
        ("Mul_strided_out_i32", "Mul", "mul", ("INT32", [4, 2], None, 0), ("INT32", [2], None, 0),
         ("INT32", [4, 2], [1, 4], 0), None),
        ("Div_int_inputs", "Div", "div", ("INT32", [6], None, 0), ("INT32", [6], None, 0), ("FLOAT", [6], None, 0), None),
        ("Add_0d_other", "Add", "add", ("FLOAT", [2, 2], None, 0), ("FLOAT", [], [], 0), ("FLOAT", [2, 2], None, 0), 2.0),
        ("Add_8d_bcast", "Add", "add", ("FLOAT", [2, 1, 2, 1, 2, 1, 2, 1], None, 0), ("FLOAT", [1, 2, 1, 2, 1, 2, 1, 2], None, 0),
         ("FLOAT", [2] * 8, None, 0), 1.0),
    ]
    for name, api, kern, s, o, out, alpha in cases:
        x_spec, x, _ = w.tensor(name, "self", s[0], s[1], s[2], s[3])
        y_spec, y, _ = w.tensor(name, "other", o[0], o[1], o[2], o[3], nonzero=(kern == "div"))
        ct = promote(s[0], o[0])
        if kern == "div" and ct not in FLOATS:
            ct = "FLOAT"
        shape = list(np.broadcast_shapes(tuple(s[1]), tuple(o[1])))
        r = binary_compute(kern, np.broadcast_to(convert(x, s[0], ct), shape),
                           np.broadcast_to(convert(y, o[0], ct), shape), ct, 1 if alpha is None else alpha)
        r = convert(np.asarray(r), ct, out[0])
        o_spec, _, o_store = w.tensor(name, "out_init", out[0], out[1], out[2], out[3])
        o_spec["expected"] = w.file(name, "expected", write_view(o_store, out[1], o_spec["strides"], out[3], r))
        case = {"name": name, "op": api, "inputs": [x_spec, y_spec], "out": o_spec, "tol": "exact"}
        if alpha is not None:
            case["alpha"] = {"dtype": "FLOAT" if isinstance(alpha, float) else "INT64", "value": alpha}
        w.add(case)

    # scalar forms: (api, kern, self dt, scalar dt, scalar value, alpha)
    scalars = [("Adds", "add", "FLOAT", "FLOAT", 2.5, 1.5), ("Adds", "add", "INT32", "INT64", 7, 2),
               ("Adds", "add", "INT32", "FLOAT", 0.5, 1.0), ("Adds", "add", "FLOAT16", "FLOAT", 1.25, 1.0),
               ("Subs", "sub", "BFLOAT16", "FLOAT", 0.75, 2.0), ("Subs", "sub", "INT8", "INT64", 5, 1),
               ("Muls", "mul", "FLOAT", "FLOAT", -1.5, None), ("Muls", "mul", "UINT8", "INT64", 3, None),
               ("Muls", "mul", "INT64", "FLOAT", 2.5, None), ("Muls", "mul", "BOOL", "BOOL", 1, None),
               ("Divs", "div", "FLOAT", "FLOAT", 3.0, None), ("Divs", "div", "INT32", "INT64", 4, None),
               ("Divs", "div", "FLOAT16", "FLOAT", 0.3, None)]
    for api, kern, dt, sdt, sval, alpha in scalars:
        name = "%s_%s_%s" % (api, dt, sdt)
        shape = [3, 7]
        x_spec, x, _ = w.tensor(name, "self", dt, shape)
        ct = promote_scalar(dt, sdt)
        if kern == "div" and ct not in FLOATS:
            ct = "FLOAT"
        yv = np.full(shape, sval, dtype=np.float64 if sdt in FLOATS else np.int64)
        isf = sdt in FLOATS
        y = from_value(isf, yv, ct) if ct not in FLOATS else store_f32(yv.astype(np.float32), ct)
        if ct in FLOATS:
            # the scalar travels as float (exact conversion to float, not to the type)
            r = binary_compute_scalar_float(kern, convert(x, dt, ct), ct, np.float32(sval), 1 if alpha is None else alpha)
        else:
            r = binary_compute(kern, convert(x, dt, ct), y, ct, 1 if alpha is None else alpha)
        o_spec, _, o_store = w.tensor(name, "out_init", ct, shape, fill=0)
        o_spec["expected"] = w.file(name, "expected", write_view(o_store, shape, o_spec["strides"], 0, r))
        case = {"name": name, "op": api, "inputs": [x_spec], "other_scalar": {"dtype": sdt, "value": sval},
                "out": o_spec, "tol": "exact"}
        if alpha is not None:
            case["alpha"] = {"dtype": "FLOAT" if isinstance(alpha, float) else "INT64", "value": alpha}
        w.add(case)

    # in-place forms: the result goes to selfRef (also a non-contiguous one)
    inplace = [("InplaceAdd", "add", "FLOAT", [4, 3], None, 0, "tensor", 2.0),
               ("InplaceAdd", "add", "INT32", [3, 4], [1, 3], 0, "tensor", 1),
               ("InplaceSubs", "sub", "FLOAT16", [5], None, 0, "scalar", 1.0),
               ("InplaceMul", "mul", "BFLOAT16", [2, 3], None, 0, "tensor", None),
               ("InplaceMuls", "mul", "INT64", [6], [2], 1, "scalar", None),
               ("InplaceDiv", "div", "FLOAT", [2, 3], None, 0, "tensor", None),
               ("InplaceDivs", "div", "FLOAT", [4], None, 0, "scalar", None),
               ("InplaceAdds", "add", "FLOAT", [4], None, 0, "scalar", 0.5),
               ("InplaceSub", "sub", "FLOAT", [2, 2], None, 0, "tensor", 3.0)]
    for api, kern, dt, shape, strides, offset, kind, alpha in inplace:
        name = "%s_%s" % (api, dt)
        x_spec, x, x_store = w.tensor(name, "self", dt, shape, strides, offset)
        a = 1 if alpha is None else alpha
        if kind == "tensor":
            y_spec, y, _ = w.tensor(name, "other", dt, [shape[-1]], nonzero=(kern == "div"))
            r = binary_compute(kern, x, np.broadcast_to(y, shape), dt, a)
            inputs = [x_spec, y_spec]
            extra = {}
        else:
            sval = 1.5 if dt in FLOATS else 3
            r = (binary_compute_scalar_float(kern, x, dt, np.float32(sval), a) if dt in FLOATS else
                 binary_compute(kern, x, np.full(shape, sval, dtype=NP[dt]), dt, a))
            inputs = [x_spec]
            extra = {"other_scalar": {"dtype": "FLOAT" if dt in FLOATS else "INT64", "value": sval}}
        x_spec = dict(x_spec)
        x_spec["expected"] = w.file(name, "expected", write_view(x_store, shape, x_spec["strides"], offset, r))
        inputs[0] = x_spec
        case = {"name": name, "op": api, "inputs": inputs, "inplace": True, "tol": "exact"}
        case.update(extra)
        if alpha is not None:
            case["alpha"] = {"dtype": "FLOAT" if isinstance(alpha, float) else "INT64", "value": alpha}
        w.add(case)


def binary_compute_scalar_float(kern, x, ct, s, alpha):
    X = f32_of(x, ct)
    a = np.float32(alpha)
    with np.errstate(all="ignore"):
        if kern == "add":
            r = X + s if a == 1 else X + a * s
        elif kern == "sub":
            r = X - s if a == 1 else X - a * s
        elif kern == "mul":
            r = X * s
        else:
            r = X / s
    return store_f32(r.astype(np.float32), ct)


def gen_unary(w):
    ops = {"abs": ("Abs", FLOATS + INTS, False), "neg": ("Neg", FLOATS + ["INT8", "INT16", "INT32", "INT64"], True),
           "exp": ("Exp", FLOATS, True), "relu": ("Relu", FLOATS + INTS, True), "sigmoid": ("Sigmoid", FLOATS, True)}
    for kern, (api, types, has_inplace) in ops.items():
        for dt in types:
            for tag, shape, strides, offset in [("contig", [5, 9], None, 0), ("strided", [3, 4], [1, 5], 2)]:
                if tag == "strided" and dt not in ("FLOAT", "INT32", "FLOAT16"):
                    continue
                name = "%s_%s_%s" % (api, dt, tag)
                x_spec, x, _ = w.tensor(name, "self", dt, shape, strides, offset)
                r = unary_compute(kern, x, dt)
                o_spec, _, o_store = w.tensor(name, "out_init", dt, shape, fill=0)
                o_spec["expected"] = w.file(name, "expected", write_view(o_store, shape, o_spec["strides"], 0, r))
                tol = TOL_TRANSCENDENTAL[dt] if kern in ("exp", "sigmoid") else "exact"
                w.add({"name": name, "op": api, "inputs": [x_spec], "out": o_spec, "tol": tol})
            if has_inplace and dt in ("FLOAT", "FLOAT16", "INT32"):
                if kern in ("exp", "sigmoid") and dt == "INT32":
                    continue
                name = "Inplace%s_%s" % (api, dt)
                x_spec, x, x_store = w.tensor(name, "self", dt, [6, 2])
                r = unary_compute(kern, x, dt)
                x_spec["expected"] = w.file(name, "expected", write_view(x_store, [6, 2], x_spec["strides"], 0, r))
                tol = TOL_TRANSCENDENTAL[dt] if kern in ("exp", "sigmoid") else "exact"
                w.add({"name": name, "op": "Inplace" + api, "inputs": [x_spec], "inplace": True, "tol": tol})
    # integer exp computes in float
    for dt in ("INT32", "BOOL", "INT8"):
        name = "Exp_%s_to_float" % dt
        x_spec, x, _ = w.tensor(name, "self", dt, [7], values=random_values(dt, 7) if dt == "BOOL" else
                                np.arange(-3, 4).astype(NP[dt]))
        r = unary_compute("exp", convert(x, dt, "FLOAT"), "FLOAT")
        o_spec, _, o_store = w.tensor(name, "out_init", "FLOAT", [7], fill=0)
        o_spec["expected"] = w.file(name, "expected", write_view(o_store, [7], [1], 0, r))
        w.add({"name": name, "op": "Exp", "inputs": [x_spec], "out": o_spec, "tol": "ulp:2"})


def gen_cast(w):
    special = {"FLOAT": [0.0, -0.0, 1.5, -2.5, 300.7, -1e10, float("inf"), float("nan"), 65519.0, 1e-8]}
    for src in ALL:
        for dst in ALL:
            name = "Cast_%s_to_%s" % (src, dst)
            if src == "FLOAT":
                vals = np.array(special["FLOAT"] + [3.99, -0.5], dtype=np.float32)
            elif src in FLOATS:
                vals = store_f32(np.array([0.0, 1.5, -2.5, 300.7, -129.0, 255.9, 7.25, -0.25, 1000.0, 65.0, 3.0, -7.0],
                                          dtype=np.float32), src)
            else:
                vals = random_values(src, 12)
            x_spec, x, _ = w.tensor(name, "self", src, [3, 4], values=vals.reshape(3, 4))
            r = convert(x, src, dst)
            o_spec, _, o_store = w.tensor(name, "out_init", dst, [3, 4], fill=0)
            o_spec["expected"] = w.file(name, "expected", write_view(o_store, [3, 4], o_spec["strides"], 0, r))
            w.add({"name": name, "op": "Cast", "inputs": [x_spec], "out": o_spec, "params": {"dtype": dst},
                   "tol": "exact"})
    # non-contiguous source and destination
    name = "Cast_strided_FLOAT_to_INT32"
    x_spec, x, _ = w.tensor(name, "self", "FLOAT", [3, 4], [1, 3], 0)
    r = convert(x, "FLOAT", "INT32")
    o_spec, _, o_store = w.tensor(name, "out_init", "INT32", [3, 4], [8, 2], 1)
    o_spec["expected"] = w.file(name, "expected", write_view(o_store, [3, 4], [8, 2], 1, r))
    w.add({"name": name, "op": "Cast", "inputs": [x_spec], "out": o_spec, "params": {"dtype": "INT32"}, "tol": "exact"})


def gen_softmax(w):
    for dt in FLOATS:
        for dim in (0, 1, 2, -1):
            name = "Softmax_%s_dim%s" % (dt, str(dim).replace("-", "m"))
            shape = [3, 4, 5]
            x_spec, x, _ = w.tensor(name, "self", dt, shape)
            X = f32_of(x, dt).astype(np.float64)
            e = np.exp(X - X.max(axis=dim, keepdims=True))
            r = store_f32((e / e.sum(axis=dim, keepdims=True)).astype(np.float32), dt)
            o_spec, _, o_store = w.tensor(name, "out_init", dt, shape, fill=0)
            o_spec["expected"] = w.file(name, "expected", write_view(o_store, shape, o_spec["strides"], 0, r))
            w.add({"name": name, "op": "Softmax", "inputs": [x_spec], "out": o_spec, "params": {"dim": dim},
                   "tol": "rel:1e-5:1e-7" if dt == "FLOAT" else "ulp:1"})
    name = "Softmax_strided_FLOAT"
    x_spec, x, _ = w.tensor(name, "self", "FLOAT", [4, 6], [1, 4], 0)
    X = x.astype(np.float64)
    e = np.exp(X - X.max(axis=1, keepdims=True))
    r = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    o_spec, _, o_store = w.tensor(name, "out_init", "FLOAT", [4, 6], [12, 2], 0)
    o_spec["expected"] = w.file(name, "expected", write_view(o_store, [4, 6], [12, 2], 0, r))
    w.add({"name": name, "op": "Softmax", "inputs": [x_spec], "out": o_spec, "params": {"dim": 1},
           "tol": "rel:1e-5:1e-7"})


def reduce_golden(x, src, dt, axes, keep):
    xc = convert(x, src, dt)
    if dt in FLOATS:
        s = f32_of(xc, dt).astype(np.float64).sum(axis=axes, keepdims=keep)
        return store_f32(np.asarray(s).astype(np.float32), dt)
    if dt == "BOOL":
        return (np.asarray((xc != 0).sum(axis=axes, keepdims=keep)) != 0).astype(np.uint8)
    s = xc.astype(np.int64).sum(axis=axes, keepdims=keep)
    return np.asarray(s).astype(NP[dt])


def gen_reduce(w):
    shape = [3, 4, 5]
    for dt in ALL:
        for dims, keep in [([1], False), ([0, 2], True), ([-1], False), ([], False)]:
            name = "ReduceSum_%s_%s_%s" % (dt, "_".join(str(d).replace("-", "m") for d in dims) or "all",
                                           "keep" if keep else "drop")
            x_spec, x, _ = w.tensor(name, "self", dt, shape)
            axes = tuple(d % 3 for d in dims) if dims else (0, 1, 2)
            r = reduce_golden(x, dt, dt, axes, keep)
            oshape = list(r.shape)
            o_spec, _, o_store = w.tensor(name, "out_init", dt, oshape, fill=0)
            o_spec["expected"] = w.file(name, "expected", write_view(o_store, oshape, o_spec["strides"], 0, r))
            w.add({"name": name, "op": "ReduceSum", "inputs": [x_spec], "out": o_spec,
                   "params": {"dims": dims, "keepDims": keep, "dtype": dt},
                   "tol": "ulp:1" if dt in FLOATS else "exact"})
    for src, dt in [("INT32", "INT64"), ("FLOAT16", "FLOAT"), ("INT8", "FLOAT"), ("BOOL", "INT64")]:
        name = "ReduceSum_%s_as_%s" % (src, dt)
        x_spec, x, _ = w.tensor(name, "self", src, [4, 6], [1, 4], 0)
        r = reduce_golden(x, src, dt, (1,), False)
        o_spec, _, o_store = w.tensor(name, "out_init", dt, [4], fill=0)
        o_spec["expected"] = w.file(name, "expected", write_view(o_store, [4], [1], 0, r))
        w.add({"name": name, "op": "ReduceSum", "inputs": [x_spec], "out": o_spec,
               "params": {"dims": [1], "keepDims": False, "dtype": dt}, "tol": "ulp:1" if dt in FLOATS else "exact"})


def gen_matmul(w):
    tol = {"FLOAT": "rel:1e-5:1e-5", "FLOAT16": "rel:2e-3:1e-3", "BFLOAT16": "rel:1.6e-2:1e-2"}
    cases = [("2d", [5, 7], None, [7, 3], None), ("batch_bcast", [2, 1, 3, 4], None, [5, 4, 2], None),
             ("vec_mat", [4], None, [4, 3], None), ("mat_vec", [3, 4], None, [4], None), ("dot", [6], None, [6], None),
             ("transposed_mat2", [3, 5], None, [5, 4], [1, 5])]
    for dt in FLOATS:
        for tag, sa, sta, sb, stb in cases:
            if dt != "FLOAT" and tag not in ("2d", "batch_bcast"):
                continue
            name = "Matmul_%s_%s" % (dt, tag)
            a_spec, a, _ = w.tensor(name, "self", dt, sa, sta)
            b_spec, b, _ = w.tensor(name, "mat2", dt, sb, stb)
            r64 = np.matmul(f32_of(a, dt).astype(np.float64), f32_of(b, dt).astype(np.float64))
            r = store_f32(np.asarray(r64).astype(np.float32), dt)
            oshape = list(np.asarray(r).shape)
            o_spec, _, o_store = w.tensor(name, "out_init", dt, oshape, fill=0)
            o_spec["expected"] = w.file(name, "expected",
                                        write_view(o_store, oshape, o_spec["strides"], 0, np.asarray(r).reshape(oshape)))
            w.add({"name": name, "op": "Matmul", "inputs": [a_spec, b_spec], "out": o_spec,
                   "params": {"cubeMathType": 1}, "tol": tol[dt]})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    w = Writer(out)
    gen_binary(w)
    gen_binary_extra(w)
    gen_unary(w)
    gen_cast(w)
    gen_softmax(w)
    gen_reduce(w)
    gen_matmul(w)
    w.close()
    print("%d cases" % len(w.cases))


if __name__ == "__main__":
    main()
