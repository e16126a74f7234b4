/* SPDX-License-Identifier: BSD-3-Clause */
/* bench.h — `tracecert bench`. */
#ifndef TC_BENCH_H
#define TC_BENCH_H

/* argv[1] is "bench"; returns the exit status. */
int tc_bench_main(int argc, char **argv);

#endif
