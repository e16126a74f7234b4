/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_measure.h — what `tracecert bench` measures: a protocol's workload from its encoder, decoders run through their adapters in child processes (each loads the adapter: bench never does), run by run, and the pieces of a trace a crashing decoder survives. */
#ifndef TC_BENCH_MEASURE_H
#define TC_BENCH_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "bench_child.h"
#include "tracecert/adapter.h"
#include "tracecert/encoder.h"
#include "tracecert/protocol.h"

#define TC_BENCH_CHUNK 65536    /* bytes per feed() */
#define TC_BENCH_MAX_RUNS 16    /* --runs beyond this count as this many */
#define TC_BENCH_SEED 42
#define TC_BENCH_STEPS 100000   /* the encoders' largest request */
#define TC_BENCH_BLOCKS 4096

/* One protocol's workload: one long generated trace (its configuration and
 * image in v), fed again and again until `total` bytes went in. */
struct tc_bench_workload {
	const struct tc_protocol *proto;
	const struct tc_encoder *enc;
	struct tc_enc_result v;
	const uint8_t *trace;       /* the bytes fed repeatedly: v.trace, or a part of it */
	size_t trace_len;
	size_t total;               /* bytes to feed */
	unsigned timeout_s;         /* wall-clock seconds a child feeding it may take; 0: 60 + 4 per MiB fed */
	/* A per-cycle sample protocol's trace (tc_protocol.cycle_port_width_key):
	 * a file with a header, not a stream that can go on from its end to its
	 * start; each time the trace is fed from its start again, the decoder
	 * of the one before is finished and closed and a new one opened (a
	 * run times them all). 0 for a byte stream. */
	int whole_files;
	unsigned port_width;        /* tc_bench_workload_make_port's: the port width, and */
	uint64_t cycles;            /* the sample records (core cycles) of the `total` bytes fed */
};

/* The workload of enc: seed TC_BENCH_SEED, TC_BENCH_STEPS steps,
 * TC_BENCH_BLOCKS blocks, the protocol's default configuration with the
 * encoder's bench_config keys, fed mb MiB. 0, or -1 with err. */
int tc_bench_workload_make(struct tc_bench_workload *w, const struct tc_encoder *enc, unsigned long mb, char *err,
			   size_t errlen);
/* The same with another step count (1..TC_BENCH_STEPS): what each step is
 * differs between the encoders (a retired instruction, a basic block). */
int tc_bench_workload_make_steps(struct tc_bench_workload *w, const struct tc_encoder *enc, unsigned steps,
				 unsigned long mb, char *err, size_t errlen);
/* A per-cycle sample protocol's workload at one port width: the workload of
 * tc_bench_workload_make with the protocol's port width key set to
 * port_width over the encoder's bench_config, `total` a whole number of
 * traces (at least mb MiB) and `cycles` their records
 * (tc_cyclecap_record_count). 0, or -1 with err (also for a protocol whose
 * trace is a byte stream). */
int tc_bench_workload_make_port(struct tc_bench_workload *w, const struct tc_encoder *enc, unsigned port_width,
				unsigned long mb, char *err, size_t errlen);
void tc_bench_workload_free(struct tc_bench_workload *w);

/* What the encoder's own L3 (its ground truth, v.l3, read by the one L3
 * text parser) says of the workload's trace, read once: the instructions
 * of its ranges, the ranges whose last instruction is a branch (type dir
 * or indir), the ISAs of its ranges (bit 1 << enum tc_isa), and the lines
 * that are not L3 items. */
struct tc_bench_truth {
	uint64_t insns;
	uint64_t branches;
	unsigned isas;
	unsigned long unparsed;
};
void tc_bench_truth_count(const struct tc_bench_workload *w, struct tc_bench_truth *t);

/* An adapter as bench knows it: its file, and what a child that loaded it
 * declared (bench itself never loads it). */
#define TC_BENCH_PROTOCOLS_MAX 16
struct tc_bench_adapter {
	const char *path;           /* NULL: none given (its column says "not installed") */
	const char *option;         /* the option that named it, for messages */
	struct tc_bench_outcome load;   /* ok, or why it was not loaded (crashed, exited, hung, no adapter) */
	int nprotocols;
	int protocol[TC_BENCH_PROTOCOLS_MAX];
	unsigned levels[TC_BENCH_PROTOCOLS_MAX];
};

/* Loads the adapter at a->path in a child (tc_bench_child_run, deadline
 * timeout_s) and reads what it declares: per protocol "ID LEVELS" frames
 * ('P'), then 'D'. Returns 0, or -1 with a->load saying why. */
int tc_bench_adapter_probe(struct tc_bench_adapter *a, unsigned timeout_s);

/* Whether the adapter declared the protocol at that level. */
int tc_bench_supports(const struct tc_bench_adapter *a, const struct tc_protocol *p, unsigned level);

/* One side of a paired measurement: an adapter, and whether its L3 items
 * are written as text by the one L3 text writer (tc_l3_format) into a
 * buffer, as `tracecert decode` writes them. */
struct tc_bench_side {
	const struct tc_bench_adapter *ad;   /* NULL, or ad->path NULL: not installed */
	int text;
};

/* What a figure counts: MB/s of trace, millions of instructions per
 * second (the L3 ranges' counts), or millions of core cycles per second
 * (a per-cycle sample workload's records, tc_bench_workload_make_port). */
enum tc_bench_unit { tc_bench_mbs, tc_bench_mips, tc_bench_mcps };

/* Both sides' median, min and max, and of the run-by-run ratios a / b. */
struct tc_bench_pair {
	double a[3], b[3], ratio[3];
	struct tc_bench_outcome oa, ob;   /* ok, or why the side has no figure */
};

/* Sides a and b alternately, run by run, each run in a child process that
 * loads the adapter and times its open, feed, finish and close (a decoder
 * that crashes, exits or hangs is reported, not fatal), so that the
 * machine's drift falls on both alike; the ratio is the median of the runs'
 * ratios. A side is not run again once it crashed or failed, nor at all
 * when it is not installed, was not loaded or does not list the protocol at
 * that level. */
void tc_bench_measure_pair(const struct tc_bench_side *a, const struct tc_bench_side *b,
			   const struct tc_bench_workload *w, unsigned level, enum tc_bench_unit unit, int runs,
			   struct tc_bench_pair *p);

/* Peak resident memory (KiB) of a child decoding mb MiB at L3; -1 with o
 * saying why. */
long tc_bench_peak_rss(const struct tc_bench_adapter *ad, const struct tc_bench_workload *w, unsigned long mb,
		       struct tc_bench_outcome *o);

/* For a decoder that crashes at L3 on the workload: *cut becomes the
 * workload without the pieces (tc_encoder.sync_points) it crashes in,
 * found one at a time, at most 64, in *buf (malloc'd, the caller frees).
 * Returns how many pieces were dropped (of *npieces), -1 when that did not
 * help, -2 when the encoder gives no sync points. */
long tc_bench_drop_crashing(const struct tc_bench_adapter *ad, const struct tc_bench_workload *w,
			    struct tc_bench_workload *cut, uint8_t **buf, size_t *npieces);

#endif
