#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# td-tracepkt-gen.py — writes td-tracepkt.tcv: every TRACEPKT[7:0] value 00-FF on a TD cycle (IHI 0014
# Table 6-4, L8869-8881), 8-bit port, cycle_accurate=1. Each value is one entry; the rules, from the
# table's rows (not its formula):
#   - bXXXXXXX0 "Trace disabled, not cycle-accurate": after a synchronising TFO (SYNC: TD 0x09, TFO 0,
#     and its packet, header 0x20: normal, reason b01, address 0x1000, ERRATA ETM2-P12), a TD with
#     TRACEPKT[0] = 0 in cycle-accurate mode is `trace-disabled`, the first of a run (§6.11
#     L9290-9294, ERRATA ETM1-P21 as ETMv2's);
#   - bXXXX0111 "Trace disabled, cycle-accurate": after SYNC, no item (ERRATA ETM2-P26);
#   - bXXXX0101 "Reserved": after SYNC, `reserved-tfo` at the TD (ERRATA ETM2-P24);
#   - bXXXX1001, 1011, 1101, 1111, 0001, 0011: a TFO of value TRACEPKT[7:4] + 0, 16, 32, 48, 64, 80;
#     the decoder is unsynchronised, so it joins at it (ERRATA ETM2-P10, P24): the V bytes after it
#     (filler 0xaa on WT cycles) are the bytes left before its packet and are skipped, then the
#     packet (as SYNC's): `tfo value=V pkt=P`, P the packet's first record;
#   - after each entry a gap record (reference/etmv1/FORMAT.md "Records", ERRATA ETMC-F4): nothing is
#     left open, the `gap` item, and the decoder is unsynchronised for the next entry.
# Run from this folder: python3 td-tracepkt-gen.py
ROWS = {0x9: 0, 0xb: 16, 0xd: 32, 0xf: 48, 0x1: 64, 0x3: 80}
CFG = dict(protocol='etmv2', version=0, port_width=8, port_mode=0, half_rate=0, contextid_size=0,
           data_address=0, data_value=0, cprt=0, cycle_accurate=1, branch_output=0, hivecs=0, fifo_depth=0)
PACKET = [(0x20, 'TFO header 0x20: normal, reason b01'), (0x00, 'address byte 0'),
          (0x10, 'address byte 1 = 0x10'), (0x00, 'address byte 2'), (0x00, 'address byte 3: 0x1000')]
recs, expect, errors = [], [], []


def off():
    return 16 + sum(2 * (p if s is None else 1) for s, p, w in recs)


def rec(s, p, why):
    recs.append((s, p, why))


def packet(tfo_at, value):
    at = off()
    for p, w in PACKET:
        rec(0x04, p, 'WT: ' + w)
    expect.extend(['@%d 7 tfo value=%d pkt=%d' % (tfo_at, value, at),
                   '@%d 7 +tfo-packet reason=1 lsip=0 addr=0x1000 isa=arm' % tfo_at])


def sync():
    at = off()
    rec(0x07, 0x09, 'SYNC: TD, TRACEPKT = 0x09: TFO 0')
    packet(at, 0)


for b in range(256):
    low = b & 0xf
    at = None
    if b & 1 == 0:
        sync()
        at = off()
        rec(0x07, b, 'TD, TRACEPKT = 0x%02x: bXXXXXXX0, trace disabled' % b)
        expect.append('@%d 7 trace-disabled' % at)
    elif low == 0x7:
        sync()
        rec(0x07, b, 'TD, TRACEPKT = 0x%02x: bXXXX0111, trace disabled, cycle-accurate: nothing' % b)
    elif low == 0x5:
        sync()
        at = off()
        rec(0x07, b, 'TD, TRACEPKT = 0x%02x: bXXXX0101, reserved' % b)
        expect.append('@%d 7 error class=reserved-tfo' % at)
        errors.append('reserved-tfo %d' % at)
    else:
        v = (b >> 4) + ROWS[low]
        at = off()
        rec(0x07, b, 'TD, TRACEPKT = 0x%02x: bXXXX%s, TFO %d + %d = %d' % (b, format(low, '04b'), b >> 4, ROWS[low], v))
        if v:
            rec(None, v, 'WT x %d: the bytes 0xaa before the packet, skipped' % v)
        packet(at, v)
    g = off()
    rec(0x80, 0x00, 'the gap record')
    expect.append('@%d - gap' % g)
out = ['tracecert-vector 1',
       '# Every TRACEPKT[7:0] value 00-FF on a TD cycle (IHI 0014 Table 6-4 L8869-8881), cycle-accurate,',
       '# each entry followed by a gap record; the rules: td-tracepkt-gen.py.', '[config]']
out += ['%s=%s' % kv for kv in CFG.items()]
out += ['[tags]', 'hdr table-6-4 L8869', '[trace]',
        '45 54 4d 43 01 02 00 08 00 00 00 00 00 00 00 00   # @0 header: ETMC, rev 1, ETMv2.0, 8-bit, normal']
o = 16
for s, p, w in recs:
    if s is None:   # p WT records carrying 0xaa, on one line
        out.append(' '.join(['04 aa'] * p) + '    # @%d %s' % (o, w))
        o += 2 * p
        continue
    out.append('%02x %02x    # @%d %s' % (s, p, o, w))
    o += 2
out += ['[expect.l1]'] + expect + ['[error]'] + errors + ['[end]']
with open('td-tracepkt.tcv', 'w') as f:
    f.write('\n'.join(out) + '\n')
