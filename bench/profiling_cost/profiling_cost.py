#!/usr/bin/env python3
"""Runs bench_acl's launch benchmark against three builds/settings,
interleaved round by round, and reports medians and ratios:

  compiled out  libacl_rt.so built with SIMNPU_TRACE_SITES=OFF
  off           the regular libacl_rt.so, no session recording
  on            the regular libacl_rt.so with SIMNPU_PROFILE (everything recorded)

Targets (issue 12): off within 5 % of compiled out; on within 15 % of off
(launch throughput, medians of the same run).

The variants run as separate processes, one after the other in each round
(the order rotates), so slow drift of the machine and the placement of a
process's threads on the two vCPUs (which makes one process several tens of
percent faster than the next) move every variant of a round alike. Each
ratio is reported twice: of the pooled medians, and as the median of the
per-round ratios (paired: each round's variants against each other), which
is what the verdict uses.

With --instructions (needs valgrind) each variant also runs under callgrind
at two launch counts: the difference of the instructions executed, divided
by the difference of the launches, is the instructions per launch (submit,
the worker's run of the task, its destruction), start-up and the other
steps cancelling out. Unlike time, that count does not depend on the load of
the machine or where the threads run, so it shows what the sites cost in
work, exactly; cache effects are not in it (a site's test of the global mask
reads a line nobody writes). Only the variants that do not record are
counted: a recording run also writes its trace at exit, work that grows
with the launches too and would be counted as theirs.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile


def run(bench, env_extra, ld_first, args):
    env = dict(os.environ)
    env.update(env_extra)
    env["LD_LIBRARY_PATH"] = ld_first + ":" + env.get("LD_LIBRARY_PATH", "")
    p = subprocess.run([bench, "launch"] + args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       check=False)
    if p.returncode != 0:
        sys.exit("bench_acl failed (%d): %s" % (p.returncode, p.stderr[-2000:]))
    rows = {}
    for line in p.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            r = json.loads(line)
            if "samples" in r:
                rows[r["id"]] = r["samples"]
    return rows


def instructions_per_launch(bench, env_extra, ld_first, n1=2000, n2=6000):
    """Callgrind instruction count per launch (see the module comment)."""
    counts = []
    for n in (n1, n2):
        env = dict(os.environ)
        env.update(env_extra)
        # valgrind cannot reserve the default device windows; spinning would
        # make the count depend on scheduling
        env.update({"SIMNPU_DEVICE_MEMORY": "1G", "SIMNPU_DEVICE_COUNT": "1", "SIMNPU_SPIN_US": "0",
                    "SIMNPU_HELPER_SPIN_US": "0"})
        env["LD_LIBRARY_PATH"] = ld_first + ":" + env.get("LD_LIBRARY_PATH", "")
        p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", bench, "launch",
                            "--reps", "1", "--latency-launches", "10", "--throughput-launches", str(n)],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False)
        got = [ln for ln in p.stderr.splitlines() if "Collected :" in ln]
        if p.returncode != 0 or not got:
            sys.exit("callgrind run failed (%d): %s" % (p.returncode, p.stderr[-2000:]))
        counts.append(int(got[-1].split(":")[-1].strip()))
    return (counts[1] - counts[0]) / float(n2 - n1)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--installed-lib", required=True)
    ap.add_argument("--nosites-lib", help="libacl_rt.so built with SIMNPU_TRACE_SITES=OFF (column left out without)")
    ap.add_argument("--before-lib", help="another build (e.g. main before a change): its off and on run in the "
                                         "same rounds, so the ratios of both builds come from one run")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--instructions", action="store_true",
                    help="also count instructions per launch of each variant under callgrind")
    ap.add_argument("--out")
    a = ap.parse_args()
    prof_dir = tempfile.mkdtemp(prefix="simnpu_profcost_")
    on_env = {"SIMNPU_PROFILE": prof_dir, "SIMNPU_PROFILE_QUIET": "1"}
    variants = []
    if a.nosites_lib:
        variants.append(("compiled out", {}, a.nosites_lib))
    variants += [("off", {}, a.installed_lib), ("on", on_env, a.installed_lib)]
    if a.before_lib:
        variants += [("before off", {}, a.before_lib), ("before on", on_env, a.before_lib)]
    args = ["--reps", "3", "--latency-launches", "500", "--throughput-launches", "5000"]
    samples = {name: {"launch.throughput": [], "launch.latency": []} for name, _, _ in variants}
    per_round = []  # one dict per round: variant -> metric -> median of that process
    nv = len(variants)
    for r in range(a.rounds):
        order = variants[r % nv:] + variants[:r % nv]  # rotate, so no variant always runs first
        this_round = {}
        for name, env, lib in order:
            rows = run(a.bench, env, lib, args)
            this_round[name] = {}
            for k in samples[name]:
                v = rows.get(k, [])
                samples[name][k] += v
                if v:
                    this_round[name][k] = statistics.median(v)
        per_round.append(this_round)
        shutil.rmtree(prof_dir, ignore_errors=True)
        os.makedirs(prof_dir, exist_ok=True)
    med = {n: {k: statistics.median(v) for k, v in d.items() if v} for n, d in samples.items()}
    result = {"rounds": a.rounds, "medians_us": med, "samples_us": samples, "per_round_us": per_round}
    names = [n for n, _, _ in variants]
    ratios = [("on / off", "on", "off")]
    if a.nosites_lib:
        ratios.insert(0, ("off / compiled out", "off", "compiled out"))
    if a.before_lib:
        ratios += [("before on / before off", "before on", "before off"), ("off / before off", "off", "before off")]
    lines = ["| metric | " + " | ".join(names) + " | " +
             " | ".join("%s (pooled; paired [q1-q3])" % r[0] for r in ratios) + " |",
             "|---" * (1 + len(names) + len(ratios)) + "|"]
    for k, unit in (("launch.throughput", "us/launch"), ("launch.latency", "us")):
        result[k] = {}
        result[k + ".pooled"] = {}
        cells = ["%.3f" % med[n][k] for n in names]
        for label, num, den in ratios:
            pooled = med[num][k] / med[den][k]
            qs = sorted(rd[num][k] / rd[den][k] for rd in per_round if k in rd[num] and k in rd[den])
            paired = statistics.median(qs)
            q1, q3 = qs[len(qs) // 4], qs[(3 * len(qs)) // 4]
            result[k][label] = paired
            result[k + ".pooled"][label] = pooled
            cells.append("%.3f; %.3f [%.3f-%.3f]" % (pooled, paired, q1, q3))
        lines.append("| %s (%s) | %s |" % (k, unit, " | ".join(cells)))
    if a.instructions:
        ipl = {name: instructions_per_launch(a.bench, env, lib) for name, env, lib in variants
               if "SIMNPU_PROFILE" not in env}
        result["instructions_per_launch"] = ipl
        lines.append("| instructions per launch (callgrind) | " +
                     " | ".join("%.0f" % ipl[n] if n in ipl else "-" for n in names) + " | " +
                     " | ".join("%.3f" % (ipl[num] / ipl[den]) if num in ipl and den in ipl else "-"
                                for _, num, den in ratios) + " |")
    t = result["launch.throughput"]
    verdict = []
    if a.nosites_lib:
        verdict.append("off within 5 %%: %s" % ("yes" if t["off / compiled out"] <= 1.05 else "NO"))
    verdict.append("on within 15 %%: %s" % ("yes" if t["on / off"] <= 1.15 else "NO"))
    lines.append("")
    lines.append("Targets (launch throughput, paired median ratios of this run's %d rounds): " % a.rounds +
                 "; ".join(verdict))
    print("\n".join(lines))
    result["table"] = lines
    if a.out:
        os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
        with open(a.out, "w") as f:
            json.dump(result, f, indent=2)
        print("written: " + a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
