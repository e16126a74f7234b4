# jumps-rv64.s (the image of jumps-rv64.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0x4000, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.option norvc
	.text
	addi	a0, zero, 0		# 0x4000
	jal	zero, 1f		# 0x4004: jal, inferable (L106-108, RV-P12)
	nop				# 0x4008
	nop				# 0x400c
1:	auipc	t1, 0			# 0x4010: t1 = 0x4010
	jalr	zero, 16(t1)		# 0x4014: preceded by auipc t1: inferable, to 0x4020 (Table 3.2 L163-171)
	nop				# 0x4018
	nop				# 0x401c
	lui	t2, 4			# 0x4020: t2 = 0x4000
	jalr	zero, 0x30(t2)		# 0x4024: preceded by lui t2: inferable, to 0x4030
	nop				# 0x4028
	nop				# 0x402c
	.option rvc
	c.lui	a5, 5			# 0x4030: a5 = 0x5000
	c.jr	a5			# 0x4032: preceded by c.lui a5: inferable, to 0x5000
	.option norvc
	.org	0x5000 - 0x4000
	jalr	zero, 0(a0)		# 0x5000: a0 = 0x5100 (set before the trace starts): uninferable
	.org	0x5100 - 0x4000
	auipc	t1, 0			# 0x5100: t1 = 0x5100
	beq	zero, zero, 2f		# 0x5104: taken
	auipc	t1, 0			# 0x5108: not executed
2:	jalr	zero, 0x20(t1)		# 0x510c: a branch target, preceded in execution by the beq: uninferable, to 0x5120
	nop				# 0x5110
	nop				# 0x5114
	nop				# 0x5118
	nop				# 0x511c
	lui	t3, 5			# 0x5120: t3 = 0x5000
	jalr	zero, 0x140(t3)		# 0x5124: to 0x5140; reported by a sync: uninferable (RV-P12)
	.org	0x5140 - 0x4000
	addi	a1, a1, 1		# 0x5140
# SPDX-License-Identifier: BSD-3-Clause
