#!/usr/bin/env python3
"""The ASC package against a CANN install ($SIMNPU_ASC_ROOT, the staged
install): what find_package(ASC) and the ASC language do at configure
time, the errors they give for wrong input, and where compile errors of a
.asc file point. Each test configures (and sometimes builds) a tiny
project in $SIMNPU_ASC_WORK, in the environment of set_env.sh.

Usage: test_asc_cmake.py [unittest arguments]"""

import os
import re
import shutil
import subprocess
import sys
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import asc_project  # noqa: E402

ROOT = os.environ.get("SIMNPU_ASC_ROOT", "")
WORK = os.environ.get("SIMNPU_ASC_WORK", "/tmp/simnpu_asc_cmake")
GENERATOR = os.environ.get("SIMNPU_ASC_GENERATOR", "Ninja")

HEAD = """cmake_minimum_required(VERSION 3.16)
%(pre)s
find_package(ASC REQUIRED)
project(t LANGUAGES ASC CXX)
"""


class Project(object):
    def __init__(self, name, cmake, files=None, pre=""):
        self.src = os.path.join(WORK, name, "src")
        self.build = os.path.join(WORK, name, "build")
        shutil.rmtree(os.path.join(WORK, name), ignore_errors=True)
        os.makedirs(self.src)
        with open(os.path.join(self.src, "CMakeLists.txt"), "w") as f:
            f.write(HEAD % {"pre": pre} + textwrap.dedent(cmake))
        for n, text in (files or {}).items():
            with open(os.path.join(self.src, n), "w") as f:
                f.write(textwrap.dedent(text))

    def configure(self, *defs, env=None):
        e = env if env is not None else asc_project.clean_env(ROOT)
        p = subprocess.run(["cmake", "-S", self.src, "-B", self.build, "-G", GENERATOR] + list(defs), env=e,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        return p.returncode, p.stdout

    def build_all(self):
        p = subprocess.run(["cmake", "--build", self.build], env=asc_project.clean_env(ROOT),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        return p.returncode, p.stdout


class Configure(unittest.TestCase):
    def test_package_side_effects(self):
        p = Project("effects", """
            message(STATUS "DEBUG_FLAGS=[${CMAKE_CXX_FLAGS_DEBUG}] RELEASE_FLAGS=[${CMAKE_CXX_FLAGS_RELEASE}]")
            message(STATUS "PKG=${ASCEND_CANN_PACKAGE_PATH} UNIT=${ASCEND_COMPUTE_UNIT} FW=${ASCEND_FRAMEWORK_TYPE}")
            message(STATUS "ASC_FLAGS=[${CMAKE_ASC_FLAGS}] STD=${CMAKE_ASC_STANDARD} EXT=${CMAKE_ASC_SOURCE_FILE_EXTENSIONS}")
            if(TARGET intf_pub)
              message(STATUS "intf_pub exists")
            endif()
            find_package(ASC REQUIRED)
            message(STATUS "second find_package ok")
            foreach(f ascendc_library ascendc_fatbin_library ascendc_compile_options ascendc_compile_definitions
                      ascendc_include_directories library_interface_setup npu_op_package)
              if(COMMAND ${f})
                message(STATUS "command ${f}")
              endif()
            endforeach()
        """, pre='set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "")')
        rc, out = p.configure()
        self.assertEqual(rc, 0, out)
        self.assertIn("DEBUG_FLAGS=[] RELEASE_FLAGS=[]", out)
        self.assertIn("PKG=%s UNIT=ascend910b FW=tensorflow" % os.path.realpath(ROOT), out)
        self.assertRegex(out, r"ASC_FLAGS=\[ *--npu-arch=dav-2201\] STD=17 EXT=asc")
        self.assertIn("intf_pub exists", out)
        self.assertIn("second find_package ok", out)
        self.assertEqual(len(re.findall(r"-- command ", out)), 7, out)
        self.assertIn("ASC: CMAKE_ASC_RUN_MODE=npu, architecture dav-2201: simnpu builds the CPU model", out)
        for ini in ("custom_compile_options.ini", "custom_opc_options.ini"):
            self.assertTrue(os.path.isfile(os.path.join(p.build, "autogen", ini)))

    def test_needs_ascend_home_path(self):
        p = Project("nohome", "")
        env = asc_project.clean_env(ROOT)
        del env["ASCEND_HOME_PATH"]
        rc, out = p.configure("-DASC_DIR=" + os.path.join(ROOT, "lib64", "cmake"), env=env)
        self.assertNotEqual(rc, 0)
        self.assertIn("the environment variable ASCEND_HOME_PATH is not set", out)

    def test_found_without_hints_only_through_set_env(self):
        p = Project("nofind", "")
        env = asc_project.clean_env(ROOT)
        del env["CMAKE_PREFIX_PATH"]
        rc, out = p.configure(env=env)
        self.assertNotEqual(rc, 0)
        self.assertIn("ASCConfig.cmake", out)

    def test_bad_inputs(self):
        cases = [
            (["-DCMAKE_ASC_ARCHITECTURES=dav-9999"], "is not an architecture simnpu models"),
            (["-DCMAKE_ASC_ARCHITECTURES=dav-2201;dav-3510"], "one architecture at a time"),
            (["-DCMAKE_ASC_RUN_MODE=fpga"], "CMAKE_ASC_RUN_MODE fpga is not supported"),
            (["-DCMAKE_ASC_RUN_MODE=cpu", "-DCMAKE_ASC_ARCHITECTURES=dav-1001"], "cpu needs CMAKE_ASC_ARCHITECTURES"),
            (["-DCMAKE_ASC_RUN_MODE=sim"], "sim needs CMAKE_ASC_ARCHITECTURES"),
            (["-DASCEND_COMPUTE_UNIT=ascend123"], "ASCEND_COMPUTE_UNIT: ascend123 is not one of"),
            (["-DCMAKE_ASC_STANDARD=c++17"], "CMAKE_ASC_STANDARD must be a number"),
        ]
        for i, (defs, msg) in enumerate(cases):
            rc, out = Project("bad%d" % i, "").configure(*defs)
            self.assertNotEqual(rc, 0, defs)
            self.assertIn(msg, out, defs)

    def test_bad_function_use(self):
        cases = [
            ("ascendc_library(x OBJECT a.asc)", "the library type must be SHARED or STATIC"),
            ("ascendc_library(x STATIC)", "no sources given"),
            ("ascendc_compile_definitions(nosuch PRIVATE A)", "there is no target named nosuch"),
            ("add_executable(e a.asc)\nascendc_compile_options(e WRONG -O2)", "the scope must be PRIVATE"),
            ("npu_op_package(x)", "custom operator packages"),
        ]
        for i, (cmake, msg) in enumerate(cases):
            rc, out = Project("fn%d" % i, cmake, {"a.asc": "int main() { return 0; }\n"}).configure()
            self.assertNotEqual(rc, 0, cmake)
            self.assertIn(msg, out, cmake)


class Diagnostics(unittest.TestCase):
    def test_errors_point_at_the_asc_file(self):
        p = Project("diag", "add_executable(e bad.asc)\n", {"bad.asc": """
            #include "kernel_operator.h"
            __global__ __vector__ void k(GM_ADDR x)
            {
                int unused = undeclared_name;
            }
            int main() { return k<<<1, nullptr, nullptr>>>(nullptr); }
        """})
        self.assertEqual(p.configure()[0], 0)
        rc, out = p.build_all()
        self.assertNotEqual(rc, 0)
        self.assertRegex(out, r"bad\.asc:5:\d+: error: .undeclared_name. was not declared", out)

    def test_prepass_errors_point_at_the_asc_file(self):
        p = Project("diag2", "add_executable(e bad.asc)\n", {"bad.asc": """
            template <typename T>
            __global__ __vector__ void k(T x) {}
            int main() { return k<<<1, nullptr, nullptr>>>(1); }
        """})
        self.assertEqual(p.configure()[0], 0)
        rc, out = p.build_all()
        self.assertNotEqual(rc, 0)
        self.assertRegex(out, r"bad\.asc:4: error: kernel 'k' is a template: launch an instantiation", out)

    def test_inline_assembly_is_rejected(self):
        p = Project("diag3", "add_executable(e bad.asc)\n", {"bad.asc": """
            __global__ __vector__ void k() { asm volatile("nop"); }
            int main() { return 0; }
        """})
        self.assertEqual(p.configure()[0], 0)
        rc, out = p.build_all()
        self.assertNotEqual(rc, 0)
        self.assertIn("bad.asc:2: error: inline assembly is not supported by the simnpu CPU model", out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
