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
    ap.add_argument("--nosites-lib", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out")
    a = ap.parse_args()
    prof_dir = tempfile.mkdtemp(prefix="simnpu_profcost_")
    variants = [
        ("compiled out", {}, a.nosites_lib),
        ("off", {}, a.installed_lib),
        ("on", {"SIMNPU_PROFILE": prof_dir, "SIMNPU_PROFILE_QUIET": "1"}, a.installed_lib),
    ]
    args = ["--reps", "3", "--latency-launches", "500", "--throughput-launches", "5000"]
    samples = {name: {"launch.throughput": [], "launch.latency": []} for name, _, _ in variants}
    for r in range(a.rounds):
        order = variants[r % 3:] + variants[:r % 3]  # rotate, so no variant always runs first
        for name, env, lib in order:
            rows = run(a.bench, env, lib, args)
            for k in samples[name]:
                samples[name][k] += rows.get(k, [])
        shutil.rmtree(prof_dir, ignore_errors=True)
        os.makedirs(prof_dir, exist_ok=True)
    med = {n: {k: statistics.median(v) for k, v in d.items() if v} for n, d in samples.items()}
    result = {"rounds": a.rounds, "medians_us": med, "samples_us": samples}
    lines = ["| metric | compiled out | off | on | off / compiled out | on / off |",
             "|---|---|---|---|---|---|"]
    for k, unit in (("launch.throughput", "us/launch"), ("launch.latency", "us")):
        o, f, n = med["compiled out"][k], med["off"][k], med["on"][k]
        result[k] = {"off_vs_compiled_out": f / o, "on_vs_off": n / f}
        lines.append("| %s (%s) | %.3f | %.3f | %.3f | %.3f | %.3f |" % (k, unit, o, f, n, f / o, n / f))
    t = result["launch.throughput"]
    verdict = "off within 5 %%: %s; on within 15 %%: %s" % ("yes" if t["off_vs_compiled_out"] <= 1.05 else "NO",
                                                          "yes" if t["on_vs_off"] <= 1.15 else "NO")
    lines.append("")
    lines.append("Targets (launch throughput, medians of this run): " + verdict)
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
