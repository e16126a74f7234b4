/* SPDX-License-Identifier: BSD-3-Clause */
/* config_cmd.h — `tracecert config`. */
#ifndef TC_CONFIG_CMD_H
#define TC_CONFIG_CMD_H

/* argv[1] is "config"; returns the exit status. */
int tc_config_main(int argc, char **argv);

#endif
