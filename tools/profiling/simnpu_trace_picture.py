#!/usr/bin/env python3
"""Draws a simnpu profiling trace (msprof_<ts>.json) as a PNG.

Top: one lane per stream with its tasks (kernels, copies, memsets, event
records and waits, host functions). Below: one panel per managed allocation,
page offset (MiB) against time, coloured by where each page range lives
(host, a device, or several sides for read-only replicas; white = no page
yet), with each migration drawn as an arrow over the pages it moved,
coloured by its destination.

    python3 simnpu_trace_picture.py TRACE.json -o picture.png [--describe lanes.json]

--describe also writes the lanes and panels the picture has (tests read it).
Needs python3-matplotlib (Debian package).
"""

import argparse
import json
import sys

PAGE = 4096
HOST_PID = 0
DEV_PID = 100
UVM_TID = 1000000000

SIDE_COLORS = {"host": "#4c78a8", "device 0": "#f58518", "device 1": "#54a24b", "device 2": "#b279a2",
               "device 3": "#e45756"}
REPLICA_COLOR = "#9d755d"
TASK_COLORS = {"kernel": "#e45756", "memcpy": "#4c78a8", "memset": "#72b7b2", "task": "#bab0ac", "graph": "#b279a2"}


def side_color(name):
    return SIDE_COLORS.get(name, "#888888")


def load_events(path):
    with open(path) as f:
        data = json.load(f)
    return data["traceEvents"] if isinstance(data, dict) else data


def stream_lanes(events):
    """{(pid, tid): [(ts, dur, cat, name)]} of stream tasks."""
    lanes = {}
    for e in events:
        if e.get("ph") != "X" or e.get("pid", 0) < DEV_PID or e.get("tid", 0) >= UVM_TID:
            continue
        lanes.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e.get("dur", 0.0), e.get("cat", "task"), e["name"]))
    return lanes


def allocations(events):
    """[(base, size, t_alloc, t_free)] of managed allocations, in order."""
    allocs = []
    for e in events:
        if e.get("name") == "managed alloc":
            a = e["args"]
            allocs.append([int(a["address"], 16), int(a["bytes"]), e["ts"], None])
        elif e.get("name") == "managed free":
            base = int(e["args"]["address"], 16)
            for al in allocs:
                if al[0] == base and al[3] is None:
                    al[3] = e["ts"]
    return allocs


def residency_segments(events, base, size, t_end):
    """Replays the residency events of [base, base+size): returns rectangles
    (first_page, pages, t0, t1, sides) and migrations (t, first_page, pages, to)."""
    npages = (size + PAGE - 1) // PAGE
    state = [frozenset()] * npages
    since = [None] * npages
    rects = []
    moves = []

    def close(p, t):
        if state[p] and since[p] is not None and t > since[p]:
            rects.append((p, since[p], t, state[p]))

    for e in events:
        if e.get("cat") != "uvm" or e.get("ph") != "i" or "from" not in e.get("args", {}):
            continue
        a = e["args"]
        addr, n = int(a["address"], 16), int(a["bytes"])
        if addr + n <= base or addr >= base + size:
            continue
        p0 = max(0, (addr - base) // PAGE)
        p1 = min(npages, (addr + n - base + PAGE - 1) // PAGE)
        op, src, dst, t = e["name"], a["from"], a["to"], e["ts"]
        for p in range(p0, p1):
            s = set(state[p])
            if op == "populate":
                s.add(dst)
            elif op == "migrate":
                s.discard(src)
                s.add(dst)
            elif op == "replica":
                s.add(dst)
            elif op == "invalidate":
                s.discard(src)
            s = frozenset(s)
            if s != state[p]:
                close(p, t)
                state[p] = s
                since[p] = t
        if op == "migrate":
            moves.append((t, p0, p1 - p0, dst, a.get("method", "copied")))
    faults = []
    for e in events:
        if e.get("name") not in ("host fault", "device fault"):
            continue
        addr = int(e["args"]["address"], 16)
        if base <= addr < base + size:
            faults.append((e["ts"], (addr - base) // PAGE, e["name"]))
    for p in range(npages):
        close(p, t_end)
    # Merge runs of consecutive pages with the same segment.
    rects.sort(key=lambda r: (r[1], r[2], sorted(r[3]), r[0]))
    merged = []
    for p, t0, t1, s in rects:
        if merged and merged[-1][2] == t0 and merged[-1][3] == t1 and merged[-1][4] == s and \
                merged[-1][0] + merged[-1][1] == p:
            merged[-1][1] += 1
        else:
            merged.append([p, 1, t0, t1, s])
    return merged, moves, faults


def draw(events, out_png, describe=None, title=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    lanes = stream_lanes(events)
    allocs = allocations(events)
    ts = [e["ts"] + e.get("dur", 0.0) for e in events if "ts" in e]
    t_end = max(ts) if ts else 1.0
    t_begin = min(al[2] for al in allocs) if allocs else 0.0
    for tasks in lanes.values():
        t_begin = min([t_begin] + [t[0] for t in tasks])
    ms = lambda us: (us - t_begin) / 1000.0  # noqa: E731

    n_panels = 1 + len(allocs)
    heights = [max(1.0, 0.5 * len(lanes))] + [2.5] * len(allocs)
    fig, axes = plt.subplots(n_panels, 1, figsize=(12, 1.5 + sum(heights)), sharex=True,
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    axes = [a[0] for a in axes]

    # Stream lanes.
    ax = axes[0]
    lane_keys = sorted(lanes)
    lane_names = []
    for i, key in enumerate(lane_keys):
        pid, tid = key
        lane_names.append("NPU %d stream %d" % (pid - DEV_PID, tid))
        for t0, dur, cat, name in lanes[key]:
            ax.broken_barh([(ms(t0), max(dur / 1000.0, 1e-4))], (i - 0.4, 0.8), color=TASK_COLORS.get(cat, "#bab0ac"))
            if cat == "kernel":
                ax.text(ms(t0), i, " " + name, va="center", ha="left", fontsize=8)
    ax.set_yticks(range(len(lane_keys)))
    ax.set_yticklabels(lane_names)
    ax.set_ylim(-0.6, max(0.6, len(lane_keys) - 0.4))
    ax.set_title(title or "streams and unified memory")
    ax.legend(handles=[Patch(color=c, label=k) for k, c in TASK_COLORS.items() if k in
                       {t[2] for v in lanes.values() for t in v}] or [Patch(color="#ffffff", label="no tasks")],
              loc="upper right", fontsize=7)

    panels = []
    for ax, (base, size, t_alloc, t_free) in zip(axes[1:], allocs):
        rects, moves, faults = residency_segments(events, base, size, t_free if t_free is not None else t_end)
        unit, scale = ("MiB", 2**20) if size >= 2**20 else ("KiB", 2**10)
        sides_seen = set()
        for p, n, t0, t1, s in rects:
            if len(s) == 1:
                color = side_color(next(iter(s)))
            else:
                color = REPLICA_COLOR
            sides_seen.add(" + ".join(sorted(s)) if len(s) > 1 else next(iter(s)))
            ax.broken_barh([(ms(t0), max((t1 - t0) / 1000.0, 1e-4))], (p * PAGE / scale, n * PAGE / scale),
                           color=color, alpha=0.85 if len(s) == 1 else 0.6, hatch=None if len(s) == 1 else "//")
        for t, p, n, dst, method in moves:
            y0, y1 = p * PAGE / scale, min(p + n, size // PAGE) * PAGE / scale
            ax.annotate("", xy=(ms(t), y1), xytext=(ms(t), y0),
                        arrowprops=dict(arrowstyle="-|>", color="black" if method == "moved" else side_color(dst),
                                        lw=1.2))
            ax.plot([ms(t)], [y1], marker="o", ms=3, color=side_color(dst))
        for t, p, kind in faults:
            ax.plot([ms(t)], [p * PAGE / scale], marker="v" if kind == "host fault" else "^", ms=7,
                    color="black", linestyle="none")
        ax.set_ylim(0, size / scale)
        ax.set_ylabel(unit)
        ax.set_title("managed 0x%x (%d %s): %d fault(s) (v host, ^ device), %d migration(s) (arrows)" %
                     (base, size // scale, unit, len(faults), len(moves)), fontsize=9)
        handles = [Patch(color=side_color(s) if " + " not in s else REPLICA_COLOR, label=s) for s in sorted(sides_seen)]
        if handles:
            ax.legend(handles=handles, loc="upper right", fontsize=7)
        panels.append({"address": "0x%x" % base, "bytes": size, "segments": len(rects), "migrations": len(moves),
                       "host_faults": sum(1 for f in faults if f[2] == "host fault"),
                       "device_faults": sum(1 for f in faults if f[2] == "device fault"),
                       "sides": sorted(sides_seen)})
    axes[-1].set_xlabel("time (ms since the first allocation or task)")
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)
    desc = {"stream_lanes": lane_names, "allocations": panels,
            "kernels": sorted({t[3] for v in lanes.values() for t in v if t[2] == "kernel"})}
    if describe:
        with open(describe, "w") as f:
            json.dump(desc, f, indent=2)
    return desc


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace", help="msprof_<ts>.json written by a simnpu profiling session")
    ap.add_argument("-o", "--output", default="trace.png", help="PNG to write")
    ap.add_argument("--describe", help="also write the lanes and panels as JSON here")
    ap.add_argument("--title", help="title of the picture")
    args = ap.parse_args(argv[1:])
    desc = draw(load_events(args.trace), args.output, args.describe, args.title)
    print("%s: %d stream lane(s), %d managed allocation(s)" % (args.output, len(desc["stream_lanes"]),
                                                              len(desc["allocations"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
