# SPDX-License-Identifier: BSD-3-Clause
# tracecert gen --from-exec LOG --elf PROG: its usage errors, a log line that is not one (named with its
# line number and byte offset), a log or a program of another instruction-set family than the
# protocol's (the exact messages), and hand-made executions end to end (AArch32 for etmv3, PTM, ETMv1 and ETMv2, RV64GC for rvtrace): a tiny ELF (the GNU assembler and
# linker of Debian's cross binutils, when installed) and a log written by hand; the vector passes the
# reference (vectest), its image pages are beside it, its [expect.l3] is the hand-written L3.
T="${TC_BUILD:-build}/tracecert"
V="${TC_BUILD:-build}/test/vectest"
. tests/lib/tap.sh
arm() { printf 'Trace 0: 0x7f25e4000180 [00000480/%08x/00000000/00000201] %s\n' "$1" "$2"; }
thumb() { printf 'Trace 0: 0x7f25e4000240 [00800480/%08x/00000000/00000201] %s\n' "$1" "$2"; }
{ arm 0x1000 main; arm 0x1004 main; arm 0x1010 f; arm 0x1008 main; arm 0x100c main; thumb 0x2000 g; arm 0x1000 main; } > "$tmp/log"
usage() { "$T" gen "$@" > "$tmp/u.out" 2>&1; rc=$?; test $rc -eq 2 && grep -q "$want" "$tmp/u.out" && ! grep -q '^tracecert-vector' "$tmp/u.out"; }
want='needs --elf'; check "--from-exec without --elf: a usage error" usage --protocol etmv3 --from-exec "$tmp/log"
want='need --from-exec'; check "--elf without --from-exec: a usage error" usage --protocol etmv3 --elf x
want='does not go with'; check "--from-exec with --negative: a usage error" usage --protocol etmv3 --from-exec "$tmp/log" --elf x --negative
# (every encoder of the build has a from_exec: the usage error of one without, tools/gen.c, is not reached here)
bad() { { arm 0x1000 main; echo 'Trace 0: 0x7f25e4000180 [00000480/00001004] main'; } > "$tmp/bad"; "$T" gen --protocol etmv3 --from-exec "$tmp/bad" --elf /dev/null > "$tmp/b.out" 2>&1; test $? -eq 2 && grep -q "bad:2: byte offset 67: not a line of qemu's -d exec log" "$tmp/b.out"; }
check "a bad log line: its line number and byte offset (exit 2)" bad
# a log of one family given to a protocol of another: refused at its first line, saying what was
# expected (the forms of tracecert/execlog.h), before the program is read
a64() { printf 'Trace 0: 0x7fed5c4b2600 [0000000001009331/%016x/00000001/00000201] %s\n' "$1" "$2"; }
rv() { printf 'Trace 0: 0x7f6c2c000100 [0000000000000000/%016x/00207600/00000201] %s\n' "$1" "$2"; }
{ rv 0x1000 main; rv 0x1004 main; } > "$tmp/rv1"
{ a64 0x400000 main; a64 0x400004 main; } > "$tmp/a1"
refusal() { "$T" gen --protocol "$1" --from-exec "$2" --elf /dev/null > "$tmp/r.out" 2>&1; rc=$?; printf '%s\n' "$3" | diff - "$tmp/r.out" && test $rc -eq 2; }
check "ete: an RV64 log refused at line 1 (exit 2)" refusal ete "$tmp/rv1" \
  "tracecert gen: $tmp/rv1:1: byte offset 0: not a line of an A64 log (qemu-aarch64: FLAGS2 and PC of 16 digits, FLAGS2 not 0): a qemu-riscv64 line (FLAGS2 and PC of 16 digits, FLAGS2 0)"
check "rvtrace: an A64 log refused at line 1 (exit 2)" refusal rvtrace "$tmp/a1" \
  "tracecert gen: $tmp/a1:1: byte offset 0: not a line of an RV64 log (qemu-riscv64: FLAGS2 and PC of 16 digits, FLAGS2 0): a qemu-aarch64 line (FLAGS2 and PC of 16 digits, FLAGS2 not 0)"
check "etmv3: an RV64 log refused at line 1 (exit 2)" refusal etmv3 "$tmp/rv1" \
  "tracecert gen: $tmp/rv1:1: byte offset 0: not a line of an AArch32 log (qemu-arm: FLAGS2 and PC of 8 digits): a qemu-riscv64 line (FLAGS2 and PC of 16 digits, FLAGS2 0)"
check "ete: an AArch32 log refused at line 1 (exit 2)" refusal ete "$tmp/log" \
  "tracecert gen: $tmp/log:1: byte offset 0: not a line of an A64 log (qemu-aarch64: FLAGS2 and PC of 16 digits, FLAGS2 not 0): a qemu-arm line (FLAGS2 and PC of 8 digits)"
check "a log that is not there: named (exit 2)" sh -c "'$T' gen --protocol etmv3 --from-exec '$tmp/none' --elf x 2>&1 | grep -q \"cannot read '$tmp/none'\""
if command -v arm-linux-gnueabihf-as > /dev/null && command -v arm-linux-gnueabihf-ld > /dev/null; then
  # A32 at 0x1000 (mov, bl f, svc, bx lr; f: bx lr), T32 bx lr at 0x2000 (encoder/test/unit_execlog.c)
  printf '.syntax unified\n.arm\nmov r0, #1\nbl f\nsvc #0\nbx lr\nf: bx lr\n.org 0x1000\n.thumb\nbx lr\n' > "$tmp/p.s"
  arm-linux-gnueabihf-as "$tmp/p.s" -o "$tmp/p.o" && arm-linux-gnueabihf-ld -Ttext=0x1000 -e 0x1000 "$tmp/p.o" -o "$tmp/prog" 2>/dev/null
  # pages 0x1000 and 0x2000 touch: one file, cut at the segment's end (0x2002: 4098 + 2 bytes)
check "gen --from-exec --steps 6: a vector and its image pages, one run of two pages" sh -c "'$T' gen --protocol etmv3 --from-exec '$tmp/log' --elf '$tmp/prog' --steps 6 --out '$tmp/out' --note 'hand-made' && test -f '$tmp/out/prog.tcv' && test \$(wc -c < '$tmp/out/prog.0x1000.bin') -eq 4100 && grep -q '^\[image file=prog.0x1000.bin base=0x1000 size=4100 crc32=' '$tmp/out/prog.tcv'"
  check "the vector passes the reference" "$V" "$tmp/out/prog.tcv"
  # hand-written: L3FORMAT.md over the log (unit_execlog.c exec_l3), offsets dropped
  printf '%s\n' 'trace-on' 'context el=0 ns=1 sf=0 ctxid=0x0 vmid=0x0' \
    'range first=0x1000 last=0x1004 n=2 isa=a32 type=dir taken=E' 'range first=0x1010 last=0x1010 n=1 isa=a32 type=indir taken=E' \
    'range first=0x1008 last=0x1008 n=1 isa=a32 type=other taken=-' 'exception type=0xa ret=0x100c' 'trace-on' \
    'range first=0x100c last=0x100c n=1 isa=a32 type=indir taken=E' 'range first=0x2000 last=0x2000 n=1 isa=t32 type=indir taken=E' > "$tmp/want"
  check "its [expect.l3] is the hand-written L3" sh -c "sed -n '/^\\[expect.l3\\]/,/^\\[/p' '$tmp/out/prog.tcv' | grep '^@' | sed 's/^@[0-9]* //' | diff - '$tmp/want'"
  check "the same log gives the same vector" sh -c "'$T' gen --protocol etmv3 --from-exec '$tmp/log' --elf '$tmp/prog' --steps 6 --note 'hand-made' | cmp - '$tmp/out/prog.tcv'"
  check "the description holds the note" grep -q '^# hand-made$' "$tmp/out/prog.tcv"
  check "no line of the start symbol: named" sh -c "'$T' gen --protocol etmv3 --from-exec '$tmp/log' --elf '$tmp/prog' --exec-start nosuch 2>&1 | grep -q \"no line of symbol 'nosuch'\""
  # PTM: the same execution, the same L3 (from the log); the packets by hand (unit_execlog.c ptm_l1):
  # an atom for the bl, branch address packets for the bx lr, a waypoint update and an exception for the svc
  check "ptm: gen --from-exec: a vector that passes the reference" sh -c "'$T' gen --protocol ptm --from-exec '$tmp/log' --elf '$tmp/prog' --steps 6 --out '$tmp/ptm' --name p && '$V' '$tmp/ptm/p.tcv'"
  check "ptm: its [expect.l3] is the hand-written L3" sh -c "sed -n '/^\\[expect.l3\\]/,/^\\[/p' '$tmp/ptm/p.tcv' | grep '^@' | sed 's/^@[0-9]* //' | diff - '$tmp/want'"
  printf '%s\n' async 'isync addr=0x1000 isa=arm reason=1 ns=1 hyp=0' 'atom atoms=E' 'branch addr=0x1008 isa=arm ns=1 hyp=0' \
    'waypoint addr=0x100c isa=arm' 'branch addr=0xffff0008 isa=arm ns=1 hyp=0 exc=0xa' 'isync addr=0x100c isa=arm reason=1 ns=1 hyp=0' \
    'branch addr=0x2000 isa=thumb ns=1 hyp=0' 'branch addr=0x1000 isa=arm ns=1 hyp=0' > "$tmp/ptm-l1"
  check "ptm: its [expect.l1] is the hand-reasoned packet sequence" sh -c "sed -n '/^\\[expect.l1\\]/,/^\\[/p' '$tmp/ptm/p.tcv' | grep '^@' | sed 's/^@[0-9]* [0-9a-f]* //' | diff - '$tmp/ptm-l1'"
  check "ptm: the same log gives the same vector" sh -c "'$T' gen --protocol ptm --from-exec '$tmp/log' --elf '$tmp/prog' --steps 6 --name p | cmp - '$tmp/ptm/p.tcv'"
  # a window of one instruction, the mov: no waypoint ends it, a waypoint update at 0x1004 says how far it went
  check "ptm: a window ending inside a walk: a waypoint update at the instruction after its last" sh -c "'$T' gen --protocol ptm --from-exec '$tmp/log' --elf '$tmp/prog' --steps 1 --name w | grep -q '^@[0-9]* 72 waypoint addr=0x1004 isa=arm\$'"
  # a log of the protocol's family with a program of another (ELF for the Arm Architecture: EM_ARM 40)
  check "rvtrace: an AArch32 program (--elf) refused (exit 2)" sh -c "'$T' gen --protocol rvtrace --from-exec '$tmp/rv1' --elf '$tmp/prog' > '$tmp/e.out' 2>&1; test \$? -eq 2 && printf '%s\\n' \"tracecert gen: $tmp/prog: ELF e_machine 40 (32-bit) is AArch32, where the rvtrace model traces RV64 (--elf: the program the log is of)\" | diff - '$tmp/e.out'"
  check "ete: an AArch32 program (--elf) refused (exit 2)" sh -c "'$T' gen --protocol ete --from-exec '$tmp/a1' --elf '$tmp/prog' > '$tmp/e.out' 2>&1; test \$? -eq 2 && printf '%s\\n' \"tracecert gen: $tmp/prog: ELF e_machine 40 (32-bit) is AArch32, where the ete model traces A64 (--elf: the program the log is of)\" | diff - '$tmp/e.out'"
  { arm 0x1000 main; arm 0x1010 main; } > "$tmp/jump"
  check "a log the image contradicts: named with its line" sh -c "'$T' gen --protocol etmv3 --from-exec '$tmp/jump' --elf '$tmp/prog' 2>&1 | grep -q 'jump:1: the instruction at 0x1000 is not a branch'"
  # ETMv1 (A32 only): the same program, its second bx lr back to 0x1000 in ARM state; the svc in the
  # middle of the window (tracing on again after it)
  { arm 0x1000 main; arm 0x1004 main; arm 0x1010 f; arm 0x1008 main; arm 0x100c main; arm 0x1000 main; } > "$tmp/e1log"
  check "etmv1: gen --from-exec: a vector that passes the reference" sh -c "'$T' gen --protocol etmv1 --from-exec '$tmp/e1log' --elf '$tmp/prog' --steps 6 --out '$tmp/e1' --name p && '$V' '$tmp/e1/p.tcv' && grep -q '^real-exec a32\$' '$tmp/e1/p.tcv'"
  # by hand (L3FORMAT.md over the log): as etmv3's, the context ETMv1's (a Context ID, no security
  # state); the svc alone, exception 0xa returning to 0x100c, tracing on again there
  printf '%s\n' 'trace-on' 'context el=0 ns=0 sf=0 ctxid=0x0 vmid=0x0' \
    'range first=0x1000 last=0x1004 n=2 isa=a32 type=dir taken=E' 'range first=0x1010 last=0x1010 n=1 isa=a32 type=indir taken=E' \
    'range first=0x1008 last=0x1008 n=1 isa=a32 type=other taken=-' 'exception type=0xa ret=0x100c' 'trace-on' \
    'range first=0x100c last=0x100c n=1 isa=a32 type=indir taken=E' 'range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-' > "$tmp/e1want"
  check "etmv1: its [expect.l3] is the hand-written L3" sh -c "sed -n '/^\\[expect.l3\\]/,/^\\[/p' '$tmp/e1/p.tcv' | grep '^@' | sed 's/^@[0-9]* //' | diff - '$tmp/e1want'"
  # the cycles by hand (IHI 0014 Table 5-1, encoder/etmv1/e1enc_exec.c), without the offsets, APOs and
  # address lengths the wait states decide: trace on at 0x1000 (BE, b001, the Context ID), the mov
  # IE, the bl IE (a direct branch), f's bx lr BE to 0x1008, the svc BE to the SWI vector of the high
  # vectors, trace disabled (cycle accurate: its first TD), on again at 0x100c (b001), its bx lr BE to
  # 0x1000, the mov IE
  printf '%s\n' 'be addr=0x1000 isa=arm reason=1 j=0 ctxid=0x0' ie ie 'be addr=0x1008 isa=arm' 'be addr=0xffff0008 isa=arm' \
    trace-disabled 'be addr=0x100c isa=arm reason=1 j=0 ctxid=0x0' 'be addr=0x1000 isa=arm' ie > "$tmp/e1l1"
  check "etmv1: its [expect.l1] is the hand-reasoned cycle sequence" sh -c "sed -n '/^\\[expect.l1\\]/,/^\\[/p' '$tmp/e1/p.tcv' | grep '^@' | sed 's/^@[0-9]* [0-9] //; s/pkt=[0-9]* //; s/ apo=[0-9]*//; s/ n=[0-9]*\\( reason=0 j=0\\)\\{0,1\\}//' | diff - '$tmp/e1l1'"
  check "etmv1: the same log gives the same vector" sh -c "'$T' gen --protocol etmv1 --from-exec '$tmp/e1log' --elf '$tmp/prog' --steps 6 --name p | cmp - '$tmp/e1/p.tcv'"
  # Thumb: not modelled (encoder/etmv1/README.md): the bx lr into T32 refused, then the T32 line itself
  check "etmv1: a branch to T32 refused (exit 2)" sh -c "'$T' gen --protocol etmv1 --from-exec '$tmp/log' --elf '$tmp/prog' --steps 5 > '$tmp/e.out' 2>&1; test \$? -eq 2 && printf '%s\\n' \"tracecert gen: $tmp/log: line 5: a branch to T32: the etmv1 model traces A32 only (Thumb is not modelled yet)\" | diff - '$tmp/e.out'"
  { thumb 0x2000 main; } > "$tmp/e1t"
  check "etmv1: a T32 instruction refused (exit 2)" sh -c "'$T' gen --protocol etmv1 --from-exec '$tmp/e1t' --elf '$tmp/prog' > '$tmp/e.out' 2>&1; test \$? -eq 2 && printf '%s\\n' \"tracecert gen: $tmp/e1t: line 1: T32: the etmv1 model traces A32 only (Thumb is not modelled yet)\" | diff - '$tmp/e.out'"
  # ETMv2 (A32 only, encoder/etmv2/e2enc_exec.c): the same log as ETMv1's, the same L3 by hand (the
  # context ETMv2's: a Context ID, no security state)
  check "etmv2: gen --from-exec: a vector that passes the reference" sh -c "'$T' gen --protocol etmv2 --from-exec '$tmp/e1log' --elf '$tmp/prog' --steps 6 --out '$tmp/e2' --name p && '$V' '$tmp/e2/p.tcv' && grep -q '^real-exec a32\$' '$tmp/e2/p.tcv'"
  check "etmv2: its [expect.l3] is the hand-written L3" sh -c "sed -n '/^\\[expect.l3\\]/,/^\\[/p' '$tmp/e2/p.tcv' | grep '^@' | sed 's/^@[0-9]* //' | diff - '$tmp/e1want'"
  # the cycles by hand (IHI 0014 chapter 6), without offsets, PIPESTAT digits, pkt= and address
  # lengths: trace enabled at 0x1000 (a TFO of reason b01 with the Context ID, §6.9.1), the mov IE,
  # the bl IE (a direct branch, no address), f's bx lr with its branch address to 0x1008 (DE), the svc
  # DE with a five-byte branch address to the SWI vector of the high vectors, E = 0 (a non-cancelling
  # exception, §6.7.1), trace disabled (cycle accurate: its first TD), enabled again at 0x100c (TFO
  # b01), its bx lr DE to 0x1000, the mov IE
  printf '%s\n' 'tfo value=0' '+tfo-packet reason=1 lsip=0 ctxid=0x0 addr=0x1000 isa=arm' ie ie de '+branch addr=0x1008 isa=arm' \
    de '+branch addr=0xffff0008 isa=arm e=0' trace-disabled 'tfo value=0' '+tfo-packet reason=1 lsip=0 ctxid=0x0 addr=0x100c isa=arm' \
    de '+branch addr=0x1000 isa=arm' ie > "$tmp/e2l1"
  check "etmv2: its [expect.l1] is the hand-reasoned cycle sequence" sh -c "sed -n '/^\\[expect.l1\\]/,/^\\[/p' '$tmp/e2/p.tcv' | grep '^@' | sed 's/^@[0-9]* [0-9] //; s/ *pkt=[0-9]*//; s/ n=[0-9]*//' | diff - '$tmp/e2l1'"
  check "etmv2: the same log gives the same vector" sh -c "'$T' gen --protocol etmv2 --from-exec '$tmp/e1log' --elf '$tmp/prog' --steps 6 --name p | cmp - '$tmp/e2/p.tcv'"
  check "etmv2: a branch to T32 refused (exit 2)" sh -c "'$T' gen --protocol etmv2 --from-exec '$tmp/log' --elf '$tmp/prog' --steps 5 > '$tmp/e.out' 2>&1; test \$? -eq 2 && printf '%s\\n' \"tracecert gen: $tmp/log: line 5: a branch to T32: the etmv2 model traces A32 only (Thumb is not modelled yet)\" | diff - '$tmp/e.out'"
  check "etmv2: a T32 instruction refused (exit 2)" sh -c "'$T' gen --protocol etmv2 --from-exec '$tmp/e1t' --elf '$tmp/prog' > '$tmp/e.out' 2>&1; test \$? -eq 2 && printf '%s\\n' \"tracecert gen: $tmp/e1t: line 1: T32: the etmv2 model traces A32 only (Thumb is not modelled yet)\" | diff - '$tmp/e.out'"
fi
# A64 (qemu-aarch64's 16-digit fields): mov, bl f, svc, ret (to 0x400000); f: ret (to the svc)
{ a64 0x400000 main; a64 0x400004 main; a64 0x400010 f; a64 0x400008 main; a64 0x40000c main; a64 0x400000 main; } > "$tmp/log64"
if command -v aarch64-linux-gnu-as > /dev/null && command -v aarch64-linux-gnu-ld > /dev/null; then
  printf 'mov x0, #1\nbl f\nsvc #0\nret\nf: ret\n' > "$tmp/p64.s"
  aarch64-linux-gnu-as "$tmp/p64.s" -o "$tmp/p64.o" && aarch64-linux-gnu-ld -Ttext=0x400000 -e 0x400000 "$tmp/p64.o" -o "$tmp/prog64" 2>/dev/null
  check "ete: gen --from-exec of an A64 log: a vector that passes the reference" sh -c "'$T' gen --protocol ete --from-exec '$tmp/log64' --elf '$tmp/prog64' --steps 5 --out '$tmp/ete' --name p && '$V' '$tmp/ete/p.tcv' && grep -q '^real-exec a64\$' '$tmp/ete/p.tcv'"
  # by hand (L3FORMAT.md over the log): mov and bl to the bl; f's ret; the svc alone, an exception of type
  # Call (2, reference/ete/ERRATA.md TC-P31) returning to 0x40000c, tracing on again there; the ret
  printf '%s\n' 'trace-on' 'context el=0 ns=1 sf=1 ctxid=0x0 vmid=0x0' \
    'range first=0x400000 last=0x400004 n=2 isa=a64 type=dir taken=E' 'range first=0x400010 last=0x400010 n=1 isa=a64 type=indir taken=E' \
    'range first=0x400008 last=0x400008 n=1 isa=a64 type=other taken=-' 'exception type=0x2 ret=0x40000c' 'trace-on' \
    'range first=0x40000c last=0x40000c n=1 isa=a64 type=indir taken=E' > "$tmp/want64"
  check "ete: its [expect.l3] is the hand-written L3" sh -c "sed -n '/^\\[expect.l3\\]/,/^\\[/p' '$tmp/ete/p.tcv' | grep '^@' | sed 's/^@[0-9]* //' | diff - '$tmp/want64'"
  # the packets by hand (enc_exec.c): Trace Info, Trace On, Context, Address; an E atom for the bl; E and an
  # Address for f's ret; the Exception (its address 0x40000c); Trace On, Context, Address at the return;
  # E and an Address for the last ret
  check "ete: its [expect.l1] has the packets in that order" sh -c "sed -n '/^\\[expect.l1\\]/,/^\\[/p' '$tmp/ete/p.tcv' | grep '^@' | sed 's/^@[0-9]* [0-9a-f]* //' | cut -d' ' -f1 | tr '\\n' ' ' | grep -qx 'async trace-info trace-on context address atom address exception trace-on context address atom address '"
  check "ete: the same log gives the same vector" sh -c "'$T' gen --protocol ete --from-exec '$tmp/log64' --elf '$tmp/prog64' --steps 5 --name p | cmp - '$tmp/ete/p.tcv'"
  check "ete: a window with no P0 instruction: refused" sh -c "'$T' gen --protocol ete --from-exec '$tmp/log64' --elf '$tmp/prog64' --steps 1 2>&1 | grep -q 'nothing the trace would show'"
fi
if command -v riscv64-linux-gnu-as > /dev/null && command -v riscv64-linux-gnu-ld > /dev/null; then
  # RV64GC at 0x10000 (encoder/test/unit_execlog.c rv_code): auipc t0,0; jalr ra,12(t0); ecall;
  # c.bnez a0 (0x1000c); c.jr ra; c.nop; c.j 0x10000 (0x10012)
  { rv 0x10000 main; rv 0x10004 main; rv 0x1000c main; rv 0x1000e main; rv 0x10008 main; rv 0x1000c main
    rv 0x10012 main; rv 0x10000 main; rv 0x10004 main; } > "$tmp/rvlog"
  printf '0: auipc t0, 0\njalr ra, 12(t0)\necall\nbnez a0, 1f\nc.jr ra\nc.nop\n1: c.j 0b\n' > "$tmp/rv.s"
  riscv64-linux-gnu-as -march=rv64gc "$tmp/rv.s" -o "$tmp/rv.o" && riscv64-linux-gnu-ld -Ttext=0x10000 -e 0x10000 "$tmp/rv.o" -o "$tmp/rvprog" 2>/dev/null
  mkdir "$tmp/rvout"
  check "rvtrace: gen --from-exec --steps 8 of a qemu-riscv64 log: a vector and its page" sh -c "'$T' gen --protocol rvtrace --from-exec '$tmp/rvlog' --elf '$tmp/rvprog' --steps 8 --out '$tmp/rvout' --note 'hand-made' && test -f '$tmp/rvout/rvprog.tcv' && test -f '$tmp/rvout/rvprog.0x10000.bin' && grep -q '^real-exec rv64$' '$tmp/rvout/rvprog.tcv'"
  check "rvtrace: the vector passes the reference" "$V" "$tmp/rvout/rvprog.tcv"
  # Figure 5.1 by hand (RISC-V processor trace 0.026 Tables 6.1-6.4; ERRATA RV-X2, RV-E5, RV-P14):
  # support and a sync 00 at the first; the jalr is a pair whose auipc the sync reported (RV-E5:
  # updiscon for the encoder), so a packet at c.bnez: format 1 with its bit (not taken: 1), diff
  # 0x1000c-0x10000; c.jr is uninferable: a packet at the ecall, which retires with its trap
  # (er_ccdn) anyway: format 2 diff 0x10008-0x1000c; the return at 0x1000c the first after the
  # trap: sync 01, ecause 8 (ecall from U-mode), tval 0; c.j inferable; the window's last: format 2
  # diff 0x10000-0x1000c and support qual_status 01 (ended_rep)
  printf '%s\n' 'support enable=1 mode=0 qual=0' 'sync-start ctx=0x0 priv=0 branch=0 addr=0x10000' \
    'diff-delta branches=1 map=0x1 diff=0xc' 'addr-only diff=-0x4' \
    'sync-exception ctx=0x0 priv=0 branch=0 addr=0x1000c ecause=0x8 interrupt=0 tval=0x0' \
    'addr-only diff=-0xc' 'support enable=1 mode=0 qual=1' > "$tmp/rvwant1"
  check "rvtrace: its [expect.l1] is the hand-reasoned packet sequence" sh -c "sed -n '/^\\[expect.l1\\]/,/^\\[/p' '$tmp/rvout/rvprog.tcv' | grep '^@' | sed 's/^@[0-9]* [0-9a-f]* //' | diff - '$tmp/rvwant1'"
  # the L3 from the log (unit_execlog.c rv_l3): no trace-on at the first sync, the ecall's exception
  # returning after it with the tval 0 its sync 01 carries (ERRATA RV-P23), no trace-on there (tracing
  # never ended); trace-off at the te_support qual_status 01 that ends the window (RV-P24)
  printf '%s\n' 'context el=0 ns=0 sf=0 ctxid=0x0 vmid=0x0' \
    'range first=0x10000 last=0x10000 n=1 isa=rv64 type=other taken=-' 'range first=0x10004 last=0x10004 n=1 isa=rv64 type=indir taken=E' \
    'range first=0x1000c last=0x1000c n=1 isa=rv64 type=dir taken=N' 'range first=0x1000e last=0x1000e n=1 isa=rv64 type=indir taken=E' \
    'range first=0x10008 last=0x10008 n=1 isa=rv64 type=other taken=-' 'exception type=0x8 ret=0x1000c tval=0x0' \
    'range first=0x1000c last=0x1000c n=1 isa=rv64 type=dir taken=E' 'range first=0x10012 last=0x10012 n=1 isa=rv64 type=dir taken=E' \
    'range first=0x10000 last=0x10000 n=1 isa=rv64 type=other taken=-' 'trace-off' > "$tmp/rvwant"
  check "rvtrace: its [expect.l3] is the hand-written L3" sh -c "sed -n '/^\\[expect.l3\\]/,/^\\[/p' '$tmp/rvout/rvprog.tcv' | grep '^@' | sed 's/^@[0-9]* //' | diff - '$tmp/rvwant'"
  check "rvtrace: the description names qemu-riscv64" grep -q '^# A real execution: rvprog run by qemu-user (qemu-riscv64 ' "$tmp/rvout/rvprog.tcv"
  # and the reverse (RISC-V ELF psABI: EM_RISCV 243), the log read first
  check "etmv3: an RV64 program (--elf) refused (exit 2)" sh -c "{ printf 'Trace 0: 0x7f25e4000180 [00000480/%08x/00000000/00000201] main\\n' 65536; } > '$tmp/arm1'; '$T' gen --protocol etmv3 --from-exec '$tmp/arm1' --elf '$tmp/rvprog' > '$tmp/e.out' 2>&1; test \$? -eq 2 && printf '%s\\n' \"tracecert gen: $tmp/rvprog: ELF e_machine 243 (64-bit) is RV64, where the etmv3 model traces AArch32 (--elf: the program the log is of)\" | diff - '$tmp/e.out'"
  { rv 0x10000 main; rv 0x10004 main; rv 0x10010 main; } > "$tmp/rvpair"
  check "rvtrace: a log the auipc+jalr pair contradicts: named with its line" sh -c "'$T' gen --protocol rvtrace --from-exec '$tmp/rvpair' --elf '$tmp/rvprog' 2>&1 | grep -q 'rvpair:2: the jump at 0x10004 goes to 0x1000c by the upper instruction before it'"
fi
mkdir "$tmp/bin" && ln -s "$(command -v dirname)" "$tmp/bin/dirname"
# nopath CONF PACKAGE: vectors/real-build.sh with CONF --check, the tools not on PATH, names the
# missing Debian packages (the compiler's first, qemu-user last) and exits 1
nopath() { PATH="$tmp/bin" /bin/sh vectors/real-build.sh "$1" --check > "$tmp/np.out" 2>&1; test $? -eq 1 && grep -q "missing Debian packages: $2 .* qemu-user" "$tmp/np.out"; }
check "etmv3: real-build.sh --check names the missing packages when the tools are not on PATH (exit 1)" nopath vectors/etmv3/real/build.conf gcc-arm-linux-gnueabihf
check "ptm: real-build.sh --check names the missing packages too (exit 1)" nopath vectors/ptm/real/build.conf gcc-arm-linux-gnueabihf
check "ete: real-build.sh --check names the missing packages (exit 1)" nopath vectors/ete/real/build.conf gcc-aarch64-linux-gnu
check "rvtrace: real-build.sh --check names the missing packages when the tools are not on PATH (exit 1)" nopath vectors/rvtrace/real/build.conf gcc-riscv64-linux-gnu
# a folder's own build.sh (vectors/etmv1/real-insn, vectors/etmv2/real-insn): the same message, exact
nopath_own() { PATH="$tmp/bin" /bin/sh "$1" --check > "$tmp/np.out" 2>&1; test $? -eq 1 && printf '%s\n' "$2" | diff - "$tmp/np.out"; }
check "etmv1: real-insn/build.sh --check names the missing packages when the tools are not on PATH (exit 1)" nopath_own vectors/etmv1/real-insn/build.sh \
  'vectors-real: missing Debian packages: gcc-arm-linux-gnueabihf qemu-user (apt-get install gcc-arm-linux-gnueabihf qemu-user)'
check "etmv2: real-insn/build.sh --check names the missing packages too (exit 1)" nopath_own vectors/etmv2/real-insn/build.sh \
  'vectors-real: missing Debian packages: gcc-arm-linux-gnueabihf qemu-user (apt-get install gcc-arm-linux-gnueabihf qemu-user)'
# a target whose compiler, C library and emulator are nowhere: the whole message, exact
printf '%s\n' protocol=etmv3 src=. triplet=tc-none-linux gcc_package=gcc-tc-none-linux libc_package=libc6-dev-tc-none-cross qemu=qemu-tc-none steps=8 note_src=src > "$tmp/none.conf"
exactmsg() { /bin/sh vectors/real-build.sh "$tmp/none.conf" --check > "$tmp/none.out" 2>&1; test $? -eq 1 && printf '%s\n' 'vectors-real: missing Debian packages: gcc-tc-none-linux libc6-dev-tc-none-cross qemu-user (apt-get install gcc-tc-none-linux libc6-dev-tc-none-cross qemu-user)' | diff - "$tmp/none.out"; }
check "real-build.sh --check: the exact message naming the missing Debian packages, exit 1" exactmsg
tap_done
