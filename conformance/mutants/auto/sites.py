#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""sites.py — the mutation sites of reference C files, found with libclang (python3-clang).

  sites.py list [--sample N [--seed S]] FILE...
                                   every site, one a line (tab-separated): id, file, line, col,
                                   operator, original, replacement, start, end; with --sample, N
                                   of them chosen by the SHA-1 of seed and id (same seed and
                                   sources, same sample; a site's membership does not depend
                                   on the other sites), in file order
  sites.py check EQUIVALENT FILE...  every id listed in EQUIVALENT names a site of FILE...

A mutant replaces bytes [start, end) of FILE with the replacement (\\n, \\t and \\\\ escaped in
the listing). Operators: relational, arithmetic, logical, bitwise and shift operators replaced
(ror, aor, lor, bor, sor), compound assignments (asr), unary ! ~ - removed (uoi), ++/-- swapped
(incdec), integer constants +1 and -1 (const: masks, shift amounts, limits), assignments,
resets (= 0 / false / NULL, memset) and call statements deleted (assign-del, reset-del,
call-del), conditions of if/while/do/?: negated (cond-neg), if/else and ?: branches swapped
(branch-swap).

A site's id is FILE:FUNCTION:OPERATOR:HASH, HASH from the operator, original, replacement,
the text of the site's line and its rank among identical sites of the function: it stays the
same when other lines change, and changes when its own line does. Sites inside macro
expansions are left out. Exit status 1 when a file does not parse or (check) an id is stale.
"""
import hashlib
import os
import sys

try:
    import clang.cindex as ci
except ImportError:
    sys.stderr.write("sites.py: python3 has no clang.cindex: apt-get install python3-clang\n")
    sys.exit(3)

LIBCLANG = "/usr/lib/llvm-14/lib/libclang.so.1"
if os.path.exists(LIBCLANG) and not ci.Config.loaded:
    ci.Config.set_library_file(LIBCLANG)

K = ci.CursorKind
BINARY = {
    "<": [("ror", "<="), ("ror", ">=")], "<=": [("ror", "<"), ("ror", ">")],
    ">": [("ror", ">="), ("ror", "<=")], ">=": [("ror", ">"), ("ror", "<")],
    "==": [("ror", "!=")], "!=": [("ror", "==")],
    "+": [("aor", "-")], "-": [("aor", "+")], "*": [("aor", "/")], "/": [("aor", "*")],
    "%": [("aor", "/")],
    "&&": [("lor", "||")], "||": [("lor", "&&")],
    "&": [("bor", "|")], "|": [("bor", "&")], "^": [("bor", "|")],
    "<<": [("sor", ">>")], ">>": [("sor", "<<")],
}
COMPOUND = {"+=": "-=", "-=": "+=", "|=": "&=", "&=": "|=", "^=": "|=", "<<=": ">>=", ">>=": "<<=",
            "*=": "/=", "/=": "*="}
ZERO_TEXT = {"0", "0u", "0U", "false", "NULL", "0x0", "0ULL", "0ull", "0UL", "0ul"}


def parse(path):
    args = ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Ireference/include", "-Ireference",
            "-Iconformance/include"]
    tu = ci.Index.create().parse(path, args=args)
    errs = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    for d in errs:
        sys.stderr.write("sites.py: %s\n" % d)
    return None if errs else tu


def literal_variants(text):
    """The text of an integer literal's value +1 and -1 (same base and suffix)."""
    body = text.rstrip("uUlL")
    suffix = text[len(body):]
    try:
        if body.lower().startswith("0x"):
            v, fmt = int(body, 16), (lambda n: "0x%x" % n if body[1] == "x" else "0X%X" % n)
        elif len(body) > 1 and body.startswith("0"):
            v, fmt = int(body, 8), (lambda n: "0%o" % n)
        else:
            v, fmt = int(body, 10), str
    except ValueError:
        return []
    return [fmt(n) + suffix for n in (v + 1, v - 1) if n >= 0]


class Finder:
    def __init__(self, path, tu):
        self.path = path
        self.src = open(path, "rb").read()
        self.tu = tu
        self.sites = []
        self.lines = self.src.split(b"\n")

    def text(self, a, b):
        return self.src[a:b].decode("utf-8", "replace")

    def mine(self, c):
        f = c.extent.start.file
        return f is not None and f.name == self.path and c.extent.end.file is not None \
            and c.extent.end.file.name == self.path

    def add(self, func, op, start, end, repl):
        orig = self.text(start, end)
        line = self.src.count(b"\n", 0, start) + 1
        col = start - (self.src.rfind(b"\n", 0, start) + 1) + 1
        self.sites.append([func, op, orig, repl, line, col, start, end])

    def check_span(self, c, expect=None):
        """Extent offsets of a cursor, or None when it does not lie plainly in the file."""
        if not self.mine(c):
            return None
        a, b = c.extent.start.offset, c.extent.end.offset
        if a >= b or b > len(self.src):
            return None
        if expect is not None and self.text(a, b) != expect:
            return None
        return a, b

    def walk(self, c, func):
        if c.kind == K.FUNCTION_DECL and c.is_definition():
            func = c.spelling
        kids = list(c.get_children())
        if self.mine(c):
            self.visit(c, kids, func)
        for k in kids:
            if k.location.file is None or k.location.file.name == self.path:
                self.walk(k, func)

    def op_between(self, lhs, rhs, table):
        s1, s2 = self.check_span(lhs), self.check_span(rhs)
        if not s1 or not s2 or s1[1] > s2[0]:
            return None
        gap = self.text(s1[1], s2[0])
        op = gap.strip()
        if op not in table:
            return None
        start = s1[1] + (len(gap) - len(gap.lstrip()))
        return op, start, start + len(op)

    def statement_deletions(self, stmts, func):
        for s in stmts:
            span = self.check_span(s)
            if not span:
                continue
            t = self.text(*span)
            nxt = self.src[span[1]:span[1] + 1]
            if nxt != b";":
                continue
            if s.kind == K.CALL_EXPR:
                op = "reset-del" if t.startswith("memset") else "call-del"
            elif s.kind == K.BINARY_OPERATOR:
                kids = list(s.get_children())
                r = self.op_between(kids[0], kids[1], {"=": 1}) if len(kids) == 2 else None
                if not r:
                    continue
                rhs = self.check_span(kids[1])
                rt = self.text(*rhs).strip() if rhs else ""
                op = "reset-del" if rt in ZERO_TEXT else "assign-del"
            elif s.kind == K.COMPOUND_ASSIGNMENT_OPERATOR:
                op = "assign-del"
            elif s.kind == K.UNARY_OPERATOR and (t.startswith(("++", "--")) or t.endswith(("++", "--"))):
                op = "assign-del"
            else:
                continue
            self.add(func, op, span[0], span[1], "(void)0")

    def visit(self, c, kids, func):
        k = c.kind
        if k == K.BINARY_OPERATOR and len(kids) == 2:
            r = self.op_between(kids[0], kids[1], BINARY)
            if r:
                for op, repl in BINARY[r[0]]:
                    self.add(func, op, r[1], r[2], repl)
        elif k == K.COMPOUND_ASSIGNMENT_OPERATOR and len(kids) == 2:
            r = self.op_between(kids[0], kids[1], COMPOUND)
            if r:
                self.add(func, "asr", r[1], r[2], COMPOUND[r[0]])
        elif k == K.UNARY_OPERATOR and len(kids) == 1:
            span, inner = self.check_span(c), self.check_span(kids[0])
            if not span or not inner:
                return
            t = self.text(*span)
            if t[:2] in ("++", "--") and inner[0] == span[0] + 2:
                self.add(func, "incdec", span[0], span[0] + 2, "--" if t[:2] == "++" else "++")
            elif t[-2:] in ("++", "--") and inner[1] == span[1] - 2:
                self.add(func, "incdec", span[1] - 2, span[1], "--" if t[-2:] == "++" else "++")
            elif t[:1] in ("!", "~", "-") and inner[0] == span[0] + 1:
                self.add(func, "uoi", span[0], span[0] + 1, "")
        elif k == K.INTEGER_LITERAL:
            span = self.check_span(c)
            if span:
                t = self.text(*span)
                if t[:1].isdigit():
                    for v in literal_variants(t):
                        self.add(func, "const", span[0], span[1], v)
        elif k == K.COMPOUND_STMT:
            self.statement_deletions(kids, func)
        elif k in (K.CASE_STMT, K.DEFAULT_STMT):
            self.statement_deletions(kids[-1:], func)
        elif k == K.IF_STMT:
            self.negate(kids[0], func)
            self.statement_deletions(kids[1:], func)
            if len(kids) == 3 and kids[2].kind != K.IF_STMT:
                self.swap(kids[1], kids[2], func)
        elif k in (K.WHILE_STMT, K.DO_STMT):
            self.negate(kids[0] if k == K.WHILE_STMT else kids[-1], func)
        elif k == K.CONDITIONAL_OPERATOR and len(kids) == 3:
            self.negate(kids[0], func)
            self.swap(kids[1], kids[2], func)

    def negate(self, cond, func):
        span = self.check_span(cond)
        if span:
            self.add(func, "cond-neg", span[0], span[1], "!(" + self.text(*span) + ")")

    def swap(self, a, b, func):
        sa, sb = self.check_span(a), self.check_span(b)
        if sa and sb and sa[1] <= sb[0]:
            new = self.text(*sb) + self.text(sa[1], sb[0]) + self.text(*sa)
            self.add(func, "branch-swap", sa[0], sb[1], new)


def escape(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def sites_of(path):
    tu = parse(path)
    if tu is None:
        return None
    f = Finder(path, tu)
    f.walk(tu.cursor, "-")
    rank = {}
    out = []
    for func, op, orig, repl, line, col, start, end in sorted(f.sites, key=lambda s: (s[6], s[7], s[3])):
        ltext = f.lines[line - 1].decode("utf-8", "replace").strip()
        key = (func, op, orig, repl, ltext)
        rank[key] = rank.get(key, 0) + 1
        h = hashlib.sha1(("%s|%s|%s|%s|%d" % (op, orig, repl, ltext, rank[key])).encode()).hexdigest()[:8]
        out.append(("%s:%s:%s:%s" % (path, func, op, h), path, line, col, op, orig, repl, start, end))
    return out


def main(argv):
    if len(argv) < 3 or argv[1] not in ("list", "check"):
        sys.stderr.write(__doc__)
        return 2
    files = argv[2:] if argv[1] == "list" else argv[3:]
    sample, seed = None, "1"
    while argv[1] == "list" and files[:1] and files[0] in ("--sample", "--seed") and len(files) > 1:
        if files[0] == "--sample":
            sample = int(files[1])
        else:
            seed = files[1]
        files = files[2:]
    sites = []
    for p in files:
        s = sites_of(p)
        if s is None:
            sys.stderr.write("sites.py: %s does not parse\n" % p)
            return 1
        sites += s
    if argv[1] == "list":
        if sample is not None and sample < len(sites):
            def draw(s):
                return hashlib.sha1(("%s|%s" % (seed, s[0])).encode()).hexdigest()
            keep = set(x[0] for x in sorted(sites, key=draw)[:sample])
            sites = [s for s in sites if s[0] in keep]
        for s in sites:
            print("\t".join(escape(str(x)) for x in s))
        return 0
    ids = {s[0] for s in sites}
    stale = 0
    n = 0
    for ln in open(argv[2], encoding="utf-8"):
        ln = ln.strip()
        if not ln or ln.startswith("#"):
            continue
        n += 1
        sid = ln.split()[0]
        if sid not in ids:
            print("stale: %s" % sid)
            stale += 1
    print("equivalent: %d entries, %d stale" % (n, stale))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
