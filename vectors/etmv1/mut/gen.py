#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# gen.py — writes m-insn-*.tcv and m-xfer-*.tcv beside it (run from the repository's top:
# python3 vectors/etmv1/mut/gen.py): the instruction tables of reference/test/insn (a32.tsv,
# t32.tsv: GNU as encodings, each row's type, condition, next instruction set and target written by
# hand in the .S source beside the instruction) as ETMv1 L3 vectors, and the transfer tables of
# reference/test/armxfer (a32.tsv, t32.tsv: GNU as encodings, each row's kind, number of transfers
# and bytes of each written by hand beside the instruction) as ETMv1 L1 vectors with data values.
# Each expected line is the rule written in the vector's description applied to one row's columns;
# nothing here runs a decoder or reads reference/insn.c or reference/armxfer.c.
import re
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True   # no __pycache__ in the tree
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "reference", "test", "insn"))
from rows import (BASE, SPACE, Image, lay_out_branches, other_rows, place_in_order,  # noqa: E402
                  target_of, write_table_vectors)
XFER = os.path.join(HERE, "..", "..", "..", "reference", "test", "armxfer")

IE, ID, IN, WT, BE, BD = 0, 1, 2, 3, 4, 5



class Vec(Image):
    """A vector being laid out: 8-bit port records (PIPESTAT | TRACESYNC << 4, TRACEPKT), the image,
    the L1 and L3 lines."""

    def __init__(self, isa):
        self.isa = isa              # "a32" or "t32": the table's
        self.recs = []              # (status byte, packet byte, note)
        self.l1 = []
        self.l3 = []
        self.image = []             # (address, bytes, note)
        self.types = {}             # address: the type column of the row placed there
        self.errors = []            # [error] lines: CLASS OFFSET

    def off(self):
        return 16 + 2 * len(self.recs)

    def rec(self, st, pkt, note, sync=0):
        self.recs.append((st | (sync << 4), pkt, note))

    def go(self, addr, isa, reason, note):
        """BE | TRACESYNC and a five-packet address (§5.5.4 L8163-8192, Table 5-3 L8206-8217): A[6:0],
        A[13:7], A[20:14], A[27:21] with bit 7 set (more), then reason << 4 | A[31:28]; the two APO
        cycles (b000 b000: APO 0, this branch's own TRACESYNC, §5.6.1 L8231-8235) and two WT cycles
        carry packets 2-5 (ETM1-P2). Bit 0 of the address is the Thumb bit (§5.5.2 L8155)."""
        o = self.off()
        a = addr | (1 if isa == "t32" else 0)
        p = [0x80 | (a & 0x7F), 0x80 | ((a >> 7) & 0x7F), 0x80 | ((a >> 14) & 0x7F), 0x80 | ((a >> 21) & 0x7F),
             (reason << 4) | ((a >> 28) & 0xF)]
        self.rec(BE, p[0], "BE | TRACESYNC: %s; A[6:0], more" % note, sync=1)
        self.rec(IE, p[1], "APO cycle b000; A[13:7], more")
        self.rec(IE, p[2], "APO cycle b000 (APO 0); A[20:14], more")
        self.rec(WT, p[3], "WT; A[27:21], more")
        self.rec(WT, p[4], "WT; fifth: reason b%03d, A[31:28]: 0x%x %s" % (int(bin(reason)[2:]), addr, isa))
        self.l1.append("@%d 4 be pkt=%d addr=0x%x isa=%s n=5 reason=%d apo=0"
                       % (o, o, addr, "thumb" if isa == "t32" else "arm", reason))
        return o

    def status(self, st, note):
        o = self.off()
        self.rec(st, 0, note)
        self.l1.append("@%d %d %s" % (o, st, {IE: "ie", IN: "in", ID: "id"}[st]))
        return o

    def address(self, addr, isa, reason):
        a = addr | (1 if isa == "t32" else 0)
        return [0x80 | (a & 0x7F), 0x80 | ((a >> 7) & 0x7F), 0x80 | ((a >> 14) & 0x7F), 0x80 | ((a >> 21) & 0x7F),
                (reason << 4) | ((a >> 28) & 0xF)]

    def holds(self, addr):
        """The row placed whole at addr, by its own region (a row alone in its region)."""
        return self.types.get(addr)

    def write(self, name, desc, tags, data_value=0, cprt=0, l3=True):
        out = ["tracecert-vector 1"]
        out += ["# " + l if l else "#" for l in desc.split("\n")]
        out += ["[config]", "protocol=etmv1", "version=1", "port_width=8", "port_mode=0", "half_rate=0",
                "contextid_size=0", "data_address=0", "data_value=%d" % data_value, "cprt=%d" % cprt, "cycle_accurate=0",
                "branch_output=0", "hivecs=0", "[tags]", tags, "[trace]",
                "45 54 4d 43 01 01 01 08 00 00 00 00 00 00 00 00   # @0 header: ETMC, rev 1, ETMv1.1, 8-bit, normal"]
        o = 16
        for st, pkt, note in self.recs:
            out.append("%02x %02x    # @%d %s" % (st, pkt, o, note))
            o += 2
        out += self.image_lines()
        out.append("[expect.l1]")
        out += self.l1
        if l3:
            out.append("[expect.l3]")
            out += self.l3
        if self.errors:
            out.append("[error strict=resync]")
            out += self.errors
        out.append("[end]")
        with open(os.path.join(HERE, name), "w") as f:
            f.write("\n".join(out) + "\n")


def insn_cycles(v, row, last_st, what):
    """The PIPESTATs of one instruction: a 32-bit T32 one is two (ERRATA ETM1-P25: the first IE walks
    nothing); the last is last_st. Returns the offset of the last."""
    if v.isa == "t32" and row["size"] == 4:
        v.status(IE, "IE: first halfword of %s (walks nothing, ETM1-P25)" % what)
    return v.status(last_st, "%s: %s" % ({IE: "IE", IN: "IN"}[last_st], what))


def where(v, addr, isa, off, why):
    """What a BE finds at the walk's address addr (valid): the row there, an executed branch of its
    instruction (ETM1-P38: the instruction ends its range, taken=E); else no-image (ETM1-P38)."""
    r = v.holds(addr)
    if r is not None:
        v.l3.append("@%d range first=0x%x last=0x%x n=1 isa=%s type=%s taken=E" % (off, addr, addr, isa, r))
    else:
        v.l3.append("@%d no-image addr=0x%x isa=%s" % (off, addr, isa))


def other_vector(isa, rows):
    v = Vec(isa)
    base = 0x10000 if isa == "a32" else 0x20000
    body, tail = other_rows(rows, isa, base)
    o = v.go(base, isa, 1, "trace on at the first row")
    v.l3.append("@%d trace-on" % o)
    first_off, a = place_in_order(v, body, tail, base, lambda r, what: insn_cycles(v, r, IE, what))
    v.l3.append("@%d range first=0x%x last=0x%x n=%d isa=%s type=dir taken=E"
                % (first_off, base, a, len(body) + 1, isa))
    t = target_of(tail, a)
    o = v.status(IE, "IE: at 0x%x, the image holds nothing" % t)
    v.l3.append("@%d no-image addr=0x%x isa=%s" % (o, t, tail["next"]))
    desc = """The %s table of reference/test/insn (%s.tsv) as ETMv1 L3: every row that is not a branch
(other, wfx, isb: %d rows), in table order from 0x%x, then the direct branch %s. The trace:
BE | TRACESYNC with a five-packet address to 0x%x, reason b001 (Table 5-3 L8206-8217: trace-on,
ERRATA ETM1-P15), then one IE per instruction (Table 5-1 L7958: executed; ETMv1 gives every
instruction a PIPESTAT, L7950-7952), two for a 32-bit T32 one (ERRATA ETM1-P25: the first walks
nothing). L3 (reference/etmv1/FORMAT.md "L3"): a range ends at a branch only (ERRATA ETM1-P38),
so the rows and the branch are one range of %d instructions ending type=dir taken=E, its offset its
first instruction's cycle; each row's size (the table's) places the next, so a wrong size or a row
taken for a branch changes the range. An IE after the branch (a direct branch executed goes to its
target, Table 5-1 L7958) finds no image at the target: no-image there, in the target's instruction
set (the table's next_isa column), and the walk waits (ETM1-P38).""" % (
        isa.upper(), isa, len(body), base, tail["source"], base, len(body) + 1)
    v.write("m-insn-%s-other.tcv" % isa, desc, "l3 insn %s L7958 table-5-1" % isa)


def branch_vector(isa, rows, kind, part, body):
    v = Vec(isa)
    space, base = SPACE, BASE
    keep, skipped, park = lay_out_branches(v, body, kind)
    v.types = {a: r["type"] for r, a in keep}
    pos = None          # the walk's address and isa while it is valid after an instruction
    for i, (r, a) in enumerate(keep):
        if i == 0:
            o = v.go(a, isa, 1, "trace on at %s" % r["source"])
            v.l3.append("@%d trace-on" % o)
        else:
            o = v.go(a, isa, 0, "to %s" % r["source"])
            if pos is not None:
                where(v, pos[0], pos[1], o, "")
        what = "%s at 0x%x" % (r["source"], a)
        if kind == "dir":
            o = insn_cycles(v, r, IE, what + ", executed")
            v.l3.append("@%d range first=0x%x last=0x%x n=1 isa=%s type=dir taken=E" % (o, a, a, isa))
            pos = (target_of(r, a), r["next"])
            if r["cond"]:
                o = v.go(a, isa, 0, "back to %s" % r["source"])
                where(v, pos[0], pos[1], o, "")
                o = insn_cycles(v, r, IN, what + ", not executed")
                v.l3.append("@%d range first=0x%x last=0x%x n=1 isa=%s type=dir taken=N" % (o, a, a, isa))
                pos = ((a + r["size"]) & 0xFFFFFFFF, isa)
        else:
            if r["cond"]:
                o = insn_cycles(v, r, IN, what + ", not executed")
                v.l3.append("@%d range first=0x%x last=0x%x n=1 isa=%s type=indir taken=N" % (o, a, a, isa))
                o = v.go(a, isa, 0, "back to %s" % r["source"])
                where(v, (a + r["size"]) & 0xFFFFFFFF, isa, o, "")
            if isa == "t32" and r["size"] == 4:
                v.status(IE, "IE: first halfword of %s (walks nothing, ETM1-P25)" % what)
            pos = (a, isa)   # the next BE is this instruction's: it ends its range, taken=E
    o = v.go(park, isa, 0, "to 0x%x, where the image holds nothing" % park)
    if pos is not None:
        where(v, pos[0], pos[1], o, "")
    o = v.status(IE, "IE at 0x%x: the image holds nothing" % park)
    v.l3.append("@%d no-image addr=0x%x isa=%s" % (o, park, isa))
    if kind == "dir":
        rule = """Each row R alone in the image at its own address A (0x%x + 0x%x a row, plus the row's
table offset modulo 4: a T32 BLX's target depends on it); the walk is at R by a BE | TRACESYNC with
a five-packet address (the first reason b001: trace-on, Table 5-3; the others b000, normal), whose
two APO cycles (b000 b000: APO 0) and two WT cycles carry packets 2-5 (ERRATA ETM1-P2, ETM1-P9).
R executed: an IE (Table 5-1 L7958: "also used for direct branches"; a 32-bit T32 row two, the
first walking nothing, ERRATA ETM1-P25): range A n=1 type=dir taken=E, and the walk goes to the
target (A + the table's target, 32 bits) in the next_isa column's instruction set. The next BE
(ERRATA ETM1-P38: a BE with a valid walk is the branch of the instruction at the walk's address)
finds there the image's nothing: no-image at the target; a row whose target is its own address
(b .) finds itself: range A type=dir taken=E again. A conditional row is then given a BE back to
A and an IN (Table 5-1 L7960, ERRATA ETM1-P26): range A type=dir taken=N, the walk at A + size
(the table's), where the next BE finds nothing: no-image there. The last BE goes to 0x%x, which
the image does not hold, and an IE there gives no-image. Left out (a target inside the row's
own bytes or on another row): %s.""" % (base, space, park, ", ".join(skipped) or "none")
    else:
        rule = """Each row R alone in the image at its own address A (0x%x + 0x%x a row, plus the row's
table offset modulo 4); the walk is at R by a BE | TRACESYNC with a five-packet address (the first
reason b001: trace-on, Table 5-3; the others b000, normal), whose two APO cycles (b000 b000: APO 0)
and two WT cycles carry packets 2-5 (ERRATA ETM1-P2, ETM1-P9). R executed: the BE to the next row
is R's (Table 5-1 L7962: "generated when an indirect branch is executed"; a 32-bit T32 row has an
IE first, walking nothing, ERRATA ETM1-P25): range A n=1 type=indir taken=E (ERRATA ETM1-P38),
and the walk moves to the BE's address. A conditional row is first given an IN (Table 5-1 L7960,
ERRATA ETM1-P26): range A type=indir taken=N, the walk at A + size (the table's), then a BE back to
A, which finds nothing at A + size: no-image there. The last BE goes to 0x%x, which the image
does not hold, and an IE there gives no-image.""" % (base, space, park)
    desc = """The %s rows of the %s table of reference/test/insn (%s.tsv) as ETMv1 L3, part %d: %d rows
(at most 60 a vector: a vector gives at most 64 image regions, one a row).
%s""" % (kind, isa.upper(), isa, part, len(keep), rule)
    v.write("m-insn-%s-%s-%d.tcv" % (isa, kind, part), desc, "l3 insn %s %s L7958 L7962 table-5-1" % (isa, kind))


def load_xfer(name):
    rows = []
    with open(os.path.join(XFER, name + ".tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            c = line.rstrip("\n").split("\t")
            rows.append({"offset": int(c[0], 16), "bytes": bytes.fromhex(c[1]), "size": int(c[2]), "kind": c[3],
                         "count": int(c[4]), "each": int(c[5]), "writes_pc": int(c[6]), "cond": int(c[7]),
                         "source": "%s.tsv %s %s" % (name, c[0], c[8])})
    return rows


BRANCH = re.compile(r"^(b|bl|blx|bx)(eq|ne|cs|cc|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?(\.n|\.w)?$|^cbn?z$")


def is_branch(r):
    """A row the vector gives a BD: a load that writes the PC (the table's writes_pc column), a
    branch by its mnemonic (b, bl, blx, bx with a condition, cbz, cbnz) or mov pc."""
    words = r["source"].split(" ", 2)[2].replace(",", " ").split()
    return r["writes_pc"] == 1 or BRANCH.match(words[0]) is not None or (words[0] == "mov" and words[1] == "pc")


def value_bytes(k, each):
    return [(k * 16 + j + 1) & 0xFF for j in range(each)]


def xfer_vector(isa, rows, part):
    v = Vec(isa)
    base = 0x8000
    for r in rows:
        v.place(base + r["offset"], r["bytes"], r["source"])
    first = base + rows[0]["offset"]
    v.go(first, isa, 1, "trace on at %s" % rows[0]["source"])
    for i, r in enumerate(rows):
        a = base + r["offset"]
        nxt = base + rows[i + 1]["offset"] if i + 1 < len(rows) else 0x100000
        if isa == "t32" and r["size"] == 4:
            v.status(IE, "IE: first halfword of %s (walks nothing, ETM1-P25)" % r["source"])
        if r["kind"] in ("ldc", "stc"):
            o = v.off()
            v.rec(ID, 0, "ID: %s: LDC/STC, the coprocessor's length (ETM1-P10): unknown-length" % r["source"])
            v.l1.append("@%d 1 error class=unknown-length" % o)
            v.errors.append("unknown-length %d" % o)
            v.go(nxt, isa, 0, "to the next row: synchronises again (ETM1-P9)")
            continue
        pk = []
        vals = []
        if r["kind"] in ("load", "store", "swap", "mrc", "mcr"):
            for k in range(r["count"]):
                b = value_bytes(k, r["each"])
                pk += [(x, "value %d byte %d" % (k + 1, j)) for j, x in enumerate(b)]
                vals.append(" value=0x%x size=%d" % (sum(x << (8 * j) for j, x in enumerate(b)), r["each"]))
        o = v.off()
        if is_branch(r):
            ap = v.address(nxt, isa, 0)
            pk += [(ap[j], "address packet %d%s" % (j + 1, " (TRACESYNC)" if j == 0 else "")) for j in range(5)]
            sync_at = len(pk) - 5
            for j, (x, note) in enumerate(pk):
                st = BD if j == 0 else IE if j < 3 else WT
                what = "BD: %s" % r["source"] if j == 0 else "APO cycle b000 (APO 0)" if j < 3 else "WT"
                v.rec(st, x, "%s; %s" % (what, note), sync=1 if j == sync_at else 0)
            v.l1.append("@%d 5 bd pkt=%d%s addr=0x%x isa=%s n=5 reason=0 apo=0"
                        % (o, o, "".join(vals), nxt, "thumb" if isa == "t32" else "arm"))
        elif not pk:
            v.status(IE, "IE: %s: no transfer traced" % r["source"])
        else:
            for j, (x, note) in enumerate(pk):
                what = "ID: %s" % r["source"] if j == 0 else "WT"
                v.rec(ID if j == 0 else WT, x, "%s; %s" % (what, note))
            v.l1.append("@%d 1 id pkt=%d%s" % (o, o, "".join(vals)))
    desc = """The %s table of reference/test/armxfer (%s.tsv) as ETMv1 L1 with data_value=1 and cprt=1,
part %d: %d rows, each where the table puts it from 0x%x, in table order. BE | TRACESYNC with a
five-packet address to the first, reason b001 (Table 5-3 L8206-8217), its two APO cycles (b000
b000: APO 0, §5.6.1 L8231-8235) and two WT cycles carrying packets 2-5 (ERRATA ETM1-P2). Then each
row (a 32-bit T32 row after an IE that walks nothing, ERRATA ETM1-P25): an ID (Table 5-1 L7959),
whose values (loads, stores, SWP/SWPB, and with cprt=1 MRC, MCR, MCRR, MRRC: ERRATA ETM1-P31,
ETM1-P37) are the table's count of transfers of its bytes each (Table 5-2 L8133-8135, ERRATA
ETM1-P10, ETM1-P36), their bytes least significant first (ERRATA ETM1-P12) on the ID's own cycle
and WT cycles after it (ERRATA ETM1-P2); a row of no value (none, preload, an empty register list:
ETM1-P36, ETM1-P37) an IE (Table 5-1 L7958: "load or store instructions that did not have their
data traced"). A row that writes the PC (the writes_pc column) or is a branch (b, bl, blx, bx, cbz,
cbnz, mov pc) is a BD (Table 5-1 L7970: a load to the PC) with its values, then a five-packet
address (reason b000) to the next row, its first packet with TRACESYNC, on the BD's cycle, its two
APO cycles (b000: APO 0) and WT cycles: the BD's item has its values and the address (ERRATA
ETM1-P11: values before the branch address). LDC and STC (kind ldc, stc) with data_value=1:
`unknown-length` at the ID (ERRATA ETM1-P10), and a BE with a five-packet address to the next row
synchronises again (ERRATA ETM1-P9). Value k's byte j (from 0) is k * 16 + j + 1.""" % (
        isa.upper(), isa, part, len(rows), base + rows[0]["offset"])
    v.write("m-xfer-%s-%d.tcv" % (isa, part), desc, "data armxfer %s table-5-2 L8133" % isa,
            data_value=1, cprt=1, l3=False)


def main():
    for isa in ("a32", "t32"):
        rows = load_xfer(isa)
        for part in range(0, len(rows), 40):
            xfer_vector(isa, rows[part:part + 40], part // 40 + 1)
    write_table_vectors(other_vector, branch_vector)


main()
