#!/usr/bin/env python3
"""Tests of the uvm_allocate sample's Python scripts on their own.

usage: uvm_allocate_scripts_test.py SAMPLE_SRC WORK
gen_data.py (shapes, range, golden), verify_result.py (tolerances, the 0.1%
error-ratio limit, failures), uvm_summary.py (the report text simnpu writes).
"""
import os
import shutil
import subprocess
import sys
import unittest

import numpy as np

SAMPLE = None
WORK = None

REPORT_UFFD = """[simnpu] unified memory report (userfaultfd: real host faults)
  host page faults             3  (first touch 2, migration from a device 1, write to a replica 0)
  device page faults           3  (first touch 1, migration from the host/another device 2; 3 pages)
  migrated host->device     1024 pages      4.00 MiB
  migrated device->host      512 pages      2.00 MiB
  migrated device->dev         0 pages      0.00 MiB
  populated on host         1024 pages, on devices 512 pages
  whole 2 MiB blocks moved without copying: 3, copied migrations: 0
  read replicas 0, invalidations 0, remote maps 0, prefetches 0 (0 pages)
  density expansions 0, thrashing events 0, throttles 0, pins 0, evictions 0 (0.00 MiB)
  explicit copy calls (aclrtMemcpy*) 0, explicit set calls (aclrtMemset*) 0
"""


def run(script, *args, cwd=None):
    return subprocess.run([sys.executable, os.path.join(SAMPLE, "scripts", script), *args],
                          cwd=cwd or WORK, capture_output=True, text=True, timeout=60)


class SampleScriptsGenData(unittest.TestCase):
    def test_files(self):
        d = os.path.join(WORK, "gen")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        r = run("gen_data.py", cwd=d)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        x = np.fromfile(os.path.join(d, "input", "input_x.bin"), dtype="<f2")
        y = np.fromfile(os.path.join(d, "input", "input_y.bin"), dtype="<f2")
        g = np.fromfile(os.path.join(d, "output", "golden.bin"), dtype="<f2")
        for a in (x, y, g):
            self.assertEqual(a.size, 8 * 2048)
        for a in (x, y):
            self.assertTrue(np.all(a >= 1) and np.all(a <= 100))
            self.assertGreater(np.unique(a).size, 1000)
        self.assertTrue(np.array_equal(g, (x + y).astype(np.float16)))


class SampleScriptsVerify(unittest.TestCase):
    def setUp(self):
        self.golden = os.path.join(WORK, "golden.bin")
        self.out = os.path.join(WORK, "out.bin")
        self.g = np.linspace(2, 200, 16384).astype(np.float16)
        self.g.tofile(self.golden)

    def verify(self, data):
        data.astype(np.float16).tofile(self.out)
        return run("verify_result.py", self.out, self.golden)

    def test_identical(self):
        r = self.verify(self.g)
        self.assertEqual(r.returncode, 0)
        self.assertIn("error ratio: 0.0000, tolerance: 0.0010\n", r.stdout)
        self.assertTrue(r.stdout.endswith("[SUCCESS] result correct\n"), r.stdout)

    def test_within_rtol(self):
        # 0.05% off (plus float16 rounding, at most another 0.05%) is within rtol 1e-3
        r = self.verify(self.g.astype(np.float32) * 1.0005)
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_ratio_limit(self):
        d = self.g.copy()
        d[:16] += np.float16(10)  # 16 / 16384 = 0.00098 <= 0.001
        r = self.verify(d)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("data index: 000000", r.stdout)
        self.assertIn("error ratio: 0.0010, tolerance: 0.0010\n", r.stdout)
        d[16] += np.float16(10)  # 17 mismatches: too many
        r = self.verify(d)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertTrue(r.stdout.endswith("[FAILURE] result error\n"), r.stdout)

    def test_mismatch_list_is_capped(self):
        r = self.verify(self.g + np.float16(50))
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout.count("data index:"), 100)
        self.assertIn("error ratio: 1.0000", r.stdout)

    def test_nan_equals_nan(self):
        g = self.g.copy()
        g[5] = np.nan
        g.tofile(self.golden)
        r = self.verify(g)
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_missing_and_short_files(self):
        r = run("verify_result.py", os.path.join(WORK, "nope.bin"), self.golden)
        self.assertEqual(r.returncode, 1)
        self.assertIn("[FAILURE] result error", r.stdout)
        r = self.verify(self.g[:100])
        self.assertEqual(r.returncode, 1)
        r = run("verify_result.py", self.out)
        self.assertEqual(r.returncode, 1)


class SampleScriptsSummary(unittest.TestCase):
    def summary(self, text, *args):
        path = os.path.join(WORK, "report.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return run("uvm_summary.py", path, *args)

    def test_managed(self):
        r = self.summary(REPORT_UFFD, "managed")
        self.assertEqual(r.returncode, 0, r.stderr)
        text = r.stdout
        self.assertTrue(text.startswith("Unified memory summary: "))
        self.assertEqual(text.count("\n"), 1, "one paragraph")
        for part in ("0 explicit copy calls", "The host took 3 page faults", "The device took 3 page faults",
                     "1024 pages (4.00 MiB) host->device", "512 pages (2.00 MiB) device->host",
                     "1024 pages (4.00 MiB) lived on the device and 512 pages (2.00 MiB) on the host",
                     "In this sample:", "by page faults alone"):
            self.assertIn(part, text)

    def test_pinned(self):
        text = REPORT_UFFD.replace("userfaultfd: real host faults", "SIMNPU_UVM_MODE=pinned was requested")
        r = self.summary(text)
        self.assertEqual(r.returncode, 0)
        self.assertIn("host-pinned mode (SIMNPU_UVM_MODE=pinned was requested)", r.stdout)

    def test_explicit(self):
        text = REPORT_UFFD
        for a, b in (("faults             3  (first touch 2, migration from a device 1",
                      "faults             0  (first touch 0, migration from a device 0"),
                     ("faults           3  (first touch 1, migration from the host/another device 2; 3",
                      "faults           0  (first touch 0, migration from the host/another device 0; 0"),
                     ("1024 pages      4.00", "0 pages      0.00"), ("512 pages      2.00", "0 pages      0.00"),
                     ("host         1024 pages, on devices 512", "host         0 pages, on devices 0"),
                     ("copying: 3", "copying: 0"), ("(aclrtMemcpy*) 0", "(aclrtMemcpy*) 3")):
            self.assertIn(a, text)
            text = text.replace(a, b)
        r = self.summary(text, "explicit")
        self.assertEqual(r.returncode, 0)
        self.assertIn("no managed page was touched", r.stdout)
        self.assertIn("3 explicit copy calls", r.stdout)

    def test_unrecognised_and_missing(self):
        r = self.summary("something else\n")
        self.assertEqual(r.returncode, 0)
        self.assertIn("not recognised", r.stdout)
        r = run("uvm_summary.py", os.path.join(WORK, "missing_report.txt"))
        self.assertEqual(r.returncode, 1)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print("usage: uvm_allocate_scripts_test.py SAMPLE_SRC WORK")
        sys.exit(1)
    SAMPLE, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    unittest.main(argv=[sys.argv[0], "-v"])
