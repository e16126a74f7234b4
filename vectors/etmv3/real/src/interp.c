/* SPDX-License-Identifier: BSD-3-Clause */
/* interp.c — a bytecode interpreter: a switch (a jump table when optimised) and a table of function pointers. */
enum { op_push, op_add, op_mul, op_call, op_jnz, op_dec, op_halt };

static int twice(int x) { return 2 * x; }
static int negate(int x) { return -x; }
static int square(int x) { return x * x; }
static int (*const builtins[])(int) = { twice, negate, square };

static int run(const unsigned char *code)
{
	int stack[16], sp = 0, pc = 0;
	for (;;) {
		unsigned char op = code[pc++];
		switch (op) {
		case op_push: stack[sp++] = code[pc++]; break;
		case op_add: sp--; stack[sp - 1] += stack[sp]; break;
		case op_mul: sp--; stack[sp - 1] *= stack[sp]; break;
		case op_call: stack[sp - 1] = builtins[code[pc++]](stack[sp - 1]); break;
		case op_dec: stack[sp - 1]--; break;
		case op_jnz: if (stack[sp - 1]) pc = code[pc]; else pc++; break;
		default: return stack[sp - 1];
		}
	}
}

int main(void)
{
	static const unsigned char prog[] = {
		op_push, 3, op_call, 0, op_push, 5, op_mul, op_call, 2, op_call, 1,
		op_push, 6, op_dec, op_jnz, 13, op_add, op_halt
	};
	return run(prog) & 0x7f;
}
