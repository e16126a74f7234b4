/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_ete.h — ETE's configuration header of the fuzz inputs of fuzz/ete/ (its harnesses were written before the descriptor's key table). */
#ifndef TC_FUZZ_ETE_H
#define TC_FUZZ_ETE_H

#include "fuzz.h"
#include "tracecert/ete.h"

/* ---- The configuration header (3 bytes): ETE ------------------------------- */

#define TC_FUZZ_ETE_CFG_BYTES 3

/* Byte 0, one bit per flag: 0 commopt, 1 commtrans, 2 tsmark, 3 ite,
 * 4 rme, 5 tf_keep_cc, 6 wfxmode, 7 retstack.
 * Byte 1, maxspec: < 0xe0 → byte & 0x3f (0…63); ≥ 0xe0 → one of 32 larger
 *   values (boundaries up to 65535, fuzz_ete.c big_maxspec).
 * Byte 2: bits 3:0 q → queue_cap = maxspec + 64 (q=0), maxspec + q (1…14),
 *   0 = automatic, 4·(maxspec+1)+1024 (q=15);
 *   bits 7:4 t → tx_cap = 64 (t=0), t (1…13), 1024 (t=14), 0 = automatic
 *   65536 (t=15).
 * The common values are small queues: every decoder allocates its queues up
 * front (64 bytes an element), and under ASan a fresh multi-kilobyte calloc
 * per input costs more than decoding a short trace. Large values stay
 * reachable. walk_limit is left 0 (automatic); stage-3 harnesses set it. */
void tc_fuzz_ete_config(const uint8_t hdr[TC_FUZZ_ETE_CFG_BYTES], struct tc_ete_config *cfg);

/* Lowers queue capacities the trace cannot fill: len bytes give at most
 * 2·len+1 packets (parse.c checks it) of at most 64 elements each, so a
 * queue never holds more than 64·(2·len+1) elements, and any capacity above
 * that (and above maxspec) decodes identically. Saves allocating and zeroing
 * megabytes per input (the automatic tx_cap is 65536 elements of 64 bytes,
 * calloc'd by every decoder). */
void tc_fuzz_ete_fit_caps(struct tc_ete_config *cfg, size_t len);

/* The same from a number of packets (the trace of len bytes has at most
 * 2·len+1): a queue never holds more than 64·packets elements. */
void tc_fuzz_ete_fit_caps_packets(struct tc_ete_config *cfg, uint64_t packets);

/* The inverse, for seed corpora: 0 when cfg is represented exactly, -1
 * when some field was approximated. */
int tc_fuzz_ete_config_encode(const struct tc_ete_config *cfg, uint8_t hdr[TC_FUZZ_ETE_CFG_BYTES]);

#endif
