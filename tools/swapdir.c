/* swapdir.c — `swapdir NEW DEST`: exchanges two folders at once (tc_out_exchange, renameat2 RENAME_EXCHANGE), so that DEST names the old or the new folder at every instant; tools/swapin.sh puts a folder that `make vectors` built in place with it. */
#include <stdio.h>
#include <string.h>

#include "outfile.h"

int main(int argc, char **argv)
{
	char err[1200];
	int help = argc == 2 && !strcmp(argv[1], "--help");
	if (argc != 3) {
		fprintf(help ? stdout : stderr,
			"usage: swapdir NEW DEST\n"
			"Exchanges the folders NEW and DEST (one file system) in one step: after it DEST\n"
			"is what NEW was and NEW what DEST was; before it, nothing changed.\n");
		return help ? 0 : 2;
	}
	if (tc_out_exchange(argv[1], argv[2], err, sizeof err)) {
		fprintf(stderr, "swapdir: %s\n", err);
		return 2;
	}
	return 0;
}
