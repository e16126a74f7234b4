/* SPDX-License-Identifier: BSD-3-Clause */
/* swapdir.c — `swapdir NEW DEST [NEW2 DEST2]...`: exchanges each pair of folders at once (tc_out_exchange, renameat2 RENAME_EXCHANGE), so that each DEST names the old or the new folder at every instant, and the pairs together: one right after the other with every signal that can be blocked blocked, the exchanges made undone when one fails; tools/swapin.sh puts the folders that `make vectors` built in place with it. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "outfile.h"

/* Exchanges the pairs of argv (argc of them, NEW DEST each); when one
 * cannot be exchanged, exchanges back those that were. 0, or -1 after a
 * message. */
static int exchange_pairs(int argc, char **argv)
{
	char err[1200], undo[1200];
	for (int i = 0; i + 1 < argc; i += 2) {
		if (tc_out_exchange(argv[i], argv[i + 1], err, sizeof err) == 0)
			continue;
		fprintf(stderr, "swapdir: %s\n", err);
		for (int k = i - 2; k >= 0; k -= 2)
			if (tc_out_exchange(argv[k], argv[k + 1], undo, sizeof undo) != 0)
				fprintf(stderr, "swapdir: putting back '%s': %s\n", argv[k + 1], undo);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	sigset_t all;
	int help = argc == 2 && !strcmp(argv[1], "--help");
	if (argc < 3 || argc % 2 == 0) {
		fprintf(help ? stdout : stderr,
			"usage: swapdir NEW DEST [NEW2 DEST2]...\n"
			"Exchanges the folders NEW and DEST (one file system) in one step: after it DEST\n"
			"is what NEW was and NEW what DEST was; before it, nothing changed. Several pairs\n"
			"are exchanged one right after the other, with SIGINT, SIGTERM, SIGHUP and every\n"
			"other signal that can be blocked blocked; when one pair cannot be exchanged, the\n"
			"pairs before it are exchanged back (exit status 2).\n");
		return help ? 0 : 2;
	}
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);   /* no interruption between the pairs but SIGKILL */
	return exchange_pairs(argc - 1, argv + 1) == 0 ? 0 : 2;
}
