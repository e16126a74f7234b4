/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_frame.c — the frames of the certify processes (conformance/frame.c): a written frame parses back; every way bytes can fail to be a frame is refused; handed-over text is copied bounded and as valid UTF-8. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "frame.h"
#include "test/tap.h"   /* reference/test/tap.h */

/* Writes one frame through a pipe and parses it back. */
static void round_trip(void)
{
	int fds[2];
	char buf[64];
	ssize_t n;
	struct tc_frame f;
	if (pipe(fds) != 0) {
		ok(0, "pipe");
		return;
	}
	ok(tc_frame_puts(fds[1], '1', "@0 00 async") == 0, "a frame is written");
	n = read(fds[0], buf, sizeof buf);
	ok(n == 18 && !memcmp(buf, "10011 @0 00 async\n", 18), "its bytes: type, four-digit length, blank, payload, newline");
	ok(n > 0 && tc_frame_parse(buf, (size_t)n, &f) == n && f.type == '1' && f.len == 11 &&
		   !memcmp(f.payload, "@0 00 async", 11),
	   "it parses back whole");
	ok(tc_frame_write(fds[1], '!', "x", 1) == -1, "a type that is not a letter or digit is not written");
	ok(tc_frame_write(fds[1], 'a', buf, TC_FRAME_MAX + 1) == -1, "a payload over TC_FRAME_MAX is not written");
	close(fds[0]);
	close(fds[1]);
}

static long parse(const char *s)
{
	struct tc_frame f;
	return tc_frame_parse(s, strlen(s), &f);
}

static void malformed(void)
{
	char big[16];
	ok(parse("10003 abc") == 0 && parse("1000") == 0 && parse("") == 0, "a frame cut short: more is needed");
	ok(parse("10003 abcX") == -1, "no newline where the length ends the payload: malformed");
	ok(parse("10002 abc\n") == -1, "a length shorter than the payload: malformed");
	ok(parse("!0001 a\n") == -1 && parse("\n0001 a\n") == -1, "a type byte that is not a letter or digit: malformed");
	ok(parse("1x001 a\n") == -1 && parse("1-001 a\n") == -1, "a length that is not four digits: malformed");
	ok(parse("10001xa\n") == -1, "no blank after the length: malformed");
	snprintf(big, sizeof big, "1%04d ", TC_FRAME_MAX + 1);
	ok(parse(big) == -1, "a length over TC_FRAME_MAX: malformed before its payload comes");
	ok(parse("1000") == 0 && parse("1x") == -1, "a bad head is refused as soon as its first bad byte is seen");
}

static void clean(void)
{
	char out[16];
	size_t n = tc_text_clean(out, sizeof out, "a\nb\0c\x01\x7f", 7);
	ok(n == 7 && !strcmp(out, "a?b?c??"), "newline, NUL and control characters become '?' (got '%s')", out);
	n = tc_text_clean(out, sizeof out, "\xc3\xa9\xff\xc3(\xed\xa0\x80", 8);
	ok(!strcmp(out, "\xc3\xa9??" "(???"), "valid UTF-8 is kept; a bad byte, a cut sequence, a surrogate become '?'");
	n = tc_text_clean(out, sizeof out, "0123456789abcdefghij", 20);
	ok(n == 15 && out[15] == '\0', "a long text is cut to the buffer, NUL-terminated");
	n = tc_text_clean(out, 5, "abc\xc3\xa9", 5);
	ok(n == 3 && !strcmp(out, "abc"), "a UTF-8 sequence that does not fit whole is left out");
}

int main(void)
{
	round_trip();
	malformed();
	clean();
	return tap_finish();
}
