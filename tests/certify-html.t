# SPDX-License-Identifier: BSD-3-Clause
# The HTML certificate (conformance/html.c) parsed with html5lib and read against the JSON certificate:
# its score, its verdict counts by protocol and level, every heat map cell (tag family x level), the
# defect classes and every failure (class, vector, the trace bytes marked at the divergence); one file,
# no script, nothing fetched. The JSON's identity, structured failures and valid UTF-8 from an adapter
# that hands over bytes that are not UTF-8. Skipped without python3-html5lib (Debian package).
T="${TC_BUILD:-build}/tracecert"
B="${TC_BUILD:-build}/adapters"
R="$B/libtc_reference.so"
W="$B/bad/libtc_bad_wrong.so"
. tests/lib/tap.sh

PY=
for p in python3 /usr/bin/python3; do
  if "$p" -c 'import html5lib' 2>/dev/null; then PY=$p; break; fi
done

"$T" certify --adapter "$W" --vectors vectors/ete/spec --vectors vectors/ete/neg --report "$tmp/w" 2>/dev/null; wrc=$?
"$T" certify --adapter "$B/bad/libtc_bad_markup.so" --vectors vectors/ete/spec --report "$tmp/mk" 2>/dev/null; mrc=$?
"$T" certify --adapter "$R" --vectors vectors/ete/spec --report "$tmp/ref" 2>/dev/null; rrc=$?

cat > "$tmp/checkjson.py" <<'PYEOF'
# checkjson.py JSON: the file is valid UTF-8 and JSON; format_version, identity and limits are there; every
# failure is an object of fields (no YAML string), with its class and the command that reproduces it.
import json, sys
raw = open(sys.argv[1], 'rb').read()
cert = json.loads(raw.decode('utf-8', errors='strict'))
assert cert['format_version'] == 2
for k in ('adapter', 'adapter_version', 'adapter_path', 'date', 'tracecert_version', 'levels', 'tags'):
    assert k in cert, k
assert cert['vector_set']['files'] > 0 and len(cert['vector_set']['content_digest']) == 16
assert set(cert['limits']) == {'timeout_s', 'memory_mb', 'output_mb', 'processes', 'items'}
rule = cert['score_rule']
assert rule['passed'] == rule['pass'] + rule['pass_alt'] == cert['totals']['pass'] + cert['totals']['pass-alt']
assert rule['counted'] == rule['runs'] - rule['unsupported'] - rule['not_run']
assert abs(cert['score'] - (rule['passed'] / rule['counted'] if rule['counted'] else 0)) < 1e-4
classes = {}
for f in cert['failures']:
    assert isinstance(f['detail'], dict), f
    assert f['reproduce'].startswith('tracecert certify --adapter ') and ' --level ' + f['level'][1] in f['reproduce']
    classes[f['class']] = classes.get(f['class'], 0) + 1
    if f['verdict'] == 'fail':
        for k in ('section', 'line', 'expected', 'got'):
            assert k in f['detail'], (k, f)
        assert isinstance(f['detail']['line'], int)
assert classes == {c['class']: c['runs'] for c in cert['defect_classes']}, classes
print(len(cert['failures']), ' '.join(sorted(classes)))
PYEOF
check "JSON of a failing adapter: valid UTF-8, format_version 2, identity, failures as fields, classes add up" sh -c "test $wrc -eq 1 && python3 '$tmp/checkjson.py' '$tmp/w/certificate.json' | grep -Eq '^[1-9][0-9]* .*l1-'"
check "JSON of an adapter whose name, version and error hold bytes that are not UTF-8: valid UTF-8" sh -c "test $mrc -eq 1 && python3 '$tmp/checkjson.py' '$tmp/mk/certificate.json' | grep -q adapter-error"
check "JSON of the reference: no failure, no class, score 1" sh -c "test $rrc -eq 0 && python3 '$tmp/checkjson.py' '$tmp/ref/certificate.json' | grep -qx '0 '"

cat > "$tmp/checkhtml.py" <<'PYEOF'
# checkhtml.py HTML JSON: the HTML parses (html5lib, strict: no parse error), holds no script and fetches
# nothing; its figures are the JSON's.
import json, sys, html5lib
raw = open(sys.argv[1], 'rb').read()
cert = json.load(open(sys.argv[2], encoding='utf-8'))
p = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
doc = p.parse(raw.decode('utf-8', errors='strict'))
assert not doc.findall('.//script') and not doc.findall('.//link') and not doc.findall('.//img') and not doc.findall('.//iframe')
for e in doc.iter():
    for a in ('src', 'href'):
        assert a not in e.attrib, (e.tag, e.attrib)
for st in doc.findall('.//style'):
    assert 'url(' not in st.text and '@import' not in st.text
score = doc.find(".//*[@id='score']")
assert abs(float(score.get('data-score')) - cert['score']) < 1e-4, score.get('data-score')
assert int(doc.find(".//*[@id='passed']").text) == cert['score_rule']['passed']
assert int(doc.find(".//*[@id='counted']").text) == cert['score_rule']['counted']
assert doc.find(".//*[@id='date']").text == cert['date']
rows = doc.findall(".//tr[@class='protocol']")
want = {(p['protocol'], lv): p[lv] for p in cert['by_protocol'] for lv in ('L1', 'L3')}
assert len(rows) == len(want), (len(rows), len(want))
for r in rows:
    counts = want[(r.get('data-protocol'), r.get('data-level'))]
    for k, v in counts.items():
        assert int(r.get('data-' + k)) == v, (k, v)
cells = doc.findall(".//{http://www.w3.org/2000/svg}g[@class='cell']") or doc.findall(".//g[@class='cell']")
fam = {(f['protocol'], f['family'], lv): f[lv] for f in cert['by_family'] for lv in ('L1', 'L3')}
assert len(cells) == len(fam) > 0, (len(cells), len(fam))
for c in cells:
    counts = fam[(c.get('data-protocol'), c.get('data-family'), c.get('data-level'))]
    for k, v in counts.items():
        assert int(c.get('data-' + k)) == v, (k, v)
    state = c.get('data-state')
    assert (state == 'pass') == (counts['pass'] > 0 and all(counts[k] == 0 for k in counts if k not in ('pass', 'unsupported'))), (state, counts)
defects = {d.get('data-class'): int(d.get('data-runs')) for d in doc.findall(".//tr[@class='defect']")}
assert defects == {c['class']: c['runs'] for c in cert['defect_classes']}, defects
fails = [d for d in doc.findall(".//div[@class='failure']") if d.get('data-class') != 'alternative-reading']
assert len(fails) == len(cert['failures']), (len(fails), len(cert['failures']))
by_key = {}
for f in cert['failures']:
    by_key.setdefault((f['class'], f['level']), []).append(f['vector'])
marked = 0
for d in fails:
    vec = d.find(".//code[@class='vector']").text
    assert vec in by_key[(d.get('data-class'), d.get('data-level'))], vec
    rep = d.find(".//code[@class='reproduce']").text
    assert '--level ' + d.get('data-level')[1] in rep
    pre = d.find(".//pre[@class='trace']")
    if pre is not None:
        marks = pre.findall('mark')
        assert len(marks) == int(pre.get('data-length')) > 0, (len(marks), pre.get('data-length'))
        marked += 1
print(len(fails), marked, len(cells))
PYEOF
if test -z "$PY"; then
  for k in 1 2 3; do n=$((n+1)); echo "ok $n # SKIP python3-html5lib is not installed (apt-get install python3-html5lib): the HTML certificate is not parsed"; done
else
  check "HTML of a failing adapter: parses strictly, no script or fetch, its figures are the JSON's, trace bytes marked" sh -c "'$PY' '$tmp/checkhtml.py' '$tmp/w/certificate.html' '$tmp/w/certificate.json' | grep -Eq '^[1-9][0-9]* [1-9][0-9]* [1-9][0-9]*\$'"
  check "HTML of the markup adapter (markup, control bytes, bytes that are not UTF-8): parses, figures as the JSON's" sh -c "'$PY' '$tmp/checkhtml.py' '$tmp/mk/certificate.html' '$tmp/mk/certificate.json' && ! grep -q '<b>&amp; ]]>' '$tmp/mk/certificate.html' && grep -q '&lt;b&gt;&amp;amp; ]]&gt;' '$tmp/mk/certificate.html'"
  check "HTML of the reference: every cell passes, no failure" sh -c "'$PY' '$tmp/checkhtml.py' '$tmp/ref/certificate.html' '$tmp/ref/certificate.json' | grep -Eq '^0 0 [1-9]' && ! grep -q 'data-state=\"fail\"' '$tmp/ref/certificate.html'"
fi
check "Markdown: a summary (defect classes, failures grouped by class with the command that reproduces each)" sh -c "grep -q '^## Defect classes' '$tmp/w/certificate.md' && grep -q '^### l1-packets ([0-9]* runs)' '$tmp/w/certificate.md' && grep -q '^\$ tracecert certify --adapter $W --vectors vectors/ete/[a-z]*/[a-z0-9-]*.tcv --level 1\$' '$tmp/w/certificate.md' && grep -q '^Date: 20[0-9-]*T[0-9:]*Z\$' '$tmp/w/certificate.md'"
tap_done
