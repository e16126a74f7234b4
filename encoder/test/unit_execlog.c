/* SPDX-License-Identifier: BSD-3-Clause */
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
#define RV(pc) "Trace 0: 0x7f6c2c000100 [0000000000000000/00000000000" pc "/00207600/00000201] "

static int parse(const char *text, int family, struct tc_execlog_entry **e, size_t *n, char *err, size_t errlen)
{
	err[0] = '\0';
	return tc_execlog_parse(text, strlen(text), "log", family, e, n, err, errlen);
}

static void test_parse_good(void)
{
	const char *text = ARM("00010340") "main\n" THUMB("000103ae") "__libc_start_main\n"
			   "Trace 0: 0x7f25e4000400 [18800480/000103b0/00000000/00000201]";
	struct tc_execlog_entry *e = NULL;
	size_t n = 0;
	char err[300];
	int rc = parse(text, tc_exec_family_aarch32, &e, &n, err, sizeof err);
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

static void test_parse_rv(void)
{
	const char *text = RV("10594") "_start\n" RV("105b6") "\n";
	struct tc_execlog_entry *e = NULL;
	size_t n = 0;
	char err[300];
	int rc = parse(text, tc_exec_family_rv64, &e, &n, err, sizeof err);
	ok(rc == 0 && n == 2, "qemu-riscv64 lines (FLAGS2 and PC of 16 digits): %s", err);
	if (rc == 0)
		ok(e[0].addr == 0x10594 && e[0].isa == tc_isa_rv64 && !e[0].thumb && e[1].addr == 0x105b6 &&
		   e[1].symlen == 0, "RV64: PC 0x10594, symbol _start; 0x105b6 without a symbol");
	free(e);
}

#define A64(pc) "Trace 0: 0x7fed5c4b2600 [0000000001009331/" pc "/00000001/00000201] "

/* A first line of each family (tracecert/execlog.h), for bad_line_of. */
static const char *first_line(int family)
{
	return family == tc_exec_family_a64 ? A64("0000000000400530") "main\n" :
	       family == tc_exec_family_rv64 ? RV("10594") "main\n" : ARM("00010340") "main\n";
}

/* A bad second line in a log of family: the message names the file, line 2
 * and the line's byte offset. */
static void bad_line_of(int family, const char *second, const char *why)
{
	char text[400], err[300], want[80];
	struct tc_execlog_entry *e = NULL;
	size_t n = 0;
	const char *first = first_line(family);
	snprintf(text, sizeof text, "%s%s\n", first, second);
	snprintf(want, sizeof want, "log:2: byte offset %zu: not a line", strlen(first));
	ok(parse(text, family, &e, &n, err, sizeof err) == -1 && strstr(err, want) != NULL, "%s: '%s'", why, err);
	free(e);
}

static void bad_line(const char *second, const char *why)
{
	bad_line_of(tc_exec_family_aarch32, second, why);
}

/* qemu-aarch64: FLAGS2 and PC of 16 digits, an A64 instruction. */
static void test_parse_a64(void)
{
	const char *text = "Trace 0: 0x7fed5c4b2600 [0000000001009331/0000000000400530/00000001/00000201] main\n"
			   "Trace 0: 0x7fed5c4b2740 [0000000001809331/0000ffff00400534/00000001/00000201] main\n";
	struct tc_execlog_entry *e = NULL;
	size_t n = 0;
	char err[300];
	int rc = parse(text, tc_exec_family_a64, &e, &n, err, sizeof err);
	ok(rc == 0 && n == 2 && e[0].isa == tc_isa_a64 && e[0].addr == 0x400530 && !e[0].thumb, "an A64 line: 16-digit PC 0x400530: %s", err);
	ok(rc == 0 && e[1].isa == tc_isa_a64 && e[1].addr == 0x0000ffff00400534ull && !e[1].thumb,
	   "a 64-bit address; FLAGS2 bit 23 is no Thumb state in A64");
	free(e);
	bad_line_of(tc_exec_family_a64, "Trace 0: 0x7f25e4000180 [0000000001009331/00400530/00000001/00000201] main",
		    "FLAGS2 of 16 digits, PC of 8");
	bad_line_of(tc_exec_family_a64, A64("0000000000400532") "main", "an A64 address not word aligned");
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
	bad_line_of(tc_exec_family_rv64, RV("10595") "main", "an RV64 address with bit 0 set");
	bad_line_of(tc_exec_family_a64, "Trace 0: 0x7fed5c4b2600 [0000000001009331/0000000000400532/00000001/00000201] main",
		    "an A64 address (16 digits, FLAGS2 not 0) not word aligned");
	bad_line_of(tc_exec_family_rv64, "Trace 0: 0x7f6c2c000100 [0000000000000000/00010594/00207600/00000201] main",
		    "a FLAGS2 of 16 digits with a PC of 8");
	static const char nul[] = ARM("00010340") "main\n" ARM("00010344") "\0main\n";
	char want[80];
	snprintf(want, sizeof want, "log:2: byte offset %zu: a NUL byte", strlen(nul));
	ok(tc_execlog_parse(nul, sizeof nul - 1, "log", tc_exec_family_aarch32, &e, &n, err, sizeof err) == -1 &&
	   strstr(err, want) != NULL, "a NUL byte: its line and offset: '%s'", err);
	ok(parse("", tc_exec_family_aarch32, &e, &n, err, sizeof err) == -1 && strstr(err, "log: no instruction") != NULL,
	   "an empty log: '%s'", err);
	ok(parse(ARM("00010340") "main\n", tc_exec_family_none, &e, &n, err, sizeof err) == -1 &&
	   !strcmp(err, "log: no instruction-set family to read it as"), "no family: refused: '%s'", err);
}

/* A log of one family read as another: refused at its first line of the
 * other form, with what was expected and what the line is (the forms of
 * tracecert/execlog.h: qemu-arm 8 digits; qemu-aarch64 16, FLAGS2 not 0;
 * qemu-riscv64 16, FLAGS2 0). */
static void test_parse_family(void)
{
	static const struct {
		int family;
		const char *text, *want, *why;
	} refused[] = {
		{ tc_exec_family_a64, RV("10594") "_start\n",
		  "log:1: byte offset 0: not a line of an A64 log (qemu-aarch64: FLAGS2 and PC of 16 digits, FLAGS2 not 0): "
		  "a qemu-riscv64 line (FLAGS2 and PC of 16 digits, FLAGS2 0)", "an RV64 log read as A64" },
		{ tc_exec_family_rv64, A64("0000000000400530") "main\n",
		  "log:1: byte offset 0: not a line of an RV64 log (qemu-riscv64: FLAGS2 and PC of 16 digits, FLAGS2 0): "
		  "a qemu-aarch64 line (FLAGS2 and PC of 16 digits, FLAGS2 not 0)", "an A64 log read as RV64" },
		{ tc_exec_family_aarch32, ARM("00010340") "main\n" RV("10594") "_start\n",
		  "log:2: byte offset 67: not a line of an AArch32 log (qemu-arm: FLAGS2 and PC of 8 digits): "
		  "a qemu-riscv64 line (FLAGS2 and PC of 16 digits, FLAGS2 0)", "an RV64 line in an AArch32 log: line 2" },
		{ tc_exec_family_a64, THUMB("000103ae") "main\n",
		  "log:1: byte offset 0: not a line of an A64 log (qemu-aarch64: FLAGS2 and PC of 16 digits, FLAGS2 not 0): "
		  "a qemu-arm line (FLAGS2 and PC of 8 digits)", "an AArch32 log read as A64" },
		{ tc_exec_family_rv64, ARM("00010340") "main\n",
		  "log:1: byte offset 0: not a line of an RV64 log (qemu-riscv64: FLAGS2 and PC of 16 digits, FLAGS2 0): "
		  "a qemu-arm line (FLAGS2 and PC of 8 digits)", "an AArch32 log read as RV64" },
	};
	struct tc_execlog_entry *e = NULL;
	size_t n = 0;
	char err[400];
	for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
		ok(parse(refused[k].text, refused[k].family, &e, &n, err, sizeof err) == -1 && !strcmp(err, refused[k].want),
		   "%s: refused: '%s'", refused[k].why, err);
		free(e);
		e = NULL;
	}
	/* the same RV64 line read as RV64 has the family's instruction set, whatever its fields say */
	ok(parse(RV("10594") "\n", tc_exec_family_rv64, &e, &n, err, sizeof err) == 0 && e[0].isa == tc_isa_rv64,
	   "an RV64 line read as RV64: %s", err);
	free(e);
	/* the ELF programs of each family (ELF for the Arm Architecture: EM_ARM 40, EM_AARCH64 183;
	 * RISC-V ELF psABI: EM_RISCV 243), and what is of none */
	ok(tc_exec_family_of_elf(40, 1) == tc_exec_family_aarch32 && tc_exec_family_of_elf(183, 2) == tc_exec_family_a64 &&
	   tc_exec_family_of_elf(243, 2) == tc_exec_family_rv64, "EM_ARM 32-bit, EM_AARCH64 and EM_RISCV 64-bit: the three families");
	ok(tc_exec_family_of_elf(243, 1) == tc_exec_family_none && tc_exec_family_of_elf(40, 2) == tc_exec_family_none &&
	   tc_exec_family_of_elf(62, 2) == tc_exec_family_none, "RV32, a 64-bit EM_ARM, x86-64: no family");
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
	if (image(&img) || parse(exec_log, tc_exec_family_aarch32, &e, &n, err, sizeof err)) {
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
	if (!parse(jump, tc_exec_family_aarch32, &e, &n, err, sizeof err))
		ok(tc_exec_classify(e, n, 0, 2, &img, "log", &x, err, sizeof err) == -1 &&
		   strstr(err, "log:1: the instruction at 0x1000 is not a branch, yet the next one is at 0x1010"),
		   "a non-branch followed by a jump: '%s'", err);
	free(e);
	if (!parse(wrong, tc_exec_family_aarch32, &e, &n, err, sizeof err))
		ok(tc_exec_classify(e, n, 0, 2, &img, "log", &x, err, sizeof err) == -1 &&
		   strstr(err, "log:1: the direct branch at 0x1004 goes to 0x1010, yet the next instruction is at 0x100c"),
		   "a direct branch elsewhere than its target: '%s'", err);
	free(e);
	if (!parse(none, tc_exec_family_aarch32, &e, &n, err, sizeof err))
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
	return image(img) || parse(exec_log, tc_exec_family_aarch32, e, &n, err, sizeof err) ||
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

/* The hand-made RV64GC program at 0x10000 (riscv64-linux-gnu-as -march=rv64gc, objdump -d):
 *   0x10000 00000297 auipc t0, 0
 *   0x10004 00c280e7 jalr ra, 12(t0)     (to 0x1000c: the pair's target)
 *   0x10008 00000073 ecall
 *   0x1000c e119     c.bnez a0, 0x10012
 *   0x1000e 8082     c.jr ra
 *   0x10010 0001     c.nop
 *   0x10012 b7fd     c.j 0x10000 */
static const uint8_t rv_code[] = { 0x97, 0x02, 0x00, 0x00, 0xe7, 0x80, 0xc2, 0x00, 0x73, 0x00, 0x00, 0x00,
				   0x19, 0xe1, 0x82, 0x80, 0x01, 0x00, 0xfd, 0xb7 };

/* auipc, jalr (the pair) to c.bnez (not taken), c.jr back to the ecall, the
 * return after it (0x1000c) with c.bnez taken, c.j to the auipc; a ninth
 * line so that the window's eighth has a next. */
static const char rv_log[] = RV("10000") "main\n" RV("10004") "main\n" RV("1000c") "main\n" RV("1000e") "main\n"
			     RV("10008") "main\n" RV("1000c") "main\n" RV("10012") "main\n" RV("10000") "main\n"
			     RV("10004") "main\n";

static int rv_image(struct tc_image *img)
{
	memset(img, 0, sizeof *img);
	return tc_image_add(img, 0x10000, rv_code, sizeof rv_code);
}

static void test_classify_rv(void)
{
	struct tc_execlog_entry *e = NULL;
	struct tc_image img;
	struct tc_exec x;
	size_t n = 0;
	char err[300];
	if (rv_image(&img) || parse(rv_log, tc_exec_family_rv64, &e, &n, err, sizeof err)) {
		ok(0, "the hand-made RV64 image and log: %s", err);
		return;
	}
	ok(tc_exec_classify(e, n, 0, 8, &img, "log", &x, err, sizeof err) == 0 && x.n == 8, "eight RV64 instructions: %s",
	   err);
	if (x.n == 8) {
		const struct tc_exec_insn *i = x.insn;
		ok(i[0].upper && i[0].type == tc_insn_other && i[0].size == 4 && i[0].isa == tc_isa_rv64,
		   "auipc: other, an upper instruction, 4 bytes");
		ok(i[1].type == tc_insn_branch_indir && i[1].pair && i[1].taken && i[1].next == 0x1000c,
		   "jalr after the auipc that wrote t0: indirect, a pair, to 0x1000c");
		ok(i[2].type == tc_insn_branch_dir && i[2].cond && !i[2].taken && i[2].size == 2,
		   "c.bnez to the next: a conditional branch not taken, 2 bytes");
		ok(i[3].type == tc_insn_branch_indir && !i[3].pair && i[3].taken && i[3].next == 0x10008,
		   "c.jr ra: indirect, no pair (c.bnez before it), to 0x10008");
		ok(i[4].svc && !i[4].taken && i[4].type == tc_insn_other && i[4].next == 0x1000c,
		   "ecall: a system call, the next instruction after it");
		ok(i[5].cond && i[5].taken && i[5].next == 0x10012, "c.bnez taken to 0x10012");
		ok(i[6].type == tc_insn_branch_dir && !i[6].cond && i[6].taken && i[6].next == 0x10000,
		   "c.j: a jump (dir, not conditional), taken");
		ok(i[7].upper && i[7].has_next && i[7].next == 0x10004, "the window's last: auipc, its next from the log");
	}
	tc_exec_free(&x);
	ok(tc_exec_classify(e, n, 1, 1, &img, "log", &x, err, sizeof err) == 0 && x.n == 1 && !x.insn[0].pair,
	   "the jalr first in its window: no pair (the auipc is not in the window)");
	tc_exec_free(&x);
	free(e);
	static const char *const refused[][2] = {
		{ RV("10000") "\n" RV("10008") "\n", "log:1: the instruction at 0x10000 is not a branch, yet the next one is at 0x10008" },
		{ RV("10000") "\n" RV("10004") "\n" RV("10010") "\n",
		  "log:2: the jump at 0x10004 goes to 0x1000c by the upper instruction before it, yet the next instruction is at 0x10010" },
		{ RV("10012") "\n" RV("10004") "\n", "log:1: the direct branch at 0x10012 goes to 0x10000, yet the next instruction is at 0x10004" },
		{ RV("10008") "\n" RV("10000") "\n", "log:1: the instruction at 0x10008 is not a branch, yet the next one is at 0x10000" },
		{ RV("20000") "\n", "log:1: no image bytes for the instruction at 0x20000" },
	};
	for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
		if (parse(refused[k][0], tc_exec_family_rv64, &e, &n, err, sizeof err)) {
			ok(0, "refusal %zu: its log: %s", k, err);
			continue;
		}
		ok(tc_exec_classify(e, n, 0, n, &img, "log", &x, err, sizeof err) == -1 && strstr(err, refused[k][1]),
		   "refused: '%s'", err);
		free(e);
	}
	static const uint8_t ebreak[] = { 0x73, 0x00, 0x10, 0x00 };
	struct tc_image img2;
	memset(&img2, 0, sizeof img2);
	if (!tc_image_add(&img2, 0x10000, ebreak, sizeof ebreak) && !parse(RV("10000") "\n", tc_exec_family_rv64, &e, &n, err, sizeof err)) {
		ok(tc_exec_classify(e, n, 0, 1, &img2, "log", &x, err, sizeof err) == -1 &&
		   strstr(err, "log:1: the instruction at 0x10000 (0x100073) is a trap, which user mode does not execute past"),
		   "ebreak: refused: '%s'", err);
		free(e);
	}
	tc_image_free(&img2);
	tc_image_free(&img);
}

/* The rvtrace L3 of the RV64 execution by hand (reference/L3FORMAT.md,
 * reference/rvtrace/ERRATA.md; offsets left out), from what the marks of a
 * protocol that reports a system call with the instruction after it say
 * (no_start_trace_on, svc_seen_after, a range ending after every
 * instruction a packet reports): no trace-on at the start; the context;
 * each instruction a range of its own here (every one of them ends a walk or
 * is a branch); the ecall's range ends at it (no branch: other) and its
 * exception, ecause 8, returns after it (0x1000c), where the range goes on
 * without a trace-on. */
static const char rv_l3[] =
	"context el=0 ns=0 sf=0 ctxid=0x0 vmid=0x0\n"
	"range first=0x10000 last=0x10000 n=1 isa=rv64 type=other taken=-\n"
	"range first=0x10004 last=0x10004 n=1 isa=rv64 type=indir taken=E\n"
	"range first=0x1000c last=0x1000c n=1 isa=rv64 type=dir taken=N\n"
	"range first=0x1000e last=0x1000e n=1 isa=rv64 type=indir taken=E\n"
	"range first=0x10008 last=0x10008 n=1 isa=rv64 type=other taken=-\n"
	"exception type=0x8 ret=0x1000c\n"
	"range first=0x1000c last=0x1000c n=1 isa=rv64 type=dir taken=E\n"
	"range first=0x10012 last=0x10012 n=1 isa=rv64 type=dir taken=E\n"
	"range first=0x10000 last=0x10000 n=1 isa=rv64 type=other taken=-\n";

/* The same execution as the rvtrace encoder's from_exec marks it (reference/rvtrace/ERRATA.md
 * RV-E6): the ecall's sync 01 carries tval 0 (RV-P23), and the te_support that ends the window
 * gives trace-off after the last range (RV-P24). */
static const char rv_l3_traced[] =
	"context el=0 ns=0 sf=0 ctxid=0x0 vmid=0x0\n"
	"range first=0x10000 last=0x10000 n=1 isa=rv64 type=other taken=-\n"
	"range first=0x10004 last=0x10004 n=1 isa=rv64 type=indir taken=E\n"
	"range first=0x1000c last=0x1000c n=1 isa=rv64 type=dir taken=N\n"
	"range first=0x1000e last=0x1000e n=1 isa=rv64 type=indir taken=E\n"
	"range first=0x10008 last=0x10008 n=1 isa=rv64 type=other taken=-\n"
	"exception type=0x8 ret=0x1000c tval=0x0\n"
	"range first=0x1000c last=0x1000c n=1 isa=rv64 type=dir taken=E\n"
	"range first=0x10012 last=0x10012 n=1 isa=rv64 type=dir taken=E\n"
	"range first=0x10000 last=0x10000 n=1 isa=rv64 type=other taken=-\n"
	"trace-off\n";

static int rv_exec(struct tc_exec *x, struct tc_execlog_entry **e, struct tc_image *img)
{
	size_t n = 0;
	char err[300];
	*e = NULL;
	return rv_image(img) || parse(rv_log, tc_exec_family_rv64, e, &n, err, sizeof err) ||
	       tc_exec_classify(*e, n, 0, 8, img, "log", x, err, sizeof err);
}

/* tc_exec_l3 under those marks: the ranges split where range_end says (the
 * first two instructions are not branches, yet each ends its range), the
 * ecall's exception without a trace-on; the window cut after the ecall:
 * no exception (the instruction after it is not in the window). */
static void test_l3_rv(void)
{
	struct tc_execlog_entry *e;
	struct tc_image img;
	struct tc_exec x;
	struct tc_exec_marks m;
	char want[sizeof rv_l3], *l3;
	memset(&m, 0, sizeof m);
	if (rv_exec(&x, &e, &img) || tc_exec_marks_alloc(&m, &x)) {
		ok(0, "the hand-made RV64 execution");
		return;
	}
	memset(m.range_end, 1, x.n);
	m.protocol = tc_proto_rvtrace;
	m.no_start_trace_on = 1;
	m.svc_seen_after = 1;
	m.svc_type = 8;
	l3 = tc_exec_l3(&x, &m);
	if (l3)
		strip_offsets(l3);
	ok(l3 && !strcmp(l3, rv_l3), "the RV64 execution's L3 under marks that report the ecall after it");
	if (l3 && strcmp(l3, rv_l3))
		note("got:\n%s", l3);
	free(l3);
	x.n = 5;   /* up to the ecall */
	memcpy(want, rv_l3, sizeof rv_l3);
	*strstr(want, "exception") = '\0';
	l3 = tc_exec_l3(&x, &m);
	if (l3)
		strip_offsets(l3);
	ok(l3 && !strcmp(l3, want), "a window ending at the ecall: no exception item");
	free(l3);
	memset(m.range_end, 0, 8);
	x.n = 2;   /* auipc, jalr: one range without range_end */
	l3 = tc_exec_l3(&x, &m);
	if (l3)
		strip_offsets(l3);
	ok(l3 && strstr(l3, "range first=0x10000 last=0x10004 n=2 isa=rv64 type=indir taken=E\n"),
	   "without range_end: auipc and jalr in one range");
	free(l3);
	x.n = 8;
	memset(m.range_end, 1, x.n);
	m.svc_has_tval = 1;   /* L3FORMAT.md "Optional fields": the exception's trap value as the trace gives it */
	m.svc_tval = 0x5;
	m.has_stop = 1;       /* the trace says it ended: trace-off at stop, after the last instruction */
	m.stop = 77;
	l3 = tc_exec_l3(&x, &m);
	ok(l3 && strstr(l3, " exception type=0x8 ret=0x1000c tval=0x5\n") &&
	   strlen(l3) >= 15 && !strcmp(l3 + strlen(l3) - 15, "\n@77 trace-off\n"),
	   "svc_has_tval: the exception with its tval; has_stop: trace-off at stop, the last line");
	if (l3 && !strstr(l3, "tval=0x5"))
		note("got:\n%s", l3);
	free(l3);
	tc_exec_marks_free(&m);
	tc_exec_free(&x);
	tc_image_free(&img);
	free(e);
}

/* The hand-made executions: each encoder with a from_exec traces the one of
 * its instruction set (its model's L3 is the log's, the hand-written one but
 * for the offsets) and refuses the other by name. */
struct hand {
	const char *what;
	int (*make)(struct tc_exec *x, struct tc_execlog_entry **e, struct tc_image *img);
	const char *l3;
	const char *protocol;   /* the encoders that trace it, each name followed by a blank */
};

/* Whether name is one of list's blank-terminated names. */
static int listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; *p; p = strchr(p, ' ') + 1)
		if (!strncmp(p, name, n) && p[n] == ' ')
			return 1;
	return 0;
}

/* Each model's family (its protocol's instruction sets: ETMv3, PTM, ETMv1 and ETMv2 trace
 * AArch32, A32 and T32; ETE A64; rvtrace RV64GC) and its refusal of an
 * execution whose first instruction is of another. */
static const struct {
	const char *protocol;
	int family;
	const char *refusal;
} models[] = {
	{ "etmv3", tc_exec_family_aarch32, "line 1: not AArch32: the etmv3 model traces A32 and T32 (a qemu-arm log)" },
	{ "ptm", tc_exec_family_aarch32, "line 1: not AArch32: the ptm model traces A32 and T32 (a qemu-arm log)" },
	{ "ete", tc_exec_family_a64, "line 1: not A64: the ete model traces A64 (a qemu-aarch64 log)" },
	{ "rvtrace", tc_exec_family_rv64, "line 1: not RV64: the rvtrace model traces RV64GC (a qemu-riscv64 log)" },
	{ "etmv1", tc_exec_family_aarch32, "line 1: not AArch32: the etmv1 model traces A32 and T32 (a qemu-arm log)" },
	{ "etmv2", tc_exec_family_aarch32, "line 1: not AArch32: the etmv2 model traces A32 and T32 (a qemu-arm log)" },
};

/* A model of the execution's family that refuses it on its own ground: ETMv1's and ETMv2's trace
 * A32 only (encoder/etmv1/e1enc_exec.c, encoder/etmv2/e2enc_exec.c), and the AArch32 execution's
 * fifth instruction, bx lr, goes to T32. */
static const char *own_refusal(const char *protocol, const char *what)
{
	if (!strcmp(protocol, "etmv1") && !strcmp(what, "AArch32"))
		return "line 5: a branch to T32: the etmv1 model traces A32 only (Thumb is not modelled yet)";
	if (!strcmp(protocol, "etmv2") && !strcmp(what, "AArch32"))
		return "line 5: a branch to T32: the etmv2 model traces A32 only (Thumb is not modelled yet)";
	return NULL;
}

static const char *refusal_of(const char *protocol)
{
	for (size_t k = 0; k < sizeof models / sizeof models[0]; k++)
		if (!strcmp(models[k].protocol, protocol))
			return models[k].refusal;
	return NULL;
}

/* Every encoder with a from_exec states its model's family, and gen
 * --from-exec reads logs as that. */
static void test_families(void)
{
	for (int i = 0; tc_encoders[i]; i++) {
		int want = -1;
		if (!tc_encoders[i]->from_exec)
			continue;
		for (size_t k = 0; k < sizeof models / sizeof models[0]; k++)
			if (!strcmp(models[k].protocol, tc_encoders[i]->protocol))
				want = models[k].family;
		ok(want == tc_encoders[i]->exec_family, "%s: from_exec's family is %s", tc_encoders[i]->protocol,
		   tc_exec_family_name(want));
	}
}

static void from_exec_one(const struct tc_encoder *enc, const struct hand *h, char *want)
{
	struct tc_execlog_entry *e;
	struct tc_image img;
	struct tc_exec x;
	struct tc_exec_marks m;
	struct tc_enc_result r;
	char err[300], *l3;
	int mine = listed(h->protocol, enc->protocol);
	err[0] = '\0';
	memset(&m, 0, sizeof m);
	if (h->make(&x, &e, &img) || tc_exec_marks_alloc(&m, &x)) {
		ok(0, "%s: the hand-made %s execution", enc->protocol, h->what);
		return;
	}
	if (!mine) {
		const char *refusal = own_refusal(enc->protocol, h->what) ? own_refusal(enc->protocol, h->what) :
				      refusal_of(enc->protocol);
		ok(refusal && enc->from_exec(&x, &r, &m, err, sizeof err) == -1 && !strcmp(err, refusal),
		   "%s: the %s execution refused: '%s'", enc->protocol, h->what, err);
	} else {
		ok(enc->from_exec(&x, &r, &m, err, sizeof err) == 0 && r.trace_len > 0 && r.l1 && r.l3,
		   "%s: from_exec traces the %s execution: %s", enc->protocol, h->what, err);
		l3 = tc_exec_l3(&x, &m);
		ok(l3 && r.l3 && !strcmp(l3, r.l3), "%s: the model's L3 is the log's", enc->protocol);
		if (l3)
			strip_offsets(l3);
		ok(l3 && !strcmp(l3, want), "%s: the log's L3 is the hand-written one but for the offsets", enc->protocol);
		if (l3 && strcmp(l3, want))
			note("got:\n%s", l3);
		free(l3);
		tc_enc_result_free(&r);
		x.n = 0;
		ok(enc->from_exec(&x, &r, &m, err, sizeof err) == -1 && strstr(err, "no instruction"),
		   "%s: no instruction: refused: '%s'", enc->protocol, err);
	}
	tc_exec_marks_free(&m);
	tc_exec_free(&x);
	tc_image_free(&img);
	free(e);
}

static void test_from_exec(void)
{
	static char arm_want[sizeof exec_l3];
	memcpy(arm_want, exec_l3, sizeof exec_l3);
	strip_offsets(arm_want);
	const struct hand hands[] = {
		{ "AArch32", hand_exec, arm_want, "etmv3 ptm " },
		{ "RV64", rv_exec, rv_l3_traced, "rvtrace " },
	};
	for (size_t k = 0; k < sizeof hands / sizeof hands[0]; k++) {
		int traced = 0, want = 0;
		for (const char *p = hands[k].protocol; *p; p++)
			want += *p == ' ';
		for (int i = 0; tc_encoders[i]; i++)
			if (tc_encoders[i]->from_exec) {
				traced += listed(hands[k].protocol, tc_encoders[i]->protocol);
				from_exec_one(tc_encoders[i], &hands[k], (char *)hands[k].l3);
			}
		ok(traced == want, "the %s execution: each encoder of '%s' has a from_exec", hands[k].what, hands[k].protocol);
	}
}

/* The first four instructions of the hand-made execution (mov, bl, f's bx lr, svc: A32 only) as
 * ETMv1's model traces them: the L3 by hand as exec_l3's first lines, the context ETMv1's (a
 * Context ID, no security state), the svc the window's last: no trace-on after its exception. */
static const char etmv1_a32_l3[] =
	"trace-on\n"
	"context el=0 ns=0 sf=0 ctxid=0x0 vmid=0x0\n"
	"range first=0x1000 last=0x1004 n=2 isa=a32 type=dir taken=E\n"
	"range first=0x1010 last=0x1010 n=1 isa=a32 type=indir taken=E\n"
	"range first=0x1008 last=0x1008 n=1 isa=a32 type=other taken=-\n"
	"exception type=0xa ret=0x100c\n";

static int hand_exec_a32(struct tc_exec *x, struct tc_execlog_entry **e, struct tc_image *img)
{
	size_t n = 0;
	char err[300];
	*e = NULL;
	return image(img) || parse(exec_log, tc_exec_family_aarch32, e, &n, err, sizeof err) ||
	       tc_exec_classify(*e, n, 0, 4, img, "log", x, err, sizeof err);
}

static const struct tc_encoder *encoder(const char *name);

/* ETMv1's model and ETMv2's (the same context: a Context ID, no security state). */
static void test_etmv1_a32(void)
{
	static const char *const names[] = { "etmv1", "etmv2" };
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		const struct tc_encoder *enc = encoder(names[k]);
		char mine[16];
		snprintf(mine, sizeof mine, "%s ", names[k]);
		const struct hand h = { "A32", hand_exec_a32, etmv1_a32_l3, mine };
		if (!enc || !enc->from_exec) {
			ok(0, "%s: an encoder with from_exec", names[k]);
			continue;
		}
		from_exec_one(enc, &h, (char *)h.l3);
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
	    parse(log, tc_exec_family_aarch32, &e, &n, err, sizeof err) || tc_exec_classify(e, n, 0, 2, &img, "log", &x, err, sizeof err) ||
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
	if (tc_image_add(&img, 0x400000, a64_code, sizeof a64_code) || parse(log, tc_exec_family_a64, &e, &n, err, sizeof err) ||
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
	test_parse_rv();
	test_parse_errors();
	test_parse_a64();
	test_parse_family();
	test_classify();
	test_l3_and_pages();
	test_classify_rv();
	test_l3_rv();
	test_from_exec();
	test_families();
	test_etmv1_a32();
	test_ptm_packets();
	test_isb();
	test_ete_exec();
	return tap_finish();
}
