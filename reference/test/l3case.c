/* SPDX-License-Identifier: BSD-3-Clause */
/* l3case.c — what the L3 unit tests of the ARMv4T/ARMv5TE walks share (l3case.h): the image their
 * cases walk, the L3 text they collect, its comparison with the hand reasoning.
 *
 * The image is assembled by arm-linux-gnueabihf-as 2.40 (-march=armv5te, .syntax unified) from the
 * listing below and read back with objdump -d; its bytes are objcopy -O binary's. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "l3case.h"
#include "tap.h"

/* 0x1000, ARM:
 *   1000 e3a00001 mov r0, #1           1004 e5d21000 ldrb r1, [r2]     1008 e1d210b0 ldrh r1, [r2]
 *   100c e5921000 ldr r1, [r2]         1010 e1a00000 nop               1014 eafffff9 b 1000
 *   1018 e8920038 ldm r2, {r3, r4, r5} 101c 0afffff7 beq 1000          1020 e12fff1e bx lr
 *   1024 ef000000 svc 0                1028 e592f000 ldr pc, [r2]      102c ee070f15 mcr p15, 0, r0, c7, c5, 0
 *   1030 ed925e00 ldc p14, c5, [r2]    1034 e1020091 swp r0, r1, [r2]  1038 fa000000 blx 1040
 *   103c e1a00000 nop
 * 0x1040, Thumb:
 *   1040 2001 movs r0, #1   1042 f000 f803 bl 104c   1046 b510 push {r4, lr}   1048 4770 bx lr
 *   104a 46c0 nop           104c 4770 bx lr          104e 46c0 nop
 * 0x0 and 0xffff0000: eight nops (e1a00000), the vectors. */
static const uint8_t program[] = {
	0x01, 0x00, 0xa0, 0xe3, 0x00, 0x10, 0xd2, 0xe5, 0xb0, 0x10, 0xd2, 0xe1, 0x00, 0x10, 0x92, 0xe5,
	0x00, 0x00, 0xa0, 0xe1, 0xf9, 0xff, 0xff, 0xea, 0x38, 0x00, 0x92, 0xe8, 0xf7, 0xff, 0xff, 0x0a,
	0x1e, 0xff, 0x2f, 0xe1, 0x00, 0x00, 0x00, 0xef, 0x00, 0xf0, 0x92, 0xe5, 0x15, 0x0f, 0x07, 0xee,
	0x00, 0x5e, 0x92, 0xed, 0x91, 0x00, 0x02, 0xe1, 0x00, 0x00, 0x00, 0xfa, 0x00, 0x00, 0xa0, 0xe1,
	0x01, 0x20, 0x00, 0xf0, 0x03, 0xf8, 0x10, 0xb5, 0x70, 0x47, 0xc0, 0x46, 0x70, 0x47, 0xc0, 0x46,
};

static const uint8_t vectors[] = {
	0x00, 0x00, 0xa0, 0xe1, 0x00, 0x00, 0xa0, 0xe1, 0x00, 0x00, 0xa0, 0xe1, 0x00, 0x00, 0xa0, 0xe1,
	0x00, 0x00, 0xa0, 0xe1, 0x00, 0x00, 0xa0, 0xe1, 0x00, 0x00, 0xa0, 0xe1, 0x00, 0x00, 0xa0, 0xe1,
};

void l3case_load_image(struct tc_image *img)
{
	memset(img, 0, sizeof *img);
	int e = tc_image_add(img, 0x1000, program, sizeof program);
	e |= tc_image_add(img, 0x0, vectors, sizeof vectors);
	e |= tc_image_add(img, 0xffff0000u, vectors, sizeof vectors);
	if (e)
		fprintf(stderr, "image: %s\n", tc_image_strerror(e));
}

void l3case_append(struct l3case_out *o, int (*format)(char *buf, size_t size, const struct tc_l3 *x),
		   const struct tc_l3 *x)
{
	char buf[256];
	size_t len = strlen(o->text);
	format(buf, sizeof buf, x);
	snprintf(o->text + len, sizeof o->text - len, "%s\n", buf);
}

void l3case_expect(const struct l3case_out *o, const char *want, const char *what)
{
	int good = strcmp(o->text, want) == 0;
	if (!good) {
		note("want:\n%s", want);
		note("got:\n%s", o->text);
	}
	ok(good, "%s", what);
}
