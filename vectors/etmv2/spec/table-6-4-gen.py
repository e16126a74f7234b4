#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# table-6-4-gen.py — writes table-6-4-tfo-encodings.tcv: the two ends of every TFO row of IHI 0014
# Table 6-4 (L8869-8881) and its TD rows, on an 8-bit port. The rule, from the text:
#   - the formula (L8887-8889): TRACEPKT[7:4] = TFO[3:0], [3] = !TFO[6], [2:1] = TFO[5:4], [0] = 1;
#     so values 0-15 end in b1001, 16-31 b1011, 32-47 b1101, 48-63 b1111, 64-79 b0001, 80-95 b0011;
#   - each TFO is joined (ERRATA ETM2-P10, ETM2-P24): the V bytes after the value are the bytes left
#     in the FIFO before the TFO packet and are skipped; the packet follows (header 0x20: normal,
#     reason b01, Tables 6-6, 6-7; address 0x00001000, ETM2-P12); L1 `tfo value=V pkt=P` with P the
#     packet's first record, and `+tfo-packet reason=1 lsip=0 addr=0x1000 isa=arm`;
#   - a gap record (FORMAT.md "Records", ERRATA ETMC-F4) after each TFO packet: the `gap` item, and
#     the decoder is unsynchronised, so the next TFO is joined again;
#   - the TD rows, after the last TFO, with cycle_accurate=1: TRACEPKT[0] = 0 "Trace disabled": the
#     first of a run is `trace-disabled` (ERRATA ETM1-P21 as ETMv2's), the next of the run nothing;
#     b0111 "Trace disabled, cycle-accurate": no item, and it ends the run (ETM2-P26).
# Run from this folder: python3 table-6-4-gen.py
VALUES = [0, 15, 16, 31, 32, 47, 48, 63, 64, 79, 80, 95]


def tfo_byte(v):
    return (v & 0xf) << 4 | (((v >> 6) & 1) ^ 1) << 3 | ((v >> 4) & 3) << 1 | 1


recs, expect = [], []


def off():
    return 16 + 2 * len(recs)


for i, v in enumerate(VALUES):
    at = off()
    b = tfo_byte(v)
    recs.append(('07 %02x' % b, 'TD, TRACEPKT = 0x%02x = b%s: TFO %d' % (b, format(b, '08b'), v)))
    for k in range(v):
        recs.append(('04 %02x' % (k & 0x7f), 'WT: FIFO byte %d of %d before the TFO packet: skipped' % (k + 1, v)))
    pkt = off()
    for byte, why in [(0x20, 'TFO header 0x20'), (0x00, 'address byte 0'), (0x10, 'address byte 1'),
                      (0x00, 'address byte 2'), (0x00, 'address byte 3: 0x1000')]:
        recs.append(('04 %02x' % byte, 'WT: ' + why))
    expect += ['@%d 7 tfo value=%d pkt=%d' % (at, v, pkt), '@%d 7 +tfo-packet reason=1 lsip=0 addr=0x1000 isa=arm' % at]
    if i + 1 < len(VALUES):
        expect.append('@%d - gap' % off())
        recs.append(('80 00', 'the gap record: unsynchronised until the next TFO'))

td = off()
recs += [('07 00', 'TD, TRACEPKT[0] = 0: trace disabled, the first of a run'),
         ('07 00', 'TD, TRACEPKT[0] = 0: the same run'),
         ('07 07', 'TD, TRACEPKT[3:0] = b0111: trace disabled, cycle-accurate: no item, the run ends'),
         ('07 00', 'TD, TRACEPKT[0] = 0: a new run'),
         ('00 00', 'IE')]
expect += ['@%d 7 trace-disabled' % td, '@%d 7 trace-disabled' % (td + 6), '@%d 0 ie' % (td + 8)]

out = ['tracecert-vector 1',
       '# Table 6-4 (L8869-8881): TFO values 0, 15, 16, 31, 32, 47, 48, 63, 64, 79, 80, 95 (the two ends',
       '# of each row), each joined after a gap record, then the TD rows in cycle-accurate mode; written',
       '# by table-6-4-gen.py, whose header states the rules (b0101 is in neg/reserved-tfo.tcv).',
       '[config]']
for k, v in [('protocol', 'etmv2'), ('version', 0), ('port_width', 8), ('port_mode', 0), ('half_rate', 0),
             ('contextid_size', 0), ('data_address', 0), ('data_value', 0), ('cprt', 0), ('cycle_accurate', 1),
             ('branch_output', 0), ('hivecs', 0), ('fifo_depth', 0)]:
    out.append('%s=%s' % (k, v))
out += ['[tags]', 'spec table-6-4 L8869', '[trace]',
        '45 54 4d 43 01 02 00 08 00 00 00 00 00 00 00 00   # @0 header: ETMC, rev 1, ETMv2.0, 8-bit, normal']
for i, (b, why) in enumerate(recs):
    out.append('%-8s # @%d %s' % (b, 16 + 2 * i, why))
out.append('[expect.l1]')
out += expect
out.append('[end]')
with open('table-6-4-tfo-encodings.tcv', 'w') as f:
    f.write('\n'.join(out) + '\n')
