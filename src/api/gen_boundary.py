#!/usr/bin/python3
"""Generates the extern "C" exception boundary of libacl_rt.so.

Every ACL function the API layer defines (simnpu_api, a static library) is
renamed to simnpu_impl_<name> with objcopy, and the exported <name> becomes a
wrapper, written here from the prototype in the public headers, that calls
the implementation inside try/catch: an exception never crosses into the
caller; it becomes the function's failure value (api/boundary.h), as the
reference's aclX -> aclXImpl split would have it.

  gen_boundary.py --include-dir include --lib libsimnpu_api.a --nm nm \
                  --out-cc wrappers.cc --out-map rename.map

Only names the library defines are wrapped (a declared function the runtime
does not provide stays unexported). Variadic functions (aclAppLog) cannot be
forwarded and keep their own name; they guard themselves.
"""

import argparse
import os
import re
import subprocess
import sys


def strip(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"\\\n", " ", text)
    text = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("#"))
    return re.sub(r'extern\s*"C"\s*\{', " ", text)


def statements(text):
    out, cur, depth = [], [], 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
            if depth == 0 and not "".join(cur).strip().startswith(("typedef", "struct", "union", "enum")):
                cur = []
                continue
        if ch == ";" and depth == 0:
            out.append(" ".join("".join(cur).split()))
            cur = []
            continue
        cur.append(ch)
    return out


def split_top(s, sep=","):
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


KEYWORDS = {"const", "volatile", "unsigned", "signed", "int", "char", "short", "long", "float", "double", "void",
            "bool", "struct", "enum", "union"}
QUALIFIERS = {"const", "volatile", "struct", "enum", "union", "unsigned", "signed"}


def param_name(p, i):
    """(declaration with a guaranteed name, the name)."""
    m = re.search(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)", p)  # function pointer
    if m:
        return p, m.group(1)
    core = re.sub(r"(\[[^\]]*\]\s*)+$", "", p).strip()
    toks = [t for t in re.findall(r"[A-Za-z_]\w*", core) if t not in QUALIFIERS]
    last = re.search(r"([A-Za-z_]\w*)$", core)
    if last and last.group(1) not in KEYWORDS and len(toks) >= 2:
        return p, last.group(1)
    name = "simnpu_arg%d" % i
    return p + " " + name, name


def prototypes(include_dir):
    protos = {}
    acl_dir = os.path.join(include_dir, "acl")
    for root, _, files in os.walk(acl_dir):
        for fn in sorted(files):
            if not fn.endswith(".h"):
                continue
            with open(os.path.join(root, fn), encoding="utf-8") as f:
                text = strip(f.read())
            for st in statements(text):
                if not st or st.startswith(("typedef", "static", "struct", "union", "enum")) or "(" not in st:
                    continue
                if "=" in st:
                    continue
                body = re.sub(r"\bACL_DEPRECATED_MESSAGE\s*\(\s*\"(?:[^\"\\]|\\.)*\"\s*\)", " ", st)
                body = re.sub(r"\b(ACL_DEPRECATED|ACL_FUNC_VISIBILITY|GE_FUNC_VISIBILITY)\b", " ", body)
                body = " ".join(body.split())
                m = re.match(r"^(.*?)\b([A-Za-z_]\w*)\s*\((.*)\)\s*$", body)
                if not m:
                    continue
                ret, name, params = m.group(1).strip(), m.group(2), m.group(3).strip()
                protos.setdefault(name, (ret, params))
    return protos


def defined_symbols(nm, lib):
    res = subprocess.run([nm, "--defined-only", "-g", lib], capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit("gen_boundary: %s failed on %s: %s" % (nm, lib, res.stderr.strip()))
    syms = set()
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in ("T", "W"):
            syms.add(parts[2])
    return syms


def write_if_changed(path, text):
    old = None
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = f.read()
    if old != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--include-dir", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--out-cc", required=True)
    ap.add_argument("--out-map", required=True)
    a = ap.parse_args()

    protos = prototypes(a.include_dir)
    syms = defined_symbols(a.nm, a.lib)
    cc = ["// generated by src/api/gen_boundary.py: the extern \"C\" boundary of libacl_rt.so",
          '#include "acl/acl.h"', '#include "api/boundary.h"', "",
          "#if defined(__GNUC__)", '#pragma GCC diagnostic ignored "-Wdeprecated-declarations"', "#endif", "",
          'extern "C" {', ""]
    renames = []
    for name in sorted(protos):
        if name not in syms:
            continue
        ret, params = protos[name]
        if "..." in params:
            continue  # variadic: cannot forward
        decls, names = [], []
        plist = [] if params in ("", "void") else split_top(params)
        for i, p in enumerate(plist):
            d, n = param_name(p, i)
            decls.append(d)
            names.append(n)
        dparams = ", ".join(decls) if decls else "void"
        call = "simnpu_impl_%s(%s)" % (name, ", ".join(names))
        cc.append("%s simnpu_impl_%s(%s);" % (ret, name, dparams))
        if ret == "void":
            body = "  try {\n    %s;\n  } catch (...) {\n    ::simnpu::api::BoundaryFailure<void>(\"%s\");\n  }" % (call, name)
        else:
            body = "  try {\n    return %s;\n  } catch (...) {\n    return ::simnpu::api::BoundaryFailure<%s>(\"%s\");\n  }" % (
                call, ret, name)
        cc.append("ACL_FUNC_VISIBILITY %s %s(%s) {\n%s\n}\n" % (ret, name, dparams, body))
        renames.append("%s simnpu_impl_%s" % (name, name))
    cc += ["}  // extern \"C\"", ""]
    write_if_changed(a.out_cc, "\n".join(cc))
    write_if_changed(a.out_map, "\n".join(renames) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
