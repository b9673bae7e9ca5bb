#!/usr/bin/python3
"""Checks the uvm_allocate sample's trace against what the program does.

usage: uvm_allocate_trace_check.py TRACE.json LANES.json UVM_REPORT

The program: allocate x, y, z (managed); read x and y from files (host
faults: first touch); the kernel reads x and y (device faults: migrations
to the device) and writes z (device fault: first touch on the device);
the host writes z to a file (host fault: migration back). Every buffer is
one 2 MiB block.
"""
import json
import re
import sys

BLOCK = 2 << 20
trace = json.load(open(sys.argv[1]))["traceEvents"]
lanes = json.load(open(sys.argv[2]))
report = open(sys.argv[3]).read()


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def named(n):
    return [e for e in trace if e.get("name") == n and e.get("ph") != "M"]


allocs = named("managed alloc")
if len(allocs) != 3:
    fail("expected 3 managed allocations, got %d" % len(allocs))
x, y, z = (int(a["args"]["address"], 16) for a in allocs)
hf = named("host fault")
df = named("device fault")
kernels = [e for e in trace if e.get("cat") == "kernel"]
if len(hf) != 3 or len(df) != 3:
    fail("expected 3 host and 3 device faults, got %d and %d" % (len(hf), len(df)))
if len(kernels) != 1 or kernels[0]["name"] != "add_kernel":
    fail("expected one add_kernel event, got %r" % [k["name"] for k in kernels])
k = kernels[0]
k0, k1 = k["ts"], k["ts"] + k["dur"]
if k["args"]["block dim"] != 8 or k["args"]["time per block (us)"] <= 0:
    fail("kernel args %r" % k["args"])
# Host faults: x, y (first touch, writes), then z after the kernel (read).
addrs = [int(e["args"]["address"], 16) for e in hf]
if addrs != [x, y, z]:
    fail("host fault order %r, expected x, y, z" % addrs)
if [e["args"]["access"] for e in hf] != ["write", "write", "read"]:
    fail("host fault accesses %r" % [e["args"]["access"] for e in hf])
if any(e["args"]["bytes"] != BLOCK for e in hf):
    fail("host faults should serve whole 2 MiB blocks")
if not (hf[1]["ts"] < k0 and hf[2]["ts"] > k1 - 1e-3):
    fail("host faults not around the kernel (%r, kernel %f..%f)" % ([e["ts"] for e in hf], k0, k1))
# Device faults: one in each of x, y, z, inside the kernel (at whichever
# address of the block the first of the 8 kernel blocks touched).
def owner(addr):
    for base in (x, y, z):
        if base <= addr < base + BLOCK:
            return base
    return None
daddrs = sorted(int(e["args"]["address"], 16) for e in df)
if sorted(owner(a) for a in daddrs) != sorted([x, y, z]):
    fail("device faults at %r, expected one in each of %r" % (daddrs, [x, y, z]))
if any(not (k0 <= e["ts"] <= k1) for e in df):
    fail("device faults outside the kernel")
zf = [e for e in df if owner(int(e["args"]["address"], 16)) == z][0]
if zf["args"]["access"] != "write":
    fail("z's device fault should be a write")
# Migrations: x and y to the device, z back to the host, all 2 MiB moves.
mig = named("migrate")
got = sorted((int(e["args"]["address"], 16), e["args"]["to"], e["args"]["bytes"]) for e in mig)
want = sorted([(x, "device 0", BLOCK), (y, "device 0", BLOCK), (z, "host", BLOCK)])
if got != want:
    fail("migrations %r, expected %r" % (got, want))
# The counters of the runtime's own report agree.
m = re.search(r"host page faults\s+(\d+)", report)
d = re.search(r"device page faults\s+(\d+)", report)
if not m or not d or int(m.group(1)) != 3 or int(d.group(1)) != 3:
    fail("report counters differ")
# Picture lanes.
if lanes["stream_lanes"] != ["NPU 0 stream %d" % k["tid"]]:
    fail("stream lanes %r" % lanes["stream_lanes"])
if lanes["kernels"] != ["add_kernel"] or len(lanes["allocations"]) != 3:
    fail("picture lanes %r" % lanes)
for p in lanes["allocations"]:
    if p["host_faults"] != 1 or p["device_faults"] != 1 or p["migrations"] != 1:
        fail("allocation panel %r" % p)
    if p["sides"] != ["device 0", "host"]:
        fail("allocation panel sides %r" % p)
print("trace check ok: 3 host faults, 3 device faults, add_kernel, 3 migrations, 3 panels")
