# SPDX-License-Identifier: BSD-3-Clause
# Bits the text leaves unassigned (reference/ete/ERRATA.md TC-R1) on the command line: decoding goes
# on, the warning is printed, the exit status is that of a trace without errors.
. tests/lib/tap.sh
T="${TC_BUILD:-build}/tracecert"
A="00 00 00 00 00 00 00 00 00 00 00 80"
printf '%s 01 01 01 0D F6 F7\n' "$A" > "$tmp/cc.hex"
printf '%s 01 01 10 F7\n' "$A" > "$tmp/info.hex"
check "0D F6 under commopt=1 after Trace Info 01 01 01: one cycle count, no error, no warning, exit 0" \
  sh -c "out=\$('$T' dump --hex --config commopt=1 '$tmp/cc.hex') && echo \"\$out\" | grep -qx '@15 0d cycle-count commit=0 cc=6' && echo \"\$out\" | grep -qx '@17 f7 atom atoms=E' && ! echo \"\$out\" | grep -q -e error -e warning"
check "Trace Info INFO<4> set: a res0 warning after the packet's line, decoding goes on, exit 0" \
  sh -c "out=\$('$T' dump --hex '$tmp/info.hex') && test \"\$(echo \"\$out\" | sed -n '2,4p')\" = \"\$(printf '@12 01 trace-info cc=0 cct=0 spec=0 tx=0\n@12 01 warning class=res0 field=info bits=0x10\n@15 f7 atom atoms=E')\""
check "the warning is not an element: s1 and L2 are those of INFO 0x00 (the warning a comment line)" \
  sh -c "printf '%s 01 01 00 F7\\n' '$A' > '$tmp/info0.hex' && for l in s1 2; do '$T' dump --hex --level \$l '$tmp/info.hex' > '$tmp/a' && '$T' dump --hex --level \$l '$tmp/info0.hex' > '$tmp/b' && grep -qx '# @12 01 warning class=res0 field=info bits=0x10' '$tmp/a' && grep -v '^#' '$tmp/a' | cmp -s - '$tmp/b' || exit 1; done"
check "decode prints the warnings as comment lines and exits 0" \
  sh -c "out=\$('$T' decode --vector vectors/ete/l3/warn-real-patterns.tcv) && echo \"\$out\" | grep -qx '# @12 01 warning class=res0 field=info bits=0x10' && test \$(echo \"\$out\" | grep -c '^# @31 0c warning class=ignored-field') -eq 2 && echo \"\$out\" | grep -qx '@31 cycle-count n=3'"
tap_done
