.arm
.text
.globl _start
_start:
  b 1f
  nop
1: bl 2f
  bx lr
2: nop
/* SPDX-License-Identifier: BSD-3-Clause */
