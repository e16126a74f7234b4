# SPDX-License-Identifier: BSD-3-Clause
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
{ printf 'tracecert-vector 1\n[config]\nprotocol=ete\nmaxspec=0\ncommopt=0\ncommtrans=0\ntsmark=0\nite=0\nrme=0\ntf_keep_cc=0\n[trace]\n00 00 00 00 00 00 00 00 00 00 00 80\n[expect.l1]\n@0 00 async\n'; i=0; while [ $i -lt 65 ]; do printf '[image base=0x%x]\n00 00 00 00\n' $((i * 16)); i=$((i + 1)); done; printf '[end]\n'; } > "$tmp/many.tcv"
check "a vector may give at most 64 image regions (the table certify hands an adapter)" sh -c "'$T' dump --vector '$tmp/many.tcv' 2>&1 | grep -q 'the \[image\] sections give 65 regions; a vector may give at most 64' && { head -n \$((14 + 2 * 64)) '$tmp/many.tcv'; echo '[end]'; } > '$tmp/ok64.tcv' && '$T' dump --vector '$tmp/ok64.tcv' | grep -qx '@0 00 async'"
check "certify --help explains the verdicts" sh -c "'$T' certify --help | grep -q 'crash (signal), hang'"
check "certify --help names --no-isolation and when certify refuses without it" sh -c "h=\$('$T' certify --help) && echo \"\$h\" | grep -q '^  --no-isolation ' && echo \"\$h\" | grep -q 'certify refuses to load it (exit status 2)'"
check "decode --help documents the stage-3 keys" sh -c "h=\$('$T' decode --help); for k in wfxmode retstack walk_limit 'FILE@ADDR'; do echo \"\$h\" | grep -q \"\$k\" || exit 1; done"
check "decode with a bad --image address is refused (message, exit 2)" rejects "'zz' is not an address" decode --image x@zz /dev/null
check "decode with a malformed ELF names the problem" sh -c "printf 'notelf' > '$tmp/bad.elf'; '$T' decode --image '$tmp/bad.elf' /dev/null 2>&1 | grep -q 'bad magic'"
check "decode --image RAW without @ADDR: not an ELF file, with the hint that a raw binary needs its address (exit 2)" \
  rejects "--image $tmp/bad.elf: offset 0: not an ELF file (bad magic); a raw binary needs its load address: --image FILE@ADDR" decode --image "$tmp/bad.elf" /dev/null
# An image that lacks the trace's addresses: the in-band no-image item (reference/L3FORMAT.md), one line on
# standard error naming the command, the trace file, the first address and the byte offset of its packet,
# exit 1. a64-bcond.tcv's comments: the Target Address @17 goes to 0x1000, which the atom @26 walks from;
# far.bin holds a NOP at 0x90000 only.
printf '\037\040\003\325' > "$tmp/far.bin"
"$T" decode --vector vectors/ete/l3/a64-bcond.tcv --image "$tmp/far.bin@0x90000" > "$tmp/ni.out" 2> "$tmp/ni.err"; ni_rc=$?
check "decode with an image lacking the trace's address: the in-band item" grep -qx '@26 no-image addr=0x1000 isa=a64' "$tmp/ni.out"
check "... one line on standard error: command, file, byte offset, address and the hint --image FILE@ADDR" sh -c \
  "cat '$tmp/ni.err'; test \$(wc -l < '$tmp/ni.err') -eq 1 && grep -q '^tracecert decode: vectors/ete/l3/a64-bcond.tcv: byte offset 26: no image holds address 0x1000, .*--image FILE@ADDR' '$tmp/ni.err'"
check "... exit status 1 (as for in-band errors)" test "$ni_rc" -eq 1
check "... and with the image that holds it: exit 0, nothing on standard error" sh -c "'$T' decode --vector vectors/ete/l3/a64-bcond.tcv > /dev/null 2> '$tmp/ok.err' && test ! -s '$tmp/ok.err'"
# b32-no-return-stack-context.tcv (its comments): the branch @21 goes to 0x3000, outside its image, where the atom @26 walks.
check "a PTM trace leaving its image: the same line naming 0x3000 at byte offset 26, exit 1" sh -c \
  "'$T' decode --vector vectors/ptm/spec/b32-no-return-stack-context.tcv > '$tmp/p.out' 2> '$tmp/p.err'; test \$? -eq 1 && grep -qx '@26 no-image addr=0x3000 isa=a32' '$tmp/p.out' && grep -q '^tracecert decode: vectors/ptm/spec/b32-no-return-stack-context.tcv: byte offset 26: no image holds address 0x3000' '$tmp/p.err'"
check "decode --help documents the exit statuses (0, 1 for errors or no-image, 2)" sh -c \
  "h=\$('$T' decode --help) && echo \"\$h\" | grep -q '^Exit status: 0 when' && echo \"\$h\" | grep -q '^the image lacked an address (.no-image. items' && echo \"\$h\" | grep -q '2 for bad usage or input'"
check "gen writes a vector that decodes as it says" sh -c "'$T' gen --seed 7 --quiet > '$tmp/g.tcv' && '${TC_BUILD:-build}/test/vectest' '$tmp/g.tcv'"
check "gen --coverage lists the variants" sh -c "'$T' gen --count 50 --coverage --quiet | grep -q '^# variants used: '"
check "gen rejects impossible parameters (message, exit 2): --steps 0" rejects 'expects a number in 1..100000' gen --steps 0
check "gen rejects impossible parameters (message, exit 2): --blocks 2" rejects 'in 4..4096' gen --blocks 2
check "gen rejects impossible parameters (message, exit 2): maxspec=99999" rejects "bad value '99999'" gen --config maxspec=99999
check "gen rejects impossible parameters (message, exit 2): an unknown option" rejects "unknown option '--bogus'" gen --bogus
check "gen --seeds-file reports a bad line" sh -c "printf '1\\nx\\n' > '$tmp/s.txt'; '$T' gen --seeds-file '$tmp/s.txt' 2>&1 | grep -q 's.txt:2: expected a seed number'"
# Configuration from trace unit registers.
# Every protocol's key table: `config --protocol P --markdown` is exactly the table between the markers of
# reference/P/CONFIG.md; its keys are in dump's or decode's help and its registers in dump's (--protocol P).
for p in $(sed -n 's/^PROTOCOLS := //p' GNUmakefile); do
  check "$p: config --protocol $p --markdown is exactly the table in reference/$p/CONFIG.md" sh -c "'$T' config --protocol $p --markdown > '$tmp/md' && sed -n '/^<!-- tracecert config --protocol $p --markdown -->\$/,/^<!-- end of tracecert config --protocol $p --markdown -->\$/p' reference/$p/CONFIG.md | sed '1d;\$d' > '$tmp/doc' && test -s '$tmp/md' && diff '$tmp/md' '$tmp/doc'"
  check "$p: every key of the table is in dump --help or decode --help, every register in dump --help" sh -c "'$T' config --protocol $p --markdown > '$tmp/md' && sed -n 's/^| \`\\([a-z_0-9]*\\)\` .*/\\1/p' '$tmp/md' > '$tmp/keys' && sed -n 's/^| \`\\([A-Z_0-9]*\\)\` .*/\\1/p' '$tmp/md' > '$tmp/regs' && test -s '$tmp/keys' && test -s '$tmp/regs' && h=\$('$T' dump --help --protocol $p; '$T' decode --help --protocol $p) && while read k; do echo \"\$h\" | grep -q \" \$k=\" || { echo \"key \$k\"; exit 1; }; done < '$tmp/keys' && while read r; do '$T' dump --help --protocol $p | grep -q \"^      \$r \" || { echo \"register \$r\"; exit 1; }; done < '$tmp/regs'"
done
check "config --markdown without --protocol is the first protocol's table (ete)" sh -c "'$T' config --markdown > '$tmp/a' && '$T' config --protocol ete --markdown > '$tmp/b' && cmp '$tmp/a' '$tmp/b'"
check "ETE's table has its 12 keys and 6 registers, PTM's its 10 keys and 4 registers" sh -c "test \$('$T' config --protocol ete --markdown | grep -c '^| \`[a-z]') -eq 12 && test \$('$T' config --protocol ete --markdown | grep -c '^| \`[A-Z]') -eq 6 && test \$('$T' config --protocol ptm --markdown | grep -c '^| \`[a-z]') -eq 10 && test \$('$T' config --protocol ptm --markdown | grep -c '^| \`[A-Z]') -eq 4"
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
# GNU conventions (tools/cli.c): --opt=value and --opt value, '--', help CMD = CMD --help, --version
# everywhere, usage errors (one line on standard error naming the command and `tracecert help CMD`, nothing
# on standard output, exit 2).
# usage_error MESSAGE ARG...: tracecert ARG... fails that way with MESSAGE (a fixed string) in its line.
usage_error() {
  m=$1; shift
  "$T" "$@" > "$tmp/ue.out" 2> "$tmp/ue.err"; rc=$?
  case "$1" in -*|""|help) see="(see tracecert help)" ;; *) see="(see tracecert help $1)" ;; esac
  test $rc -eq 2 && test ! -s "$tmp/ue.out" && test "$(wc -l < "$tmp/ue.err")" -eq 1 &&
    grep -qF -- "$m" "$tmp/ue.err" && grep -qF -- "$see" "$tmp/ue.err" || { echo "rc $rc"; cat "$tmp/ue.err"; return 1; }
}
# same_output ARGS1 -- ARGS2: both exit 0 and print the same non-empty standard output.
same_output() {
  a=""; while [ "$1" != "--" ]; do a="$a '$1'"; shift; done; shift
  eval "\"\$T\" $a" > "$tmp/so1" && "$T" "$@" > "$tmp/so2" && test -s "$tmp/so1" && cmp "$tmp/so1" "$tmp/so2"
}
ver="tracecert $(cat VERSION)"
check "--version: the number in VERSION" sh -c "'$T' --version | grep -Eqx '$ver( [(]git [^)]+[)])?'"
if [ -e .git ] && command -v git > /dev/null 2>&1; then
  d=$(git describe --always 2>/dev/null)
  check "--version, built in a git work tree: git describe of the tree ($d)" sh -c "'$T' --version | grep -Eqx '$ver [(]git $d(-dirty)?[)]'"
fi
for c in dump decode config certify gen bench help; do
  check "$c --version prints tracecert's version" same_output --version -- $c --version
done
check "help --help and help -h print the list of commands, as --help does" sh -c "'$T' --help > '$tmp/h1' && '$T' help --help > '$tmp/h2' && '$T' help -h > '$tmp/h3' && cmp '$tmp/h1' '$tmp/h2' && cmp '$tmp/h1' '$tmp/h3'"
check "help --version dump is dump --help --version (help's options before COMMAND go to it)" same_output help --version dump -- dump --help --version
check "help: an option help does not take is a usage error" usage_error "tracecert help: unknown option '--protocol'" help --protocol ptm
check "tracecert --help, -h and help print the same list of commands, exit 0" sh -c "'$T' --help > '$tmp/h1' && '$T' -h > '$tmp/h2' && '$T' help > '$tmp/h3' && cmp '$tmp/h1' '$tmp/h2' && cmp '$tmp/h1' '$tmp/h3' && for c in dump decode config certify gen bench help; do grep -q \"^  \$c \" '$tmp/h1' || exit 1; done"
check "the list says the conventions (--NAME=VALUE, '--', exit status 2)" sh -c "'$T' --help > '$tmp/h' && grep -q -- '--NAME=VALUE or --NAME VALUE' '$tmp/h' && grep -q \"'--' ends the options\" '$tmp/h' && grep -q 'exit' '$tmp/h'"
for c in dump decode config certify gen bench; do
  check "tracecert help $c prints what $c --help prints" same_output help $c -- $c --help
done
check "help dump --protocol ptm is dump --help --protocol ptm, and -h" sh -c "'$T' help dump --protocol ptm > '$tmp/a' && '$T' dump --protocol=ptm --help > '$tmp/b' && '$T' dump -h --protocol ptm > '$tmp/c' && test -s '$tmp/a' && cmp '$tmp/a' '$tmp/b' && cmp '$tmp/a' '$tmp/c'"
# certify through tools/cli.c (tools/certify_cmd.c)
R="${TC_BUILD:-build}/adapters/libtc_reference.so"
check "certify --adapter=PATH --vectors=DIR --level=1 (the --opt=value form)" sh -c "'$T' certify --adapter='$R' --vectors=vectors/ptm/spec --level=1 2>&1 | grep -Eq ' [1-9][0-9]* pass, 0 fail'"
check "certify: repeated --tags add up (transaction then K10-18 runs more than K10-18: the second does not replace the first)" sh -c "a=\$('$T' certify --adapter '$R' --vectors vectors/ete --tags K10-18 2>&1 | sed -n 's/.*: \\([0-9]*\\) pass.*/\\1/p'); b=\$('$T' certify --adapter '$R' --vectors vectors/ete --tags transaction --tags K10-18 2>&1 | sed -n 's/.*: \\([0-9]*\\) pass.*/\\1/p'); test \"\$a\" = 2 && test \"\$b\" -gt 2"
check "certify: --tags that select nothing: an error, exit 2" sh -c "'$T' certify --adapter '$R' --vectors vectors/ptm --tags no-such-tag 2> '$tmp/e'; test \$? -eq 2 && grep -q 'tracecert certify: --tags no-such-tag selects nothing: no vector of the [0-9]* read carries it; their tags: ' '$tmp/e'"
check "certify: --jobs 0 is a usage error" usage_error "--jobs expects a number in 1..64, got '0'" certify --adapter "$R" --jobs 0
check "certify: --jobs 65 is a usage error (not cut to 64)" usage_error "--jobs expects a number in 1..64, got '65'" certify --adapter "$R" --jobs=65
check "certify: an operand is a usage error" usage_error "unexpected argument 'vectors'" certify --adapter "$R" vectors
check "certify: -- makes what follows an operand" usage_error "unexpected argument '--tap'" certify --adapter "$R" -- --tap
check "certify: an empty tag name is a usage error" usage_error "--tags expects TAG[,TAG...] without empty names, got 'a,,b'" certify --adapter "$R" --tags a,,b
check "certify: --adapter is required" usage_error "--adapter PATH.so is required" certify --vectors vectors
# The keys in the help come from the descriptors: every key and register of a protocol's table
# (config --protocol P --markdown), only that protocol's with --protocol P.
names() { "$T" config --protocol "$1" --markdown | sed -n 's/^| `\([A-Za-z_0-9]*\)` .*/\1/p'; }
names ete | sort > "$tmp/ete.names"; names ptm | sort > "$tmp/ptm.names"
comm -23 "$tmp/ete.names" "$tmp/ptm.names" > "$tmp/ete.only"; comm -13 "$tmp/ete.names" "$tmp/ptm.names" > "$tmp/ptm.only"
# lists HELP NAMES: every name is a line of the help; lists_none: none is.
lists() { while read k; do grep -q "^      $k[= ]" "$1" || { echo "missing $k"; return 1; }; done < "$2"; }
lists_none() { while read k; do ! grep -q "^      $k[= ]" "$1" || { echo "has $k"; return 1; }; done < "$2"; }
"$T" decode --help > "$tmp/d.all"; "$T" decode --help --protocol ptm > "$tmp/d.ptm"; "$T" decode --protocol ete --help > "$tmp/d.ete"
"$T" config --help > "$tmp/c.all"; "$T" config --help --protocol=ptm > "$tmp/c.ptm"
check "the tables have keys and registers (ete: $(wc -l < "$tmp/ete.names"), ptm: $(wc -l < "$tmp/ptm.names")), most of them one protocol's" sh -c "test \$(wc -l < '$tmp/ete.names') -ge 12 && test \$(wc -l < '$tmp/ptm.names') -ge 10 && test \$(wc -l < '$tmp/ete.only') -ge 10 && test \$(wc -l < '$tmp/ptm.only') -ge 10"
check "decode --help lists every key and register of ete" lists "$tmp/d.all" "$tmp/ete.names"
check "decode --help lists every key and register of ptm" lists "$tmp/d.all" "$tmp/ptm.names"
check "decode --help --protocol ptm lists ptm's keys and registers" lists "$tmp/d.ptm" "$tmp/ptm.names"
check "decode --help --protocol ptm lists no key or register only ete has ($(wc -l < "$tmp/ete.only"))" lists_none "$tmp/d.ptm" "$tmp/ete.only"
check "decode --protocol ete --help lists ete's" lists "$tmp/d.ete" "$tmp/ete.names"
check "decode --protocol ete --help lists none only ptm has ($(wc -l < "$tmp/ptm.only"))" lists_none "$tmp/d.ete" "$tmp/ptm.only"
check "config --help lists ete's keys" lists "$tmp/c.all" "$tmp/ete.names"
check "config --help lists ptm's keys" lists "$tmp/c.all" "$tmp/ptm.names"
check "config --help --protocol=ptm lists ptm's keys, none of ete's" lists "$tmp/c.ptm" "$tmp/ptm.names"
check "config --help --protocol=ptm lists none only ete has" lists_none "$tmp/c.ptm" "$tmp/ete.only"
check "dump --help lists each protocol's packet-level keys, not decode's instruction-level ones" sh -c "'$T' dump --help > '$tmp/du' && grep -q '^      maxspec=' '$tmp/du' && grep -q '^      cycle_accurate=' '$tmp/du' && ! grep -q '^      walk_limit=' '$tmp/du' && grep -q '^      walk_limit=' '$tmp/d.all'"
check "every option of a command's table is in its help, with -h, --help and --version" sh -c "for o in protocol config level hex vector snapshot; do grep -q \"^  --\$o\" '$tmp/du' && grep -q \"^  --\$o\" '$tmp/d.all' || exit 1; done; grep -q '^  --image FILE\\[@ADDR\\]' '$tmp/d.all' && grep -q '^  --markdown' '$tmp/c.all' && grep -q '^  --protocol P' '$tmp/c.all' && for f in du d.all c.all; do grep -q '^  -h, --help' \"$tmp/\$f\" && grep -q '^  --version' \"$tmp/\$f\" || exit 1; done"
# --opt=value and --opt value, abbreviations, in any order
check "dump: --level=2 is --level 2 (and --lev 2)" same_output dump --level=2 --hex "$tmp/ok.hex" -- dump --lev 2 --hex "$tmp/ok.hex"
check "dump: --config=NAME=VALUE is --config NAME=VALUE" same_output dump --hex "--config=TRCIDR0=0x08800EA1" "$tmp/tsm.hex" -- dump --hex --config TRCIDR0=0x08800EA1 "$tmp/tsm.hex"
check "dump: --protocol=ptm --vector takes a PTM vector; --protocol=ete refuses it" sh -c "'$T' dump --protocol=ptm --vector vectors/ptm/spec/b32-branch-waypoint-exception.tcv > '$tmp/p' && test -s '$tmp/p' && '$T' dump --protocol=ete --vector vectors/ptm/spec/b32-branch-waypoint-exception.tcv 2>&1 | grep -q 'is a ptm vector, not ete'"
check "options after the operand" same_output dump --hex --level 2 "$tmp/ok.hex" -- dump "$tmp/ok.hex" --level=2 --hex
check "options after the operand with POSIXLY_CORRECT=1 too (in order, never permuted)" sh -c "POSIXLY_CORRECT=1 '$T' dump '$tmp/ok.hex' --hex --level=2 | grep -qx '@15 atom E'"
perl -e 'print pack("H*", "200080d23f000014")' > "$tmp/r1"; perl -e 'print pack("H*", "000400913f000094c0035fd6")' > "$tmp/r2"; perl -e 'print pack("H*", "000400d17fffff17")' > "$tmp/r3"
check "decode: --image=FILE@ADDR and --image FILE@ADDR are the vector's own image" same_output decode --vector vectors/ete/l3/a64-b-bl.tcv -- decode --vector --image="$tmp/r1@0x1000" --image "$tmp/r2@0x1100" --im="$tmp/r3@4608" vectors/ete/l3/a64-b-bl.tcv
check "decode: --level=all is --level all" same_output decode --level=all --vector vectors/ete/l3/a64-b-bl.tcv -- decode --level all --vector vectors/ete/l3/a64-b-bl.tcv
check "decode: --snapshot=DIR is --snapshot DIR" same_output decode --snapshot=tests/data/snap-mixed -- decode --snapshot tests/data/snap-mixed
check "config: --protocol=ptm is --protocol ptm (and not ete's table)" sh -c "'$T' config --protocol=ptm > '$tmp/c1' && '$T' config --protocol ptm > '$tmp/c2' && cmp '$tmp/c1' '$tmp/c2' && grep -q '^Configuration keys of ptm' '$tmp/c1' && '$T' config | grep -q '^Configuration keys of ete'"
check "config: --protocol anywhere among the assignments" same_output config --protocol ptm ETMCR=0x1000 -- config ETMCR=0x1000 --protocol=ptm
# '--' ends the options
cp "$tmp/ok.hex" "$tmp/-ok.hex"; cp vectors/ete/l3/a64-b-bl.tcv "$tmp/-v.tcv"
TA=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
check "dump -- -FILE: an operand beginning with '-'" sh -c "cd '$tmp' && '$TA' dump --hex -- -ok.hex | grep -qx '@15 f7 atom atoms=E'"
check "dump -FILE without '--' is an unknown option" sh -c "cd '$tmp' && '$TA' dump --hex -ok.hex 2>&1 >/dev/null | grep -qx \"tracecert dump: unknown option '-o' (see tracecert help dump)\""
check "decode -- -FILE" sh -c "cd '$tmp' && '$TA' decode --vector -- -v.tcv > l3 && test -s l3 && '$TA' decode --vector '$tmp/-v.tcv' | cmp - l3"
check "config -- NAME=VALUE, and '--' makes --markdown an operand" sh -c "'$T' config -- maxspec=3 | grep -qx 'maxspec=3  # given' && '$T' config -- --markdown 2>&1 | grep -q \"expected NAME=VALUE, got '--markdown'\""
check "tracecert -- (no command) exits 2 with the list on standard error" sh -c "'$T' -- 2>&1 >/dev/null | grep -q '^  dump ' && { '$T' -- 2>/dev/null; test \$? -eq 2; }"
# Usage errors
check "help is printed after the whole parse: dump --help needs no FILE" sh -c "'$T' dump --help | grep -q '^usage: tracecert dump'"
check "a usage error wins over --help" usage_error "unknown option '--bogus'" dump --help --bogus
check "unknown option (dump)" usage_error "tracecert dump: unknown option '--bogus'" dump --bogus x
check "unknown option (decode)" usage_error "tracecert decode: unknown option '--hexx'" decode --hexx x
check "unknown option (config)" usage_error "tracecert config: unknown option '--frob'" config --frob=1
check "unknown option (tracecert)" usage_error "tracecert: unknown option '--bogus'" --bogus
check "unknown short option" usage_error "tracecert dump: unknown option '-x'" dump -x f
check "an option of decode is unknown to dump (--image)" usage_error "tracecert dump: unknown option '--image'" dump --image a@0 f
check "ambiguous abbreviation names the candidates" usage_error "tracecert dump: option '--he' is ambiguous: --hex, --help" dump --he f
check "an option with an empty name" usage_error "tracecert dump: unknown option '--=x'" dump --=x f
check "a value for an option that takes none" usage_error "tracecert dump: option '--hex' takes no value (got '--hex=1')" dump --hex=1 f
check "missing value (dump --level)" usage_error "tracecert dump: option '--level' needs a value (1|s1|2|all)" dump f --level
check "missing value (decode --image, abbreviated)" usage_error "tracecert decode: option '--image' needs a value (FILE[@ADDR])" decode f --ima
check "missing value (config --protocol)" usage_error "tracecert config: option '--protocol' needs a value (P)" config --protocol
check "extra argument (dump)" usage_error "tracecert dump: more than one FILE ('a' and 'b')" dump a b
check "extra argument (decode, after --)" usage_error "tracecert decode: more than one FILE ('a' and '-b')" decode a -- -b
check "extra argument (tracecert --version dump)" usage_error "tracecert: unexpected argument 'dump': the command comes first" --version dump
check "config: NAME=VALUE with --markdown" usage_error "tracecert config: --markdown prints the key table; it takes no NAME=VALUE" config --markdown maxspec=1
check "config: an operand that is not NAME=VALUE" usage_error "tracecert config: expected NAME=VALUE, got 'maxspec'" config maxspec
check "--config without NAME=VALUE" usage_error "tracecert dump: --config expects NAME=VALUE, got 'maxspec'" dump --config=maxspec f
check "unknown protocol names the build's (PROTOCOLS of GNUmakefile)" usage_error "tracecert decode: unknown protocol 'etm' (this build has: $(sed -n 's/^PROTOCOLS := //p' GNUmakefile | tr ' ' '|'))" decode --protocol=etm f
check "bad --level value (abbreviated: the message names the option in full)" usage_error "tracecert decode: --level expects 3 or all, got '2'" decode --lev=2 f
check "no FILE" usage_error "tracecert decode: no FILE given" decode
check "--snapshot with --protocol" usage_error "tracecert dump: --snapshot DIR takes each source's protocol from its device type, not --protocol" dump --snapshot=x --protocol=ptm
check "--hex with --vector" usage_error "tracecert dump: --hex and --vector do not go together" dump --hex --vector f
check "help of an unknown command" usage_error "tracecert: unknown command 'frob'" help frob
long=$(printf 'k%.0s' $(seq 1 100))
check "a --config name longer than any key is named whole as unknown (exit 2)" sh -c "'$T' dump --config '$long=1' /dev/null 2> '$tmp/e'; test \$? -eq 2 && grep -qx \"tracecert dump: unknown config key or register '$long' for protocol ete (see tracecert config --protocol ete)\" '$tmp/e'"
check "config: registers that give no usable configuration are refused, naming the field (exit 2)" sh -c "'$T' config TRCIDR2=0x12000488 > '$tmp/o' 2> '$tmp/e'; test \$? -eq 2 && test ! -s '$tmp/o' && grep -q '^tracecert config: .*CCSIZE \\[28:25\\] is 0x9, a reserved value' '$tmp/e'"
check "a --config key of another protocol names the protocol that has it (exit 2)" sh -c "'$T' dump --config=ETMCR=0x1000 /dev/null 2> '$tmp/e'; test \$? -eq 2 && grep -qx \"tracecert dump: 'ETMCR' is a config key or register of protocol ptm, not of ete (see tracecert config --protocol ete)\" '$tmp/e' && '$T' config --protocol ptm maxspec=1 2>&1 | grep -q \"'maxspec' is a config key or register of protocol ete, not of ptm\""
# More than 64 --image options. gen seed 13 (400 steps) is A64 only in one region of 544 bytes: cut into
# 136 raw files of 4 bytes each (every A64 instruction whole in one), given as 136 --image FILE@ADDR, the
# trace decodes to the vector's [expect.l3] (the encoder's ground truth), as with the region as one file.
vsection() { awk -v s="[$1]" '/^\[/{p=(index($0, s) == 1); next} p && NF && !/^#/' "$2"; }
"$T" gen --seed 13 --steps 400 --quiet > "$tmp/m.tcv"
vsection trace "$tmp/m.tcv" | tr -d ' \n' | perl -ne 'print pack("H*", $_)' > "$tmp/m.bin"
vsection expect.l3 "$tmp/m.tcv" > "$tmp/m.want"
mcfg=$(vsection config "$tmp/m.tcv" | grep -v '^protocol=' | sed 's/^/--config /' | tr '\n' ' ')
mkdir -p "$tmp/pieces"
# The [image base=…] regions: the whole of each as one file, and as 4-byte pieces; one --image per file.
perl -e 'no warnings "portable"; my ($dir, $b, %img) = ($ARGV[1]);
  open V, "<", $ARGV[0] or die; while (<V>) {
    if (/^\[image base=(0x[0-9a-f]+)\]/) { $b = $1; next } if (/^\[/) { undef $b; next }
    next unless defined $b; s/#.*//; push @{$img{$b}}, split; }
  for my $base (sort keys %img) { my @x = @{$img{$base}};
    open W, ">", "$dir/whole$base.bin" or die; print W pack("H*", join "", @x); close W;
    print STDERR "--image $dir/whole$base.bin\@$base\n";
    for (my $i = 0; $i < @x; $i += 4) { my $a = sprintf "0x%x", hex($base) + $i; my $e = $i + 3 < $#x ? $i + 3 : $#x;
      open W, ">", "$dir/p$a.bin" or die; print W pack("H*", join "", @x[$i .. $e]); close W; print "--image $dir/p$a.bin\@$a\n"; } }' \
  "$tmp/m.tcv" "$tmp/pieces" > "$tmp/pieces.args" 2> "$tmp/whole.args"
check "the vector is A64 only in one region of 544 bytes: 136 pieces, and its [expect.l3] has instruction ranges" sh -c "test \$(wc -l < '$tmp/pieces.args') -eq 136 && test \$(wc -l < '$tmp/whole.args') -eq 1 && ! grep -v 'isa=a64' '$tmp/m.want' | grep -q 'isa=' && test \$(grep -c ' range ' '$tmp/m.want') -gt 100"
check "decode with the region as one --image gives the vector's [expect.l3], exit 0" sh -c "'$T' decode \$(cat '$tmp/whole.args') $mcfg '$tmp/m.bin' > '$tmp/m.got' && cmp '$tmp/m.got' '$tmp/m.want'"
check "decode with 136 --image options (4 bytes each) gives the vector's [expect.l3], exit 0, nothing on standard error" sh -c "'$T' decode \$(cat '$tmp/pieces.args') $mcfg '$tmp/m.bin' > '$tmp/m.got' 2> '$tmp/m.err' && test ! -s '$tmp/m.err' && cmp '$tmp/m.got' '$tmp/m.want'"
tap_done
