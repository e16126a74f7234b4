/* SPDX-License-Identifier: BSD-3-Clause */
/* e1enc_asm.c — the ETMv1 assembler (tc_encoder.asm_*, tracecert asm): the sample file of a text of
 * cycle lines and L1 items, through the sample file's one writer (reference/cyclecap.c), which the
 * encoder's cycle model writes its records with too (e1enc_cycle.c). */
/* The L1 text of ETMv1 does not hold the file: the header's capture
 * flags, the cycles that give no item (WT, TD, APO cycles, cycle-accurate
 * waits), the TRACEPKT values no packet is read from, and which cycle
 * carried which packet are not in it (reference/etmv1/FORMAT.md "Cycle
 * lines"). So the text asm takes is `dump --cycles`'s: the header's line and
 * one line per record, each written as it says; the L1 items between them
 * are read (the line must parse, be no error or warning, and stand on a
 * record written before it) and hold no bytes of their own (ERRATA
 * ETM1-P66). */
#include <stdlib.h>
#include <string.h>

#include "cyclecap.h"
#include "e1enc_internal.h"
#include "tracecert/etmv1_config.h"

struct e1e_asm {
	struct tc_cyclecap_writer file;
};

void *e1e_asm_open(const void *cfg)
{
	struct tc_cyclecap_params params = { 1, 3, 3, 1 };   /* as the decoder's reader, etmv1_decoder.c */
	struct e1e_asm *w;
	if (tc_etmv1_config_check(cfg, NULL, 0))
		return NULL;
	w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	tc_cyclecap_writer_init(&w->file, &params);
	return w;
}

void e1e_asm_close(void *w)
{
	free(w);
}

long e1e_asm_cycle(void *wp, const struct tc_cyclecap_line *line, uint8_t *out, size_t cap, char *err, size_t errlen)
{
	struct e1e_asm *w = wp;
	return tc_cyclecap_writer_line(&w->file, line, out, cap, err, errlen);
}

/* An L1 item: its bytes are its cycles' (the lines before it). */
long e1e_asm_write(void *w, const struct tc_item *item, size_t len, uint8_t *out, size_t cap, char *err,
		   size_t errlen)
{
	(void)w, (void)item, (void)len, (void)out, (void)cap, (void)err, (void)errlen;
	return 0;
}
