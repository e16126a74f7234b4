# resync-rv32.s (the image of resync-rv32.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0xa000, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.text
	addi	t0, zero, 1		# 0xa000
	addi	t1, zero, 1		# 0xa004
	jal	zero, 1f		# 0xa008: inferable
	nop				# 0xa00c
1:	addi	t2, t2, 1		# 0xa010
	addi	t3, t3, 1		# 0xa014: a resync is due here, the map empty: sync start
	beq	t0, t1, 2f		# 0xa018: taken (t0 = t1 = 1)
	nop				# 0xa01c
2:	addi	t4, t4, 1		# 0xa020: a resync is due, the map not empty (resync_br): format 1 first
	bne	t0, t1, 3f		# 0xa024: not taken, reported by the sync's branch bit (L385)
	addi	t5, t5, 1		# 0xa028
3:	addi	t6, t6, 1		# 0xa02c
# SPDX-License-Identifier: BSD-3-Clause
