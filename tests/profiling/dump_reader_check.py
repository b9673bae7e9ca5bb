#!/usr/bin/python3
"""Checks tools/profiling/simnpu_dump.py on a data dump of prof_add.

usage: dump_reader_check.py READER DUMP X.bin Z.bin
The dump's first input must equal X.bin and its last output Z.bin, as
float32 numpy arrays.
"""
import importlib.util
import sys

import numpy as np

spec = importlib.util.spec_from_file_location("simnpu_dump", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
d = mod.load(sys.argv[2])
x = np.fromfile(sys.argv[3], dtype=np.float32)
z = np.fromfile(sys.argv[4], dtype=np.float32)
assert d.meta["kernel"] == "prof_add", d.meta
assert len(d.inputs) == 3 and len(d.outputs) == 3, d.tensors
got_x = d.inputs[0].as_array(np.float32)[: x.size]
got_z = d.outputs[2].as_array(np.float32)[: z.size]
assert np.array_equal(got_x, x), (got_x[:4], x[:4])
assert np.array_equal(got_z, z), (got_z[:4], z[:4])
assert d.arg_u64(3) & 0xFFFFFFFF == x.size, d.arg_u64(3)
print("dump reader ok: %d inputs, %d outputs" % (len(d.inputs), len(d.outputs)))
