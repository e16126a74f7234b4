# vectors/ete/gen is exactly what the generator produces from its seed list, and covers every
# variant of encoder/variants.txt (make vectors-check).
. tests/lib/tap.sh
B="${TC_BUILD:-build}"
check "vectors-check: regenerated vectors/ete/gen is identical, every variant covered" make -s vectors-check BUILD="$B"
tap_done
