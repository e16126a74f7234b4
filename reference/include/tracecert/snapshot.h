/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/snapshot.h — trace snapshot directories (snapshot.ini, device .ini files, trace.ini; the OpenCSD / Arm DS layout): INI parsing and the directory's structure, protocol-neutral. */
#ifndef TRACECERT_SNAPSHOT_H
#define TRACECERT_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- INI files ---------------------------------------------------------------
 * Lines: "[section]", "key=value", blank; ';' or '#' starts a comment
 * anywhere on a line; CR before LF is ignored (elsewhere a CR is an
 * error); keys and values are trimmed
 * and a value's surrounding quotes removed. Anything else, a key=value
 * before the first section, an empty key, a key given twice in a section, a
 * section given twice, or a NUL byte is an error "PATH:LINE: ...". */
struct tc_ini_entry {
	char *key;
	char *value;
	int line;
};

struct tc_ini_section {
	char *name;
	int line;
	struct tc_ini_entry *entry;
	int n;
	int cap;
};

struct tc_ini {
	char *path;
	struct tc_ini_section *section;
	int n;
	int cap;
};

int tc_ini_parse(const char *text, size_t len, const char *path, struct tc_ini *ini, char *err, size_t errlen);
int tc_ini_load(const char *path, struct tc_ini *ini, char *err, size_t errlen);
void tc_ini_free(struct tc_ini *ini);
/* Section and key lookups (exact names); NULL when absent. */
const struct tc_ini_section *tc_ini_find(const struct tc_ini *ini, const char *section);
const struct tc_ini_entry *tc_ini_get(const struct tc_ini_section *s, const char *key);

/* A number: decimal or 0x hex, 64 bits. Returns 0 or -1. */
int tc_snapshot_number(const char *text, uint64_t *value);

/* ---- Snapshot directories ---------------------------------------------------- */

struct tc_snap_reg {
	char *name;               /* without a "(...)" suffix: TRCIDR0(0x1E0) -> TRCIDR0 */
	char *value;              /* as written; its meaning is the protocol's */
	int line;
};

/* A [dumpN] section: length bytes from offset of file at address. */
struct tc_snap_dump {
	char *section;
	char *file;               /* resolved against the device file's folder */
	uint64_t address;
	uint64_t offset;
	uint64_t length;          /* when has_length */
	int has_length;           /* 0: no length given, to the end of the file */
	char *space;              /* memory space, NULL when not given */
	int line;                 /* of the section header */
};

struct tc_snap_device {
	char *ini;                /* its .ini file */
	char *name, *class_, *type;
	struct tc_snap_reg *reg;
	int nregs;
	struct tc_snap_dump *dump;
	int ndumps;
};

struct tc_snap_buffer {
	char *id;                 /* its section in trace.ini */
	char *name;
	char *file;               /* resolved against trace.ini's folder */
	int coresight;            /* format=coresight (1) or source_data (0) */
	int line;
};

struct tc_snap_link {         /* [source_buffers] source=buffer, [core_trace_sources] core=source */
	char *from, *to;
	int line;
};

struct tc_snapshot {
	char *dir;
	char *trace_ini;          /* path of the trace metadata file */
	struct tc_snap_device *device;
	int ndevices;
	struct tc_snap_buffer *buffer;
	int nbuffers;
	struct tc_snap_link *source_buffer;
	int nsource_buffers;
	struct tc_snap_link *core_source;
	int ncore_sources;
};

/* Reads and checks a snapshot directory: every file it names is read and
 * must parse; devices have a name, class and type, names are unique; dumps
 * have file and address, numbers parse, each dump file opens; a device
 * names each register once (NAME and NAME(suffix), in any case, are one
 * register: the second is an error naming both lines); trace.ini
 * lists its buffers, each with name, file (it opens) and a known format;
 * links name existing devices and buffers. On error nothing is kept and
 * err says "FILE:LINE: what was expected". */
int tc_snapshot_load(const char *dir, struct tc_snapshot *ss, char *err, size_t errlen);
void tc_snapshot_free(struct tc_snapshot *ss);

const struct tc_snap_device *tc_snapshot_device(const struct tc_snapshot *ss, const char *name);
const struct tc_snap_buffer *tc_snapshot_buffer(const struct tc_snapshot *ss, const char *name);
/* The buffer of a trace source, and the core whose memory it traces; NULL when not linked. */
const struct tc_snap_buffer *tc_snapshot_source_buffer(const struct tc_snapshot *ss, const char *source);
const struct tc_snap_device *tc_snapshot_source_core(const struct tc_snapshot *ss, const char *source);

#ifdef __cplusplus
}
#endif

#endif
