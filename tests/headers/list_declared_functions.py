#!/usr/bin/python3
"""List the functions declared by the public ACL headers.

Scans <include-dir>/acl/**/*.h (the in-tree include/ directory by default, or
an installed <prefix>/include), and prints every declared function name, one
per line, sorted.

Every function prototype at file scope must carry ACL_FUNC_VISIBILITY (or
GE_FUNC_VISIBILITY); a prototype without it is reported and makes the script
fail, because the library is built with -fvisibility=hidden and such a
function would silently not be exported.

With --lib (repeatable) the names are compared with the dynamic symbols the
library defines (nm -D --defined-only); every declared-but-not-exported name
is reported as

    MISSING <library file name> <function>

and the exit status is 1 if any is missing. Names listed in an
--allow-missing file (one per line, '#' comments) are reported as ALLOWED
instead. Exported acl* names that no header declares are listed as
informational EXTRA lines.

With --expect-count N the script also fails unless exactly N functions are
declared (the count the README states).

With --emit-c-refs FILE the script writes a C source that includes
acl/acl.h and takes the address of every declared function, so that a build
proves each declaration is usable from C.
"""

import argparse
import os
import re
import subprocess
import sys

VIS_MACROS = ("ACL_FUNC_VISIBILITY", "GE_FUNC_VISIBILITY", "MSVP_PROF_API", "ACL_DUMP_API")
DEFAULT_INCLUDE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include"))


def strip_comments_and_directives(text):
    """Removes comments, string-free of interest, and preprocessor lines."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"\\\n", " ", text)  # join continuation lines
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]
    text = "\n".join(lines)
    return re.sub(r'extern\s*"C"\s*\{', " ", text)


def top_level_statements(text):
    """Statements ending with ';' at brace depth 0 (bodies kept inside)."""
    out, cur, depth = [], [], 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
            if depth == 0 and not "".join(cur).strip().startswith(("typedef", "struct", "union", "enum")):
                cur = []  # end of a block that is not a declaration (stray '}' of extern "C")
                continue
        if ch == ";" and depth == 0:
            out.append(" ".join("".join(cur).split()))
            cur = []
            continue
        cur.append(ch)
    return out


def declared_functions(include_dir):
    """Returns (names -> header, list of problems)."""
    acl_dir = os.path.join(include_dir, "acl")
    if not os.path.isdir(acl_dir):
        sys.exit("no acl/ directory under %s" % include_dir)
    names, problems = {}, []
    for root, _, files in os.walk(acl_dir):
        for fn in sorted(files):
            if not fn.endswith(".h"):
                continue
            path = os.path.join(root, fn)
            rel = os.path.relpath(path, include_dir)
            with open(path, encoding="utf-8") as f:
                text = strip_comments_and_directives(f.read())
            for stmt in top_level_statements(text):
                if not stmt or stmt.startswith(("typedef", "static", "struct", "union", "enum")):
                    continue
                if "(" not in stmt or "=" in stmt:
                    continue
                body = re.sub(r"\bACL_DEPRECATED_MESSAGE\s*\(\s*\"(?:[^\"\\]|\\.)*\"\s*\)", " ", stmt)
                body = re.sub(r"\bACL_DEPRECATED\b", " ", body)
                has_vis = any(re.search(r"\b%s\b" % m, body) for m in VIS_MACROS)
                for m in VIS_MACROS:
                    body = re.sub(r"\b%s\b" % m, " ", body)
                m = re.search(r"([A-Za-z_]\w*)\s*\(", body)
                if not m:
                    problems.append("%s: cannot parse declaration: %s" % (rel, stmt))
                    continue
                name = m.group(1)
                if not has_vis:
                    problems.append("%s: %s is declared without ACL_FUNC_VISIBILITY" % (rel, name))
                if name in names and names[name] != rel:
                    problems.append("%s: %s is also declared in %s" % (rel, name, names[name]))
                names.setdefault(name, rel)
    return names, problems


def exported_symbols(lib):
    res = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit("nm failed on %s: %s" % (lib, res.stderr.strip()))
    syms = set()
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 3:
            syms.add(parts[2].split("@")[0])
    return syms


def read_allow_list(path):
    allowed = set()
    if path:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    allowed.add(line)
    return allowed


# Headers that are C++ only, as in CANN (acl_tdt.h names its enum tag as a
# type): their functions are left out of the C reference file.
CXX_ONLY_HEADERS = {"acl/acl_tdt.h"}


def emit_c_refs(path, names):
    names = {n: h for n, h in names.items() if h not in CXX_ONLY_HEADERS}
    lines = [
        "/* generated by tests/headers/list_declared_functions.py --emit-c-refs */",
        '#include "acl/acl.h"',
        '#include "acl/acl_dump.h"',
        '#include "acl/acl_prof.h"',
        '#include "acl/acl_tdt_queue.h"',
        '#include "acl/acl_rt_memory_soma.h"',
        "",
        "typedef void (*simnpu_any_fn)(void);",
        "",
        "#if defined(__GNUC__)",
        '#pragma GCC diagnostic ignored "-Wdeprecated-declarations"',
        "#endif",
        "",
        "/* Taking each address proves the declaration exists and is valid C. */",
        "simnpu_any_fn const simnpu_declared_function_table[] = {",
    ]
    lines += ["    (simnpu_any_fn)&%s," % n for n in sorted(names)]
    lines += ["};", ""]
    text = "\n".join(lines)
    old = None
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = f.read()
    if old != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--include-dir", default=DEFAULT_INCLUDE, help="directory holding acl/ (default: in-tree include/)")
    ap.add_argument("--lib", action="append", default=[], help="shared library to compare with (repeatable)")
    ap.add_argument("--allow-missing", help="file of names that may be missing from the libraries")
    ap.add_argument("--emit-c-refs", metavar="FILE", help="write a C file referencing every declared function")
    ap.add_argument("--with-header", action="store_true", help="print 'name header' instead of names only")
    ap.add_argument("--expect-count", type=int, metavar="N",
                    help="fail unless exactly N functions are declared (the number the README states)")
    args = ap.parse_args()

    names, problems = declared_functions(args.include_dir)
    if args.expect_count is not None and len(names) != args.expect_count:
        problems.append("%d functions are declared, expected %d (update --expect-count and the README together)"
                        % (len(names), args.expect_count))
    for p in problems:
        print("ERROR " + p, file=sys.stderr)

    if args.emit_c_refs:
        emit_c_refs(args.emit_c_refs, names)
        return 1 if problems else 0

    if not args.lib:
        for n in sorted(names):
            print("%s %s" % (n, names[n]) if args.with_header else n)
        return 1 if problems else 0

    allowed = read_allow_list(args.allow_missing)
    missing_total = 0
    for lib in args.lib:
        syms = exported_symbols(lib)
        base = os.path.basename(lib)
        missing = sorted(n for n in names if n not in syms)
        for n in missing:
            if n in allowed:
                print("ALLOWED %s %s" % (base, n))
            else:
                print("MISSING %s %s" % (base, n))
                missing_total += 1
        for n in sorted(s for s in syms if s.startswith("acl") and s not in names):
            print("EXTRA %s %s (exported, not declared in the headers)" % (base, n))
        print("SUMMARY %s: %d declared, %d exported by the library, %d missing (%d allowed)"
              % (base, len(names), len(names) - len(missing), len(missing),
                 sum(1 for n in missing if n in allowed)))
    return 1 if (missing_total or problems) else 0


if __name__ == "__main__":
    sys.exit(main())
