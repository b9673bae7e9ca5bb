#!/usr/bin/env python3
"""Runs the simnpu benchmarks and holds every figure against the machine limit
measured in the same run.

Called by bench/run.sh (which builds everything first); can also be run on
existing binaries:

  bench.py --limits <simnpu_bench_limits> --acl <bench_acl> --baseline <bench_baseline>
           [--out results.json] [--md results.md] [--quick] [--only ids] [--readme README.md]

Each binary prints JSON records, one per line: {"id", "unit", "what",
"samples", "info"} or {"id", "error"}. A row of the report is a record
(median, min and max over its samples) beside the limit record it is held
against, the ratio of their medians, the target and the verdict.
Python 3 standard library only.
"""
import argparse
import datetime
import json
import os
import platform
import shlex
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------- what runs

def steps(a):
    """Steps in order (limits first): name, invocations [(argv, extra env)],
    repeat (the invocations run round-robin this many times, each in a fresh
    process; samples of equal ids are pooled), timeout per invocation (s)."""
    q = a.quick
    reps = "3" if q else "9"
    big = "64M,256M" if q else "64M,256M,1G"
    ondemand = "256M" if q else "256M,1G"
    sample_sizes = "32K,1M,32M" if q else "32K,1M,32M,256M,1G"
    cold_sizes = "32K,1M,32M" if q else "32K,1M,32M,256M"
    over = "128M,512M" if q else "128M,512M,1G"

    def one(name, argv, env=None, timeout=300):
        return {"name": name, "runs": [(argv, env or {})], "repeat": 1, "timeout": timeout}

    return [
        one("limits", [a.limits, "all", "--reps", reps, "--sizes", big]),
        dict(one("launch", [a.acl, "launch", "--reps", reps]), repeat=1 if q else 3),
        *([dict(one("graph", [a.graph, "replay", "--reps", reps]), repeat=1 if q else 3)] if getattr(a, "graph", None) else []),
        one("prefetch", [a.acl, "prefetch", "--reps", reps, "--sizes", big, "--tag", "move"]),
        one("prefetch-partial", [a.acl, "prefetch", "--reps", "3" if q else "5", "--sizes", big,
                                 "--tag", "partial"]),
        one("prefetch-replica", [a.acl, "prefetch", "--reps", "3" if q else "5", "--sizes", "64M,256M",
                                 "--tag", "replica"]),
        one("prefetch-copy", [a.acl, "prefetch", "--reps", "3" if q else "5", "--sizes", "64M,256M", "--tag", "copy"],
            {"SIMNPU_UVM_MOVE": "0"}),
        one("ondemand", [a.acl, "ondemand", "--reps", "3" if q else "5", "--sizes", ondemand]),
        dict(one("fault", [a.acl, "fault", "--reps", reps], {"SIMNPU_UVM_FAULT_GRANULE": "4K"}),
             repeat=1 if q else 3),
        # the plain loops and the kernels alternate, process by process
        {"name": "vadd", "repeat": 1 if q else 3, "timeout": 300,
         "runs": [([a.baseline, "--reps", "3" if q else "5"], {}),
                  ([a.acl, "vadd", "--reps", "3" if q else "5", "--size", "64M", "--blocks", "48"], {}),
                  # the same kernels with the memory check off (its cost: row 6b)
                  ([a.acl, "vadd", "--reps", "3" if q else "5", "--size", "64M", "--blocks", "48",
                    "--tag", "nomemcheck"], {"SIMNPU_MEMCHECK": "0"})]},
        # vector API (issue 14b): ReduceSum kernel and the plain loop alternate, process by process
        *([{"name": "reduce", "repeat": 1 if q else 3, "timeout": 300,
            "runs": [([a.vector, "reduce", "--only", "loop", "--reps", "3" if q else "5", "--size", "16M"], {}),
                     ([a.vector, "reduce", "--only", "kernel", "--reps", "3" if q else "5", "--size", "16M",
                       "--blocks", "16"], {})]}] if a.vector else []),
        # cube (issue 15): the 1024^3 Matmul kernel and the BLAS sgemm alternate, process by process
        *([{"name": "matmul", "repeat": 1 if q else 3, "timeout": 600,
            "runs": [([a.cube, "matmul", "--only", "sgemm", "--reps", "2" if q else "3", "--size", "1024"], {}),
                     ([a.cube, "matmul", "--only", "kernel", "--reps", "2" if q else "3", "--size", "1024",
                       "--blocks", "16"], {})]}] if getattr(a, "cube", None) else []),
        # advanced API (issue 14c): SoftMax / LayerNorm kernels and the plain loops alternate
        *([{"name": op, "repeat": 1 if q else 3, "timeout": 300,
            "runs": [([a.adv, op, "--only", "loop", "--reps", "3" if q else "5", "--size", "16M"], {}),
                     ([a.adv, op, "--only", "kernel", "--reps", "3" if q else "5", "--size", "16M",
                       "--blocks", "16"], {})]} for op in ("softmax", "layernorm")] if getattr(a, "adv", None) else []),
        # aclnn operator API (issue 13): aclnnAdd, held against the vadd kernel row; the two
        # alternate process by process here too (their samples pool with the vadd step's), so
        # the ratio is not at the mercy of the machine's drift between two distant steps
        *([{"name": "aclnn", "repeat": 1 if q else 3, "timeout": 300,
            "runs": [([a.acl, "vadd", "--reps", "3" if q else "5", "--size", "64M", "--blocks", "48"], {}),
                     ([a.aclnn, "add", "--reps", "3" if q else "5", "--size", "64M"], {})]}]
          if getattr(a, "aclnn", None) else []),
        # managed and explicit alternate, process by process
        {"name": "sample", "repeat": 1 if q else 3, "timeout": 300,
         "runs": [([a.acl, "sample", "--mode", m, "--reps", "3", "--sizes", sample_sizes], {})
                  for m in ("managed", "explicit")]},
        {"name": "sample-cold", "repeat": 2 if q else 5, "timeout": 300,
         "runs": [([a.acl, "sample", "--mode", m, "--cold-only", "1", "--sizes", cold_sizes], {})
                  for m in ("managed", "explicit")]},
        # one process per working set, so a failure of one leaves the others
        {"name": "oversub", "repeat": 1, "timeout": 300,
         "runs": [([a.acl, "oversub", "--reps", "2" if q else "3", "--sizes", size, "--capacity", "256M"],
                   {"SIMNPU_DEVICE_MEMORY": "256M"}) for size in over.split(",")]},
        # cross-process rows (issue 9): each binary run measures its own limits beside them
        *([one("ipc", [a.ipc, "all", "--reps", reps])] if getattr(a, "ipc", None) else []),
        # the limits again at the end: their samples pool with the first ones,
        # so each limit spans the conditions of the whole run
        one("limits", [a.limits, "all", "--reps", reps, "--sizes", big]),
    ]

# ---------------------------------------------------------------- targets

SIZES = ["64MiB", "256MiB", "1GiB"]


def row_specs():
    """(row id, limit id, kind, target, section). kind 'ge': value/limit must be
    >= target (bandwidth); 'le': value/limit must be <= target (time).
    target None: reported, no target."""
    r = [("populate.fresh", "populate.recycled", "ge", None, "1 machine state")]
    for d in ("h2d", "d2h"):
        for s in SIZES:
            r.append((f"prefetch.{d}.move.{s}", f"memcpy.1t.{s}", "ge", 2.0, "2 prefetch (huge pages moved)"))
    for d in ("h2d", "d2h"):
        for s in SIZES:
            r.append((f"prefetch.{d}.partial.{s}", f"memcpy.1t.{s}", "ge", 0.8,
                      "2 prefetch (copy: partial blocks)"))
    for d in ("h2d", "d2h"):
        for s in SIZES:
            r.append((f"prefetch.{d}.replica.{s}", f"memcpy.1t.{s}", "ge", 0.8,
                      "2 prefetch (copy: read-mostly replicas)"))
            r.append((f"prefetch.{d}.replica.{s}", f"copyfresh.{s}", "ge", None,
                      "2 prefetch (copy: read-mostly replicas)"))
    for d in ("h2d", "d2h"):
        for s in SIZES:
            # kernels without UFFDIO_MOVE (before Linux 6.8) take this path
            r.append((f"prefetch.{d}.copy.{s}", f"memcpy.1t.{s}", "ge", None,
                      "2 prefetch (no UFFDIO_MOVE: SIMNPU_UVM_MOVE=0)"))
    for s in SIZES:
        r.append((f"ondemand.d2h.touch4k.{s}", f"memcpy.1t.{s}", "ge", 1.0, "3 on-demand migration"))
        r.append((f"ondemand.d2h.readall.{s}", f"memcpy.1t.{s}", "ge", 1.0, "3 on-demand migration"))
        r.append((f"hostread.resident.{s}", f"memcpy.1t.{s}", "ge", None, "3 on-demand migration"))
        r.append((f"ondemand.h2d.kernel.{s}", f"memcpy.1t.{s}", "ge", 1.0, "3 on-demand migration"))
        r.append((f"kernel.read.devres.{s}", f"memcpy.1t.{s}", "ge", None, "3 on-demand migration"))
    r.append(("fault.host4k", "uffd.missing.spin.4k.inproc", "le", 1.5, "4 fault latency"))
    r.append(("fault.host4k", "uffd.missing.spin.4k", "le", None, "4 fault latency"))
    r.append(("fault.host4k", "uffd.missing.block.4k", "le", None, "4 fault latency"))
    r.append(("launch.latency", "handoff.spin.inproc", "le", 2.0, "5 launch"))
    r.append(("launch.latency", "handoff.spin", "le", None, "5 launch"))
    r.append(("launch.latency", "handoff.block", "le", None, "5 launch"))
    r.append(("launch.throughput", "handoff.spin.inproc", "le", 2.0, "5 launch"))
    # issue 11: a replayed graph of N empty kernels against N launches (same run; same process)
    r.append(("graph.replay", "launch.throughput", "le", 0.5, "5b task-graph replay"))
    r.append(("graph.replay", "graph.launches.inproc", "le", None, "5b task-graph replay"))
    r.append(("vadd.kernel.f32", "vadd.loop.f32", "ge", 0.5, "6 vector add"))
    r.append(("vadd.kernel.f16", "vadd.loop.f16", "ge", 0.5, "6 vector add"))
    r.append(("vadd.kernel.f16", "vadd.f16c.f16", "ge", None, "6 vector add"))
    r.append(("reduce.kernel.f32", "reduce.loop.f32", "ge", 0.5, "9 vector ReduceSum (16 MiB)"))
    r.append(("matmul.kernel.f16f32", "matmul.sgemm.f32", "ge", 0.3, "10 cube Matmul 1024^3"))
    r.append(("softmax.kernel.f32", "softmax.loop.f32", "ge", 0.5, "9b advanced SoftMax (16 MiB)"))
    r.append(("layernorm.kernel.f32", "layernorm.loop.f32", "ge", 0.5, "9c advanced LayerNorm (16 MiB)"))
    r.append(("aclnn.add.f32", "vadd.kernel.f32", "ge", 0.8, "13 aclnn operator (64 MiB float32)"))
    # kernel memcheck on (the default) against off, same kernels, same run: at most 10 % cost
    r.append(("vadd.kernel.f32", "vadd.kernel.f32.nomemcheck", "ge", 0.9, "6b kernel memcheck cost"))
    r.append(("vadd.kernel.f16", "vadd.kernel.f16.nomemcheck", "ge", 0.9, "6b kernel memcheck cost"))
    for s in ["32KiB", "1MiB", "32MiB", "256MiB", "1GiB"]:
        r.append((f"sample.managed.{s}", f"sample.explicit.{s}", "le", 1.1, "7 sample z=x+y (warm)"))
    for s in ["32KiB", "1MiB", "32MiB", "256MiB", "1GiB"]:
        r.append((f"sample.cold.managed.{s}", f"sample.cold.explicit.{s}", "le", 1.1,
                  "7 sample z=x+y (cold: fresh process, alloc + one run + free)"))
    r.append(("oversub.0.5x", "memcpy.1t.256MiB", "ge", None, "8 oversubscription (device 256 MiB)"))
    for x in ["2x", "4x"]:
        r.append((f"oversub.{x}", "memcpy.1t.256MiB", "ge", None, "8 oversubscription (device 256 MiB)"))
        r.append((f"oversub.{x}", "oversub.0.5x", "ge", None, "8 oversubscription (device 256 MiB)"))
    r.append(("ipc.import.copy.64MiB", "ipc.memcpy.64MiB", "ge", 0.5, "10 IPC (two processes)"))
    r.append(("ipc.notify.roundtrip", "ipc.handoff.thread", "le", 10.0, "10 IPC (two processes)"))
    return r

# ---------------------------------------------------------------- running

def run_step(name, argv, env_extra, timeout, log):
    env = dict(os.environ)
    env.update(env_extra)
    shown = " ".join(f"{k}={v}" for k, v in env_extra.items())
    cmd = (shown + " " if shown else "") + " ".join(shlex.quote(x) for x in argv)
    print(f"[bench] {name}: {cmd}", file=sys.stderr, flush=True)
    t0 = time.time()
    try:
        p = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, text=True)
        out, err, rc = p.stdout, p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = (e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")) + f"\n[timeout after {timeout} s]"
        rc = -1
    dt = time.time() - t0
    if log:
        log.write(f"==== {name} ({dt:.1f} s, rc {rc}): {cmd}\n{out}\n---- stderr\n{err}\n")
    recs, errors = [], []
    for line in out.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            r = json.loads(line)
        except ValueError:
            continue
        r["step"] = name
        r["cmd"] = cmd
        if "error" in r:
            errors.append(r)
        else:
            recs.append(r)
    if rc != 0:
        tail = "\n".join(err.strip().splitlines()[-5:])
        errors.append({"id": name, "step": name, "error": f"exit code {rc}: {tail}"})
    print(f"[bench] {name}: {len(recs)} records, {dt:.1f} s" + (f", rc {rc}" if rc else ""), file=sys.stderr,
          flush=True)
    return recs, errors, dt


def summarize(r):
    s = r.get("samples") or []
    r["n"] = len(s)
    r["median"] = statistics.median(s) if s else None
    r["min"] = min(s) if s else None
    r["max"] = max(s) if s else None
    return r

def derived_limits(recs):
    """Limits computed from measured ones. copyfresh.<size>: a copy into
    memory that has to be populated first (the kernel zeroes every new page):
    memcpy and populate one after the other, 1 / (1/memcpy + 1/populate)."""
    by = {r["id"]: r for r in recs}
    out = []
    pop = by.get("populate.fresh")
    for s in SIZES:
        mc = by.get(f"memcpy.1t.{s}")
        if not pop or not mc or not pop.get("median") or not mc.get("median"):
            continue
        comb = lambda a, b: 1.0 / (1.0 / a + 1.0 / b)
        r = {"id": f"copyfresh.{s}", "unit": "GB/s",
             "what": f"derived: memcpy.1t.{s} then populate.fresh in series (a copy into freshly populated "
                     f"memory; the kernel zeroes each new page first)",
             "samples": [], "n": min(mc["n"], pop["n"]), "median": comb(mc["median"], pop["median"]),
             "min": comb(mc["min"], pop["min"]), "max": comb(mc["max"], pop["max"]), "step": "derived"}
        out.append(r)
    return out

# ---------------------------------------------------------------- report

def fmt(v):
    if v is None:
        return "-"
    a = abs(v)
    if a >= 1000:
        return f"{v:,.0f}"
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    return f"{v:.3g}"


def build_rows(recs):
    by = {r["id"]: r for r in recs}
    rows = []
    for rid, lid, kind, target, section in row_specs():
        if rid not in by:
            continue
        r, l = by[rid], by.get(lid)
        row = {"section": section, "id": rid, "unit": r["unit"], "median": r["median"], "min": r["min"],
               "max": r["max"], "n": r["n"], "limit_id": lid, "limit_unit": l["unit"] if l else None,
               "limit_median": l["median"] if l else None, "limit_min": l["min"] if l else None,
               "limit_max": l["max"] if l else None, "kind": kind, "target": target}
        ratio = None
        if l and l["median"]:
            ratio = r["median"] / l["median"]
        row["ratio"] = ratio
        if target is None or ratio is None:
            row["verdict"] = "info" if ratio is not None else "no limit"
            row["shortfall"] = None
        elif (kind == "ge" and ratio >= target) or (kind == "le" and ratio <= target):
            row["verdict"] = "ok"
            row["shortfall"] = None
        else:
            # how many times better the figure has to get to meet the target
            row["shortfall"] = target / ratio if kind == "ge" else ratio / target
            row["verdict"] = "MISS"
        rows.append(row)
    return rows


def target_text(row):
    if row["target"] is None:
        return "-"
    return (">= " if row["kind"] == "ge" else "<= ") + f"{row['target']:g}x"


def verdict_text(row):
    if row["verdict"] == "MISS":
        if row["kind"] == "ge":
            return f"**MISS**: {row['shortfall']:.2f}x too slow"
        return f"**MISS**: {row['shortfall']:.2f}x too slow"
    return row["verdict"]


def markdown(rows, meta, recs):
    out = []
    out.append(f"Run {meta['timestamp']} on `{meta['host']}` ({meta['cpus']} CPUs, {meta.get('cpu_model', '?')}, "
               f"{meta.get('memory_gib', '?')} GiB, Linux {meta.get('kernel', '?')}, load average "
               f"{meta['load_before']} before the run), simnpu `{meta['git']}`; total {meta['total_seconds']:.0f} s. "
               "Each figure: median [min-max] over repeated samples; the limit beside it was measured in the same run; "
               "ratio = figure / limit (medians).")
    out.append("")
    out.append("Limits and baselines measured in this run:")
    out.append("")
    out.append("| limit | median [min-max] | unit | n | what |")
    out.append("|---|---|---|---|---|")
    for r in recs:
        if r.get("step") == "limits" or r["id"].endswith(".inproc") or r["id"].startswith(("vadd.loop", "vadd.f16c", "reduce.loop", "matmul.sgemm", "softmax.loop", "layernorm.loop")) or r["id"].endswith(".nomemcheck"):
            out.append(f"| `{r['id']}` | {fmt(r['median'])} [{fmt(r['min'])}-{fmt(r['max'])}] | {r['unit']} | {r['n']} | "
                       f"{r['what']} |")
    out.append("")
    out.append("Figures held against them:")
    out.append("")
    out.append("| # | figure | median [min-max] | unit | held against (same run) | limit median [min-max] | ratio | target | verdict |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        sec = row["section"].split(" ", 1)[0]
        val = f"{fmt(row['median'])} [{fmt(row['min'])}-{fmt(row['max'])}]"
        lim = f"{fmt(row['limit_median'])} [{fmt(row['limit_min'])}-{fmt(row['limit_max'])}]"
        ratio = f"{row['ratio']:.2f}x" if row["ratio"] is not None else "-"
        out.append(f"| {sec} | `{row['id']}` | {val} | {row['unit']} | `{row['limit_id']}` | {lim} | {ratio} | "
                   f"{target_text(row)} | {verdict_text(row)} |")
    return "\n".join(out)


def compile_flags(build):
    """The compile commands of the kernels and of the baseline loops (they must match)."""
    flags = {}
    try:
        with open(os.path.join(build, "compile_commands.json")) as f:
            for e in json.load(f):
                name = os.path.basename(e["file"])
                if name in ("auto_gen_bench_kernels.cpp", "baseline_loops.cpp", "bench_acl.cpp"):
                    cmd = e.get("command") or " ".join(e.get("arguments", []))
                    keep = [w for w in shlex.split(cmd)[1:] if w.startswith(("-O", "-f", "-m", "-std", "-g"))]
                    flags[name] = " ".join(keep)
    except (OSError, ValueError) as err:
        flags["error"] = str(err)
    if any("-march" in v for v in flags.values()):
        print("[bench] warning: -march found in compile flags", file=sys.stderr)
    return flags


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "?"


def mem_gib():
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / (1 << 20), 1)
    except OSError:
        pass
    return "?"


def update_readme(path, md):
    begin, end = "<!-- BEGIN LATEST RESULTS (bench/run.sh --update-readme) -->", "<!-- END LATEST RESULTS -->"
    text = open(path).read()
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < 0:
        print(f"[bench] {path}: no results markers; not updated", file=sys.stderr)
        return
    text = text[: i + len(begin)] + "\n" + md + "\n" + text[j:]
    with open(path, "w") as f:
        f.write(text)
    print(f"[bench] updated {path}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limits", required=True)
    ap.add_argument("--acl", required=True)
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--vector", default=None, help="bench_vector (vector-API kernels vs plain loops)")
    ap.add_argument("--cube", default=None, help="bench_cube (Matmul kernel vs BLAS sgemm)")
    ap.add_argument("--adv", default=None, help="bench_adv (advanced-API kernels vs plain loops)")
    ap.add_argument("--graph", default=None, help="bench_graph (captured task-graph replay vs launches)")
    ap.add_argument("--aclnn", default=None, help="bench_aclnn (aclnnAdd vs the vector-add kernel row)")
    ap.add_argument("--ipc", default=None, help="simnpu_bench_ipc (cross-process rows, issue 9)")
    ap.add_argument("--out", default=None, help="JSON output (default bench/results/<timestamp>.json)")
    ap.add_argument("--md", default=None, help="markdown table output (default: next to the JSON)")
    ap.add_argument("--log", default=None, help="raw output of every step (default: next to the JSON)")
    ap.add_argument("--quick", action="store_true", help="fewer samples and sizes (a smoke run, ~2 min)")
    ap.add_argument("--only", default=None, help="comma-separated step names to run")
    ap.add_argument("--readme", action="append", default=[],
                    help="rewrite the 'Latest results' section of this README (repeatable)")
    ap.add_argument("--project-build", default=None,
                    help="build folder of bench/project: its compile flags are recorded")
    a = ap.parse_args()

    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out = a.out or os.path.join(HERE, "results", stamp + ".json")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    base = out[:-5] if out.endswith(".json") else out
    md_path = a.md or base + ".md"
    log_path = a.log or base + ".log"

    meta = {
        "timestamp": stamp,
        "host": socket.gethostname(),
        "kernel": platform.release(),
        "cpu_model": cpu_model(),
        "memory_gib": mem_gib(),
        "cpus": os.cpu_count(),
        "load_before": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "quick": a.quick,
        "env": {k: v for k, v in os.environ.items() if k.startswith("SIMNPU_") or k in ("SOC_VERSION",)},
    }
    try:
        meta["git"] = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True).stdout.strip() or "?"
        dirty = subprocess.run(["git", "-C", HERE, "status", "--porcelain", "--untracked-files=no"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout.strip()
        if dirty:
            meta["git"] += "+local changes"
    except OSError:
        meta["git"] = "?"
    if a.project_build:
        meta["compile"] = compile_flags(a.project_build)
    if meta["load_before"].split()[0] and float(meta["load_before"].split()[0]) > 0.5:
        print(f"[bench] warning: load average {meta['load_before']}: other work shares the CPUs; figures will be "
              "noisy (the ratios less so, since each limit is measured in the same run)", file=sys.stderr)

    t0 = time.time()
    recs, errors, durations = [], [], {}
    only = set(a.only.split(",")) if a.only else None
    pooled = {}  # id -> record; samples of equal ids pool across processes and steps
    with open(log_path, "w") as log:
        for st in steps(a):
            if only and st["name"] not in only:
                continue
            t_step = 0.0
            for rep in range(st["repeat"]):
                for argv, env in st["runs"]:
                    rs, es, dt = run_step(st["name"], argv, env, st["timeout"], log)
                    t_step += dt
                    errors += es
                    for r in rs:
                        if r["id"] in pooled:
                            pooled[r["id"]]["samples"] += r["samples"]
                            pooled[r["id"]]["processes"] += 1
                        else:
                            r["processes"] = 1
                            pooled[r["id"]] = r
            durations[st["name"]] = round(durations.get(st["name"], 0) + t_step, 1)
    recs = [summarize(r) for r in pooled.values()]
    recs += derived_limits(recs)
    meta["total_seconds"] = time.time() - t0
    meta["step_seconds"] = durations
    meta["load_after"] = " ".join(f"{x:.2f}" for x in os.getloadavg())

    rows = build_rows(recs)
    md = markdown(rows, meta, recs)
    result = {"meta": meta, "rows": rows, "records": recs, "errors": errors}
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
    with open(md_path, "w") as f:
        f.write(md + "\n")

    print(md)
    print()
    misses = [r for r in rows if r["verdict"] == "MISS"]
    if misses:
        print("Targets missed:")
        for r in misses:
            print(f"  {r['id']}: ratio {r['ratio']:.2f}x against {r['limit_id']}, target {target_text(r)}: "
                  f"needs to be {r['shortfall']:.2f}x better")
    else:
        print("Every target met.")
    if errors:
        print("Errors:")
        for e in errors:
            print(f"  [{e.get('step')}] {e.get('id')}: {e.get('error')}")
    print(f"\nJSON: {out}\nmarkdown: {md_path}\nraw output: {log_path}")
    for path in a.readme:
        update_readme(path, md)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
