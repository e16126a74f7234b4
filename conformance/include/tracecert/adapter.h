/* tracecert/adapter.h — the adapter ABI: how a third-party decoder is wrapped for `tracecert certify`.
 *
 * An adapter is a shared object exporting one function,
 *
 *     const struct tc_adapter *tracecert_adapter_v1(void);
 *
 * returning a static table. The runner dlopen()s the object, checks
 * abi_version, and for each vector (in a child process with CPU, memory and
 * output limits) calls open → feed (one or more times) → finish → close.
 * Decoded items come back through the callbacks as the canonical structs of
 * tracecert/ete.h; the runner formats them with tc_ete_format_packet /
 * tc_ete_format_l3 and compares them with the vector (reference/FORMAT.md).
 * conformance/adapters/reference.c is a complete example.
 *
 * Rules:
 * - Report only what the decoder itself produced. A field the decoder does
 *   not provide makes the level unsupported (say so in `levels`) rather than
 *   being filled in from elsewhere.
 * - Errors are reported in-band at L1 as a packet of kind tc_ete_pkt_error
 *   with the error class (tc_ete_error) and the offset of the offending
 *   packet's first byte; at L3 as an item of kind tc_l3_error.
 * - Warnings (tc_ete_pkt_warning: bits the specification leaves
 *   unassigned, ignored) are never scored: an adapter may report them or
 *   not; the runner drops them from both sides.
 * - feed() may be called with any chunking; offsets count from the first
 *   byte of the first feed.
 * - Every function returns 0 on success or a negative value on failure; a
 *   failure is reported per vector (class "adapter error"), never fatal to
 *   the run.
 */
#ifndef TRACECERT_ADAPTER_H
#define TRACECERT_ADAPTER_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/ete.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TC_ADAPTER_ABI_VERSION 1
#define TC_ADAPTER_ENTRY "tracecert_adapter_v1"

/* Protocols (bit masks in tc_adapter.protocols). */
enum tc_adapter_protocol { tc_adapter_ete = 1 };

/* Levels (bit masks in tc_adapter.levels and tc_adapter_open_args.levels). */
enum tc_adapter_level { tc_adapter_l1 = 1, tc_adapter_l3 = 4 };

/* One region of the program image, valid until close(). */
struct tc_adapter_region {
	uint64_t base;
	uint64_t size;
	const uint8_t *data;
};

struct tc_adapter_callbacks {
	void *ctx;
	void (*packet)(void *ctx, const struct tc_ete_packet *p);   /* L1 */
	void (*l3)(void *ctx, const struct tc_l3 *x);           /* L3 */
};

struct tc_adapter_open_args {
	uint32_t abi_version;                 /* TC_ADAPTER_ABI_VERSION of the runner */
	int protocol;                         /* enum tc_adapter_protocol */
	const struct tc_ete_config *ete;      /* protocol == tc_adapter_ete */
	const struct tc_adapter_region *regions;
	size_t nregions;
	unsigned levels;                      /* what the runner asks for this run */
	struct tc_adapter_callbacks cb;
};

struct tc_adapter {
	uint32_t abi_version;                 /* TC_ADAPTER_ABI_VERSION */
	const char *name;
	const char *version;
	unsigned protocols;                   /* enum tc_adapter_protocol bits */
	unsigned levels;                      /* enum tc_adapter_level bits supported */
	/* Vector feature tags the decoder does not support (NULL-terminated, or
	 * NULL): vectors carrying one count as "unsupported", not as failures. */
	const char *const *unsupported_tags;
	/* Opens a decoder; NULL with a message in err on failure. */
	void *(*open)(const struct tc_adapter_open_args *args, char *err, size_t errlen);
	int (*feed)(void *handle, const uint8_t *data, size_t len);
	int (*finish)(void *handle);          /* end of trace: flush everything */
	void (*close)(void *handle);
};

typedef const struct tc_adapter *(*tc_adapter_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
