/* certify.h — the conformance runner behind `tracecert certify`. */
#ifndef TC_CERTIFY_H
#define TC_CERTIFY_H

struct tc_adapter;

/* dlopen()s an adapter and checks its entry point, ABI version and table;
 * NULL with a message on stderr on failure. */
const struct tc_adapter *tc_adapter_load(const char *path);

/* argv[1] is "certify"; returns the exit status. */
int tc_certify_main(int argc, char **argv);

#endif
