# SPDX-License-Identifier: BSD-3-Clause
# tools/bench-floor.sh (make bench-floor): its patches must keep applying to the reference, and a
# patched build must still compile and run through tracecert bench. Run once, in the plain pass.
case "${TC_BUILD:-build}" in
*asan*) echo "1..0 # SKIP bench-floor builds its own copies; checked in the plain pass"; exit 0 ;;
esac
B="${TC_BUILD:-build}"
. tests/lib/tap.sh
check "every tools/floor patch applies to reference/" sh tools/bench-floor.sh --check "$tmp/b"
check "bad usage exits 2" sh -c "sh tools/bench-floor.sh; test \$? -eq 2"
check "a patch that no longer applies is reported, exit 1" sh -c "mkdir -p '$tmp/t/tools/floor/ete' && cp -r reference GNUmakefile '$tmp/t/' && sed 's/tc_stage2_emit(&d->s2/no_such_call(/' tools/floor/ete/1-no-stage2.patch > '$tmp/t/tools/floor/ete/1-x.patch' && cd '$tmp/t' && sh '$PWD/tools/bench-floor.sh' --check '$tmp/t/b' 2>&1 | grep -q '1-x.patch does not apply' && { sh '$PWD/tools/bench-floor.sh' --check '$tmp/t/b' >/dev/null 2>&1; test \$? -eq 1; }"
check "each floor build runs the L1 row (1 MiB, 1 run, the reference as the other column)" sh -c "mkdir -p '$tmp/f' && ln -s \"\$(cd '$B' && pwd)/tracecert\" '$tmp/f/tracecert' && mkdir -p '$tmp/f/adapters' && ln -s \"\$(cd '$B' && pwd)/adapters/libtc_reference.so\" '$tmp/f/adapters/libtc_reference.so' && ln -s \"\$(cd '$B' && pwd)/adapters/libtc_reference.so\" '$tmp/f/adapters/libtc_opencsd.so' && out=\$(CFLAGS='-std=c11 -O1' sh tools/bench-floor.sh '$tmp/f' --size 1 --runs 1) && test \$(echo \"\$out\" | grep -Ec '^ete L1 packets .*[0-9]x [[]') -eq 3 && test \$(echo \"\$out\" | grep -c ' L1 packets ') -eq 3 && echo \"\$out\" | grep -q '^== ete-2-no-elements (not a decoder' && ! echo \"\$out\" | grep -q ' L3 '"
check "--callgrind without valgrind says what to install, exit 1" sh -c "out=\$(VALGRIND=/nonexistent/valgrind sh tools/bench-floor.sh --callgrind '$tmp/f' 2>&1); test \$? -eq 1 && echo \"\$out\" | grep -q 'needs valgrind (.*apt-get install valgrind)'"
tap_done
