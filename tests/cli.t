# Command-line behaviour of build/tracecert: help texts, bad input, exit codes; configuration from trace unit
# registers (derivations, precedence, errors, the one key table behind the help, the vector reader and
# vectors/README.md).
T="${TC_BUILD:-build}/tracecert"
V="${TC_BUILD:-build}/test/vectest"
. tests/lib/tap.sh
# rejects MESSAGE ARG...: tracecert ARG... prints MESSAGE (a fixed string) and exits 2.
rejects() { m=$1; shift; "$T" "$@" 2>&1 | grep -qF -- "$m" && { "$T" "$@" >/dev/null 2>&1; test $? -eq 2; }; }
check "--help exits 0 and lists dump" sh -c "out=\$('$T' --help) && echo \"\$out\" | grep -q '^  dump'"
check "dump --help documents every config key" sh -c "h=\$('$T' dump --help); for k in maxspec commopt commtrans tsmark ite rme tf_keep_cc queue_cap tx_cap; do echo \"\$h\" | grep -q \"\$k=\" || exit 1; done"
check "no command exits 2" sh -c "'$T'; test \$? -eq 2"
check "unknown command exits 2 and says so" sh -c "'$T' frob 2>&1 | grep -q \"unknown command 'frob'\" && { '$T' frob 2>/dev/null; test \$? -eq 2; }"
check "dump without FILE exits 2 with a message" sh -c "'$T' dump 2>&1 | grep -q 'no FILE' && { '$T' dump >/dev/null 2>&1; test \$? -eq 2; }"
check "unknown option is named" sh -c "'$T' dump --bogus x 2>&1 | grep -q \"unknown option '--bogus'\""
check "unknown config key is named" sh -c "'$T' dump --config foo=1 /dev/null 2>&1 | grep -q \"unknown config key or register 'foo'\""
check "bad config value is named" sh -c "'$T' dump --config maxspec=70000 /dev/null 2>&1 | grep -q \"bad value '70000'\""
check "bad --level is rejected (exit 2)" sh -c "'$T' dump --level 9 /dev/null 2>&1 | grep -q 'expects 1, s1, 2 or all' && { '$T' dump --level 9 /dev/null >/dev/null 2>&1; test \$? -eq 2; }"
check "missing file names the file" sh -c "'$T' dump /nonexistent/x 2>&1 | grep -q \"cannot read '/nonexistent/x'\""
printf '00 00 00 00 00 00 00 00 00 00 00 80 01 00 04 zz\n' > "$tmp/bad.hex"
check "bad hex names the byte offset" sh -c "'$T' dump --hex '$tmp/bad.hex' 2>&1 | grep -q 'byte 45: expected a hex digit'"
printf '00 00 00 00 00 00 00 00 00 00 00 80 # A-sync\n01 00 04 f7\n' > "$tmp/ok.hex"
check "dump --hex prints the packets" sh -c "'$T' dump --hex '$tmp/ok.hex' | tr '\n' '|' | grep -q '^@0 00 async|@12 01 trace-info cc=0 cct=0 spec=0 tx=0|@14 04 trace-on|@15 f7 atom atoms=E|\$'"
check "dump --level 2 prints resolved elements" sh -c "'$T' dump --hex --level 2 '$tmp/ok.hex' | grep -q '^@15 atom E\$'"
printf '00 00 00 00 00 00 00 00 00 00 00 80 01 00 05\n' > "$tmp/res.hex"
check "a reserved header exits 1 and prints the error" sh -c "'$T' dump --hex '$tmp/res.hex' | grep -q '^@14 05 error class=reserved-header\$' && { '$T' dump --hex '$tmp/res.hex' >/dev/null; test \$? -eq 1; }"
printf 'f7 f7 00 00 00 00 00 00 00 00 00 00 00 80\n' > "$tmp/skip.hex"
check "skipped bytes are reported" sh -c "'$T' dump --hex '$tmp/skip.hex' | grep -q '^# skipped 2 bytes'"
check "binary input from stdin" sh -c "printf '\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\200\\004' | '$T' dump - | grep -q '^@12 04 trace-on\$'"
check "dump --vector reads a vector's config and trace" sh -c "'$T' dump --vector vectors/ete/spec/k10-18-transaction-failure-speculative.tcv --level 2 | grep -q '^@[0-9]* trans-failure\$'"
{ printf 'tracecert-vector 1\n[config]\nprotocol=ete\nmaxspec=0\ncommopt=0\ncommtrans=0\ntsmark=0\nite=0\nrme=0\ntf_keep_cc=0\n[trace]\n00 00 00 00 00 00 00 00 00 00 00 80\n[expect.l1]\n@0 00 async\n'; i=0; while [ $i -lt 65 ]; do printf '[image base=0x%x]\n00 00 00 00\n' $((i * 16)); i=$((i + 1)); done; } > "$tmp/many.tcv"
check "a vector may give at most 64 image regions (the table certify hands an adapter)" sh -c "'$T' dump --vector '$tmp/many.tcv' 2>&1 | grep -q 'the \[image\] sections give 65 regions; a vector may give at most 64' && head -n \$((14 + 2 * 64)) '$tmp/many.tcv' > '$tmp/ok64.tcv' && '$T' dump --vector '$tmp/ok64.tcv' | grep -qx '@0 00 async'"
check "certify --help explains the verdicts" sh -c "'$T' certify --help | grep -q 'crash (signal), hang'"
check "decode --help documents the stage-3 keys" sh -c "h=\$('$T' decode --help); for k in wfxmode retstack walk_limit 'FILE@ADDR'; do echo \"\$h\" | grep -q \"\$k\" || exit 1; done"
check "decode with a bad --image address is refused (message, exit 2)" rejects "'zz' is not an address" decode --image x@zz /dev/null
check "decode with a malformed ELF names the problem" sh -c "printf 'notelf' > '$tmp/bad.elf'; '$T' decode --image '$tmp/bad.elf' /dev/null 2>&1 | grep -q 'bad magic'"
check "gen writes a vector that decodes as it says" sh -c "'$T' gen --seed 7 --quiet > '$tmp/g.tcv' && '${TC_BUILD:-build}/test/vectest' '$tmp/g.tcv'"
check "gen --coverage lists the variants" sh -c "'$T' gen --count 50 --coverage --quiet | grep -q '^# variants used: '"
check "gen rejects impossible parameters (message, exit 2): --steps 0" rejects 'expects a number in 1..100000' gen --steps 0
check "gen rejects impossible parameters (message, exit 2): --blocks 2" rejects 'in 4..4096' gen --blocks 2
check "gen rejects impossible parameters (message, exit 2): maxspec=99999" rejects "bad value '99999'" gen --config maxspec=99999
check "gen rejects impossible parameters (message, exit 2): an unknown option" rejects "unknown option '--bogus'" gen --bogus
check "gen --seeds-file reports a bad line" sh -c "printf '1\\nx\\n' > '$tmp/s.txt'; '$T' gen --seeds-file '$tmp/s.txt' 2>&1 | grep -q 's.txt:2: expected a seed number'"
check "bench without --reference exits 2 and says what is required" sh -c "'$T' bench 2>&1 | grep -q -- '--reference PATH.so is required' && { '$T' bench >/dev/null 2>&1; test \$? -eq 2; }"
check "bench --only names an unknown section" sh -c "'$T' bench --reference x.so --only throughput,frob 2>&1 | grep -q \"unknown section 'frob'\" && { '$T' bench --reference x.so --only frob >/dev/null 2>&1; test \$? -eq 2; }"
check "bench --only throughput prints L1 and L3 figures for the reference, OpenCSD's column 'not installed' without --opencsd" sh -c "out=\$('$T' bench --reference '${TC_BUILD:-build}/adapters/libtc_reference.so' --size 1 --runs 1 --only throughput) && echo \"\$out\" | grep -Eq '^L1 packets .* [0-9]+[.][0-9] [[]' && echo \"\$out\" | grep -Eq '^L3 instructions +[0-9]+[.][0-9] [[]' && ! echo \"\$out\" | grep -q '^encoder' && echo \"\$out\" | grep -Eq '^L1 packets .* not installed\$'"
check "bench --only l1 prints the L1 row alone" sh -c "out=\$('$T' bench --reference '${TC_BUILD:-build}/adapters/libtc_reference.so' --size 1 --runs 1 --only l1) && echo \"\$out\" | grep -Eq '^L1 packets .* [0-9]+[.][0-9] [[]' && ! echo \"\$out\" | grep -q '^L3'"
check "bench with a second adapter prints the run-by-run ratio with its range (the reference as both)" sh -c "out=\$('$T' bench --reference '${TC_BUILD:-build}/adapters/libtc_reference.so' --opencsd '${TC_BUILD:-build}/adapters/libtc_reference.so' --size 1 --runs 2 --only throughput) && echo \"\$out\" | grep -Eq '^L1 packets .*[0-9][.][0-9]{2}x [[][0-9]+[.][0-9]{2}[.][.][0-9]+[.][0-9]{2}[]]\$' && echo \"\$out\" | grep -Eq '^L3 instructions .*[0-9][.][0-9]{2}x [[]'"
# bench's fuzz section with stand-in harnesses (a script printing libFuzzer's final statistic): the
# ASan figure as printed; the no-sanitizer figure is the sum of its two processes, median of --runs.
printf '#!/bin/sh\necho "stat::average_exec_per_sec:     1234"\n' > "$tmp/fake-parse"; chmod +x "$tmp/fake-parse"
check "bench --only fuzz: one-core figure, and two processes summed for the no-sanitizer build" sh -c "out=\$('$T' bench --reference '${TC_BUILD:-build}/adapters/libtc_reference.so' --only fuzz --runs 2 --fuzz-parse '$tmp/fake-parse' --fuzz-parse-fast '$tmp/fake-parse') && echo \"\$out\" | grep -Eq '^parse fuzz harness +1234 execs/s [(]libFuzzer, ASan' && echo \"\$out\" | grep -Eq '^parse fuzz harness, no sanitizers +2468 execs/s [[]2468[.][.]2468[]] [(]libFuzzer, 2 processes, -max_len=128, fresh, 10 s; 2 runs[)]'"
check "bench --only fuzz without the harnesses says how to build each" sh -c "out=\$('$T' bench --reference '${TC_BUILD:-build}/adapters/libtc_reference.so' --only fuzz --fuzz-parse '$tmp/none' --fuzz-parse-fast '$tmp/none') && echo \"\$out\" | grep -q 'not built (make fuzz-build-libfuzzer; needs clang)' && echo \"\$out\" | grep -q 'not built (make fuzz-build-libfuzzer FUZZ_LF_SAN=; needs clang)'"
# Configuration from trace unit registers.
check "config --markdown is exactly the table in vectors/README.md" sh -c "'$T' config --markdown > '$tmp/md' && sed -n '/^<!-- tracecert config --markdown -->\$/,/^<!-- end of tracecert config --markdown -->\$/p' vectors/README.md | sed '1d;\$d' > '$tmp/readme' && test -s '$tmp/md' && cmp '$tmp/md' '$tmp/readme'"
check "every key of the table is in dump --help or decode --help, and every register in dump --help" sh -c "'$T' config --markdown | sed -n 's/^| \`\\([a-z_0-9]*\\)\` .*/\\1/p' > '$tmp/keys' && test \$(wc -l < '$tmp/keys') -eq 12 && h=\$('$T' dump --help; '$T' decode --help) && while read k; do echo \"\$h\" | grep -q \" \$k=\" || exit 1; done < '$tmp/keys' && for r in TRCIDR0 TRCIDR2 TRCIDR8 TRCCONFIGR TRCDEVARCH TRCTRACEIDR; do '$T' dump --help | grep -q \"^      \$r \" || exit 1; done"
check "config derives every key from the registers and says from where" sh -c "'$T' config TRCIDR0=0x68C00EA1 TRCIDR8=12 TRCCONFIGR=0x18C1 TRCIDR2=0x80000488 TRCDEVARCH=0x47715A13 > '$tmp/c' && grep -qx 'maxspec=12  # TRCIDR8.MAXSPEC' '$tmp/c' && grep -qx 'commopt=1  # TRCIDR0.COMMOPT' '$tmp/c' && grep -qx 'commtrans=1  # TRCIDR0.COMMTRANS' '$tmp/c' && grep -q '^tsmark=1  # TRCIDR0.TSMARK' '$tmp/c' && grep -qx 'ite=1  # TRCIDR0.ITE' '$tmp/c' && grep -qx 'wfxmode=1  # TRCIDR2.WFXMODE' '$tmp/c' && grep -qx 'retstack=1  # TRCIDR0.RETSTACK and TRCCONFIGR.RS' '$tmp/c' && grep -qx 'rme=0  # default' '$tmp/c'"
check "config reports the cycle counter and timestamp sizes, the revision and the trace ID" sh -c "'$T' config TRCIDR0=0x08000EA1 TRCIDR2=0x06000488 TRCDEVARCH=0x47725A13 TRCTRACEIDR=0x22 > '$tmp/c' && grep -qx '# note: the cycle counter is 15 bits (TRCIDR2.CCSIZE)' '$tmp/c' && grep -qx '# note: timestamps are 64 bits (TRCIDR0.TSSIZE)' '$tmp/c' && grep -qx '# note: ETE 1.2 (TRCDEVARCH.REVISION)' '$tmp/c' && grep -qx '# TRCTRACEIDR: trace ID 0x22' '$tmp/c'"
check "a key overrides a derived one, given before or after the register" sh -c "'$T' config maxspec=3 TRCIDR8=8 | grep -qx 'maxspec=3  # given' && '$T' config TRCIDR8=8 maxspec=3 | grep -qx 'maxspec=3  # given' && '$T' config TRCIDR8=8 | grep -qx 'maxspec=8  # TRCIDR8.MAXSPEC'"
check "an unknown register is an error naming it, exit 2" sh -c "'$T' dump --config TRCIDR7=1 /dev/null 2> '$tmp/e'; test \$? -eq 2 && grep -q \"tracecert dump: unknown config key or register 'TRCIDR7'\" '$tmp/e'"
check "a register value that does not parse is an error naming it, exit 2" sh -c "'$T' decode --config trcidr0=0xzz /dev/null 2> '$tmp/e'; test \$? -eq 2 && grep -q \"tracecert decode: bad value '0xzz' for register TRCIDR0\" '$tmp/e'"
check "a register with a reserved field is refused, naming the field" sh -c "'$T' dump --config TRCIDR2=0x12000488 /dev/null 2> '$tmp/e'; test \$? -eq 2 && grep -q 'CCSIZE \\[28:25\\] is 0x9, a reserved value' '$tmp/e' && '$T' dump --config TRCIDR0=0x06000EA1 /dev/null 2>&1 | grep -q 'TSSIZE' && '$T' dump --config TRCDEVARCH=0x47734A13 /dev/null 2>&1 | grep -q 'not an ETE trace unit'"
printf '00 00 00 00 00 00 00 00 00 00 00 80 01 00 88\n' > "$tmp/tsm.hex"
check "dump --config TRCIDR0 with TSMARK decodes 0x88 as a Timestamp Marker" sh -c "'$T' dump --hex '$tmp/tsm.hex' --config trcidr0=0x08800EA1 | grep -qx '@14 88 ts-marker'"
check "TSMARK with TRCDEVARCH.REVISION 0 (ETE 1.0) is ignored with a note: 0x88 is reserved" sh -c "'$T' dump --hex '$tmp/tsm.hex' --config TRCDEVARCH=0x47705A13 --config TRCIDR0=0x08800EA1 > '$tmp/o'; test \$? -eq 1 && grep -q '^# note: TRCIDR0.TSMARK is set but TRCDEVARCH.REVISION 0' '$tmp/o' && grep -qx '@14 88 error class=reserved-header' '$tmp/o'"
check "a vector may give its configuration as registers (tests/data/regs-k10-15.tcv decodes as its expect sections)" "$V" tests/data/regs-k10-15.tcv
check "a vector whose registers leave a key underived is rejected, naming the key and the registers" sh -c "'$V' tests/data/regs-missing-rs.tcv > '$tmp/o'; grep -q \"does not give 'retstack', needed with \\[expect.l3\\] (every key must be given, directly or by TRCIDR0.RETSTACK and TRCCONFIGR.RS)\" '$tmp/o' && ! '$V' tests/data/regs-missing-rs.tcv"
check "--config registers override a vector's [config]" sh -c "'$T' dump --vector tests/data/regs-k10-15.tcv --level 2 --config TRCIDR8=0 | grep -q 'error class=commit-overrun'"
check "gen --config takes registers" sh -c "'$T' gen --seed 3 --quiet --config TRCIDR0=0x28000EA1 --config TRCIDR8=4 | grep -qx 'commopt=1' && '$T' gen --seed 3 --quiet --config TRCIDR0=0x28000EA1 --config TRCIDR8=4 | grep -qx 'maxspec=4'"
tap_done
