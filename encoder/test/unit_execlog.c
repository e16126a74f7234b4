/* unit_execlog.c — real executions (tracecert/execlog.h): the qemu log parser and each of its error
 * paths, the classifier over a hand-made image and its refusals, the L3 of an execution, the pages,
 * and a protocol's from_exec on a tiny hand-made log (its model's L3 agrees with the log's); TAP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/tap.h"   /* reference/test/tap.h */
#include "tracecert/encoder.h"
#include "tracecert/execlog.h"

#define ARM(pc) "Trace 0: 0x7f25e4000180 [00000480/" pc "/00000000/00000201] "
#define THUMB(pc) "Trace 0: 0x7f25e4000240 [00800480/" pc "/00000000/00000201] "

static int parse(const char *text, struct tc_execlog_entry **e, size_t *n, char *err, size_t errlen)
{
	err[0] = '\0';
	return tc_execlog_parse(text, strlen(text), "log", e, n, err, errlen);
}

static void test_parse_good(void)
{
	const char *text = ARM("00010340") "main\n" THUMB("000103ae") "__libc_start_main\n"
			   "Trace 0: 0x7f25e4000400 [18800480/000103b0/00000000/00000201]";
	struct tc_execlog_entry *e = NULL;
	size_t n = 0;
	char err[300];
	int rc = parse(text, &e, &n, err, sizeof err);
	ok(rc == 0 && n == 3, "three lines, the last without a line break or a symbol: %s", err);
	if (rc)
		return;
	ok(e[0].addr == 0x10340 && !e[0].thumb && e[0].symlen == 4 && !memcmp(e[0].sym, "main", 4) && e[0].line == 1,
	   "an A32 line: PC 0x10340, FLAGS2 bit 23 clear, symbol main, line 1");
	ok(e[1].addr == 0x103ae && e[1].thumb && e[1].line == 2, "a T32 line: FLAGS2 bit 23 set, a halfword address");
	ok(e[2].thumb && e[2].symlen == 0, "IT state in FLAGS2 bits 31:24 (0x18): still Thumb; an empty symbol");
	ok(tc_execlog_find_symbol(e, n, "__libc_start_main") == 1 && tc_execlog_find_symbol(e, n, "exit") == n,
	   "the first line of a symbol; none: n");
	free(e);
}

/* A bad second line: the message names the file, line 2 and the line's byte offset. */
static void bad_line(const char *second, const char *why)
{
	char text[400], err[300], want[80];
	struct tc_execlog_entry *e = NULL;
	size_t n = 0;
	const char *first = ARM("00010340") "main\n";
	snprintf(text, sizeof text, "%s%s\n", first, second);
	snprintf(want, sizeof want, "log:2: byte offset %zu: not a line", strlen(first));
	ok(parse(text, &e, &n, err, sizeof err) == -1 && strstr(err, want) != NULL, "%s: '%s'", why, err);
	free(e);
}

static void test_parse_errors(void)
{
	struct tc_execlog_entry *e = NULL;
	size_t n = 0;
	char err[300];
	bad_line("Linking TBs 0x7f25e4000180 [00010340] index 0 -> 0x7f25e4000240 [000103ae]", "another -d item");
	bad_line("Trace 0: 0x7f25e4000180 [00000480/0001034/00000000/00000201] main", "a PC of 7 digits");
	bad_line("Trace 0: 0x7f25e4000180 [00000480/0001034G/00000000/00000201] main", "a PC with a non-hex digit");
	bad_line("Trace 0: 0x7f25e4000180 [00000480/00010340/00000000] main", "three fields (an older QEMU)");
	bad_line("Trace 0: 0x7f25e4000180 [00000480/00010340/00000000/00000201]main", "no blank before the symbol");
	bad_line("Trace x: 0x7f25e4000180 [00000480/00010340/00000000/00000201] main", "no CPU number");
	bad_line("Trace 0: 7f25e4000180 [00000480/00010340/00000000/00000201] main", "no 0x before the host address");
	bad_line(THUMB("00010341") "main", "a T32 address with bit 0 set");
	bad_line(ARM("00010342") "main", "an A32 address not word aligned");
	bad_line("", "an empty line");
	static const char nul[] = ARM("00010340") "main\n" ARM("00010344") "\0main\n";
	char want[80];
	snprintf(want, sizeof want, "log:2: byte offset %zu: a NUL byte", strlen(nul));
	ok(tc_execlog_parse(nul, sizeof nul - 1, "log", &e, &n, err, sizeof err) == -1 && strstr(err, want) != NULL,
	   "a NUL byte: its line and offset: '%s'", err);
	ok(parse("", &e, &n, err, sizeof err) == -1 && strstr(err, "log: no instruction") != NULL,
	   "an empty log: '%s'", err);
}

/* The hand-made program (arm-linux-gnueabihf-as, objdump -d):
 *   0x1000 e3a00001 mov r0, #1
 *   0x1004 eb000001 bl 0x1010
 *   0x1008 ef000000 svc 0
 *   0x100c e12fff1e bx lr
 *   0x1010 e12fff1e bx lr
 *   0x2000 4770     bx lr (T32) */
static const uint8_t arm_code[] = { 0x01, 0x00, 0xa0, 0xe3, 0x01, 0x00, 0x00, 0xeb, 0x00, 0x00, 0x00, 0xef,
				    0x1e, 0xff, 0x2f, 0xe1, 0x1e, 0xff, 0x2f, 0xe1 };
static const uint8_t thumb_code[] = { 0x70, 0x47 };

/* mov, bl, bx lr (back to the svc), svc (returns to 0x100c), bx lr to T32 0x2000, bx lr to 0x1000. */
static const char exec_log[] = ARM("00001000") "main\n" ARM("00001004") "main\n" ARM("00001010") "f\n"
			       ARM("00001008") "main\n" ARM("0000100c") "main\n" THUMB("00002000") "g\n"
			       ARM("00001000") "main\n";

static int image(struct tc_image *img)
{
	memset(img, 0, sizeof *img);
	return tc_image_add(img, 0x1000, arm_code, sizeof arm_code) || tc_image_add(img, 0x2000, thumb_code, 2);
}

static void test_classify(void)
{
	struct tc_execlog_entry *e = NULL;
	struct tc_image img;
	struct tc_exec x;
	size_t n = 0;
	char err[300];
	if (image(&img) || parse(exec_log, &e, &n, err, sizeof err)) {
		ok(0, "the hand-made image and log: %s", err);
		return;
	}
	ok(tc_exec_classify(e, n, 0, 6, &img, "log", &x, err, sizeof err) == 0 && x.n == 6, "six instructions: %s", err);
	if (x.n == 6) {
		ok(x.insn[0].type == tc_insn_other && !x.insn[0].taken && x.insn[0].size == 4, "mov: other, not taken");
		ok(x.insn[1].type == tc_insn_branch_dir && x.insn[1].taken && x.insn[1].next == 0x1010, "bl: taken to 0x1010");
		ok(x.insn[3].svc && !x.insn[3].taken && x.insn[3].next == 0x100c, "svc: a system call returning after it");
		ok(x.insn[4].type == tc_insn_branch_indir && x.insn[4].taken && x.insn[4].next_isa == tc_isa_t32,
		   "bx lr to T32 code: indirect, taken, next ISA t32");
		ok(x.insn[5].isa == tc_isa_t32 && x.insn[5].size == 2 && x.insn[5].has_next && x.insn[5].next == 0x1000,
		   "the window's last: T32 bx lr, its next from the log's next line");
	}
	tc_exec_free(&x);
	ok(tc_exec_classify(e, n, 6, 5, &img, "log", &x, err, sizeof err) == 0 && x.n == 1 && !x.insn[0].has_next,
	   "a window past the log's end is cut there; the last line has no next");
	tc_exec_free(&x);
	ok(tc_exec_classify(e, n, 7, 1, &img, "log", &x, err, sizeof err) == -1 && strstr(err, "after the last line"),
	   "a window starting after the log: '%s'", err);
	free(e);
	/* refusals: the log does not agree with the image */
	const char *jump = ARM("00001000") "\n" ARM("00001010") "\n";           /* mov followed by 0x1010 */
	const char *wrong = ARM("00001004") "\n" ARM("0000100c") "\n";          /* bl to 0x1010 followed by 0x100c */
	const char *none = ARM("0000100c") "\n" ARM("00003000") "\n";
	if (!parse(jump, &e, &n, err, sizeof err))
		ok(tc_exec_classify(e, n, 0, 2, &img, "log", &x, err, sizeof err) == -1 &&
		   strstr(err, "log:1: the instruction at 0x1000 is not a branch, yet the next one is at 0x1010"),
		   "a non-branch followed by a jump: '%s'", err);
	free(e);
	if (!parse(wrong, &e, &n, err, sizeof err))
		ok(tc_exec_classify(e, n, 0, 2, &img, "log", &x, err, sizeof err) == -1 &&
		   strstr(err, "log:1: the direct branch at 0x1004 goes to 0x1010, yet the next instruction is at 0x100c"),
		   "a direct branch elsewhere than its target: '%s'", err);
	free(e);
	if (!parse(none, &e, &n, err, sizeof err))
		ok(tc_exec_classify(e, n, 0, 2, &img, "log", &x, err, sizeof err) == -1 &&
		   strstr(err, "log:2: no image bytes for the instruction at 0x3000"), "no image bytes: '%s'", err);
	free(e);
	tc_image_free(&img);
}

/* The L3 of the hand-made execution, by hand from L3FORMAT.md: trace-on and
 * the context at the start; mov and bl in one range ending at the taken
 * direct branch; f's bx lr alone (an indirect branch); the svc ends its
 * range and is an exception returning to 0x100c, tracing on again there;
 * bx lr to T32; the T32 bx lr (taken: the log goes on at 0x1000). */
static const char exec_l3[] =
	"@1 trace-on\n"
	"@1 context el=0 ns=1 sf=0 ctxid=0x0 vmid=0x0\n"
	"@10 range first=0x1000 last=0x1004 n=2 isa=a32 type=dir taken=E\n"
	"@12 range first=0x1010 last=0x1010 n=1 isa=a32 type=indir taken=E\n"
	"@14 range first=0x1008 last=0x1008 n=1 isa=a32 type=other taken=-\n"
	"@15 exception type=0xa ret=0x100c\n"
	"@20 trace-on\n"
	"@30 range first=0x100c last=0x100c n=1 isa=a32 type=indir taken=E\n"
	"@40 range first=0x2000 last=0x2000 n=1 isa=t32 type=indir taken=E\n";

static int hand_exec(struct tc_exec *x, struct tc_execlog_entry **e, struct tc_image *img)
{
	size_t n = 0;
	char err[300];
	*e = NULL;
	return image(img) || parse(exec_log, e, &n, err, sizeof err) ||
	       tc_exec_classify(*e, n, 0, 6, img, "log", x, err, sizeof err);
}

static void test_l3_and_pages(void)
{
	struct tc_execlog_entry *e;
	struct tc_image img;
	struct tc_exec x;
	struct tc_exec_marks m;
	static const uint64_t at[] = { 10, 11, 12, 14, 30, 40 };
	uint32_t *pg = NULL;
	char *l3;
	memset(&m, 0, sizeof m);
	if (hand_exec(&x, &e, &img) || tc_exec_marks_alloc(&m, &x)) {
		ok(0, "the hand-made execution");
		return;
	}
	memcpy(m.insn, at, sizeof at);
	m.protocol = tc_proto_etmv3;
	m.start = 1;
	m.exception[3] = 15;
	m.resume[3] = 20;
	m.ctx.ns = 1;
	m.svc_type = 0xa;
	l3 = tc_exec_l3(&x, &m);
	ok(l3 && !strcmp(l3, exec_l3), "the L3 of the execution, with the marks' offsets");
	if (l3 && strcmp(l3, exec_l3))
		note("got:\n%s", l3);
	free(l3);
	ok(tc_exec_pages(&x, 4096, &pg) == 2 && pg[0] == 0x1000 && pg[1] == 0x2000, "two pages: 0x1000 and 0x2000");
	free(pg);
	ok(tc_exec_pages(&x, 16, &pg) == 3 && pg[0] == 0x1000 && pg[1] == 0x1010 && pg[2] == 0x2000,
	   "16-byte pages: 0x1000, 0x1010, 0x2000");
	free(pg);
	tc_exec_marks_free(&m);
	tc_exec_free(&x);
	tc_image_free(&img);
	free(e);
}

/* The L3 text without its offsets. */
static void strip_offsets(char *s)
{
	char *w = s;
	for (char *r = s; *r;) {
		if (*r == '@' && (r == s || r[-1] == '\n')) {
			r += strcspn(r, " ");
			r += *r == ' ';
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
}

/* Every encoder with a from_exec traces the hand-made execution: its model's
 * L3 is the log's, which is exec_l3 but for the offsets. */
static void test_from_exec(void)
{
	char want[sizeof exec_l3];
	memcpy(want, exec_l3, sizeof exec_l3);
	strip_offsets(want);
	for (int i = 0; tc_encoders[i]; i++) {
		const struct tc_encoder *enc = tc_encoders[i];
		struct tc_execlog_entry *e;
		struct tc_image img;
		struct tc_exec x;
		struct tc_exec_marks m;
		struct tc_enc_result r;
		char err[300], *l3;
		if (!enc->from_exec)
			continue;
		memset(&m, 0, sizeof m);
		if (hand_exec(&x, &e, &img) || tc_exec_marks_alloc(&m, &x)) {
			ok(0, "%s: the hand-made execution", enc->protocol);
			continue;
		}
		ok(enc->from_exec(&x, &r, &m, err, sizeof err) == 0 && r.trace_len > 0 && r.l1 && r.l3,
		   "%s: from_exec traces it: %s", enc->protocol, err);
		l3 = tc_exec_l3(&x, &m);
		ok(l3 && r.l3 && !strcmp(l3, r.l3), "%s: the model's L3 is the log's", enc->protocol);
		if (l3)
			strip_offsets(l3);
		ok(l3 && !strcmp(l3, want), "%s: the log's L3 is the hand-written one but for the offsets", enc->protocol);
		free(l3);
		tc_enc_result_free(&r);
		x.n = 0;
		ok(enc->from_exec(&x, &r, &m, err, sizeof err) == -1 && strstr(err, "no instruction"),
		   "%s: no instruction: refused: '%s'", enc->protocol, err);
		tc_exec_marks_free(&m);
		tc_exec_free(&x);
		tc_image_free(&img);
		free(e);
	}
}

/* An encoder of this build by protocol name, or NULL. */
static const struct tc_encoder *encoder(const char *name)
{
	for (int i = 0; tc_encoders[i]; i++)
		if (!strcmp(tc_encoders[i]->protocol, name))
			return tc_encoders[i];
	return NULL;
}

/* The L1 text without the offsets and header bytes ("@N HH "). */
static void strip_l1(char *s)
{
	char *w = s;
	for (char *r = s; *r;) {
		if (*r == '@' && (r == s || r[-1] == '\n')) {
			r += strcspn(r, " ");
			r += *r == ' ';
			r += strcspn(r, " ");
			r += *r == ' ';
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
}

/* The PTM's packets of the hand-made execution, by hand (encoder/ptm/ptmenc_exec.c's
 * rules): an A-sync and an I-sync of reason 1 at 0x1000 (Non-secure); the
 * mov is not a waypoint (PTM-P11), the taken bl an E atom; f's bx lr a
 * branch address packet to 0x1008 (no return stack); the svc: a waypoint
 * update at 0x100c, the first instruction not executed (PTM-S3), then the
 * exception branch to 0xffff0008 with Exception 0xa (PTM-P26) and an I-sync
 * of reason 1 at 0x100c; both bx lr branch address packets, to T32 0x2000
 * and back to A32 0x1000. The window ends at a waypoint: no waypoint
 * update after it. */
static const char ptm_l1[] =
	"async\n"
	"isync addr=0x1000 isa=arm reason=1 ns=1 hyp=0\n"
	"atom atoms=E\n"
	"branch addr=0x1008 isa=arm ns=1 hyp=0\n"
	"waypoint addr=0x100c isa=arm\n"
	"branch addr=0xffff0008 isa=arm ns=1 hyp=0 exc=0xa\n"
	"isync addr=0x100c isa=arm reason=1 ns=1 hyp=0\n"
	"branch addr=0x2000 isa=thumb ns=1 hyp=0\n"
	"branch addr=0x1000 isa=arm ns=1 hyp=0\n";

static void test_ptm_packets(void)
{
	const struct tc_encoder *enc = encoder("ptm");
	struct tc_execlog_entry *e;
	struct tc_image img;
	struct tc_exec x;
	struct tc_exec_marks m;
	struct tc_enc_result r;
	char err[300];
	if (!enc || !enc->from_exec) {
		ok(0, "ptm: an encoder with from_exec");
		return;
	}
	memset(&m, 0, sizeof m);
	if (hand_exec(&x, &e, &img) || tc_exec_marks_alloc(&m, &x)) {
		ok(0, "ptm: the hand-made execution");
		return;
	}
	if (enc->from_exec(&x, &r, &m, err, sizeof err) == 0) {
		strip_l1(r.l1);
		ok(!strcmp(r.l1, ptm_l1), "ptm: the packets of the execution, by hand");
		if (strcmp(r.l1, ptm_l1))
			note("got:\n%s", r.l1);
		ok(m.insn[0] == m.insn[1] && m.insn[1] < m.insn[2] && m.insn[2] < m.insn[3] && m.exception[3] > m.insn[3] &&
		   m.resume[3] > m.exception[3] && m.insn[4] > m.resume[3] && m.insn[5] > m.insn[4] && m.isb_waypoint,
		   "ptm: mov and bl share their atom's packet; each later one is after the one before; ISB a waypoint");
		tc_enc_result_free(&r);
	} else {
		ok(0, "ptm: from_exec: %s", err);
	}
	tc_exec_marks_free(&m);
	tc_exec_free(&x);
	tc_image_free(&img);
	free(e);
}

/* An ISB (A32 f57ff06f at 0x3000) then bx lr (0x3004) back to 0x1000: with
 * isb_waypoint a range ends at the ISB (type isb, E: it executed), without
 * it the ISB runs on into the bx lr's range; PTM traces it by an E atom. */
static const uint8_t isb_code[] = { 0x6f, 0xf0, 0x7f, 0xf5, 0x1e, 0xff, 0x2f, 0xe1 };

static void test_isb(void)
{
	const char *log = ARM("00003000") "g\n" ARM("00003004") "g\n" ARM("00001000") "main\n";
	const struct tc_encoder *enc = encoder("ptm");
	struct tc_execlog_entry *e = NULL;
	struct tc_image img;
	struct tc_exec x;
	struct tc_exec_marks m;
	struct tc_enc_result r;
	size_t n = 0;
	char err[300], *l3;
	memset(&img, 0, sizeof img);
	memset(&m, 0, sizeof m);
	if (tc_image_add(&img, 0x1000, arm_code, sizeof arm_code) || tc_image_add(&img, 0x3000, isb_code, sizeof isb_code) ||
	    parse(log, &e, &n, err, sizeof err) || tc_exec_classify(e, n, 0, 2, &img, "log", &x, err, sizeof err) ||
	    tc_exec_marks_alloc(&m, &x)) {
		ok(0, "the ISB execution: %s", err);
		return;
	}
	ok(x.insn[0].isb && x.insn[0].type == tc_insn_other && !x.insn[1].isb, "isb: classified other, flagged isb");
	m.protocol = tc_proto_ptm;
	m.insn[0] = 10;
	m.insn[1] = 20;
	l3 = tc_exec_l3(&x, &m);
	ok(l3 && !strcmp(l3, "@0 trace-on\n@0 context el=0 ns=0 sf=0 ctxid=0x0 vmid=0x0\n"
			    "@10 range first=0x3000 last=0x3004 n=2 isa=a32 type=indir taken=E\n"),
	   "without isb_waypoint: one range through the ISB");
	free(l3);
	m.isb_waypoint = 1;
	l3 = tc_exec_l3(&x, &m);
	ok(l3 && !strcmp(l3, "@0 trace-on\n@0 context el=0 ns=0 sf=0 ctxid=0x0 vmid=0x0\n"
			    "@10 range first=0x3000 last=0x3000 n=1 isa=a32 type=isb taken=E\n"
			    "@20 range first=0x3004 last=0x3004 n=1 isa=a32 type=indir taken=E\n"),
	   "with isb_waypoint: a range ends at the ISB, E");
	free(l3);
	if (enc && enc->from_exec && enc->from_exec(&x, &r, &m, err, sizeof err) == 0) {
		l3 = tc_exec_l3(&x, &m);
		strip_l1(r.l1);
		ok(!strcmp(r.l1, "async\nisync addr=0x3000 isa=arm reason=1 ns=1 hyp=0\natom atoms=E\n"
				 "branch addr=0x1000 isa=arm ns=1 hyp=0\n") && l3 && r.l3 && !strcmp(l3, r.l3),
		   "ptm: the ISB an E atom, the bx lr a branch address; the model's L3 is the log's");
		free(l3);
		tc_enc_result_free(&r);
	} else {
		ok(0, "ptm: from_exec of the ISB execution");
	}
	tc_exec_marks_free(&m);
	tc_exec_free(&x);
	tc_image_free(&img);
	free(e);
}

int main(void)
{
	test_parse_good();
	test_parse_errors();
	test_classify();
	test_l3_and_pages();
	test_from_exec();
	test_ptm_packets();
	test_isb();
	return tap_finish();
}
