/* SPDX-License-Identifier: BSD-3-Clause */
/* protocol.c — finding a protocol's descriptor by name or id (the list tc_protocols[] is generated from PROTOCOLS in GNUmakefile). */
#include <string.h>

#include "tracecert/protocol.h"

const struct tc_protocol *tc_protocol_find(const char *name)
{
	for (int i = 0; name && tc_protocols[i]; i++)
		if (!strcmp(tc_protocols[i]->name, name))
			return tc_protocols[i];
	return NULL;
}

const struct tc_protocol *tc_protocol_by_id(int id)
{
	for (int i = 0; tc_protocols[i]; i++)
		if (tc_protocols[i]->id == id)
			return tc_protocols[i];
	return NULL;
}
