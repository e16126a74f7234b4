/* SPDX-License-Identifier: BSD-3-Clause */
/* decode.c — fuzz harness: the ETMv1 sample file through its descriptor, L1 with the image walk
 * and L3, against the same decoder at L1 alone and fed whole: the shared body
 * ../cyclecap_decode.c with ETMv1's values (its property and input: cyclecap_decode.h). */
#include "cyclecap_decode.h"
#include "fuzz.h"
#include "tracecert/etmv1.h"

/* The error class of an L1 record of kind tc_etmv1_error. */
static int l1_error(const struct tc_item *it)
{
	return ((const struct tc_etmv1_record *)it)->error;
}

static const struct tc_fuzz_cyclecap etmv1_decode = {
	"etmv1", tc_proto_etmv1, 1, tc_etmv1_error, tc_etmv1_warning, tc_etmv1_err_count, l1_error,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return tc_fuzz_cyclecap_decode(&etmv1_decode, data, size);
}
