/* SPDX-License-Identifier: BSD-3-Clause */
/* clause_trace.h — the coverage build's record of spec-clause hits
 * (reference/clause.h markers, compiled with -DTC_CLAUSE_TRACE). */
#ifndef TC_CLAUSE_TRACE_H
#define TC_CLAUSE_TRACE_H

/* One recorded key: a TC_CLAUSE id (is_case 0), or a TC_CLAUSE_CASE prefix
 * with the value its selector had (is_case 1). */
typedef void (*tc_clause_visit_fn)(void *ctx, const char *id, int is_case, long value,
				   unsigned long count);

/* Forgets every hit (the driver calls it before each vector). */
void tc_clause_trace_reset(void);
/* Calls fn once per key hit since the last reset, in no particular order. */
void tc_clause_trace_visit(tc_clause_visit_fn fn, void *ctx);

#endif
