/* SPDX-License-Identifier: BSD-3-Clause */
/* clause_trace.c — hit counters behind the TC_CLAUSE markers of
 * reference/clause.h. Linked only into the coverage build (-DTC_CLAUSE_TRACE);
 * like gcov's counters it is a process-wide table, which the reference itself
 * never has. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clause.h"
#include "clause_trace.h"

#define SLOTS 8192u   /* keys: a few hundred ids, ≤256 values per case prefix */

struct slot {
	const char *id;   /* a marker's string literal; NULL = empty */
	int is_case;
	long value;
	unsigned long count;
};

static struct slot table[SLOTS];

static unsigned hash(const char *id, int is_case, long value)
{
	unsigned h = 2166136261u;
	for (const char *c = id; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	return (h ^ (unsigned)is_case ^ (unsigned)value * 2654435761u) % SLOTS;
}

static void count(const char *id, int is_case, long value)
{
	unsigned i = hash(id, is_case, value);
	for (unsigned n = 0; n < SLOTS; n++, i = (i + 1) % SLOTS) {
		struct slot *s = &table[i];
		if (!s->id) {
			s->id = id;
			s->is_case = is_case;
			s->value = value;
		} else if (s->is_case != is_case || s->value != value || strcmp(s->id, id) != 0) {
			continue;
		}
		s->count++;
		return;
	}
	fprintf(stderr, "clause_trace: more than %u distinct keys\n", SLOTS);
	abort();
}

void tc_clause_hit(const char *id, ...)
{
	va_list ap;
	va_start(ap, id);
	for (; id; id = va_arg(ap, const char *))
		count(id, 0, 0);
	va_end(ap);
}

void tc_clause_case(long value, const char *prefix, ...)
{
	va_list ap;
	va_start(ap, prefix);
	for (; prefix; prefix = va_arg(ap, const char *))
		count(prefix, 1, value);
	va_end(ap);
}

void tc_clause_trace_reset(void)
{
	memset(table, 0, sizeof table);
}

void tc_clause_trace_visit(tc_clause_visit_fn fn, void *ctx)
{
	for (unsigned i = 0; i < SLOTS; i++)
		if (table[i].id)
			fn(ctx, table[i].id, table[i].is_case, table[i].value, table[i].count);
}
