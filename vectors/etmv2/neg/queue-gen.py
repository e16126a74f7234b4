#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# queue-gen.py — writes too-many-pending-queue.tcv: more than 1024 items waiting (ERRATA ETM2-P21: the
# 1025th item that would wait is too-many-pending at the record that would add it, S its PIPESTAT;
# unsynchronised after it until the next TFO, ERRATA ETM2-P10, P23). The rules, from the text:
#   - 8-bit port, data values traced (data_value=1); SYNC at @16: TFO 0 (TD, TRACEPKT 0x09, Table 6-4
#     L8869-8881) and its packet on WT cycles (header 0x20: normal, reason b01; address 0x1000, least
#     significant byte first, ERRATA ETM2-P12);
#   - then DE cycles c = 0, 1, 2, ... (offset 28 + 2c), each placing one group of two bytes: Normal
#     data 0x06 (bC0A0SS10: C = 0, A = 0, SS = b01, Table 6-2, 6-3) and one value byte, k & 0xff for
#     the k-th group. The FIFO gives one byte a cycle, on every cycle whose group is unread (§6.3
#     L8625-8634, ERRATA ETM2-P2), so cycle c carries the FIFO's byte c: group k's header on cycle 2k,
#     its value on cycle 2k+1. Groups are read in the order of their cycles (ETM2-P2);
#   - group k is complete on cycle 2k+1, and its item is written then (all earlier ones are complete).
#     When cycle c's item is added, the items waiting are the c items of cycles 0 .. c-1 less the
#     floor(c/2) complete by cycle c-1: ceil(c/2). The first cycle at which 1024 wait is c = 2047: its
#     DE is too-many-pending, S 1; the items written before it are groups 0 .. 1022;
#   - RESUME: the same TFO and packet after it, then an IE: the decoder joins at the TFO (ETM2-P24).
# Run from this folder: python3 queue-gen.py
import os
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from e2vec import write_8bit  # noqa: E402
CFG = dict(protocol='etmv2', version=0, port_width=8, port_mode=0, half_rate=0, contextid_size=0,
           data_address=0, data_value=1, cprt=0, cycle_accurate=0, branch_output=0, hivecs=0, fifo_depth=0)
TFO = [(0x07, 0x09, 'TD, TRACEPKT = 0x09: TFO 0'), (0x04, 0x20, 'WT: TFO header 0x20: normal, reason b01'),
       (0x04, 0x00, 'WT: address byte 0'), (0x04, 0x10, 'WT: address byte 1 = 0x10: 0x1000'),
       (0x04, 0x00, 'WT: address byte 2'), (0x04, 0x00, 'WT: address byte 3')]
QUEUE = 1024
recs, expect = [], []


def off():
    return 16 + 2 * len(recs)


def tfo(tag):
    at = off()
    recs.extend((s, p, tag + ': ' + w) for s, p, w in TFO)
    expect.extend(['@%d 7 tfo value=0 pkt=%d' % (at, at + 2), '@%d 7 +tfo-packet reason=1 lsip=0 addr=0x1000 isa=arm' % at])


tfo('SYNC')
first = None
for c in range(2 * QUEUE):
    waiting = (c + 1) // 2
    byte = 0x06 if c % 2 == 0 else ((c - 1) // 2) & 0xff
    what = 'group %d header 0x06' % (c // 2) if c % 2 == 0 else 'group %d value' % ((c - 1) // 2)
    if waiting >= QUEUE:
        first = c
        recs.append((0x01, byte, 'DE: cycle %d, %d items waiting: too-many-pending' % (c, waiting)))
        break
    recs.append((0x01, byte, 'DE: cycle %d, FIFO byte %d: %s' % (c, c, what)))
err_at = 28 + 2 * first
for k in range(first // 2):
    expect += ['@%d 1 de pkt=%d' % (28 + 2 * k, 28 + 4 * k), '@%d 1 +data a=0 value=0x%x size=1' % (28 + 2 * k, k & 0xff)]
expect.append('@%d 1 error class=too-many-pending' % err_at)
tfo('RESUME')
expect.append('@%d 0 ie' % off())
recs.append((0x00, 0x00, 'RESUME: IE'))
write_8bit('too-many-pending-queue.tcv', ['# ERRATA ETM2-P21: groups announced faster than the FIFO gives their bytes (two bytes a DE, one a',
       '# cycle) until 1024 items wait: too-many-pending at the DE of cycle 2047; then the decoder joins at',
       '# the next TFO. The rules: queue-gen.py.'],
           CFG, 'neg too-many-pending', recs, expect, tail=['[error]', 'too-many-pending %d' % err_at])
