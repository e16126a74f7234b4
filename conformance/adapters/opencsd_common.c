/* SPDX-License-Identifier: BSD-3-Clause */
/* opencsd_common.c — OpenCSD (libopencsd 1.3.x, Debian libopencsd-dev) as a tracecert adapter: what every protocol shares.
 *
 * One shared object, libtc_opencsd.so, exports tracecert_adapter_v2 with
 * every protocol OpenCSD decodes that tracecert has: each protocol's file
 * conformance/adapters/opencsd_<protocol>.c says which of OpenCSD's
 * decoders it drives and how, and the build lists them in the tables of
 * oc_protocols.h (generated from PROTOCOLS by tools/gen-protocols.sh
 * --opencsd-header). This file is the plumbing they share: library setup,
 * the decode trees, the memory accessor over the runner's image, the raw
 * packet monitor, the datapath and 64-bit offsets. The protocol files map
 * OpenCSD's packets and generic elements onto tracecert's items; no
 * tracecert code is linked (item headers are filled here by hand).
 *
 * Only the installed OpenCSD C API is used (opencsd/c_api/opencsd_c_api.h,
 * -lopencsd_c_api -lopencsd); no OpenCSD source is part of tracecert.
 * TC_OCSD_DEBUG=1 in the environment prints OpenCSD's own packet and
 * element strings, memory requests and logged errors on stderr.
 *
 * Logged errors
 *   OpenCSD keeps the last error it logged (ocsd_get_last_err), and builds
 *   its text with C++ streams at every call of ocsd_get_last_err once an
 *   error exists: a protocol that asks about each packet would spend most
 *   of its time there. Its output logger instead hands each message to the
 *   adapter once, as it is logged (ocsd_def_errlog_set_strprint_cb): the
 *   handle counts them (errors_logged), so that a protocol asks OpenCSD
 *   only when the count has moved, and prints them with TC_OCSD_DEBUG=1.
 *
 * How OpenCSD is driven
 *   L1: a decode tree with the packet processor only
 *       (OCSD_CREATE_FLG_PACKET_PROC), the packet sink and the packet
 *       monitor (ocsd_dt_attach_packet_callback). The monitor hands over
 *       the raw bytes OpenCSD assigned to each packet: the header column is
 *       the first of them. Offsets are OpenCSD's packet indexes.
 *   L3: a second tree with the full decoder, a callback memory accessor
 *       over the runner's regions (any security state / EL) and the generic
 *       element output (and the monitor where a protocol wants to see the
 *       packets its decoder gets). Datapath: OCSD_OP_DATA, OCSD_OP_FLUSH
 *       after a WAIT response, OCSD_OP_EOT in finish(); after a fatal
 *       response the tree is reset (OCSD_OP_RESET) and decoding resumes at
 *       the next synchronisation.
 *
 * Offsets beyond 4 GiB
 *   The installed C API's ocsd_trc_index_t is 32 bits (opencsd/ocsd_if_types.h:
 *   uint32_t unless ENABLE_LARGE_TRACE_SOURCES is defined, which nothing in
 *   Debian's libopencsd-dev 1.3.3 does; the library is built to match). The
 *   adapter hands OpenCSD the low 32 bits of each block's 64-bit offset;
 *   OpenCSD's index arithmetic (block index + bytes consumed) wraps the same
 *   way, so every index it reports is the true offset modulo 2^32. The high
 *   part is restored by oc_unwrap() against the end of the bytes OpenCSD has
 *   been given so far (h->fed_end, advanced at every ocsd_dt_process_data
 *   call): the offset is the last one at or before that end with those low
 *   32 bits. This is exact as long as what OpenCSD reports lags less than
 *   4 GiB behind the bytes it was given (a packet, or an element waiting
 *   for its commit). conformance/test/opencsd_offsets.c tests it
 *   (tests/opencsd-offsets.t).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencsd_common.h"
#include "oc_protocols.h"   /* generated: OC_PROTOCOL_LIST, OC_ADAPTER_PROTOCOL_TABLE */

/* ---- offsets -------------------------------------------------------------- */

uint64_t oc_unwrap(uint64_t end, uint32_t index)
{
	uint32_t lag;
	if (end == 0)
		return OC_NO_OFFSET;
	lag = (uint32_t)(end - 1) - index;   /* modulo 2^32 */
	return lag > end - 1 ? OC_NO_OFFSET : end - 1 - lag;
}

ocsd_trc_index_t oc_index(uint64_t offset)
{
	return (ocsd_trc_index_t)(uint32_t)offset;
}

uint64_t oc_offset(const struct oc_handle *h, ocsd_trc_index_t index)
{
	uint64_t off = oc_unwrap(h->fed_end, (uint32_t)index);
	return off == OC_NO_OFFSET ? 0 : off;
}

/* ---- output and debugging ---------------------------------------------------- */

void oc_emit(struct oc_handle *h, int level, const struct tc_item *item)
{
	if (h->item && (h->levels & (unsigned)level))
		h->item(h->ctx, level, item);
}

uint8_t oc_header(const struct oc_handle *h, ocsd_trc_index_t index)
{
	return h->raw_valid && h->raw_index == index && h->raw_len > 0 ? h->raw[0] : 0;
}

void oc_debug_packet(const struct oc_handle *h, uint64_t offset, const void *pkt, uint8_t header)
{
	char buf[1024];
	if (!h->debug)
		return;
	ocsd_pkt_str(h->proto->ocsd_protocol, pkt, buf, (int)sizeof buf);
	fprintf(stderr, "ocsd-l1 @%llu [%u bytes, hdr %02x] %s\n", (unsigned long long)offset,
		h->raw_valid ? h->raw_len : 0, header, buf);
}

void oc_debug_elem(const struct oc_handle *h, uint64_t offset, ocsd_trc_index_t index,
		   const ocsd_generic_trace_elem *e)
{
	char buf[1024];
	if (!h->debug)
		return;
	ocsd_gen_elem_str(e, buf, (int)sizeof buf);
	fprintf(stderr, "ocsd-l3 @%llu (index %llu) %s\n", (unsigned long long)offset, (unsigned long long)index, buf);
}

/* The packet monitor: the raw bytes of each packet (its first byte is the
 * header column), and the protocol's look at the packet on the L3 tree. */
static void monitor(const void *ctx, const ocsd_datapath_op_t op, const ocsd_trc_index_t index, const void *pkt,
		    const uint32_t size, const uint8_t *data)
{
	struct oc_handle *h = (struct oc_handle *)ctx;
	if (op != OCSD_OP_DATA || !data || size == 0)
		return;
	h->raw_index = index;
	h->raw_len = size < sizeof h->raw ? size : (uint32_t)sizeof h->raw;
	memcpy(h->raw, data, h->raw_len);
	h->raw_valid = 1;
	if (h->proto->l3_monitor && pkt)
		h->proto->l3_monitor(h, oc_offset(h, index), pkt);
}

/* ---- memory: the runner's image ------------------------------------------------ */

static uint32_t mem_read(const void *ctx, const ocsd_vaddr_t address, const ocsd_mem_space_acc_t space,
			 const uint32_t req, uint8_t *buf)
{
	const struct oc_handle *h = ctx;
	if (h->debug)
		fprintf(stderr, "ocsd-mem 0x%llx %u space 0x%x\n", (unsigned long long)address, req, (unsigned)space);
	for (size_t i = 0; i < h->nregions; i++) {
		const struct tc_adapter_region *r = &h->regions[i];
		if (address >= r->base && address - r->base < r->size) {
			uint64_t avail = r->size - (address - r->base);
			uint32_t n = avail < req ? (uint32_t)avail : req;
			memcpy(buf, r->data + (address - r->base), n);
			return n;
		}
	}
	return 0;
}

/* ---- decode trees ------------------------------------------------------------ */

/* ocsd_dt_attach_packet_callback takes its function as a void pointer. */
static void *fn_ptr_sink(FnDefPktDataIn fn)
{
	void *p;
	memcpy(&p, &fn, sizeof p);
	return p;
}

static void *fn_ptr_mon(FnDefPktDataMon fn)
{
	void *p;
	memcpy(&p, &fn, sizeof p);
	return p;
}

/* The L1 tree's callbacks: the packet sink and the monitor. */
static ocsd_err_t attach_l1(struct oc_handle *h, dcd_tree_handle_t t, unsigned char csid)
{
	ocsd_err_t rc = ocsd_dt_attach_packet_callback(t, csid, OCSD_C_API_CB_PKT_SINK, fn_ptr_sink(h->proto->l1_packet), h);
	if (rc == OCSD_OK)
		rc = ocsd_dt_attach_packet_callback(t, csid, OCSD_C_API_CB_PKT_MON, fn_ptr_mon(monitor), h);
	return rc;
}

/* The memory accessors: OpenCSD refused every range that did not run from an even address to
 * an odd one (OCSD_ERR_MEM_ACC_BAD_LEN; probes: 1, 3, 5 and 7 bytes from an even address, 4
 * from an odd one), so each region is widened to whole halfwords, and regions (sorted by
 * address) whose widened ranges overlap share one accessor. mem_read answers from the
 * regions' own bytes only: the widening adds none. */
static ocsd_err_t add_memory(struct oc_handle *h, dcd_tree_handle_t t)
{
	ocsd_err_t rc = OCSD_OK;
	size_t i = 0;
	while (i < h->nregions && rc == OCSD_OK) {
		ocsd_vaddr_t lo = h->regions[i].base & ~(ocsd_vaddr_t)1;
		ocsd_vaddr_t hi = (h->regions[i].base + h->regions[i].size - 1) | 1;
		for (i++; i < h->nregions && (h->regions[i].base & ~(ocsd_vaddr_t)1) <= hi; i++) {
			ocsd_vaddr_t end = (h->regions[i].base + h->regions[i].size - 1) | 1;
			hi = end > hi ? end : hi;
		}
		rc = ocsd_dt_add_callback_mem_acc(t, lo, hi, OCSD_MEM_SPACE_ANY, mem_read, h);
	}
	return rc;
}

/* The L3 tree's element output, memory accessors and (if asked) monitor. */
static ocsd_err_t attach_l3(struct oc_handle *h, dcd_tree_handle_t t, unsigned char csid)
{
	ocsd_err_t rc = ocsd_dt_set_gen_elem_outfn(t, h->proto->l3_elem, h);
	if (rc == OCSD_OK && h->proto->l3_monitor)
		rc = ocsd_dt_attach_packet_callback(t, csid, OCSD_C_API_CB_PKT_MON, fn_ptr_mon(monitor), h);
	if (rc == OCSD_OK)
		rc = add_memory(h, t);
	return rc;
}

static dcd_tree_handle_t make_tree(struct oc_handle *h, int full, char *err, size_t errlen)
{
	unsigned char ocsd_cfg[512];   /* the protocol's ocsd_*_cfg: a few registers */
	unsigned char csid = 0;
	ocsd_err_t rc;
	dcd_tree_handle_t t = ocsd_create_dcd_tree(OCSD_TRC_SRC_SINGLE, 0);
	if (t == C_API_INVALID_TREE_HANDLE) {
		snprintf(err, errlen, "ocsd_create_dcd_tree failed");
		return NULL;
	}
	if (h->proto->ocsd_config_size > sizeof ocsd_cfg) {
		snprintf(err, errlen, "OpenCSD configuration larger than the adapter expects");
		ocsd_destroy_dcd_tree(t);
		return NULL;
	}
	memset(ocsd_cfg, 0, sizeof ocsd_cfg);
	h->proto->make_config(h->cfg, ocsd_cfg);
	rc = ocsd_dt_create_decoder(t, h->proto->decoder,
				    full ? OCSD_CREATE_FLG_FULL_DECODER | (int)h->proto->full_flags : OCSD_CREATE_FLG_PACKET_PROC,
				    ocsd_cfg, &csid);
	if (rc == OCSD_OK)
		rc = full ? attach_l3(h, t, csid) : attach_l1(h, t, csid);
	if (rc != OCSD_OK) {
		char msg[128];
		ocsd_err_str(rc, msg, (int)sizeof msg);
		snprintf(err, errlen, "OpenCSD: %s", msg);
		ocsd_destroy_dcd_tree(t);
		return NULL;
	}
	return t;
}

/* ---- the adapter ------------------------------------------------------------ */

static void oc_close(void *handle)
{
	struct oc_handle *h = handle;
	if (!h)
		return;
	/* the logger keeps the callback of a tree: none after the trees */
	ocsd_def_errlog_config_output(C_API_MSGLOGOUT_FLG_NONE, NULL);
	if (h->l1)
		ocsd_destroy_dcd_tree(h->l1);
	if (h->l3)
		ocsd_destroy_dcd_tree(h->l3);
	if (h->state && h->proto->free_state)
		h->proto->free_state(h);
	free(h->state);
	free((void *)h->cfg);
	free(h->regions);
	free(h);
}

static const struct oc_protocol *find_protocol(int id)
{
	static const struct oc_protocol *const all[] = OC_PROTOCOL_LIST;
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (all[i]->protocol == id)
			return all[i];
	return NULL;
}

/* The arguments, before anything is allocated: 0, or -1 with err. */
static int check_args(const struct tc_adapter_open_args *a, const struct oc_protocol *p, char *err, size_t errlen)
{
	if (!a || !p) {
		snprintf(err, errlen, "protocol %d is not one this adapter decodes", a ? a->protocol : -1);
		return -1;
	}
	if (!a->config || a->config_size != p->config_size) {
		snprintf(err, errlen, "configuration of %zu bytes; this adapter was built with %zu",
			 a->config ? a->config_size : 0, p->config_size);
		return -1;
	}
	if (a->nregions > 0 && !a->regions) {
		snprintf(err, errlen, "no region table for %zu regions", a->nregions);
		return -1;
	}
	return p->check(a->config, a->levels, err, errlen);
}

/* The handle's copies of the configuration and of the non-empty regions. */
static int copy_args(struct oc_handle *h, const struct tc_adapter_open_args *a)
{
	void *cfg = malloc(h->proto->config_size);
	h->state = calloc(1, h->proto->state_size ? h->proto->state_size : 1);
	if (!cfg || !h->state) {
		free(cfg);
		return -1;
	}
	memcpy(cfg, a->config, h->proto->config_size);
	h->cfg = cfg;
	if (a->nregions == 0)
		return 0;
	h->regions = calloc(a->nregions, sizeof *h->regions);
	if (!h->regions)
		return -1;
	for (size_t i = 0; i < a->nregions; i++)
		if (a->regions[i].size > 0)
			h->regions[h->nregions++] = a->regions[i];
	return 0;
}

/* OpenCSD's output logger: one message it logged (an error, or with
 * TC_OCSD_DEBUG=1 any message at information level and above). */
static void on_log_message(const void *ctx, const char *msg, const int len)
{
	struct oc_handle *h = (struct oc_handle *)ctx;
	h->errors_logged++;
	if (h->debug && len > 0)
		fprintf(stderr, "%.*s", len, msg);
}

static void *oc_open(const struct tc_adapter_open_args *a, char *err, size_t errlen)
{
	const struct oc_protocol *p = a ? find_protocol(a->protocol) : NULL;
	struct oc_handle *h;
	if (check_args(a, p, err, errlen))
		return NULL;
	h = calloc(1, sizeof *h);
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	h->proto = p;
	h->ctx = a->ctx;
	h->item = a->item;
	h->levels = a->levels;
	h->debug = getenv("TC_OCSD_DEBUG") != NULL;
	if (copy_args(h, a)) {
		snprintf(err, errlen, "out of memory");
		oc_close(h);
		return NULL;
	}
	/* errors are kept (ocsd_get_last_err) and counted as they are logged
	 * (on_log_message); printed only when debugging. The output logger is
	 * made once a process (ocsd_def_errlog_init would make another each
	 * time): configuring it fails while there is none */
	ocsd_def_errlog_init(h->debug ? OCSD_ERR_SEV_INFO : OCSD_ERR_SEV_ERROR,
			     ocsd_def_errlog_config_output(C_API_MSGLOGOUT_FLG_NONE, NULL) != OCSD_OK);
	ocsd_def_errlog_config_output(C_API_MSGLOGOUT_FLG_NONE, NULL);
	if (((h->levels & tc_level_l1) && !(h->l1 = make_tree(h, 0, err, errlen))) ||
	    ((h->levels & tc_level_l3) && !(h->l3 = make_tree(h, 1, err, errlen)))) {
		oc_close(h);
		return NULL;
	}
	if (ocsd_def_errlog_set_strprint_cb(h->l1 ? h->l1 : h->l3, h, on_log_message) != OCSD_OK) {
		snprintf(err, errlen, "OpenCSD: ocsd_def_errlog_set_strprint_cb failed");
		oc_close(h);
		return NULL;
	}
	return h;
}

/* Pushes one block, whose first byte is at 64-bit offset `offset`, through
 * a tree: a WAIT response is answered with a FLUSH; a fatal response resets
 * the tree and skips the byte at fault. OpenCSD gets each piece's offset
 * modulo 2^32 (oc_index), h->fed_end the end of what it has been given. */
static int push(struct oc_handle *h, dcd_tree_handle_t t, uint64_t offset, const uint8_t *data, size_t len)
{
	size_t done = 0;
	unsigned stalled = 0;
	while (done < len) {
		uint32_t n = 0;
		uint32_t chunk = len - done > 0x10000000u ? 0x10000000u : (uint32_t)(len - done);
		ocsd_datapath_resp_t r;
		h->fed_end = offset + done + chunk;
		r = ocsd_dt_process_data(t, OCSD_OP_DATA, oc_index(offset + done), chunk, data + done, &n);
		done += n;
		if (h->debug)
			fprintf(stderr, "ocsd-resp %d (%u bytes at %llu)\n", (int)r, n, (unsigned long long)(offset + done));
		if (OCSD_DATA_RESP_IS_FATAL(r)) {
			/* OpenCSD gave up (e.g. "Address missing in Q packet"):
			 * the error is reported, the tree reset; decoding
			 * resumes at the next synchronisation */
			if (t == h->l3 && h->proto->l3_fatal)
				h->proto->l3_fatal(h, offset + done);
			ocsd_dt_process_data(t, OCSD_OP_RESET, 0, 0, NULL, NULL);
			if (n == 0)
				done++;
			continue;
		}
		stalled = n == 0 ? stalled + 1 : 0;
		if (stalled > 64)
			return -1;   /* no progress */
		if (OCSD_DATA_RESP_IS_WAIT(r)) {
			r = ocsd_dt_process_data(t, OCSD_OP_FLUSH, 0, 0, NULL, NULL);
			if (OCSD_DATA_RESP_IS_FATAL(r))
				return -1;
		} else if (n == 0 && done < len) {
			return -1;   /* no progress without a reason */
		}
	}
	return 0;
}

static int oc_feed(void *handle, const uint8_t *data, size_t len)
{
	struct oc_handle *h = handle;
	int rc = 0;
	if (!h || (!data && len > 0))
		return -1;
	if (len == 0)
		return 0;
	if (h->l1 && push(h, h->l1, h->fed, data, len))
		rc = -1;
	if (h->l3 && push(h, h->l3, h->fed, data, len))
		rc = -1;
	h->fed += len;
	h->fed_end = h->fed;
	return rc;
}

static int finish_tree(dcd_tree_handle_t t)
{
	ocsd_datapath_resp_t r = ocsd_dt_process_data(t, OCSD_OP_EOT, 0, 0, NULL, NULL);
	return OCSD_DATA_RESP_IS_FATAL(r) ? -1 : 0;
}

static int oc_finish(void *handle)
{
	struct oc_handle *h = handle;
	int rc = 0;
	if (!h)
		return -1;
	if (h->l1) {
		if (finish_tree(h->l1))
			rc = -1;
		if (h->proto->finish_l1)
			h->proto->finish_l1(h);
	}
	if (h->l3) {
		if (finish_tree(h->l3))
			rc = -1;
		if (h->proto->finish_l3)
			h->proto->finish_l3(h);
	}
	return rc;
}

/* Every protocol at L1 and L3, with the feature tags OpenCSD cannot decode:
 * each protocol's file says which and why. */
static const struct tc_adapter_protocol oc_protocols[] = OC_ADAPTER_PROTOCOL_TABLE;

static const struct tc_adapter opencsd_adapter = {
	TC_ADAPTER_ABI_VERSION,
	"opencsd",
	"OpenCSD " OCSD_VER_STRING,
	oc_protocols,
	sizeof oc_protocols / sizeof oc_protocols[0],
	oc_open,
	oc_feed,
	oc_finish,
	oc_close,
};

/* The one symbol the shared object exports (built with -fvisibility=hidden). */
__attribute__((visibility("default"))) const struct tc_adapter *tracecert_adapter_v2(void)
{
	return &opencsd_adapter;
}
