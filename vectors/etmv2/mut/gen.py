#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# gen.py — writes m-insn-*.tcv beside it (run from the repository's top: python3
# vectors/etmv2/mut/gen.py): the instruction tables of reference/test/insn (a32.tsv, t32.tsv: GNU as
# encodings, each row's type, condition, next instruction set and target written by hand in the .S
# source beside the instruction) as ETMv2 L3 vectors, as vectors/etmv1/mut/gen.py writes them for
# ETMv1. Each expected line is the rule written in the vector's description applied to one row's
# columns; nothing here runs a decoder or reads reference/insn.c.
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True   # no __pycache__ in the tree
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "reference", "test", "insn"))
from rows import (BASE, SPACE, Image, lay_out_branches, other_rows, place_in_order,  # noqa: E402
                  target_of, write_table_vectors)

IE, DE, IN, WT, TD = 0, 1, 2, 4, 7



def isa_name(isa):
    return "thumb" if isa == "t32" else "arm"


def branch_bytes(addr, isa):
    """A five-byte branch address (§6.7.1 L9132-9138, Table 6-9 L9180-9191, ERRATA ETM2-S4): ARM: A[31:2]
    shifted left by one with a low 1, fifth byte b0E001XXX (E = 0); Thumb: A[31:1] with a low 1, fifth
    byte b0001XXXX; bit 7 set in all but the last byte (L9122)."""
    if isa == "a32":
        v = ((addr >> 2) << 1) | 1
        last = 0x08 | ((v >> 28) & 0x7)
    else:
        v = (addr & ~1) | 1
        last = 0x10 | ((v >> 28) & 0xF)
    return [0x80 | ((v >> (7 * i)) & 0x7F) for i in range(4)] + [last]


class Vec(Image):
    """A vector being laid out: 8-bit port records (PIPESTAT, TRACEPKT), the image, the L1 and L3
    lines."""

    def __init__(self, isa):
        self.isa = isa
        self.recs = []
        self.l1 = []
        self.l3 = []
        self.image = []
        self.types = {}

    def off(self):
        return 16 + 2 * len(self.recs)

    def rec(self, st, pkt, note):
        self.recs.append((st, pkt, note))

    def go(self, addr, isa, note):
        """A TFO (TD, TRACEPKT 0x09: TFO 0, Table 6-4 L8869-8889, nothing in the FIFO) and its packet
        on the WT cycles after it: header 0x20 (normal, reason b01: trace-on, Tables 6-6, 6-7
        L8972-9016) and the 4-byte address, least significant byte first, bit 0 the Thumb bit
        (§6.5.4 L8999-9001, ERRATA ETM2-P12). L3: trace-on; the walk stands at the address (ERRATA
        ETM2-P13, P28)."""
        o = self.off()
        a = addr | (1 if isa == "t32" else 0)
        self.rec(TD, 0x09, "TD, TRACEPKT = 0x09: TFO 0; %s" % note)
        self.rec(WT, 0x20, "WT: TFO header 0x20: normal, reason b01")
        for i in range(4):
            self.rec(WT, (a >> (8 * i)) & 0xFF, "WT: address byte %d%s" % (
                i, ": 0x%x %s" % (addr, isa_name(isa)) if i == 3 else ""))
        self.l1.append("@%d 7 tfo value=0 pkt=%d" % (o, o + 2))
        self.l1.append("@%d 7 +tfo-packet reason=1 lsip=0 addr=0x%x isa=%s" % (o, addr, isa_name(isa)))
        self.l3.append("@%d trace-on" % o)
        return o

    def status(self, st, note):
        o = self.off()
        self.rec(st, 0, note)
        self.l1.append("@%d %d %s" % (o, st, {IE: "ie", IN: "in"}[st]))
        return o

    def de_branch(self, addr, isa, note):
        """DE with its group, a five-byte branch address (branch_bytes), on its own cycle and the four
        WT cycles after it (§6.3 L8625-8634: the FIFO empty, the group goes out at once, ERRATA
        ETM2-P2)."""
        o = self.off()
        b = branch_bytes(addr, isa)
        self.rec(DE, b[0], "DE: %s; branch address byte 0" % note)
        for i in range(1, 5):
            self.rec(WT, b[i], "WT: branch address byte %d%s" % (
                i, ": 0x%x %s" % (addr, isa_name(isa)) if i == 4 else ""))
        self.l1.append("@%d 1 de pkt=%d" % (o, o))
        self.l1.append("@%d 1 +branch addr=0x%x isa=%s n=5%s" % (o, addr, isa_name(isa), " e=0" if isa == "a32" else ""))
        return o

    def write(self, name, desc, tags):
        out = ["tracecert-vector 1"]
        out += ["# " + l if l else "#" for l in desc.split("\n")]
        out += ["[config]", "protocol=etmv2", "version=0", "port_width=8", "port_mode=0", "half_rate=0",
                "contextid_size=0", "data_address=0", "data_value=0", "cprt=0", "cycle_accurate=0",
                "branch_output=0", "hivecs=0", "fifo_depth=0", "[tags]", tags, "[trace]",
                "45 54 4d 43 01 02 00 08 00 00 00 00 00 00 00 00   # @0 header: ETMC, rev 1, ETMv2.0, 8-bit, normal"]
        o = 16
        for st, pkt, note in self.recs:
            out.append("%02x %02x    # @%d %s" % (st, pkt, o, note))
            o += 2
        out += self.image_lines()
        out.append("[expect.l1]")
        out += self.l1
        out.append("[expect.l3]")
        out += self.l3
        out.append("[end]")
        with open(os.path.join(HERE, name), "w") as f:
            f.write("\n".join(out) + "\n")


def insn_cycles(v, row, last_st, what):
    """The PIPESTATs of one instruction: a 32-bit T32 one is two (ERRATA ETM2-P27, ETM1-P25: the first
    walks nothing); the last is last_st. Returns the offset of the last."""
    if v.isa == "t32" and row["size"] == 4:
        v.status(IE, "IE: first halfword of %s (walks nothing, ETM2-P27)" % what)
    return v.status(last_st, "%s: %s" % ({IE: "IE", IN: "IN"}[last_st], what))


def look(v, addr, isa, row_at, what, row=None):
    """An IE with the walk at addr: the row placed there executes again (only a row whose target is
    itself, b .: two IEs for a 32-bit T32 one, ERRATA ETM2-P27), else no-image at addr (ERRATA
    ETM2-P16). Returns the offset of the IE that walks the row when one is there."""
    if addr == row_at:
        return insn_cycles(v, row, IE, "%s at 0x%x, %s" % (row["source"], addr, what))
    o = v.status(IE, "IE: at 0x%x, %s" % (addr, what))
    v.l3.append("@%d no-image addr=0x%x isa=%s" % (o, addr, isa))
    return None


def range_line(o, a, isa, typ, taken):
    return "@%d range first=0x%x last=0x%x n=1 isa=%s type=%s taken=%s" % (o, a, a, isa, typ, taken)


def other_vector(isa, rows):
    v = Vec(isa)
    base = 0x10000 if isa == "a32" else 0x20000
    body, tail = other_rows(rows, isa, base)
    v.go(base, isa, "trace on at the first row")
    first_off, a = place_in_order(v, body, tail, base, lambda r, what: insn_cycles(v, r, IE, what))
    t = target_of(tail, a)
    o = v.status(IE, "IE: at 0x%x, the image holds nothing" % t)
    v.l3.append("@%d range first=0x%x last=0x%x n=%d isa=%s type=dir taken=E"
                % (first_off, base, a, len(body) + 1, isa))
    v.l3.append("@%d no-image addr=0x%x isa=%s" % (o, t, tail["next"]))
    desc = """The %s table of reference/test/insn (%s.tsv) as ETMv2 L3: every row that is not a branch
(other, wfx, isb: %d rows), in table order from 0x%x, then the direct branch %s. The trace
(8-bit port): a TFO to 0x%x, reason b01 (Table 6-4 L8869-8889, Tables 6-6, 6-7 L8972-9016: trace-on;
its packet on the WT cycles after it, ERRATA ETM2-P12, P13), then one IE per instruction (Table 6-1
L8460-8490: executed), two for a 32-bit T32 one (ERRATA ETM2-P27, as ETM1-P25: the first walks
nothing). L3 (reference/etmv1/FORMAT.md "L3"): a range ends at a branch only, so the rows and the
branch are one range of %d instructions ending type=dir taken=E, its offset its first instruction's
cycle; each row's size (the table's) places the next, so a wrong size or a row taken for a branch
changes the range. An IE after the branch (a direct branch executed goes to its target) finds no
image at the target: no-image there, in the target's instruction set (the table's next_isa column),
and the walk waits (ERRATA ETM2-P16). The analyzer asks for no WFx type (wfx rows are other).""" % (
        isa.upper(), isa, len(body), base, tail["source"], base, len(body) + 1)
    v.write("m-insn-%s-other.tcv" % isa, desc, "l3 insn %s L8460 table-6-1" % isa)


def branch_vector(isa, rows, kind, part, body):
    v = Vec(isa)
    space, base = SPACE, BASE
    keep, skipped, park = lay_out_branches(v, body, kind)
    for r, a in keep:
        what = "%s at 0x%x" % (r["source"], a)
        after = (a + r["size"]) & 0xFFFFFFFF
        if kind == "dir":
            v.go(a, isa, "to %s" % r["source"])
            o = insn_cycles(v, r, IE, what + ", executed")
            t = target_of(r, a)
            v.l3.append(range_line(o, a, isa, "dir", "E"))
            again = look(v, t, r["next"], a, "the branch's target", r)
            if again is not None:
                v.l3.append(range_line(again, a, isa, "dir", "E"))
            if r["cond"]:
                v.go(a, isa, "back to %s" % r["source"])
                o = insn_cycles(v, r, IN, what + ", not executed")
                v.l3.append(range_line(o, a, isa, "dir", "N"))
                look(v, after, isa, None, "the next address, where the image holds nothing")
        else:
            if r["cond"]:
                v.go(a, isa, "to %s" % r["source"])
                o = insn_cycles(v, r, IN, what + ", not executed")
                v.l3.append(range_line(o, a, isa, "indir", "N"))
                look(v, after, isa, None, "the next address, where the image holds nothing")
            v.go(a, isa, "%s %s" % ("back to" if r["cond"] else "to", r["source"]))
            if isa == "t32" and r["size"] == 4:
                v.status(IE, "IE: first halfword of %s (walks nothing, ETM2-P27)" % what)
            o = v.de_branch(park, isa, what + ", executed, its address 0x%x" % park)
            v.l3.append(range_line(o, a, isa, "indir", "E"))
            look(v, park, isa, None, "the branch address's, where the image holds nothing")
    if kind == "dir":
        rule = """Each row R alone in the image at its own address A (0x%x + 0x%x a row, plus the row's
table offset modulo 4: a T32 BLX's target depends on it). The walk is put at R by a TFO (TD,
TRACEPKT 0x09: TFO 0, Table 6-4 L8869-8889) whose packet, on the WT cycles after it, has reason b01
and A (Tables 6-6, 6-7 L8972-9016, §6.5.4 L8999-9001; ERRATA ETM2-P12, P13): trace-on, the walk at
A. R executed: an IE (Table 6-1 L8460-8490; a 32-bit T32 row two, the first walking nothing, ERRATA
ETM2-P27): range A n=1 type=dir taken=E, and the walk goes to the target (A + the table's target,
32 bits) in the next_isa column's instruction set; an IE there finds the image's nothing: no-image
at the target (ERRATA ETM2-P16), written after R's range; a row whose target is its own address
(b .) finds itself: range A type=dir taken=E again, written at the next TFO. A conditional row is
then given a TFO back to A and an IN (Table 6-1: not executed): range A type=dir taken=N, the walk
at A + size (the table's), where an IE finds nothing: no-image there. Left out (a target inside a
row's bytes or on another row): %s.""" % (base, space, ", ".join(skipped) or "none")
    else:
        rule = """Each row R alone in the image at its own address A (0x%x + 0x%x a row, plus the row's
table offset modulo 4). The walk is put at R by a TFO (TD, TRACEPKT 0x09: TFO 0, Table 6-4
L8869-8889) whose packet, on the WT cycles after it, has reason b01 and A (Tables 6-6, 6-7
L8972-9016, §6.5.4 L8999-9001; ERRATA ETM2-P12, P13): trace-on, the walk at A. R executed: a DE (a
32-bit T32 row after an IE that walks nothing, ERRATA ETM2-P27) whose group is a five-byte branch
address to 0x%x in R's instruction set (§6.7.1 L9120: an indirect branch traced outputs its
address; Table 6-9 L9180-9191; ARM with E = 0), on the DE's cycle and the WT cycles after it (the
FIFO empty, §6.3 L8625-8634): the branch address ends R (ERRATA ETM2-P27): range A n=1
type=indir taken=E, and the walk moves to the address, which the image does not hold: an IE there
gives no-image (ERRATA ETM2-P16). A conditional row is first given an IN (Table 6-1: not
executed): range A type=indir taken=N, the walk at A + size (the table's), where an IE finds
nothing: no-image there; then the TFO back to A.""" % (base, space, park)
    desc = """The %s rows of the %s table of reference/test/insn (%s.tsv) as ETMv2 L3, part %d: %d rows
(at most 60 a vector: a vector gives at most 64 image regions, one a row).
%s""" % (kind, isa.upper(), isa, part, len(keep), rule)
    v.write("m-insn-%s-%s-%d.tcv" % (isa, kind, part), desc, "l3 insn %s %s L8460 L9120 table-6-1" % (isa, kind))


def main():
    write_table_vectors(other_vector, branch_vector)


main()
