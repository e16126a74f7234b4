#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# table-5-3-gen.py — writes table-5-3-reasons-v10.tcv … -v13.tcv beside it (run from the
# repository's top: python3 vectors/etmv1/spec/table-5-3-gen.py). Each expected line is the rule written in the vector's description,
# applied to one value: IHI 0014 Table 5-3 (L8206-8217), §5.5.4 (L8173-8183), §5.5.3 (L8161) and the
# ERRATA ids named; nothing here runs a decoder.
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def config(version, width):
    return ("[config]\nprotocol=etmv1\nversion=%d\nport_width=%d\nport_mode=0\nhalf_rate=0\n"
            "contextid_size=0\ndata_address=0\ndata_value=0\ncprt=0\ncycle_accurate=0\nbranch_output=0\n"
            % (version, width))


def header(version, width):
    return ("45 54 4d 43 01 01 %02x %02x 00 00 00 00 00 00 00 00   # @0 header: ETMC, rev 1, ETMv1.%d, "
            "%d-bit, normal\n" % (version, width, version, width))


def fifth_expect(version, off, b):
    """The L1 lines of a five-packet address 0x80 0x80 0x80 0x80 b at record off."""
    reason, top, bit7 = (b >> 4) & 7, b & 0xF, b >> 7
    if reason >= 5:
        return ["@%d 4 error class=reserved-reason" % off], [("reserved-reason", off)]
    if reason == 4 and version < 2:
        return ["@%d 4 error class=not-in-version" % off], [("not-in-version", off)]
    isa = "jazelle" if version == 3 and bit7 else "arm"
    j = " j=%d" % bit7 if version == 3 else ""
    lines = ["@%d 4 be pkt=%d addr=0x%x isa=%s n=5 reason=%d%s apo=0" % (off, off, top << 28, isa, reason, j)]
    if version < 3 and bit7:
        lines.append("@%d 4 warning class=ignored-field field=addr5-bit7 bits=0x80" % off)
    return lines, []


def fifth_packet(version):
    desc = """Every value of a branch address's fifth packet in ETMv1.%d, one five-packet address each:
BE | TRACESYNC with packets 0x80 0x80 0x80 0x80 (A[27:0] = 0, bit 7 HIGH: more) on its own cycle,
its two APO cycles (b000 b000: APO 0, its own TRACESYNC, §5.6.1 L8231-8235) and two WT cycles, then
the fifth packet b. Rule (IHI 0014 §5.5.4 L8173-8183, Table 5-3 L8206-8217): A[31:28] = b[3:0],
reason = b[6:4]; b101-b111 reserved-reason, b100 before ETMv1.2 not-in-version (ERRATA ETM1-P15):
an error at the branch, which drops the item and its warnings (ERRATA ETM1-P33), the decoder
unsynchronised until the next branch, whose APO of 0 designates its own five-packet address
(ERRATA ETM1-P9); bit 7 in ETMv1.3 is J (§5.5.3 L8161, ERRATA ETM1-P23: isa=jazelle, j=1; j=0
printed too), before ETMv1.3 ignored with a warning (field addr5-bit7). The address's bit 0 is
A[0] = 0: ARM (§5.5.2 L8155).""" % version
    recs, exp, errs = [], [], []
    for b in range(256):
        off = 16 + 10 * b
        recs.append("14 80 00 80 00 80 03 80 03 %02x   # @%d BE|TRACESYNC 0x80, @%d APO 0x80, @%d APO 0x80, "
                    "@%d WT 0x80, @%d WT fifth 0x%02x" % (b, off, off + 2, off + 4, off + 6, off + 8, b))
        lines, e = fifth_expect(version, off, b)
        exp += lines
        errs += e
    text = "tracecert-vector 1\n" + "".join("# %s\n" % l for l in desc.split("\n"))
    text += config(version, 8) + "[tags]\nspec table-5-3 fifth-packet L8206\n[trace]\n" + header(version, 8)
    text += "\n".join(recs) + "\n[expect.l1]\n" + "\n".join(exp) + "\n"
    if errs:
        text += "[error]\n" + "".join("%s %d\n" % e for e in errs)
    text += "[end]\n"
    with open(os.path.join(HERE, "table-5-3-reasons-v1%d.tcv" % version), "w") as f:
        f.write(text)


for v in range(4):
    fifth_packet(v)
