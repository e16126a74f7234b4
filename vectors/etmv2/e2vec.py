# SPDX-License-Identifier: BSD-3-Clause
"""e2vec.py — the writer of the ETMv2 vectors that vectors/etmv2/*/*-gen.py make over an 8-bit port
(FORMAT.md "Sample file": the 16-byte header, then two bytes a record, PIPESTAT then TRACEPKT)."""

HEADER_8BIT = '45 54 4d 43 01 02 00 08 00 00 00 00 00 00 00 00   # @0 header: ETMC, rev 1, ETMv2.0, 8-bit, normal'


def write_8bit(path, comments, cfg, tags, recs, expect, tail=()):
    """Writes the vector: comments (whole '# ...' lines), [config] from cfg, [tags], [trace] of recs
    ((status, pkt, what) records from @16 on), [expect.l1] of expect, then the tail lines and [end]."""
    out = ['tracecert-vector 1'] + list(comments) + ['[config]']
    out += ['%s=%s' % kv for kv in cfg.items()]
    out += ['[tags]', tags, '[trace]', HEADER_8BIT]
    o = 16
    for s, p, w in recs:
        out.append('%02x %02x    # @%d %s' % (s, p, o, w))
        o += 2
    out += ['[expect.l1]'] + list(expect) + list(tail) + ['[end]']
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')
