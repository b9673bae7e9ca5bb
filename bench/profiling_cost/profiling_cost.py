#!/usr/bin/env python3
"""Runs bench_acl's launch benchmark against three builds/settings,
interleaved round by round, and reports medians and ratios:

  compiled out  libacl_rt.so built with SIMNPU_TRACE_SITES=OFF
  off           the regular libacl_rt.so, no session recording
  on            the regular libacl_rt.so with SIMNPU_PROFILE (everything recorded)

Targets (issue 12): off within 5 % of compiled out; on within 15 % of off
(launch throughput, medians of the same run).
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


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--installed-lib", required=True)
    ap.add_argument("--nosites-lib", help="libacl_rt.so built with SIMNPU_TRACE_SITES=OFF (column left out without)")
    ap.add_argument("--before-lib", help="another build (e.g. main before a change): its off and on run in the "
                                         "same rounds, so the ratios of both builds come from one run")
    ap.add_argument("--rounds", type=int, default=5)
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
    nv = len(variants)
    for r in range(a.rounds):
        order = variants[r % nv:] + variants[:r % nv]  # rotate, so no variant always runs first
        for name, env, lib in order:
            rows = run(a.bench, env, lib, args)
            for k in samples[name]:
                samples[name][k] += rows.get(k, [])
        shutil.rmtree(prof_dir, ignore_errors=True)
        os.makedirs(prof_dir, exist_ok=True)
    med = {n: {k: statistics.median(v) for k, v in d.items() if v} for n, d in samples.items()}
    result = {"rounds": a.rounds, "medians_us": med, "samples_us": samples}
    names = [n for n, _, _ in variants]
    ratios = [("on / off", "on", "off")]
    if a.nosites_lib:
        ratios.insert(0, ("off / compiled out", "off", "compiled out"))
    if a.before_lib:
        ratios += [("before on / before off", "before on", "before off"), ("off / before off", "off", "before off")]
    lines = ["| metric | " + " | ".join(names) + " | " + " | ".join(r[0] for r in ratios) + " |",
             "|---" * (1 + len(names) + len(ratios)) + "|"]
    for k, unit in (("launch.throughput", "us/launch"), ("launch.latency", "us")):
        result[k] = {}
        cells = ["%.3f" % med[n][k] for n in names]
        for label, num, den in ratios:
            q = med[num][k] / med[den][k]
            result[k][label] = q
            cells.append("%.3f" % q)
        lines.append("| %s (%s) | %s |" % (k, unit, " | ".join(cells)))
    t = result["launch.throughput"]
    verdict = []
    if a.nosites_lib:
        verdict.append("off within 5 %%: %s" % ("yes" if t["off / compiled out"] <= 1.05 else "NO"))
    verdict.append("on within 15 %%: %s" % ("yes" if t["on / off"] <= 1.15 else "NO"))
    lines.append("")
    lines.append("Targets (launch throughput, medians of this run): " + "; ".join(verdict))
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
