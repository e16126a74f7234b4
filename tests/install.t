# make install: the public headers, libraries and pkg-config file are enough to build an adapter
# outside the tree (the reference adapter, compiled against the installed copy, certifies at 100%).
. tests/lib/tap.sh
# the plain build (an ASan-instrumented library would need the ASan runtime to link), with none
# of the calling make's variables: under make coverage, MAKEFLAGS carries its CFLAGS and REF_SRC,
# which would build the plain build's objects with the clause trace and gcov
check "make install PREFIX=tmp" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install PREFIX="$tmp/usr" BUILD=build SAN=0 OPT=-O2
check "headers installed" test -f "$tmp/usr/include/tracecert/adapter.h" -a -f "$tmp/usr/include/tracecert/ete.h" -a -f "$tmp/usr/include/tracecert/ete_config.h" -a -f "$tmp/usr/include/tracecert/image.h" -a -f "$tmp/usr/include/tracecert/trace.h" -a -f "$tmp/usr/include/tracecert/build.h"
check "pkg-config file names the prefix" grep -q "^prefix=$tmp/usr\$" "$tmp/usr/lib/pkgconfig/tracecert.pc"
cflags="-I$tmp/usr/include"; libs="-L$tmp/usr/lib -ltracecert"
if command -v pkg-config >/dev/null 2>&1; then
  cflags=$(PKG_CONFIG_PATH="$tmp/usr/lib/pkgconfig" pkg-config --cflags tracecert)
  libs=$(PKG_CONFIG_PATH="$tmp/usr/lib/pkgconfig" pkg-config --libs tracecert)
fi
check "an adapter builds against the installed copy only" sh -c "cc -std=c11 -Wall -Wextra -Werror -fPIC -shared $cflags conformance/adapters/reference.c $libs -o '$tmp/libmine.so'"
check "and certifies at 100% on the spec vectors" sh -c "'$tmp/usr/bin/tracecert' certify --adapter '$tmp/libmine.so' --vectors vectors/ete/spec 2>&1 | grep -q 'score 100.00%'"
tap_done
