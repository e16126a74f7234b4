# SPDX-License-Identifier: BSD-3-Clause
# tools/spdx.sh on temporary trees: --check lists the source files that lack the identifier and
# only them (data, documents, patches, build* and .git left out), --apply writes it in each file's
# comment syntax as the first line (after a #! line; an assembler file's last line), changing
# nothing else (the file's mode kept), a second --apply changes nothing, a file with another
# identifier is reported and never changed, the tag counts only as a comment line of its own; then
# the same on a copy of this tree: --apply changes only the files --check listed, by one line each.
# (tests/spdx.t checks the tree itself.)
. tests/lib/tap.sh
S="$PWD/tools/spdx.sh"
ID='SPDX-License-Identifier: BSD-3-Clause'
t="$tmp/t"
mkdir -p "$t/src" "$t/build/obj" "$t/.git" "$t/fuzz/corpus/h" "$t/vectors/p"
printf '/* a.c — a file. */\nint a;\n' > "$t/src/a.c"
printf '#ifndef B_H\n#define B_H\n#endif\n' > "$t/src/b.h"
printf '@ arm.S — tables.\n\tnop @= other\n' > "$t/src/arm.S"
printf '// a64.S — tables.\n\tnop //= other\n' > "$t/src/a64.S"
printf '.text\n\tnop\n' > "$t/src/plain.s"
printf '@ nonl.S — no final line break.\n\tnop' > "$t/src/nonl.S"
printf '# rv.inc — shared rows.\n\tnop\n' > "$t/src/rv.inc"
printf '#!/usr/bin/env bash\necho run\n' > "$t/run"; chmod 755 "$t/run"
printf '#!/bin/sh\n# tool.sh — a tool.\necho tool\n' > "$t/src/tool.sh"; chmod 755 "$t/src/tool.sh"
printf '. tests/lib/tap.sh\n' > "$t/src/x.t"
printf 'X := 1\n' > "$t/src/x.mk"
printf '#!/bin/sh\necho "SPDX-License-Identifier: BSD-3-Clause"\n' > "$t/src/mention.sh"
printf 'all:\n\ttrue\n' > "$t/GNUmakefile"
printf 'import sys\n' > "$t/src/p.py"
printf 'name: x\n' > "$t/src/p.yaml"
printf 'FROM debian\n' > "$t/Dockerfile"
printf 'prefix=@PREFIX@\n' > "$t/src/x.pc.in"
: > "$t/src/empty.h"
# not source
printf '[trace]\n00\n' > "$t/vectors/p/v.tcv"
printf '\0\1\2' > "$t/vectors/p/i.bin"
printf 'a\tb\n' > "$t/src/t.tsv"
printf 'n=1\n' > "$t/src/d.ini"
printf -- '--- a/src/a.c\n+++ b/src/a.c\n' > "$t/src/m.patch"
printf '# readme\n' > "$t/README.md"
printf '0.1.0\n' > "$t/VERSION"
printf 'echo no shebang\n' > "$t/notes"
printf 'int built;\n' > "$t/build/obj/gen.c"
printf 'int git;\n' > "$t/.git/hook.c"
printf 'int corpus;\n' > "$t/fuzz/corpus/h/seed.c"
cp -r "$t" "$tmp/orig"
expected="GNUmakefile Dockerfile run src/a.c src/a64.S src/arm.S src/b.h src/empty.h src/mention.sh src/nonl.S src/p.py src/p.yaml src/plain.s src/rv.inc src/tool.sh src/x.mk src/x.pc.in src/x.t"
sorted() { printf '%s\n' $1 | LC_ALL=C sort; }
# lists_exactly MODE: the paths MODE prints are the expected ones, with exit status WANT_RC.
lists_exactly() { out=$(sh "$S" "$1" "$t"); rc=$?; [ "$out" = "$(sorted "$expected")" ] && [ $rc -eq "$2" ] || { echo "exit $rc:"; echo "$out"; return 1; }; }
check "--check lists every source file lacking the identifier, and only them; exit 1" lists_exactly --check 1
check "--check changed nothing" diff -r "$tmp/orig" "$t"
check "--apply lists the same files; exit 0" lists_exactly --apply 0
# first_line FILE LINE N: line N of FILE is LINE, and the file is the original with that line added.
first_line() {
  [ "$(sed -n "$3p" "$t/$1")" = "$2" ] || { echo "$1 line $3: $(sed -n "$3p" "$t/$1")"; return 1; }
  sed "$3d" "$t/$1" | cmp -s - "$tmp/orig/$1" || { echo "$1: more changed than the line"; return 1; }
}
check "C: /* */ as the first line" first_line src/a.c "/* $ID */" 1
check "a header" first_line src/b.h "/* $ID */" 1
check "an empty header" first_line src/empty.h "/* $ID */" 1
# last_line FILE LINE: the last line of FILE is LINE, after the original (assembler: no line moves).
last_line() {
  [ "$(tail -n 1 "$t/$1")" = "$2" ] || { echo "$1 last line: $(tail -n 1 "$t/$1")"; return 1; }
  head -c "$(wc -c < "$tmp/orig/$1")" "$t/$1" | cmp -s - "$tmp/orig/$1" || { echo "$1: more changed than the end"; return 1; }
  [ $(($(wc -l < "$t/$1") - $(wc -l < "$tmp/orig/$1"))) -le 2 ]
}
check "assembler with @ comments: @, as the last line" last_line src/arm.S "@ $ID"
check "assembler with // comments: //, as the last line" last_line src/a64.S "// $ID"
check "assembler without a comment line: /* */, as the last line" last_line src/plain.s "/* $ID */"
check "an .inc with # comments: #, as the last line" last_line src/rv.inc "# $ID"
check "assembler without a final line break: the line break added, then the line" sh -c "test \"\$(tail -n 2 '$t/src/nonl.S')\" = \"\$(printf '\tnop\n@ $ID')\""
check "a script without an extension: after its #! line" first_line run "# $ID" 2
check "a shell script: after its #! line" first_line src/tool.sh "# $ID" 2
check "a script that only mentions the tag (not a comment line of its own) gets it too" first_line src/mention.sh "# $ID" 2
check "a test script, make fragment, GNUmakefile, Python, YAML, Dockerfile, .in: # first" sh -c "for f in src/x.t src/x.mk GNUmakefile src/p.py src/p.yaml Dockerfile src/x.pc.in; do test \"\$(sed -n 1p '$t/'\$f)\" = '# $ID' || { echo \$f; exit 1; }; done"
check "modes kept (the scripts stay executable)" test -x "$t/run" -a -x "$t/src/tool.sh"
check "data, documents, patches, build, .git and the fuzz corpus unchanged" sh -c "for f in vectors/p/v.tcv vectors/p/i.bin src/t.tsv src/d.ini src/m.patch README.md VERSION notes build/obj/gen.c .git/hook.c fuzz/corpus/h/seed.c; do cmp -s '$t/'\$f '$tmp/orig/'\$f || { echo \$f; exit 1; }; done"
check "then --check passes: no output, exit 0" sh -c "out=\$(sh '$S' --check '$t') && test -z \"\$out\""
cp -r "$t" "$tmp/applied"
check "a second --apply changes nothing" sh -c "out=\$(sh '$S' --apply '$t') && test -z \"\$out\" && diff -r '$tmp/applied' '$t'"
printf '/* SPDX-License-Identifier: MIT */\nint m;\n' > "$t/src/mit.c"
check "another identifier: --check names it, exit 1" sh -c "sh '$S' --check '$t' 2>&1 >/dev/null | grep -q 'src/mit.c: another SPDX-License-Identifier'; sh '$S' --check '$t' >/dev/null 2>&1; test \$? -eq 1"
check "--apply leaves it unchanged, exit 1" sh -c "sh '$S' --apply '$t' >/dev/null 2>&1; rc=\$?; test \$rc -eq 1 && test \"\$(sed -n 1p '$t/src/mit.c')\" = '/* SPDX-License-Identifier: MIT */' && test \$(wc -l < '$t/src/mit.c') -eq 2"
check "usage errors: exit 2" sh -c "sh '$S' 2>/dev/null; a=\$?; sh '$S' --fix 2>/dev/null; b=\$?; sh '$S' --check '$tmp/none' 2>/dev/null; c=\$?; test \$a\$b\$c = 222"

# A copy of this tree (no build, no .git): --apply changes exactly the files --check lists, one line each.
mkdir -p "$tmp/tree"
tar -c --exclude='./build*' --exclude=./.git . | tar -x -C "$tmp/tree"
sh "$S" --check "$tmp/tree" > "$tmp/lacking.txt"
check "--apply on a copy of the tree lists what --check listed" sh -c "sh '$S' --apply '$tmp/tree' > '$tmp/applied.txt' && diff '$tmp/lacking.txt' '$tmp/applied.txt'"
check "and --check then passes on it" sh "$S" --check "$tmp/tree"
changed_ok() {
  diff -rq . "$tmp/tree" | sed -n "s|^Files \./\(.*\) and .* differ\$|\1|p" | LC_ALL=C sort > "$tmp/changed.txt"
  diff "$tmp/lacking.txt" "$tmp/changed.txt" || return 1
  [ -z "$(diff -rq . "$tmp/tree" | grep -v '^Files ' | grep -v '^Only in \./\?: \(build\|\.git\)')" ] || { diff -rq . "$tmp/tree" | grep -v '^Files ' | head; return 1; }
  while IFS= read -r f; do
    [ $(($(wc -l < "$tmp/tree/$f") - $(wc -l < "$f"))) -eq 1 ] || { echo "$f: not one line more"; return 1; }
  done < "$tmp/changed.txt"
}
check "only those files changed, each by one line; no vector, image, table or patch touched" changed_ok
tap_done
