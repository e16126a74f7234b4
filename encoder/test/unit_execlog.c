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

/* qemu-aarch64: FLAGS2 and PC of 16 digits, an A64 instruction. */
static void test_parse_a64(void)
{
	const char *text = "Trace 0: 0x7fed5c4b2600 [0000000001009331/0000000000400530/00000001/00000201] main\n"
			   "Trace 0: 0x7fed5c4b2740 [0000000001809331/0000ffff00400534/00000001/00000201] main\n";
	struct tc_execlog_entry *e = NULL;
	size_t n = 0;
	char err[300];
	int rc = parse(text, &e, &n, err, sizeof err);
	ok(rc == 0 && n == 2 && e[0].a64 && e[0].addr == 0x400530 && !e[0].thumb, "an A64 line: 16-digit PC 0x400530: %s", err);
	ok(rc == 0 && e[1].a64 && e[1].addr == 0x0000ffff00400534ull && !e[1].thumb,
	   "a 64-bit address; FLAGS2 bit 23 is no Thumb state in A64");
	free(e);
	bad_line("Trace 0: 0x7f25e4000180 [0000000001009331/00400530/00000001/00000201] main", "FLAGS2 of 16 digits, PC of 8");
	bad_line("Trace 0: 0x7f25e4000180 [0000000001009331/0000000000400532/00000001/00000201] main",
		 "an A64 address not word aligned");
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
	uint64_t *pg = NULL;
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
		err[0] = '\0';
		if (!strcmp(enc->protocol, "ete")) {   /* A64 only: test_ete_exec */
			ok(enc->from_exec(&x, &r, &m, err, sizeof err) == -1 && strstr(err, "A64 executions only"),
			   "ete: an AArch32 execution: refused: '%s'", err);
			goto refuse_empty;
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
	refuse_empty:
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

/* The hand-made A64 program (aarch64-linux-gnu-as, objdump -d):
 *   0x400000 d2800020 mov x0, #1
 *   0x400004 94000003 bl 0x400010
 *   0x400008 d4000001 svc #0
 *   0x40000c d65f03c0 ret
 *   0x400010 d65f03c0 ret
 * run as mov, bl, ret (to the svc), svc (returns to 0x40000c), ret (to 0x400000). */
static const uint8_t a64_code[] = { 0x20, 0x00, 0x80, 0xd2, 0x03, 0x00, 0x00, 0x94, 0x01, 0x00, 0x00, 0xd4,
				    0xc0, 0x03, 0x5f, 0xd6, 0xc0, 0x03, 0x5f, 0xd6 };
#define A64(pc) "Trace 0: 0x7fed5c4b2600 [0000000001009331/" pc "/00000001/00000201] "

/* The ETE L3 of it, by hand (L3FORMAT.md): as exec_l3 but A64, sf=1, and
 * the exception type Call (2, reference/ete/ERRATA.md TC-P31). */
static const char ete_l3[] =
	"trace-on\n"
	"context el=0 ns=1 sf=1 ctxid=0x0 vmid=0x0\n"
	"range first=0x400000 last=0x400004 n=2 isa=a64 type=dir taken=E\n"
	"range first=0x400010 last=0x400010 n=1 isa=a64 type=indir taken=E\n"
	"range first=0x400008 last=0x400008 n=1 isa=a64 type=other taken=-\n"
	"exception type=0x2 ret=0x40000c\n"
	"trace-on\n"
	"range first=0x40000c last=0x40000c n=1 isa=a64 type=indir taken=E\n";

/* Its packets by hand (encoder/ete/enc_exec.c): A-sync, Trace Info, Trace On,
 * Context, Address at 0x400000; an E atom for the bl, then, for f's ret, an
 * E atom and an Address of 0x400008 (no return stack); the svc's Exception
 * at its preferred return address 0x40000c; Trace On, Context, Address at
 * 0x40000c; the last ret's E atom and Address 0x400000. The atoms before the
 * exception are packed in one or two packets (drawn): only the kinds and
 * addresses are compared. */
static void test_ete_exec(void)
{
	const char *log = A64("0000000000400000") "main\n" A64("0000000000400004") "main\n"
			  A64("0000000000400010") "f\n" A64("0000000000400008") "main\n"
			  A64("000000000040000c") "main\n" A64("0000000000400000") "main\n";
	const struct tc_encoder *enc = encoder("ete");
	struct tc_execlog_entry *e = NULL;
	struct tc_image img;
	struct tc_exec x;
	struct tc_exec_marks m;
	struct tc_enc_result r;
	size_t n = 0;
	char err[300], *l3;
	memset(&img, 0, sizeof img);
	memset(&m, 0, sizeof m);
	if (tc_image_add(&img, 0x400000, a64_code, sizeof a64_code) || parse(log, &e, &n, err, sizeof err) ||
	    tc_exec_classify(e, n, 0, 5, &img, "log", &x, err, sizeof err) || tc_exec_marks_alloc(&m, &x)) {
		ok(0, "the A64 execution: %s", err);
		return;
	}
	ok(x.insn[0].isa == tc_isa_a64 && x.insn[1].type == tc_insn_branch_dir && x.insn[1].taken && x.insn[3].svc &&
	   x.insn[4].type == tc_insn_branch_indir && x.insn[4].next == 0x400000, "A64: mov, bl taken, svc, ret");
	if (!enc || !enc->from_exec || enc->from_exec(&x, &r, &m, err, sizeof err)) {
		ok(0, "ete: from_exec of the A64 execution: %s", err);
	} else {
		l3 = tc_exec_l3(&x, &m);
		ok(l3 && r.l3 && !strcmp(l3, r.l3), "ete: the model's L3 is the log's");
		if (l3)
			strip_offsets(l3);
		ok(l3 && !strcmp(l3, ete_l3), "ete: the log's L3 is the hand-written one but for the offsets");
		strip_l1(r.l1);
		ok(strstr(r.l1, "async\ntrace-info cc=0 cct=0 spec=0 tx=0\ntrace-on\ncontext el=0 ns=1 sf=1") == r.l1 &&
		   strstr(r.l1, "address addr=0x400000 isa=0\natom atoms=E") && strstr(r.l1, "address addr=0x400008 isa=0\n") &&
		   strstr(r.l1, "exception e=1 type=0x2 addr=0x40000c") && strstr(r.l1, "trace-on\ncontext") &&
		   strstr(r.l1, "address addr=0x40000c isa=0\natom atoms=E\naddress addr=0x400000 isa=0\n"),
		   "ete: the packets of the execution, by hand");
		if (!strstr(r.l1, "exception e=1 type=0x2 addr=0x40000c"))
			note("got:\n%s", r.l1);
		free(l3);
		tc_enc_result_free(&r);
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
	test_parse_a64();
	test_classify();
	test_l3_and_pages();
	test_from_exec();
	test_ptm_packets();
	test_isb();
	test_ete_exec();
	return tap_finish();
}
