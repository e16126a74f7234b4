/* SPDX-License-Identifier: BSD-3-Clause */
/* genexec.c — `tracecert gen --from-exec LOG --elf PROG`: a real execution (qemu-user's log) as a vector. */
/* The log is parsed and classified by the shared module (encoder/execlog.c,
 * tracecert/execlog.h), the window of it traced by the protocol's
 * trace-unit model (tc_encoder.from_exec); the vector's [expect.l3] is the
 * log's own L3 (tc_exec_l3), checked against the model's, and its image is
 * the pages of the program the window's instructions lie in, each run of
 * pages a raw file beside the vector (NAME.0xADDR.bin). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "genexec.h"
#include "outfile.h"
#include "tracecert/execlog.h"
#include "tracecert/image.h"
#include "vector.h"

#define EXEC_LOG_MAX_BYTES (1ul << 30)
#define EXEC_PAGE 4096u

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;
	if (!f) {
		fprintf(stderr, "tracecert gen: cannot read '%s': %s\n", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			char *p = cap >= EXEC_LOG_MAX_BYTES ? NULL : realloc(buf, cap ? 2 * cap : 1 << 16);
			if (!p) {
				fprintf(stderr, "tracecert gen: %s: longer than %lu bytes or out of memory\n", path,
					EXEC_LOG_MAX_BYTES);
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = p;
			cap = cap ? 2 * cap : 1 << 16;
		}
		size_t k = fread(buf + n, 1, cap - n, f);
		n += k;
		if (k == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "tracecert gen: cannot read '%s': %s\n", path, strerror(errno));
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Each run of pages intersected with each region of the image: a file
 * NAME.0xADDR.bin beside the vector, its [image file=…] line in w. */
static int write_pages(const struct tc_gen_exec *a, const struct tc_exec *x, const struct tc_image *img,
		       struct tc_vwriter *w, const char *name)
{
	uint64_t *pg;
	long n = tc_exec_pages(x, EXEC_PAGE, &pg);
	char err[400], file[300], path[1400];
	int rc = 0;
	if (n < 0)
		return -1;
	for (long i = 0; i < n && rc == 0; i++) {
		long j = i;
		while (j + 1 < n && pg[j + 1] == pg[j] + EXEC_PAGE)
			j++;
		uint64_t lo = pg[i], hi = pg[j] + EXEC_PAGE;
		for (int r = 0; r < img->n && rc == 0; r++) {
			const struct tc_image_region *g = &img->region[r];
			uint64_t b = g->base > lo ? g->base : lo, e = g->base + g->size < hi ? g->base + g->size : hi;
			if (b >= e)
				continue;
			snprintf(file, sizeof file, "%s.0x%llx.bin", name, (unsigned long long)b);
			tc_vwrite_image_file(w, file, 0, b, g->data + (b - g->base), (size_t)(e - b));
			if (a->out) {
				snprintf(path, sizeof path, "%s/%s", a->out, file);
				rc = tc_out_save(path, g->data + (b - g->base), (size_t)(e - b), 0, err, sizeof err);
				if (rc)
					fprintf(stderr, "tracecert gen: %s\n", err);
			}
		}
		i = j;
	}
	free(pg);
	return rc;
}

/* The qemu-user program of the log's instruction-set family (tracecert/execlog.h). */
static char *description(const struct tc_gen_exec *a, const struct tc_exec *x)
{
	const char *emulator = x->insn[0].isa == tc_isa_rv64 ? "qemu-riscv64" : x->insn[0].isa == tc_isa_a64 ? "qemu-aarch64" : "qemu-arm";
	size_t n = x->n;
	size_t len = 2048 + (a->note ? strlen(a->note) : 0);
	char *s = malloc(len);
	if (s)
		snprintf(s, len,
			 "A real execution: %s run by qemu-user (%s -singlestep -d exec,nochain),\n"
			 "%zu instructions from the log's first line of symbol '%s', traced by\n"
			 "the %s encoder's trace-unit model (tracecert gen --from-exec). The [expect.l3] is\n"
			 "derived from the log's address sequence (encoder/execlog.c), not from the model;\n"
			 "the image is the pages those instructions lie in.%s%s",
			 base_name(a->elf), emulator, n, a->start, a->enc->protocol,
			 a->note ? "\n" : "", a->note ? a->note : "");
	return s;
}

/* real-exec, and the instruction sets the window runs in (L3's isa= names). */
static char *tags(const struct tc_exec *x)
{
	static const char *const isa_name[tc_isa_count] = { "a64", "a32", "t32", "rv32", "rv64" };
	int seen[tc_isa_count] = { 0 };
	size_t len = 16;
	char *s;
	for (size_t i = 0; i < x->n; i++)
		seen[x->insn[i].isa < tc_isa_count ? x->insn[i].isa : 0] = 1;
	for (int k = 0; k < tc_isa_count; k++)
		len += seen[k] ? strlen(isa_name[k]) + 1 : 0;
	s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, "real-exec");
	for (int k = 0; k < tc_isa_count; k++)
		if (seen[k])
			strcat(strcat(s, " "), isa_name[k]);
	return s;
}

static int write_vector(const struct tc_gen_exec *a, const struct tc_enc_result *r, const char *l3,
			const struct tc_exec *x, const struct tc_image *img)
{
	struct tc_vwriter w;
	char err[400], path[1400], *text, *tg, *desc = description(a, x);
	const char *name = a->name ? a->name : base_name(a->elf);
	int rc;
	tc_vwrite_begin(&w);
	tc_vwrite_comment(&w, desc ? desc : "A real execution");
	free(desc);
	tc_vwrite_config(&w, a->proto, r->cfg, 1);
	tg = tags(x);
	tc_vwrite_tags(&w, tg ? tg : "real-exec");
	free(tg);
	tc_vwrite_trace(&w, r->trace, r->trace_len);
	rc = write_pages(a, x, img, &w, name);
	tc_vwrite_section(&w, tc_sec_l1, 0, NULL);
	tc_vwrite_lines(&w, r->l1);
	tc_vwrite_section(&w, tc_sec_l3, 0, NULL);
	tc_vwrite_lines(&w, l3);
	text = tc_vwrite_end(&w, err, sizeof err);
	if (!text || rc) {
		if (!text)
			fprintf(stderr, "tracecert gen: %s\n", err);
		free(text);
		return -1;
	}
	if (a->out) {
		snprintf(path, sizeof path, "%s/%s.tcv", a->out, name);
		rc = tc_vector_save(path, text, err, sizeof err);
		if (rc)
			fprintf(stderr, "tracecert gen: %s\n", err);
	} else if (fputs(text, stdout) == EOF) {
		fprintf(stderr, "tracecert gen: cannot write standard output: %s\n", strerror(errno));
		rc = -1;
	}
	free(text);
	return rc;
}

/* The model's L3 is not the log's: said, with both texts in the files
 * NAME.model-l3 and NAME.log-l3 of --out. */
static void model_differs(const struct tc_gen_exec *a, const char *model, const char *log)
{
	char path[1400], err[400];
	const char *name = a->name ? a->name : base_name(a->elf);
	fprintf(stderr, "tracecert gen: %s: the %s trace-unit model's L3 differs from the log's (a defect of the model "
		"or of encoder/execlog.c)%s\n", a->log, a->enc->protocol, a->out ? "; both written beside the vector" : "");
	if (!a->out)
		return;
	snprintf(path, sizeof path, "%s/%s.model-l3", a->out, name);
	if (tc_out_save(path, model ? model : "", model ? strlen(model) : 0, 0, err, sizeof err) == 0) {
		snprintf(path, sizeof path, "%s/%s.log-l3", a->out, name);
		tc_out_save(path, log, strlen(log), 0, err, sizeof err);
	}
}

/* The window traced, its L3 from the log and the model's, compared. */
static int trace_window(const struct tc_gen_exec *a, const struct tc_exec *x, const struct tc_image *img)
{
	struct tc_enc_result r;
	struct tc_exec_marks m;
	char err[400], *l3;
	int rc = -1;
	memset(&m, 0, sizeof m);
	if (tc_exec_marks_alloc(&m, x)) {
		fprintf(stderr, "tracecert gen: out of memory\n");
		return -1;
	}
	if (a->enc->from_exec(x, &r, &m, err, sizeof err)) {
		fprintf(stderr, "tracecert gen: %s: %s\n", a->log, err);
		tc_exec_marks_free(&m);
		return -1;
	}
	l3 = tc_exec_l3(x, &m);
	if (!l3)
		fprintf(stderr, "tracecert gen: out of memory\n");
	else if (strcmp(l3, r.l3 ? r.l3 : ""))
		model_differs(a, r.l3, l3);
	else
		rc = write_vector(a, &r, l3, x, img);
	free(l3);
	tc_enc_result_free(&r);
	tc_exec_marks_free(&m);
	return rc;
}

/* The program's ELF e_machine is of the family the encoder traces; 0, or -1
 * said. */
static int check_machine(const struct tc_gen_exec *a)
{
	unsigned machine = 0;
	int elf_class = 0, family;
	char err[600];
	if (tc_image_elf_machine(a->elf, &machine, &elf_class, err, sizeof err)) {
		fprintf(stderr, "tracecert gen: %s\n", err);
		return -1;
	}
	family = tc_exec_family_of_elf(machine, elf_class);
	if (family == a->enc->exec_family)
		return 0;
	fprintf(stderr, "tracecert gen: %s: ELF e_machine %u (%d-bit) is %s, where the %s model traces %s "
		"(--elf: the program the log is of)\n", a->elf, machine, elf_class == 2 ? 64 : 32,
		family ? tc_exec_family_name(family) : "none of AArch32, A64 and RV64", a->enc->protocol,
		tc_exec_family_name(a->enc->exec_family));
	return -1;
}

int tc_gen_exec(const struct tc_gen_exec *a)
{
	struct tc_execlog_entry *ent = NULL;
	struct tc_image img;
	struct tc_exec x;
	size_t len = 0, n = 0, first;
	char err[600], *text = read_all(a->log, &len);
	int rc = -1;
	memset(&img, 0, sizeof img);
	if (!text)
		return -1;
	if (tc_execlog_parse(text, len, a->log, a->enc->exec_family, &ent, &n, err, sizeof err)) {
		fprintf(stderr, "tracecert gen: %s\n", err);
	} else if (tc_image_load_elf(&img, a->elf, err, sizeof err)) {
		fprintf(stderr, "tracecert gen: %s\n", err);
	} else if (check_machine(a)) {
		/* said */
	} else if ((first = tc_execlog_find_symbol(ent, n, a->start)) == n) {
		fprintf(stderr, "tracecert gen: %s: no line of symbol '%s' (--exec-start)\n", a->log, a->start);
	} else if (tc_exec_classify(ent, n, first, a->steps, &img, a->log, &x, err, sizeof err)) {
		fprintf(stderr, "tracecert gen: %s\n", err);
	} else {
		rc = trace_window(a, &x, &img);
		tc_exec_free(&x);
	}
	tc_image_free(&img);
	free(ent);
	free(text);
	return rc;
}
