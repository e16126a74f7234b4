/* SPDX-License-Identifier: BSD-3-Clause */
/* clause.h — spec-clause markers (coverage/README.md).
 *
 * TC_CLAUSE("ID", …) marks the code of one or more clauses: a pseudocode
 * function, or an arm the reference implements on its own. It is the first
 * statement of that function or arm.
 * TC_CLAUSE_CASE(VALUE, "PREFIX", …) records the selector of a pseudocode
 * `case` (a header byte, an element kind, a synchronisation state…); the
 * arms are listed in coverage/clauses.txt as PREFIX/PATTERN, in the order of
 * the text, and a value counts for the first arm it matches. It also counts
 * as a hit of PREFIX itself.
 *
 * Both expand to nothing unless compiled with -DTC_CLAUSE_TRACE (the
 * coverage build, `make coverage`), which links coverage/clause_trace.c.
 * coverage/check-clauses.sh keeps the markers and coverage/clauses.txt equal. */
#ifndef TC_CLAUSE_H
#define TC_CLAUSE_H

#ifdef TC_CLAUSE_TRACE
void tc_clause_hit(const char *id, ...);
void tc_clause_case(long value, const char *prefix, ...);
#define TC_CLAUSE(...) tc_clause_hit(__VA_ARGS__, (const char *)0)
#define TC_CLAUSE_CASE(value, ...) tc_clause_case((long)(value), __VA_ARGS__, (const char *)0)
#else
#define TC_CLAUSE(...) ((void)0)
#define TC_CLAUSE_CASE(...) ((void)0)
#endif

#endif
