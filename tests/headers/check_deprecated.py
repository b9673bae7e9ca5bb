#!/usr/bin/python3
"""Check that the deprecated ACL entities carry a deprecation attribute.

For each case the snippet is compiled twice, as C and as C++:
  - with -Werror=deprecated-declarations it must fail with a message naming
    the deprecated entity;
  - with -Wno-deprecated-declarations -Wall -Wextra -Werror it must compile
    (so the failure above really came from the attribute).
A control snippet using only the non-deprecated replacements must compile
cleanly with the warning enabled.

usage: check_deprecated.py --cc CC --cxx CXX --include-dir DIR
"""

import argparse
import os
import subprocess
import sys
import tempfile

CASES = [
    ("aclrtQueryEvent", "aclrtEventStatus s; (void)aclrtQueryEvent(0, &s);"),
    ("aclmdlRIDebugPrint", "(void)aclmdlRIDebugPrint(0);"),
    ("aclrtGetVersion", "int32_t a, b, c; (void)aclrtGetVersion(&a, &b, &c);"),
    ("aclrtSetExceptionInfoCallback", "(void)aclrtSetExceptionInfoCallback(0);"),
    ("aclGetDataBufferSize", "(void)aclGetDataBufferSize(0);"),
    ("ACL_OPT_STRONG_CONSISTENCY", "aclSysParamOpt o = ACL_OPT_STRONG_CONSISTENCY; (void)o;"),
    ("localMemorySize", "aclrtLaunchKernelAttrValue v; v.localMemorySize = 1U; (void)v;"),
]

CONTROL = """
    aclrtEventRecordedStatus s; (void)aclrtQueryEventStatus(0, &s);
    (void)aclGetDataBufferSizeV2(0);
    aclSysParamOpt o = ACL_OPT_DETERMINISTIC; (void)o;
    aclrtLaunchKernelAttrValue v; v.dynUBufSize = 1U; (void)v;
"""


def compile_snippet(compiler, lang, include_dir, body, flags):
    src = '#include "acl/acl.h"\nvoid simnpu_probe(void);\nvoid simnpu_probe(void) {\n%s\n}\n' % body
    suffix = ".c" if lang == "c" else ".cc"
    std = "-std=c99" if lang == "c" else "-std=c++11"
    with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False) as f:
        f.write(src)
        path = f.name
    try:
        res = subprocess.run([compiler, std, "-fsyntax-only", "-I", include_dir] + flags + [path],
                             capture_output=True, text=True)
        return res.returncode, res.stderr
    finally:
        os.unlink(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--include-dir", required=True)
    args = ap.parse_args()

    failures = 0
    for lang, compiler in (("c", args.cc), ("c++", args.cxx)):
        for name, body in CASES:
            before = failures
            rc, err = compile_snippet(compiler, lang, args.include_dir, body, ["-Werror=deprecated-declarations"])
            if rc == 0 or "deprecated" not in err or name not in err:
                print("FAIL [%s] %s: expected a deprecation error, got rc=%d\n%s" % (lang, name, rc, err))
                failures += 1
            rc, err = compile_snippet(compiler, lang, args.include_dir, body,
                                      ["-Wall", "-Wextra", "-Werror", "-Wno-deprecated-declarations"])
            if rc != 0:
                print("FAIL [%s] %s: snippet does not compile without the warning\n%s" % (lang, name, err))
                failures += 1
            if failures == before:
                print("ok   [%s] %s is deprecated" % (lang, name))
        rc, err = compile_snippet(compiler, lang, args.include_dir, CONTROL,
                                  ["-Wall", "-Wextra", "-Werror", "-Wdeprecated-declarations"])
        if rc != 0:
            print("FAIL [%s] control snippet:\n%s" % (lang, err))
            failures += 1
        else:
            print("ok   [%s] replacements are not deprecated" % lang)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
