/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/execlog.h — real executions as vectors: the one parser of qemu-user's per-instruction
 * execution log, the instructions it ran classified from the program image, the L3 that
 * execution gives, and the image pages it touches (every protocol's from_exec, tracecert/encoder.h). */
/* The log is what `qemu-arm -singlestep -d exec,nochain -D LOG ./prog`
 * (or qemu-riscv64) writes (QEMU 7.2): with -singlestep every translation
 * block is one instruction, and each executed block is one line
 *   Trace N: 0xHOST [FLAGS2/PC/FLAGS/CFLAGS] SYMBOL
 * (hexadecimal fields; SYMBOL may be empty). FLAGS2 and PC have the
 * target's word size: 8 digits for a 32-bit target (qemu-arm: AArch32, an
 * A32 or T32 instruction), 16 for a 64-bit one: qemu-aarch64 (A64; its
 * FLAGS2, the translation block's A64 flags, is not 0) or qemu-riscv64
 * (RV64GC; FLAGS2 0). PC is the instruction's address; for AArch32 bit 23 of
 * FLAGS2 is the Thumb state (QEMU's TBFLAG_AM32 THUMB field; its bits 31:24
 * are the IT state). Which of the three a log is, the caller states (the
 * protocol's instruction sets, the program's ELF e_machine): the reader
 * infers nothing from the fields, and refuses a line that is not of the
 * stated family's form. */
#ifndef TRACECERT_EXECLOG_H
#define TRACECERT_EXECLOG_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/image.h"
#include "tracecert/trace.h"

struct tc_enc_result;      /* tracecert/encoder.h */

#ifdef __cplusplus
extern "C" {
#endif

/* The instruction-set family of a log: what its lines are read as. */
enum tc_exec_family {
	tc_exec_family_none = 0,    /* no family (an encoder without from_exec; an ELF of no family) */
	tc_exec_family_aarch32,     /* qemu-arm: A32 and T32 (FLAGS2 bit 23), 8-digit FLAGS2 and PC */
	tc_exec_family_a64,         /* qemu-aarch64: A64, 16-digit FLAGS2 (not 0) and PC */
	tc_exec_family_rv64         /* qemu-riscv64: RV64GC, 16-digit FLAGS2 (0) and PC */
};

/* The family's name as messages give it ("AArch32", "A64", "RV64"). */
const char *tc_exec_family_name(int family);

/* The family of an ELF program: e_machine EM_ARM (40) with ELFCLASS32 AArch32,
 * EM_AARCH64 (183) with ELFCLASS64 A64, EM_RISCV (243) with ELFCLASS64 RV64
 * (elf_class: 1 32-bit, 2 64-bit); tc_exec_family_none for any other. */
int tc_exec_family_of_elf(unsigned machine, int elf_class);

/* One line of the log. */
struct tc_execlog_entry {
	uint64_t addr;              /* the instruction's address */
	uint8_t isa;                /* enum tc_isa, by the stated family: tc_isa_a32 or tc_isa_t32 (AArch32), tc_isa_a64, tc_isa_rv64 */
	uint8_t thumb;              /* T32 (Thumb state) */
	const char *sym;            /* the SYMBOL field, inside the parsed text (not NUL-terminated) */
	size_t symlen;
	size_t line;                /* its line number (1-based) */
};

/* Parses a whole log (len bytes of text; name for messages) of the given
 * family (enum tc_exec_family). Returns 0 with *out (malloc'd, *n entries),
 * or -1 with a message naming the file, the line number and the byte offset
 * of the line that is not a log line, or not one of the family's (what was
 * expected, and what the line is). */
int tc_execlog_parse(const char *text, size_t len, const char *name, int family, struct tc_execlog_entry **out,
		     size_t *n, char *err, size_t errlen);

/* The index of the first entry whose SYMBOL is sym, or n when none. */
size_t tc_execlog_find_symbol(const struct tc_execlog_entry *e, size_t n, const char *sym);

/* One executed instruction, classified from the image (reference/insn.c
 * for AArch32, reference/rvinsn.c as RV64GC for RISC-V). */
struct tc_exec_insn {
	uint64_t addr;
	uint8_t isa;                /* enum tc_isa: tc_isa_a64, tc_isa_a32, tc_isa_t32 or tc_isa_rv64 */
	uint8_t size;
	uint8_t type;               /* enum tc_insn_type (other, dir, indir) */
	uint8_t taken;              /* a branch whose next instruction is not the one after it */
	uint8_t svc;                /* a supervisor call (SVC, ecall): an exception returning to the next instruction */
	uint8_t isb;                /* an ISB (type other): a waypoint of the protocols whose marks say so */
	uint8_t cond;               /* RISC-V: a conditional branch (dir: beq…bgeu, c.beqz, c.bnez; else a jump) */
	uint8_t upper;              /* RISC-V: auipc, lui or c.lui (it writes a register a jump may read) */
	uint8_t pair;               /* RISC-V: an indirect jump whose rs1 the window's previous instruction, an
				     * upper one, wrote: its target is that one's value plus its offset
				     * (tc_rvinsn_pair_target), which the log's next instruction agrees with */
	uint64_t next;              /* the instruction executed after it (the log's next line) */
	uint8_t next_isa;
	uint8_t has_next;           /* 0 for the last line of the log */
	size_t line;                /* its line in the log */
};

struct tc_exec {
	struct tc_exec_insn *insn;
	size_t n;
};

/* Classifies entries[first .. first+count-1] (fewer when the log ends) from
 * the image: the size, type and outcome of each, system calls, RISC-V's
 * pairs (each entry by its isa). The log must agree with the image: a taken
 * direct branch goes to its target, a pair's jump to the pair's target, an
 * instruction that is not a branch or a system call is followed by the one
 * after it, and a RISC-V instruction is none that traps in user mode
 * (ebreak, an xRET, a reserved or long encoding); otherwise -1 with a
 * message naming the log line. 0 with *x
 * (free with tc_exec_free). */
int tc_exec_classify(const struct tc_execlog_entry *entries, size_t n, size_t first, size_t count,
		     const struct tc_image *img, const char *name, struct tc_exec *x, char *err, size_t errlen);
void tc_exec_free(struct tc_exec *x);

/* What every protocol's from_exec (tracecert/encoder.h) does first: x has
 * instructions, each of family's instruction sets, and r (zeroed) gets
 * r->cfg (cfg_size bytes) and r->variants (nvariants zeroed counters); with
 * state_size, *state is a zeroed block of that many bytes for the model.
 * Returns 0, or -1 with nothing allocated and err "no instruction to
 * trace", "out of memory" or "line N: not FAMILY: the MODEL model traces
 * SETS (a EMULATOR log)" for the first instruction of another family. */
int tc_exec_begin(const struct tc_exec *x, int family, const char *model, struct tc_enc_result *r, size_t cfg_size,
		  int nvariants, void **state, size_t state_size, char *err, size_t errlen);

/* Undoes tc_exec_begin when the model refuses the execution after it: frees
 * state (the block alone) and what r holds, and zeroes r. */
void tc_exec_abandon(struct tc_enc_result *r, void *state);

/* Where in its trace a protocol's trace-unit model put what a decoder
 * reports of the execution (each an offset of the trace), and the numbers
 * the L3 of the execution needs from the protocol. */
struct tc_exec_marks {
	int protocol;               /* enum tc_proto of the items */
	uint64_t start;             /* the packet where tracing starts, at insn[0] (trace-on) */
	uint64_t start_context;     /* the packet giving the first context; 0: start's */
	uint64_t *insn;             /* per instruction: the packet that traced it */
	uint64_t *exception;        /* per system call: its exception packet */
	uint64_t *resume;           /* per system call with a next instruction: tracing on again there */
	uint8_t *range_end;         /* per instruction: non-zero, a range ends after it (the packet that
				     * traced it ends the decoder's walk there), branch or not */
	uint8_t no_start_trace_on;  /* the trace's first packet gives no trace-on item */
	uint8_t svc_seen_after;     /* a system call is reported with the instruction after it: its exception
				     * only when the window goes on, and no trace-on there (the trace does not
				     * see the handler, which qemu-user runs itself) */
	struct tc_context ctx;      /* the context the trace reports (after the first trace-on) */
	uint16_t svc_type;          /* the protocol's exception type of a supervisor call */
	uint8_t isb_waypoint;       /* the protocol traces an ISB as a branch is (an atom): a range ends at it */
	size_t traced;              /* the instructions the trace shows, insn[0 .. traced-1]; 0: all
				     * (a protocol with no packet for a walk after the last branch) */
	uint8_t svc_has_tval;       /* a system call's exception gives a trap value, svc_tval (L3FORMAT.md
				     * "Optional fields"); 0: none */
	uint64_t svc_tval;
	uint8_t has_stop;           /* the trace says it ended after the last instruction: trace-off at stop */
	uint64_t stop;
};

/* Allocates the marks' arrays for x (zeroed); -1 when memory is short. */
int tc_exec_marks_alloc(struct tc_exec_marks *m, const struct tc_exec *x);
void tc_exec_marks_free(struct tc_exec_marks *m);

/* The L3 of the execution (reference/L3FORMAT.md), from the log's
 * instructions alone, with the offsets of m: trace-on (not with
 * no_start_trace_on), the context, ranges ending at every branch, where
 * m->range_end says, and at an ISB where m->isb_waypoint (type isb, E; an
 * ISB that fails its condition in an IT block is not told apart), each
 * system call an exception returning to the next instruction (with
 * svc_has_tval its trap value), tracing on again after it (the handler is
 * not traced); with svc_seen_after no trace-on there, and no exception for
 * a call that ends the window; with has_stop a trace-off at the end.
 * Returns malloc'd text, or NULL when memory is short. */
char *tc_exec_l3(const struct tc_exec *x, const struct tc_exec_marks *m);

/* The pages (page bytes each, a power of two) holding the bytes of x's
 * instructions, ascending, into *bases (malloc'd); returns how many, or -1. */
long tc_exec_pages(const struct tc_exec *x, uint64_t page, uint64_t **bases);

#ifdef __cplusplus
}
#endif

#endif
