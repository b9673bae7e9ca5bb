"""hello.asc: 8 blocks, each prints its two lines together, in block order,
between the host's launch and sync lines; then device output appears at an
event synchronize and at a stream destroy, never before."""
import os
import sys


def check(work):
    lines = open(os.path.join(work, "stdout.txt")).read().splitlines()
    want = ["launch returned 0"]
    for b in range(8):
        want += ["Hello from block %d of 8" % b, "  value %d" % (100 + b)]
    want.append("sync returned 0")
    want.append("second launch")
    for b in range(2):
        want += ["Hello from block %d of 2" % b, "  value %d" % (200 + b)]
    want += ["event synchronized", "third launch", "Hello from block 0 of 1", "  value 300",
             "stream destroyed"]
    if lines != want:
        print("stdout:\n" + "\n".join(lines) + "\nexpected:\n" + "\n".join(want))
        return 1
    return 0


if __name__ == "__main__":
    mode, work = sys.argv[1], sys.argv[2]
    sys.exit(check(work) if mode == "check" else 0)
