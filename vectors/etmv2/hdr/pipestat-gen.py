#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# pipestat-gen.py — writes pipestat-port4.tcv, -port8.tcv and -port16.tcv: every PIPESTAT of IHI 0014
# Table 6-1 (L8460-8490, read as ERRATA ETM2-S1) after a synchronising TFO, at each port width. The
# records and the expected L1 lines are stated here from the text, not from a decoder:
#   - the TFO: a TD with TRACEPKT[0] = 1 (Table 6-4 L8869-8881); TFO value 0 is TRACEPKT[7:0] = 0x09
#     (the formula L8887-8889: [7:4] = TFO[3:0] = 0, [3] = !TFO[6] = 1, [2:1] = TFO[5:4] = 0); on a
#     4-bit port 0x9 on the TD cycle and 0x0 on the next (L8911); its TFO packet: header 0x20 (Table
#     6-6 L8972-8981: 0RR00000, RR = b01 trace enabled, Table 6-7), address 0x00008000 least
#     significant byte first (§6.5.4, ERRATA ETM2-P12), bit 0 = 0: ARM;
#   - the FIFO data are on TRACEPKT while an announced group is unread (§6.3, ERRATA ETM2-P2): a byte
#     a cycle on 8 bits, a nibble a cycle low first on 4 bits (§6.2 L8578), two bytes a cycle on 16
#     bits with 0x66 in [15:8] when one is valid (L8586);
#   - each D status (DE, DN, DW, the phantoms' D) places one group (§6.1.3): here one Normal data
#     packet 0x02 (Table 6-2 `C0A0SS10`: C = 0, A = 0, SS = b00) or, for DW, Value Not Traced 0x6a
#     (`C1101010`, §6.4.4); with data_value=0 and data_address=0 Normal data is `+data a=0`;
#   - TR (§6.1.7 L8562): the trigger, then the replaced status on TRACEPKT[3:0] (here IE, b0000) as
#     its own item; a TR cycle carries no FIFO data (ETMC-F8);
#   - TD with TRACEPKT[0] = 0, not cycle-accurate: no item (Table 6-4 row 1); WT: no item;
#   - phantoms b1000-b1011 `phantom=E`, b1100-b1111 `phantom=N`, the kind of the second status
#     (ERRATA ETM2-P8).
# Run from this folder: python3 pipestat-gen.py
import sys

NAMES = {0: 'IE', 1: 'DE', 2: 'IN', 3: 'DN', 4: 'WT', 5: 'DW', 6: 'TR', 7: 'TD', 8: 'PTIE', 9: 'PTDE',
         10: 'PTIN', 11: 'PTDN', 12: 'PNIE', 13: 'PNDE', 14: 'PNIN', 15: 'PNDN'}
KIND = ['ie', 'de', 'in', 'dn']


def write(width):
    rsize = 3 if width == 16 else 2
    recs = []   # (status, pkt, comment)

    def rec(st, pkt, why):
        recs.append((st, pkt, why))

    # the TFO and its packet
    pkt_bytes = [0x20, 0x00, 0x80, 0x00, 0x00]
    if width == 4:
        rec(7, 0x9, 'TD, TRACEPKT[3:0] = b1001: TFO, [3] = 1: TFO[6] = 0, [2:1] = 0')
        rec(4, 0x0, 'WT: TFO[3:0] = 0: TFO 0, no gap nibble when joining (ERRATA ETM2-P10)')
        for b in pkt_bytes:
            rec(4, b & 0xf, 'WT: TFO packet byte 0x%02x, low nibble' % b)
            rec(4, b >> 4, 'WT:                    high nibble')
    elif width == 8:
        rec(7, 0x09, 'TD, TRACEPKT = 0x09: TFO 0')
        for b in pkt_bytes:
            rec(4, b, 'WT: TFO packet byte 0x%02x' % b)
    else:
        rec(7, 0x09, 'TD, TRACEPKT[7:0] = 0x09: TFO 0 ([15:8] not read, ERRATA ETM2-P19)')
        rec(4, 0x0020, 'WT: TFO packet bytes 0x20 (header), 0x00')
        rec(4, 0x0080, 'WT: 0x80, 0x00')
        rec(4, 0x6600, 'WT: 0x00 (the last), idle byte 0x66')
    # the TFO packet's first byte: the record after the TFO value's (on 4 bits its second nibble's)
    expect = ['@16 7 tfo value=0 pkt=%d' % (16 + rsize * (2 if width == 4 else 1)),
              '@16 7 +tfo-packet reason=1 lsip=0 addr=0x8000 isa=arm']

    def off():
        return 16 + rsize * len(recs)

    for st in [0, 1, 2, 3, 5, 6, 7] + list(range(8, 16)):
        o = off()
        data = st == 5 or (st != 6 and st != 7 and (st < 4 or st >= 8) and (st & 1))
        group = 0x6a if st == 5 else 0x02
        if st == 6:
            rec(6, 0x0, 'TR: the trigger; TRACEPKT[3:0] = b0000: the replaced status is IE')
            expect += ['@%d 6 trigger' % o, '@%d 0 ie' % o]
            continue
        if st == 7:
            rec(7, 0x0, 'TD, TRACEPKT[0] = 0: trace disabled, not cycle-accurate: no item')
            continue
        what = NAMES[st] + (': group 0x%02x' % group if data else ': no group, TRACEPKT not read')
        if data and width == 4:
            rec(st, group & 0xf, what + ', low nibble')
            rec(4, group >> 4, 'WT: high nibble')
        elif data and width == 16:
            rec(st, 0x6600 | group, what + ', idle byte 0x66')
        else:
            rec(st, group if data else 0, what)
        kind = 'dw' if st == 5 else KIND[st & 3]
        line = '@%d %x %s' % (o, st, kind)
        if st >= 8:
            line += ' phantom=' + ('N' if st & 4 else 'E')
        if data:
            line += ' pkt=%d' % o
        expect.append(line)
        if data:
            expect.append('@%d %x %s' % (o, st, '+not-traced' if st == 5 else '+data a=0'))
    out = []
    out.append('tracecert-vector 1')
    out.append('# Every PIPESTAT of Table 6-1 (L8460-8490) on a %d-bit port, after a TFO that synchronises' % width)
    out.append('# (written by pipestat-gen.py, whose header states the rules). WT is the cycles carrying the TFO')
    out.append('# packet%s.' % (' and the second nibbles' if width == 4 else ''))
    out.append('[config]')
    for k, v in [('protocol', 'etmv2'), ('version', 0), ('port_width', width), ('port_mode', 0),
                 ('half_rate', 0), ('contextid_size', 0), ('data_address', 0), ('data_value', 0), ('cprt', 0),
                 ('cycle_accurate', 0), ('branch_output', 0), ('hivecs', 0), ('fifo_depth', 0)]:
        out.append('%s=%s' % (k, v))
    out.append('[tags]')
    out.append('hdr pipestat table-6-1 L8460 port%d' % width)
    out.append('[trace]')
    out.append('45 54 4d 43 01 02 00 %02x 00 00 00 00 00 00 00 00   # @0 header: ETMv2.0, %d-bit, normal' % (width, width))
    for i, (st, pkt, why) in enumerate(recs):
        b = [st, pkt & 0xff] + ([pkt >> 8] if width == 16 else [])
        out.append('%-12s # @%d %s' % (' '.join('%02x' % x for x in b), 16 + rsize * i, why))
    out.append('[expect.l1]')
    out += expect
    out.append('[end]')
    with open('pipestat-port%d.tcv' % width, 'w') as f:
        f.write('\n'.join(out) + '\n')


for w in (4, 8, 16):
    write(w)
