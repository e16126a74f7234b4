#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# dec-gen.py — writes m-dec-queue-wrap.tcv: two TFOs whose packets wait in the FIFO, announced after
# more than 1024 items made and written while no FIFO byte was due. Groups are read in the order of
# their cycles (ERRATA ETM2-P2), however many items came before: the first TFO's packet is read
# first. The rules, from the text:
#   - 8-bit port, cycle-accurate (cycle_accurate=1), no data trace; SYNC at @16: TFO 0 (TD, TRACEPKT
#     0x09, Table 6-4 L8869-8881) and its packet on WT cycles (header 0x20: normal, reason b01;
#     address 0x1000, least significant byte first, ERRATA ETM2-P12), then an IE (no group);
#   - then 1023 pairs of TD cycles: TRACEPKT 0x00 (TRACEPKT[0] = 0: trace disabled), then 0x07 (b0111,
#     a cycle-accurate TD, Table 6-4 L8873). In cycle-accurate mode the first TD with TRACEPKT[0] = 0
#     of a run is a `trace-disabled` item, and a b0111 TD ends the run (ERRATA ETM1-P21, ETM2-P26):
#     one item a pair, complete (no group) and written at once (FORMAT.md "L1"); no FIFO data (TD);
#   - then two TFO cycles: TFO 0 (0x09), its packet first in the FIFO (header 0x20), and TFO 5
#     (0x59: TRACEPKT[7:4] = TFO[3:0] = 5, [3] = !TFO[6] = 1, [2:1] = TFO[5:4] = 0, [0] = 1; the
#     formula L8887-8889): the five bytes of the first TFO's packet come before its own (header 0x00:
#     normal, reason b00, so an IE is implied: L8860, ERRATA ETM2-P13);
#   - the ten packet bytes on WT cycles, one a cycle, the first TFO's then the second's; then an IE.
#     Each count check holds (ERRATA ETM2-P10): 0 bytes read between the first TFO and its header, 5
#     between the second and its.
# Run from this folder: python3 dec-gen.py
import os
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from e2vec import write_8bit  # noqa: E402
CFG = dict(protocol='etmv2', version=0, port_width=8, port_mode=0, half_rate=0, contextid_size=0,
           data_address=0, data_value=0, cprt=0, cycle_accurate=1, branch_output=0, hivecs=0, fifo_depth=0)
PACKET = [(0x00, 'address byte 0'), (0x10, 'address byte 1 = 0x10: 0x1000'), (0x00, 'address byte 2'),
          (0x00, 'address byte 3')]
PAIRS = 1023
recs, expect = [], []


def off():
    return 16 + 2 * len(recs)


def packet(header, what, tag):
    recs.append((0x04, header, '%s: WT: TFO header 0x%02x: %s' % (tag, header, what)))
    recs.extend((0x04, b, '%s: WT: %s' % (tag, w)) for b, w in PACKET)


at = off()
recs.append((0x07, 0x09, 'SYNC: TD, TRACEPKT = 0x09: TFO 0'))
packet(0x20, 'normal, reason b01', 'SYNC')
expect += ['@%d 7 tfo value=0 pkt=%d' % (at, at + 2), '@%d 7 +tfo-packet reason=1 lsip=0 addr=0x1000 isa=arm' % at]
expect.append('@%d 0 ie' % off())
recs.append((0x00, 0x00, 'IE'))
for k in range(PAIRS):
    expect.append('@%d 7 trace-disabled' % off())
    recs.append((0x07, 0x00, 'TD, TRACEPKT[0] = 0: trace-disabled %d' % k))
    recs.append((0x07, 0x07, 'TD, TRACEPKT[3:0] = b0111: a cycle-accurate TD'))
first, second = off(), off() + 2
recs.append((0x07, 0x09, 'TD, TRACEPKT = 0x09: TFO 0, its packet next in the FIFO'))
recs.append((0x07, 0x59, 'TD, TRACEPKT = 0x59: TFO 5, its packet after the five bytes of the other'))
packet(0x20, 'normal, reason b01', 'TFO 0')
packet(0x00, 'normal, reason b00', 'TFO 5')
expect += ['@%d 7 tfo value=0 pkt=%d' % (first, second + 2),
           '@%d 7 +tfo-packet reason=1 lsip=0 addr=0x1000 isa=arm' % first,
           '@%d 7 tfo value=5 pkt=%d implied=ie' % (second, second + 12),
           '@%d 7 +tfo-packet reason=0 lsip=0 addr=0x1000 isa=arm' % second]
expect.append('@%d 0 ie' % off())
recs.append((0x00, 0x00, 'IE'))
write_8bit('m-dec-queue-wrap.tcv', ['# ERRATA ETM2-P2: groups in the order of their cycles, after %d items (more than the 1024 that can' % (PAIRS + 2),
       '# wait, ERRATA ETM2-P21, each written at once) made on cycles that carry no FIFO data: two TFOs',
       '# announced back to back, the first one\'s packet read first. The rules: dec-gen.py.'],
           CFG, 'mut dec-queue-wrap L8889', recs, expect)
