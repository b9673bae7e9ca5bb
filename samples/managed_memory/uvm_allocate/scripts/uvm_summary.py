#!/usr/bin/env python3
"""Explains in plain words what unified memory did during a sample run.

usage: uvm_summary.py <report file> [managed|explicit]
The report file is the text simnpu writes at aclFinalize when the program
runs with SIMNPU_UVM_REPORT=<file> (its counters since the process started).
Prints one paragraph. Exit 0, also when the report is not recognised (then
it says so), 1 only on usage errors or an unreadable file.
"""
import re
import sys

PAGE = 4096
MIB = 1 << 20

# report line pattern -> the counters its groups hold, in order
FIELDS = [
    (r"host page faults\s+(\d+)\s+\(first touch (\d+), migration from a device (\d+)",
     ("host_faults", "host_first", "host_migrate")),
    (r"device page faults\s+(\d+)\s+\(first touch (\d+), migration from [^;]*? (\d+);",
     ("dev_faults", "dev_first", "dev_migrate")),
    (r"migrated host->device\s+(\d+) pages", ("pages_h2d",)),
    (r"migrated device->host\s+(\d+) pages", ("pages_d2h",)),
    (r"migrated device->dev\s+(\d+) pages", ("pages_d2d",)),
    (r"populated on host\s+(\d+) pages, on devices (\d+) pages", ("pop_host", "pop_dev")),
    (r"whole 2 MiB blocks moved without copying: (\d+), copied migrations: (\d+)", ("blocks_moved", "copied")),
    (r"read replicas (\d+)", ("replicas",)),
    (r"evictions (\d+)", ("evictions",)),
    (r"explicit copy calls \(aclrtMemcpy\*\) (\d+)", ("copies",)),
    (r"explicit set calls \(aclrtMemset\*\) (\d+)", ("sets",)),
]


def parse(text):
    values = {}
    for pattern, names in FIELDS:
        match = re.search(pattern, text)
        if match is None:
            return None, names[0]
        for index, name in enumerate(names, start=1):
            values[name] = int(match.group(index))
    mode = re.search(r"unified memory report \(([^)]*)\)", text)
    values["mode"] = mode.group(1) if mode else "unknown mode"
    return values, None


def size(pages):
    return f"{pages} pages ({pages * PAGE / MIB:.2f} MiB)"


def plural(count, word):
    return f"{count} {word}" + ("" if count == 1 else "s")


def first_touches(count):
    return f"{count} was a first touch" if count == 1 else f"{count} were first touches"


def summary(c, variant):
    if not c["mode"].startswith("userfaultfd"):
        return (f"Unified memory ran in host-pinned mode ({c['mode']}): managed memory stayed ordinary "
                "host memory that the device reached directly, so no page faulted and nothing migrated. "
                "The runtime's warning on stderr says why and how to get real faults.")
    moved = c["pages_h2d"] + c["pages_d2h"] + c["pages_d2d"]
    faults = c["host_faults"] + c["dev_faults"]
    calls = (f"{plural(c['copies'], 'explicit copy call')} (aclrtMemcpy*) "
             f"and {plural(c['sets'], 'set call')} (aclrtMemset*)")
    if faults == 0 and moved == 0 and c["pop_host"] + c["pop_dev"] == 0:
        return (f"Unified memory summary: no managed page was touched (0 page faults, nothing migrated); "
                f"the program moved its data with {calls}.")
    parts = [f"The program made {calls}."]
    parts.append(f"The host took {plural(c['host_faults'], 'page fault')}: "
                 f"{first_touches(c['host_first'])} that created "
                 f"{size(c['pop_host'])} in host memory; {c['host_migrate']} pulled data back from a device.")
    parts.append(f"The device took {plural(c['dev_faults'], 'page fault')}: "
                 f"{first_touches(c['dev_first'])} that created {size(c['pop_dev'])} straight in device memory; "
                 f"{c['dev_migrate']} pulled data over from the host.")
    parts.append(f"Migration moved {size(c['pages_h2d'])} host->device and {size(c['pages_d2h'])} "
                 f"device->host ({plural(c['blocks_moved'], 'whole 2 MiB block')} moved without copying, "
                 f"{plural(c['copied'], 'migration')} copied).")
    if c["replicas"] == 0 and c["evictions"] == 0 and c["pages_d2d"] == 0:
        on_host = c["pop_host"] - c["pages_h2d"] + c["pages_d2h"]
        on_dev = c["pop_dev"] + c["pages_h2d"] - c["pages_d2h"]
        parts.append(f"Before the buffers were freed, {size(on_dev)} lived on the device and "
                     f"{size(on_host)} on the host.")
    sample_pattern = (c["host_first"] == 2 and c["host_migrate"] == 1 and c["dev_first"] == 1
                      and c["dev_migrate"] == 2)
    if variant == "managed" and sample_pattern:
        parts.append("In this sample: reading the input files into x and y first touched them on the host; "
                     "the kernel's first reads of x and y moved them to the device; its first write to z "
                     "created z in device memory; writing output_z.bin from z brought z back to the host. "
                     "Each 32 KiB buffer sits in its own 2 MiB block, which moves as a whole.")
    if c["copies"] == 0 and c["sets"] == 0 and moved > 0:
        parts.append("No copy API was called: the data reached the kernel and came back by page faults alone.")
    elif moved == 0:
        parts.append("No page was migrated.")
    return "Unified memory summary: " + " ".join(parts)


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: uvm_summary.py <report file> [managed|explicit]", file=sys.stderr)
        return 1
    variant = argv[2] if len(argv) == 3 else "managed"
    try:
        with open(argv[1], encoding="utf-8") as report:
            text = report.read()
    except OSError as exc:
        print(f"cannot read the unified-memory report: {exc}", file=sys.stderr)
        return 1
    counters, missing = parse(text)
    if counters is None:
        print(f"Unified memory summary: the report format was not recognised (no '{missing}' field); "
              "see the report above.")
        return 0
    print(summary(counters, variant))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
