/* SPDX-License-Identifier: BSD-3-Clause */
/* decode.c — fuzz harness: the ETMv2 sample file through its descriptor, L1 and the L3
 * analyzer, against the same decoder at L1 alone and fed whole: the shared body
 * ../cyclecap_decode.c with ETMv2's values (its property and input: cyclecap_decode.h). */
#include "cyclecap_decode.h"
#include "fuzz.h"
#include "tracecert/etmv2.h"

/* The error class of an L1 record of kind tc_etmv2_error. */
static int l1_error(const struct tc_item *it)
{
	return ((const struct tc_etmv2_record *)it)->error;
}

static const struct tc_fuzz_cyclecap etmv2_decode = {
	"etmv2", tc_proto_etmv2, 2, tc_etmv2_error, tc_etmv2_warning, tc_etmv2_err_count, l1_error,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return tc_fuzz_cyclecap_decode(&etmv2_decode, data, size);
}
