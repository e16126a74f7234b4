/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_ete.c — ETE's configuration header of the fuzz inputs (fuzz_ete.h): three bytes to a struct tc_ete_config and back. */
#include "fuzz_ete.h"

/* maxspec values for byte 1 ≥ 0xe0: powers of two and their neighbours,
 * and the top of the range. Rare on purpose: a decoder allocates a
 * resolution queue of more than maxspec elements up front. */
static const uint32_t big_maxspec[32] = {
	64, 127, 128, 255, 256, 511, 512, 1023, 1024, 1025, 2047, 2048, 4095, 4096, 8191, 8192,
	16383, 16384, 32767, 32768, 100, 65000, 65471, 65472, 65519, 65520, 65527, 65528, 65531, 65533, 65534, 65535,
};

void tc_fuzz_ete_config(const uint8_t hdr[TC_FUZZ_ETE_CFG_BYTES], struct tc_ete_config *cfg)
{
	uint8_t f = hdr[0], q = hdr[2] & 0x0f, t = hdr[2] >> 4;
	tc_ete_config_default(cfg);
	cfg->commopt = f & 1;
	cfg->commtrans = (f >> 1) & 1;
	cfg->tsmark = (f >> 2) & 1;
	cfg->ite = (f >> 3) & 1;
	cfg->rme = (f >> 4) & 1;
	cfg->tf_keep_cc = (f >> 5) & 1;
	cfg->wfxmode = (f >> 6) & 1;
	cfg->retstack = (f >> 7) & 1;
	cfg->maxspec = hdr[1] < 0xe0 ? hdr[1] & 0x3fu : big_maxspec[hdr[1] & 0x1f];
	cfg->queue_cap = q == 0 ? cfg->maxspec + 64 : q == 15 ? 0 : cfg->maxspec + q;
	cfg->tx_cap = t == 0 ? 64 : t == 14 ? 1024 : t == 15 ? 0 : t;
}

int tc_fuzz_ete_config_encode(const struct tc_ete_config *cfg, uint8_t hdr[TC_FUZZ_ETE_CFG_BYTES])
{
	uint32_t ms = cfg->maxspec;
	int exact = 1, i;
	hdr[0] = (uint8_t)((cfg->commopt & 1) | (cfg->commtrans & 1) << 1 | (cfg->tsmark & 1) << 2 |
			   (cfg->ite & 1) << 3 | (cfg->rme & 1) << 4 | (cfg->tf_keep_cc & 1) << 5 |
			   (cfg->wfxmode & 1) << 6 | (cfg->retstack & 1) << 7);
	if (ms < 64) {
		hdr[1] = (uint8_t)ms;
	} else {
		for (i = 0; i < 32 && big_maxspec[i] != ms; i++)
			;
		hdr[1] = (uint8_t)(0xe0 | (i < 32 ? i : 31));
		exact &= i < 32;
	}
	ms = cfg->maxspec;
	if (cfg->queue_cap == 0)
		hdr[2] = 15;
	else if (cfg->queue_cap == ms + 64)
		hdr[2] = 0;
	else if (cfg->queue_cap > ms && cfg->queue_cap - ms < 15)
		hdr[2] = (uint8_t)(cfg->queue_cap - ms);
	else {
		hdr[2] = 15;
		exact = 0;
	}
	if (cfg->tx_cap == 0)
		hdr[2] |= 15 << 4;
	else if (cfg->tx_cap == 64)
		;
	else if (cfg->tx_cap == 1024)
		hdr[2] |= 14 << 4;
	else if (cfg->tx_cap < 14)
		hdr[2] |= (uint8_t)(cfg->tx_cap << 4);
	else {
		hdr[2] |= 15 << 4;
		exact = 0;
	}
	return exact ? 0 : -1;
}

void tc_fuzz_ete_fit_caps(struct tc_ete_config *cfg, size_t len)
{
	tc_fuzz_ete_fit_caps_packets(cfg, 2 * (uint64_t)len + 1);
}

void tc_fuzz_ete_fit_caps_packets(struct tc_ete_config *cfg, uint64_t packets)
{
	uint64_t most = 64 * (packets ? packets : 1);   /* elements the trace can produce */
	uint64_t fit = most > cfg->maxspec ? most : (uint64_t)cfg->maxspec + 1;
	uint64_t rq = cfg->queue_cap ? cfg->queue_cap : 4 * ((uint64_t)cfg->maxspec + 1) + 1024;
	uint64_t tq = cfg->tx_cap ? cfg->tx_cap : 65536;
	if (rq > fit)
		cfg->queue_cap = (uint32_t)fit;
	if (tq > most)
		cfg->tx_cap = (uint32_t)most;
}
