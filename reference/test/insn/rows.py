# SPDX-License-Identifier: BSD-3-Clause
"""rows.py — the instruction tables of this folder (a32.tsv, t32.tsv) as the L3 vector generators
of vectors/etmv1/mut/gen.py and vectors/etmv2/mut/gen.py read them: the rows, a branch row's
target, and the branch rows laid out one to a region of an image."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

SPACE = 0x10000          # one branch row a region
BASE = 0x40000000


def load(name):
    """The rows of NAME.tsv: offset, bytes, size, type, cond, next (isa), target (None: none), source."""
    rows = []
    with open(os.path.join(HERE, name + ".tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            c = line.rstrip("\n").split("\t")
            rows.append({"offset": int(c[0], 16), "bytes": bytes.fromhex(c[1]), "size": int(c[2]), "type": c[3],
                         "cond": int(c[5]), "next": c[6],
                         "target": None if c[7] == "-" else int(c[7], 16), "source": c[8]})
    return rows


def target_of(row, addr):
    """A direct branch row's target with the row at addr."""
    return (addr + row["target"]) & 0xFFFFFFFF


def other_rows(rows, isa, base):
    """The rows that are not branches (other, wfx, isb), to lay out in table order from base, and a
    direct unconditional branch that stays in isa (no BL) whose target with the branch after them is
    more than 16 bytes away from them: (body, tail)."""
    body = [r for r in rows if r["type"] in ("other", "wfx", "isb")]
    end = base + sum(r["size"] for r in body)
    for r in rows:
        if r["type"] == "dir" and r["cond"] == 0 and r["next"] == isa and r["source"].find(" bl") < 0:
            t = (end + r["target"]) & 0xFFFFFFFF
            if not (base - 16 <= t < end + r["size"] + 16):
                return body, r
    return body, None


def place_in_order(v, body, tail, base, cycles):
    """Places the rows of body one after another from base in v (an Image), then tail, each through
    cycles(row, what) (its trace cycles, returning the offset of the last); returns (first, at): the
    offset of the first row's last cycle, and the address of tail."""
    a = base
    first = None
    for r in body:
        v.place(a, r["bytes"], r["source"])
        o = cycles(r, "%s at 0x%x" % (r["source"], a))
        first = o if first is None else first
        a += r["size"]
    v.place(a, tail["bytes"], tail["source"])
    cycles(tail, "%s at 0x%x: to its target" % (tail["source"], a))
    return first, a


class Image:
    """The regions of a vector's image: (address, bytes, note)."""

    def __init__(self):
        self.image = []

    def place(self, addr, b, note):
        for a, bb, _ in self.image:
            if addr < a + len(bb) and a < addr + len(b):
                raise SystemExit("overlap at 0x%x" % addr)
        self.image.append((addr, b, note))

    def inside(self, addr):
        return any(a <= addr < a + len(bb) for a, bb, _ in self.image)

    def image_lines(self):
        """The vector's [image] sections: one a run of adjacent regions, a line a region."""
        out, nxt = [], None
        for a, b, note in sorted(self.image):
            if a != nxt:
                out.append("[image base=0x%x]" % a)
            out.append(" ".join("%02x" % x for x in b) + "   # 0x%x %s" % (a, note))
            nxt = a + len(b)
        return out


def lay_out_branches(v, body, kind):
    """Places each row of body at BASE + i * SPACE (its offset's low bits kept) in v (an Image).
    Returns (keep, skipped, park): the (row, address) pairs kept, the sources of the direct branches
    left out (their target inside their own bytes, not at their start, or on another row, or at
    park), and park, an address after the regions that the image does not hold; v's image is the
    kept rows."""
    addrs = [BASE + i * SPACE + (r["offset"] & 3) for i, r in enumerate(body)]
    park = BASE + len(body) * SPACE + 0x100
    skipped = []
    for r, a in zip(body, addrs):
        v.place(a, r["bytes"], r["source"])
    keep = []
    for r, a in zip(body, addrs):
        if kind == "dir":
            t = target_of(r, a)
            if t != a and (v.inside(t) or v.inside(t + 1) or t == park):
                skipped.append(r["source"])
                continue
        keep.append((r, a))
    v.image = [(a, r["bytes"], r["source"]) for r, a in keep]
    return keep, skipped, park


def write_table_vectors(other_vector, branch_vector):
    """For the A32 and T32 tables: other_vector(isa, rows) once, then branch_vector(isa, rows, kind,
    part, body) for the direct and the indirect branch rows, 60 a vector (a vector gives at most 64
    image regions, one a row), parts from 1."""
    for isa in ("a32", "t32"):
        rows = load(isa)
        other_vector(isa, rows)
        for kind in ("dir", "indir"):
            body = [r for r in rows if r["type"] == kind]
            for part in range(0, len(body), 60):
                branch_vector(isa, rows, kind, part // 60 + 1, body[part:part + 60])
