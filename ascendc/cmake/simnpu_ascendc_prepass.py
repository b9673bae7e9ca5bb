#!/usr/bin/env python3
"""simnpu Ascend C source pre-pass (part of the drop-in ascendc.cmake).

Turns one Ascend C source file into a translation unit that g++ can compile
for the simnpu CPU model:

  * kernel launches `k<<<numBlocks, l2ctrl, stream>>>(args...)` become
    `::simnpu::ascendc::host::Chevron< &k >("k", numBlocks, l2ctrl, stream)(args...)`
    (launch glue from simnpu_ascendc_host/launch.h; value: uint32_t, 0 = enqueued);
  * `asm("trap")` (also `__asm__`, `volatile`) becomes `::simnpu::ascendc::Trap()`;
    any other inline assembly is rejected with a diagnostic;
  * after each kernel definition (a function declared `__global__`) it inserts
    `SIMNPU_ASCENDC_REGISTER_KERNEL(<kernel>, <type>)` and, for host libraries,
    the `aclrtlaunch_<kernel>` C entry point;
  * `#line` directives keep compiler diagnostics on the original file and lines.

It can also write the `aclrtlaunch_<kernel>.h` headers, and list the kernels
of a file (`--scan`, used at CMake configure time).

The tokenizer knows comments, string/char/raw-string literals, preprocessor
directives and line splices, so `<<<` in a comment or a string is left alone,
and only a `>>>` opened by a `<<<` closes a launch configuration.

Python 3 standard library only.
"""

import argparse
import bisect
import os
import re
import sys

# --------------------------------------------------------------------------
# Tokenizer
# --------------------------------------------------------------------------

WS, NEWLINE, SPLICE, COMMENT, STRING, CHAR, IDENT, NUMBER, PUNCT, RAW, HEADER = (
    "ws", "nl", "splice", "comment", "string", "char", "ident", "number", "punct",
    "raw", "header")

# Longest first. `<<<` and `>>>` are not C++ tokens; we keep them whole so that
# a launch is easy to see. Pass-through text is unaffected by token boundaries.
_PUNCTS = sorted([
    "<<<", ">>>", "...", "->*", "<=>", "<<=", ">>=",
    "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", ".*",
    "{", "}", "[", "]", "(", ")", "<", ">", ";", ":", ",", ".", "?", "+", "-",
    "*", "/", "%", "^", "&", "|", "~", "!", "=", "#", "@", "\\", "`", "$",
], key=len, reverse=True)

_IDENT_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_PPNUM_RE = re.compile(r"\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*")
_STR_PREFIXES = ("u8R", "uR", "UR", "LR", "R", "u8", "u", "U", "L", "")


class Token(object):
    __slots__ = ("kind", "text", "start", "end", "directive")

    def __init__(self, kind, text, start, end, directive):
        self.kind = kind
        self.text = text
        self.start = start
        self.end = end
        self.directive = directive  # index of the enclosing directive, or None

    def __repr__(self):
        return "Token(%s,%r)" % (self.kind, self.text)


class PrepassError(Exception):
    pass


def _scan_quoted(src, pos, quote):
    """pos is at the opening quote. Returns the end offset, or None when the
    literal is not terminated on its line (then the quote is plain punctuation,
    as in an apostrophe inside #if 0 text)."""
    i = pos + 1
    n = len(src)
    while i < n:
        c = src[i]
        if c == "\\":
            if i + 1 < n and src[i + 1] == "\n":
                i += 2
                continue
            i += 2
            continue
        if c == quote:
            return i + 1
        if c == "\n":
            return None
        i += 1
    return None


def tokenize(src):
    """Tokens covering all of src (every character belongs to one token)."""
    toks = []
    n = len(src)
    i = 0
    at_line_start = True       # only whitespace/comments since the last newline
    directive = None           # index of the current directive, or None
    directive_count = 0
    directive_name_pending = False  # next identifier names the directive
    directive_name = None

    def add(kind, end):
        toks.append(Token(kind, src[i:end], i, end, directive))
        return end

    while i < n:
        c = src[i]
        if c == "\n":
            i = add(NEWLINE, i + 1)
            at_line_start = True
            directive = None
            directive_name_pending = False
            continue
        if c == "\\" and src.startswith("\n", i + 1):
            i = add(SPLICE, i + 2)
            continue
        if c == "\\" and src.startswith("\r\n", i + 1):
            i = add(SPLICE, i + 3)
            continue
        if c in " \t\r\f\v":
            j = i + 1
            while j < n and src[j] in " \t\r\f\v":
                j += 1
            i = add(WS, j)
            continue
        if src.startswith("//", i):
            j = i + 2
            while j < n:
                if src[j] == "\n":
                    if src[j - 1] == "\\":
                        j += 1
                        continue
                    break
                j += 1
            i = add(COMMENT, j)
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            i = add(COMMENT, j)
            continue
        if c == "#" and at_line_start and directive is None:
            directive = directive_count
            directive_count += 1
            directive_name_pending = True
            directive_name = None
            at_line_start = False
            i = add(PUNCT, i + 1)
            continue
        at_line_start = False
        # raw text of #error / #warning lines
        if directive is not None and directive_name in ("error", "warning"):
            j = i
            while j < n and src[j] != "\n":
                if src[j] == "\\" and src.startswith("\n", j + 1):
                    j += 2
                    continue
                j += 1
            directive_name = None
            i = add(RAW, j)
            continue
        # <header-name> of #include
        if (directive is not None and directive_name in ("include", "include_next", "import")
                and c == "<"):
            j = src.find(">", i + 1)
            k = src.find("\n", i + 1)
            if j >= 0 and (k < 0 or j < k):
                directive_name = None
                i = add(HEADER, j + 1)
                continue
        # string / char literals with optional encoding prefix
        m = _IDENT_RE.match(src, i)
        word = m.group(0) if m else None
        lit = None
        for p in _STR_PREFIXES:
            if src.startswith(p, i):
                q = i + len(p)
                if q < n and src[q] in "\"'":
                    if "R" in p:
                        if src[q] != '"':
                            continue
                        mm = re.match(r'"([^ ()\\\t\v\f\n]{0,16})\(', src[q:q + 20])
                        if not mm:
                            continue
                        close = ")" + mm.group(1) + '"'
                        e = src.find(close, q + len(mm.group(0)))
                        if e < 0:
                            raise PrepassError("unterminated raw string literal")
                        lit = (STRING, e + len(close))
                    else:
                        e = _scan_quoted(src, q, src[q])
                        if e is not None:
                            lit = (STRING if src[q] == '"' else CHAR, e)
                    if lit is not None:
                        break
                    elif p == "":
                        break
        if lit is not None:
            i = add(lit[0], lit[1])
            continue
        if word is not None:
            if directive_name_pending:
                directive_name = word
                directive_name_pending = False
            i = add(IDENT, m.end())
            continue
        m = _PPNUM_RE.match(src, i)
        if m:
            directive_name_pending = False
            i = add(NUMBER, m.end())
            continue
        directive_name_pending = False
        for p in _PUNCTS:
            if src.startswith(p, i):
                i = add(PUNCT, i + len(p))
                break
        else:
            i = add(PUNCT, i + 1)  # any other character
    return toks


def _is_trivia(t):
    return t.kind in (WS, NEWLINE, SPLICE, COMMENT)


# --------------------------------------------------------------------------
# Source model
# --------------------------------------------------------------------------

class Param(object):
    def __init__(self, type_tokens, name):
        self.type_tokens = type_tokens  # list of str
        self.name = name                # str or None
        self.is_pointer = ("*" in type_tokens or "GM_ADDR" in type_tokens
                           or "[" in type_tokens)

    @property
    def type_text(self):
        return _join_tokens(self.type_tokens)


class Kernel(object):
    def __init__(self):
        self.name = None
        self.namespace = []      # enclosing namespaces, outermost first
        self.extern_c = False
        self.template = False
        self.params = []
        self.kernel_type = None  # "AIV" | "AIC" | "MIX" (None: default)
        self.line = 0
        self.insert_at = None    # source offset where registration goes
        self.ref = None          # how the insertion point names the kernel
        self.tok = None          # token index of its __global__ keyword


_SCALAR_WORDS = set("""
bool char short int long signed unsigned float double wchar_t char16_t char32_t
int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t
size_t ssize_t ptrdiff_t intptr_t uintptr_t
""".split())
_CV_WORDS = {"const", "volatile", "__gm__", "__restrict__", "__restrict", "restrict",
             "__ubuf__", "__in__", "__out__"}
_SKIP_WITH_PARENS = {"__attribute__", "__attribute", "alignas", "_Alignas", "__declspec",
                     "decltype", "__decltype", "__cce_aicore__", "__mix__"}
# Core-type keywords of a kernel declaration (the kernel language of .asc files).
_CORE_TYPE_WORDS = {"__vector__": "AIV", "__cube__": "AIC", "__mix__": "MIX"}
# Execution-space keywords that mark a function as device code.
_DEVICE_WORDS = {"__global__", "__aicore__", "__vector__", "__cube__", "__mix__",
                 "__simd_vf__", "__simd_callee__"}
_TYPE_KEYWORDS = _SCALAR_WORDS | _CV_WORDS | {"struct", "class", "enum", "union", "typename",
                                              "void", "auto", "GM_ADDR"}


def _join_tokens(words):
    out = ""
    prev = ""
    for w in words:
        if out and (_IDENT_RE.match(w) or w[0].isdigit()) and (_IDENT_RE.match(prev) or prev[-1:].isdigit()):
            out += " "
        elif out and w not in ("::", ",", ")", "]", ">", "*", "&") and prev not in ("::", "(", "[", "<"):
            out += " "
        out += w
        prev = w
    return out


class Source(object):
    def __init__(self, text, path):
        self.text = text
        self.path = path
        self.toks = tokenize(text)
        self._nl = [m.start() for m in re.finditer("\n", text)]
        # significant tokens outside directives, and those inside directives
        self.code = [k for k, t in enumerate(self.toks)
                     if not _is_trivia(t) and t.directive is None]
        self.match = self._match_brackets(self.code)
        self.cond = self._conditions()

    def _conditions(self):
        """For each token: the conditional branches it sits in, a tuple of
        (group id, branch index) pairs, outermost first (#if/#ifdef/#ifndef
        open a group, #elif/#else start its next branch, #endif closes it)."""
        names = {}
        toks = self.toks
        for k, t in enumerate(toks):
            if t.directive is not None and t.kind == IDENT and t.directive not in names:
                names[t.directive] = t.text
        out = []
        stack = []
        cur = ()
        groups = 0
        seen = set()
        for t in toks:
            d = t.directive
            if d is not None and d not in seen:
                seen.add(d)
                name = names.get(d, "")
                if name in ("if", "ifdef", "ifndef"):
                    stack.append([groups, 0])
                    groups += 1
                elif name in ("elif", "else", "elifdef", "elifndef") and stack:
                    stack[-1][1] += 1
                elif name == "endif" and stack:
                    stack.pop()
                cur = tuple((g, b) for g, b in stack)
            out.append(cur)
        return out

    def exclusive(self, tok_a, tok_b):
        """True when the two tokens are in different branches of one #if group,
        so that at most one of them is ever compiled."""
        ca = dict(self.cond[tok_a])
        for g, b in self.cond[tok_b]:
            if g in ca and ca[g] != b:
                return True
        return False

    def line_of(self, offset):
        return bisect.bisect_right(self._nl, offset - 1) + 1

    def err(self, tok, msg):
        return PrepassError("%s:%d: error: %s" % (self.path, self.line_of(tok.start), msg))

    def _match_brackets(self, seq):
        match = {}
        stack = []
        pairs = {")": "(", "]": "[", "}": "{"}
        for pos, k in enumerate(seq):
            t = self.toks[k].text
            if self.toks[k].kind != PUNCT:
                continue
            if t in ("(", "[", "{"):
                stack.append(pos)
            elif t in pairs:
                # tolerate imbalance (e.g. braces split over #if branches)
                while stack and self.toks[seq[stack[-1]]].text != pairs[t]:
                    stack.pop()
                if stack:
                    o = stack.pop()
                    match[o] = pos
                    match[pos] = o
        return match

    # -- helpers on the significant-token sequence `code` --------------------
    def ct(self, pos):
        """text of code token at position pos ('' past the end)"""
        if 0 <= pos < len(self.code):
            return self.toks[self.code[pos]].text
        return ""

    def ctok(self, pos):
        return self.toks[self.code[pos]]


# --------------------------------------------------------------------------
# Kernel discovery
# --------------------------------------------------------------------------

def _kernel_type_of(word):
    w = word.upper()
    if "MIX" in w:
        return "MIX"
    if "AIC" in w or "CUBE" in w:
        return "AIC"
    if "AIV" in w or "VECTOR" in w:
        return "AIV"
    return None


def _split_params(src, lo, hi):
    """Parameters between code positions lo..hi (exclusive)."""
    params = []
    cur = []
    depth = 0
    angle = 0
    for pos in range(lo, hi):
        t = src.ct(pos)
        if t in ("(", "[", "{"):
            depth += 1
        elif t in (")", "]", "}"):
            depth -= 1
        elif t == "<" and depth == 0 and pos > lo and (_IDENT_RE.match(src.ct(pos - 1)) or src.ct(pos - 1) == "::"):
            angle += 1
        elif t == ">" and angle > 0:
            angle -= 1
        elif t == ">>" and angle > 0:
            angle = max(0, angle - 2)
        elif t == "," and depth == 0 and angle == 0:
            params.append(cur)
            cur = []
            continue
        cur.append(t)
    if cur:
        params.append(cur)
    out = []
    for words in params:
        if "=" in words:  # default argument
            words = words[:words.index("=")]
        if words in (["void"], []):
            continue
        # drop attributes
        cleaned = []
        k = 0
        while k < len(words):
            if words[k] in ("__attribute__", "__attribute") and k + 1 < len(words) and words[k + 1] == "(":
                d = 0
                while k < len(words):
                    if words[k] == "(":
                        d += 1
                    elif words[k] == ")":
                        d -= 1
                        if d == 0:
                            break
                    k += 1
                k += 1
                continue
            cleaned.append(words[k])
            k += 1
        words = cleaned
        name = None
        if "[" in words:
            idx = words.index("[")
            if idx > 0 and _IDENT_RE.fullmatch(words[idx - 1]) and words[idx - 1] not in _TYPE_KEYWORDS:
                name = words[idx - 1]
                words = words[:idx - 1] + words[idx:]
        elif len(words) >= 2 and _IDENT_RE.fullmatch(words[-1]) and words[-1] not in _TYPE_KEYWORDS \
                and words[-2] != "::":
            name = words[-1]
            words = words[:-1]
        out.append(Param(words, name))
    return out


def find_kernels(src):
    """All functions declared __global__ at namespace scope, with definitions."""
    kernels = []
    code = src.code
    # scope stack entries: [kind, name, code position of '{', pending kernels]
    stack = []
    stmt_start = 0
    pos = 0
    n = len(code)
    while pos < n:
        t = src.ct(pos)
        tok = src.ctok(pos)
        if tok.kind == PUNCT and t == "{":
            kind, name = _classify_brace(src, stmt_start, pos, stack)
            stack.append([kind, name, pos, []])
            if kind in ("func", "class", "block"):
                # nothing of interest inside: jump to the matching brace
                close = src.match.get(pos)
                if close is not None:
                    stack.pop()
                    pos = close + 1
                    stmt_start = pos
                    continue
            pos += 1
            stmt_start = pos
            continue
        if tok.kind == PUNCT and t == "}":
            if stack:
                entry = stack.pop()
                for k in entry[3]:
                    k.insert_at = tok.end
            pos += 1
            stmt_start = pos
            continue
        if tok.kind == PUNCT and t == ";":
            pos += 1
            stmt_start = pos
            continue
        if tok.kind == IDENT and t == "__global__":
            k, end = _parse_kernel(src, stmt_start, pos, stack)
            if k is not None:
                kernels.append(k)
            pos = end
            stmt_start = pos
            continue
        pos += 1
    return kernels


def _classify_brace(src, lo, brace, stack):
    words = [src.ct(p) for p in range(lo, brace)]
    if "namespace" in words:
        i = words.index("namespace")
        name = "::".join(w for w in words[i + 1:] if _IDENT_RE.fullmatch(w) and w != "inline")
        if "=" not in words:
            return "ns", name
    if len(words) >= 2 and words[-2] == "extern" and src.ctok(brace - 1).kind == STRING:
        return ("externc" if words[-1] == '"C"' else "linkage"), ""
    if any(w in ("class", "struct", "union", "enum") for w in words) and ")" not in words[-1:]:
        return "class", ""
    if stack and stack[-1][0] not in ("ns", "externc"):
        return "block", ""
    return "func", ""


def _parse_kernel(src, stmt_start, gpos, stack):
    """Parse the declaration containing __global__ at code position gpos.
    Returns (Kernel or None, code position after the declaration)."""
    code_n = len(src.code)
    k = Kernel()
    k.line = src.line_of(src.ctok(gpos).start)
    prefix = [src.ct(p) for p in range(stmt_start, gpos)]
    k.template = "template" in prefix
    for p in range(stmt_start, gpos):
        if src.ct(p) == "extern" and p + 1 < gpos and src.ct(p + 1) == '"C"':
            k.extern_c = True
    if any(e[0] == "externc" for e in stack):
        k.extern_c = True
    k.namespace = [e[1] for e in stack if e[0] == "ns" and e[1]]
    # find the declarator name: the identifier before the first '(' at depth 0
    pos = gpos + 1
    name_pos = None
    while pos < code_n:
        t = src.ct(pos)
        if t in _SKIP_WITH_PARENS and src.ct(pos + 1) == "(":
            pos = src.match.get(pos + 1, pos + 1) + 1
            continue
        if t == "[" and src.ct(pos + 1) == "[":
            pos = src.match.get(pos, pos) + 1
            continue
        if t == "<" and pos > gpos + 1 and src.ctok(pos - 1).kind == IDENT:
            depth = 0
            while pos < code_n:
                tt = src.ct(pos)
                if tt == "<":
                    depth += 1
                elif tt == ">":
                    depth -= 1
                elif tt == ">>":
                    depth -= 2
                pos += 1
                if depth <= 0:
                    break
            continue
        if t == "(":
            if src.ctok(pos - 1).kind == IDENT and src.ct(pos - 1) not in _TYPE_KEYWORDS:
                name_pos = pos - 1
            break
        if t in (";", "{", "}", "="):
            break
        pos += 1
    if name_pos is None:
        raise src.err(src.ctok(gpos), "cannot find the name of the __global__ function declared here")
    k.name = src.ct(name_pos)
    k.ref = k.name
    k.tok = src.code[gpos]
    # __vector__ / __cube__ / __mix__(m, n) anywhere in the declaration
    for p in range(stmt_start, name_pos):
        ty = _CORE_TYPE_WORDS.get(src.ct(p))
        if ty:
            k.kernel_type = ty
    open_p = name_pos + 1
    close_p = src.match.get(open_p)
    if close_p is None:
        raise src.err(src.ctok(open_p), "unbalanced parentheses in the parameters of kernel '%s'" % k.name)
    k.params = _split_params(src, open_p + 1, close_p)
    # after the parameters: a body or a ';'
    pos = close_p + 1
    while pos < code_n and src.ct(pos) not in ("{", ";"):
        if src.ct(pos) == "(":
            pos = src.match.get(pos, pos) + 1
            continue
        pos += 1
    if pos >= code_n or src.ct(pos) == ";":
        return None, pos + 1          # a declaration only
    body_open = pos
    body_close = src.match.get(body_open)
    if body_close is None:
        raise src.err(src.ctok(body_open), "unbalanced braces in the body of kernel '%s'" % k.name)
    for p in range(body_open + 1, body_close):
        if src.ct(p) == "KERNEL_TASK_TYPE_DEFAULT" and src.ct(p + 1) == "(":
            ty = _kernel_type_of(src.ct(p + 2))
            if ty:
                k.kernel_type = ty
            break
    # registration goes after the outermost enclosing extern "C" { } block,
    # or right after the body
    for idx, entry in enumerate(stack):
        if entry[0] == "externc":
            entry[3].append(k)
            inner = [e[1] for e in stack[idx + 1:] if e[0] == "ns"]
            if any(not x for x in inner):
                raise src.err(src.ctok(gpos), "kernel '%s' is in an anonymous namespace inside "
                              "an extern \"C\" block; move it out of the block" % k.name)
            k.ref = "::".join(inner + [k.name])
            break
    else:
        k.insert_at = src.ctok(body_close).end
    return k, body_close + 1


# --------------------------------------------------------------------------
# Rewrites: launches and inline asm
# --------------------------------------------------------------------------

class Edit(object):
    def __init__(self, start, end, text):
        self.start = start
        self.end = end
        self.text = text


def _pad_newlines(removed, in_directive):
    n = removed.count("\n")
    if not n:
        return ""
    return (" \\\n" if in_directive else "\n") * n


def _sig_seq(src):
    """All significant tokens (including directives) as token indices."""
    return [k for k, t in enumerate(src.toks) if not _is_trivia(t)]


def _join_callee(words):
    """Callee tokens as C++ text: a space only between two word-like tokens
    (`k<unsigned int>`), none elsewhere (`ns::k<float,A<int>>`)."""
    out = ""
    prev = ""
    for w in words:
        if out and (_IDENT_RE.match(w) or w[0].isdigit()) and (_IDENT_RE.match(prev) or prev[-1:].isdigit()):
            out += " "
        out += w
        prev = w
    return out


def find_launches(src, kernels=(), default_type="AIV"):
    """Rewrites of every kernel launch. `kernels` (those defined in this file)
    tell which callees are kernel templates and their core types."""
    templates = {}
    for kk in kernels:
        if kk.template:
            templates.setdefault(kk.name, kk.kernel_type or default_type)
    edits = []
    seq = _sig_seq(src)
    toks = src.toks
    n = len(seq)
    i = 0
    while i < n:
        tok = toks[seq[i]]
        if not (tok.kind == PUNCT and tok.text == "<<<"):
            i += 1
            continue
        if i > 0 and toks[seq[i - 1]].text == "operator":
            i += 1
            continue
        d = tok.directive
        # callee: [::] ident [<...>] (:: ident [<...>])*
        j = i - 1

        def same(jj):
            return jj >= 0 and toks[seq[jj]].directive == d
        start = None
        while same(j):
            t = toks[seq[j]]
            if t.kind == PUNCT and t.text in (">", ">>"):
                depth = 0
                while same(j):
                    tt = toks[seq[j]].text
                    if tt == ">":
                        depth += 1
                    elif tt == ">>":
                        depth += 2
                    elif tt == "<":
                        depth -= 1
                    elif tt in (";", "{", "}"):
                        break
                    j -= 1
                    if depth == 0:
                        break
                if depth != 0 or not same(j):
                    break
                t = toks[seq[j]]
            if t.kind != IDENT or t.text in _CXX_KEYWORDS:
                break
            start = j
            j -= 1
            if same(j) and toks[seq[j]].text == "::":
                start = j
                j -= 1
                continue
            break
        if start is None:
            raise src.err(tok, "'<<<' is not preceded by a kernel name")
        # configuration up to the matching '>>>' at bracket depth 0
        depth = 0
        k = i + 1
        commas = []
        close = None
        while k < n and toks[seq[k]].directive == d:
            t = toks[seq[k]]
            if t.kind == PUNCT:
                if t.text in ("(", "[", "{"):
                    depth += 1
                elif t.text in (")", "]", "}"):
                    depth -= 1
                    if depth < 0:
                        break
                elif t.text == "," and depth == 0:
                    commas.append(k)
                elif t.text == ">>>" and depth == 0:
                    close = k
                    break
                elif t.text == ";" and depth == 0:
                    break
            k += 1
        if close is None:
            raise src.err(tok, "kernel launch '<<<' without a matching '>>>'")
        if len(commas) != 2 or close == i + 1:
            raise src.err(tok, "a kernel launch takes three values: "
                          "<<<numBlocks, l2ctrl, stream>>> (found %d)" % (len(commas) + 1 if close > i + 1 else 0))
        if close + 1 >= n or toks[seq[close + 1]].text != "(":
            raise src.err(toks[seq[close]], "'>>>' must be followed by the kernel arguments '(...)'")
        callee_words = [toks[seq[p]].text for p in range(start, i)]
        callee = _join_callee(callee_words)
        name = callee[2:] if callee.startswith("::") else callee
        # the last name component, without its template arguments
        base = None
        for w in callee_words:
            if w in ("<", "<<"):
                break
            if _IDENT_RE.fullmatch(w):
                base = w
        has_targs = "<" in callee_words or "<<" in callee_words
        if not has_targs and base in templates:
            raise src.err(tok, "kernel '%s' is a template: launch an instantiation with explicit "
                          "template arguments, e.g. %s<...><<<numBlocks, l2ctrl, stream>>>(...)"
                          % (base, base))
        in_dir = d is not None
        c0 = toks[seq[start]].start
        c1 = tok.end
        removed = src.text[c0:c1]
        if has_targs:
            # an instantiation of a kernel template: registered by its launch
            ty = templates.get(base, default_type)
            head = '::simnpu::ascendc::host::Chevron< &%s, SIMNPU_KERNEL_%s >("%s", ' % (callee, ty, name)
        else:
            head = '::simnpu::ascendc::host::Chevron< &%s >("%s", ' % (callee, name)
        edits.append(Edit(c0, c1, head + _pad_newlines(removed, in_dir)))
        ct = toks[seq[close]]
        edits.append(Edit(ct.start, ct.end, ")"))
        i = close + 1
    return edits


def _device_bodies(src):
    """Code-position ranges (open, close) of the bodies of device functions:
    functions declared with an execution-space keyword (__global__,
    __aicore__, __vector__, __cube__, __mix__, __simd_vf__, __simd_callee__)."""
    bodies = []
    n = len(src.code)
    pos = 0
    while pos < n:
        if src.ctok(pos).kind != IDENT or src.ct(pos) not in _DEVICE_WORDS:
            pos += 1
            continue
        # the parameter list: the first '(' at this level that follows an
        # identifier or '>' (template-id), past attribute-like groups
        q = pos + 1
        params = None
        while q < n:
            t = src.ct(q)
            if t in _SKIP_WITH_PARENS and src.ct(q + 1) == "(":
                q = src.match.get(q + 1, q + 1) + 1
                continue
            if t == "(":
                prev = src.ctok(q - 1)
                if prev.kind == IDENT or prev.text in (">", ">>", "]", ")"):
                    params = q
                break
            if t in (";", "{", "}", "="):
                break
            q += 1
        if params is None or params not in src.match:
            pos += 1
            continue
        q = src.match[params] + 1
        # after the parameters: qualifiers, noexcept(...), -> type, attributes,
        # a constructor's member initialisers, then '{' (a body) or ';' / '='
        body = None
        while q < n:
            t = src.ct(q)
            if t in (";", "=", "}"):
                break
            if t == "(" or t == "[":
                q = src.match.get(q, q) + 1
                continue
            if t == ":" :
                # member initialisers: name(...) or name{...}, comma separated
                q += 1
                while q < n:
                    while q < n and src.ct(q) not in ("(", "{", ";", "}"):
                        q += 1
                    if q >= n or src.ct(q) in (";", "}"):
                        break
                    q = src.match.get(q, q) + 1
                    if src.ct(q) == ",":
                        q += 1
                        continue
                    break
                continue
            if t == "{":
                body = q
                break
            q += 1
        if body is None or body not in src.match:
            pos += 1
            continue
        bodies.append((body, src.match[body]))
        pos += 1
    return bodies


def find_device_printf(src):
    """Unqualified printf(...) calls in device code become ::AscendC::printf,
    as the NPU compiler resolves them (the device printf of the kernel
    language, buffered per block and printed in block order)."""
    edits = []
    done = set()
    for lo, hi in _device_bodies(src):
        for p in range(lo + 1, hi):
            if p in done:
                continue
            t = src.ctok(p)
            if t.kind != IDENT or t.text != "printf" or src.ct(p + 1) != "(":
                continue
            if src.ct(p - 1) in ("::", ".", "->"):
                continue
            done.add(p)
            edits.append(Edit(t.start, t.end, "::AscendC::printf"))
    return edits


_CXX_KEYWORDS = set("""
alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
co_return co_yield decltype default delete do double dynamic_cast else enum explicit export
extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
nullptr operator or or_eq private protected public register reinterpret_cast requires return
short signed sizeof static static_assert static_cast struct switch template this thread_local
throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while
xor xor_eq
""".split())

_ASM_WORDS = ("asm", "__asm__", "__asm")
_ASM_QUALS = ("volatile", "__volatile__", "__volatile", "inline", "goto")


def _string_value(lit):
    m = re.match(r'^(?:u8|u|U|L)?"(.*)"$', lit, re.S)
    if not m:
        m = re.match(r'^(?:u8|u|U|L)?R"([^(]*)\((.*)\)\1"$', lit, re.S)
        return m.group(2) if m else None
    body = m.group(1)
    return body.replace("\\n", "\n").replace("\\t", "\t").replace('\\"', '"').replace("\\\\", "\\")


def find_asm(src):
    edits = []
    seq = _sig_seq(src)
    toks = src.toks
    n = len(seq)
    i = 0
    while i < n:
        tok = toks[seq[i]]
        if tok.kind != IDENT or tok.text not in _ASM_WORDS:
            i += 1
            continue
        j = i + 1
        while j < n and toks[seq[j]].text in _ASM_QUALS:
            j += 1
        if j >= n or toks[seq[j]].text != "(":
            raise src.err(tok, "inline assembly is not supported by the simnpu CPU model")
        depth = 0
        k = j
        while k < n:
            tt = toks[seq[k]].text
            if tt == "(":
                depth += 1
            elif tt == ")":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        if k >= n:
            raise src.err(tok, "unbalanced parentheses in inline assembly")
        inner = [toks[seq[p]] for p in range(j + 1, k)]
        value = None
        if inner and all(t.kind == STRING for t in inner):
            parts = [_string_value(t.text) for t in inner]
            if None not in parts:
                value = "".join(parts)
        if value is None or value.strip().rstrip(";").strip() != "trap":
            snippet = src.text[tok.start:toks[seq[k]].end]
            snippet = " ".join(snippet.split())
            raise src.err(tok, "inline assembly is not supported by the simnpu CPU model; "
                          "only asm(\"trap\") is (found: %s)" % snippet)
        removed = src.text[tok.start:toks[seq[k]].end]
        edits.append(Edit(tok.start, toks[seq[k]].end,
                          "::simnpu::ascendc::Trap()" + _pad_newlines(removed, tok.directive is not None)))
        i = k + 1
    return edits


# --------------------------------------------------------------------------
# Generated text
# --------------------------------------------------------------------------

def _c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _qualified(k):
    return "::".join(k.namespace + [k.name])


def _header_params(k):
    """[(decl text for the header, needs deref)] plus renamed first params."""
    names = set(p.name for p in k.params if p.name)
    nb = "_numBlocks" if "numBlocks" in names else "numBlocks"
    st = "_stream" if "stream" in names else "stream"
    out = []
    for idx, p in enumerate(k.params):
        pname = p.name or ("arg%d" % idx)
        if p.is_pointer:
            out.append(("void* " + pname, "ptr"))
            continue
        words = [w for w in p.type_tokens if w not in ("__gm__", "__restrict__", "__restrict", "restrict")]
        core = [w for w in words if w not in ("const", "volatile", "std", "::")]
        if core and all(w in _SCALAR_WORDS for w in core):
            out.append((_join_tokens(words) + " " + pname, "value"))
        else:
            out.append(("void* " + pname, "deref"))
    return nb, st, out


def launch_header(k, source_path):
    nb, st, params = _header_params(k)
    guard = "HEADER_ACLRTLAUNCH_" + re.sub(r"[^A-Za-z0-9]", "_", k.name).upper() + "_H"
    args = ["uint32_t " + nb, "aclrtStream " + st] + [d for d, _ in params]
    return ("// aclrtlaunch_%s.h: launch entry point of kernel %s (from %s).\n"
            "// Generated by the simnpu ascendc.cmake pre-pass; do not edit.\n"
            "#ifndef %s\n#define %s\n"
            "#include \"acl/acl_base.h\"\n\n"
            "#ifndef ACLRT_LAUNCH_KERNEL\n"
            "#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n"
            "#endif\n\n"
            "extern \"C\" uint32_t aclrtlaunch_%s(%s);\n\n"
            "#endif\n") % (k.name, _qualified(k), os.path.basename(source_path), guard, guard,
                           k.name, ", ".join(args))


def _host_stub(k):
    _, _, params = _header_params(k)
    decl = ["uint32_t simnpu_numBlocks", "void* simnpu_stream"]
    call = []
    for idx, (d, how) in enumerate(params):
        an = "simnpu_a%d" % idx
        if how == "ptr":
            decl.append("void* " + an)
            call.append(an)
        elif how == "value":
            decl.append(d.rsplit(" ", 1)[0] + " " + an)
            call.append(an)
        else:
            decl.append("void* " + an)
            call.append("*static_cast<const ::simnpu::ascendc::host::ParamType< &%s, %d >*>(%s)"
                        % (k.ref, idx, an))
    return ('extern "C" uint32_t aclrtlaunch_%s(%s)\n{\n'
            '    return ::simnpu::ascendc::host::Chevron< &%s >(%s, simnpu_numBlocks, nullptr, '
            'simnpu_stream)(%s);\n}\n') % (k.name, ", ".join(decl), k.ref,
                                          _c_string(_qualified(k)), ", ".join(call))


def _find_kernel_operator_include(src):
    """End offset (after the newline) of the first #include of kernel_operator.h."""
    toks = src.toks
    for idx, t in enumerate(toks):
        if t.directive is None or t.kind not in (HEADER, STRING):
            continue
        if t.text[1:-1].strip() == "kernel_operator.h":
            k = idx
            while k < len(toks) and toks[k].directive == t.directive and toks[k].kind != NEWLINE:
                k += 1
            if k < len(toks) and toks[k].kind == NEWLINE:
                return toks[k].end
            return None
    return None


def generate(src, kernels, default_type, host_stubs, line_path, asc=False):
    """The translation unit for src. asc: src is a .asc file (host code,
    kernels and launches in one file, the kernel-language keywords available
    without any #include)."""
    edits = find_launches(src, kernels, default_type) + find_asm(src) + find_device_printf(src)
    names = {}
    for k in kernels:
        if k.template:
            continue
        for other in names.get(k.name, []):
            if not src.exclusive(k.tok, other.tok):
                raise PrepassError("%s:%d: error: two kernels named '%s' in one file (the other is on line %d)"
                                   % (src.path, k.line, k.name, other.line))
        names.setdefault(k.name, []).append(k)
    need_launch_h = bool([e for e in edits if "Chevron" in e.text]) or (host_stubs and names)
    lp = _c_string(line_path)
    inserts = []   # (offset, text)
    by_offset = {}  # registration blocks by insertion offset
    for k in kernels:
        if k.template:
            continue  # each launched instantiation registers itself (launch.h)
        if k.insert_at is None:
            raise PrepassError("%s:%d: error: cannot place the registration of kernel '%s'"
                               % (src.path, k.line, k.name))
        ty = k.kernel_type or default_type
        block = "SIMNPU_ASCENDC_REGISTER_KERNEL(%s, SIMNPU_KERNEL_%s);\n" % (k.ref, ty)
        if host_stubs:
            block += _host_stub(k)
        by_offset.setdefault(k.insert_at, []).append(block)
    for off in sorted(by_offset):
        inserts.append((off, "\n" + "".join(by_offset[off]) + "#line %d %s\n" % (src.line_of(off), lp)))
    prelude = "// Generated by the simnpu ascendc.cmake pre-pass from %s; do not edit.\n" % line_path
    at = _find_kernel_operator_include(src)
    if asc:
        # the keywords first; the model and the launch glue where the file
        # includes kernel_operator.h, else at the top when anything needs them
        prelude += '#include "simnpu_ascendc/keywords.h"\n'
        need_model = need_launch_h or bool(kernels) or bool([e for e in edits if "AscendC::printf" in e.text])
        if at is None:
            if need_model:
                prelude += '#include "kernel_operator.h"\n#include "simnpu_ascendc_host/launch.h"\n'
        elif need_launch_h:
            inserts.append((at, '#include "simnpu_ascendc_host/launch.h"\n#line %d %s\n'
                            % (src.line_of(at), lp)))
    elif need_launch_h:
        if at is None:
            prelude += '#include "kernel_operator.h"\n#include "simnpu_ascendc_host/launch.h"\n'
        else:
            inserts.append((at, '#include "simnpu_ascendc_host/launch.h"\n#line %d %s\n'
                            % (src.line_of(at), lp)))
    prelude += "#line 1 %s\n" % lp
    # apply
    pieces = []
    items = sorted([(e.start, 1, e) for e in edits] + [(o, 0, t) for o, t in inserts],
                   key=lambda x: (x[0], x[1]))
    cur = 0
    for off, kind, item in items:
        if kind == 1:
            if item.start < cur:
                raise PrepassError("%s: internal error: overlapping rewrites" % src.path)
            pieces.append(src.text[cur:item.start])
            pieces.append(item.text)
            cur = item.end
        else:
            if off < cur:
                raise PrepassError("%s: internal error: insertion inside a rewrite" % src.path)
            pieces.append(src.text[cur:off])
            pieces.append(item)
            cur = off
    pieces.append(src.text[cur:])
    out = prelude + "".join(pieces)
    if not out.endswith("\n"):
        out += "\n"
    return out


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------

def _write_if_changed(path, text):
    try:
        with open(path, "r", encoding="utf-8", errors="surrogateescape") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    tmp = path + ".tmp%d" % os.getpid()
    with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)
    os.replace(tmp, path)


def _read(path):
    with open(path, "r", encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def kernel_names(kernels):
    """Names of the (non-template) kernels, each once: a kernel defined in
    several branches of an #if is one kernel."""
    out = []
    for k in kernels:
        if not k.template and k.name not in out:
            out.append(k.name)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", required=True, help="the original source file")
    ap.add_argument("--scan", action="store_true",
                    help="only print the kernel names, one per line")
    ap.add_argument("--output", help="the generated translation unit")
    ap.add_argument("--default-kernel-type", default="AIV", choices=["AIV", "AIC", "MIX", "aiv", "aic", "mix"],
                    help="kernel type when the kernel has no KERNEL_TASK_TYPE_DEFAULT")
    ap.add_argument("--asc", action="store_true",
                    help="the source is a .asc file (keywords need no #include)")
    ap.add_argument("--host-stubs", action="store_true",
                    help="define aclrtlaunch_<kernel> after each kernel")
    ap.add_argument("--header-dir", help="write aclrtlaunch_<kernel>.h here")
    ap.add_argument("--expect-kernels", default=None,
                    help="comma-separated kernel names found at configure time")
    ap.add_argument("--kernels-file", default=None,
                    help="file holding the configure-time kernel list (rewritten when it changed)")
    args = ap.parse_args(argv)

    path = os.path.abspath(args.source)
    try:
        src = Source(_read(path), path)
        kernels = find_kernels(src)
        names = kernel_names(kernels)
        if args.scan:
            sys.stdout.write("".join(n + "\n" for n in names))
            return 0
        if args.expect_kernels is not None:
            expected = [x for x in re.split(r"[;,]", args.expect_kernels) if x]
            if sorted(expected) != sorted(names):
                # Carry on (all headers are written); the changed list is a
                # configure dependency, so CMake re-runs on the next build and
                # then knows the new set of generated headers.
                if args.kernels_file:
                    _write_if_changed(args.kernels_file, "".join(n + "\n" for n in names))
                    sys.stderr.write("%s: note: the kernels of this file changed since CMake ran "
                                     "(was: %s; now: %s); CMake will run again on the next build\n"
                                     % (path, " ".join(expected) or "none", " ".join(names) or "none"))
                else:
                    sys.stderr.write("%s: error: the kernels of this file changed since CMake ran "
                                     "(was: %s; now: %s)\n"
                                     % (path, " ".join(expected) or "none", " ".join(names) or "none"))
                    return 1
        if not args.output:
            ap.error("--output is required unless --scan is given")
        out = generate(src, kernels, args.default_kernel_type.upper(), args.host_stubs, path, asc=args.asc)
        _write_if_changed(args.output, out)
        if args.header_dir:
            written = set()
            for k in kernels:
                if not k.template and k.name not in written:
                    written.add(k.name)
                    _write_if_changed(os.path.join(args.header_dir, "aclrtlaunch_%s.h" % k.name),
                                      launch_header(k, path))
    except PrepassError as e:
        sys.stderr.write(str(e) + "\n")
        return 1
    except OSError as e:
        sys.stderr.write("simnpu ascendc pre-pass: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
