/* SPDX-License-Identifier: BSD-3-Clause */
/* certify_cmd.h — `tracecert certify`. */
#ifndef TC_CERTIFY_CMD_H
#define TC_CERTIFY_CMD_H

/* argv[1] is "certify"; returns the exit status. */
int tc_certify_main(int argc, char **argv);

#endif
