/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_vecwrite.c — the vector writer (conformance/vecwrite.c): its layout against text written by hand, every misuse it refuses, and the reader's rules (description, tags, lines of any length, NUL bytes, sections given twice, the version, the [end] line, a cut at every offset, image files checked by size= and crc32=); TAP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test/tap.h"   /* reference/test/tap.h */
#include "tracecert/ete.h"
#include "tracecert/ptm.h"
#include "vector.h"

static const uint8_t async12[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80 };

/* Ends w; 1 when it fails with a message containing want. */
static int refused(struct tc_vwriter *w, const char *want)
{
	char err[300] = "";
	char *text = tc_vwrite_end(w, err, sizeof err);
	int good = !text && strstr(err, want) != NULL;
	if (!good)
		note("  # expected a refusal containing '%s', got '%s'\n", want, text ? text : err);
	free(text);
	return good;
}

/* Ends w; 1 when the text is exactly want. */
static int wrote(struct tc_vwriter *w, const char *want)
{
	char err[300] = "";
	char *text = tc_vwrite_end(w, err, sizeof err);
	int good = text && !strcmp(text, want);
	if (!good)
		note("  ---\n  expected: |\n%s\n  got: |\n%s\n  ...\n", want, text ? text : err);
	free(text);
	return good;
}

/* A writer after line one and [config] (ETE, defaults). */
static void start_ete(struct tc_vwriter *w, struct tc_ete_config *cfg)
{
	tc_ete_config_default(cfg);
	tc_vwrite_begin(w);
	tc_vwrite_config(w, tc_protocol_find("ete"), cfg, 0);
}

/* The layout, each line written here by hand from vectors/README.md and
 * the rules of vector.h: ETE's required keys in the table's order, the
 * keys needed with [expect.l3] only with it or when not the default, the
 * optional ones only when not the default. */
static void test_layout(void)
{
	struct tc_vwriter w;
	struct tc_ete_config cfg;
	const uint8_t img[2] = { 0x1e, 0xff };
	tc_ete_config_default(&cfg);
	cfg.maxspec = 16;
	cfg.queue_cap = 100;
	cfg.retstack = 1;
	tc_vwrite_begin(&w);
	tc_vwrite_comment(&w, "first line\n\nthird line");
	tc_vwrite_config(&w, tc_protocol_find("ete"), &cfg, 0);
	tc_vwrite_tags(&w, "neg a b");
	tc_vwrite_trace_packet(&w, async12, 12, "@0 A-sync");
	tc_vwrite_trace_packet(&w, async12 + 11, 1, NULL);
	tc_vwrite_image(&w, 0x1000, img, 2);
	tc_vwrite_section(&w, tc_sec_s1, tc_strict_offset, NULL);
	tc_vwrite_lines(&w, "@0 a\n\n@1 b   # why\n");
	tc_vwrite_section(&w, tc_sec_error, tc_strict_class, NULL);
	tc_vwrite_lines(&w, "truncated 12");
	tc_vwrite_section(&w, tc_sec_l3, tc_strict_offset, "E-1");
	ok(wrote(&w, "tracecert-vector 1\n# first line\n#\n# third line\n[config]\nprotocol=ete\nmaxspec=16\n"
		     "commopt=0\ncommtrans=0\ntsmark=0\nite=0\nrme=0\ntf_keep_cc=0\nqueue_cap=100\nretstack=1\n"
		     "[tags]\nneg a b\n[trace]\n"
		     "00 00 00 00 00 00 00 00 00 00 00 80   # @0 A-sync\n80\n"
		     "[image base=0x1000]\n1e ff\n[expect.s1]\n@0 a\n@1 b   # why\n[error strict=class]\ntruncated 12\n"
		     "[expect.l3 reading=E-1]\n[end]\n"),
	   "layout: description, [config] keys by need and default, annotated trace, image, sections, a reading");
}

/* A block of hex: 32 bytes a line, lower case; PTM's required keys. */
static void test_hex_block(void)
{
	struct tc_vwriter w;
	struct tc_ptm_config cfg;
	uint8_t bytes[33];
	for (int i = 0; i < 33; i++)
		bytes[i] = (uint8_t)(0xa0 + i);
	tc_ptm_config_default(&cfg);
	tc_vwrite_begin(&w);
	tc_vwrite_config(&w, tc_protocol_find("ptm"), &cfg, 1);
	tc_vwrite_trace(&w, bytes, 33);
	ok(wrote(&w, "tracecert-vector 1\n[config]\nprotocol=ptm\nversion=1\ncycle_accurate=0\nbranch_broadcast=0\n"
		     "return_stack=0\ntimestamps=0\ncontextid_size=0\nvmid=0\nts64=0\nts_binary=1\n[trace]\n"
		     "a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 aa ab ac ad ae af b0 b1 b2 b3 b4 b5 b6 b7 b8 b9 ba bb bc bd be bf\n"
		     "c0\n[end]\n"),
	   "hex block: 32 bytes a line; PTM's keys, walk_limit (optional, default) left out");
}

static void test_misuse_order(void)
{
	struct tc_vwriter w;
	struct tc_ete_config cfg;
	memset(&w, 0, sizeof w);
	tc_vwrite_tags(&w, "x");
	ok(refused(&w, "before line one"), "a part before tc_vwrite_begin is refused");
	memset(&w, 0, sizeof w);
	ok(refused(&w, "nothing written"), "ending a writer never begun is refused");
	start_ete(&w, &cfg);
	tc_vwrite_comment(&w, "late");
	ok(refused(&w, "a comment after the first section"), "a comment after a section is refused");
	start_ete(&w, &cfg);
	tc_vwrite_lines(&w, "@0 00 async");
	ok(refused(&w, "lines outside an expect or error section"), "lines before any expect section are refused");
	start_ete(&w, &cfg);
	tc_vwrite_trace(&w, async12, 0);
	tc_vwrite_tags(&w, "#");
	ok(refused(&w, "[trace] without bytes"), "an empty [trace] is refused, and the first misuse is the one reported");
}

static void test_misuse_config(void)
{
	struct tc_vwriter w;
	struct tc_ptm_config ptm;
	tc_vwrite_begin(&w);
	tc_vwrite_config(&w, NULL, NULL, 0);
	ok(refused(&w, "without a protocol"), "[config] without a protocol is refused");
	tc_ptm_config_default(&ptm);
	ptm.contextid_size = 3;
	tc_vwrite_begin(&w);
	tc_vwrite_config(&w, tc_protocol_find("ptm"), &ptm, 0);
	ok(refused(&w, "a configuration protocol ptm refuses"), "a configuration the protocol refuses is refused");
}

static void test_misuse_text(void)
{
	struct tc_vwriter w;
	struct tc_ete_config cfg;
	start_ete(&w, &cfg);
	tc_vwrite_tags(&w, "a # b");
	ok(refused(&w, "[tags] would not read back"), "tags with '#' are refused");
	start_ete(&w, &cfg);
	tc_vwrite_tags(&w, "a\nb");
	ok(refused(&w, "[tags] holds a line break"), "tags with a line break are refused");
	start_ete(&w, &cfg);
	tc_vwrite_trace_packet(&w, async12, 12, "two\nlines");
	ok(refused(&w, "a packet's note holds a line break"), "a packet note with a line break is refused");
	start_ete(&w, &cfg);
	tc_vwrite_trace_packet(&w, async12, 0, "none");
	ok(refused(&w, "a [trace] packet of 0 bytes"), "a packet of no bytes is refused");
	start_ete(&w, &cfg);
	tc_vwrite_image(&w, 0x40, async12, 0);
	ok(refused(&w, "[image base=0x40] without bytes"), "an empty image region is refused");
	start_ete(&w, &cfg);
	tc_vwrite_section(&w, tc_sec_l1, tc_strict_offset, NULL);
	tc_vwrite_lines(&w, "@0 00 async\n  [expect.l3]");
	ok(refused(&w, "would open a section"), "an expect line beginning with '[' is refused");
}

static void test_misuse_sections(void)
{
	struct tc_vwriter w;
	struct tc_ete_config cfg;
	start_ete(&w, &cfg);
	tc_vwrite_section(&w, tc_sec_count, tc_strict_offset, NULL);
	ok(refused(&w, "no such section"), "a section number out of range is refused");
	start_ete(&w, &cfg);
	tc_vwrite_section(&w, tc_sec_l1, tc_strict_class, NULL);
	ok(refused(&w, "no such section"), "strict= on a section other than [error] is refused");
	start_ete(&w, &cfg);
	tc_vwrite_section(&w, tc_sec_s1, tc_strict_offset, "E-1");
	ok(refused(&w, "readings are for expect.l1, expect.l3 and error"), "a reading of [expect.s1] is refused");
	start_ete(&w, &cfg);
	tc_vwrite_section(&w, tc_sec_l1, tc_strict_offset, "two words");
	ok(refused(&w, "without blanks"), "a reading ID with a blank is refused");
}

/* A generated vector of a protocol this build does not have, and tags the reader could not hold. */
static void test_generated(void)
{
	struct tc_enc_result r;
	struct tc_ptm_config cfg;
	char err[300] = "", tags[600];
	char *text;
	uint8_t trace[1] = { 0 };
	memset(&r, 0, sizeof r);
	r.protocol = "etmv9";
	text = tc_vector_text_generated(&r, "t", err, sizeof err);
	ok(!text && strstr(err, "protocol 'etmv9', which this build does not have"),
	   "a generated vector of an unknown protocol is refused (%s)", err);
	free(text);
	tc_ptm_config_default(&cfg);
	memset(tags, 'x', sizeof tags - 1);
	tags[sizeof tags - 1] = '\0';
	r = (struct tc_enc_result){ .protocol = "ptm", .cfg = &cfg, .trace = trace, .trace_len = 1, .l1 = "", .l3 = "",
				    .tags = tags };
	text = tc_vector_text_generated(&r, "t", err, sizeof err);
	ok(!text && strstr(err, "tags of a generated vector are longer than 511"), "tags over 511 characters are refused (%s)",
	   err);
	free(text);
	ok(tc_vector_save("/nonexistent/dir/x.tcv", "x", err, sizeof err) == -1 &&
	   strstr(err, "cannot write '/nonexistent/dir/x.tcv'"), "saving into a missing folder names the file (%s)", err);
}

/* Reads len bytes of text; returns 0 or -1 with err. */
static int read_bytes(const char *text, size_t len, struct tc_vector *v, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, len ? len : 1, "r");
	int rc;
	if (!f) {
		snprintf(err, errlen, "fmemopen failed");
		return -1;
	}
	if (len == 0)
		fgetc(f);         /* fmemopen needs one byte: read it, so the stream is empty */
	rc = tc_vector_read(f, ".", v, err, errlen);
	fclose(f);
	return rc;
}

static int read_text(const char *text, struct tc_vector *v, char *err, size_t errlen)
{
	return read_bytes(text, strlen(text), v, err, errlen);
}

/* text is refused with a message containing want. */
static int refuses(const char *text, size_t len, const char *want, char *err, size_t errlen)
{
	struct tc_vector v;
	int rc = read_bytes(text, len, &v, err, errlen);
	if (rc == 0)
		tc_vector_free(&v);
	if (rc == 0 || !strstr(err, want))
		note("  # expected a refusal containing '%s', got %s '%s'\n", want, rc ? "" : "acceptance", rc ? err : "");
	return rc != 0 && strstr(err, want) != NULL;
}

static const char minimal_head[] = "tracecert-vector 1\n# one\n#\n#  two  \n\n[config]\n# not the description\n"
				   "protocol=ptm\nversion=1\ncycle_accurate=0\nbranch_broadcast=0\nreturn_stack=0\n"
				   "timestamps=0\ncontextid_size=0\nvmid=0\nts64=0\nts_binary=1\n";

/* Annotated image lines: a line at the address where the last one ended
 * continues its region, any other opens a new one; what the reader gives back
 * is the bytes at those addresses. */
static void test_image_lines(void)
{
	struct tc_vwriter w;
	struct tc_vector v;
	struct tc_ete_config cfg;
	const uint8_t a[4] = { 0x1f, 0x20, 0x03, 0xd5 }, b[2] = { 0x70, 0x47 };
	char err[300] = "", *text;
	size_t avail = 0;
	const uint8_t *at;
	start_ete(&w, &cfg);
	tc_vwrite_image_line(&w, 0x1000, a, 4, "a64.S:21 nop");
	tc_vwrite_image_line(&w, 0x1004, b, 2, NULL);
	tc_vwrite_image_line(&w, 0x2002, b, 2, "t32.S:53 bx lr");
	ok(wrote(&w, "tracecert-vector 1\n[config]\nprotocol=ete\nmaxspec=0\ncommopt=0\ncommtrans=0\ntsmark=0\nite=0\n"
		     "rme=0\ntf_keep_cc=0\n[image base=0x1000]\n"
		     "1F 20 03 D5                           # a64.S:21 nop\n70 47\n"
		     "[image base=0x2002]\n70 47                                 # t32.S:53 bx lr\n[end]\n"),
	   "image lines: a continuing line stays in its region, a gap opens [image base=…], notes padded like packets'");
	start_ete(&w, &cfg);
	tc_vwrite_trace_packet(&w, async12, 12, NULL);
	tc_vwrite_image_line(&w, 0x1000, a, 4, "x");
	tc_vwrite_image_line(&w, 0x1004, b, 2, NULL);
	tc_vwrite_image_line(&w, 0x2002, b, 2, NULL);
	tc_vwrite_section(&w, tc_sec_l1, tc_strict_offset, NULL);
	tc_vwrite_lines(&w, "@0 00 async");
	text = tc_vwrite_end(&w, err, sizeof err);
	ok(text && read_text(text, &v, err, sizeof err) == 0, "image lines read back (%s)", err);
	if (text && !err[0]) {
		at = tc_image_lookup(&v.image, 0x1004, &avail);
		ok(v.image.n == 2 && at && avail == 2 && at[0] == 0x70 && at[1] == 0x47,
		   "two regions; 0x1004 holds the continuing line's bytes");
		tc_vector_free(&v);
	}
	free(text);
	start_ete(&w, &cfg);
	tc_vwrite_image_line(&w, 0x10, a, 0, NULL);
	ok(refused(&w, "an [image] line of 0 bytes at 0x10"), "an image line of no bytes is refused");
	start_ete(&w, &cfg);
	tc_vwrite_image_line(&w, 0x10, a, 4, "two\nlines");
	ok(refused(&w, "an image line's note holds a line break"), "an image line's note with a line break is refused");
}

static void test_reader(void)
{
	struct tc_vector v;
	char err[300] = "", *long_line, text[2048];
	size_t n;
	int rc;
	snprintf(text, sizeof text, "%s[trace]\n00 00 00 00 00 80\n[expect.l1]\n@0 00 async\n[end]\n", minimal_head);
	rc = read_text(text, &v, err, sizeof err);
	ok(rc == 0 && v.comment && !strcmp(v.comment, "one\n\n two"),
	   "the description: the '#' lines before the first section, '#' and one blank dropped");
	if (rc == 0)
		tc_vector_free(&v);
	snprintf(text, sizeof text, "%s[tags]\n%0600d\n[trace]\n00\n[expect.l1]\n[end]\n", minimal_head, 0);
	ok(read_text(text, &v, err, sizeof err) == -1 && strstr(err, "line 19: [tags] longer than 511 characters"),
	   "tags longer than the vector holds are an error naming the line (%s)", err);
	/* a [trace] line of 100,000 hex digits and an expected line of 20,003 characters: read whole */
	long_line = malloc(strlen(minimal_head) + 200000);
	n = (size_t)sprintf(long_line, "%s[trace]\n", minimal_head);
	for (int k = 0; k < 50000; k++, n += 2)
		memcpy(long_line + n, "80", 2);
	n += (size_t)sprintf(long_line + n, "\n[expect.l1]\n@0 ");
	memset(long_line + n, 'x', 20000);
	strcpy(long_line + n + 20000, "\n[end]\n");
	rc = read_text(long_line, &v, err, sizeof err);
	ok(rc == 0 && v.trace_len == 50000 && v.expect[tc_sec_l1].n == 1 && strlen(v.expect[tc_sec_l1].line[0]) == 20003,
	   "lines of any length are read whole: 50000 trace bytes on one line, one expected line of 20003 characters (%s)",
	   rc ? err : "read");
	if (rc == 0)
		tc_vector_free(&v);
	free(long_line);
}

/* The rules that keep a damaged file from reading as a vector. */
static void test_reader_refusals(void)
{
	char err[300], text[2048], want[100];
	static const char body[] = "[trace]\n00 00 00 00 00 80\n[expect.l1]\n@0 00 async\n";
	snprintf(text, sizeof text, "%s%s", minimal_head, body);
	ok(refuses(text, strlen(text), "line 21: no [end] line: the file is cut short", err, sizeof err),
	   "a file without its [end] line is refused as cut short (%s)", err);
	snprintf(text, sizeof text, "%s%s[end]", minimal_head, body);
	ok(refuses(text, strlen(text), "line 22: the last line has no line break: the file is cut short", err, sizeof err),
	   "[end] without its line break is refused (%s)", err);
	snprintf(text, sizeof text, "%s%s[end]\n\n", minimal_head, body);
	ok(refuses(text, strlen(text), "line 23: text after [end]", err, sizeof err), "an empty line after [end] is refused (%s)",
	   err);
	snprintf(text, sizeof text, "%s%s[end]\n# more\n", minimal_head, body);
	ok(refuses(text, strlen(text), "line 23: text after [end]", err, sizeof err), "a comment after [end] is refused (%s)",
	   err);
	snprintf(text, sizeof text, "tracecert-vector 12\n%s%s[end]\n", minimal_head + 19, body);
	ok(refuses(text, strlen(text), "line 1: 'tracecert-vector 12': this reader reads version 1 only", err, sizeof err),
	   "tracecert-vector 12 is not version 1 (%s)", err);
	snprintf(text, sizeof text, "tracecert-vector 1 \n%s%s[end]\n", minimal_head + 19, body);
	ok(refuses(text, strlen(text), "line 1: 'tracecert-vector 1 ': this reader reads version 1 only", err, sizeof err),
	   "line one is exactly 'tracecert-vector 1' (%s)", err);
	ok(refuses("", 0, "empty file: expected 'tracecert-vector 1' on line one", err, sizeof err) && !strstr(err, "line 0"),
	   "an empty file is refused, naming no line (%s)", err);
	snprintf(text, sizeof text, "%s[trace]\n00 00 00 00 00 80\n[expect.l1]\n@0 00 async\n[end]\n", minimal_head);
	text[strlen(minimal_head) + 10] = '\0';
	snprintf(want, sizeof want, "line 19: a NUL byte (byte offset %zu): a vector file is text", strlen(minimal_head) + 10);
	ok(refuses(text, strlen(minimal_head) + 61, want, err, sizeof err), "a NUL byte in a line is refused with its offset (%s)",
	   err);
	snprintf(text, sizeof text, "%s[trace]\n00 00\n[trace]\n00 00 00 80\n[expect.l1]\n[end]\n", minimal_head);
	ok(refuses(text, strlen(text), "line 20: section [trace] given twice (first on line 18)", err, sizeof err),
	   "[trace] given twice is refused, not merged (%s)", err);
	snprintf(text, sizeof text, "%s[config]\nvmid=1\n%s[end]\n", minimal_head, body);
	ok(refuses(text, strlen(text), "line 18: section [config] given twice (first on line 6)", err, sizeof err),
	   "[config] given twice is refused (%s)", err);
	snprintf(text, sizeof text, "%s[tags]\na\n[tags]\nb\n%s[end]\n", minimal_head, body);
	ok(refuses(text, strlen(text), "line 20: section [tags] given twice", err, sizeof err), "[tags] given twice is refused (%s)",
	   err);
	snprintf(text, sizeof text, "%s%s[expect.l1 reading=A]\n[expect.l1 reading=A]\n[end]\n", minimal_head, body);
	ok(refuses(text, strlen(text), "line 23: section [expect.l1 reading=A] given twice", err, sizeof err),
	   "the same reading's section given twice is refused (%s)", err);
	snprintf(text, sizeof text, "%s[image base=-0x10]\n00\n%s[end]\n", minimal_head, body);
	ok(refuses(text, strlen(text), "base '-0x10' is not a number", err, sizeof err), "a negative image base is refused (%s)",
	   err);
	snprintf(text, sizeof text, "%s[image base=0x10000000000000000]\n00\n%s[end]\n", minimal_head, body);
	ok(refuses(text, strlen(text), "base '0x10000000000000000' is not a number (decimal or 0x hex, at most 64 bits)", err,
		   sizeof err), "an image base beyond 64 bits is refused (%s)", err);
	snprintf(text, sizeof text, "%s[image base=18446744073709551616]\n00\n%s[end]\n", minimal_head, body);
	ok(refuses(text, strlen(text), "is not a number", err, sizeof err), "a decimal image base beyond 64 bits is refused (%s)",
	   err);
}

/* A vector cut at every byte offset: no cut version reads as a vector. */
static void test_truncation_sweep(void)
{
	char err[300], text[2048];
	struct tc_vector v;
	size_t len, accepted = 0, first = 0;
	snprintf(text, sizeof text, "%s[tags]\nt\n[trace]\n00 00 00 00 00 80 # A-sync\n[image base=0x1000]\n00 00\n"
		 "[expect.l1]\n@0 00 async\n[error strict=class]\n[end]\n", minimal_head);
	len = strlen(text);
	ok(read_bytes(text, len, &v, err, sizeof err) == 0, "the whole vector reads (%zu bytes)", len);
	tc_vector_free(&v);
	for (size_t cut = 0; cut < len; cut++) {
		if (read_bytes(text, cut, &v, err, sizeof err) == 0) {
			tc_vector_free(&v);
			first = accepted++ ? first : cut;
		}
	}
	ok(accepted == 0, "cut at each of its %zu byte offsets, it is refused every time (%zu accepted, the first at %zu)", len,
	   accepted, first);
}

/* Writes n bytes to dir/name; 0 or -1. */
static int put_file(const char *dir, const char *name, const void *bytes, size_t n)
{
	char path[512];
	FILE *f;
	int rc;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "wb")))
		return -1;
	rc = fwrite(bytes, 1, n, f) == n ? 0 : -1;
	return fclose(f) == 0 ? rc : -1;
}

/* dir/v.tcv holds minimal_head, header (an [image …] line) and an L1 body;
 * read back with tc_vector_load (image files beside it). 0 or -1 with err. */
static int load_with_image(const char *dir, const char *header, struct tc_vector *v, char *err, size_t errlen)
{
	char text[2048], path[512];
	snprintf(text, sizeof text, "%s[trace]\n00 00 00 00 00 80\n%s\n[expect.l1]\n@0 00 async\n[end]\n", minimal_head,
		 header);
	snprintf(path, sizeof path, "%s/v.tcv", dir);
	if (put_file(dir, "v.tcv", text, strlen(text)))
		return snprintf(err, errlen, "cannot write %s", path), -1;
	return tc_vector_load(path, v, err, errlen);
}

/* load_with_image refuses header with a message containing want. */
static int image_refused(const char *dir, const char *header, const char *want, char *err, size_t errlen)
{
	struct tc_vector v;
	int rc = load_with_image(dir, header, &v, err, errlen);
	if (rc == 0)
		tc_vector_free(&v);
	if (rc == 0 || !strstr(err, want))
		note("  # %s: expected a refusal containing '%s', got %s '%s'\n", header, want, rc ? "" : "acceptance",
		     rc ? err : "");
	return rc != 0 && strstr(err, want) != NULL;
}

/* The CRC-32 (its check value), the header the writer gives an image file,
 * and the reader's checks of size= and crc32= against the file. */
static void test_image_files(void)
{
	static const uint8_t img[8] = { 0x1f, 0x20, 0x03, 0xd5, 0xff, 0xff, 0xff, 0x17 };
	char dir[] = "/tmp/unit_vecwrite.XXXXXX", err[600] = "", want[700];
	struct tc_vwriter w;
	struct tc_vector v;
	size_t at = 0;
	int rc;
	ok(tc_vector_crc32((const uint8_t *)"123456789", 9) == 0xCBF43926u && tc_vector_crc32(NULL, 0) == 0,
	   "CRC-32 of '123456789' is its check value 0xcbf43926, of nothing 0");
	ok(tc_vector_crc32(img, 8) == 0xb8ef0d5cu, "CRC-32 of vectors/ete/hand/l3-raw-image-file.bin's 8 bytes: 0xb8ef0d5c "
						  "(zlib.crc32 gives the same)");
	tc_vwrite_begin(&w);
	tc_vwrite_image_file(&w, "prog.bin", 0, 0x1000, img, 8);
	tc_vwrite_image_file(&w, "prog.elf", 1, 0, img, 8);
	ok(wrote(&w, "tracecert-vector 1\n[image file=prog.bin base=0x1000 size=8 crc32=0xb8ef0d5c]\n"
		     "[image elf=prog.elf size=8 crc32=0xb8ef0d5c]\n[end]\n"),
	   "an image file's header: file= and base=, or elf=, then size= and crc32= of its bytes");
	tc_vwrite_begin(&w);
	tc_vwrite_image_file(&w, "a b.bin", 0, 0, img, 8);
	ok(refused(&w, "the file name 'a b.bin' is empty or holds a blank"), "an image file name with a blank is refused");
	tc_vwrite_begin(&w);
	tc_vwrite_image_file(&w, "x]", 1, 0, img, 8);
	ok(refused(&w, "holds a blank, ']'"), "an image file name with ']' is refused");
	tc_vwrite_begin(&w);
	tc_vwrite_image_file(&w, "x.bin", 0, 0, img, 0);
	ok(refused(&w, "[image file=x.bin] without bytes"), "an empty image file is refused");
	if (!mkdtemp(dir) || put_file(dir, "p.bin", img, 8) || put_file(dir, "cut.bin", img, 5)) {
		ok(0, "a temporary folder with image files (%s)", dir);
		return;
	}
	rc = load_with_image(dir, "[image file=p.bin base=0x1000 size=8 crc32=0xb8ef0d5c]", &v, err, sizeof err);
	ok(rc == 0 && v.image.n == 1 && tc_image_lookup(&v.image, 0x1004, &at) && at == 4,
	   "[image file=… size=8 crc32=…] of a file that matches: read, 8 bytes at 0x1000 (%s)", rc ? err : "read");
	if (rc == 0)
		tc_vector_free(&v);
	snprintf(want, sizeof want, "line 20: [image file=cut.bin]: '%s/cut.bin' holds 5 bytes, the vector says size=8 "
				    "(cut short or not this vector's file)", dir);
	ok(image_refused(dir, "[image file=cut.bin base=0x1000 size=8]", want, err, sizeof err),
	   "an image file shorter than size= is refused, naming the file and both sizes (%s)", err);
	snprintf(want, sizeof want, "'%s/p.bin' (8 bytes) has crc32=0xb8ef0d5c, the vector says crc32=0xb8ef0d5d", dir);
	ok(image_refused(dir, "[image file=p.bin base=0x1000 size=8 crc32=0xb8ef0d5d]", want, err, sizeof err),
	   "an image file whose CRC-32 differs is refused, naming both (%s)", err);
	snprintf(want, sizeof want, "'%s/p.bin' holds 8 bytes, the vector says size=9", dir);
	ok(image_refused(dir, "[image elf=p.bin size=9 crc32=0xb8ef0d5c]", want, err, sizeof err),
	   "[image elf=…] is checked the same (%s)", err);
	ok(image_refused(dir, "[image elf=p.bin size=8 crc32=0xb8ef0d5c]", "not an ELF file", err, sizeof err),
	   "an [image elf=…] that matches its size and CRC-32 is then read as ELF (%s)", err);
	ok(image_refused(dir, "[image file=p.bin base=0x1000 sise=8]", "'sise=8' is not one of base=, file=, elf=, size=, crc32=",
			 err, sizeof err), "an unknown attribute (a typo of size=) is refused, not ignored (%s)", err);
	ok(image_refused(dir, "[image file=p.bin base=0x1000 size=8 size=8]", "'size=8' is not one of", err, sizeof err),
	   "an attribute given twice is refused (%s)", err);
	ok(image_refused(dir, "[image base=0x1000 size=8]\n00", "size= and crc32= belong to file=NAME or elf=NAME", err,
			 sizeof err), "size= on an inline image is refused (%s)", err);
	ok(image_refused(dir, "[image file=p.bin base=0x1000 crc32=b8ef0d5c]", "crc32 'b8ef0d5c' is not 0x and at most 8 hex",
			 err, sizeof err), "crc32= without 0x is refused (%s)", err);
	ok(image_refused(dir, "[image elf=p.bin base=0x1000]", "an ELF file says where it loads (no base= or file=)", err,
			 sizeof err), "elf= with base= is refused (%s)", err);
	ok(image_refused(dir, "[image file=none.bin base=0x1000 size=8]", "none.bin': No such file or directory", err,
			 sizeof err), "a missing image file with size= is refused naming it (%s)", err);
	for (const char *f = "p.bin\0cut.bin\0v.tcv\0"; *f; f += strlen(f) + 1) {
		char path[600];
		snprintf(path, sizeof path, "%s/%s", dir, f);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	test_layout();
	test_hex_block();
	test_image_lines();
	test_misuse_order();
	test_misuse_config();
	test_misuse_text();
	test_misuse_sections();
	test_generated();
	test_reader();
	test_reader_refusals();
	test_truncation_sweep();
	test_image_files();
	return tap_finish();
}
