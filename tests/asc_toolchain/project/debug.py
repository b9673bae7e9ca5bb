"""debug.asc: the exact dump output of each block, in block order."""
import os
import re
import sys


def block_lines(b):
    h = ", ".join("%f" % (i * 0.5) for i in range(4))
    f = ", ".join("%f" % (-i - 0.25) for i in range(8))
    g = ", ".join(str(100 + 8 * b + i) for i in range(8))
    acc = ", ".join("%f" % (i * 0.5) for i in range(12, 16))
    return [
        "DumpTensor: desc=5, addr=0, data_type=float16, position=UB, dump_size=4", "[%s]" % h,
        "DumpTensor: desc=6, addr=64, data_type=float32, position=UB, dump_size=8", "[%s]" % f,
        "GMDUMP desc=7 [%s]" % g,
        "DumpAccChkPoint: desc=1, addr=0, data_type=float16, position=UB, offset=12, dump_size=4", "[%s]" % acc,
        "GMDUMP desc=8 [100, 101]",
    ]


def check(work, case):
    out = open(os.path.join(work, "stdout.txt")).read().splitlines()
    if case == "assert":
        # block 0 fails; block 1 fails too unless the runtime skipped it
        # (blocks not yet started when one fails are not run)
        first = (r"\[ASSERT\] debug\.asc:\d+: Assertion `failAssert == 0' failed\. "
                 r"failAssert is 1 in block (\d)")
        asserts = [l for l in out if l.startswith("[ASSERT]")]
        ok = (1 <= len(asserts) <= 2 and all(re.fullmatch(first, l) for l in asserts)
              and out[-1] == "launch 0 sync 507035" and len(out) == len(asserts) + 1)
        if not ok:
            print("stdout:\n" + "\n".join(out))
            return 1
        return 0
    # global dumps carry the device address: normalise it
    norm = []
    i = 0
    while i < len(out):
        m = re.fullmatch(r"DumpTensor: desc=(\d+), addr=0x[0-9a-f]+, data_type=int32, position=GM, dump_size=\d+", out[i])
        if m and i + 1 < len(out):
            norm.append("GMDUMP desc=%s %s" % (m.group(1), out[i + 1]))
            i += 2
            continue
        norm.append(out[i])
        i += 1
    want = block_lines(0) + block_lines(1) + ["launch 0 sync 0"]
    if norm != want:
        print("stdout (normalised):\n" + "\n".join(norm) + "\nexpected:\n" + "\n".join(want))
        return 1
    err = open(os.path.join(work, "stderr.txt")).read()
    if "done" in err:
        print("KERNEL_LOG(KERNEL_INFO) must not reach stderr outside the CPU-debug mode")
        return 1
    return 0


if __name__ == "__main__":
    mode, work = sys.argv[1], sys.argv[2]
    case = sys.argv[3] if len(sys.argv) > 3 else ""
    sys.exit(0 if mode == "gen" else check(work, case))
