#!/usr/bin/env python3
"""End-to-end tests of the drop-in ascendc.cmake, run by CTest.

Each test configures, builds or runs a CANN-style project (project/ or
include_only/ next to this file) against a CANN root, with only the
environment a CANN user has: what <root>/set_env.sh provides (or, for the
test's fake root, ASCEND_HOME_PATH and LD_LIBRARY_PATH=<root>/lib64), plus
SOC_VERSION=Ascend910B1 and ASCENDC_CMAKE_DIR=<root>/<arch>-linux/tikcpp/ascendc_kernel_cmake.

Settings come from the environment of this script:
  SIMNPU_TC_ROOT       the CANN root (staged install or the fake root)
  SIMNPU_TC_WORK       a work folder (build trees are kept between tests)
  SIMNPU_TC_GENERATOR  CMake generator for the projects (default Ninja)
  SIMNPU_TC_ARCH_DIR   <arch>-linux (default x86_64-linux)

Usage: toolchain_test.py <TestCase.test_name>...
"""

import os
import re
import shutil
import struct
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("SIMNPU_TC_ROOT", "")
WORK = os.environ.get("SIMNPU_TC_WORK", "")
GENERATOR = os.environ.get("SIMNPU_TC_GENERATOR", "Ninja")
ARCH_DIR = os.environ.get("SIMNPU_TC_ARCH_DIR", "x86_64-linux")
SOC = "Ascend910B1"


def user_env():
    """The environment of a CANN user of ROOT."""
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"),
            "LANG": "C"}
    set_env = os.path.join(ROOT, "set_env.sh")
    env = None
    if os.path.isfile(set_env):
        p = subprocess.run(["bash", "-c", 'source "$1" >/dev/null 2>&1 && env -0', "bash", set_env],
                           env=base, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode == 0:
            env = {}
            for item in p.stdout.split(b"\0"):
                if b"=" in item:
                    k, v = item.split(b"=", 1)
                    env[k.decode()] = v.decode()
    if env is None:
        env = dict(base)
        env["ASCEND_HOME_PATH"] = ROOT
        env["LD_LIBRARY_PATH"] = os.path.join(ROOT, "lib64")
    env["SOC_VERSION"] = SOC
    env["ASCENDC_CMAKE_DIR"] = os.path.join(ROOT, ARCH_DIR, "tikcpp", "ascendc_kernel_cmake")
    return env


def run(cmd, env=None, cwd=None):
    p = subprocess.run(cmd, env=env if env is not None else user_env(), cwd=cwd,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    return p.returncode, p.stdout


def configure(src, build, extra=(), fresh=True, env=None):
    if fresh and os.path.isdir(build):
        shutil.rmtree(build)
    os.makedirs(build, exist_ok=True)
    cmd = ["cmake", "-S", src, "-B", build, "-G", GENERATOR,
           "-DASCEND_CANN_PACKAGE_PATH=" + ROOT] + list(extra)
    return run(cmd, env=env)


# ---- a small ELF64 reader (no binutils needed) ------------------------------

class Elf(object):
    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        d = self.data
        if d[:4] != b"\x7fELF" or d[4] != 2 or d[5] != 1:
            raise ValueError("%s is not a little-endian ELF64 file" % path)
        (self.e_type,) = struct.unpack_from("<H", d, 16)
        shoff, = struct.unpack_from("<Q", d, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
        self.sections = []
        for i in range(shnum):
            off = shoff + i * shentsize
            name, stype, flags, addr, offset, size, link, info, align, entsize = struct.unpack_from(
                "<IIQQQQIIQQ", d, off)
            self.sections.append(dict(name_off=name, type=stype, offset=offset, size=size, link=link,
                                      entsize=entsize))
        strtab = self.sections[shstrndx]
        for s in self.sections:
            s["name"] = self._str(strtab, s["name_off"])

    def _str(self, sec, off):
        start = sec["offset"] + off
        end = self.data.index(b"\0", start)
        return self.data[start:end].decode()

    def section(self, name):
        for s in self.sections:
            if s["name"] == name:
                return self.data[s["offset"]:s["offset"] + s["size"]]
        return None

    def dynamic_symbols(self):
        """[(name, bind, type, defined)] of .dynsym"""
        out = []
        for s in self.sections:
            if s["type"] != 11:  # SHT_DYNSYM
                continue
            strsec = self.sections[s["link"]]
            for k in range(1, s["size"] // 24):
                name, info, other, shndx, value, size = struct.unpack_from("<IBBHQQ", self.data, s["offset"] + k * 24)
                out.append((self._str(strsec, name), info >> 4, info & 0xF, shndx != 0))
        return out

    def needed(self):
        out = []
        for s in self.sections:
            if s["type"] != 6:  # SHT_DYNAMIC
                continue
            strsec = self.sections[s["link"]]
            for k in range(s["size"] // 16):
                tag, val = struct.unpack_from("<qQ", self.data, s["offset"] + k * 16)
                if tag == 1:
                    out.append(self._str(strsec, val))
        return out


def check_kernel_image(test, path):
    test.assertTrue(os.path.isfile(path), "kernel image %s was not written by the build" % path)
    elf = Elf(path)
    test.assertEqual(elf.e_type, 3, "%s is not a shared object (ET_DYN)" % path)
    sec = elf.section(".simnpu_kernels")
    test.assertIsNotNone(sec, "%s has no .simnpu_kernels section" % path)
    test.assertTrue(sec.startswith(b"SIMNPU-KERNELS1\0"), "bad .simnpu_kernels magic: %r" % sec[:16])
    exported = [n for n, bind, typ, defined in elf.dynamic_symbols() if defined and bind in (1, 2)]
    test.assertIn("simnpu_kernel_table_v1", exported)
    test.assertEqual(exported, ["simnpu_kernel_table_v1"], "the image exports more than its table")
    for lib in elf.needed():
        test.assertFalse(lib.startswith("libacl_rt") or lib.startswith("libascendcl"),
                         "a kernel image must not link the runtime (%s)" % lib)


def project_build(mode):
    return os.path.join(WORK, mode)


def build_project(test, mode):
    src = os.path.join(HERE, "project")
    build = project_build(mode)
    rc, out = configure(src, build, ["-DTEST_MODE=" + mode])
    test.assertEqual(rc, 0, "configure failed:\n" + out)
    test.assertIn("simnpu builds the CPU model", out)
    rc, out2 = run(["cmake", "--build", build, "-j2"])
    test.assertEqual(rc, 0, "build failed:\n" + out2)
    return build, out


def run_program(test, exe, extra_ld=()):
    env = user_env()
    if extra_ld:
        env["LD_LIBRARY_PATH"] = ":".join(list(extra_ld) + [env.get("LD_LIBRARY_PATH", "")])
    test.assertTrue(os.path.isfile(exe), "%s was not built (run the build test first)" % exe)
    rc, out = run([exe], env=env, cwd=os.path.dirname(exe))
    sys.stdout.write(out)
    test.assertEqual(rc, 0, "%s failed:\n%s" % (exe, out))
    test.assertIn("[SUCCESS]", out)
    test.assertIn("trap_kernel: synchronize returned 507035", out)
    return out


HEADER_DECLS = {
    "vadd_float": 'extern "C" uint32_t aclrtlaunch_vadd_float(uint32_t numBlocks, aclrtStream stream, '
                  'void* x, void* y, void* z, uint32_t total);',
    "axpb": 'extern "C" uint32_t aclrtlaunch_axpb(uint32_t numBlocks, aclrtStream stream, '
            'void* out, float scale, uint32_t offset, void* in);',
    "trap_kernel": 'extern "C" uint32_t aclrtlaunch_trap_kernel(uint32_t numBlocks, aclrtStream stream);',
}


class Configure(unittest.TestCase):
    def test_include_only(self):
        build = os.path.join(WORK, "include_only")
        rc, out = configure(os.path.join(HERE, "include_only"), build)
        self.assertEqual(rc, 0, out)
        self.assertIn("CHECK: no targets after include: OK", out)
        self.assertEqual(len(re.findall(r"simnpu builds the CPU model", out)), 1, out)
        rc, out = run(["cmake", "--build", build])
        self.assertEqual(rc, 0, out)

    def _configure_fails(self, name, extra, env=None, expect=None):
        rc, out = configure(os.path.join(HERE, "include_only"), os.path.join(WORK, "bad_" + name), extra, env=env)
        self.assertNotEqual(rc, 0, "configure with %s should fail:\n%s" % (name, out))
        if expect:
            self.assertRegex(" ".join(out.split()), expect)  # CMake wraps messages

    def test_bad_configuration(self):
        self._configure_fails("soc_9363", ["-DSOC_VERSION=Ascend910_9363"], expect=r"SOC_VERSION Ascend910_9363 is not supported")
        self._configure_fails("soc_unknown", ["-DSOC_VERSION=Ascend999"], expect=r"is not supported")
        env = user_env()
        env["SOC_VERSION"] = ""
        self._configure_fails("soc_unset", [], env=env, expect=r"SOC_VERSION is not set")
        self._configure_fails("no_package", ["-DASCEND_CANN_PACKAGE_PATH=" + os.path.join(WORK, "nonexistent")],
                              expect=r"does not exist")
        self._configure_fails("run_mode", ["-DRUN_MODE=fpga"], expect=r"RUN_MODE fpga is not supported")

    def test_accepted_socs(self):
        for soc, mode in (("ascend910b1", "cpu"), ("Ascend910B4-1", "sim"), ("Ascend910_9392", "npu"),
                          ("Ascend950PR_957b", "npu"), ("Ascend310P3", "npu"), ("Ascend910A", "npu")):
            rc, out = configure(os.path.join(HERE, "include_only"), os.path.join(WORK, "soc_" + soc),
                                ["-DSOC_VERSION=" + soc, "-DRUN_MODE=" + mode])
            self.assertEqual(rc, 0, "%s/%s:\n%s" % (soc, mode, out))


class Fatbin(unittest.TestCase):
    def test_build(self):
        build, _ = build_project(self, "fatbin")
        # written by the build, before any install
        check_kernel_image(self, os.path.join(build, "out", "fatbin", "test_kernels", "test_kernels.o"))
        rc, out = run(["cmake", "--install", build])
        self.assertEqual(rc, 0, out)

    def test_run(self):
        run_program(self, os.path.join(project_build("fatbin"), "loader_main"))


class ObjectLibrary(unittest.TestCase):
    def test_build(self):
        build, _ = build_project(self, "object")
        check_kernel_image(self, os.path.join(build, "out", "single_objects", "test_kernels", "vadd.o"))

    def test_run(self):
        run_program(self, os.path.join(project_build("object"), "loader_main"))


class _Library(object):
    mode = None
    lib = None

    def test_build(self):
        build, out = build_project(self, self.mode)
        self.assertRegex(out, r"ascendc_compile_options\(kernels\): ignoring NPU compiler options .*--cce-auto-sync=on")
        self.assertTrue(os.path.isfile(os.path.join(build, "lib", self.lib)), "lib/%s missing" % self.lib)
        for k, decl in HEADER_DECLS.items():
            path = os.path.join(build, "include", "kernels", "aclrtlaunch_%s.h" % k)
            self.assertTrue(os.path.isfile(path), path)
            with open(path) as f:
                text = f.read()
            self.assertIn('#include "acl/acl_base.h"', text)
            self.assertIn("#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func", text)
            self.assertIn(decl, text)
        rc, out = run(["cmake", "--install", build])
        self.assertEqual(rc, 0, out)
        out_dir = os.path.join(build, "out")
        self.assertTrue(os.path.isfile(os.path.join(out_dir, "lib", self.lib)))
        self.assertTrue(os.path.isfile(os.path.join(out_dir, "include", "kernels", "aclrtlaunch_axpb.h")))
        self.assertTrue(os.path.isfile(os.path.join(out_dir, "bin", "main")))

    def test_run(self):
        build = project_build(self.mode)
        run_program(self, os.path.join(build, "main"), extra_ld=[os.path.join(build, "lib")])


class StaticLibrary(_Library, unittest.TestCase):
    mode = "static"
    lib = "libkernels.a"


class SharedLibrary(_Library, unittest.TestCase):
    mode = "shared"
    lib = "libkernels.so"


if __name__ == "__main__":
    if not ROOT or not WORK:
        sys.stderr.write("SIMNPU_TC_ROOT and SIMNPU_TC_WORK must be set\n")
        sys.exit(2)
    os.makedirs(WORK, exist_ok=True)
    unittest.main(verbosity=2)
