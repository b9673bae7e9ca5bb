#!/usr/bin/env python3
"""Unit tests of the bisheng driver's command line (ascendc/asc/compiler/bisheng):
which options reach the host compiler, which are device-only, the NPU
architecture, the order of link inputs. No compiler is run.

The driver is found through $SIMNPU_BISHENG, or relative to this file."""

import importlib.machinery
import importlib.util
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.environ.get("SIMNPU_BISHENG") or os.path.join(HERE, "..", "..", "ascendc", "asc", "compiler", "bisheng")
_loader = importlib.machinery.SourceFileLoader("simnpu_bisheng", DRIVER)
_spec = importlib.util.spec_from_loader("simnpu_bisheng", _loader)
bs = importlib.util.module_from_spec(_spec)
_loader.exec_module(bs)


class Arch(unittest.TestCase):
    def test_spellings(self):
        for v, want in (("dav-2201", 2201), ("DAV_3510", 3510), ("2002", 2002), ("dav-c220-vec", 2201),
                        ("dav-c220-cube", 2201), ("c310", 3510), ("dav-m200", 2002), ("dav-1001", 1001)):
            self.assertEqual(bs.parse_arch(v), want, v)
        for v in ("dav-9999", "gpu", "", "dav-"):
            self.assertIsNone(bs.parse_arch(v), v)

    def test_npu_arch_option(self):
        self.assertEqual(bs.parse(["--npu-arch=dav-3510", "-c", "a.asc"]).arch, 3510)
        self.assertEqual(bs.parse(["--npu-arch", "dav-2002", "-c", "a.asc"]).arch, 2002)
        self.assertEqual(bs.parse(["--cce-aicore-arch=dav-c220-vec", "-c", "a.asc"]).arch, 2201)
        self.assertIsNone(bs.parse(["-c", "a.asc"]).arch)
        # the same architecture twice is fine (CMake flags + target option)
        self.assertEqual(bs.parse(["--npu-arch=dav-2201", "--npu-arch=dav-2201", "a.asc"]).arch, 2201)
        with self.assertRaises(SystemExit):
            bs.parse(["--npu-arch=dav-2201", "--npu-arch=dav-3510", "a.asc"])
        with self.assertRaises(SystemExit):
            bs.parse(["--npu-arch=dav-4242", "a.asc"])

    def test_model_flags(self):
        class Inst(object):
            tikcfw, include, asc_include, cpu_include = "/p/tikcfw", "/p/include", "/p/asc/include", "/p/cpu"
        o = bs.parse(["--npu-arch=dav-3510", "-c", "a.asc"])
        f = bs.model_flags(o, Inst())
        self.assertIn("-D__NPU_ARCH__=3510", f)
        self.assertIn('-DSIMNPU_ASCENDC_SOC_VERSION="Ascend950PR_9599"', f)
        self.assertNotIn("-DASCENDC_CPU_DEBUG=1", f)
        self.assertNotIn("/p/cpu", f)
        o = bs.parse(["--run-mode=cpu", "-c", "a.asc"])
        f = bs.model_flags(o, Inst())
        self.assertIn("-D__NPU_ARCH__=2201", f)  # the default
        self.assertIn("-DASCENDC_CPU_DEBUG=1", f)
        self.assertEqual(f[f.index("/p/cpu") - 1], "-isystem")
        with self.assertRaises(SystemExit):
            bs.parse(["--run-mode=gpu", "a.asc"])


class Options(unittest.TestCase):
    def test_host_and_device_groups(self):
        o = bs.parse(["-Xhost-start", "-DH=1", "-fno-exceptions", "-Xhost-end",
                      "-Xaicore-start", "-DD=2", "--cce-auto-sync", "-O3", "-mllvm", "-Xaicore-end",
                      "-Xhost", "-DH2", "-Xaicore", "-DD2", "-Xaicore", "--some-device-thing", "-c", "k.asc"])
        self.assertEqual(o.host, ["-DH=1", "-fno-exceptions", "-DH2"])
        self.assertEqual(o.device, ["-DD=2", "-O3", "-DD2"])
        self.assertEqual(o.ignored, ["--cce-auto-sync", "-mllvm", "--some-device-thing"])
        with self.assertRaises(SystemExit):
            bs.parse(["-Xhost-start", "-DX", "k.asc"])

    def test_npu_only_options_are_ignored(self):
        o = bs.parse(["-dc", "-rdc", "--relocatable-device-code=true", "--cce-simd-vf-fusion=false",
                      "-mllvm", "-cce-aicore-x", "-Xclang", "-foo", "-fcce-kernel-launch-custom",
                      "--enable-simt", "-std=c++17", "-O2", "-c", "k.asc", "-o", "k.o"])
        self.assertTrue(o.simt)
        self.assertEqual(o.host, ["-std=c++17", "-O2"])
        self.assertTrue(o.std_given)
        self.assertEqual(o.output, "k.o")
        self.assertTrue(o.compile_only)
        self.assertEqual(o.ignored, ["--cce-simd-vf-fusion=false", "-mllvm -cce-aicore-x", "-Xclang -foo",
                                     "-fcce-kernel-launch-custom"])

    def test_depfile_options(self):
        o = bs.parse(["-MD", "-MT", "obj.o", "-MF", "obj.o.d", "-c", "k.asc", "-o", "obj.o"])
        self.assertEqual(o.dep_opts, ["-MD", "-MT", "obj.o", "-MF", "obj.o.d"])

    def test_input_kinds(self):
        o = bs.parse(["a.asc", "b.cpp", "c.c", "d.o", "-x", "asc", "e.cpp", "-x", "none", "f.cc", "libg.a",
                      "--asc-aicore-lang", "h.cpp"])
        self.assertEqual([k for _, k in o.inputs], ["asc", "cxx", "c", "other", "asc", "cxx", "other", "asc"])


class Link(unittest.TestCase):
    def test_inputs_and_libraries_keep_their_order(self):
        o = bs.parse(["--npu-arch=dav-2201", "main.o", "-L/x", "-lfoo", "lib.a", "-Wl,--as-needed", "-lbar",
                      "-o", "prog"])
        seq = [("IN%d" % a.index) if isinstance(a, bs.InputRef) else a for a in o.link]
        self.assertEqual(seq, ["IN0", "-L/x", "-lfoo", "IN1", "-Wl,--as-needed", "-lbar"])
        self.assertEqual(o.output, "prog")

    def test_default_libraries(self):
        libs = bs.default_libs(bs.parse(["x.o"]))
        self.assertEqual(libs[0], "-lacl_rt")
        for name in ("-lruntime", "-lprofapi", "-lunified_dlog", "-lmmpa", "-lascend_dump", "-lc_sec",
                     "-lerror_manager", "-lascendc_runtime", "-lpthread", "-ldl"):
            self.assertIn(name, libs)


if __name__ == "__main__":
    unittest.main(verbosity=2)
