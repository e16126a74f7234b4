# SPDX-License-Identifier: BSD-3-Clause
# Trace snapshot directories: decode --snapshot reproduces the encoder's ground truth for snapshots `gen
# --snapshot-out` writes (ETE, PTM, ETMv3 and mixed: two to five sources interleaved in one CoreSight formatted
# buffer, or raw buffers), a hand-written directory with sources that are not decoded, and bad directories:
# one error line naming the file (and line), exit 2, nothing on standard output.
T="${TC_BUILD:-build}/tracecert"
. tests/lib/tap.sh
# The lines of one source's block (no comments) in a decode output.
block() { awk -v src="$1" '$0 ~ "^# source "src" " {p=1; next} /^# source /{p=0} p && !/^#/' "$2"; }
# A section of a vector, comments and blank lines dropped.
section() { awk -v s="[$1]" '/^\[/{p=($0==s); next} p && NF && !/^#/' "$2"; }
# Each source's block equals its vector's expected L1 (dump) and L3 (decode); the i-th source of a
# snapshot gen writes is named by its vector's protocol (ETE_0, PTM_1).
same_as_vectors() {
  dir=$1; shift; i=0
  "$T" dump --snapshot "$dir" $CONFIG > "$tmp/l1" || return 1
  "$T" decode --snapshot "$dir" $CONFIG > "$tmp/l3" || return 1
  for seed in "$@"; do
    v=$(printf '%s/v/gen-%06d.tcv' "$tmp" "$seed")
    src=$(section config "$v" | sed -n 's/^protocol=//p' | tr a-z A-Z)_$i
    block "$src" "$tmp/l1" > "$tmp/got1"; section expect.l1 "$v" > "$tmp/want1"
    block "$src" "$tmp/l3" > "$tmp/got3"; section expect.l3 "$v" > "$tmp/want3"
    test -s "$tmp/want1" && test -s "$tmp/want3" && cmp -s "$tmp/got1" "$tmp/want1" && cmp -s "$tmp/got3" "$tmp/want3" || return 1
    i=$((i + 1))
  done
}
"$T" gen --seed 3 --count 2 --quiet --out "$tmp/v" --snapshot-out "$tmp/s2" > /dev/null
# Two registers a real ETE capture has that give no configuration key.
for f in "$tmp/s2/ete_0.ini" "$tmp/s2/ete_1.ini"; do printf 'TRCIDR1(0x1e4)=0x4100fff0\nTRCAUTHSTATUS(0xfb8)=0xcc\n' >> "$f"; done
check "gen --snapshot-out: two sources in one CoreSight buffer decode to their vectors' expected L1 and L3" same_as_vectors "$tmp/s2" 3 4
for first in 20 40 60; do
  "$T" gen --seed $first --count 5 --quiet --out "$tmp/v" --snapshot-out "$tmp/s5-$first" > /dev/null
  check "five sources (seeds $first..$((first + 4))) interleaved: each block equals its vector" same_as_vectors "$tmp/s5-$first" $first $((first + 1)) $((first + 2)) $((first + 3)) $((first + 4))
done
"$T" gen --seed 7 --count 3 --quiet --out "$tmp/v" --snapshot-out "$tmp/raw" --snapshot-format source_data > /dev/null
check "source_data buffers (one per source) decode to their vectors" same_as_vectors "$tmp/raw" 7 8 9
check "the formatted buffer is a whole number of 16-byte frames (with frame syncs: 4 bytes each)" sh -c "test \$((\$(wc -c < '$tmp/s2/trace_0.bin') % 4)) -eq 0 && test \$(wc -c < '$tmp/s2/trace_0.bin') -gt 0"
check "each block is headed by one line naming the source, buffer, trace ID and core" sh -c "'$T' decode --snapshot '$tmp/s2' > '$tmp/o' && grep -qx '# source ETE_0 (ETE): buffer ETB_0 (coresight, trace ID 0x10), core cpu_0' '$tmp/o' && grep -qx '# source ETE_1 (ETE): buffer ETB_0 (coresight, trace ID 0x11), core cpu_1' '$tmp/o' && test \$(grep -c '^# source ' '$tmp/o') -eq 2"
check "registers the configuration does not use are listed once per source, not an error" sh -c "test \$(grep -c '^# registers not used for the configuration: TRCIDR1, TRCAUTHSTATUS\$' '$tmp/o') -eq 2"
# The inverse mapping both ways on the written registers: tracecert config of a source's [regs] gives the vector's [config].
sed -n '/^\[regs\]/,$p' "$tmp/s2/ete_1.ini" | sed '1d;s/(0x[0-9a-f]*)//' | grep '^TRC' | grep -v 'TRCIDR1\|TRCAUTH' > "$tmp/regs"
"$T" config $(cat "$tmp/regs") | sed 's/  #.*//' | grep -v '^#' | grep -v 'queue_cap\|tx_cap\|walk_limit' | sort > "$tmp/cfg"
section config "$tmp/v/gen-000004.tcv" | grep -v protocol | sort > "$tmp/want"
check "a source's written registers give back its vector's configuration (tracecert config)" sh -c "test \$(wc -l < '$tmp/regs') -eq 6 && test \$(wc -l < '$tmp/want') -eq 9 && cmp '$tmp/cfg' '$tmp/want'"
check "--config overrides the sources' registers: MAXSPEC 0 makes the commits overrun, exit 1" sh -c "'$T' dump --snapshot '$tmp/s2' > '$tmp/o0'; test \$? -eq 0 && ! grep -q 'error class=' '$tmp/o0' && { '$T' dump --snapshot '$tmp/s2' --config TRCIDR8=0 > '$tmp/o1'; test \$? -eq 1; } && grep -q 'error class=commit-overrun' '$tmp/o1'"
# The hand-written directory: CRLF, comments, quotes, register suffixes, sources not decoded.
M=tests/data/snap-mixed
"$T" decode --snapshot $M > "$tmp/m"; echo "rc $?" >> "$tmp/m"; block ETE_0 "$tmp/m" | tr '\n' '|' > "$tmp/mb"; echo >> "$tmp/mb"
check "hand-written snapshot: the ETE source decodes (A64 at 0x1000: NOP, B taken), exit 0" sh -c "grep -qx '@14 trace-on|@15 context el=1 ns=1 sf=1 ctxid=0x0 vmid=0x0|@22 range first=0x1000 last=0x1004 n=2 isa=a64 type=dir taken=E|' '$tmp/mb' && grep -qx 'rc 0' '$tmp/m'"
check "other source types are reported as not decoded, in device-list order" sh -c "grep -A3 '^@22 range' '$tmp/m' | tail -3 | tr '\n' '|' | grep -qx '# source ETM_1: not decoded: type ETM4|# source STM_0: not decoded: type STM|# source ETE_2: not decoded: no buffer (\\[source_buffers\\] has no entry for it)|'"
cp -r "$tmp/s2" "$tmp/noid"; sed -i 's/^TRCTRACEIDR(0x040)=0x00000011/TRCTRACEIDR(0x040)=0x00000012/' "$tmp/noid/ete_1.ini"
check "a trace ID that never occurs in its buffer is reported, not an error" sh -c "'$T' dump --snapshot '$tmp/noid' > '$tmp/o'; test \$? -eq 0 && grep -qx '# trace ID 0x12 never occurs in buffer ETB_0' '$tmp/o'"
# Bad snapshots. bad NAME SED-FILE SED-SCRIPT EXPECTED-MESSAGE: a copy of the two-source snapshot, edited.
bad() {
  name=$1 file=$2 script=$3 want=$4
  rm -rf "$tmp/bad"; cp -r "$tmp/s2" "$tmp/bad"
  [ -n "$file" ] && sed -i "$script" "$tmp/bad/$file"
  check "bad snapshot, $name: one error line naming the file (and line), exit 2, no output" sh -c "'$T' decode --snapshot '$tmp/bad' > '$tmp/out' 2> '$tmp/err'; rc=\$?; test \$rc -eq 2 && test ! -s '$tmp/out' && test \$(wc -l < '$tmp/err') -eq 1 && grep -qF \"\$1\" '$tmp/err'" sh "$want"
}
bad "missing device file" snapshot.ini 's/device3=ete_1.ini/device3=ete_9.ini/' "tracecert decode: $tmp/bad/snapshot.ini:10: device file: $tmp/bad/ete_9.ini: cannot read: No such file or directory"
bad "unknown buffer format" trace.ini 's/format=coresight/format=tpiu/' "tracecert decode: $tmp/bad/trace.ini:7: unknown buffer format 'tpiu' (expected coresight or source_data)"
rm -rf "$tmp/bad"; cp -r "$tmp/s2" "$tmp/bad"; sed -i 's/type=ETE/type=ETM4/' "$tmp/bad/ete_0.ini" "$tmp/bad/ete_1.ini"
check "bad snapshot, no source of a protocol this build decodes: named with the types it decodes, exit 2, no output" sh -c "'$T' decode --snapshot '$tmp/bad' > '$tmp/out' 2> '$tmp/err'; test \$? -eq 2 && test ! -s '$tmp/out' && grep -Eqx 'tracecert decode: $tmp/bad: no trace source of a protocol this build decodes \\(types: ETE, PTM1.0, PTM1.1, PFT1.0, PFT1.1(, [^)]*)?\\)' '$tmp/err'"
bad "malformed ini line" cpu_1.ini 's/^class=core/class core/' "tracecert decode: $tmp/bad/snapshot.ini:9: device file: $tmp/bad/cpu_1.ini:3: expected [section] or key=value, got 'class core'"
bad "register value that does not parse" ete_0.ini 's/^TRCIDR8(0x180)=0x00000002/TRCIDR8(0x180)=0x2z/' "tracecert decode: $tmp/bad/ete_0.ini:9: bad value '0x2z' for register TRCIDR8 (a 32-bit number, decimal or 0x hex)"
bad "unused register value that does not parse" ete_1.ini 's/^TRCAUTHSTATUS(0xfb8)=0xcc/TRCAUTHSTATUS(0xfb8)=high/' "tracecert decode: $tmp/bad/ete_1.ini:14: register TRCAUTHSTATUS: 'high' is not a number (decimal or 0x hex)"
bad "dump past its file's end" cpu_0.ini '0,/^length=.*/s//length=0x100000/' "tracecert decode: $tmp/bad/cpu_0.ini:9 [dump0] $tmp/bad/cpu_0_mem.bin: offset 0x0 + length 0x100000 is past the end of the file"
bad "dump length 2^64 - 1 (the largest number, past any file's end)" cpu_0.ini '0,/^length=.*/s//length=0xffffffffffffffff/' "tracecert decode: $tmp/bad/cpu_0.ini:9 [dump0] $tmp/bad/cpu_0_mem.bin: offset 0x0 + length 0xffffffffffffffff is past the end of the file"
bad "overlapping dumps" cpu_0.ini '0,/^address=.*/s//address=0xffffffa0/' "overlaps $tmp/bad/cpu_0.ini:"
bad "missing buffer file" trace.ini 's/^file=trace_0.bin/file=trace_9.bin/' "tracecert decode: $tmp/bad/trace.ini:6: buffer file '$tmp/bad/trace_9.bin': cannot open: No such file or directory"
bad "missing dump file" cpu_1.ini 's/^file=cpu_1_mem.bin/file=nothere.bin/' "tracecert decode: $tmp/bad/cpu_1.ini:10: dump file '$tmp/bad/nothere.bin': cannot open: No such file or directory"
bad "a dump address that is not a number" cpu_1.ini '0,/^address=.*/s//address=0xg/' "tracecert decode: $tmp/bad/cpu_1.ini:11: address='0xg' is not a number (decimal or 0x hex)"
bad "formatted buffer, source without TRCTRACEIDR" ete_1.ini '/^TRCTRACEIDR/d' "tracecert decode: $tmp/bad/ete_1.ini: ETE source 'ETE_1' is in the CoreSight formatted buffer 'ETB_0' but has no TRCTRACEIDR to select its bytes"
bad "a reserved trace ID" ete_1.ini 's/^TRCTRACEIDR(0x040)=0x00000011/TRCTRACEIDR(0x040)=0x7d/' "TRCTRACEIDR.TRACEID 0x7d is reserved"
bad "a link to a buffer that does not exist" trace.ini 's/^ETE_1=ETB_0/ETE_1=ETB_7/' "tracecert decode: $tmp/bad/trace.ini:11: [source_buffers] names buffer 'ETB_7', which does not exist"
bad "a [dump] section without address" cpu_1.ini '0,/^address=.*/s///' "tracecert decode: $tmp/bad/cpu_1.ini:9: [dump0] has no address="
# A register refused for a field's value: FILE:LINE of that register (ete_0.ini: TRCIDR0 line 7, TRCIDR2 8,
# TRCIDR8 9, TRCDEVARCH 11), the source, the register and value, the field and why.
bad "a register of the wrong architecture" ete_0.ini 's/^TRCDEVARCH(0xfbc)=0x47705a13/TRCDEVARCH(0xfbc)=0x47724a13/' "tracecert decode: $tmp/bad/ete_0.ini:11: source ETE_0: TRCDEVARCH=0x47724a13: not an ETE trace unit"
bad "TRCIDR0.TSSIZE not 64-bit" ete_0.ini 's/^TRCIDR0(0x1e0)=.*/TRCIDR0(0x1e0)=0x06000ea1/' "tracecert decode: $tmp/bad/ete_0.ini:7: source ETE_0: TRCIDR0=0x06000ea1: TSSIZE [28:24] is 0x6, expected 0b01000"
bad "TRCIDR2.CCSIZE reserved" ete_0.ini 's/^TRCIDR2(0x1e8)=.*/TRCIDR2(0x1e8)=0x12000488/' "tracecert decode: $tmp/bad/ete_0.ini:8: source ETE_0: TRCIDR2=0x12000488: CCSIZE [28:25] is 0x9, a reserved value"
bad "TRCIDR8.MAXSPEC above 65535" ete_0.ini 's/^TRCIDR8(0x180)=.*/TRCIDR8(0x180)=0x10000/' "tracecert decode: $tmp/bad/ete_0.ini:9: source ETE_0: TRCIDR8=0x00010000: MAXSPEC 65536 is more than this decoder takes (65535)"
bad "TRCDEVARCH.REVISION reserved" ete_0.ini 's/^TRCDEVARCH(0xfbc)=.*/TRCDEVARCH(0xfbc)=0x47745a13/' "tracecert decode: $tmp/bad/ete_0.ini:11: source ETE_0: TRCDEVARCH=0x47745a13: REVISION 4 is reserved"
check "a register refused as --config: named as --config, with the source and its file, exit 2, no output" sh -c "'$T' decode --snapshot '$tmp/s2' --config TRCIDR0=0x06000EA1 > '$tmp/out' 2> '$tmp/err'; test \$? -eq 2 && test ! -s '$tmp/out' && grep -qx \"tracecert decode: --config over source ETE_0 ($tmp/s2/ete_0.ini): TRCIDR0=0x06000ea1: TSSIZE \\[28:24\\] is 0x6, expected 0b01000 (ETE has 64-bit timestamps only)\" '$tmp/err'"
# One register under two spellings (ete_0.ini: TRCIDR0 at line 7, TRCIDR8 at 9, TRCIDR1 at 13; the line appended is 15).
bad "a register twice, with and without its (suffix)" ete_0.ini '$a TRCIDR0=0x48000ea1' "tracecert decode: $tmp/bad/ete_0.ini:15: register TRCIDR0 is given twice, at lines 7 and 15 (a name with or without a (suffix), in any case, is one register)"
bad "a register twice, in another case and suffix" ete_0.ini '$a trcidr8(id:0x60)=2' "tracecert decode: $tmp/bad/ete_0.ini:15: register TRCIDR8 is given twice, at lines 9 and 15"
bad "a register the configuration does not use, twice" ete_0.ini '$a TRCIDR1=0x4100fff0' "tracecert decode: $tmp/bad/ete_0.ini:15: register TRCIDR1 is given twice, at lines 13 and 15"
bad "a section given twice" trace.ini '$a [source_buffers]' "tracecert decode: $tmp/bad/trace.ini:16: section [source_buffers] given twice"
# A dump without length= (tests/data/snap-mixed's [dump0], line 11: mem.bin, 16 bytes) whose offset is past its
# file's end: both numbers named.
rm -rf "$tmp/bad"; cp -r tests/data/snap-mixed "$tmp/bad"; printf 'offset=0x20\n' >> "$tmp/bad/cpu_0.ini"
check "bad snapshot, a dump without length= whose offset is past its file's end: the offset and the file's size, exit 2, no output" sh -c "'$T' decode --snapshot '$tmp/bad' > '$tmp/out' 2> '$tmp/err'; test \$? -eq 2 && test ! -s '$tmp/out' && grep -qx \"tracecert decode: $tmp/bad/cpu_0.ini:11 \\[dump0\\] $tmp/bad/mem.bin: offset 0x20 is past the end of the file (16 bytes, 0x10)\" '$tmp/err'"
rm -rf "$tmp/bad"; cp -r "$tmp/s2" "$tmp/bad"; sed -i '/^cpu_1=ETE_1/d' "$tmp/bad/trace.ini"; sed -i '0,/^length=.*/s//length=0x100000/' "$tmp/bad/cpu_1.ini"
check "bad snapshot, a dump of a core no source uses is still checked (past its file's end)" sh -c "'$T' dump --snapshot '$tmp/bad' > '$tmp/out' 2> '$tmp/err'; test \$? -eq 2 && test ! -s '$tmp/out' && grep -q 'cpu_1.ini:9 \[dump0\] .*past the end of the file' '$tmp/err'"
check "no snapshot.ini: named with the errno text" sh -c "'$T' dump --snapshot '$tmp/nothing' 2>&1 >/dev/null | grep -qx \"tracecert dump: $tmp/nothing/snapshot.ini: cannot read: No such file or directory\""
check "--snapshot does not go with a FILE" sh -c "'$T' dump --snapshot '$tmp/s2' x 2>&1 | grep -q 'takes no FILE' && { '$T' dump --snapshot '$tmp/s2' x 2>/dev/null; test \$? -eq 2; }"
check "gen --snapshot-out refuses more than 16 sources" sh -c "'$T' gen --count 17 --quiet --snapshot-out '$tmp/x' 2>&1 | grep -q '1 to 16 vectors'"

# ---- PFT/PTM sources, and sources of both protocols in one buffer ----------------------------------------
"$T" gen --protocol ptm --seed 5 --count 3 --quiet --out "$tmp/v" --snapshot-out "$tmp/p3" > /dev/null
check "PTM: three sources in one CoreSight buffer decode to their vectors' expected L1 and L3" same_as_vectors "$tmp/p3" 5 6 7
check "PTM: a source's block is headed by its device type, buffer, trace ID and core" sh -c "'$T' dump --snapshot '$tmp/p3' > '$tmp/o' && grep -qx '# source PTM_2 (PTM1.0): buffer ETB_0 (coresight, trace ID 0x12), core cpu_2' '$tmp/o' && grep -qx 'type=ARMv7-A' '$tmp/p3/cpu_2.ini'"
check "PTM: the device file holds the four registers of the descriptor at their offsets" sh -c "sed -n '/^\[regs\]/,\$p' '$tmp/p3/ptm_1.ini' | sed 's/=.*//' | tr '\n' ' ' | grep -qx '\[regs\] ETMCR(0x000) ETMIDR(0x1e4) ETMCCER(0x1e8) ETMTRACEIDR(0x200) '"
"$T" gen --protocol ptm --seed 12 --count 2 --quiet --out "$tmp/v" --snapshot-out "$tmp/praw" --snapshot-format source_data > /dev/null
check "PTM: source_data buffers (one per source) decode to their vectors" same_as_vectors "$tmp/praw" 12 13
check "PTM only: --config of a key another protocol owns names that protocol and the snapshot's, exit 2, no output" sh -c "'$T' dump --snapshot '$tmp/p3' --config maxspec=1 > '$tmp/out' 2> '$tmp/err'; test \$? -eq 2 && test ! -s '$tmp/out' && grep -qx \"tracecert dump: --config maxspec=1: 'maxspec' is a config key or register of protocol ete, which no trace source of the snapshot uses (their protocols: ptm)\" '$tmp/err'"
check "PTM only: --config of a name no protocol has says so, exit 2" sh -c "'$T' decode --snapshot '$tmp/p3' --config nosuchkey=1 > '$tmp/out' 2> '$tmp/err'; test \$? -eq 2 && test ! -s '$tmp/out' && grep -qx \"tracecert decode: --config nosuchkey=1: no protocol has a key or register 'nosuchkey' (the snapshot's sources: ptm)\" '$tmp/err'"
rm -rf "$tmp/ptypes"; cp -r "$tmp/p3" "$tmp/ptypes"
sed -i 's/^type=PTM1.0/type=PTM1.1/' "$tmp/ptypes/ptm_1.ini"; sed -i 's/^type=PTM1.0/type=PFT1.1/' "$tmp/ptypes/ptm_2.ini"
check "PTM: device types PTM1.0, PTM1.1 and PFT1.1 are all PFT/PTM sources" same_as_vectors "$tmp/ptypes" 5 6 7
check "PTM: the block names the device type given" sh -c "'$T' dump --snapshot '$tmp/ptypes' | grep -qx '# source PTM_2 (PFT1.1): buffer ETB_0 (coresight, trace ID 0x12), core cpu_2'"
rm -rf "$tmp/psfx"; cp -r "$tmp/p3" "$tmp/psfx"
sed -i 's/^ETMCR(0x000)=/ETMCR(id:0x0)=/; s/^ETMIDR(0x1e4)=/etmidr(id:0x79)=/; s/^ETMCCER(0x1e8)=/ETMCCER(id:0x7A)=/; s/^ETMTRACEIDR(0x200)=/ETMTRACEIDR(id:0x80)=/' "$tmp/psfx/ptm_1.ini"
printf 'ETMCCR(id:0x1)=0x8D294004\r\nETMSCR(id:0x2)=0x00020d09 ; system configuration\r\n' >> "$tmp/psfx/ptm_1.ini"
check "PTM: registers named with an (id:N) suffix, in any case, and registers the configuration does not use (listed)" sh -c "'$T' dump --snapshot '$tmp/psfx' > '$tmp/o' && grep -A1 '^# source PTM_1 ' '$tmp/o' | grep -qx '# registers not used for the configuration: ETMCCR, ETMSCR'"
check "PTM: ... and the sources decode to their vectors" same_as_vectors "$tmp/psfx" 5 6 7
rm -rf "$tmp/pres"; cp -r "$tmp/p3" "$tmp/pres"
cr=$(sed -n 's/^ETMCR(0x000)=//p' "$tmp/pres/ptm_0.ini"); cr=$(printf '0x%08x' $((cr | 0x80000000)))
sed -i "s/^ETMCR(0x000)=.*/ETMCR(0x000)=$cr/; s/^ETMTRACEIDR(0x200)=0x00000010/ETMTRACEIDR(0x200)=0x00000110/" "$tmp/pres/ptm_0.ini"
sed -i 's/^ETMIDR(0x1e4)=0x410/ETMIDR(0x1e4)=0x412/' "$tmp/pres/ptm_1.ini"
check "PTM: register bits no text assigns are notes, not errors" sh -c "'$T' decode --snapshot '$tmp/pres' > '$tmp/o' && grep -qx '# note: ETMCR bit 31 is reserved but set: ignored' '$tmp/o' && grep -qx '# note: ETMTRACEIDR bits \[31:7\] are reserved but set: ignored' '$tmp/o' && grep -qx '# note: ETMIDR bits \[23:21\] or \[17\] are reserved but set: ignored' '$tmp/o'"
check "PTM: ... and those sources decode to their vectors as with the bits clear" same_as_vectors "$tmp/pres" 5 6 7
# ---- ETMv3 sources (device types ETM3, ETM3.0 .. ETM3.5), and ETMv3 with PTM in one buffer --------------
# Seeds whose configurations registers can give (an ARMv7-M core, profile_m=1, has none: gen says so).
"$T" gen --protocol etmv3 --seed 5 --count 3 --quiet --out "$tmp/v" --snapshot-out "$tmp/e3" > /dev/null
check "ETMv3: three sources in one CoreSight buffer decode to their vectors' expected L1 and L3" same_as_vectors "$tmp/e3" 5 6 7
check "ETMv3: a source's block is headed by its device type ETM3, buffer, trace ID and core" sh -c "'$T' dump --snapshot '$tmp/e3' > '$tmp/o' && grep -qx '# source ETMV3_1 (ETM3): buffer ETB_0 (coresight, trace ID 0x11), core cpu_1' '$tmp/o' && test \$(grep -c '^# source ' '$tmp/o') -eq 3"
check "ETMv3: the device file holds the four registers of the descriptor at their offsets" sh -c "sed -n '/^\[regs\]/,\$p' '$tmp/e3/etmv3_1.ini' | sed 's/=.*//' | tr '\n' ' ' | grep -qx '\[regs\] ETMCR(0x000) ETMIDR(0x1e4) ETMCCER(0x1e8) ETMTRACEIDR(0x200) '"
"$T" gen --protocol etmv3 --seed 20 --count 2 --quiet --out "$tmp/v" --snapshot-out "$tmp/e3raw" --snapshot-format source_data > /dev/null
check "ETMv3: source_data buffers (one per source) decode to their vectors" same_as_vectors "$tmp/e3raw" 20 21
rm -rf "$tmp/e3types"; cp -r "$tmp/e3" "$tmp/e3types"
sed -i 's/^type=ETM3$/type=ETM3.4/' "$tmp/e3types/etmv3_1.ini"; sed -i 's/^type=ETM3$/type=ETM3.5/' "$tmp/e3types/etmv3_2.ini"
check "ETMv3: device types ETM3, ETM3.4 and ETM3.5 are all ETMv3 sources (the version is ETMIDR's)" same_as_vectors "$tmp/e3types" 5 6 7
check "ETMv3: the block names the device type given" sh -c "'$T' dump --snapshot '$tmp/e3types' | grep -qx '# source ETMV3_2 (ETM3.5): buffer ETB_0 (coresight, trace ID 0x12), core cpu_2'"
rm -rf "$tmp/e3res"; cp -r "$tmp/e3" "$tmp/e3res"
# ETMCR bit 31 and ETMIDR bit 21: no ETMv3 text assigns them (reference/etmv3/CONFIG.md).
cr=$(sed -n 's/^ETMCR(0x000)=//p' "$tmp/e3res/etmv3_0.ini"); cr=$(printf '0x%08x' $((cr | 0x80000000)))
id=$(sed -n 's/^ETMIDR(0x1e4)=//p' "$tmp/e3res/etmv3_1.ini"); id=$(printf '0x%08x' $((id | 0x00200000)))
sed -i "s/^ETMCR(0x000)=.*/ETMCR(0x000)=$cr/" "$tmp/e3res/etmv3_0.ini"; sed -i "s/^ETMIDR(0x1e4)=.*/ETMIDR(0x1e4)=$id/" "$tmp/e3res/etmv3_1.ini"
check "ETMv3: register bits no text assigns are notes, not errors" sh -c "'$T' decode --snapshot '$tmp/e3res' > '$tmp/o' && grep -A1 '^# source ETMV3_0 ' '$tmp/o' | grep -qx '# note: ETMCR bits 31 or 29 are reserved but set: ignored' && grep -A1 '^# source ETMV3_1 ' '$tmp/o' | grep -qx '# note: ETMIDR bits \[23:21\] or \[17\] are reserved but set: ignored'"
check "ETMv3: ... and those sources decode to their vectors as with the bits clear" same_as_vectors "$tmp/e3res" 5 6 7
"$T" gen --protocol etmv3,ptm --seed 11 --count 3 --quiet --out "$tmp/v" --snapshot-out "$tmp/e3mix" > /dev/null
check "mixed: ETMv3, PTM and ETMv3 sources in one CoreSight buffer, each decoded with its own protocol" same_as_vectors "$tmp/e3mix" 11 12 13
check "mixed: the blocks are ETMV3_0 (ETM3), PTM_1 (PTM1.0), ETMV3_2 (ETM3)" sh -c "'$T' decode --snapshot '$tmp/e3mix' | grep '^# source ' | sed 's/: buffer.*//' | tr '\n' ' ' | grep -qx '# source ETMV3_0 (ETM3) # source PTM_1 (PTM1.0) # source ETMV3_2 (ETM3) '"
"$T" gen --protocol ete,ptm --seed 30 --count 4 --quiet --out "$tmp/v" --snapshot-out "$tmp/mix" > /dev/null
check "mixed: two ETE and two PTM sources in one CoreSight buffer, each decoded with its own protocol" same_as_vectors "$tmp/mix" 30 31 32 33
check "mixed: the blocks are ETE_0, PTM_1, ETE_2, PTM_3 with trace IDs 0x10..0x13" sh -c "'$T' decode --snapshot '$tmp/mix' | grep '^# source ' | sed 's/: buffer ETB_0 (coresight, trace ID /:/; s/), core cpu_.//' | tr '\n' ' ' | grep -qx '# source ETE_0 (ETE):0x10 # source PTM_1 (PTM1.0):0x11 # source ETE_2 (ETE):0x12 # source PTM_3 (PTM1.0):0x13 '"
"$T" gen --protocol ptm,ete,ptm --seed 40 --count 5 --quiet --out "$tmp/v" --snapshot-out "$tmp/mixraw" --snapshot-format source_data > /dev/null
check "mixed: protocols ptm,ete,ptm over five source_data buffers" same_as_vectors "$tmp/mixraw" 40 41 42 43 44
section expect.l1 "$tmp/v/gen-000031.tcv" > "$tmp/ptm1-want"; section expect.l1 "$tmp/v/gen-000033.tcv" > "$tmp/ptm3-want"
check "mixed: --config applies to the sources whose protocol has the name (TRCIDR8=0: errors in the ETE blocks, PTM_1 unchanged)" sh -c "'$T' dump --snapshot '$tmp/mix' --config TRCIDR8=0 > '$tmp/o'; test \$? -eq 1 && awk '/^# source ETE_/{p=1;next} /^# source /{p=0} p' '$tmp/o' | grep -q 'error class=' && awk '/^# source PTM_1 /{p=1;next} /^# source /{p=0} p && !/^#/' '$tmp/o' | cmp - '$tmp/ptm1-want'"
# Bad PTM and mixed snapshots: bad_in BASE NAME FILE SED-SCRIPT EXPECTED-MESSAGE, as bad above.
bad_in() {
  base=$1 name=$2 file=$3 script=$4 want=$5
  rm -rf "$tmp/bad"; cp -r "$base" "$tmp/bad"
  sed -i "$script" "$tmp/bad/$file"
  check "bad snapshot, $name: one error line naming the file, exit 2, no output" sh -c "'$T' decode --snapshot '$tmp/bad' > '$tmp/out' 2> '$tmp/err'; rc=\$?; test \$rc -eq 2 && test ! -s '$tmp/out' && test \$(wc -l < '$tmp/err') -eq 1 && grep -qF \"\$1\" '$tmp/err'" sh "$want"
}
bad_in "$tmp/p3" "PTM source in a formatted buffer without ETMTRACEIDR" ptm_1.ini '/^ETMTRACEIDR/d' "tracecert decode: $tmp/bad/ptm_1.ini: PTM1.0 source 'PTM_1' is in the CoreSight formatted buffer 'ETB_0' but has no ETMTRACEIDR to select its bytes"
bad_in "$tmp/p3" "PTM source without ETMCR" ptm_0.ini '/^ETMCR/d' "tracecert decode: $tmp/bad/ptm_0.ini: PTM1.0 source 'PTM_0' has no register ETMCR, which decoding needs (branch output [8], cycle accurate [12], ContextIDSize [15:14], timestamp [28], return stack [29], VMID [30]): give it in [regs] or as --config ETMCR=VALUE"
bad_in "$tmp/p3" "PTM source without ETMCCER" ptm_2.ini '/^ETMCCER/d' "tracecert decode: $tmp/bad/ptm_2.ini: PTM1.0 source 'PTM_2' has no register ETMCCER, which decoding needs"
bad_in "$tmp/p3" "PTM source without ETMIDR" ptm_2.ini '/^ETMIDR/d' "source 'PTM_2' has no register ETMIDR, which decoding needs"
"$T" gen --protocol ptm --seed 6 --quiet --out "$tmp/v" --snapshot-out "$tmp/pcr" > /dev/null
cr=$(sed -n 's/^ETMCR(0x000)=//p' "$tmp/pcr/ptm_0.ini"); sed -i '/^ETMCR/d' "$tmp/pcr/ptm_0.ini"
CONFIG="--config ETMCR=$cr"; check "PTM: a missing ETMCR given as --config ETMCR=VALUE: the source decodes to its vector" same_as_vectors "$tmp/pcr" 6; CONFIG=
bad_in "$tmp/p3" "two PTM sources with one trace ID in one formatted buffer" ptm_2.ini 's/^ETMTRACEIDR(0x200)=0x00000012/ETMTRACEIDR(0x200)=0x00000010/' "tracecert decode: $tmp/bad/ptm_2.ini: PTM1.0 source 'PTM_2' has trace ID 0x10, as source 'PTM_0' ($tmp/bad/ptm_0.ini) in the same CoreSight formatted buffer 'ETB_0': their bytes cannot be told apart"
bad_in "$tmp/mix" "an ETE and a PTM source with one trace ID" ptm_1.ini 's/^ETMTRACEIDR(0x200)=0x00000011/ETMTRACEIDR(0x200)=0x00000010/' "PTM1.0 source 'PTM_1' has trace ID 0x10, as source 'ETE_0'"
bad_in "$tmp/p3" "ETMIDR minor version out of range" ptm_1.ini 's/^ETMIDR(0x1e4)=0x410003[01]0/ETMIDR(0x1e4)=0x41000320/' "tracecert decode: $tmp/bad/ptm_1.ini:8: source PTM_1: ETMIDR=0x41000320: minor version [7:4] 2 is not PFTv1.0 or v1.1"
bad_in "$tmp/p3" "ETMIDR of another architecture" ptm_1.ini 's/^ETMIDR(0x1e4)=0x410003/ETMIDR(0x1e4)=0x410002/' "tracecert decode: $tmp/bad/ptm_1.ini:8: source PTM_1: ETMIDR=0x410002"
bad_in "$tmp/p3" "a register value of more than 32 bits" ptm_0.ini 's/^ETMCCER(0x1e8)=0x/ETMCCER(0x1e8)=0x1/' "bad value '0x1"
rm -rf "$tmp/bad"; cp -r "$tmp/p3" "$tmp/bad"; sed -i 's/^type=PTM1.0/type=PTM2.0/' "$tmp/bad"/ptm_*.ini
check "bad snapshot, only sources of an unknown device type (PTM2.0): named with the types this build decodes, exit 2, no output" sh -c "'$T' decode --snapshot '$tmp/bad' > '$tmp/out' 2> '$tmp/err'; test \$? -eq 2 && test ! -s '$tmp/out' && grep -Eqx 'tracecert decode: $tmp/bad: no trace source of a protocol this build decodes \\(types: ETE, PTM1.0, PTM1.1, PFT1.0, PFT1.1(, [^)]*)?\\)' '$tmp/err'"
rm -rf "$tmp/unk"; cp -r "$tmp/mix" "$tmp/unk"; sed -i 's/^type=PTM1.0/type=PTM9.9/' "$tmp/unk/ptm_1.ini"
check "mixed: a source of an unknown device type is listed as not decoded, the others decode to their vectors" sh -c "'$T' dump --snapshot '$tmp/unk' > '$tmp/o' && grep -qx '# source PTM_1: not decoded: type PTM9.9' '$tmp/o' && awk '/^# source PTM_3 /{p=1;next} /^# source /{p=0} p && !/^#/' '$tmp/o' | cmp - '$tmp/ptm3-want'"
check "gen: a list of protocols without --snapshot-out is a usage error, exit 2, nothing on standard output" sh -c "'$T' gen --protocol ete,ptm --count 2 > '$tmp/out' 2> '$tmp/err'; test \$? -eq 2 && test ! -s '$tmp/out' && grep -qx 'tracecert gen: a list of protocols (--protocol ete,...) needs --snapshot-out (see tracecert help gen)' '$tmp/err'"
check "gen: a list of protocols with --config is a usage error" sh -c "'$T' gen --protocol ptm,ete --snapshot-out '$tmp/x' --config maxspec=2 2>&1 >/dev/null | grep -q 'a list of protocols does not go with --config' && test ! -e '$tmp/x'"
check "gen: an unknown protocol in a list is named" sh -c "'$T' gen --protocol ete,etmv9 --snapshot-out '$tmp/x' 2>&1 >/dev/null | grep -q \"unknown protocol 'etmv9'\""
check "help dump --protocol ptm marks ETMCR, ETMIDR and ETMCCER as required of a snapshot's source, --protocol ete TRCIDR0 and TRCIDR8" sh -c "test \$('$T' help dump --protocol ptm | grep -B1 -c 'required of a snapshot' | head -1) -gt 0 && '$T' help dump --protocol ptm | grep -B1 'required of a snapshot' | grep -o '^      ETM[A-Z]*' | tr -d ' ' | tr '\n' ' ' | grep -qx 'ETMCR ETMIDR ETMCCER ' && '$T' help dump --protocol ete | grep -B1 'required of a snapshot' | grep -o '^      TRC[A-Z0-9]*' | tr -d ' ' | tr '\n' ' ' | grep -qx 'TRCIDR0 TRCIDR8 '"
# ETE sources: TRCIDR0 (COMMOPT: what a Cycle Count format 2 packet means; ITE, TSMARK: whether 0x09 and
# 0x88 are packets; COMMTRANS) and TRCIDR8 (MAXSPEC, what commits resolve against) are required; a source
# without a buffer (tests/data/snap-mixed ETE_2: TRCIDR0 only) is listed as not decoded and needs none.
bad_in "$tmp/s2" "ETE source without TRCIDR0" ete_1.ini '/^TRCIDR0/d' "tracecert decode: $tmp/bad/ete_1.ini: ETE source 'ETE_1' has no register TRCIDR0, which decoding needs (RETSTACK [9], ITE [22], TSMARK [23], TSSIZE [28:24] (must be 0b01000), COMMOPT [29], COMMTRANS [30]): give it in [regs] or as --config TRCIDR0=VALUE"
bad_in "$tmp/s2" "ETE source without TRCIDR8" ete_0.ini '/^TRCIDR8/d' "tracecert decode: $tmp/bad/ete_0.ini: ETE source 'ETE_0' has no register TRCIDR8, which decoding needs (MAXSPEC [31:0] (at most 65535 here)): give it in [regs] or as --config TRCIDR8=VALUE"
"$T" gen --seed 9 --quiet --out "$tmp/v" --snapshot-out "$tmp/eidr" > /dev/null
idr0=$(sed -n 's/^TRCIDR0(0x1e0)=//p' "$tmp/eidr/ete_0.ini"); idr8=$(sed -n 's/^TRCIDR8(0x180)=//p' "$tmp/eidr/ete_0.ini"); sed -i '/^TRCIDR[08]/d' "$tmp/eidr/ete_0.ini"
CONFIG="--config TRCIDR0=$idr0 --config TRCIDR8=$idr8"; check "ETE: TRCIDR0 and TRCIDR8 given as --config instead: the source decodes to its vector" same_as_vectors "$tmp/eidr" 9; CONFIG=
# Nothing to decode: no source of this build's protocols linked to a buffer (the hand-written snapshot
# without its ETE_0 link: ETE_0 and ETE_2 unlinked, ETM_1 linked but of a type not decoded).
rm -rf "$tmp/none"; cp -r tests/data/snap-mixed "$tmp/none"; sed -i '/^ETE_0=/d' "$tmp/none/trace.ini"
check "nothing to decode (no decodable source has a buffer): the trace metadata file and the sources named, exit 2, no output" sh -c "'$T' decode --snapshot '$tmp/none' > '$tmp/out' 2> '$tmp/err'; test \$? -eq 2 && test ! -s '$tmp/out' && test \$(wc -l < '$tmp/err') -eq 1 && grep -qx \"tracecert decode: $tmp/none/trace.ini: nothing to decode: \\[source_buffers\\] links no trace source of a protocol of this build to a buffer (ETE_0, ETE_2)\" '$tmp/err'"
rm -rf "$tmp/none"; cp -r "$tmp/s2" "$tmp/none"; sed -i '/^ETE_[01]=ETB_0/d' "$tmp/none/trace.ini"
check "nothing to decode: a generated snapshot without its two links, exit 2 from dump too" sh -c "'$T' dump --snapshot '$tmp/none' > '$tmp/out' 2> '$tmp/err'; test \$? -eq 2 && test ! -s '$tmp/out' && grep -q 'nothing to decode: .* (ETE_0, ETE_1)\$' '$tmp/err'"
# A buffer larger than --max-bytes after others that fit: refused in the plan, before the first block.
"$T" gen --seed 53 --count 3 --quiet --out "$tmp/v" --snapshot-out "$tmp/raw53" --snapshot-format source_data > /dev/null
s0=$(wc -c < "$tmp/raw53/trace_0.bin"); s1=$(wc -c < "$tmp/raw53/trace_1.bin"); s2=$(wc -c < "$tmp/raw53/trace_2.bin")
check "source_data buffers of seeds 53..55: the second larger than the first ($s0 < $s1 bytes), for the next check" test "$s0" -lt "$s1"
check "a later buffer larger than --max-bytes (the first's size): refused before any block, both sizes named, exit 2" sh -c "'$T' decode --snapshot '$tmp/raw53' --max-bytes $s0 > '$tmp/out' 2> '$tmp/err'; test \$? -eq 2 && test ! -s '$tmp/out' && grep -qx \"tracecert decode: $tmp/raw53/trace_1.bin: $s1 bytes, more than $s0, the limit (--max-bytes N; 0: no limit)\" '$tmp/err'"
CONFIG="--max-bytes $((s0 + s1 + s2))"; check "... and with --max-bytes above every buffer's size, each block decodes to its vector" same_as_vectors "$tmp/raw53" 53 54 55; CONFIG=
# More than 125 memory dumps. gen seed 13 (400 steps) is one A64 source whose core has one dump of 544 bytes
# (0x220); cut into 136 dumps of 4 bytes of the same file (every A64 instruction whole in one dump; the last
# without length=, to the end of the file), the source decodes to its vector's expected L1 and L3.
"$T" gen --seed 13 --steps 400 --count 1 --quiet --out "$tmp/v" --snapshot-out "$tmp/d136" > /dev/null
perl -ne 'no warnings "portable"; our (@d, %c, $in);
  sub flush { push @d, {%c} if $in; %c = (); }
  if (/^\[dump/) { flush(); $in = 1; next } if (/^\[/) { flush(); $in = 0 }
  if ($in) { $c{$1} = $2 if /^(\w+)=(.*)$/; next } print;
  END { flush(); my $n = 0; for my $x (@d) { my ($a, $o, $l) = map { hex $x->{$_} } qw(address offset length);
    for (my $i = 0; $i < $l; $i += 4) { printf "\n[dump%d]\nfile=%s\naddress=0x%x\noffset=0x%x\n", $n++, $x->{file}, $a + $i, $o + $i;
      printf "length=0x%x\n", $l - $i < 4 ? $l - $i : 4 if $i + 4 < $l; } } }' "$tmp/d136/cpu_0.ini" > "$tmp/cpu_0.ini" &&
  mv "$tmp/cpu_0.ini" "$tmp/d136/cpu_0.ini"
check "the core's 544 bytes are now 136 dumps of 4 bytes (the last to the end of the file)" sh -c "test \$(grep -c '^\\[dump' '$tmp/d136/cpu_0.ini') -eq 136 && test \$(grep -c '^length=0x4\$' '$tmp/d136/cpu_0.ini') -eq 135 && test \$(wc -c < '$tmp/d136/cpu_0_mem.bin') -eq 544"
check "136 dumps: the source decodes to its vector's expected L1 and L3" same_as_vectors "$tmp/d136" 13
bad_in "$tmp/e3" "ETMv3 source without ETMIDR" etmv3_0.ini '/^ETMIDR/d' "tracecert decode: $tmp/bad/etmv3_0.ini: ETM3 source 'ETMV3_0' has no register ETMIDR, which decoding needs (major architecture version [11:8] (2: ETMv3), minor [7:4], 32-bit Thumb as one [18], alternative branch encoding [20]): give it in [regs] or as --config ETMIDR=VALUE"
bad_in "$tmp/e3" "ETMv3 source without ETMCR" etmv3_2.ini '/^ETMCR/d' "tracecert decode: $tmp/bad/etmv3_2.ini: ETM3 source 'ETMV3_2' has no register ETMCR, which decoding needs (data access [3:2], branch output [8], cycle accurate [12], ContextIDSize [15:14], data-only [20], timestamp [28], VMID [30]): give it in [regs] or as --config ETMCR=VALUE"
bad_in "$tmp/e3" "ETMv3 source in a formatted buffer without ETMTRACEIDR" etmv3_1.ini '/^ETMTRACEIDR/d' "tracecert decode: $tmp/bad/etmv3_1.ini: ETM3 source 'ETMV3_1' is in the CoreSight formatted buffer 'ETB_0' but has no ETMTRACEIDR to select its bytes"
bad_in "$tmp/e3" "ETMv3 source whose ETMIDR is not ETMv3's (major version 3)" etmv3_1.ini 's/^ETMIDR(0x1e4)=0x4104f2/ETMIDR(0x1e4)=0x4104f3/' "tracecert decode: $tmp/bad/etmv3_1.ini:8: source ETMV3_1: ETMIDR=0x4104f320: major architecture version [11:8] is 3, not 2 (ETMv3)"
# A trace buffer that never ends (/dev/zero, a character device) stops at --max-bytes, as a trace file does.
cp -r tests/data/snap-mixed "$tmp/endless" && rm "$tmp/endless/ete0.bin" && ln -s /dev/zero "$tmp/endless/ete0.bin"
check "a snapshot buffer longer than --max-bytes: the file and the limit named, exit 2" sh -c "'$T' dump --snapshot '$tmp/endless' --max-bytes 100000 > /dev/null 2> '$tmp/e'; test \$? -eq 2 && grep -qx \"tracecert dump: $tmp/endless/ete0.bin: more than 100000 bytes, the limit (--max-bytes N; 0: no limit)\" '$tmp/e'"
check "the snapshot within --max-bytes decodes as before" sh -c "'$T' dump --snapshot tests/data/snap-mixed --max-bytes 0x100000 > '$tmp/a' && '$T' dump --snapshot tests/data/snap-mixed > '$tmp/b' && cmp -s '$tmp/a' '$tmp/b'"
tap_done
