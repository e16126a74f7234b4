#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# neg-gen.py — writes eleven of this folder's vectors (the truncated-* ones but truncated-gap are by hand,
# too-many-pending-queue.tcv by queue-gen.py): each error class ETMv2's L1 gives (reference/etmv1/
# FORMAT.md "Error classes", those marked etmv2 or both), after a synchronising TFO and followed by a
# TFO that shows decoding resuming (ERRATA ETM2-P10: after an error the decoder is unsynchronised
# until the next TFO; ETM2-P23, ETM1-P33: the error is at the record of the cycle whose group it is,
# S that cycle's PIPESTAT, or the record being read). The records, their reasons and the expected
# lines are written here by hand, one vector a block; the rules the blocks share:
#   - 8-bit port (a byte a cycle), ETMv2.0, no data tracing, fifo_depth 0 unless a block says;
#   - SYNC at @16: TD with TRACEPKT 0x09 = TFO 0 (Table 6-4 L8869-8881, the formula L8887-8889:
#     [7:4] = TFO[3:0] = 0, [3] = !TFO[6] = 1, [2:1] = TFO[5:4] = 0, [0] = 1), then its TFO packet
#     on WT cycles: header 0x20 (b0RR00000, RR = b01 trace enabled: Tables 6-6, 6-7 L8972-9016) and
#     the address 0x00001000 least significant byte first (§6.5.4, ERRATA ETM2-P12), bit 0 = 0: ARM;
#     L1 `tfo value=0 pkt=18` and `+tfo-packet reason=1 lsip=0 addr=0x1000 isa=arm` (FORMAT.md
#     "ETMv2 kinds");
#   - RESUME at @X: the same TFO and packet (X to X+10), then an IE (X+12): the decoder joins at the
#     TFO (ETM2-P24) and the IE is an item again.
# Run from this folder: python3 neg-gen.py
CONFIG = dict(protocol='etmv2', version=0, port_width=8, port_mode=0, half_rate=0, contextid_size=0,
              data_address=0, data_value=0, cprt=0, cycle_accurate=0, branch_output=0, hivecs=0, fifo_depth=0)
TFO = [(0x07, 0x09, 'TD, TRACEPKT = 0x09: TFO 0'), (0x04, 0x20, 'WT: TFO header 0x20: normal, reason b01'),
       (0x04, 0x00, 'WT: address byte 0'), (0x04, 0x10, 'WT: address byte 1 = 0x10: 0x1000'),
       (0x04, 0x00, 'WT: address byte 2'), (0x04, 0x00, 'WT: address byte 3')]


def tfo_lines(at):
    return ['@%d 7 tfo value=0 pkt=%d' % (at, at + 2), '@%d 7 +tfo-packet reason=1 lsip=0 addr=0x1000 isa=arm' % at]


def vector(name, why, middle, expect_mid, errors, config=None, sync=True, resume=True, header=None, raw=None,
           resume_items=True):
    cfg = dict(CONFIG)
    cfg.update(config or {})
    recs = []
    expect = []
    if sync:
        recs += [('%02x %02x' % (s, p), 'SYNC: ' + w) for s, p, w in TFO]
        expect += tfo_lines(16)
    recs += middle
    at = 16 + 2 * len(recs)
    if resume:
        recs += [('%02x %02x' % (s, p), 'RESUME: ' + w) for s, p, w in TFO] + [('00 00', 'RESUME: IE')]
    out = ['tracecert-vector 1'] + ['# ' + l for l in why] + ['[config]']
    out += ['%s=%s' % kv for kv in cfg.items()]
    out += ['[tags]', 'neg ' + name, '[trace]']
    hdr = header or '45 54 4d 43 01 02 00 08 00 00 00 00 00 00 00 00'
    out.append(hdr + '   # @0 header: ETMC, rev 1, ETMv2.0, 8-bit, normal' if not header else hdr + '   # @0 ' + raw)
    off = 16
    for b, w in recs:
        out.append('%-8s # @%d %s' % (b, off, w))
        off += len(b.split())
    out.append('[expect.l1]')
    out += expect + expect_mid
    if resume and resume_items:
        out += tfo_lines(at) + ['@%d 0 ie' % (at + 12)]
    out.append('[error]')
    out += errors
    out.append('[end]')
    with open(name + '.tcv', 'w') as f:
        f.write('\n'.join(out) + '\n')


vector('unowned-packets', ['ERRATA ETM2-P2: FIFO data are on TRACEPKT only while an announced group is unread; a WT',
                           'with data when none is: unowned-packets at the WT (S 4).'],
       [('04 55', 'WT, TRACEPKT 0x55, every group read: unowned-packets')],
       ['@28 4 error class=unowned-packets'], ['unowned-packets 28'])

vector('reserved-header', ['Table 6-2 (L8670-8688): 0x10 = b00010000 is bX0X1XX00, reserved (bit 6 = 0 and bit 4 = 1:',
                           'neither Load Miss Occurred bC1A1TT00 nor Load Miss Data bCTT0SS00). At the DE whose group it',
                           'is (ERRATA ETM2-P23).'],
       [('01 10', 'DE: its group, first byte 0x10: reserved')],
       ['@28 1 error class=reserved-header'], ['reserved-header 28'])

vector('reserved-field', ['Table 6-9 (L9180-9191), ERRATA ETM2-P6: a fifth branch-address byte is ARM b0E001XXX or Thumb',
                          'b0001XXXX; 0x20 = b00100000 is neither: reserved-field at the DE (ETM2-P23).'],
       [('01 81', 'DE: branch address byte 1: bit 0 = 1, continue'), ('04 80', 'WT: byte 2, continue'),
        ('04 80', 'WT: byte 3, continue'), ('04 80', 'WT: byte 4, continue'), ('04 20', 'WT: byte 5 = 0x20: reserved')],
       ['@28 1 error class=reserved-field'], ['reserved-field 28'])

vector('reserved-tfo', ['Table 6-4: a TD with TRACEPKT[3:0] = b0101 is reserved: reserved-tfo at the TD (ERRATA',
                        'ETM2-P24: whether synchronised or not).'],
       [('07 05', 'TD, TRACEPKT = 0x05: b0101 reserved')],
       ['@28 7 error class=reserved-tfo'], ['reserved-tfo 28'])

vector('tfo-mismatch', ['ERRATA ETM2-P10: synchronised, a TFO value is the count of unread bytes before its packet.',
                        'TFO 1 (0x19, Example 6-1 L8893-8901) with no byte unread: the next byte is the TFO header,',
                        'one byte early: tfo-mismatch at the TFO cycle (ETM2-P23).'],
       [('07 19', 'TD, TRACEPKT = 0x19: TFO 1'), ('04 20', 'WT: the TFO header: 0 bytes came before it, not 1')],
       ['@28 7 error class=tfo-mismatch'], ['tfo-mismatch 28'])

vector('tfo-past-fifo', ['ERRATA ETM2-P10: with fifo_depth=4, a TFO value above 4 is tfo-past-fifo. The first TFO is',
                         'TFO 5 (0x59: [7:4] = 5, [3] = 1, [2:1] = 0): the error at its TD; then the decoder joins at',
                         'the next TFO.'],
       [('07 59', 'TD, TRACEPKT = 0x59: TFO 5, above fifo_depth')],
       ['@16 7 error class=tfo-past-fifo'], ['tfo-past-fifo 16'], config={'fifo_depth': 4}, sync=False)

vector('bad-mode', ['§6.4.5 (L8828): Context ID packets (0xee = bC1101110, C = 1) need ETMCR[15:14] non-zero; with',
                    'contextid_size=0: bad-mode at the DE whose group it is (ETM2-P23).'],
       [('01 ee', 'DE: Context ID header with contextid_size=0')],
       ['@28 1 error class=bad-mode'], ['bad-mode 28'])

vector('truncated-gap', ['ERRATA ETM2-P20, ETMC-F4: a gap record while a group is incomplete (a branch address whose',
                         'first byte has the continue bit): truncated at the group\'s cycle, then the gap item; after the',
                         'gap the decoder joins at the next TFO.'],
       [('01 81', 'DE: branch address byte 1, continue: the group is open'), ('80 00', 'the gap record')],
       ['@28 1 error class=truncated', '@30 - gap'], ['truncated 28'])

vector('bad-record', ['FORMAT.md "Records", ERRATA ETMC-F5: bit 4 of an ETMv2 status byte (no TRACESYNC) set:',
                      'bad-record at the record, S 0 (a record not read whole, ETM1-P33).'],
       [('10 00', 'status 0x10: bit 4 set')],
       ['@28 0 error class=bad-record'], ['bad-record 28'])

vector('too-many-pending', ['ERRATA ETM2-P21: a ninth packet in one group is too-many-pending at the group\'s cycle.',
                            'Nine Normal data headers 0x82 (bC0A0SS10: C = 1, A = 0, SS = b00, no value byte): the',
                            'ninth is the error.'],
       [('01 82', 'DE: packet 1, C = 1')] + [('04 82', 'WT: packet %d, C = 1' % i) for i in range(2, 10)],
       ['@28 1 error class=too-many-pending'], ['too-many-pending 28'])

vector('bad-header', ['FORMAT.md "Header", ERRATA ETMC-F5: the header says a 4-bit port, the keys 8: bad-header at',
                      'offset 0, and nothing more is decoded: the TFO after it gives no item (the error is fatal).'],
       [], ['@0 0 error class=bad-header'], ['bad-header 0'], sync=False, resume_items=False,
       header='45 54 4d 43 01 02 00 04 00 00 00 00 00 00 00 00', raw='header: ETMv2.0, 4-bit: disagrees with port_width=8')
