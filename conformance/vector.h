/* vector.h — reading tracecert vector files (vectors/README.md) and comparing decoded text. */
#ifndef TC_VECTOR_H
#define TC_VECTOR_H

#include <stddef.h>
#include <stdint.h>

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
/* Warnings (reference/FORMAT.md "Warnings", L1 only) are never scored: the
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
 * ([expect.l1 reading=ID]): ID names the ambiguity in reference/ERRATA.md. */
#define TC_MAX_ALTS 8
struct tc_alt {
	int sec;                  /* tc_sec_l1, tc_sec_l3 or tc_sec_error */
	char reading[32];
	struct tc_lines lines;
};

struct tc_vector {
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

/* Reads a vector file. Returns 0, or -1 with a message "LINE: what was
 * expected" in err. */
int tc_vector_load(const char *path, struct tc_vector *v, char *err, size_t errlen);
void tc_vector_free(struct tc_vector *v);
/* Drops the warning lines of every expect section (what an adapter is scored on). */
void tc_vector_drop_warnings(struct tc_vector *v);

/* Appends the .tcv files at path (a file, or a folder searched recursively),
 * sorted, to *list (malloc'd strings). Returns how many were added. */
size_t tc_vector_list(const char *path, char ***list, size_t *n);

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

/* L3 normalisation for comparison (reference/FORMAT.md "L3"): offsets
 * dropped, contiguous ranges merged when the first ends in a non-P0
 * instruction. The image gives T32 instruction sizes (NULL: no merge across
 * T32 ranges). Returns a new list in out. */
void tc_l3_normalise(const struct tc_lines *in, const struct tc_image *image, struct tc_lines *out);

#endif
