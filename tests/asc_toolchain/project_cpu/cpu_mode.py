"""cpu_mode.asc: KERNEL_LOG lines in block order, in both launches."""
import os
import re
import sys


def check(work):
    out = open(os.path.join(work, "stdout.txt")).read().splitlines()
    want = ["squared %d" % v for v in (1, 4, 9, 16, 25, 36)]
    got = []
    for line in out[:-1]:
        m = re.fullmatch(r"\[INFO\]\[Block_(\d)\]\[AIV_0\]\[cpu_mode\.asc:\d+\]\[square\] (.*)", line)
        if not m:
            print("unexpected line: %r" % line)
            return 1
        got.append(m.group(2))
    if got != want or out[-1] != "cpu mode: ok":
        print("stdout:\n" + "\n".join(out))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(0 if sys.argv[1] == "gen" else check(sys.argv[2]))
