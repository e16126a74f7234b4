/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/asmtext.h — the packet assembler (tracecert asm, README.md "Assembling packets"): L1 text into
 * trace bytes. */
#ifndef TRACECERT_ASMTEXT_H
#define TRACECERT_ASMTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/encoder.h"
#include "tracecert/protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The bytes of text (len bytes of lines ended by '\n'; '#' comments and blank lines allowed; a NUL
 * byte ends its line) for protocol p with configuration cfg, written by enc's assembler (enc with
 * asm_write), or with enc NULL by a per-cycle protocol's sample file writer. Returns 0 with *out
 * (malloc'd, *outlen bytes), or -1 with the message in msg and the number of its line (from 1) in
 * *msg_line (0: no line's: memory, a configuration or protocol without an assembler). */
int tc_asm_text(const struct tc_protocol *p, const struct tc_encoder *enc, const void *cfg, const char *text,
		size_t len, uint8_t **out, size_t *outlen, unsigned *msg_line, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
