#!/usr/bin/env python3
"""Unit tests of the Ascend C source pre-pass (ascendc/cmake/simnpu_ascendc_prepass.py).

The module is found through $SIMNPU_PREPASS, or relative to this file.
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PREPASS = os.environ.get("SIMNPU_PREPASS") or os.path.join(
    HERE, "..", "..", "ascendc", "cmake", "simnpu_ascendc_prepass.py")

_spec = importlib.util.spec_from_file_location("simnpu_ascendc_prepass", PREPASS)
pp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pp)

PATH = "/src/kernel.cpp"


def gen(text, host_stubs=False, default_type="AIV"):
    src = pp.Source(textwrap.dedent(text), PATH)
    kernels = pp.find_kernels(src)
    return pp.generate(src, kernels, default_type, host_stubs, PATH), kernels


def kernels_of(text):
    return pp.find_kernels(pp.Source(textwrap.dedent(text), PATH))


def mapped_lines(out):
    """{marker: line number the compiler assigns} for /*Ln*/ markers, following #line."""
    result = {}
    line = 0
    for raw in out.split("\n"):
        m = re.match(r'\s*#line (\d+) "', raw)
        if m:
            line = int(m.group(1)) - 1
            continue
        line += 1
        for mk in re.findall(r"/\*L(\d+)\*/", raw):
            result[int(mk)] = line
    return result


def with_markers(text):
    """Append /*Ln*/ to every line that is not a directive or inside a block comment."""
    out = []
    for i, l in enumerate(textwrap.dedent(text).split("\n"), 1):
        if l.lstrip().startswith("#") or l.rstrip().endswith("\\") or not l.strip():
            out.append(l)
        else:
            out.append(l + " /*L%d*/" % i)
    return "\n".join(out)


class Tokenizer(unittest.TestCase):
    def roundtrip(self, text):
        toks = pp.tokenize(text)
        self.assertEqual("".join(t.text for t in toks), text)
        return toks

    def test_covers_all_text(self):
        self.roundtrip('int a = 1\'000; auto s = u8"x\\"y"; char c = \'\\\'\'; /* <<< */ // >>>\n'
                       '#error don\'t do that\n#include <a\'b.h>\nR"delim(raw <<< )" )delim";\n')

    def test_launch_tokens(self):
        toks = self.roundtrip("k<<<1, 2, s>>>(x);")
        self.assertIn("<<<", [t.text for t in toks])
        self.assertIn(">>>", [t.text for t in toks])

    def test_comments_and_strings_hide_launches(self):
        for text in ('// k<<<1,2,3>>>()\n', '/* k<<<1,2,3>>>() */', '"k<<<1,2,3>>>()"',
                     'R"x(k<<<1,2,3>>>())x"', "'<'"):
            kinds = [t.kind for t in pp.tokenize(text) if t.text in ("<<<", ">>>")]
            self.assertEqual(kinds, [], text)

    def test_apostrophe_in_disabled_code(self):
        ks = kernels_of("""
            #if 0
            it's not code
            #endif
            extern "C" __global__ __aicore__ void k(GM_ADDR x) {}
        """)
        self.assertEqual([k.name for k in ks], ["k"])


class Launches(unittest.TestCase):
    def test_simple(self):
        out, _ = gen("void f(void* s, float* x) { k<<<8, nullptr, s>>>(x); }\n")
        self.assertIn('::simnpu::ascendc::host::Chevron< &k >("k", 8, nullptr, s)(x);', out)
        self.assertNotIn("<<<", out.split("#line 1", 1)[1])

    def test_templates_with_shift_tokens(self):
        out, _ = gen("""
            std::vector<std::vector<std::vector<int>>> v;
            int a = b >> 2, c = d >>= 1;
            void f(void* s) { k<<<n >> 1, nullptr, s>>>(v); }
        """)
        self.assertIn("std::vector<std::vector<std::vector<int>>> v;", out)
        self.assertIn('Chevron< &k >("k", n >> 1, nullptr, s)(v);', out)

    def test_comment_and_string_untouched(self):
        text = """
            // k<<<1, nullptr, s>>>(x) in a comment
            /* and k<<<1, nullptr, s>>>(x)
               over two lines */
            const char* t = "k<<<1, nullptr, s>>>(x)";
            void f(void* s) { real<<<1, nullptr, s>>>(t); }
        """
        out, _ = gen(text)
        self.assertIn("// k<<<1, nullptr, s>>>(x) in a comment", out)
        self.assertIn("/* and k<<<1, nullptr, s>>>(x)", out)
        self.assertIn('"k<<<1, nullptr, s>>>(x)"', out)
        self.assertIn('Chevron< &real >("real", 1, nullptr, s)(t);', out)

    def test_multiline_launch_keeps_lines(self):
        text = with_markers("""
            int32_t Do(uint32_t n, void* s, float* a)
            {
                int32_t r = (int32_t)kernel<<<n,
                       nullptr,
                       /* config over lines */
                       s>>>(a,
                            a + 1);
                return r;
            }
        """)
        out, _ = gen(text)
        self.assertIn("(int32_t)::simnpu::ascendc::host::Chevron< &kernel >", out)
        lines = mapped_lines(out)
        for n in lines:
            self.assertEqual(lines[n], n)
        self.assertEqual(sorted(lines), [2, 3, 4, 5, 6, 7, 8, 9, 10])

    def test_nested_parentheses(self):
        out, _ = gen("void f() { k<<<g(a, h(b)), (c, d), streams[idx(1, 2)]>>>(p(x, (y)), q[i], {1, 2}); }")
        self.assertIn('Chevron< &k >("k", g(a, h(b)), (c, d), streams[idx(1, 2)])(p(x, (y)), q[i], {1, 2});', out)

    def test_qualified_and_template_callees(self):
        out, _ = gen("""
            void f(void* s) {
                ::ns::k<<<1, nullptr, s>>>(x);
                ns::inner::k2<float, A<int>><<<1, nullptr, s>>>(x);
                a = ::top<<<1, nullptr, s>>>();
                return ::k3<<<1, nullptr, s>>>();
            }
        """)
        self.assertIn('return ::simnpu::ascendc::host::Chevron< &::k3 >("k3", 1, nullptr, s)();', out)
        self.assertIn('Chevron< &::ns::k >("ns::k", 1, nullptr, s)(x);', out)
        self.assertIn('Chevron< &ns::inner::k2<float,A<int>>, SIMNPU_KERNEL_AIV >("ns::inner::k2<float,A<int>>", 1, '
                      'nullptr, s)(x);', out)
        self.assertIn('a = ::simnpu::ascendc::host::Chevron< &::top >("top", 1, nullptr, s)();', out)

    def test_operator_shift_is_not_a_launch(self):
        out, _ = gen("template <> std::ostream& operator<<<int>(std::ostream& o, const X<int>& x);\n")
        self.assertIn("operator<<<int>", out)
        self.assertNotIn("Chevron", out)

    def test_launch_in_macro(self):
        out, _ = gen("#define LAUNCH(s, x) \\\n    k<<<1, nullptr, \\\n s>>>(x)\nvoid f() {}\n")
        self.assertIn('#define LAUNCH(s, x) \\\n    ::simnpu::ascendc::host::Chevron< &k >("k", 1, nullptr, \\\n s)(x)', out)

    def test_launch_errors(self):
        for text, msg in (("void f() { k<<<1, 2>>>(); }", "three values"),
                          ("void f() { k<<<1, 2, 3); }", "without a matching"),
                          ("void f() { (a)<<<1, 2, 3>>>(); }", "not preceded by a kernel name"),
                          ("void f() { k<<<1, 2, 3>>>; }", "must be followed")):
            with self.assertRaises(pp.PrepassError) as cm:
                gen(text)
            self.assertIn(msg, str(cm.exception))
            self.assertIn(PATH + ":", str(cm.exception))

    def test_launch_h_included_after_kernel_operator(self):
        out, _ = gen('#include "kernel_operator.h"\nvoid f(void* s) { k<<<1, nullptr, s>>>(); }\n')
        self.assertIn('#include "kernel_operator.h"\n#include "simnpu_ascendc_host/launch.h"\n#line 2 "%s"\n' % PATH, out)
        out, _ = gen('void f(void* s) { k<<<1, nullptr, s>>>(); }\n')
        self.assertTrue(out.split("\n")[1:3] == ['#include "kernel_operator.h"', '#include "simnpu_ascendc_host/launch.h"'])
        out, _ = gen('#include "kernel_operator.h"\nextern "C" __global__ void k() {}\n')
        self.assertNotIn("launch.h", out)


class KernelLanguage(unittest.TestCase):
    """The .asc kernel language: core-type keywords, kernel templates, #if
    branches, device printf."""

    def test_core_type_keywords(self):
        ks = kernels_of("""
            __global__ __vector__ void v(GM_ADDR x) {}
            __vector__ __global__ void v2() {}
            __global__ __cube__ void c(GM_ADDR x) {}
            __global__ __mix__(1, 2) void m(GM_ADDR x, uint32_t n) {}
            __global__ __mix__(1,1) __aicore__ void m2() {}
            __global__ __aicore__ void plain() {}
            __global__ __vector__ void told() { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2); }
        """)
        by = {k.name: k for k in ks}
        self.assertEqual(sorted(by), ["c", "m", "m2", "plain", "told", "v", "v2"])
        self.assertEqual([by[n].kernel_type for n in ("v", "v2", "c", "m", "m2", "plain", "told")],
                         ["AIV", "AIV", "AIC", "MIX", "MIX", None, "MIX"])
        self.assertEqual([p.name for p in by["m"].params], ["x", "n"])
        out, _ = gen("__global__ __cube__ void c(GM_ADDR x) {}\n__global__ void d() {}\n", default_type="AIV")
        self.assertIn("SIMNPU_ASCENDC_REGISTER_KERNEL(c, SIMNPU_KERNEL_AIC);", out)
        self.assertIn("SIMNPU_ASCENDC_REGISTER_KERNEL(d, SIMNPU_KERNEL_AIV);", out)

    def test_template_launches(self):
        text = """
            template <typename T, int N>
            __global__ __cube__ void tk(GM_ADDR x, T t) {}
            template <typename T> __global__ void tv(T t) {}
            void host(void* s) {
                tk<float, 4><<<8, nullptr, s>>>(nullptr, 1.0f);
                tk<unsigned int, 2><<<8, nullptr, s>>>(nullptr, 1u);
                tv<Tiling><<<2, nullptr, s>>>(Tiling{});
                other::k<int><<<1, nullptr, s>>>();
            }
        """
        out, ks = gen(text, default_type="AIV")
        self.assertTrue(all(k.template for k in ks))
        self.assertNotIn("REGISTER", out)
        self.assertIn('Chevron< &tk<float,4>, SIMNPU_KERNEL_AIC >("tk<float,4>", 8, nullptr, s)(nullptr, 1.0f);', out)
        self.assertIn('Chevron< &tk<unsigned int,2>, SIMNPU_KERNEL_AIC >("tk<unsigned int,2>"', out)
        self.assertIn('Chevron< &tv<Tiling>, SIMNPU_KERNEL_AIV >', out)
        # a template kernel of another file: the default type
        self.assertIn('Chevron< &other::k<int>, SIMNPU_KERNEL_AIV >', out)
        with self.assertRaises(pp.PrepassError) as cm:
            gen("template <typename T> __global__ void tv(T t) {}\nvoid h(void* s) { tv<<<1, nullptr, s>>>(1); }\n")
        self.assertIn("explicit template arguments", str(cm.exception))

    def test_kernels_in_if_branches(self):
        text = """
            #if __NPU_ARCH__ == 3510
            __global__ __vector__ void k(GM_ADDR x) { dcci(x); }
            #elif defined(OTHER)
            __global__ __vector__ void k(GM_ADDR x) { other(x); }
            #else
            __global__ __vector__ void k(GM_ADDR x) { plain(x); }
            #endif
            #ifdef EXTRA
            __global__ void e() {}
            #endif
        """
        out, ks = gen(text, host_stubs=True)
        self.assertEqual(pp.kernel_names(ks), ["k", "e"])
        # one registration (and one host stub) inside each branch
        self.assertEqual(out.count("SIMNPU_ASCENDC_REGISTER_KERNEL(k, SIMNPU_KERNEL_AIV);"), 3)
        lines = out.split("\n")
        regs = [i for i, l in enumerate(lines) if "REGISTER_KERNEL(k," in l]
        dirs = [i for i, l in enumerate(lines) if l.startswith(("#if", "#elif", "#else", "#endif"))]
        for r, lo, hi in zip(regs, dirs[0:3], dirs[1:4]):
            self.assertTrue(lo < r < hi, (r, lo, hi))
        # the same name twice in one branch (or outside any #if) is still an error
        for bad in ("#if A\n__global__ void k() {}\n__global__ void k() {}\n#endif\n",
                    "#if A\n__global__ void k() {}\n#endif\n__global__ void k() {}\n",
                    "#if A\n#if B\n__global__ void k() {}\n#endif\n#else\n#endif\n__global__ void k() {}\n"):
            with self.assertRaises(pp.PrepassError):
                gen(bad)
        # nested groups: different branches of the inner group are exclusive
        out, ks = gen("#if A\n#if B\n__global__ void k() {}\n#else\n__global__ void k() {}\n#endif\n#endif\n")
        self.assertEqual(len(ks), 2)

    def test_device_printf(self):
        text = """
            __aicore__ inline void helper(int v) { printf("h %d\\n", v); }
            class Op {
             public:
              __aicore__ inline Op() : a_(0), b_{1} { printf("ctor\\n"); }
              __aicore__ inline void Run() const noexcept { printf("run\\n"); AscendC::printf("q\\n"); }
              int a_, b_;
            };
            __global__ __vector__ void k() { printf("k %d\\n", 1); std::printf("host\\n"); ::printf("g\\n"); }
            int main() { printf("host main\\n"); return 0; }
        """
        out, _ = gen(text)
        self.assertIn('__aicore__ inline void helper(int v) { ::AscendC::printf("h %d\\n", v); }', out)
        self.assertIn(': a_(0), b_{1} { ::AscendC::printf("ctor\\n"); }', out)
        self.assertIn('{ ::AscendC::printf("run\\n"); AscendC::printf("q\\n"); }', out)
        self.assertIn('{ ::AscendC::printf("k %d\\n", 1); std::printf("host\\n"); ::printf("g\\n"); }', out)
        self.assertIn('int main() { printf("host main\\n"); return 0; }', out)

    def test_asc_prelude(self):
        src = pp.Source('__global__ __vector__ void k() {}\nint main() { k<<<1, nullptr, nullptr>>>(); }\n', PATH)
        out = pp.generate(src, pp.find_kernels(src), "AIV", False, PATH, asc=True)
        self.assertEqual(out.split("\n")[1:4], ['#include "simnpu_ascendc/keywords.h"', '#include "kernel_operator.h"',
                                               '#include "simnpu_ascendc_host/launch.h"'])
        src = pp.Source('#define K_MAX_SHAPE_DIM 0\n#include "kernel_operator.h"\n__global__ void k() {}\n'
                        'int main() { k<<<1, nullptr, nullptr>>>(); }\n', PATH)
        out = pp.generate(src, pp.find_kernels(src), "AIV", False, PATH, asc=True)
        self.assertEqual(out.split("\n")[1:3], ['#include "simnpu_ascendc/keywords.h"', '#line 1 "%s"' % PATH])
        self.assertIn('#include "kernel_operator.h"\n#include "simnpu_ascendc_host/launch.h"\n#line 3', out)
        # host code only: just the keywords
        src = pp.Source('int main() { return 0; }\n', PATH)
        out = pp.generate(src, pp.find_kernels(src), "AIV", False, PATH, asc=True)
        self.assertNotIn("kernel_operator.h", out)


class Asm(unittest.TestCase):
    def test_trap_forms(self):
        for form in ('asm("trap")', '__asm__("trap")', 'asm volatile("trap")', '__asm__ __volatile__ ("trap;")',
                     'asm(\n  "trap"\n)'):
            out, _ = gen('extern "C" __global__ __aicore__ void e() { %s; }\n' % form)
            self.assertIn("::simnpu::ascendc::Trap()", out, form)
            self.assertNotIn("asm", out.split("#line 1", 1)[1].replace("SIMNPU", ""), form)

    def test_trap_keeps_lines(self):
        out, _ = gen(with_markers("""
            void e() { asm(
              "trap"); }
            int x;
        """))
        lines = mapped_lines(out)
        self.assertEqual(lines[4], 4)

    def test_other_asm_is_rejected(self):
        for form in ('asm("nop")', 'asm volatile("dsb" ::: "memory")', '__asm__("trap" : : "r"(x))',
                     'int r asm("eax")'):
            with self.assertRaises(pp.PrepassError) as cm:
                gen('\n\nvoid e() { %s; }\n' % form)
            self.assertIn("%s:3: error: inline assembly is not supported" % PATH, str(cm.exception))

    def test_asm_in_comment_or_string_is_fine(self):
        out, _ = gen('// asm("nop")\nconst char* s = "asm(\\"nop\\")";\n')
        self.assertIn('asm(\\"nop\\")', out)


class Kernels(unittest.TestCase):
    def test_discovery(self):
        ks = kernels_of("""
            #include "kernel_operator.h"
            extern "C" __global__ __aicore__ void first(GM_ADDR x, GM_ADDR y);   // declaration only
            extern "C" __global__ __aicore__ void first(GM_ADDR x, GM_ADDR y) { int a[2] = {1, 2}; }
            namespace a { namespace b {
            __global__ __aicore__ void second(__gm__ float* out, float alpha, uint32_t n)
            {
                KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
            }
            } }
            extern "C" {
            __global__ __aicore__ __attribute__((noinline)) void third() { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2); }
            }
            class C { void m() { /* __global__ */ } };
            const char* s = "__global__ void fake()";
            template <typename T> __global__ __aicore__ void tmpl(T* x) {}
            void host() { if (x) { y(); } }
        """)
        by = {k.name: k for k in ks}
        self.assertEqual(sorted(by), ["first", "second", "third", "tmpl"])
        self.assertTrue(by["first"].extern_c)
        self.assertFalse(by["second"].extern_c)
        self.assertEqual(by["second"].namespace, ["a", "b"])
        self.assertEqual(by["second"].kernel_type, "AIC")
        self.assertEqual(by["third"].kernel_type, "MIX")
        self.assertTrue(by["third"].extern_c)
        self.assertTrue(by["tmpl"].template)
        self.assertEqual([p.name for p in by["second"].params], ["out", "alpha", "n"])
        self.assertEqual([p.is_pointer for p in by["second"].params], [True, False, False])
        self.assertEqual(pp.kernel_names(ks), ["first", "second", "third"])

    def test_registration_placement(self):
        text = with_markers("""
            #include "kernel_operator.h"
            namespace ns {
            __global__ __aicore__ void k1(GM_ADDR x)
            {
            }
            }
            extern "C" {
            __global__ __aicore__ void k2() {}
            namespace inner { __global__ __aicore__ void k3() {} }
            }
            int tail;
        """)
        out, _ = gen(text, default_type="AIC")
        self.assertRegex(out, r"(?s)void k1\(GM_ADDR x\).*\}\nSIMNPU_ASCENDC_REGISTER_KERNEL\(k1, SIMNPU_KERNEL_AIC\);\n#line 6 ")
        # after the extern "C" block, naming k3 relative to it
        self.assertRegex(out, r'(?s)\n\}\nSIMNPU_ASCENDC_REGISTER_KERNEL\(k2, SIMNPU_KERNEL_AIC\);\n'
                              r'SIMNPU_ASCENDC_REGISTER_KERNEL\(inner::k3, SIMNPU_KERNEL_AIC\);\n#line 11 ')
        lines = mapped_lines(out)
        for n in lines:
            self.assertEqual(lines[n], n)
        self.assertIn(12, lines)

    def test_template_kernel_warns(self):
        out, _ = gen("template <typename T> __global__ __aicore__ void t(T* x) {}\n")
        self.assertNotIn("REGISTER", out)

    def test_duplicate_kernel_names(self):
        with self.assertRaises(pp.PrepassError):
            gen("namespace a { __global__ void k() {} }\nnamespace b { __global__ void k() {} }\n")

    def test_host_stub_and_header(self):
        text = """
            struct Tiling { uint32_t n; };
            __global__ __aicore__ void kern(GM_ADDR numBlocks, const uint32_t stream, Tiling t, __gm__ int* __restrict__ out, float, half h) {}
        """
        out, ks = gen(text, host_stubs=True)
        k = ks[0]
        hdr = pp.launch_header(k, "/src/kernel.cpp")
        self.assertIn('#include "acl/acl_base.h"', hdr)
        self.assertIn("#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func", hdr)
        self.assertIn('extern "C" uint32_t aclrtlaunch_kern(uint32_t _numBlocks, aclrtStream _stream, '
                      'void* numBlocks, const uint32_t stream, void* t, void* out, float arg4, void* h);', hdr)
        self.assertIn('extern "C" uint32_t aclrtlaunch_kern(uint32_t simnpu_numBlocks, void* simnpu_stream, '
                      'void* simnpu_a0, const uint32_t simnpu_a1, void* simnpu_a2, void* simnpu_a3, float simnpu_a4, '
                      'void* simnpu_a5)', out)
        self.assertIn("*static_cast<const ::simnpu::ascendc::host::ParamType< &kern, 2 >*>(simnpu_a2)", out)
        self.assertIn('Chevron< &kern >("kern", simnpu_numBlocks, nullptr, simnpu_stream)', out)


class CommandLine(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def run_tool(self, *args):
        p = subprocess.run([sys.executable, PREPASS] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        return p.returncode, p.stdout, p.stderr

    def test_scan_and_expect(self):
        src = self.write("k.cpp", 'extern "C" __global__ void a() {}\n__global__ void b(int x) {}\n')
        rc, out, _ = self.run_tool("--source", src, "--scan")
        self.assertEqual((rc, out), (0, "a\nb\n"))
        kfile = os.path.join(self.dir, "k.kernels")
        rc, _, err = self.run_tool("--source", src, "--output", os.path.join(self.dir, "o.cpp"),
                                   "--expect-kernels=a")
        self.assertEqual(rc, 1)
        self.assertIn("changed since CMake ran", err)
        rc, _, err = self.run_tool("--source", src, "--output", os.path.join(self.dir, "o.cpp"),
                                   "--expect-kernels=a", "--kernels-file", kfile)
        self.assertEqual(rc, 0)
        self.assertIn("CMake will run again", err)
        with open(kfile) as f:
            self.assertEqual(f.read(), "a\nb\n")
        rc, _, err = self.run_tool("--source", src, "--output", os.path.join(self.dir, "o.cpp"),
                                   "--expect-kernels=a,b", "--host-stubs", "--header-dir",
                                   os.path.join(self.dir, "inc"))
        self.assertEqual(rc, 0, err)
        self.assertEqual(sorted(os.listdir(os.path.join(self.dir, "inc"))), ["aclrtlaunch_a.h", "aclrtlaunch_b.h"])

    def test_error_exit(self):
        src = self.write("bad.cpp", 'void f() { asm("nop"); }\n')
        rc, _, err = self.run_tool("--source", src, "--output", os.path.join(self.dir, "o.cpp"))
        self.assertEqual(rc, 1)
        self.assertIn("bad.cpp:1: error: inline assembly", err)

    @unittest.skipUnless(shutil.which("g++"), "g++ not found")
    def test_output_compiles(self):
        """The rewritten text is valid C++ against minimal stand-ins of the headers,
        and diagnostics point at the original file and line."""
        os.makedirs(os.path.join(self.dir, "inc", "simnpu_ascendc_host"))
        self.write("inc/kernel_operator.h", """
            #pragma once
            #include <cstdint>
            #define __global__
            #define __aicore__
            #define __gm__
            #define GM_ADDR __gm__ uint8_t*
            enum { SIMNPU_KERNEL_AIV, SIMNPU_KERNEL_AIC, SIMNPU_KERNEL_MIX };
            namespace simnpu { namespace ascendc { [[noreturn]] void Trap(); } }
            #define CAT2(a, b) a##b
            #define CAT(a, b) CAT2(a, b)
            #define SIMNPU_ASCENDC_REGISTER_KERNEL(fn, type) static void* CAT(reg_, __COUNTER__) = (void*)&fn
        """)
        self.write("inc/simnpu_ascendc_host/launch.h", """
            #pragma once
            #include <tuple>
            namespace simnpu { namespace ascendc { namespace host {
            template <auto Fn, unsigned I> struct PT;
            template <typename R, typename... A, R (*Fn)(A...), unsigned I> struct PT<Fn, I> {
              using type = std::tuple_element_t<I, std::tuple<A...>>; };
            template <auto Fn, unsigned I> using ParamType = typename PT<Fn, I>::type;
            template <auto Fn> struct Chevron {
              template <typename A, typename B, typename C> Chevron(const char*, A, B, C) {}
              template <typename... U> uint32_t operator()(U&&...) const { return 0; }
            };
            }}}
        """)
        src = self.write("k.cpp", """
            #include "kernel_operator.h"
            #include <vector>
            struct Tiling { uint32_t n; };
            extern "C" __global__ __aicore__ void vadd(GM_ADDR x, GM_ADDR y, uint32_t n, Tiling t) {}
            namespace ns {
            __global__ __aicore__ void trap() { asm volatile("trap"); }
            }
            extern "C" { __global__ __aicore__ void other(float a) {} }
            std::vector<std::vector<int>> v;
            int32_t Do(uint32_t b, void* s, uint8_t* x) {
                Tiling t{1};
                ns::trap<<<1, nullptr, s>>>();
                return (int32_t)vadd<<<b, nullptr,
                                       s>>>(x, x, (uint32_t)(v.size() >> 1), t);
            }
            int bad = undeclared_name;
        """)
        outp = os.path.join(self.dir, "o.cpp")
        rc, _, err = self.run_tool("--source", src, "--output", outp, "--host-stubs")
        self.assertEqual(rc, 0, err)
        p = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-I", os.path.join(self.dir, "inc"), outp],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        self.assertNotEqual(p.returncode, 0)
        errors = [l for l in p.stdout.split("\n") if ": error:" in l]
        self.assertEqual(len(errors), 1, p.stdout)
        self.assertIn("k.cpp:17:", errors[0])
        self.assertIn("undeclared_name", errors[0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
