/* SPDX-License-Identifier: BSD-3-Clause */
/* vector.h — reading and writing tracecert vector files (vectors/README.md), comparing decoded text. */
#ifndef TC_VECTOR_H
#define TC_VECTOR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracecert/encoder.h"
#include "tracecert/image.h"
#include "tracecert/protocol.h"

/* A growable list of normalised lines. */
struct tc_lines {
	char **line;
	size_t n;
	size_t cap;
};

void tc_lines_add(struct tc_lines *l, const char *text);
/* Adds each line of text, normalised: comment removed, blanks collapsed,
 * empty lines skipped. */
void tc_lines_add_text(struct tc_lines *l, const char *text);
void tc_lines_free(struct tc_lines *l);
/* Warnings (each protocol's FORMAT.md "Warnings", L1 only) are never scored: the
 * runner drops them. */
int tc_line_is_warning(const char *line);
void tc_lines_drop_warnings(struct tc_lines *l);
/* Index of the first line where a and b differ, or -1 when equal. */
long tc_lines_diff(const struct tc_lines *a, const struct tc_lines *b);

enum tc_vector_section {
	tc_sec_l1, tc_sec_s1, tc_sec_l2, tc_sec_l3, tc_sec_error, tc_sec_count
};

/* How strictly an adapter's errors are compared ([error strict=…]). */
enum tc_error_strict {
	tc_strict_offset = 0,     /* class and offset of every error (the default) */
	tc_strict_class,          /* classes only */
	tc_strict_resync          /* classes, offsets, and the whole expected L1 (the resync point) */
};

/* An expect or [error] section under an alternative reading of the spec
 * ([expect.l1 reading=ID]): ID names the ambiguity in the errata
 * document of the vector's protocol (struct tc_protocol's errata). */
#define TC_MAX_ALTS 8
struct tc_alt {
	int sec;                  /* tc_sec_l1, tc_sec_l3 or tc_sec_error */
	char reading[32];
	struct tc_lines lines;
};

struct tc_vector {
	char *comment;                     /* the description: the '#' lines before the first section,
					    * without '#' and one blank after it, '\n'-separated; NULL
					    * when there are none */
	const struct tc_protocol *proto;   /* [config] protocol= */
	void *config;                      /* proto->config_size bytes: the protocol's configuration */
	char tags[512];
	uint8_t *trace;
	size_t trace_len;
	int has[tc_sec_count];
	struct tc_lines expect[tc_sec_count];
	struct tc_image image;    /* [image …] sections */
	int has_image;
	int error_strict;         /* enum tc_error_strict */
	struct tc_alt alt[TC_MAX_ALTS];
	int nalts;
};

/* The most bytes a vector file may hold: a longer one (or an endless
 * stream such as /dev/zero) is an error naming the limit. */
#define TC_VECTOR_MAX_BYTES (64ul << 20)

/* Reads a vector file. Returns 0, or -1 with a message in err: "line N:
 * what was expected" for the text, "cannot open 'PATH': REASON" (errno's
 * text; a folder is "Is a directory") for the file. Lines may be of any
 * length; a NUL byte, a section given twice (but [image …]), a version
 * other than 1, text after [end] and a file without its last line [end]
 * (cut short) are errors. */
int tc_vector_load(const char *path, struct tc_vector *v, char *err, size_t errlen);
/* tc_vector_load for `certify`: the vector file and every image file it
 * names must be regular files (opened without blocking, so a FIFO is an
 * error naming it, never a wait), "cannot read 'PATH': not a regular file
 * (a FIFO)". tc_vector_load refuses a FIFO or a socket only as an image
 * file (a device such as /dev/zero is read, up to its limit). */
int tc_vector_load_strict(const char *path, struct tc_vector *v, char *err, size_t errlen);
/* The same from an open stream, read whole (at most TC_VECTOR_MAX_BYTES);
 * dir is the folder [image file=…] and [image elf=…] names are relative to. */
int tc_vector_read(FILE *f, const char *dir, struct tc_vector *v, char *err, size_t errlen);
void tc_vector_free(struct tc_vector *v);
/* The whole of an open stream into *text (malloc'd, NUL-terminated; *len
 * bytes, which may hold NUL bytes), at most max bytes: how every vector
 * file is read, and the developer tools' text tables, so no line is cut at
 * a buffer's size. 0, or -1 with why in err (errno's text; a stream longer
 * than max: "byte MAX: the file is longer than MAX bytes, the limit of
 * WHAT"). */
int tc_text_read(FILE *f, size_t max, const char *what, char **text, size_t *len, char *err, size_t errlen);
/* The next line of text read by tc_text_read, from *at up to end: its line
 * break (LF, or CR LF) replaced by NUL, *at moved past it; NULL at the end.
 * A last line without a line break is a line too. */
char *tc_text_line(char **at, char *end);
/* The CRC-32 of n bytes (ISO-HDLC, as zlib and gzip compute it: the
 * polynomial 0x04C11DB7 reflected, initial and final value 0xFFFFFFFF; of
 * "123456789", 0xCBF43926): [image file=… crc32=0x…] and [image elf=…
 * crc32=0x…] (vectors/README.md). */
uint32_t tc_vector_crc32(const uint8_t *p, size_t n);
/* Drops the warning lines of every expect section (what an adapter is scored on). */
void tc_vector_drop_warnings(struct tc_vector *v);

/* ---- Writing vector files (conformance/vecwrite.c) --------------------------
 * The one writer of the format: every tool that writes .tcv text calls it.
 * A writer collects the text; each call appends one part in the layout of
 * vectors/README.md. The first misuse (a part where the format has no
 * place for it, text the reader would read otherwise, memory short) is kept,
 * the calls after it do nothing, and tc_vwrite_end reports it. */
struct tc_vwriter {
	char *text;
	size_t len;
	size_t cap;
	int state;                /* the part written last (vecwrite.c) */
	uint64_t image_next;      /* after an annotated image line: the address that continues its region */
	char err[256];            /* the first misuse; "" while there is none */
};

/* Line one, `tracecert-vector 1` (tc_vwrite_end adds the last, `[end]`). */
void tc_vwrite_begin(struct tc_vwriter *w);
/* The description, before any section: each line of text as "# line"
 * ("#" for an empty one). */
void tc_vwrite_comment(struct tc_vwriter *w, const char *text);
/* [config]: protocol=NAME, then in the order of the protocol's key table
 * every required key, the keys needed with [expect.l3] when with_l3 is set
 * or they differ from their default, the optional keys that differ from
 * their default. cfg must pass the protocol's config_check. */
void tc_vwrite_config(struct tc_vwriter *w, const struct tc_protocol *p, const void *cfg, int with_l3);
/* [tags]: one line (no '#', no line break). */
void tc_vwrite_tags(struct tc_vwriter *w, const char *tags);
/* [trace] and n bytes (n > 0), 32 to a line, lower-case hex. */
void tc_vwrite_trace(struct tc_vwriter *w, const uint8_t *bytes, size_t n);
/* One packet of an annotated [trace] ([trace] is opened by the first):
 * its bytes in upper-case hex, padded to 37 columns, then "# note" (note
 * NULL: no comment; no line break in it). */
void tc_vwrite_trace_packet(struct tc_vwriter *w, const uint8_t *bytes, size_t n, const char *note);
/* [image base=0x…] and its n bytes (n > 0), 32 to a line. */
void tc_vwrite_image(struct tc_vwriter *w, uint64_t base, const uint8_t *bytes, size_t n);
/* The header of an image file beside the vector that holds the n bytes
 * (n > 0): [image file=NAME base=0x… size=N crc32=0x…], or with elf set
 * [image elf=NAME size=N crc32=0x…] (bytes: the whole ELF file), its size
 * and CRC-32 (tc_vector_crc32) computed here from the bytes, which the
 * caller writes to that file beside the vector (tc_out_save). NAME: no
 * blank, ']', '#' or line break. */
void tc_vwrite_image_file(struct tc_vwriter *w, const char *name, int elf, uint64_t base, const uint8_t *bytes,
			  size_t n);

/* One line of an annotated image: n bytes (1 to 64) at address in upper-case
 * hex, padded to 37 columns, then "# note" (note NULL: no comment). A line at
 * the address where the previous image line ended continues its region; any
 * other opens [image base=0x…] first. */
void tc_vwrite_image_line(struct tc_vwriter *w, uint64_t address, const uint8_t *bytes, size_t n, const char *note);
/* The header of an expect or error section (sec: enum tc_vector_section):
 * [expect.l1] … [error]; for tc_sec_error, strict (enum tc_error_strict)
 * gives [error strict=class|resync] ([error] for offset, the default);
 * reading not NULL: [expect.l1 reading=ID], [expect.l3 reading=ID] or
 * [error reading=ID] (other sections have no readings). */
void tc_vwrite_section(struct tc_vwriter *w, int sec, int strict, const char *reading);
/* The lines of text ('\n'-separated) as they are, into the section opened
 * last; empty lines are left out (the reader drops them), and no line may
 * begin with '[' (it would open a section). */
void tc_vwrite_lines(struct tc_vwriter *w, const char *text);
/* The text ending with the line `[end]` (malloc'd, the caller frees it),
 * or NULL with the first misuse in err. Either way the writer is left empty. */
char *tc_vwrite_end(struct tc_vwriter *w, char *err, size_t errlen);

/* A whole vector as text: its description, [config], [tags], [trace], each
 * image region as [image base=…] (by address), the expect sections, [error],
 * the sections of alternative readings. What tc_vector_read gives back is
 * the same vector (tests/vector-io.t); comments other than the description,
 * the layout of hex and lines, registers given in [config] and image file
 * names are not kept. NULL with err when v cannot be written. */
char *tc_vector_text(const struct tc_vector *v, char *err, size_t errlen);

/* A generated vector (tracecert/encoder.h) as a struct tc_vector: title, the
 * words saying where its expectations come from and r->note as its
 * description; [expect.l1] and [expect.l3], or [expect.l1] and [error] for
 * a negative one. Returns 0, or -1 with err (free v either way). */
int tc_vector_from_generated(const struct tc_enc_result *r, const char *title, struct tc_vector *v, char *err,
			     size_t errlen);
/* The two above in one: the .tcv text of a generated vector, or NULL with err. */
char *tc_vector_text_generated(const struct tc_enc_result *r, const char *title, char *err, size_t errlen);

/* Writes text to path (created or replaced) through a temporary file
 * renamed into place (outfile.h): path holds the whole text, or what it
 * held before. Returns 0, or -1 with err naming the file and the reason. */
int tc_vector_save(const char *path, const char *text, char *err, size_t errlen);

/* Appends the .tcv files at path (a file, or a folder searched recursively,
 * symbolic links followed; folders are walked into whatever their names),
 * sorted, to *list (malloc'd strings). Returns how many were added, or 0
 * with err: path or a folder in it cannot be read (errno's text), path or
 * a *.tcv in it is not a regular file (a FIFO, a socket, a device), it
 * holds no .tcv file, a folder leads back into one it is
 * inside (a symbolic link loop), or a file is already in *list (the same file
 * reached twice: given twice, a folder inside another given, a link). */
size_t tc_vector_list(const char *path, char ***list, size_t *n, char *err, size_t errlen);

/* Decoder output collected as text, one list per level (L1, s1, L2, L3)
 * plus the errors as "CLASS OFFSET" lines. */
struct tc_output {
	struct tc_lines level[tc_sec_count];
};

/* Decodes trace with the reference decoder of proto, feeding `chunk` bytes
 * at a time (0 = all at once; a negative value = pseudo-random sizes seeded
 * by -chunk). Returns 0, or -1 if the decoder could not be created. */
int tc_collect(const struct tc_protocol *proto, const void *cfg, const struct tc_image *image,
	       const uint8_t *trace, size_t len, long chunk, struct tc_output *out);
void tc_output_free(struct tc_output *out);

/* L3 normalisation for comparison (reference/L3FORMAT.md "Normalisation for comparison"): offsets
 * dropped, contiguous ranges merged when the first ends in a non-P0
 * instruction. The image gives T32 instruction sizes (NULL: no merge across
 * T32 ranges). Returns a new list in out. */
void tc_l3_normalise(const struct tc_lines *in, const struct tc_image *image, struct tc_lines *out);

#endif
