#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# first-byte-gen.py — writes first-bytes-traced.tcv, first-bytes-untraced.tcv and tfo-headers.tcv:
# every byte 00-FF as the first byte of a FIFO group (IHI 0014 Table 6-2, L8670-8688, and its Note
# L8692: branch addresses `cxxxxxx1` have no header), with data addresses, data values and a 4-byte
# Context ID traced and with none of them; and every byte 00-FF as a TFO packet's header (Tables 6-6
# and 6-7, L8972-9016). The records and the expected L1 lines are stated here from the text, not
# from a decoder:
#   - each entry starts with a TFO, so every entry has the same base: a TD with TRACEPKT 0x09 (TFO 0,
#     Table 6-4 L8869-8881 and the formula L8887-8889: [7:4] = TFO[3:0] = 0, [3] = !TFO[6] = 1,
#     [2:1] = TFO[5:4] = 0, [0] = 1), then its TFO packet on WT cycles: header 0x20 (b0RR00000, RR =
#     b01 trace enabled), the Context ID when contextid_size > 0 (§6.5.4 L8993-8995), the address
#     0x00001000 least significant byte first, bit 0 = 0: ARM (§6.5.4, ERRATA ETM2-P12). A TFO whose
#     value (0) is the count of bytes still unread (none) keeps the decoder synchronised; after an
#     error the decoder is unsynchronised and joins at it (ERRATA ETM2-P10, ETM2-P24);
#   - then a DE (PIPESTAT b0001: one group, §6.1.3, ERRATA ETM2-P3) with the byte under test on its
#     own TRACEPKT (8-bit port, a byte a cycle, §6.2) and the rest of the group on WT cycles;
#   - the byte is matched against every pattern of Table 6-2 and the Note (0 and 1 fixed, letters any
#     bit); exactly one matches. C (bit 7) = 1 says another packet of the cycle follows (L8696): a
#     Normal data packet 0x02 (bC0A0SS10 with C = 0, A = 0, SS = b00: value 0, no bytes) ends the
#     group. A branch address ends its group whatever its bit 7 (L8698): bit 7 = 1 is the address
#     continue bit, then one more byte 0x00 (§6.7.1 L9112-9140);
#   - Normal data bC0A0SS10 and Load Miss occurred bC1A1TT00 are followed by a data address when A = 1
#     and data_address=1 (L8701, §6.4.2 L8719-8744): here five bytes f8 ac d1 91 01, 7 bits each least
#     significant first with bit 7 set on all but the last, the fifth A[31:28] in bits 3:0 (§6.4.2
#     L8736, ERRATA ETM2-P5): 0x12345678; then, for Normal data and Load Miss data bCTT0SS00, the SS
#     bytes of Table 6-3 (L8708-8715) when data_value=1, least significant first (ERRATA ETM2-P4):
#     here 11 22 33 44 cut to SS's 0, 1, 2 or 4 bytes. With data_value=0 an SS not b00 is warning
#     data-size (bits = SS, ERRATA ETM2-P4), after the item's packets;
#   - a Context ID bC1101110 carries contextid_size bytes (§6.4.5 L8823-8832), least significant
#     first: 44 33 22 11 = 0x11223344; with contextid_size=0 it is bad-mode at the DE (ERRATA ETM2-P23);
#   - a reserved pattern is reserved-header at the DE (ERRATA ETM2-P23); neither error leaves an item;
#   - a branch address of one byte b: ARM A[7:2] = b[6:1] replacing those bits of 0x1000 (ERRATA
#     ETM2-P6): 0x1000 | (b & 0x7e) << 1; of two (b, 0x00): A[14:2] from the two bytes, bits 14:2 of
#     0x1000 replaced: (b & 0x7e) << 1;
#   - TFO headers (tfo-headers.tcv, contextid_size=2): b0RR00000 normal and b1RR00000 LSM in progress
#     (Table 6-6), RR the reason of Table 6-7; each other value is reserved-header at the TFO cycle
#     (ERRATA ETM2-P12). A valid header is followed by the 2-byte Context ID 0x2211 (bytes 11 22) and
#     the address; an LSM-in-progress one by the current address, a branch address compressed against
#     the LSM's (§6.5.5 L9018-9041, ERRATA ETM2-S6): here one byte 0x09, 0x1000 | 0x08 << 1 = 0x1010.
#     Reason b00 is a periodic TFO: `implied=ie` on the TFO line (ERRATA ETM2-P13).
# Run from this folder: python3 first-byte-gen.py
HEADER = '45 54 4d 43 01 02 00 08 00 00 00 00 00 00 00 00'
BASE = dict(protocol='etmv2', version=0, port_width=8, port_mode=0, half_rate=0, contextid_size=0,
            data_address=0, data_value=0, cprt=0, cycle_accurate=0, branch_output=0, hivecs=0, fifo_depth=0)
TABLE_6_2 = [('C0A0SS10', 'normal'), ('X0X1XX00', 'reserved'), ('X0X1XX10', 'reserved'), ('X10XXX10', 'reserved'),
             ('X1100X10', 'reserved'), ('C1101010', 'vnt'), ('C1101110', 'ctxid'), ('X111XX10', 'reserved'),
             ('C1A1TT00', 'miss'), ('CTT0SS00', 'missdata'), ('cxxxxxx1', 'branch')]
DADDR = [0xf8, 0xac, 0xd1, 0x91, 0x01]
VALUE = [0x11, 0x22, 0x33, 0x44]
SS_BYTES = [0, 1, 2, 4]


def field(pattern, b, letter):
    """The bits of b under the letters `letter` of pattern (bit 7 first), as a number."""
    v = 0
    for i, ch in enumerate(pattern):
        if ch == letter:
            v = v * 2 + (b >> (7 - i) & 1)
    return v


def matches(pattern, b):
    return all(ch not in '01' or int(ch) == (b >> (7 - i) & 1) for i, ch in enumerate(pattern))


def classify(b):
    hits = [(p, k) for p, k in TABLE_6_2 if matches(p, b)]
    assert len(hits) == 1, (b, hits)
    return hits[0]


class Vec:
    def __init__(self, cfg):
        self.cfg = cfg
        self.recs = []
        self.expect = []
        self.errors = []

    def off(self):
        return 16 + 2 * len(self.recs)

    def rec(self, st, pkt, why):
        self.recs.append(('%02x %02x' % (st, pkt), why))

    def tfo(self, header=0x20, why='normal, reason b01'):
        at = self.off()
        self.rec(7, 0x09, 'TD, TRACEPKT = 0x09: TFO 0')
        self.rec(4, header, 'WT: TFO header 0x%02x: %s' % (header, why))
        return at

    def tfo_rest(self, ctx):
        n = self.cfg['contextid_size']
        for i in range(n):
            self.rec(4, ctx[i], 'WT: Context ID byte %d' % i)
        for i, b in enumerate([0x00, 0x10, 0x00, 0x00]):
            self.rec(4, b, 'WT: address byte %d%s' % (i, ': 0x00001000, ARM' if i == 3 else ''))

    def sync(self):
        at = self.tfo()
        self.tfo_rest([0x44, 0x33, 0x22, 0x11])
        ctx = {0: '', 2: ' ctxid=0x2211', 4: ' ctxid=0x11223344'}[self.cfg['contextid_size']]
        self.expect += ['@%d 7 tfo value=0 pkt=%d' % (at, at + 2),
                        '@%d 7 +tfo-packet reason=1 lsip=0%s addr=0x1000 isa=arm' % (at, ctx)]

    def write(self, name, why, tag):
        out = ['tracecert-vector 1'] + ['# ' + l for l in why] + ['[config]']
        out += ['%s=%s' % kv for kv in self.cfg.items()]
        out += ['[tags]', tag, '[trace]', HEADER + '   # @0 header: ETMC, rev 1, ETMv2.0, 8-bit, normal']
        off = 16
        for b, w in self.recs:
            out.append('%-8s # @%d %s' % (b, off, w))
            off += 2
        out += ['[expect.l1]'] + self.expect
        if self.errors:
            out += ['[error]'] + self.errors
        out.append('[end]')
        with open(name + '.tcv', 'w') as f:
            f.write('\n'.join(out) + '\n')


def data_packet(v, at, kind, pat, b):
    """The rest of a data packet's bytes and its + line (kind normal, miss or missdata)."""
    cfg = v.cfg
    a = field(pat, b, 'A')
    line = '@%d 1 +' % at
    warn = None
    if kind == 'normal':
        line += 'data a=%d' % a
    elif kind == 'miss':
        line += 'miss tag=%d a=%d' % (field(pat, b, 'T'), a)
    else:
        line += 'miss-data tag=%d' % field(pat, b, 'T')
        a = 0
    if a and cfg['data_address']:
        for i, d in enumerate(DADDR):
            v.rec(4, d, 'WT: data address byte %d%s' % (i, ': 0x12345678' if i == 4 else ''))
        line += ' addr=0x12345678'
    if kind != 'miss':
        ss = field(pat, b, 'S')
        if cfg['data_value']:
            n = SS_BYTES[ss]
            for i in range(n):
                v.rec(4, VALUE[i], 'WT: value byte %d' % i)
            val = 0
            for i in reversed(range(n)):
                val = val * 256 + VALUE[i]
            line += ' value=0x%x size=%d' % (val, n)
        elif ss:
            warn = '@%d 1 warning class=ignored-field field=data-size bits=0x%x' % (at, ss)
    return line, warn


def first_byte(v, b):
    pat, kind = classify(b)
    v.sync()
    at = v.off()
    v.rec(1, b, 'DE: first byte 0x%02x = b%s: %s' % (b, format(b, '08b'), kind + (' ' + pat)))
    lines = ['@%d 1 de pkt=%d' % (at, at)]
    warns = []
    if kind == 'reserved':
        v.expect.append('@%d 1 error class=reserved-header' % at)
        v.errors.append('reserved-header %d' % at)
        return
    if kind == 'ctxid' and not v.cfg['contextid_size']:
        v.expect.append('@%d 1 error class=bad-mode' % at)
        v.errors.append('bad-mode %d' % at)
        return
    if kind == 'branch':
        if b & 0x80:
            v.rec(4, 0x00, 'WT: branch address byte 2, the last')
            lines.append('@%d 1 +branch addr=0x%x isa=arm n=2' % (at, (b & 0x7e) << 1))
        else:
            lines.append('@%d 1 +branch addr=0x%x isa=arm n=1' % (at, 0x1000 | (b & 0x7e) << 1))
        v.expect += lines
        return
    if kind == 'vnt':
        lines.append('@%d 1 +not-traced' % at)
    elif kind == 'ctxid':
        for i, c in enumerate([0x44, 0x33, 0x22, 0x11]):
            v.rec(4, c, 'WT: Context ID byte %d' % i)
        lines.append('@%d 1 +context-id ctxid=0x11223344' % at)
    else:
        line, warn = data_packet(v, at, kind, pat, b)
        lines.append(line)
        if warn:
            warns.append(warn)
    if b & 0x80:
        v.rec(4, 0x02, 'WT: C = 1: Normal data 0x02 ends the group')
        lines.append('@%d 1 +data a=0%s' % (at, ' value=0x0 size=0' if v.cfg['data_value'] else ''))
    v.expect += lines + warns


def first_bytes(name, cfg, what):
    c = dict(BASE)
    c.update(cfg)
    v = Vec(c)
    for b in range(256):
        first_byte(v, b)
    v.write(name, ['Every byte 00-FF as the first byte of a group (IHI 0014 Table 6-2 L8670-8688, the Note L8692),',
                   what + '; the rules: first-byte-gen.py.'], 'hdr table-6-2 L8670')


def tfo_headers():
    c = dict(BASE)
    c['contextid_size'] = 2
    v = Vec(c)
    for h in range(256):
        at = v.off()
        if h & 0x1f:
            v.tfo(h, 'reserved (Table 6-6: bits 4:0 not b00000)')
            v.expect.append('@%d 7 error class=reserved-header' % at)
            v.errors.append('reserved-header %d' % at)
            continue
        rr, lsip = h >> 5 & 3, h >> 7
        v.tfo(h, '%s, reason b%s' % ('LSM in progress' if lsip else 'normal', format(rr, '02b')))
        v.tfo_rest([0x11, 0x22])
        line = '@%d 7 +tfo-packet reason=%d lsip=%d ctxid=0x2211 addr=0x1000 isa=arm' % (at, rr, lsip)
        if lsip:
            v.rec(4, 0x09, 'WT: current address, one byte 0x09: 0x1010, ARM')
            line += ' cur=0x1010 cur-isa=arm'
        v.expect += ['@%d 7 tfo value=0 pkt=%d%s' % (at, at + 2, ' implied=ie' if rr == 0 else ''), line]
    v.write('tfo-headers', ['Every byte 00-FF as a TFO packet header (IHI 0014 Tables 6-6, 6-7, L8972-9016), each after a',
                            'TFO 0, with a 2-byte Context ID; the rules: first-byte-gen.py.'], 'hdr table-6-6 L8972')


first_bytes('first-bytes-traced', dict(contextid_size=4, data_address=1, data_value=1),
            'data addresses, data values and a 4-byte Context ID traced')
first_bytes('first-bytes-untraced', {}, 'no data address, data value or Context ID traced')
tfo_headers()
