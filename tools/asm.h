/* SPDX-License-Identifier: BSD-3-Clause */
/* asm.h — `tracecert asm`. */
#ifndef TC_ASM_H
#define TC_ASM_H

/* argv[1] is "asm"; returns the exit status. */
int tc_asm_main(int argc, char **argv);

#endif
