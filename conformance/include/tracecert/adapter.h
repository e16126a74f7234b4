/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/adapter.h — the adapter ABI, version 2: how a third-party decoder of any protocol is wrapped for `tracecert certify`.
 *
 * An adapter is a shared object exporting one function,
 *
 *     const struct tc_adapter *tracecert_adapter_v2(void);
 *
 * returning a static table. The runner dlopen()s the object only in child
 * processes: one that reads the table (abi_version, protocols, levels,
 * tags), then one per vector and level, which loads the object again (its
 * constructors run each time) and calls open → feed (one or more times) →
 * finish → close, under CPU, wall-clock, memory, process and output limits.
 * The runner reads name, version and each tag at most 128 bytes far and
 * keeps them as valid UTF-8 text. What the adapter prints on stdout or
 * stderr is counted, never shown. conformance/adapters/reference.c is a complete example
 * for every protocol; conformance/adapters/opencsd_*.c wrap a third-party
 * library.
 *
 * Protocols, levels, features
 *   The table lists, per protocol it decodes (enum tc_protocol_id of
 *   tracecert/trace.h), the levels it produces (tc_level_l1, tc_level_l3)
 *   and the vector feature tags it does not support. A vector of a
 *   protocol the adapter does not list, at a level it does not list, or
 *   carrying a tag it lists, is "unsupported": not run, not a failure.
 *
 * Configuration
 *   open() gets the protocol's configuration struct (the struct
 *   tc_<name>_config of its header tracecert/<name>.h) as
 *   config and its size as config_size; an adapter refuses a size other
 *   than sizeof the struct it was built with (open fails with a message).
 *
 * Items
 *   Everything decoded comes back through one callback,
 *       item(ctx, level, item)
 *   with level tc_level_l1 and the protocol's packet record
 *   (struct tc_<name>_packet of tracecert/<name>.h), or level tc_level_l3
 *   and a struct tc_l3. Every item starts with struct tc_item:
 *   - size: sizeof the record (the runner checks it against the record of
 *     that protocol and level, as the runner was built);
 *   - protocol: the protocol opened (L3 items too: their error classes are
 *     that protocol's);
 *   - kind: a packet kind of the protocol (L1) or enum tc_l3_kind (L3);
 *   - offset: the byte offset of the first byte of the packet the item
 *     comes from, counted from the first byte of the first feed().
 *   An item that breaks any of these rules is not formatted or trusted:
 *   the run is an adapter-error for that vector ("malformed item"). The
 *   item is read only during the call.
 *
 * Rules
 * - Report only what the decoder itself produced. A field the decoder does
 *   not provide makes the level or the feature unsupported (say so in the
 *   table) rather than being filled in from elsewhere; never from the
 *   reference decoder.
 * - Errors are reported in-band: at L1 as the protocol's error packet
 *   (kind error, its error class and the offset of the offending packet's
 *   first byte), at L3 as an item of kind tc_l3_error.
 * - Warnings (bits the specification leaves unassigned, ignored) are never
 *   scored: an adapter may report them or not; the runner drops them.
 * - feed() may be called with any chunking. The runner feeds every trace in
 *   pieces of 1, 2, ..., TC_FEED_PIECE_MAX bytes in turn, so packets arrive
 *   cut at many points; a decoder must carry a packet's first bytes over to
 *   the next call.
 * - Every function returns 0 on success or a negative value on failure; a
 *   failure is reported per vector (class "adapter-error"), never fatal to
 *   the run. err of open() is NUL-terminated by the runner whatever the
 *   adapter leaves in it.
 *
 * ABI version 1 (tracecert_adapter_v1: one protocol, the first, a packet
 * and an L3 callback, that protocol's configuration struct in the open
 * arguments) is not supported any more: its structs changed layout when
 * every item got the struct tc_item header, so a v1 adapter built before
 * that would be misread. The runner refuses an object exporting tracecert_adapter_v1
 * with a message naming the ABI it exports; rebuild it against this
 * header.
 */
#ifndef TRACECERT_ADAPTER_H
#define TRACECERT_ADAPTER_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TC_ADAPTER_ABI_VERSION 2

/* The largest piece of a trace the runner hands feed() at once (see Rules). */
#define TC_FEED_PIECE_MAX 16
#define TC_ADAPTER_ENTRY "tracecert_adapter_v2"

/* One region of the program image, valid until close(). */
struct tc_adapter_region {
	uint64_t base;
	uint64_t size;
	const uint8_t *data;
};

/* What the adapter decodes of one protocol. */
struct tc_adapter_protocol {
	int protocol;                         /* enum tc_protocol_id */
	unsigned levels;                      /* tc_level_l1 and/or tc_level_l3 */
	/* Vector feature tags the decoder does not support (NULL-terminated, or
	 * NULL): vectors carrying one count as "unsupported", not as failures.
	 * A tag ending in "-l3" names a feature of a vector's L3 section only: it
	 * makes the vector unsupported at L3 and the vector still runs at L1. */
	const char *const *unsupported_tags;
};

struct tc_adapter_open_args {
	uint32_t abi_version;                 /* TC_ADAPTER_ABI_VERSION of the runner */
	int protocol;                         /* enum tc_protocol_id, one the table lists */
	const void *config;                   /* the protocol's configuration struct */
	size_t config_size;                   /* its size: sizeof the struct, as the runner was built */
	const struct tc_adapter_region *regions;
	size_t nregions;
	unsigned levels;                      /* what the runner asks for this run (enum tc_level bits) */
	void *ctx;                            /* passed to item() */
	/* Called synchronously from feed() and finish() for each item (see above). */
	void (*item)(void *ctx, int level, const struct tc_item *item);
};

struct tc_adapter {
	uint32_t abi_version;                 /* TC_ADAPTER_ABI_VERSION */
	const char *name;
	const char *version;
	const struct tc_adapter_protocol *protocols;
	size_t nprotocols;
	/* Opens a decoder; NULL with a message in err on failure. */
	void *(*open)(const struct tc_adapter_open_args *args, char *err, size_t errlen);
	int (*feed)(void *handle, const uint8_t *data, size_t len);
	int (*finish)(void *handle);          /* end of trace: flush everything */
	void (*close)(void *handle);
};

typedef const struct tc_adapter *(*tc_adapter_entry_fn)(void);

/* The one symbol an adapter exports. */
const struct tc_adapter *tracecert_adapter_v2(void);

#ifdef __cplusplus
}
#endif

#endif
