# SPDX-License-Identifier: BSD-3-Clause
# make install / uninstall: what a decoder team gets without this source tree. Installed into a
# temporary PREFIX, the tool certifies the installed reference adapter from the installed vectors
# (its default: no --vectors, run outside the tree), the installed example adapter builds with
# `pkg-config --cflags --libs tracecert` alone and certifies at 100%, the installed adapter fuzz
# harness (libtcfuzz.a) links with a fuzzing engine when clang has libFuzzer, the man pages are the
# installed tool's --help, the bash completion completes from it, and make uninstall leaves no file
# (only the empty standard folders: bin, lib, share/man/man1 …). Installed again into a DESTDIR with
# another PREFIX: every file under DESTDIR/PREFIX, the same files, and uninstall again leaves none.
# Then the flags: -Werror in a git checkout and in make check, not in a release tarball or with
# WERROR=0; the user's CPPFLAGS/CFLAGS/LDFLAGS after the tree's, never instead.
. tests/lib/tap.sh
V=$(cat VERSION)
# the plain build (an ASan-instrumented library would need the ASan runtime to link), with none
# of the calling make's variables: under make coverage, MAKEFLAGS carries its CFLAGS and REF_SRC,
# which would build the plain build's objects with the clause trace and gcov
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u TRACECERT_VECTORS make -s BUILD=build SAN=0 "$@"; }
P="$tmp/usr"
check "make install PREFIX=tmp" mk install PREFIX="$P"
check "the tool, libraries, pkg-config file, reference adapter, example, man page, completion, vectors installed" \
  test -x "$P/bin/tracecert" -a -f "$P/lib/libtracecert.a" -a -f "$P/lib/libtcenc.a" -a -f "$P/lib/libtcfuzz.a" \
  -a -f "$P/lib/pkgconfig/tracecert.pc" -a -f "$P/lib/tracecert/libtc_reference.so" \
  -a -f "$P/share/tracecert/examples/reference_adapter.c" -a -f "$P/share/man/man1/tracecert.1" \
  -a -f "$P/share/bash-completion/completions/tracecert" -a -f "$P/share/tracecert/vectors/README.md"
check "every public header, tracecert/build.h and every protocol's record header" sh -c "test -f '$P/include/tracecert/adapter.h' -a -f '$P/include/tracecert/build.h' -a -f '$P/include/tracecert/trace.h' && for p in $(tc_protocols); do test -f '$P/include/tracecert/'\$p.h || exit 1; done"
check "every vector file (.tcv, and the image files beside them) installed" sh -c "test \$(find vectors -name '*.tcv' | wc -l) -eq \$(find '$P/share/tracecert/vectors' -name '*.tcv' | wc -l) && for f in \$(find vectors -name '*.bin' -o -name '*.elf'); do cmp -s \$f '$P/share/tracecert/'\$f || exit 1; done"
PC="env PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config"
check "pkg-config file names the prefix" grep -q "^prefix=$P\$" "$P/lib/pkgconfig/tracecert.pc"
check "tracecert.pc lists every installed library (Libs, fuzz_libs)" sh -c "libs=\"\$($PC --libs tracecert) \$($PC --variable=fuzz_libs tracecert)\"; for a in '$P'/lib/lib*.a; do n=\${a##*/lib}; echo \"\$libs\" | grep -q -- \"-l\${n%.a}\" || { echo \"\$a not in: \$libs\"; exit 1; }; done"
check "one version: VERSION is the tool's, the .pc file's and the reference adapter's" sh -c "'$P/bin/tracecert' --version | grep -q '^tracecert $V\\b' && test \"\$($PC --modversion tracecert)\" = '$V' && grep -q '^#define TC_BUILD_VERSION \"$V\"' '$P/include/tracecert/build.h'"

# The installed tool alone, outside the tree: its default vectors are the installed ones.
mkdir -p "$tmp/run"
check "certify --help names the installed vectors as the default" sh -c "'$P/bin/tracecert' certify --help | grep -q 'installed: $P/share/tracecert/vectors\\.'"
check "the installed tool certifies the installed reference adapter from the installed vectors, at 100%" sh -c "cd '$tmp/run' && env -u TRACECERT_VECTORS '$P/bin/tracecert' certify --adapter '$P/lib/tracecert/libtc_reference.so' --report rep > rep.log 2>&1; grep -q 'score 100.00%' rep.log"
check "every installed vector ran, and the certificate gives VERSION" sh -c "cd '$tmp/run' && grep -q '\"vector_set\": {\"files\": '\$(find '$P/share/tracecert/vectors' -name '*.tcv' | wc -l)', ' rep/certificate.json && grep -q '\"vector\": \"$P/share/tracecert/vectors/' rep/certificate.json && grep -q '\"tracecert_version\": \"$V' rep/certificate.json && grep -q '\"adapter_version\": \"tracecert $V\"' rep/certificate.json"
check "TRACECERT_VECTORS replaces the default" sh -c "cd '$tmp/run' && TRACECERT_VECTORS='$P/share/tracecert/vectors/$(tc_protocols | cut -d' ' -f1)/spec' '$P/bin/tracecert' certify --adapter '$P/lib/tracecert/libtc_reference.so' --tap 2>/dev/null | grep '^ok' | grep -v '/spec/' | wc -l | grep -qx 0"
check "--vectors replaces TRACECERT_VECTORS" sh -c "cd '$tmp/run' && TRACECERT_VECTORS=/nonexistent '$P/bin/tracecert' certify --adapter '$P/lib/tracecert/libtc_reference.so' --vectors '$P/share/tracecert/vectors/README.md' 2>&1 | grep -q 'README.md' && TRACECERT_VECTORS=/nonexistent '$P/bin/tracecert' certify --adapter '$P/lib/tracecert/libtc_reference.so' 2>&1 | grep -q /nonexistent"

# The example adapter, built out of the tree from its installed copy with pkg-config alone.
check "the example adapter builds with pkg-config --cflags --libs tracecert alone" sh -c "cd '$tmp/run' && cc -std=c11 -Wall -Wextra -Werror -fPIC -shared \$($PC --cflags tracecert) '$P/share/tracecert/examples/reference_adapter.c' \$($PC --libs tracecert) -o libmine.so"
check "and certifies at 100% on the installed vectors" sh -c "cd '$tmp/run' && '$P/bin/tracecert' certify --adapter ./libmine.so 2>&1 | grep -q 'score 100.00%'"
# The adapter fuzz harness, linked with libFuzzer and the example adapter's objects (instrumented).
if printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$tmp/lf.c" &&
   clang -fsanitize=fuzzer "$tmp/lf.c" -o "$tmp/lf" >/dev/null 2>&1; then
  check "libtcfuzz.a links with -fsanitize=fuzzer and an adapter linked in, and fuzzes it without TC_FUZZ_ADAPTER" sh -c "cd '$tmp/run' && clang -fsanitize=fuzzer-no-link -fPIC -c \$($PC --cflags tracecert) '$P/share/tracecert/examples/reference_adapter.c' -o ad.o && clang -fsanitize=fuzzer ad.o \$($PC --variable=fuzz_libs tracecert) -o fuzz_mine && env -u TC_FUZZ_ADAPTER ./fuzz_mine -runs=300 2>&1 | grep -q 'fuzzing the adapter linked in (reference tracecert $V)'"
  check "and the same harness fuzzes an adapter .so given by TC_FUZZ_ADAPTER" sh -c "cd '$tmp/run' && clang -fsanitize=fuzzer \$($PC --variable=fuzz_libs tracecert) -o fuzz_so && TC_FUZZ_ADAPTER=./libmine.so ./fuzz_so -runs=300 2>&1 | grep -q 'fuzzing ./libmine.so'"
else
  n=$((n+1)); echo "ok $n # SKIP clang with libFuzzer (libclang-rt-14-dev) is not installed: libtcfuzz.a not linked"
fi

# The man pages: one per command the installed tool lists, each its --help.
cmds=$("$P/bin/tracecert" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p' | grep -vx help)
man_pages() { ls "$P/share/man/man1" | sort; }
man_expected() { { echo tracecert.1; for c in $cmds; do echo "tracecert-$c.1"; done; } | sort; }
same_pages() { [ "$(man_pages)" = "$(man_expected)" ] || { man_pages; echo "expected:"; man_expected; return 1; }; }
check "a man page per command of tracecert --help, and no other" same_pages
# man_is_help PAGE CMD...: the page's no-fill body, unescaped (\e, \&), is `tracecert CMD... --help`.
man_is_help() {
  page=$1; shift
  "$P/bin/tracecert" "$@" --help > "$tmp/help.txt" || return 1
  sed -n '/^\.nf$/,/^\.fi$/p' "$page" | sed -e '1d' -e '$d' -e 's/^\\&//' -e 's/\\e/\\/g' | diff "$tmp/help.txt" -
}
check "man page tracecert.1 is the installed tool's 'tracecert --help'" man_is_help "$P/share/man/man1/tracecert.1"
for c in $cmds; do
  check "man page tracecert-$c.1 is the installed tool's 'tracecert $c --help'" man_is_help "$P/share/man/man1/tracecert-$c.1" "$c"
done
if command -v man >/dev/null 2>&1; then
  man_clean() { for f in "$P"/share/man/man1/*.1; do out=$(MANWIDTH=80 man --warnings -l "$f" 2>&1 >/dev/null); [ -z "$out" ] || { echo "$f: $out"; return 1; }; done; }
  check "man renders every page without a warning" man_clean
fi
# The bash completion: the commands, then a command's options, from the installed tool.
if command -v bash >/dev/null 2>&1; then
  # complete_to WANT WORD...: completing the last WORD gives exactly WANT.
  complete_to() {
    want=$1; shift
    got=$(PATH="$P/bin:$PATH" bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tracecert; echo "${COMPREPLY[*]}"' \
      sh "$P/share/bash-completion/completions/tracecert" "$@")
    [ "$got" = "$want" ] || { echo "completing '$*': '$got', not '$want'"; return 1; }
  }
  check "bash completion: 'tracecert ce' completes to certify" complete_to certify tracecert ce
  check "bash completion: 'tracecert certify --vec' completes to --vectors" complete_to --vectors tracecert certify --vec
  check "bash completion: 'tracecert help dump --pro' completes to --protocol" complete_to --protocol tracecert help dump --pro
fi
(cd "$P" && find . ! -type d | LC_ALL=C sort) > "$tmp/installed.txt"

check "make uninstall" mk uninstall PREFIX="$P"
check "uninstall leaves no file, and no folder of tracecert's own" sh -c "test -z \"\$(find '$P' ! -type d)\" && test -z \"\$(find '$P' -name '*tracecert*')\" && test -z \"\$(find '$P' -type d -empty -prune -o -type d -print | grep -v -x -e '$P' -e '$P/lib' -e '$P/share' -e '$P/share/man' -e '$P/share/bash-completion' -e '$P/include' -e '$P/bin' | grep -v '^$P/share/man/man1\$\|completions\$\|pkgconfig\$')\""

# DESTDIR: a staged install, as a package build makes it.
D="$tmp/stage"
check "make install DESTDIR=tmp PREFIX=/opt/tc" mk install DESTDIR="$D" PREFIX=/opt/tc
check "every file under DESTDIR/PREFIX, the same files as the install above" sh -c "test -z \"\$(find '$D' ! -type d | grep -v '^$D/opt/tc/')\" && cd '$D/opt/tc' && find . ! -type d | LC_ALL=C sort | diff '$tmp/installed.txt' -"
check "the staged tool and pc file name PREFIX, not DESTDIR" sh -c "grep -q '^prefix=/opt/tc\$' '$D/opt/tc/lib/pkgconfig/tracecert.pc' && '$D/opt/tc/bin/tracecert' certify --help | grep -q 'installed: /opt/tc/share/tracecert/vectors\\.' && ! grep -rq '$D' '$D/opt/tc/lib/pkgconfig' '$D/opt/tc/share/man'"
check "the staged tool certifies with TRACECERT_VECTORS pointing into DESTDIR" sh -c "cd '$tmp/run' && TRACECERT_VECTORS='$D/opt/tc/share/tracecert/vectors/$(tc_protocols | cut -d' ' -f1)/spec' '$D/opt/tc/bin/tracecert' certify --adapter '$D/opt/tc/lib/tracecert/libtc_reference.so' 2>&1 | grep -q 'score 100.00%'"
check "make uninstall DESTDIR=tmp PREFIX=/opt/tc leaves no file" sh -c "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s BUILD=build SAN=0 uninstall DESTDIR='$D' PREFIX=/opt/tc && test -z \"\$(find '$D' ! -type d)\""

# The flags (OPT and SAN unset too: the calling make's command-line variables, make check-asan's SAN=1 OPT=-O1, reach this environment).
compile_line() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CFLAGS -u CPPFLAGS -u WERROR -u OPT -u SAN make -n -B BUILD="$tmp/flags" "$@" "$tmp/flags/obj/reference/image.o" | grep ' -c reference/image.c'; }
# flags_match PATTERN MAKE-ARGUMENT...: the compile line matches; flags_no_werror MAKE-ARGUMENT...: it has no -Werror.
flags_match() { pat=$1; shift; line=$(compile_line "$@") && echo "$line" | grep -q -- "$pat" || { echo "$line"; return 1; }; }
flags_no_werror() { line=$(compile_line "$@") && [ -n "$line" ] && ! echo "$line" | grep -q -- -Werror || { echo "$line"; return 1; }; }
if [ -e .git ]; then
  check "-Werror in a git checkout" flags_match ' -Werror '
else
  check "no -Werror outside a git checkout (a release tarball)" flags_no_werror
fi
check "WERROR=1: -Werror" flags_match ' -Werror ' WERROR=1
check "make check and .ci/run keep -Werror (WERROR=1)" sh -c "grep -q 'BUILD=build WERROR=1 test-run' GNUmakefile && grep -q 'SAN=1 OPT=-O1 WERROR=1 test-run' GNUmakefile && grep -q '^make check WERROR=1\$' .ci/run"
check "WERROR=0: no -Werror" flags_no_werror WERROR=0
check "the user's CPPFLAGS and CFLAGS come after the tree's flags, which stay" flags_match '-Itools -DTC_USER_CPP .*-std=c11 .*-O3 -g .*-fPIC -DTC_USER_C ' CPPFLAGS=-DTC_USER_CPP CFLAGS=-DTC_USER_C
check "the user's LDFLAGS come after the tree's on a link" sh -c "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -B BUILD='$tmp/flags' LDFLAGS=-Wl,--tc-user '$tmp/flags/tracecert' | grep -q -- '-fPIC  *-Wl,--tc-user -o $tmp/flags/tracecert'"
# A release tarball is the tree without .git (make dist: git archive of HEAD): here the tree's files
# linked into a folder without .git (cp -rs: real folders, links to the files).
mkdir -p "$tmp/rel" && for f in *; do [ "$f" = build ] || cp -rs "$PWD/$f" "$tmp/rel/"; done
check "the tree without .git (a release tarball) builds without -Werror" sh -c "cd '$tmp/rel' && test ! -e .git && line=\$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u WERROR make -n -B BUILD='$tmp/relb' '$tmp/relb/obj/reference/image.o' | grep ' -c reference/image.c') && test -n \"\$line\" && ! echo \"\$line\" | grep -q -- -Werror"
[ -e .git ] && command -v git >/dev/null 2>&1 &&
  check "make dist archives git HEAD as tracecert-VERSION/" sh -c "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n BUILD='$tmp/dist' dist | grep -q -- 'git archive --format=tar.gz --prefix=tracecert-$V/ -o $tmp/dist/tracecert-$V.tar.gz HEAD'"
tap_done
