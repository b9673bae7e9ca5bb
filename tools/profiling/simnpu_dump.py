#!/usr/bin/env python3
"""Reads simnpu dump files (data dump, exception dump, acldumpSaveExceptionInfo).

Format (docs/profiling.md, "Dump format"): a 32-byte header
    char magic[8] = "SNPUDMP1"; uint32 version, header_size, meta_len,
    args_size, tensor_count, reserved
then meta_len bytes of JSON, the argument block (args_size bytes) and
tensor_count tensors, each a 32-byte descriptor
    uint32 kind (0 input, 1 output, 2 workspace), arg_index;
    uint64 address, size; uint32 dtype (aclDataType), reserved
followed by its data. Every section is padded to 8 bytes.

    import simnpu_dump
    d = simnpu_dump.load("add.add.1.0.1700000000000000.1.bin")
    d.meta["kernel"], d.args, [t.array for t in d.inputs]

    python3 simnpu_dump.py FILE...     prints a summary of each file
"""

import json
import struct
import sys

import numpy as np

MAGIC = b"SNPUDMP1"
KINDS = {0: "input", 1: "output", 2: "workspace"}
# aclDataType -> numpy dtype (bfloat16 has no numpy type: read as uint16).
DTYPES = {
    0: np.float32, 1: np.float16, 2: np.int8, 3: np.int32, 4: np.uint8, 6: np.int16,
    7: np.uint16, 8: np.uint32, 9: np.int64, 10: np.uint64, 11: np.float64, 12: np.bool_,
    27: np.uint16,
}


def _pad8(n):
    return (n + 7) & ~7


class Tensor:
    def __init__(self, kind, arg_index, address, dtype, data):
        self.kind = kind
        self.kind_name = KINDS.get(kind, str(kind))
        self.arg_index = arg_index
        self.address = address
        self.dtype = dtype
        self.raw = data

    def as_array(self, dtype=None):
        """The data as a 1-D numpy array (of `dtype`, default from the file)."""
        dt = np.dtype(dtype if dtype is not None else DTYPES.get(self.dtype, np.uint8))
        n = len(self.raw) // dt.itemsize
        return np.frombuffer(self.raw, dtype=dt, count=n)

    @property
    def array(self):
        return self.as_array()

    def __repr__(self):
        return "Tensor(%s, arg %d, 0x%x, %d bytes)" % (self.kind_name, self.arg_index, self.address, len(self.raw))


class Dump:
    def __init__(self, meta, args, tensors):
        self.meta = meta
        self.args = args
        self.tensors = tensors

    @property
    def inputs(self):
        return [t for t in self.tensors if t.kind == 0]

    @property
    def outputs(self):
        return [t for t in self.tensors if t.kind == 1]

    def arg_u64(self, index):
        """The 8-byte argument slot `index` of the argument block."""
        return struct.unpack_from("<Q", self.args, 8 * index)[0]


def loads(buf):
    if len(buf) < 32 or buf[:8] != MAGIC:
        raise ValueError("not a simnpu dump (magic %r)" % bytes(buf[:8]))
    version, header_size, meta_len, args_size, count, _ = struct.unpack_from("<6I", buf, 8)
    if version != 1:
        raise ValueError("unsupported dump version %d" % version)
    off = header_size
    meta = json.loads(bytes(buf[off:off + meta_len]).decode("utf-8"))
    off = _pad8(off + meta_len)
    args = bytes(buf[off:off + args_size])
    off = _pad8(off + args_size)
    tensors = []
    for _ in range(count):
        kind, arg, addr, size, dtype, _ = struct.unpack_from("<IIQQII", buf, off)
        off += 32
        data = bytes(buf[off:off + size])
        if len(data) != size:
            raise ValueError("truncated tensor data")
        tensors.append(Tensor(kind, arg, addr, dtype, data))
        off = _pad8(off + size)
    return Dump(meta, args, tensors)


def load(path):
    with open(path, "rb") as f:
        return loads(f.read())


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 1
    for p in argv[1:]:
        d = load(p)
        print("%s: %s" % (p, json.dumps(d.meta, sort_keys=True)))
        print("  args: %d bytes" % len(d.args))
        for t in d.tensors:
            a = t.array
            print("  %r first values %s" % (t, a[:8]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
