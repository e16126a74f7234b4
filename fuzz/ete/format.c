/* SPDX-License-Identifier: BSD-3-Clause */
/* format.c — fuzz harness: the canonical text functions and the configuration parser on arbitrary values.
 *
 * Why: certify formats whatever an adapter hands back (tc_ete_format_packet
 * and tc_ete_format_l3 on a third-party decoder's structs), and the command
 * line and vector reader pass user text to tc_ete_config_set, so neither may
 * assume the values the reference decoder produces.
 *
 * Property: for any struct contents and any buffer size,
 * tc_ete_format_packet / _elem / _l3 have no undefined behaviour, write at
 * most size bytes, NUL-terminate when size > 0, and return the length of the
 * whole line (the snprintf contract): what they write with a small buffer is
 * the prefix of the whole line, which is shorter than TC_FUZZ_LINE (so
 * the other harnesses need not format every line to know that it fits).
 * tc_ete_config_set on any key and value
 * returns 0, -1 or -2 and leaves a valid configuration valid when it fails.
 *
 * Input: byte 0 selects (mod 4: packet, element, L3 item, config_set);
 * byte 1 the buffer size (0–255); the rest is copied over the struct (zero
 * padded), or for config_set is "key" NUL "value".
 */
#include <stdio.h>
#include <string.h>

#include "fuzz_ete.h"
#include "tracecert/protocol.h"

#define BIG 4096
#define CANARY 0xA5

typedef int (*format_fn)(char *buf, size_t size, const void *item);

static int fmt_packet(char *buf, size_t size, const void *item)
{
	return tc_ete_format_packet(buf, size, item);
}

static int fmt_elem(char *buf, size_t size, const void *item)
{
	return tc_ete_format_elem(buf, size, item);
}

static int fmt_l3(char *buf, size_t size, const void *item)
{
	return tc_ete_format_l3(buf, size, item);
}

static void check_format(format_fn fn, const void *item, size_t size)
{
	char whole[BIG], part[BIG + 16];
	int n, m;
	n = fn(whole, sizeof whole, item);
	/* the parse and decode harnesses rely on this bound for every struct contents */
	TC_FUZZ_CHECK(n > 0 && n < TC_FUZZ_LINE, "formatted length %d", n);
	TC_FUZZ_CHECK(strlen(whole) == (size_t)n, "returned %d, wrote %zu", n, strlen(whole));
	memset(part, CANARY, sizeof part);
	m = fn(size ? part : NULL, size, item);
	TC_FUZZ_CHECK(m == n, "returned %d with a buffer of %zu bytes, %d with a large one", m, size, n);
	for (size_t i = size; i < sizeof part; i++)
		TC_FUZZ_CHECK((uint8_t)part[i] == CANARY, "wrote byte %zu with a buffer of %zu bytes", i, size);
	if (size > 0) {
		size_t k = (size_t)n < size - 1 ? (size_t)n : size - 1;
		TC_FUZZ_CHECK(part[k] == '\0' && memcmp(part, whole, k) == 0,
			      "a %zu-byte buffer does not hold the first %zu bytes of the line", size, k);
	}
}

static void check_config_set(const uint8_t *p, size_t n)
{
	char key[64], value[64];
	size_t k = 0, v = 0, i = 0;
	struct tc_ete_config cfg, before;
	struct tc_config_builder b;
	char err[300];
	int rc;
	while (i < n && p[i] && k < sizeof key - 1)
		key[k++] = (char)p[i++];
	key[k] = '\0';
	if (i < n)
		i++;
	while (i < n && v < sizeof value - 1)
		value[v++] = (char)p[i++];
	value[v] = '\0';
	tc_ete_config_default(&cfg);
	before = cfg;
	tc_config_builder_init(&b, tc_protocol_find("ete"));
	rc = tc_config_builder_set(&b, key, value, err, sizeof err);
	TC_FUZZ_CHECK(rc == 0 || rc == -1 || rc == -2, "tc_config_builder_set returned %d", rc);
	if (rc == 0)
		rc = tc_config_builder_apply(&b, &cfg, NULL, err, sizeof err);
	if (rc)
		TC_FUZZ_CHECK(memcmp(&cfg, &before, sizeof cfg) == 0, "a refused '%s' changed the configuration", key);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	union {
		struct tc_ete_packet p;
		struct tc_ete_elem e;
		struct tc_l3 x;
	} u;
	size_t bufsize;
	if (size < 2)
		return 0;
	bufsize = data[1];
	if (data[0] % 4 == 3) {
		check_config_set(data + 2, size - 2);
		return 0;
	}
	memset(&u, 0, sizeof u);
	memcpy(&u, data + 2, size - 2 < sizeof u ? size - 2 : sizeof u);
	switch (data[0] % 4) {
	case 0: check_format(fmt_packet, &u.p, bufsize); break;
	case 1: check_format(fmt_elem, &u.e, bufsize); break;
	default: check_format(fmt_l3, &u.x, bufsize); break;
	}
	tc_ete_pkt_kind_name((int8_t)data[1]);
	tc_ete_elem_kind_name((int8_t)data[1]);
	tc_l3_kind_name((int8_t)data[1]);
	tc_ete_error_name((int8_t)data[1]);
	return 0;
}
