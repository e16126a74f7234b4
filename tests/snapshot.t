# Trace snapshot directories: decode --snapshot reproduces the encoder's ground truth for snapshots `gen
# --snapshot-out` writes (two and five sources interleaved in one CoreSight formatted buffer, or raw buffers),
# a hand-written directory with sources that are not decoded, and bad directories: one error line naming the
# file and line, exit 2, nothing on standard output.
T="${TC_BUILD:-build}/tracecert"
. tests/lib/tap.sh
# The lines of one source's block (no comments) in a decode output.
block() { awk -v src="$1" '$0 ~ "^# source "src" " {p=1; next} /^# source /{p=0} p && !/^#/' "$2"; }
# A section of a vector, comments and blank lines dropped.
section() { awk -v s="[$1]" '/^\[/{p=($0==s); next} p && NF && !/^#/' "$2"; }
# Each source's block equals its vector's expected L1 (dump) and L3 (decode).
same_as_vectors() {
  dir=$1; shift; i=0
  "$T" dump --snapshot "$dir" > "$tmp/l1" || return 1
  "$T" decode --snapshot "$dir" > "$tmp/l3" || return 1
  for seed in "$@"; do
    v=$(printf '%s/v/gen-%06d.tcv' "$tmp" "$seed")
    block "ETE_$i" "$tmp/l1" > "$tmp/got1"; section expect.l1 "$v" > "$tmp/want1"
    block "ETE_$i" "$tmp/l3" > "$tmp/got3"; section expect.l3 "$v" > "$tmp/want3"
    test -s "$tmp/want1" && test -s "$tmp/want3" && cmp -s "$tmp/got1" "$tmp/want1" && cmp -s "$tmp/got3" "$tmp/want3" || return 1
    i=$((i + 1))
  done
}
"$T" gen --seed 3 --count 2 --quiet --out "$tmp/v" --snapshot-out "$tmp/s2" > /dev/null
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
check "--config overrides the sources' registers: MAXSPEC 0 makes the commits overrun, exit 1" sh -c "'$T' dump --snapshot '$tmp/s2' > '$tmp/o0'; test \$? -eq 0 && ! grep -q 'error class=' '$tmp/o0' && '$T' dump --snapshot '$tmp/s2' --config TRCIDR8=0 > '$tmp/o1'; test \$? -eq 1 && grep -q 'error class=commit-overrun' '$tmp/o1'"
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
check "bad snapshot, no source of a protocol this build decodes: named with the types it decodes, exit 2, no output" sh -c "'$T' decode --snapshot '$tmp/bad' > '$tmp/out' 2> '$tmp/err'; test \$? -eq 2 && test ! -s '$tmp/out' && grep -qx 'tracecert decode: $tmp/bad: no trace source of a protocol this build decodes (types: ETE, PTM1.0, PTM1.1, PFT1.0, PFT1.1)' '$tmp/err'"
bad "malformed ini line" cpu_1.ini 's/^class=core/class core/' "tracecert decode: $tmp/bad/snapshot.ini:9: device file: $tmp/bad/cpu_1.ini:3: expected [section] or key=value, got 'class core'"
bad "register value that does not parse" ete_0.ini 's/^TRCIDR8(0x180)=0x00000002/TRCIDR8(0x180)=0x2z/' "tracecert decode: $tmp/bad/ete_0.ini:9: bad value '0x2z' for register TRCIDR8 (a 32-bit number, decimal or 0x hex)"
bad "unused register value that does not parse" ete_1.ini 's/^TRCAUTHSTATUS(0xfb8)=0xcc/TRCAUTHSTATUS(0xfb8)=high/' "tracecert decode: $tmp/bad/ete_1.ini:14: register TRCAUTHSTATUS: 'high' is not a number (decimal or 0x hex)"
bad "dump past its file's end" cpu_0.ini '0,/^length=.*/s//length=0x100000/' "tracecert decode: $tmp/bad/cpu_0.ini:9 [dump0] $tmp/bad/cpu_0_mem.bin: offset 0x0 + length 0x100000 is past the end of the file"
bad "overlapping dumps" cpu_0.ini '0,/^address=.*/s//address=0xffffffa0/' "overlaps $tmp/bad/cpu_0.ini:"
bad "missing buffer file" trace.ini 's/^file=trace_0.bin/file=trace_9.bin/' "tracecert decode: $tmp/bad/trace.ini:6: buffer file '$tmp/bad/trace_9.bin': cannot open: No such file or directory"
bad "missing dump file" cpu_1.ini 's/^file=cpu_1_mem.bin/file=nothere.bin/' "tracecert decode: $tmp/bad/cpu_1.ini:10: dump file '$tmp/bad/nothere.bin': cannot open: No such file or directory"
bad "a dump address that is not a number" cpu_1.ini '0,/^address=.*/s//address=0xg/' "tracecert decode: $tmp/bad/cpu_1.ini:11: address='0xg' is not a number (decimal or 0x hex)"
bad "formatted buffer, source without TRCTRACEIDR" ete_1.ini '/^TRCTRACEIDR/d' "tracecert decode: $tmp/bad/ete_1.ini: ETE source 'ETE_1' is in the CoreSight formatted buffer 'ETB_0' but has no TRCTRACEIDR to select its bytes"
bad "a reserved trace ID" ete_1.ini 's/^TRCTRACEIDR(0x040)=0x00000011/TRCTRACEIDR(0x040)=0x7d/' "TRCTRACEIDR.TRACEID 0x7d is reserved"
bad "a link to a buffer that does not exist" trace.ini 's/^ETE_1=ETB_0/ETE_1=ETB_7/' "tracecert decode: $tmp/bad/trace.ini:11: [source_buffers] names buffer 'ETB_7', which does not exist"
bad "a [dump] section without address" cpu_1.ini '0,/^address=.*/s///' "tracecert decode: $tmp/bad/cpu_1.ini:9: [dump0] has no address="
bad "a register of the wrong architecture" ete_0.ini 's/^TRCDEVARCH(0xfbc)=0x47705a13/TRCDEVARCH(0xfbc)=0x47724a13/' "not an ETE trace unit"
bad "a section given twice" trace.ini '$a [source_buffers]' "tracecert decode: $tmp/bad/trace.ini:16: section [source_buffers] given twice"
rm -rf "$tmp/bad"; cp -r "$tmp/s2" "$tmp/bad"; sed -i '/^cpu_1=ETE_1/d' "$tmp/bad/trace.ini"; sed -i '0,/^length=.*/s//length=0x100000/' "$tmp/bad/cpu_1.ini"
check "bad snapshot, a dump of a core no source uses is still checked (past its file's end)" sh -c "'$T' dump --snapshot '$tmp/bad' > '$tmp/out' 2> '$tmp/err'; test \$? -eq 2 && test ! -s '$tmp/out' && grep -q 'cpu_1.ini:9 \[dump0\] .*past the end of the file' '$tmp/err'"
check "no snapshot.ini: named with the errno text" sh -c "'$T' dump --snapshot '$tmp/nothing' 2>&1 >/dev/null | grep -qx \"tracecert dump: $tmp/nothing/snapshot.ini: cannot read: No such file or directory\""
check "--snapshot does not go with a FILE" sh -c "'$T' dump --snapshot '$tmp/s2' x 2>&1 | grep -q 'takes no FILE' && { '$T' dump --snapshot '$tmp/s2' x 2>/dev/null; test \$? -eq 2; }"
check "gen --snapshot-out refuses more than 16 sources" sh -c "'$T' gen --count 17 --quiet --snapshot-out '$tmp/x' 2>&1 | grep -q '1 to 16 vectors'"
tap_done
