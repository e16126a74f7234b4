/* SPDX-License-Identifier: BSD-3-Clause */
/* jsonread.h — a reader of the JSON that json.c writes (RFC 8259 objects, arrays, strings, numbers, literals), for certify --merge. */
#ifndef TC_JSONREAD_H
#define TC_JSONREAD_H

#include <stddef.h>

enum tc_jtype { tc_j_null, tc_j_bool, tc_j_number, tc_j_string, tc_j_array, tc_j_object };

/* A value. A string holds its bytes decoded, NUL-terminated (a \u0000
 * escape is refused), with the escape \ufffd read back as the byte 0xFF:
 * json.c writes \ufffd for a byte that is not UTF-8 (and a U+FFFD of the
 * text as it is), so what json.c wrote from a string reads back as a
 * string it writes the same way. */
struct tc_jv {
	enum tc_jtype type;
	char *s;                  /* string: its bytes; number: its text */
	double num;               /* number, and bool (0 or 1) */
	size_t n;                 /* array and object: members */
	struct tc_jv *item;
	char **key;               /* object: the member names */
};

/* Parses text (n bytes) into *v: one value, blanks around it. 0, or -1
 * with the byte offset and what was expected in err. Nesting deeper than
 * 32 is refused. */
int tc_json_parse(const char *text, size_t n, struct tc_jv *v, char *err, size_t errlen);
void tc_json_free(struct tc_jv *v);

/* The member key of object o, or NULL (o not an object, or no such key). */
const struct tc_jv *tc_json_get(const struct tc_jv *o, const char *key);

#endif
