/* SPDX-License-Identifier: BSD-3-Clause */
/* snapini.c — fuzz harness: the snapshot INI parser (reference/snapshot.c) and the register values a snapshot hands every protocol's configuration, on arbitrary text.
 *
 * Why: a snapshot directory is untrusted input; its .ini files are parsed
 * before anything else, and a trace source's [regs] values go to
 * tc_config_builder_set.
 *
 * Property: any byte string parses or is refused without crash, leak or
 * undefined behaviour, and
 *   1. a refusal says "PATH:LINE: ..." with LINE inside the text (1 ... the
 *      number of lines), and frees everything;
 *   2. a success holds sections with non-empty names, none twice, and
 *      entries with non-empty keys, none twice in a section; no name, key or
 *      value has a comment character or a line break, no name or key
 *      surrounding blanks (a quoted value keeps its own); line numbers
 *      increase;
 *   3. every value given to tc_snapshot_number and, as every register of
 *      every protocol of the build (tc_protocols[], through the
 *      descriptor's register table), to tc_config_builder_set returns one
 *      of the documented results and leaves a failed set without effect;
 *   4. a value every register of a protocol takes gives a configuration or
 *      a refusal with a message (config_derive, config_check), never more
 *      notes than struct tc_config_notes holds.
 *
 * Input: the text of one .ini file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tracecert/protocol.h"
#include "tracecert/snapshot.h"

/* No comment character or line break; trimmed unless quoted (a quoted value keeps its blanks). */
static int clean(const char *s, int may_have_blanks)
{
	size_t n = strlen(s);
	return !strpbrk(s, ";#\r\n") &&
	       (may_have_blanks || n == 0 || (s[0] != ' ' && s[0] != '\t' && s[n - 1] != ' ' && s[n - 1] != '\t'));
}

/* Property 3 for one protocol's register r; returns the result of the set. */
static int check_set(const struct tc_protocol *p, int r, const char *value, struct tc_config_builder *b)
{
	struct tc_config_builder before;
	char err[400];
	int rc;
	before = *b;
	rc = tc_config_builder_set(b, p->regs[r].name, value, err, sizeof err);
	TC_FUZZ_CHECK(rc == 0 || rc == -2, "%s: tc_config_builder_set(%s) returned %d", p->name, p->regs[r].name, rc);
	TC_FUZZ_CHECK(rc == 0 || !memcmp(b, &before, sizeof *b), "%s: a failed set changed the builder", p->name);
	TC_FUZZ_CHECK(rc == 0 || err[0], "%s: a refused %s without a message", p->name, p->regs[r].name);
	return rc;
}

/* Property 4: every register of p set to value, then applied over the defaults. */
static void check_apply(const struct tc_protocol *p, const struct tc_config_builder *b)
{
	void *cfg = malloc(p->config_size);
	struct tc_config_notes notes;
	char err[400] = "";
	int rc;
	TC_FUZZ_CHECK(cfg != NULL, "%s: out of memory", p->name);
	tc_config_default(p, cfg);
	rc = tc_config_builder_apply(b, cfg, &notes, err, sizeof err);
	TC_FUZZ_CHECK(rc == 0 || (rc == -1 && err[0]), "%s: apply returned %d ('%s')", p->name, rc, err);
	TC_FUZZ_CHECK(notes.n >= 0 && notes.n <= TC_CONFIG_NOTES, "%s: %d notes", p->name, notes.n);
	TC_FUZZ_CHECK(rc != 0 || !p->config_check || p->config_check(cfg, err, sizeof err) == 0,
		      "%s: an applied configuration that config_check refuses", p->name);
	free(cfg);
}

static void check_values(const struct tc_ini_section *s)
{
	for (int j = 0; j < s->n; j++) {
		uint64_t v;
		(void)tc_snapshot_number(s->entry[j].value, &v);
		for (int i = 0; tc_protocols[i]; i++) {
			const struct tc_protocol *p = tc_protocols[i];
			struct tc_config_builder all;
			int taken = 1;
			tc_config_builder_init(&all, p);
			for (int r = 0; r < p->nregs; r++) {
				struct tc_config_builder one;
				tc_config_builder_init(&one, p);
				taken &= check_set(p, r, s->entry[j].value, &one) == 0;
				(void)check_set(p, r, s->entry[j].value, &all);
			}
			if (taken)
				check_apply(p, &all);
		}
	}
}

static void check_parsed(const struct tc_ini *ini)
{
	int last = 0;
	for (int i = 0; i < ini->n; i++) {
		const struct tc_ini_section *s = &ini->section[i];
		TC_FUZZ_CHECK(s->name[0] && clean(s->name, 0), "section name '%s'", s->name);
		TC_FUZZ_CHECK(tc_ini_find(ini, s->name) == s, "section [%s] twice", s->name);
		TC_FUZZ_CHECK(s->line > last, "section line %d after %d", s->line, last);
		last = s->line;
		for (int j = 0; j < s->n; j++) {
			const struct tc_ini_entry *e = &s->entry[j];
			TC_FUZZ_CHECK(e->key[0] && clean(e->key, 0) && clean(e->value, 1), "entry '%s'='%s'", e->key, e->value);
			TC_FUZZ_CHECK(tc_ini_get(s, e->key) == e, "key '%s' twice", e->key);
			TC_FUZZ_CHECK(e->line > last, "entry line %d after %d", e->line, last);
			last = e->line;
		}
		check_values(s);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_ini ini;
	char err[512], prefix[32];
	int lines = 1, line = 0;
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (tc_ini_parse((const char *)data, size, "f.ini", &ini, err, sizeof err)) {
		TC_FUZZ_CHECK(sscanf(err, "f.ini:%d:", &line) == 1 && line >= 1 && line <= lines, "error '%s' (%d lines)", err, lines);
		TC_FUZZ_CHECK(ini.n == 0 && ini.section == NULL && ini.path == NULL, "a refusal kept something");
		return 0;
	}
	snprintf(prefix, sizeof prefix, "%s", ini.path);
	TC_FUZZ_CHECK(!strcmp(prefix, "f.ini"), "path '%s'", prefix);
	check_parsed(&ini);
	tc_ini_free(&ini);
	return 0;
}
