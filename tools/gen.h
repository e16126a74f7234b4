/* SPDX-License-Identifier: BSD-3-Clause */
/* gen.h — `tracecert gen`. */
#ifndef TC_GEN_H
#define TC_GEN_H

/* argv[1] is "gen"; returns the exit status. */
int tc_gen_main(int argc, char **argv);

#endif
