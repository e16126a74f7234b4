/* SPDX-License-Identifier: BSD-3-Clause */
/* l3case.h — what the L3 unit tests of the ARMv4T/ARMv5TE walks share (reference/test/unit_*_l3.c):
 * the image their cases walk, the L3 text they collect and its comparison with the hand reasoning
 * written beside each case. Protocol-neutral: each test gives its protocol's L3 writer. */
#ifndef TC_TEST_L3CASE_H
#define TC_TEST_L3CASE_H

#include <stddef.h>

#include "tracecert/image.h"
#include "tracecert/trace.h"

/* The L3 text of a case, one item a line. */
struct l3case_out {
	char text[8192];
};

/* The image of l3case.c's listing: the program at 0x1000 (ARM, then Thumb at 0x1040), eight nops at
 * 0x0 and at 0xffff0000 (the vectors). A failure is written on standard error. */
void l3case_load_image(struct tc_image *img);

/* One L3 item, written by format (the protocol's L3 writer), as the next line of o's text. */
void l3case_append(struct l3case_out *o, int (*format)(char *buf, size_t size, const struct tc_l3 *x),
		   const struct tc_l3 *x);

/* ok() when o's text is want, else not ok with both in its notes. */
void l3case_expect(const struct l3case_out *o, const char *want, const char *what);

#endif
