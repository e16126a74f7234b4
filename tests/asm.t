# SPDX-License-Identifier: BSD-3-Clause
# tracecert asm: the L1 text `dump` prints, assembled, gives back the trace (README.md "Assembling
# packets"). For every protocol with an assembler (asm --help lists them) and every vector of
# vectors/<p>/ (every vector's [trace] is a raw packet stream, RISC-V trace's a stream of its own
# frames, which its assembler writes: no vector is CoreSight formatted or a snapshot), apart from
# those whose bytes the L1 text does not hold (an error or warning item, bytes skipped before
# synchronisation: asm refuses them, checked below); each vector left out is named in the output:
#   - asm of dump's L1 succeeds, and dump of its bytes is dump's L1 again, line for line;
#   - the bytes are the vector's [trace], byte for byte, except in vectors/<p>/gen/ and real/, whose
#     encoder chose the bytes at random among the encodings of the same packets (real/: seeded by the
#     window's length, encoder/<p>/*_exec.c) (a longer address section, a
#     second exception byte, a longer cycle count): there the L1 text does not say which, and the
#     count of byte-identical ones is only reported;
#   - listed exceptions, each with its reason (EXCEPT below).
# A protocol whose input is a per-cycle sample file (ETMv1, ETMv2) takes dump --cycles's text, whose
# cycle lines hold every byte of the file (reference/etmv1/FORMAT.md "Cycle lines", ERRATA
# ETM1-P66): its vectors with error or warning items are assembled too, and each must give back its
# [trace] byte for byte.
# Then the error cases, with their exact messages.
T="${TC_BUILD:-build}/tracecert"
. tests/lib/tap.sh
# EXCEPT: vector<TAB>reason: byte identity is not required (the L1 round trip still is, unless asm refuses).
EXCEPT="vectors/ptm/hdr/odd-81-ff-branch-continued.tcv	its last packet has a 5-byte address where 1 byte does; the last packet has no next offset, so asm writes its shortest form
vectors/ptm/hdr/odd-branch-jazelle-high.tcv	isa=jazelle: the encoder has no Jazelle writer (asm refuses, message checked below)
vectors/ptm/spec/b32-jazelle-walk-limit.tcv	isa=jazelle: the encoder has no Jazelle writer (asm refuses)
vectors/ete/hdr/commit.tcv	its last packet, a Commit, has a 2-byte ULEB128 where 1 byte does; the last packet has no next offset, so asm writes its shortest form
vectors/ete/hdr/context-rme.tcv	its last packet, an Exception, has a 64-bit address where the 32-bit form reaches; the last packet takes its shortest form
vectors/ete/hdr/cycle-count-f2-nocommit.tcv	a format 2 cycle count with AAAA=0 and MAXSPEC=0: every AAAA with MAXSPEC+AAAA-15 <= 0 commits nothing, so the text says commit=0 and asm writes AAAA=15-MAXSPEC (reference/ete/FORMAT.md, Assembling)
vectors/ete/hdr/trace-info.tcv	a Trace Info with a CYCT section and no INFO (cc=0): the decoder does not use CYCT (K10.5.2.6.2), so the text says cct=0 and not the section's 5
vectors/ete/regress/opencsd-cc-f2-f-bit.tcv	a format 2 cycle count with F=1, AAAA=0 and MAXSPEC=0: it commits nothing, the text says commit=0, and asm writes AAAA=15-MAXSPEC
vectors/ete/regress/opencsd-cc-threshold-cc-disabled.tcv	a Trace Info with a CYCT section and no INFO (cc=0): the text says cct=0, not the section's value
vectors/ete/spec/k10-07-program-trace-filtering.tcv	its last packet, an Exception, has a 32-bit address where a short one reaches; the last packet takes its shortest form
vectors/ete/spec/k10-08-exception-cancel.tcv	a Trace Info with a SPEC section of 0 and no INFO: one byte beyond the shortest Trace Info, which asm gives to an INFO section of 0 (the text shows neither)
vectors/etmv3/spec/cycle-count.tcv	its last packet, a Cycle count, has 5 bytes where 1 does; the last packet takes its shortest form
vectors/etmv3/l3/lsip-hyp-v35.tcv	an LSiP I-sync whose information byte gives the data instruction's Hyp 0 and whose current address's exception information Hyp 1: the text shows the Hyp after the packet only, and asm writes the information byte's from it
vectors/etmv3/l3/lsip.tcv	an LSiP I-sync whose data instruction is ARM (address bit 0 clear) and current instruction Thumb: the text shows the current instruction set only, and the encoder gives both one (the T bit of the current)
vectors/rvtrace/hdr/branches-every-value.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/hdr/widths-minimum.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/l3/address-wrap-rv32-trdb-sign.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/l3/address-wrap-rv32.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/l3/branch-maps-rv32.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/l3/exceptions-rv64.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/l3/full-address-rv32.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/l3/loop-interrupt-rv32c.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/l3/narrow-address-rv64.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/l3/privilege-trace-off-rv32.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/l3/traps-interrupt-exception-rv32.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/l3/traps-notval-rv32.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/mut/m-diff-wrap-rv32.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/mut2/m2-message-software-rv64.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/spec/rv64-long-form.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/mut2/m2-wrap-at-2e63-rv64.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/spec/framing-examples.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/spec/table-6.1-formats-0-1.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/spec/table-6.3-exception-tval.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/spec/table-6.3-exception.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/spec/table-6.3-sync-context-field.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies
vectors/rvtrace/spec/table-6.4-support.tcv	the payload bits past what its fields need (the sign copies of a compressed field, RV-F5, and padding, RV-F6) are zeros where the last field's last bit is 1: the decoder reads zeros and copies alike, the text does not say which, and the encoder writes copies"
protocols=$("$T" asm --help | sed -n "s/^Protocols with an assembler: //p")
check "asm --help names the protocols with an assembler" test -n "$protocols"
# config_args V: the vector's [config] as --config options (protocol= apart).
config_args() { sed -n '/^\[config\]/,/^\[/{/^\[/d;s/#.*//;s/[[:space:]]*$//;/^protocol=/d;/=/s/^/--config /p}' "$1"; }
# trace_hex V: the vector's [trace] bytes, one lower-case hex pair a line.
trace_hex() { sed -n '/^\[trace\]/,/^\[/{/^\[/d;s/#.*//;p}' "$1" | tr 'A-F \t' 'a-f\n\n' | grep .; }
# dump_l1 V: the vector's L1 text as asm takes it: with the cycle lines of a protocol whose input is a
# sample file (dump --cycles; exit 2 for a byte-stream protocol, which takes the L1 text alone).
# Sets cycles=1 for the former. A sample file's cycle lines hold every byte, so its vectors with error
# or warning items are assembled too (the items stand on their records' lines and hold no bytes).
dump_l1() {
  cycles=1
  "$T" dump --vector "$1" --level 1 --cycles > "$tmp/l1" 2>/dev/null
  [ $? -eq 2 ] && { cycles=0; "$T" dump --vector "$1" --level 1 > "$tmp/l1" 2>/dev/null; }
  return 0
}
# roundtrip P: every vector of vectors/P; prints what failed, then a summary line "RESULT ok excluded gen-exact gen".
# The same bytes are the same L1 (the decoder's output is a function of its input); other bytes
# must give dump's L1 again, line for line.
# The ASan+UBSan pass of make check takes one vector in ASM_EVERY of each protocol (the first, the
# fifth, …, in name order): it looks for undefined behaviour on the paths of asm and dump (each
# vector three runs of the tool), and the round trip of every vector is the plain pass's.
ASM_EVERY=1
case "${TC_BUILD:-build}" in *asan*) ASM_EVERY=4 ;; esac
roundtrip() {
  p=$1; ok=0; excl=0; gen=0; genx=0; bad=0
  for v in $(find vectors/$p -name '*.tcv' | sort | awk -v n=$ASM_EVERY '(NR - 1) % n == 0'); do
    dump_l1 "$v"
    if [ $cycles -eq 0 ] && grep -q ' error class=\| warning class=\|^# skipped' "$tmp/l1"; then
      excl=$((excl+1)); echo "$v: its L1 has an error or warning item or skipped bytes" >> "$tmp/excluded.$p"; continue
    fi
    reason=$(printf '%s\n' "$EXCEPT" | awk -F'\t' -v v="$v" '$1 == v { print $2 }')
    cfg=$(config_args "$v")
    if ! "$T" asm --protocol "$p" $cfg --output "$tmp/out.bin" "$tmp/l1" 2>"$tmp/err"; then
      [ -n "$reason" ] && { excl=$((excl+1)); echo "$v: $reason" >> "$tmp/excluded.$p"; continue; }
      echo "asm refuses $v: $(cat "$tmp/err")"; bad=$((bad+1)); continue
    fi
    od -An -tx1 -v "$tmp/out.bin" | tr ' ' '\n' | grep . > "$tmp/got"
    trace_hex "$v" > "$tmp/want"
    if cmp -s "$tmp/want" "$tmp/got"; then
      case $v in */gen/*|*/real/*) gen=$((gen+1)); genx=$((genx+1)) ;; *) ok=$((ok+1)) ;; esac
      continue
    fi
    "$T" dump --protocol "$p" $cfg --level 1 "$tmp/out.bin" > "$tmp/l1again" 2>&1
    "$T" dump --vector "$v" --level 1 > "$tmp/l1" 2>/dev/null
    if ! cmp -s "$tmp/l1" "$tmp/l1again"; then
      echo "dump of asm of dump differs: $v"; diff "$tmp/l1" "$tmp/l1again" | head -4; bad=$((bad+1)); continue
    fi
    case $v in
    */gen/*|*/real/*) gen=$((gen+1))
       echo "$v: from bytes: the encoder's random choice among encodings of the same L1 (L1 identical)" >> "$tmp/excluded.$p" ;;
    *) if [ -n "$reason" ]; then excl=$((excl+1)); echo "$v: $reason" >> "$tmp/excluded.$p";
       else echo "bytes differ: $v"; diff "$tmp/want" "$tmp/got" | head -4; bad=$((bad+1)); fi ;;
    esac
  done
  echo "RESULT $ok $excl $genx $gen"
  test $bad -eq 0 && test $ok -gt 0
}
for p in $protocols; do
  which="every vector's"; [ $ASM_EVERY -gt 1 ] && which="one vector in $ASM_EVERY's"
  check "$p: asm of dump gives back $which bytes (its L1 for gen/ and real/)" roundtrip "$p"
  sed -n 's/^RESULT \(.*\) \(.*\) \(.*\) \(.*\)$/# '"$p"': \1 vectors byte for byte, \2 excluded (error, warning or skipped bytes; EXCEPT), gen\/ and real\/: \3 of \4 byte for byte, all L1-identical/p' "$tmp/.check.out"
  # the excluded vectors, each with why
  [ -f "$tmp/excluded.$p" ] && sed 's/^/#   excluded: /' "$tmp/excluded.$p"
done

# Error cases: exact messages, exit status 2, nothing written.
# rejects MESSAGE ARG...: tracecert asm ARG... prints exactly MESSAGE on stderr, nothing on stdout, exits 2.
rejects() {
  m=$1; shift
  "$T" asm "$@" >"$tmp/r.out" 2>"$tmp/r.err"; rc=$?
  test $rc -eq 2 && test ! -s "$tmp/r.out" && printf '%s\n' "$m" | cmp -s - "$tmp/r.err" || { echo "exit $rc, stderr:"; cat "$tmp/r.err"; false; }
}
printf '# a comment\n\n@0 00 async   # A-sync\n@6 08 isync addr=0x8000 isa=arm reason=1 ns=0 hyp=0\n@12 84 atom atom=E\n' > "$tmp/bad-field.txt"
check "a bad field names file, line and column" rejects "tracecert asm: $tmp/bad-field.txt:5: column 13: expected 'atoms=', found 'atom=E'" --protocol ptm "$tmp/bad-field.txt"
printf '# skipped 2 bytes before synchronisation\n@2 00 async\n' > "$tmp/gap.txt"
check "a gap before the first offset (skipped bytes) is refused" rejects "tracecert asm: $tmp/gap.txt:2: the packet is at byte offset 2, but the packets before end at 0: the bytes between are no packets (asm writes packets only)" --protocol ptm "$tmp/gap.txt"
printf '@0 00 async\n@6 08 isync addr=0x8000 isa=arm reason=1 ns=0 hyp=0\n@13 80 atom atoms=E\n' > "$tmp/long.txt"
check "a gap after a packet of fixed length is refused as its length" rejects "tracecert asm: $tmp/long.txt:2: no isync packet is 7 bytes long (the distance to the next item's offset)" --protocol ptm "$tmp/long.txt"
printf '@0 00 async\n@6 08 isync addr=0x8000 isa=arm reason=1 ns=0 hyp=0\n@12 84 atom atoms=E\n' > "$tmp/res0.txt"
check "a header the item does not give is refused (84: a reserved bit set, a warning's)" rejects "tracecert asm: $tmp/res0.txt:3: the packet's header is 80, not 84" --protocol ptm "$tmp/res0.txt"
printf '@0 00 async\n@6 05 error class=reserved-header\n' > "$tmp/err.txt"
check "an error item is refused" rejects "tracecert asm: $tmp/err.txt:2: an error item is no packet: its bytes are not in the text (asm writes packets only)" --protocol ptm "$tmp/err.txt"
printf '@0 00 async\n@6 0c trigger\n@8 0c trigger\n' > "$tmp/len.txt"
check "a packet the next offset makes too long is refused" rejects "tracecert asm: $tmp/len.txt:2: no trigger packet is 2 bytes long (the distance to the next item's offset)" --protocol ptm "$tmp/len.txt"
printf '@0 00 async\n@6 08 isync addr=0x8000 isa=jazelle reason=1 ns=0 hyp=0\n' > "$tmp/jaz.txt"
check "Jazelle state is refused" rejects "tracecert asm: $tmp/jaz.txt:2: isa=jazelle: the encoder writes no Jazelle state" --protocol ptm "$tmp/jaz.txt"
# Per-cycle sample files (reference/etmv1/FORMAT.md "Sample file" and "Cycle lines"), by hand: the
# header is ETMC, revision 1, the major version (1 ETMv1, 2 ETMv2), version, port width, mode,
# half-rate, flags, five zeros; a record is the status byte (PIPESTAT in bits 3:0, TRACESYNC in bit
# 4) then TRACEPKT; the gap record 80 00. ETMv1, 8-bit port: a BE with TRACESYNC and packet 0x80
# (14 80), a gap, a TD with TRACEPKT 0x01 (07 01); the item between them is read and writes nothing.
printf '@0 sample-header version=1 port_width=8 port_mode=0 half_rate=0 flags=0\n@16 cycle 4 sync pkt=0x80\n@18 cycle gap\n@18 - gap\n@20 cycle 7 pkt=0x1\n' > "$tmp/e1.txt"
check "etmv1: asm writes the header and records the cycle lines give" sh -c "'$T' asm --protocol etmv1 --config port_width=8 '$tmp/e1.txt' | od -An -tx1 -v | tr -s ' \n' '  ' | grep -qx ' 45 54 4d 43 01 01 01 08 00 00 00 00 00 00 00 00 14 80 80 00 07 01 '"
# ETMv2 (major 2), ETMv2.0, 4-bit port: a TD with TRACEPKT[3:0] 9 (07 09), a 16-bit port's record of
# three bytes: 05 6a 66 (DW, TRACEPKT[7:0] 0x6a, [15:8] 0x66).
printf '@0 sample-header version=0 port_width=4 port_mode=0 half_rate=0 flags=1\n@16 cycle 7 pkt=0x9\n' > "$tmp/e2.txt"
check "etmv2: asm writes a 4-bit port's file (major 2, flags 1)" sh -c "'$T' asm --protocol etmv2 '$tmp/e2.txt' | od -An -tx1 -v | tr -s ' \n' '  ' | grep -qx ' 45 54 4d 43 01 02 00 04 00 00 01 00 00 00 00 00 07 09 '"
printf '@0 sample-header version=0 port_width=16 port_mode=0 half_rate=0 flags=0\n@16 cycle 5 pkt=0x666a\n@19 bytes 01 02\n' > "$tmp/e2-16.txt"
check "etmv2: a 16-bit record is three bytes, TRACEPKT[7:0] first; a bytes line is written as it is" sh -c "'$T' asm --protocol etmv2 '$tmp/e2-16.txt' | od -An -tx1 -v | tr -s ' \n' '  ' | grep -qx ' 45 54 4d 43 01 02 00 10 00 00 00 00 00 00 00 00 05 6a 66 01 02 '"
printf '@16 cycle 4 pkt=0x0\n' > "$tmp/e1-nohdr.txt"
check "etmv1: a record before the header is refused" rejects "tracecert asm: $tmp/e1-nohdr.txt:1: the line is at byte offset 16, but the records before end at 0" --protocol etmv1 "$tmp/e1-nohdr.txt"
printf '@0 sample-header version=1 port_width=8 port_mode=0 half_rate=0 flags=0\n@16 cycle 8 pkt=0x0\n' > "$tmp/e1-st.txt"
check "etmv1: a status of 4 bits is refused (ETMv1's PIPESTAT has 3)" rejects "tracecert asm: $tmp/e1-st.txt:2: status 8: this protocol's status has 3 bits" --protocol etmv1 "$tmp/e1-st.txt"
printf '@0 sample-header version=0 port_width=8 port_mode=0 half_rate=0 flags=0\n@16 cycle 4 sync pkt=0x0\n' > "$tmp/e2-sync.txt"
check "etmv2: a sync pin is refused (ETMv2 has none)" rejects "tracecert asm: $tmp/e2-sync.txt:2: sync: this protocol has no sync pin" --protocol etmv2 "$tmp/e2-sync.txt"
printf '@0 sample-header version=1 port_width=4 port_mode=0 half_rate=0 flags=0\n@16 cycle 0 pkt=0x10\n' > "$tmp/e1-pkt.txt"
check "etmv1: a TRACEPKT value wider than the port is refused" rejects "tracecert asm: $tmp/e1-pkt.txt:2: pkt=0x10: a record of a 4-bit port holds at most 0xf" --protocol etmv1 "$tmp/e1-pkt.txt"
printf '@0 sample-header version=1 port_width=8 port_mode=0 half_rate=0 flags=0\n@16 cycle 0 pkt=0x1\n@17 0 ie\n' > "$tmp/e1-item.txt"
check "etmv1: an item that stands on no record's line is refused" rejects "tracecert asm: $tmp/e1-item.txt:3: the item is at byte offset 17, where no line before it starts (a per-cycle protocol's items stand on their records' lines)" --protocol etmv1 "$tmp/e1-item.txt"
printf '@0 sample-header version=1 port_width=8 port_mode=0 half_rate=0 flags=0\n@16 cycle 0 pkt=0x1 x\n' > "$tmp/e1-col.txt"
check "etmv1: a cycle line the parser refuses names its column" rejects "tracecert asm: $tmp/e1-col.txt:2: column 20: expected the end of the line, found ' x'" --protocol etmv1 "$tmp/e1-col.txt"
check "no FILE is a usage error" rejects "tracecert asm: no FILE given (see tracecert help asm)" --protocol ptm
check "a missing file is named" rejects "tracecert asm: cannot read '$tmp/none.txt': No such file or directory" --protocol ptm "$tmp/none.txt"
# A small program written by hand: the bytes each line means (IHI 0035B §4.5: A-sync 00×5 80, I-sync 08 +
# address LE with the T bit + information byte reason<<5|1, atom header 1000 0x00 for one E, bit 2 clear).
printf '@0 00 async\n@6 08 isync addr=0x8000 isa=arm reason=1 ns=0 hyp=0\n@12 80 atom atoms=E\n' > "$tmp/ok.txt"
check "asm writes the bytes the lines mean" sh -c "'$T' asm --protocol ptm '$tmp/ok.txt' | od -An -tx1 -v | tr -s ' \n' '  ' | grep -qx ' 00 00 00 00 00 80 08 00 80 00 00 21 80 '"
# ETE (ARM IHI 0014 K10.5.2), by hand: A-sync is eleven 00 then 80; Trace Info 01 PLCTL=00; a 64-bit IS0
# target address 9d: A<8:2>, A<15:9>, A<63:16> LE (0x12345678: 1e 2b 34 12 00 00 00 00); atom format 1
# f7 is E; a short IS0 address 95 in 3 bytes (the next offset): A<8:2> with bit 7 set, then A<16:9>
# (0x12345600 against 0x12345678: 80 2b).
printf '@0 00 async\n@12 01 trace-info cc=0 cct=0 spec=0 tx=0\n@14 9d address addr=0x12345678 isa=0\n@23 f7 atom atoms=E\n@24 95 address addr=0x12345600 isa=0\n@27 f7 atom atoms=E\n' > "$tmp/ete.txt"
check "ete: asm writes the bytes the lines mean (the short address's length from the next offset)" sh -c "'$T' asm --protocol ete '$tmp/ete.txt' | od -An -tx1 -v | tr -s ' \n' '  ' | grep -qx ' 00 00 00 00 00 00 00 00 00 00 00 80 01 00 9d 1e 2b 34 12 00 00 00 00 f7 95 80 2b f7 '"
printf '@0 00 async\n@12 01 trace-info cc=0 cct=0 spec=0 tx=0\n@14 90 address addr=0x1000 isa=0\n' > "$tmp/ete-exact.txt"
check "ete: an exact match of an entry that does not hold the address is refused" rejects "tracecert asm: $tmp/ete-exact.txt:3: the address history's entry 0 is not addr=0x1000 isa=0" --protocol ete "$tmp/ete-exact.txt"
printf '@0 00 async\n@12 01 trace-info cc=0 cct=0 spec=0 tx=0\n@14 f6 atom atoms=E\n' > "$tmp/ete-atom.txt"
check "ete: an atom header that is not the atoms' is refused (f6 is N)" rejects "tracecert asm: $tmp/ete-atom.txt:3: the header is no atom format of the item's atoms" --protocol ete "$tmp/ete-atom.txt"
printf '@0 00 async\n@12 01 trace-info cc=0 cct=0 spec=0\n' > "$tmp/ete-field.txt"
check "ete: a line the parser refuses names file, line and column" rejects "tracecert asm: $tmp/ete-field.txt:2: column 36: expected ' tx=', found end of line" --protocol ete "$tmp/ete-field.txt"
printf '@0 00 async\n@12 01 trace-info cc=0 cct=0 spec=0 tx=0\n@14 2d commit n=1\n@21 f7 atom atoms=E\n' > "$tmp/ete-len.txt"
check "ete: a ULEB128 longer than its field is refused as a length (32 bits: at most 5 bytes)" rejects "tracecert asm: $tmp/ete-len.txt:3: no commit packet of these fields is 7 bytes long (the distance to the next item's offset)" --protocol ete "$tmp/ete-len.txt"
# ETMv3 (ARM IHI 0014 §7.3, §7.7), by hand: A-sync is five 00 then 80; I-sync 08, no context ID, the
# information byte reason 1 (bits 6:5), NS 0, bit 0 set: 21, the address 0x8000 LE (ARM: bit 0 clear);
# P-header format 1 84 is one E; a branch address of 2 bytes (the next offset) to 0x8100 against 0x8000:
# byte 1 C=1, A[7:2]=0, bit 0 set: 81, byte 2 C=0, A[14:8]=0x01: 01.
printf '@0 00 async\n@6 08 isync addr=0x8000 isa=arm reason=1 ns=0 hyp=0\n@12 84 atom atoms=E\n@13 81 branch addr=0x8100 isa=arm ns=0 hyp=0\n@15 84 atom atoms=E\n' > "$tmp/e3.txt"
check "etmv3: asm writes the bytes the lines mean (the branch's length from the next offset)" sh -c "'$T' asm --protocol etmv3 '$tmp/e3.txt' | od -An -tx1 -v | tr -s ' \n' '  ' | grep -qx ' 00 00 00 00 00 80 08 21 00 80 00 00 84 81 01 84 '"
printf '@0 00 async\n@6 08 isync addr=0x8000 isa=arm reason=1 ns=0 hyp=0\n@12 88 atom atoms=E\n' > "$tmp/e3-atom.txt"
check "etmv3: a P-header that is not the atoms' is refused (88 is two E)" rejects "tracecert asm: $tmp/e3-atom.txt:3: the header is no P-header of the item's atoms" --protocol etmv3 "$tmp/e3-atom.txt"
printf '@0 00 async\n@6 08 isync addr=0x8000 isa=arm reason=1 ns=0 hyp=0\n@12 01 branch addr=0x8100 isa=arm ns=0 hyp=0\n@13 84 atom atoms=E\n' > "$tmp/e3-branch.txt"
check "etmv3: a branch address whose length cannot carry the address is refused (one byte: A[7:2] only)" rejects "tracecert asm: $tmp/e3-branch.txt:3: no branch packet of these fields is 1 bytes long (the distance to the next item's offset)" --protocol etmv3 "$tmp/e3-branch.txt"
# RISC-V trace 0.026 (ERRATA RV-F1, RV-F2, RV-F5, RV-F6), by hand, RV32 with iaddress_lsb_p=1 and no
# context: byte 0 is N (bits 3:0), the message type (5:4: te_inst 2) and
# payload bits 0-1 (7:6); payload least-significant bit first. A sync-start (format 3, subformat 0):
# bits 0-1 11, subformat 00, priv 3 (2 bits: 11), branch 1, address 0x1000>>1 = 0x800 (31 bits); the
# address is not compressed, so 2+2+2+1+31 = 38 bits: byte 0 holds 2, N = 5 bytes the other 36 and 4
# bits of padding, copies of the address's top bit (0). Byte 0: N 5 | 2<<4 | 1<<6 | 1<<7 = e5; payload bits
# 2.. : 00 11 1 then 0x800: byte 1 = 0b00000 111 reversed from bit 2: subformat 0,0 priv 1,1 branch 1
# and address bits 0-2 (0): 0x1c; byte 2 address bits 3-10 (0x800>>3 = 0x100: low 8 bits 00): 00;
# byte 3 bits 11-18: 0x800>>11 = 1: 01; bytes 4, 5: 00.
printf '@0 e5 sync-start priv=3 branch=1 addr=0x1000\n' > "$tmp/rv.txt"
check "rvtrace: asm writes the frame the line means" sh -c "'$T' asm --protocol rvtrace --config rv32=1 --config iaddress_width_p=32 --config iaddress_lsb_p=1 --config nocontext_p=1 --config privilege_width_p=2 '$tmp/rv.txt' | od -An -tx1 -v | tr -s ' \n' '  ' | grep -qx ' e5 1c 00 01 00 00 '"
printf '@0 e4 sync-start priv=3 branch=1 addr=0x1000\n' > "$tmp/rv-n.txt"
check "rvtrace: a byte 0 whose N cannot hold the payload is refused" rejects "tracecert asm: $tmp/rv-n.txt:1: the frame's byte 0 is e5, not e4 (the payload needs 5 bytes)" --protocol rvtrace --config rv32=1 --config iaddress_width_p=32 --config iaddress_lsb_p=1 --config nocontext_p=1 --config privilege_width_p=2 "$tmp/rv-n.txt"
# A software message (trdb, RV-X3; ERRATA RV-P26), RV32: XLEN = 32 bits from payload bit 0, kept to the
# fewest whose copies restore it: 0x12345678 has bits 31 and 30 both 0, bit 29 1: 31 bits, 2 in byte
# 0 (bits 1:0 = 00), 29 in N = 4 bytes (32 bits: value bits 2-31, then padding, copies of bit 31, 0).
# Byte 0: N 4 | type 3 << 4 = 34; bytes 1-4: 0x12345678 >> 2 = 0x048d159e little-endian: 9e 15 8d 04.
printf '@0 34 software value=0x12345678\n' > "$tmp/rv-sw.txt"
check "rvtrace: asm writes a software message's frame" sh -c "'$T' asm --protocol rvtrace --config rv32=1 --config iaddress_width_p=32 '$tmp/rv-sw.txt' | od -An -tx1 -v | tr -s ' \n' '  ' | grep -qx ' 34 9e 15 8d 04 '"
# A timer message of timer_width 8: 0x80 sign-extends from bit 7, all 8 bits kept: 2 in byte 0 (00),
# 6 in N = 1 byte, then 2 padding bits, copies of bit 7 (1): byte 1 = 0x80 >> 2 | 11 << 6 = e0; byte 0 = 01 | 1 << 4 = 11.
printf '@0 11 timer time=0x80\n' > "$tmp/rv-timer.txt"
check "rvtrace: asm writes a timer message's frame (padding: copies of the value's last bit)" sh -c "'$T' asm --protocol rvtrace --config rv32=1 --config iaddress_width_p=32 --config timer_width=8 '$tmp/rv-timer.txt' | od -An -tx1 -v | tr -s ' \n' '  ' | grep -qx ' 11 e0 '"
printf '@0 35 software value=0x100000000\n' > "$tmp/rv-sw-wide.txt"
check "rvtrace: a value wider than its message's field is refused" rejects "tracecert asm: $tmp/rv-sw-wide.txt:1: the software message's value has more than its 32 bits" --protocol rvtrace --config rv32=1 --config iaddress_width_p=32 "$tmp/rv-sw-wide.txt"
# A message of type 0 that is no itrace_status (RV-F3): control_code 0x05 and support_type 2 fill the
# 10 bits of N = 1 (byte 0 bits 7:6 the control's bits 1:0, 01: 41; byte 1 its bits 5:2 0001 | 2 << 4: 21).
printf '@0 41 message control=0x5 type=2\n' > "$tmp/rv-msg.txt"
check "rvtrace: asm writes a message's control_code and support_type" sh -c "'$T' asm --protocol rvtrace '$tmp/rv-msg.txt' | od -An -tx1 -v | tr -s ' \n' '  ' | grep -qx ' 41 21 '"
printf '@0 00 async\n@6 0c ignore\n' > "$tmp/e3-kind.txt"
check "etmv3: a one-byte packet whose header is another kind's is refused (0c is a trigger)" rejects "tracecert asm: $tmp/e3-kind.txt:2: the header is not the packet kind's" --protocol etmv3 "$tmp/e3-kind.txt"
printf '@0 00 async\n@6 08 isync addr=0x8000 isa=arm reason=1 ns=0 hyp=0\n@12 80 atom atoms=E\n@5000 80 atom atoms=E\n' > "$tmp/far.txt"
check "a packet of 4096 bytes or more is refused before it is written" rejects "tracecert asm: $tmp/far.txt:3: no packet is 4988 bytes long (the distance to the next item's offset)" --protocol ptm "$tmp/far.txt"
# Found by the P_asm fuzz harnesses: fields the decoder cannot read back as the line says are refused
# (they would be written and read as another line). Without ts64 a timestamp has 48 bits (PTM-P9,
# ETM3-X1); an LSiP I-sync's data instruction address has bit 0 clear (its byte holds the T bit, §7.7.3).
printf '@0 00 async\n@6 42 timestamp ts=0x1000000000000\n' > "$tmp/ts49.txt"
check "ptm: a timestamp of more than 48 bits without ts64 is refused" rejects "tracecert asm: $tmp/ts49.txt:2: ts=0x1000000000000: the timestamp has 48 bits (ts64=0)" --protocol ptm --config timestamps=1 "$tmp/ts49.txt"
# A timestamp's header is b01000x10 (PTM-P9: 42 or 46); a timestamp line with a branch's header 43 is
# refused, not written with 43 (read back as a branch; found by ptm_asm, fuzz/corpus/ptm_asm/).
printf '@0 00 async\n@6 43 timestamp ts=0x85\n' > "$tmp/ts43.txt"
check "ptm: a timestamp line whose header is no timestamp's is refused" rejects "tracecert asm: $tmp/ts43.txt:2: the packet's header is 42, not 43" --protocol ptm --config timestamps=1 "$tmp/ts43.txt"
# An I-sync address's bit 0 is the T bit (PTM-P8): addr=0x1001 isa=arm would be read back as Thumb 0x1000.
printf '@0 00 async\n@6 08 isync addr=0x1001 isa=arm reason=0 ns=0 hyp=0\n' > "$tmp/isync-b0.txt"
check "ptm: an I-sync address with bit 0 set is refused" rejects "tracecert asm: $tmp/isync-b0.txt:2: addr=0x1001: an I-sync address in arm state has bit 0 clear" --protocol ptm "$tmp/isync-b0.txt"
# A branch or waypoint address section holds bits [31:2] in ARM state, [31:1] in Thumb (PTM-P3).
printf '@0 00 async\n@6 08 isync addr=0x1000 isa=arm reason=0 ns=0 hyp=0\n@12 81 branch addr=0x2002 isa=arm ns=0 hyp=0\n' > "$tmp/br-b1.txt"
check "ptm: an ARM branch address with bit 1 set is refused" rejects "tracecert asm: $tmp/br-b1.txt:3: addr=0x2002: a branch address in arm state has bits 1:0 clear" --protocol ptm "$tmp/br-b1.txt"
printf '@0 00 async\n@6 08 isync addr=0x1000 isa=thumb reason=0 ns=0 hyp=0\n@12 72 waypoint addr=0x2001 isa=thumb\n' > "$tmp/wp-b0.txt"
check "ptm: a Thumb waypoint address with bit 0 set is refused" rejects "tracecert asm: $tmp/wp-b0.txt:3: addr=0x2001: a waypoint address in thumb state has bit 0 clear" --protocol ptm "$tmp/wp-b0.txt"
# Only an AltISA bit switches between Thumb and ThumbEE (PTM-P3, PTM-P4: a fifth address byte's
# Thumb selector keeps ThumbEE): a branch without exception information cannot (found by ptm_asm).
printf '@0 00 async\n@6 08 isync addr=0x1000 isa=thumb reason=0 ns=0 hyp=0\n@12 81 branch addr=0x10000000 isa=thumbee ns=0 hyp=0\n' > "$tmp/altisa.txt"
check "ptm: a branch to ThumbEE from Thumb without exception information is refused" rejects "tracecert asm: $tmp/altisa.txt:3: isa=thumbee after thumb: a branch without exception information has no AltISA bit to switch between Thumb and ThumbEE" --protocol ptm "$tmp/altisa.txt"
printf '@0 00 async\n@6 08 isync addr=0x1000 isa=thumb reason=0 ns=0 hyp=0\n@12 72 waypoint addr=0x1000 isa=thumbee\n@14 0c trigger\n' > "$tmp/altisa-wp.txt"
check "ptm: a waypoint update to ThumbEE without its information byte is refused" rejects "tracecert asm: $tmp/altisa-wp.txt:3: isa=thumbee after thumb: a waypoint update without its information byte has no AltISA bit to switch between Thumb and ThumbEE" --protocol ptm "$tmp/altisa-wp.txt"
# A PTM packet has a cycle count where cycle_accurate gives it one, and nowhere else (PTM-P7, P9; found by ptm_asm).
printf '@0 00 async\n@6 42 timestamp ts=0x2 cc=2\n' > "$tmp/ptm-cc.txt"
check "ptm: a cycle count without cycle_accurate is refused" rejects "tracecert asm: $tmp/ptm-cc.txt:2: cc=: with cycle_accurate=0 this packet has no cycle count" --protocol ptm --config timestamps=1 "$tmp/ptm-cc.txt"
printf '@0 00 async\n@6 42 timestamp ts=0x2\n' > "$tmp/ptm-nocc.txt"
check "ptm: a timestamp without its cycle count under cycle_accurate is refused" rejects "tracecert asm: $tmp/ptm-nocc.txt:2: no cc=: with cycle_accurate=1 this packet has a cycle count" --protocol ptm --config timestamps=1 --config cycle_accurate=1 "$tmp/ptm-nocc.txt"
# ETMv3 likewise: AltISA is exception information byte 0's, and ETMv3.3's (§7.3.5, §7.7.3).
printf '@0 00 async\n@6 08 isync addr=0x1000 isa=thumb reason=1 ns=0 hyp=0\n@12 81 branch addr=0x10000000 isa=thumbee ns=0 hyp=0\n' > "$tmp/e3altisa.txt"
check "etmv3: a branch to ThumbEE from Thumb without exception information is refused" rejects "tracecert asm: $tmp/e3altisa.txt:3: isa=thumbee after thumb: a branch without exception information byte 0 has no AltISA bit to switch between Thumb and ThumbEE" --protocol etmv3 "$tmp/e3altisa.txt"
printf '@0 00 async\n@6 08 isync addr=0x1000 isa=thumbee reason=1 ns=0 hyp=0\n' > "$tmp/e3ee-v2.txt"
check "etmv3: ThumbEE before ETMv3.3 is refused" rejects "tracecert asm: $tmp/e3ee-v2.txt:2: isa=thumbee before ETMv3.3 (version=3): no AltISA bit gives ThumbEE" --protocol etmv3 --config version=2 "$tmp/e3ee-v2.txt"
# ETMv3 likewise: a branch address from bit 2 (ARM), 1 (Thumb), 0 (Jazelle) up (§7.3.5); an I-sync's
# bit 0 is the T bit outside Jazelle state (§7.7.3, reference/etmv3/etmv3_parse.c clears it).
printf '@0 00 async\n@6 08 isync addr=0x1000 isa=arm reason=1 ns=0 hyp=0\n@12 81 branch addr=0x2002 isa=arm ns=0 hyp=0\n' > "$tmp/e3br-b1.txt"
check "etmv3: an ARM branch address with bit 1 set is refused" rejects "tracecert asm: $tmp/e3br-b1.txt:3: addr=0x2002: a branch address in arm state has bits 1:0 clear" --protocol etmv3 "$tmp/e3br-b1.txt"
printf '@0 00 async\n@6 08 isync addr=0x1001 isa=arm reason=1 ns=0 hyp=0\n' > "$tmp/e3is-b0.txt"
check "etmv3: an I-sync address with bit 0 set outside Jazelle state is refused" rejects "tracecert asm: $tmp/e3is-b0.txt:2: addr=0x1001: an I-sync address in arm state has bit 0 clear" --protocol etmv3 "$tmp/e3is-b0.txt"
# ETE: an exception's address holds bits [63:2] of an IS0 address, [63:1] of an IS1 one, in every form
# (K10.5.2.13.1, K10.5.2.14.2); found by ete_asm with context (fuzz/corpus/ete_asm/).
printf '@0 00 async\n@12 01 trace-info cc=0 cct=0 spec=0 tx=0\n@14 85 addr-ctx addr=0x1000 isa=0 el=1 ns=1 sf=1 ctxid=0x0 vmid=0x0\n@24 06 exception e=2 type=0xe addr=0x1999 isa=0 el=2 ns=1 sf=1 ctxid=0x0 vmid=0x0\n' > "$tmp/ete-exc-b0.txt"
check "ete: an exception address with bits 1:0 set in IS0 is refused" rejects "tracecert asm: $tmp/ete-exc-b0.txt:4: addr=0x1999: an exception address in IS0 state has bits 1:0 clear" --protocol ete "$tmp/ete-exc-b0.txt"
# A NUL byte is refused where it stands, not taken as the line's end (the rest of the line unread).
printf '@0 00 async\n@6 0c trigger \000junk\n' > "$tmp/nul.txt"
check "a NUL byte in a line is refused with its column" rejects "tracecert asm: $tmp/nul.txt:2: column 15: a NUL byte" --protocol ptm "$tmp/nul.txt"
printf '@0 00 async\n@6 42 timestamp ts=0x1000000000000 r=0\n' > "$tmp/e3ts49.txt"
check "etmv3: a timestamp of more than 48 bits without ts64 is refused" rejects "tracecert asm: $tmp/e3ts49.txt:2: the timestamp has 48 bits (ts64=0)" --protocol etmv3 --config timestamps=1 "$tmp/e3ts49.txt"
# A long form's M is one byte (RV-F4): no frame is longer than 2 + 255 bytes (found by rvtrace_asm).
printf '@0 e0 sync-start priv=3 branch=1 addr=0x1000\n@300 e0 sync-start priv=3 branch=1 addr=0x1000\n' > "$tmp/rv-long.txt"
check "rvtrace: a long form longer than M can say is refused" rejects "tracecert asm: $tmp/rv-long.txt:1: no sync-start frame is 300 bytes long (the distance to the next item's offset)" --protocol rvtrace --config long_frames=1 "$tmp/rv-long.txt"
check "--output writes the file" sh -c "'$T' asm --protocol ptm --output '$tmp/ok.bin' '$tmp/ok.txt' && test \$(wc -c < '$tmp/ok.bin') -eq 13"
check "dump --cycles of a byte-stream protocol is refused" sh -c "'$T' dump --protocol ptm --cycles '$tmp/ok.bin' 2>&1 >/dev/null | grep -qx \"tracecert dump: --cycles: the input of protocol 'ptm' is a byte stream, not a sample file\""
tap_done
