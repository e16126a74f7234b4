#!/usr/bin/env python3
"""Template the repetitive negative ETE vectors of vectors/ete/neg/.

Every expectation below comes from the reasoning written next to it (the header map of
Parse_Trace, Arm ARM K10.5.2.2.1, as reference/ERRATA.md amends it, the error classes of
reference/FORMAT.md); nothing is obtained by running a decoder. The script only lays the
bytes out, counts offsets and prints the lines.

Shape of a "resync" vector (all offsets decimal):
    @0   A-sync (12 bytes)
    @12  Trace Info 01 00              -> trace-info cc=0 cct=0 spec=0 tx=0
    @14  setup packets (optional, case-specific, with their own expected lines)
    @B   the bad packet (its bytes)    -> error class=CLASS at @B
    @R   A-sync, R = B + len(bad)      -> found by the resync search, which starts at B+1
    @R+12 Trace Info 01 00
    @R+14 F7 (atom E; with maxspec=0 also its implicit Commit(1) in s1)
The bytes between B+1 and R-1 must not contain an A-sync and the byte at R-1 must not be 0,
so that the A-sync found by the search starts exactly at R (checked below).

Usage: python3 tools/vecgen/gen_neg.py [outdir]   (default vectors/ete/neg)
"""
import os
import sys

ASYNC = [0x00] * 11 + [0x80]
CONFIG_KEYS = ['protocol', 'maxspec', 'commopt', 'commtrans', 'tsmark', 'ite', 'rme', 'tf_keep_cc']
DEFAULT = dict(protocol='ete', maxspec='0', commopt='0', commtrans='0', tsmark='0', ite='0',
               rme='0', tf_keep_cc='0')
TI0 = 'trace-info cc=0 cct=0 spec=0 tx=0'

# --- header map (K10.5.2.2.1 Parse_Trace; ERRATA.md TC-S2, TC-S3, TC-S3b, TC-S7, TC-P1, TC-P7) ---
# Headers that start a packet with commopt=0, ite=0, tsmark=0:
VALID_DEFAULT = set(
    [0x00, 0x01, 0x02, 0x03, 0x04, 0x06,          # ext, Trace Info, Timestamp, Trace On, Exception
     0x0A, 0x0B,                                  # Transaction Start / Commit
     0x0C, 0x0D, 0x0E, 0x0F] +                    # Cycle Count F2 / F1
    list(range(0x10, 0x20)) +                     # Cycle Count F3 (all 16 in commit mode 0)
    [0x2D, 0x2E, 0x2F] +                          # Commit, Cancel F1
    list(range(0x30, 0x40)) +                     # Mispredict 30-33, Cancel F2 34-37, F3 38-3F
    list(range(0x70, 0x80)) +                     # Ignore 70, Event 71-7F
    [0x80, 0x81, 0x82, 0x83, 0x85, 0x86] +        # Context, Address with Context
    [0x90, 0x91, 0x92, 0x95, 0x96, 0x9A, 0x9B, 0x9D, 0x9E] +      # Target Address
    [0xA0, 0xA1, 0xA2, 0xA5, 0xA6, 0xAA, 0xAB, 0xAC, 0xAF] +      # Q
    [0xB0, 0xB1, 0xB2, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9] +      # Source Address
    list(range(0xC0, 0x100)))                     # Atom formats 1-6
# Exact-match index 3 (TC-S3, TC-S3b): class exact-match-index, not reserved-header.
EXACT3 = {0x93, 0xA3, 0xB3}
# Everything else is reserved-header in the default configuration (this includes 0x09,
# Instrumentation only with ite=1, and 0x88, Timestamp Marker only with tsmark=1: TC-P1).
RESERVED_DEFAULT = sorted(set(range(256)) - VALID_DEFAULT - EXACT3)
# With commopt=1, 0x0C and 0x14-0x1F are cycle counts whose ignored bits give a warning
# (ERRATA TC-R1): they are in vectors/ete/warn, not here.
# Valid second bytes after 00 (K10.5.2.3.1): 00 A-sync, 03 Discard, 05 Overflow.
EXT_VALID = {0x00, 0x03, 0x05}

NOTES = {
    0x05: 'ETMv4-M function return; no ETE packet',
    0x07: 'ETMv4 Exception Return, removed in ETE',
    0x08: 'reserved',
    0x09: 'Instrumentation only with ite=1 (ERRATA TC-P1); here ite=0',
    0x84: 'no Address-with-Context form for header<2:0>=100',
    0x87: 'no Address-with-Context form for header<2:0>=111',
    0x88: 'Timestamp Marker only with tsmark=1 (ERRATA TC-P1); here tsmark=0',
    0x94: "K10 routes '100101xx' to Parse_TargetAddressPacket, which has no arm (ERRATA TC-S2)",
    0x97: "K10 routes '100101xx' to Parse_TargetAddressPacket, which has no arm (ERRATA TC-S2)",
    0x98: "K10 routes '1001100x' to Parse_TargetAddressPacket, which has no arm (ERRATA TC-S2)",
    0x99: "K10 routes '1001100x' to Parse_TargetAddressPacket, which has no arm (ERRATA TC-S2)",
    0x9C: 'no Target Address form for header<2:0>=100',
    0x9F: 'no Target Address form for header<2:0>=111',
    0x93: 'exact match with QE=3: AddressHistoryBuffer.Get asserts n<3 (ERRATA TC-S3b)',
    0xA3: 'Q type 0011 = exact match with QE=3 (ERRATA TC-S3b)',
    0xB3: "Source Address exact match q=3; K10 '101100xx' includes it (ERRATA TC-S3)",
}


def note(h):
    if h in NOTES:
        return NOTES[h]
    if 0x20 <= h <= 0x2C:
        return 'ETMv4 data synchronisation markers; no ETE packet'
    if 0x40 <= h <= 0x6F:
        return 'ETMv4 conditional instruction/result packets; no ETE packet'
    if 0x89 <= h <= 0x8F:
        return 'reserved'
    if h in (0xA4, 0xA7, 0xA8, 0xA9, 0xAD, 0xAE):
        return 'reserved Q type %s' % format(h & 0xF, '04b')
    if 0xBA <= h <= 0xBF:
        return 'reserved'
    return 'reserved'


def hexs(bs):
    return ' '.join('%02X' % b for b in bs)


class Vec:
    """Accumulates trace bytes with the expected L1/s1 lines and errors."""

    def __init__(self, cfg):
        self.cfg = dict(DEFAULT, **cfg)
        self.trace = []      # (bytes, comment)
        self.l1 = []
        self.s1 = []
        self.err = []
        self.off = 0

    def add(self, bs, comment, l1=None, s1=()):
        off = self.off
        self.trace.append((bs, '@%d %s' % (off, comment)))
        if l1 is not None:
            self.l1.append('@%d %02x %s' % (off, bs[0], l1))
        for x in s1:
            self.s1.append('@%d %s' % (off, x))
        self.off += len(bs)
        return off

    def asyncp(self):
        self.add(ASYNC, 'A-sync', 'async')

    def tinfo(self):
        self.add([0x01, 0x00], 'Trace Info, PLCTL=0', TI0, [TI0])

    def atom_e(self):
        s1 = ['atom E']
        if self.cfg['maxspec'] == '0':
            s1.append('commit n=1          # depth 1 > maxspec 0: implicit Commit(1)')
        self.add([0xF7], 'atom E (Atom F1, A=1)', 'atom atoms=E', s1)

    def bad(self, bs, cls, comment):
        off = self.add(bs, comment)
        self.l1.append('@%d %02x error class=%s' % (off, bs[0], cls))
        self.s1.append('@%d error class=%s' % (off, cls))
        self.err.append('%s %d' % (cls, off))
        return off

    def resync(self, bad_off):
        # the search starts at bad_off+1; the A-sync must start exactly here
        data = self.bytes()
        assert self.off > bad_off
        assert data[self.off - 1] != 0, 'byte before the resync A-sync must not be 0'
        window = data[bad_off + 1:self.off]
        for i in range(len(window)):
            assert window[i:i + 12] != ASYNC, 'bad packet bytes contain an A-sync'
        self.asyncp()
        self.tinfo()
        self.atom_e()

    def bytes(self):
        out = []
        for bs, _ in self.trace:
            out += bs
        return out

    def text(self, head, tags):
        lines = ['tracecert-vector 1']
        lines += ['# ' + x if x else '#' for x in head]
        lines.append('[config]')
        lines += ['%s=%s' % (k, self.cfg[k]) for k in CONFIG_KEYS]
        if 'queue_cap' in self.cfg:
            lines.append('queue_cap=%s' % self.cfg['queue_cap'])
        lines.append('[tags]')
        lines.append(tags)
        lines.append('[trace]')
        for bs, c in self.trace:
            lines.append('%-37s # %s' % (hexs(bs), c))
        lines.append('[expect.l1]')
        lines += self.l1
        lines.append('[expect.s1]')
        lines += self.s1
        lines.append('[error]')
        lines += self.err
        return '\n'.join(lines) + '\n'


def simple(cfg, setup, badbytes, cls, comment, head, tags, ti=True):
    """A-sync, Trace Info (01 00, or the given (bytes, l1/s1 text), or none when ti is
    None), setup packets, one bad packet, resync."""
    v = Vec(cfg)
    v.asyncp()
    if ti is True:
        v.tinfo()
    elif ti is not None:
        v.add(ti[0], 'Trace Info', ti[1], [ti[1]])
    for bs, c, l1, s1 in setup:
        v.add(bs, c, l1, s1)
    b = v.bad(badbytes, cls, comment)
    v.resync(b)
    common = ['The parser reports %s at the bad packet\'s first byte (@%d), then searches for'
              % (cls, b),
              'the next A-sync from @%d; it starts at @%d. Bytes in between produce nothing.'
              % (b + 1, b + len(badbytes))]
    return v.text(head + common, tags)


def warned(cfg, ti, pkt, head, tags):
    """A-sync, a Trace Info (the default 01 00, or None when pkt is the Trace Info), the packet
    whose unassigned bits are set, then atom E. pkt = (bytes, comment, l1, s1 lines, warnings),
    warnings = [(class, field, bits)]: one L1 warning line per entry, after the packet's line
    (reference/FORMAT.md "Warnings"). Nothing else changes: the lines, s1 included, are those
    of the same packet with the bits clear (ERRATA TC-R1)."""
    v = Vec(cfg)
    v.asyncp()
    if ti:
        v.tinfo()
    bs, comment, l1, s1, warnings = pkt
    off = v.add(bs, comment, l1, s1)
    for cls, field, bits in warnings:
        w = 'warning class=%s field=%s bits=0x%x' % (cls, field, bits)
        v.l1.append('@%d %02x %s' % (off, bs[0], w))
    v.atom_e()
    text = v.text(head + ['Decoding goes on: the atom E after it decodes as usual.'], tags)
    return text.replace('[error]\n', '')


def warn_cases():
    """(name, cfg, ti, pkt, head) for vectors/ete/warn: every field the reference ignores with a
    warning (ERRATA TC-R1 audit), set, and the real-hardware pattern that needs no warning."""
    C1 = {'commopt': '1'}
    TI = 'trace-info cc=0 cct=0 spec=0 tx=0'
    TI_CC = 'trace-info cc=1 cct=0 spec=0 tx=0'
    cases = []
    for info, l1 in [(0x10, TI), (0x03, TI_CC), (0x21, TI_CC), (0x80, TI)]:
        cases.append(('info-%02x.tcv' % info, {}, False,
                      ([0x01, 0x01, info], 'Trace Info, PLCTL 0x01, INFO 0x%02X' % info, l1, [l1],
                       [('res0', 'info', info & 0xbe)]),
                      ['Trace Info INFO 0x%02x as the first Trace Info after the A-sync. K10.5.2.6.2'
                       % info,
                       'TraceInfoPacket uses INFO<0> (cc_enabled) only, and ERRATA TC-S12 adds INFO<6>',
                       '(in transaction); bits 0x%02x are assigned nowhere: ignored with a res0 warning'
                       % (info & 0xbe),
                       '(ERRATA TC-R1). With INFO 0x%02x the lines are the same without the warning.'
                       % (info & 0x41)]))
    for plctl, extra, l1, why in [
            (0x81, [0x01], TI_CC, 'PLCTL<7> (an ETMv4 continuation bit; K10 reads PLCTL as one byte)'),
            (0x40, [], TI, 'PLCTL<6>'), (0x20, [], TI, 'PLCTL<5>'),
            (0x02, [], TI, 'PLCTL<1> (KEY section in ETMv4 data trace; no such section in K10)')]:
        cases.append(('plctl-%02x.tcv' % plctl, {}, False,
                      ([0x01, plctl] + extra, 'Trace Info, PLCTL 0x%02X' % plctl
                       + (', INFO 0x01' if extra else ''), l1, [l1],
                       [('res0', 'plctl', plctl & 0xe2)]),
                      ['Trace Info PLCTL 0x%02x: %s is not read by' % (plctl, why),
                       'K10.5.2.6.1 Parse_TraceInfoPacket, which tests PLCTL<0>, <2> and <3> only (and',
                       'PLCTL<4>, WNDW, ERRATA TC-P3): res0 warning (ERRATA TC-R1); the sections the',
                       'assigned bits announce are read as usual.']))
    cases.append(('exception-bit7.tcv', {}, True,
                  ([0x06, 0xDC, 0x90], 'Exception, payload 0xDC, AH 90',
                   'exception e=2 type=0xe addr=0x0 isa=0',
                   ['target-address addr=0x0 isa=0', 'exception type=0xe addr=0x0',
                    'commit n=1          # depth 1 > maxspec 0: implicit Commit(1)'],
                   [('res0', 'exception', 0x80)]),
                  ['Exception payload 0xdc = 1101_1100: K10.5.2.13.1 reads E<0> = bit 0 = 0,',
                   'E<1> = bit 6 = 1 (E=10) and TYPE = bits 5:1 = 0xe; bit 7 is read nowhere: res0',
                   'warning (ERRATA TC-P4, TC-R1). AH 90: exact match 0, AHB[0] = 0x0 IS0 after the',
                   'Trace Info. E=10: Target Address, then the Exception element, then the implicit',
                   'commit of UpdateSpecDepth(1) with maxspec 0. Payload 0x5c gives the same lines.']))
    for bs, addr, isa, bits, what in [
            ([0xB6, 0x81, 0x02, 0x03, 0x04], 0x04030404, 0, 0x80,
             'B6 (32-bit IS0): data12<7> set; address = 0403:02<6:0>:01<6:0>:00'),
            ([0xB8, 0x81, 0x82, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08], 0x807060504030404, 0, 0x8080,
             'B8 (64-bit IS0): data1<7> and data2<7> set (bits 0x8080 of the two bytes)'),
            ([0xB9, 0x81, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08], 0x807060504030202, 1, 0x80,
             'B9 (64-bit IS1): data11<7> set; address = 08070605040302:01<6:0>:0')]:
        line = 'source-address addr=0x%x isa=%d' % (addr, isa)
        cases.append(('source-address-%02x.tcv' % bs[0], {}, True,
                      (bs, 'Source Address %02X, bit 7 of the low byte(s) set' % bs[0], line,
                       [line, 'commit n=1          # depth 1 > maxspec 0: implicit Commit(1)'],
                       [('res0', 'source-address', bits)]),
                      ['Source Address %s.' % what,
                       'K10.5.2.12.1 Parse_SourceAddressPacket reads data<6:0> of the low bytes and no',
                       'SBZ() (unlike LongAddressBytes): bit 7 is assigned nowhere, a res0 warning',
                       '(ERRATA TC-P9, TC-R1). Emit, then UpdateSpecDepth(1) (ERRATA TC-S8): with maxspec',
                       '0 the implicit Commit(1). The same bytes with bit 7 clear give the same lines.']))
    cases.append(('ite-el.tcv', {'ite': '1'}, True,
                  ([0x09, 0x05, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08],
                   'Instrumentation, EL byte 0x05, value 0x0807060504030201',
                   'instrumentation el=1 value=0x807060504030201',
                   ['instrumentation el=1 value=0x807060504030201'],
                   [('res0', 'instrumentation', 0x04)]),
                  ['Instrumentation (ite=1, ERRATA TC-P1): the EL byte assigns bits 1:0 only; 0x05',
                   'sets bit 2 as well: res0 warning (ERRATA TC-R1). EL = 1; the value is the next',
                   'eight bytes, little endian.']))
    for hdr, pay, ws, why in [
            (0x0D, 0x1B, [('ignored-field', 'cc-f2-aaaa', 0x1)], 'AAAA = 0001 instead of 1111'),
            (0x0C, 0xF3, [('ignored-field', 'cc-f2-f', 0x0)], 'F = header<0> = 0 instead of 1'),
            (0x0C, 0x05, [('ignored-field', 'cc-f2-f', 0x0), ('ignored-field', 'cc-f2-aaaa', 0x0)],
             'F = 0 and AAAA = 0000')]:
        n = pay & 0xf
        cases.append(('cc-f2-%02x-%02x-commopt1.tcv' % (hdr, pay), C1, True,
                      ([hdr, pay], 'Cycle Count format 2, header 0x%02X, payload 0x%02X' % (hdr, pay),
                       'cycle-count commit=0 cc=%d' % n, ['cycle-count n=%d' % n], ws),
                      ['With commopt=1 K10.5.2.16.2 Parse_CycleCountPackets reads BBBB only and calls',
                       "CycleCountFormat2Packet('1', '1111', BBBB): here %s, so" % why,
                       'ignored-field (ERRATA TC-R1). Commit mode 1 commits nothing (ERRATA TC-S7); the',
                       'count is cc_threshold (0: the Trace Info has no CYCT) + BBBB = %d. 0D F%X gives'
                       % (n, n),
                       'the same lines without the warning.']))
    for h in range(0x14, 0x20):
        cases.append(('cc-f3-%02x-commopt1.tcv' % h, C1, True,
                      ([h], 'Cycle Count format 3, header 0x%02X' % h,
                       'cycle-count commit=0 cc=%d' % (h & 3), ['cycle-count n=%d' % (h & 3)],
                       [('ignored-field', 'cc-f3-aa', (h >> 2) & 3)]),
                      ['Header 0x%02x with commopt=1: K10.5.2.16.2 routes 0001xxxx to' % h,
                       "CycleCountFormat3Packet('00', BB) in commit mode 1, ignoring AA = header<3:2> ="
                       + ' %s: ignored-field warning (ERRATA TC-P7, TC-R1).' % format((h >> 2) & 3, '02b'),
                       'No commit (commit mode 1); count = cc_threshold 0 + BB = %d. Header 0x%02x gives'
                       % (h & 3, 0x10 | (h & 3)),
                       'the same lines without the warning.']))
    return cases


def write(outdir, name, text, made):
    assert name not in made, name
    made.add(name)
    with open(os.path.join(outdir, name), 'w') as f:
        f.write(text)


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else 'vectors/ete/neg'
    made = set()

    # 1. reserved header values, default configuration
    for h in RESERVED_DEFAULT + sorted(EXACT3):
        cls = 'exact-match-index' if h in EXACT3 else 'reserved-header'
        head = ['Header 0x%02x with commopt=0, ite=0, tsmark=0: %s.' % (h, note(h)),
                'Class %s (reference/FORMAT.md, reference/ERRATA.md).' % cls]
        write(outdir, 'hdr-%02x.tcv' % h,
              simple({}, [], [h], cls, 'header 0x%02X' % h, head, 'neg %s' % cls), made)

    # 3. reserved extension bytes: 00 xx, xx not in {00, 03, 05}; grouped by high nibble.
    for hi in range(16):
        xs = [x for x in range(hi * 16, hi * 16 + 16) if x not in EXT_VALID]
        v = Vec({})
        v.asyncp()
        v.tinfo()
        for x in xs:
            b = v.bad([0x00, x], 'reserved-extension', 'extension packet 00, second byte 0x%02X' % x)
            # next A-sync right after: the search from b+1 sees 0x%02X (non-zero), then the A-sync
            assert x != 0
            v.asyncp()
        v.tinfo()
        v.atom_e()
        head = ['Reserved extension bytes 0x%02x-0x%02x: header 00 followed by a byte other than'
                % (hi * 16, hi * 16 + 15),
                '00 (A-sync), 03 (Discard), 05 (Overflow) is reserved-extension (K10.5.2.3.1',
                '"otherwise ReservedEncoding()"), reported at the 00 byte. Each bad packet is',
                'followed by a full A-sync, which the resync search (starting at the second',
                'byte, which is non-zero) finds right after it. Values here: %s.'
                % ', '.join('%02x' % x for x in xs)]
        write(outdir, 'ext-%xx.tcv' % hi, v.text(head, 'neg reserved-extension'), made)

    # 4. other classes: (name, cfg, setup, bad bytes, class, comment, header lines)
    S = lambda bs, c, l1, s1: (bs, c, l1, s1)
    cases = [
        # --- bad-async (ERRATA TC-P2: at least 10 zero payload bytes, then 0x80)
        ('async-9zeros.tcv', {}, [], [0x00] * 10 + [0x80], 'bad-async',
         'header 00 + 9 zero payload bytes + 0x80',
         ['A-sync with only 9 zero payload bytes (10 zero bytes in all) before 0x80.']),
        ('async-1zero.tcv', {}, [], [0x00, 0x00, 0x80], 'bad-async',
         'header 00 + 1 zero payload byte + 0x80',
         ['00 00 80: one zero payload byte, then 0x80.']),
        ('async-bad-end.tcv', {}, [], [0x00, 0x00, 0x00, 0x05], 'bad-async',
         '00 00 00 then 0x05',
         ['00 00 00 05: the zero run of an A-sync ends in 0x05 instead of 0x80',
          '(K10: "if extension != 10000000 then ReservedEncoding").']),
        ('async-no-80.tcv', {}, [], [0x00] * 12 + [0x01], 'bad-async',
         '12 zero bytes then 0x01',
         ['Twelve zero bytes (enough) but then 0x01 instead of 0x80. The resync search from',
          'the next byte sees 11 zeros followed by 0x01: not an A-sync.']),
        # --- sbz
        ('sbz-addr32-b1.tcv', {}, [], [0x9A, 0x81, 0x02, 0x03, 0x04], 'sbz',
         '9A with b1<7>=1',
         ['Target Address 32-bit IS0 (9A): byte 1 bit 7 is SBZ (LongAddressBytes, K10.5.2.14.2).']),
        ('sbz-addr64-b2.tcv', {}, [], [0x9D, 0x01, 0x82, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08], 'sbz',
         '9D with b2<7>=1',
         ['Target Address 64-bit IS0 (9D): byte 2 bit 7 is SBZ (LongAddressBytes).']),
        ('sbz-addr64is1-b1.tcv', {}, [], [0x9E, 0x81, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08], 'sbz',
         '9E with b1<7>=1',
         ['Target Address 64-bit IS1 (9E): byte 1 bit 7 is SBZ (LongAddressBytes).']),
        ('sbz-addrctx-b1.tcv', {}, [], [0x82, 0x81, 0x02, 0x03, 0x04, 0x01], 'sbz',
         '82 with b1<7>=1, context INFO 0x01',
         ['Address with Context 32-bit IS0 (82): the long address byte 1 bit 7 is SBZ.']),
        ('sbz-q-addr-b1.tcv', {}, [], [0xAA, 0x81, 0x02, 0x03, 0x04, 0x05], 'sbz',
         'AA with b1<7>=1, count 5',
         ['Q with 32-bit IS0 address (AA): LongAddressBytes byte 1 bit 7 is SBZ.']),
        ('sbz-ctx-bit2.tcv', {}, [], [0x81, 0x04], 'sbz', '81, INFO 0x04 (bit 2)',
         ['Context payload bit 2 is SBZ (K10.5.2.14.9 SBZ(payload<3:2>), ERRATA TC-P8).']),
        ('sbz-ctx-bit3.tcv', {}, [], [0x81, 0x08], 'sbz', '81, INFO 0x08 (bit 3)',
         ['Context payload bit 3 is SBZ when rme=0 (ERRATA TC-P8; with rme=1 it is NSE, see',
          'vectors/ete/hdr/context-rme.tcv).']),
        ('sbz-ctx-bit2-rme.tcv', {'rme': '1'}, [], [0x81, 0x04], 'sbz', '81, INFO 0x04 (bit 2)',
         ['Context payload bit 2 stays SBZ with rme=1 (ERRATA TC-P8).']),
        ('sbz-exc-addr.tcv', {}, [], [0x06, 0x5C, 0x9A, 0x81, 0x02, 0x03, 0x04], 'sbz',
         '06 5C, AH 9A with b1<7>=1',
         ['Exception E=10 TYPE=0xe whose embedded 32-bit IS0 address has byte 1 bit 7 set:',
          'SBZ inside the exception packet, reported at the 06 byte.']),
        # --- reserved-field
        ('exc-e00.tcv', {}, [], [0x06, 0x1C], 'reserved-field', '06, payload 0x1c: E=00',
         ['Exception payload 0x1c = 0001_1100: E1=bit6=0, E0=bit0=0 -> E=00, reserved',
          '(K10.5.2.13.1 "else ReservedEncoding"); no address header is read.']),
        ('exc-e11.tcv', {}, [], [0x06, 0x5D, 0x90], 'reserved-field', '06, payload 0x5d: E=11',
         ['Exception payload 0x5d = 0101_1101: E1=1, E0=1 -> E=11, reserved.']),
        # --- exact-match-index inside an exception
        ('exc-ah-93.tcv', {}, [], [0x06, 0x5C, 0x93], 'exact-match-index', '06 5C, AH 93',
         ['Exception E=10 TYPE=0xe with address header 0x93: exact match QE=3',
          '(ERRATA TC-S3b, TC-P4), class exact-match-index, reported at the 06 byte.']),
        # --- field-overflow (BitReplacement final byte, ERRATA TC-S10)
        ('fo-commit.tcv', {}, [], [0x2D, 0x81, 0x80, 0x80, 0x80, 0x10], 'field-overflow',
         'Commit, 5th ULEB byte 0x10',
         ['COMMIT is ULEB128(32): after 4 continued bytes (28 bits) the 5th byte fills',
          'bits 31:28 with its bits 3:0; its bits 7:4 must be 0. 0x10 sets bit 4.']),
        ('fo-cancel.tcv', {}, [], [0x2E, 0x80, 0x80, 0x80, 0x80, 0x20], 'field-overflow',
         'Cancel F1, 5th ULEB byte 0x20',
         ['CANCEL is ULEB128(32): 5th byte 0x20 has bit 5 set, beyond bit 31 of the field.']),
        ('fo-q-count.tcv', {}, [], [0xAC, 0x80, 0x80, 0x80, 0x80, 0xF0], 'field-overflow',
         'Q type 1100, 5th count byte 0xf0',
         ['Q COUNT is ULEB128(32): 5th byte 0xf0 has bits 7:4 set (no continuation exists',
          'after the 5th byte; bit 7 is part of the overflow).']),
        ('fo-cc-count.tcv', {}, [], [0x0E, 0x00, 0x80, 0x80, 0x40], 'field-overflow',
         'Cycle Count F1, COMMIT=0, COUNT 3rd byte 0x40',
         ['Cycle Count COUNT is ULEB128(20): after 2 continued bytes (14 bits) the 3rd byte',
          'fills bits 19:14 with its bits 5:0; bits 7:6 must be 0. 0x40 sets bit 6.']),
        ('fo-ts-count.tcv', {}, [], [0x03, 0x01, 0xFF, 0xFF, 0xC0], 'field-overflow',
         'Timestamp 03, TS=1, COUNT 3rd byte 0xc0',
         ['Timestamp COUNT is ULEB128(20): 3rd byte 0xc0 sets bits 7:6.']),
        ('fo-ti-cyct.tcv', {}, [], [0x01, 0x08, 0x80, 0x80, 0x80, 0x80, 0x10], 'field-overflow',
         'Trace Info PLCTL 0x08, CYCT 5th byte 0x10',
         ['Trace Info CYCT is ULEB128(32) (ERRATA TC-P3): 5th byte 0x10 sets bit 4.']),
        ('fo-ti-wndw.tcv', {}, [], [0x01, 0x10, 0x80, 0x80, 0x80, 0x80, 0x10], 'field-overflow',
         'Trace Info PLCTL 0x10, WNDW 5th byte 0x10',
         ['Trace Info WNDW is ULEB128(32) (ERRATA TC-P3): 5th byte 0x10 sets bit 4.']),
    ]
    # reserved address headers inside an exception (ERRATA TC-P4): reserved-field
    for ah in [0x80, 0x81, 0x84, 0x87, 0x94, 0x97, 0x98, 0x99, 0x9C, 0x9F, 0xA5, 0xB0, 0xF7, 0x01]:
        cases.append(('exc-ah-%02x.tcv' % ah, {}, [], [0x06, 0x5C, ah], 'reserved-field',
                      '06 5C, AH %02X' % ah,
                      ['Exception E=10 TYPE=0xe with address header 0x%02x, which is not one of'
                       % ah,
                       '90-92, 95, 96, 9A, 9B, 9D, 9E, 82, 83, 85, 86, 70: reserved-field',
                       '(ERRATA TC-P4), reported at the 06 byte.']))
    for name, cfg, setup, bs, cls, comment, head in cases:
        write(outdir, name, simple(cfg, setup, bs, cls, comment, head, 'neg %s' % cls), made)

    # 5. commit/cancel beyond the outstanding depth (ERRATA TC-S11: detected in stage 1 before
    #    any state changes, so the bad packet emits nothing), and spec-mismatch (TC-P10).
    #    maxspec=16 everywhere, so no implicit commit: atoms only raise the depth.
    M16 = {'maxspec': '16'}
    DB = S([0xDB], 'atoms E E (Atom F2, A=11): depth 0 -> 2', 'atom atoms=EE', ['atom E', 'atom E'])
    F7 = S([0xF7], 'atom E (Atom F1): depth 0 -> 1', 'atom atoms=E', ['atom E'])
    ov = [
        ('overrun-commit.tcv', M16, [DB], [0x2D, 0x03], 'commit-overrun', 'Commit 3',
         ['Commit 3 with 2 P0 elements outstanding (depth 2).'], True),
        ('overrun-commit-unseen.tcv', M16,
         [S([0xF7], 'atom E (Atom F1): depth 3 -> 4', 'atom atoms=E', ['atom E'])],
         [0x2D, 0x05], 'commit-overrun', 'Commit 5',
         ['The Trace Info says 3 unseen P0 elements are outstanding (SPEC=3); one atom makes',
          'the depth 4; Commit 5 exceeds it.'],
         ([0x01, 0x04, 0x03], 'trace-info cc=0 cct=0 spec=3 tx=0')),
        ('overrun-cc-f3.tcv', M16, [], [0x10], 'commit-overrun', 'Cycle Count F3 AA=00 BB=00',
         ['Cycle Count format 3 (0x10, commit mode 0) commits AA+1 = 1 element with depth 0.'],
         True),
        ('overrun-cc-f2.tcv', M16, [], [0x0D, 0xF0], 'commit-overrun',
         'Cycle Count F2 F=1, payload 0xf0',
         ['Cycle Count format 2 with F=1 (0x0D), AAAA=15: commit = MAXSPEC + AAAA - 15 = 16',
          '(ERRATA TC-S7) with depth 0.'], True),
        ('overrun-cc-f1.tcv', M16, [F7], [0x0E, 0x02, 0x05], 'commit-overrun',
         'Cycle Count F1, COMMIT=2, COUNT=5',
         ['Cycle Count format 1 (0x0E) with COMMIT=2 and depth 1.'], True),
        ('overrun-cancel-f1.tcv', M16, [DB], [0x2E, 0x03], 'cancel-overrun', 'Cancel F1 M=0, 3',
         ['Cancel format 1 of 3 elements with depth 2.'], True),
        ('overrun-cancel-f2.tcv', M16, [], [0x34], 'cancel-overrun', 'Cancel F2 A=00',
         ['Cancel format 2 with A=00 (no atom) cancels 1 element with depth 0.'], True),
        ('overrun-cancel-f3.tcv', M16, [F7], [0x3E], 'cancel-overrun', 'Cancel F3 CC=11 A=0',
         ['Cancel format 3 0x3e: A=0 (no atom), CC=11 -> cancels CC+2 = 5 elements with depth 1.'],
         True),
        ('spec-exceeds-maxspec.tcv', {}, [], [0x01, 0x04, 0x01], 'spec-mismatch',
         'Trace Info PLCTL 0x04, SPEC=1',
         ['The first Trace Info says SPEC=1 but maxspec=0 (ERRATA TC-P10).'], None),
        ('spec-differs.tcv', M16, [DB], [0x01, 0x04, 0x03], 'spec-mismatch',
         'Trace Info PLCTL 0x04, SPEC=3',
         ['A second Trace Info says SPEC=3 (<= maxspec 16) while the outstanding depth is 2',
          '(ERRATA TC-P10).'], True),
        ('spec-differs-zero.tcv', M16, [DB], [0x01, 0x01, 0x01], 'spec-mismatch',
         'Trace Info PLCTL 0x01 (no SPEC section: 0), INFO 0x01',
         ['A second Trace Info without SPEC section (SPEC=0) while the outstanding depth is 2',
          '(ERRATA TC-P10).'], True),
    ]
    for name, cfg, setup, bs, cls, comment, head, ti in ov:
        write(outdir, name, simple(cfg, setup, bs, cls, comment, head, 'neg %s' % cls, ti), made)

    # 6. truncated: the stream ends inside a packet; the error is at the packet's first byte
    #    and nothing follows. (bytes, config, reasoning)
    tr = [
        ('trunc-ext.tcv', {}, [0x00], 'header 00 with no second byte'),
        ('trunc-trace-info.tcv', {}, [0x01, 0x01], 'Trace Info PLCTL=0x01 but no INFO byte'),
        ('trunc-trace-info-cyct.tcv', {}, [0x01, 0x08, 0x81],
         'Trace Info PLCTL=0x08: the CYCT byte 0x81 announces a continuation that is missing'),
        ('trunc-timestamp.tcv', {}, [0x02, 0x81], 'Timestamp: 0x81 continues, next byte missing'),
        ('trunc-timestamp-count.tcv', {}, [0x03, 0x05],
         'Timestamp 03: TS byte 0x05 complete, COUNT missing'),
        ('trunc-exception.tcv', {}, [0x06, 0x5C, 0x9D, 0x11, 0x22],
         'Exception E=10, AH 9D: 2 of 8 address bytes'),
        ('trunc-exception-ah.tcv', {}, [0x06, 0x5C], 'Exception payload byte, no address header'),
        ('trunc-cc-f1.tcv', {}, [0x0E, 0x00], 'Cycle Count F1: COMMIT=0, COUNT missing'),
        ('trunc-cc-f2.tcv', {}, [0x0C], 'Cycle Count F2: payload byte missing'),
        ('trunc-commit.tcv', {}, [0x2D, 0x80], 'Commit: 0x80 continues, next byte missing'),
        ('trunc-cancel.tcv', {}, [0x2E], 'Cancel F1: CANCEL field missing'),
        ('trunc-context.tcv', {}, [0x81, 0xC0, 0x01, 0x02],
         'Context INFO 0xc0 (VMID and CTXID follow): 2 of 8 bytes'),
        ('trunc-addr-ctx.tcv', {}, [0x85, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0xC0, 0x01],
         'Address with Context 85: address complete, INFO 0xc0, 1 of 8 VMID/CTXID bytes'),
        ('trunc-address-long.tcv', {}, [0x9D, 0x01, 0x02, 0x03], 'Long address 9D: 3 of 8 bytes'),
        ('trunc-address-short.tcv', {}, [0x95, 0x81], 'Short address 95: 0x81 announces a second byte'),
        ('trunc-q.tcv', {}, [0xA5, 0x05], 'Q 0xa5: short address complete, COUNT missing'),
        ('trunc-q-addr.tcv', {}, [0xAA, 0x01, 0x02], 'Q 0xaa: 2 of 4 address bytes'),
        ('trunc-source.tcv', {}, [0xB8, 0x01, 0x02], 'Source Address B8: 2 of 8 bytes'),
        ('trunc-ite.tcv', {'ite': '1'}, [0x09, 0x01, 0x11, 0x22],
         'Instrumentation (ite=1): EL byte and 2 of 8 value bytes'),
    ]
    for name, cfg, bs, why in tr:
        v = Vec(cfg)
        v.asyncp()
        v.tinfo()
        b = v.bad(bs, 'truncated', why)
        head = ['Truncated packet at the end of the stream: %s.' % why,
                'Class truncated at the packet\'s first byte (@%d), whose byte is the L1 header'
                % b,
                'column. Nothing follows.']
        write(outdir, name, v.text(head, 'neg truncated'), made)

    # 7. fields ignored with a warning (ERRATA TC-R1): vectors/ete/warn, beside outdir
    warndir = os.path.join(os.path.dirname(os.path.abspath(outdir)), 'warn')
    os.makedirs(warndir, exist_ok=True)
    wmade = set()
    for name, cfg, ti, pkt, head in warn_cases():
        write(warndir, name, warned(cfg, ti, pkt, head, 'warning res0' + (' ite instrumentation' if cfg.get('ite') == '1' else '') if pkt[4][0][0] == 'res0'
                                   else 'warning ignored-field commopt1'), wmade)

    # 8. queue-overflow is written by hand (vectors/ete/neg/queue-overflow.tcv): it needs a
    #    configuration with queue_cap > maxspec and L1/s1/L2 expectations.

    print('wrote %d files to %s and %d to %s' % (len(made), outdir, len(wmade), warndir))
    print('reserved (default config): %d, exact-match-index: %d, valid: %d'
          % (len(RESERVED_DEFAULT), len(EXACT3), len(VALID_DEFAULT)))


if __name__ == '__main__':
    main()
