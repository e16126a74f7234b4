# table-3.4-ingress.s (the image of table-3.4-ingress.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0x940, .text taken by riscv64-linux-gnu-objcopy -O binary.

# RISC-V Processor Trace 0.026 Table 3.4 (riscv-processor-trace-0.026.txt L185-190), read with
# ERRATA RV-S5 and RV-S6: 1000 divuw, 1004 add, 1008 or, 100C c.jalr (7 halfwords); 0940 addi,
# 0944 c.beqz (not taken), 0946 c.bnez (taken to 0988) (4 halfwords); 0988 lbu, 098C csrrw.
	.option norelax
	.option norvc
	.text
	addi	a0, a0, 1		# 0x940
	.option rvc
	c.beqz	a1, 1f			# 0x944: not taken in the table (ntkn=1)
	c.bnez	a0, 2f			# 0x946: taken (itype=6) to 0x988
1:
	.org	0x988 - 0x940
2:
	.option norvc
	lbu	a2, 0(a3)		# 0x988
	csrrw	a4, mscratch, a4	# 0x98c
	.org	0x1000 - 0x940
	divuw	a5, a5, a6		# 0x1000
	add	a5, a5, a7		# 0x1004
	or	a5, a5, t0		# 0x1008: a5 = 0x940, the c.jalr's target
	.option rvc
	c.jalr	a5			# 0x100c: rs1 = a5 not written by an auipc/lui/c.lui just before: unpredictable call (itype 8, RV-S5)
# SPDX-License-Identifier: BSD-3-Clause
