/* SPDX-License-Identifier: BSD-3-Clause */
/* regress_main.c — plain-main regression driver: replays the committed fuzz corpora through every harness, without libFuzzer.
 *
 * Every harness is linked in (each compiled with LLVMFuzzerTestOneInput and
 * LLVMFuzzerInitialize renamed to tc_fuzz_one_NAME / tc_fuzz_init_NAME; see
 * fuzz/fuzz.mk, whose list of harnesses is the table here). Replays, in TAP
 * version 13:
 *   every file in fuzz/corpus/NAME/   through harness NAME;
 *   every .bin in vectors/P/regress/, for every protocol P of the build
 *                                 (tc_protocols[]), through the harness its
 *                                 name starts with (NAME-….bin), else
 *                                 through P_parse and P_decode (those that exist).
 * Each input runs in a child process (a failed check aborts only that test).
 *
 * Usage: regress [--root DIR] [--no-fork]            the corpora under DIR (default .)
 *        regress [--no-fork] HARNESS FILE...        given files through one harness
 * A harness whose init fails (diff: no adapter .so) is skipped with a reason.
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"
#include "harnesses.h"   /* TC_FUZZ_HARNESS_LIST, generated from fuzz/fuzz.mk */

#define HARNESSES(X) TC_FUZZ_HARNESS_LIST(X)

#define DECLARE(name)                                                  \
	int tc_fuzz_one_##name(const uint8_t *data, size_t size);      \
	int tc_fuzz_init_##name(int *argc, char ***argv);
HARNESSES(DECLARE)

struct harness {
	const char *name;
	int (*one)(const uint8_t *, size_t);
	int (*init)(int *, char ***);
	int state;   /* 0 not initialised, 1 ready, -1 init failed */
};

#define ENTRY(name) { #name, tc_fuzz_one_##name, tc_fuzz_init_##name, 0 },
static struct harness harnesses[] = { HARNESSES(ENTRY) };
#define NHARNESS (sizeof harnesses / sizeof harnesses[0])

static int no_fork;
static int test_no;
static int failures;
static int g_argc;
static char **g_argv;

static struct harness *find(const char *name, size_t len)
{
	for (size_t i = 0; i < NHARNESS; i++)
		if (strlen(harnesses[i].name) == len && !strncmp(harnesses[i].name, name, len))
			return &harnesses[i];
	return NULL;
}

static int ready(struct harness *h)
{
	if (h->state == 0) {
		/* init output goes to stderr, outside the TAP stream */
		h->state = h->init(&g_argc, &g_argv) == 0 ? 1 : -1;
	}
	return h->state == 1;
}

static void run_one(struct harness *h, const char *path)
{
	uint8_t *data;
	size_t len = 0;
	int status = 0;
	test_no++;
	if (!ready(h)) {
		printf("ok %d - %s %s # SKIP harness init failed (adapter .so missing? see stderr)\n", test_no, h->name, path);
		return;
	}
	data = tc_image_read_file(path, &len);
	if (!data) {
		printf("not ok %d - %s %s\n  ---\n  message: 'cannot read: %s'\n  ...\n", test_no, h->name, path,
		       strerror(errno));
		failures++;
		return;
	}
	fflush(stdout);
	if (no_fork) {
		h->one(data, len);
	} else {
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			exit(2);
		}
		if (pid == 0) {
			h->one(data, len);
			fflush(NULL);
			_exit(0);
		}
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR) {
				perror("waitpid");
				exit(2);
			}
	}
	free(data);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("ok %d - %s %s\n", test_no, h->name, path);
	} else {
		failures++;
		printf("not ok %d - %s %s\n  ---\n  message: '%s %d (the check message is on stderr)'\n  ...\n", test_no,
		       h->name, path, WIFSIGNALED(status) ? "killed by signal" : "exit status",
		       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Regular files in dir (sorted), skipping dot files. */
static size_t list_dir(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **list = NULL;
	size_t n = 0;
	*out = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		char path[4096];
		struct stat sb;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (stat(path, &sb) || !S_ISREG(sb.st_mode))
			continue;
		list = realloc(list, (n + 1) * sizeof *list);
		list[n++] = strdup(path);
	}
	closedir(d);
	if (n > 1)
		qsort(list, n, sizeof *list, cmp_str);
	*out = list;
	return n;
}

static void free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

/* A folder of fuzz/corpus/ that names no harness would never be replayed:
 * a failing test each. */
static void check_corpus_folders(void)
{
	DIR *d = opendir("fuzz/corpus");
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || find(e->d_name, strlen(e->d_name)))
			continue;
		test_no++;
		failures++;
		printf("not ok %d - fuzz/corpus/%s\n  ---\n  message: 'names no harness (make fuzz-harnesses): never replayed'\n  ...\n",
		       test_no, e->d_name);
	}
	if (d)
		closedir(d);
}

/* Harness P_KIND, or NULL. */
static struct harness *find_proto(const char *proto, const char *kind)
{
	char name[128];
	snprintf(name, sizeof name, "%s_%s", proto, kind);
	return find(name, strlen(name));
}

/* Every .bin of vectors/P/regress/: through the harness its name starts
 * with, else P_parse and P_decode. */
static void replay_protocol_regress(const char *proto)
{
	char dir[256], **list;
	size_t n;
	snprintf(dir, sizeof dir, "vectors/%s/regress", proto);
	n = list_dir(dir, &list);
	for (size_t j = 0; j < n; j++) {
		const char *base = strrchr(list[j], '/') + 1;
		size_t len = strlen(base);
		struct harness *h = find(base, strcspn(base, "-")), *parse, *decode;
		if (len < 4 || strcmp(base + len - 4, ".bin"))
			continue;
		if (h) {
			run_one(h, list[j]);
			continue;
		}
		parse = find_proto(proto, "parse");
		decode = find_proto(proto, "decode");
		if (parse)
			run_one(parse, list[j]);
		if (decode)
			run_one(decode, list[j]);
		if (!parse && !decode) {
			test_no++;
			failures++;
			printf("not ok %d - %s\n  ---\n  message: 'no harness: name it HARNESS-….bin (%s has no %s_parse or %s_decode)'\n  ...\n",
			       test_no, list[j], proto, proto, proto);
		}
	}
	free_list(list, n);
}

int main(int argc, char **argv)
{
	const char *root = ".";
	int i = 1;
	tc_fuzz_regress_mode = 1;
	g_argc = argc;
	g_argv = argv;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--no-fork"))
			no_fork = 1;
		else if (!strcmp(argv[i], "--root") && i + 1 < argc)
			root = argv[++i];
		else {
			fprintf(stderr, "usage: %s [--root DIR] [--no-fork] [HARNESS FILE...]\n", argv[0]);
			return 2;
		}
	}
	printf("TAP version 13\n");
	if (i < argc) {
		struct harness *h = find(argv[i], strlen(argv[i]));
		if (!h) {
			fprintf(stderr, "unknown harness '%s'\n", argv[i]);
			return 2;
		}
		if (chdir(root) != 0) {
			perror(root);
			return 2;
		}
		for (i++; i < argc; i++)
			run_one(h, argv[i]);
	} else {
		char **list;
		size_t n;
		if (chdir(root) != 0) {
			perror(root);
			return 2;
		}
		for (size_t k = 0; k < NHARNESS; k++) {
			char dir[256];
			snprintf(dir, sizeof dir, "fuzz/corpus/%s", harnesses[k].name);
			n = list_dir(dir, &list);
			for (size_t j = 0; j < n; j++)
				run_one(&harnesses[k], list[j]);
			free_list(list, n);
		}
		for (int p = 0; tc_protocols[p]; p++)
			replay_protocol_regress(tc_protocols[p]->name);
		check_corpus_folders();
	}
	printf("1..%d\n", test_no);
	return failures ? 1 : 0;
}
