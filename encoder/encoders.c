/* encoders.c — what every protocol's encoder shares at its entry: freeing a generated vector (tracecert/encoder.h). */
#include <stdlib.h>
#include <string.h>

#include "tracecert/encoder.h"

void tc_enc_result_free(struct tc_enc_result *r)
{
	if (!r)
		return;
	free(r->cfg);
	for (int i = 0; i < r->nregions; i++)
		free(r->region[i].bytes);
	free(r->trace);
	free(r->l1);
	free(r->l3);
	free(r->tags);
	free(r->variants);
	free(r->error);
	free(r->note);
	memset(r, 0, sizeof *r);
}
