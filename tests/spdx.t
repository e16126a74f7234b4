# SPDX-License-Identifier: BSD-3-Clause
# Every source file of the tree carries the SPDX tag of BSD-3-Clause (LICENSE) in its first lines
# (an assembler file: its last), in its own comment syntax: tools/spdx.sh --check lists none (a
# failure lists the first that lack it; tools/spdx.sh --apply adds them). Which files are source:
# the script's header; tests/spdx-tool.t tests the script itself.
. tests/lib/tap.sh
check "tools/spdx.sh --check: every source file carries SPDX-License-Identifier: BSD-3-Clause" sh tools/spdx.sh --check
check "LICENSE is the BSD 3-Clause License of the tracecert authors" sh -c "head -n 1 LICENSE | grep -qx 'BSD 3-Clause License' && grep -qx 'Copyright (c) [0-9]*, the tracecert authors' LICENSE && grep -q 'Neither the name of the copyright holder nor the names of its' LICENSE"
tap_done
