# SPDX-License-Identifier: BSD-3-Clause
# The HTML certificate (conformance/html.c) rendered by a headless browser: the certificates of a
# decoder that fails (failures of several classes, trace bytes marked) and of an adapter that names
# itself in markup (tests/hostile.t's) each render to a PNG of the window's size (its IHDR) that is
# not a blank page (several times the size of a blank page's PNG rendered the same way), and the page
# logs no console message: the certificate has no script, so any message (an error, a warning, a
# log) is the browser's about the page or a script that got in. A copy of the certificate with an
# inline script calling an undefined function must make that check fail (the check can fail).
# Skipped without chromium (Debian's package chromium; chromium-browser elsewhere).
T="${TC_BUILD:-build}/tracecert"
B="${TC_BUILD:-build}/adapters"
BROWSER=
for b in chromium chromium-browser; do
	if command -v "$b" >/dev/null 2>&1; then BROWSER=$b; break; fi
done
if [ -z "$BROWSER" ]; then
	echo "1..0 # SKIP no chromium or chromium-browser on PATH: apt-get install chromium"
	exit 0
fi
. tests/lib/tap.sh
W=1200 H=900

# render NAME HTML: HTML rendered headless to $tmp/NAME.png, the browser's log in $tmp/NAME.log; a
# profile of its own in $tmp (root needs --no-sandbox), its home there too (nothing written outside
# $tmp). Exit status: the browser's (124: it took longer than 60 s).
render() {
	mkdir -p "$tmp/home"
	HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_CACHE_HOME="$tmp/home/.cache" \
	timeout -k 5 60 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
		--no-default-browser-check --disable-extensions --user-data-dir="$tmp/profile-$1" \
		--enable-logging=stderr --v=0 --window-size=$W,$H --screenshot="$tmp/$1.png" "file://$2" \
		>"$tmp/$1.out" 2>"$tmp/$1.log" </dev/null
}
# console_clean NAME: the page logged no console message ("...:INFO:CONSOLE:1] "message", source:
# URL (line)"; older versions "CONSOLE(1)"); the messages on stdout when it did.
console_clean() { ! grep -E ':CONSOLE[:(]' "$tmp/$1.log"; }
# png_ok NAME BLANK: $tmp/NAME.png is a PNG (its 8-byte signature), of W x H (IHDR's width and height,
# big-endian, at bytes 16..23), at least 4 times the size of $tmp/BLANK.png.
png_ok() {
	test -s "$tmp/$1.png" &&
		test "$(od -An -tx1 -N8 "$tmp/$1.png" | tr -d ' \n')" = 89504e470d0a1a0a &&
		test "$(od -An -tx1 -j12 -N4 "$tmp/$1.png" | tr -d ' \n')" = 49484452 &&
		test "$(od -An -tu1 -j16 -N8 "$tmp/$1.png" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 "x" $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }')" = "${W}x$H" &&
		test "$(wc -c <"$tmp/$1.png")" -ge $((4 * $(wc -c <"$tmp/$2.png")))
}

"$T" certify --adapter "$B/bad/libtc_bad_wrong.so" --vectors vectors/ete/spec --vectors vectors/ete/neg --report "$tmp/w" 2>/dev/null
"$T" certify --adapter "$B/bad/libtc_bad_markup.so" --vectors vectors/ete/spec --report "$tmp/mk" 2>/dev/null
printf '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>blank</title></head><body></body></html>\n' >"$tmp/blank.html"
sed 's|</body>|<script>undefined_fn()</script>\n</body>|' "$tmp/w/certificate.html" >"$tmp/broken.html"

render blank "$tmp/blank.html"; brc=$?
check "a blank page renders (the browser runs headless here)" sh -c "test $brc -eq 0 && test -s '$tmp/blank.png'"
render wrong "$tmp/w/certificate.html"; wrc=$?
check "the certificate of a decoder that fails (its failures listed) renders" sh -c "test $wrc -eq 0 && grep -q 'class=\"failure\"' '$tmp/w/certificate.html'"
check "the PNG of the failing decoder's certificate: signature, IHDR ${W}x$H, 4 times a blank page's size at least" png_ok wrong blank
check "the failing decoder's certificate logs no console message" console_clean wrong
not_png_ok() { ! png_ok "$@"; }
check "the PNG check can fail: a blank page's PNG is not 4 times its own size" not_png_ok blank blank
render markup "$tmp/mk/certificate.html"; mrc=$?
check "the certificate of an adapter that names itself in markup renders" sh -c "test $mrc -eq 0"
check "its PNG: signature, IHDR ${W}x$H, not blank" png_ok markup blank
check "it logs no console message (the adapter's markup is text, no script of it runs)" console_clean markup
render broken "$tmp/broken.html"; xrc=$?
# caught NAME: console_clean fails on it, and the message it shows is the undefined function's.
caught() { ! console_clean "$1" >"$tmp/$1.caught" && grep -q 'undefined_fn is not defined' "$tmp/$1.caught"; }
check "the check can fail: a copy with <script>undefined_fn()</script> renders" sh -c "test $xrc -eq 0 && grep -q 'undefined_fn()</script>' '$tmp/broken.html'"
check "the check can fail: console_clean fails on that copy, naming the undefined function" caught broken
tap_done
