/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_snapshot.c — the snapshot INI parser and directory reader on good and bad input, every refusal named by file and line; prints TAP. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"

#include "tracecert/snapshot.h"

static char err[1200];

static int parse(const char *text)
{
	struct tc_ini ini;
	int rc = tc_ini_parse(text, strlen(text), "t.ini", &ini, err, sizeof err);
	if (!rc)
		tc_ini_free(&ini);
	return rc;
}

static void test_ini(void)
{
	struct tc_ini ini;
	const char *good = "; c\n[a]\r\n k = v # c\nq=\"  x  \"\nr='y'\ns=\"z\n[ b ]\n";
	const struct tc_ini_section *a;
	ok(tc_ini_parse(good, strlen(good), "t.ini", &ini, err, sizeof err) == 0, "a good file parses (%s)", err);
	a = tc_ini_find(&ini, "a");
	ok(a && a->n == 4 && !strcmp(tc_ini_get(a, "k")->value, "v") && tc_ini_get(a, "k")->line == 3,
	   "trimmed key and value, comment dropped, CRLF, line 3");
	ok(!strcmp(tc_ini_get(a, "q")->value, "  x  ") && !strcmp(tc_ini_get(a, "r")->value, "y") &&
		   !strcmp(tc_ini_get(a, "s")->value, "\"z"), "quotes of either kind removed (a quoted value keeps its blanks), an unmatched one kept");
	ok(tc_ini_find(&ini, "b") && !tc_ini_find(&ini, "c") && !tc_ini_get(a, "nope"), "section [ b ] trimmed; lookups of absent names");
	tc_ini_free(&ini);
	ok(parse("[a\n") && strstr(err, "t.ini:1: expected [section], got '[a'"), "unterminated header: %s", err);
	ok(parse("[a] x\n") && strstr(err, "t.ini:1: expected [section]"), "text after ]: %s", err);
	ok(parse("[ ]\n") && strstr(err, "t.ini:1: empty section name"), "empty section name: %s", err);
	ok(parse("\nk=v\n") && strstr(err, "t.ini:2: 'k=v' comes before any [section]"), "a key before any section: %s", err);
	ok(parse("[a]\n=v\n") && strstr(err, "t.ini:2: expected key=value, the key is empty"), "an empty key: %s", err);
	ok(parse("[a]\nk=1\nk=2\n") && strstr(err, "t.ini:3: key 'k' given twice in [a]"), "a key twice: %s", err);
	ok(parse("[a]\n[b]\n[a]\n") && strstr(err, "t.ini:3: section [a] given twice"), "a section twice: %s", err);
	ok(parse("[a]\nno equals sign\n") && strstr(err, "t.ini:2: expected [section] or key=value, got 'no equals sign'"), "a malformed line: %s", err);
	ok(tc_ini_parse("[a]\nk=\0v\n", 8, "t.ini", &ini, err, sizeof err) && strstr(err, "t.ini:2: a NUL byte (at byte offset 6)"),
	   "a NUL byte: %s", err);
	ok(parse("[a]\nk=x\ry\n") && strstr(err, "t.ini:2: a carriage return inside the line (at byte offset 7)"), "a CR inside a line: %s", err);
	ok(tc_ini_parse("", 0, NULL, &ini, err, sizeof err) == 0 && ini.n == 0, "an empty text is an empty file");
	tc_ini_free(&ini);
	ok(tc_ini_load("/nonexistent/x.ini", &ini, err, sizeof err) && strstr(err, "/nonexistent/x.ini: cannot read: No such file"), "a missing file: %s", err);
	ok(tc_ini_load("/tmp", &ini, err, sizeof err) && strstr(err, "/tmp: cannot read: Is a directory"), "a folder: %s", err);
}

static void test_number(void)
{
	uint64_t v = 0;
	ok(tc_snapshot_number("0x1F", &v) == 0 && v == 31 && tc_snapshot_number("0XaB", &v) == 0 && v == 0xab, "hex, either case");
	ok(tc_snapshot_number("18446744073709551615", &v) == 0 && v == UINT64_MAX, "64 bits decimal");
	ok(tc_snapshot_number("18446744073709551616", &v) && tc_snapshot_number("0x10000000000000000", &v), "65 bits refused");
	ok(tc_snapshot_number("", &v) && tc_snapshot_number("0x", &v) && tc_snapshot_number("x1", &v) &&
		   tc_snapshot_number("1 ", &v) && tc_snapshot_number("-1", &v) && tc_snapshot_number("0xg", &v),
	   "empty, bare 0x, letters, trailing blank, sign refused");
}

/* ---- Directories ---------------------------------------------------------------- */

static char dir[64];

static void put(const char *name, const char *fmt, ...)
{
	char path[256];
	va_list ap;
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* A good snapshot: a core with a dump, an ETE source, a raw buffer. */
static void good(void)
{
	put("snapshot.ini", "[snapshot]\nversion=1.0\n[device_list]\nd0=cpu.ini\nd1=ete.ini\n[trace]\nmetadata=trace.ini\n");
	put("cpu.ini", "[device]\nname=cpu_0\nclass=core\ntype=x\n[dump0]\nfile=mem.bin\naddress=0x1000\nspace=EL1N\n");
	put("ete.ini", "[device]\nname=ETE_0\nclass=trace_source\ntype=ETE\n[regs]\nTRCIDR0(0x1E0)=0x28000EA1\nX=1\n");
	put("trace.ini", "[trace_buffers]\nbuffers=b0\n[b0]\nname=B\nfile=t.bin\nformat=source_data\n"
			 "[source_buffers]\nETE_0=B\n[core_trace_sources]\ncpu_0=ETE_0\n");
	put("mem.bin", "abcd");
	put("t.bin", "x");
}

static int load(void)
{
	struct tc_snapshot ss;
	int rc = tc_snapshot_load(dir, &ss, err, sizeof err);
	if (!rc)
		tc_snapshot_free(&ss);
	return rc;
}

/* Edits one file of the good snapshot and loads it. */
static int bad(const char *name, const char *fmt, ...)
{
	char text[1024];
	va_list ap;
	good();
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	put(name, "%s", text);
	return load();
}

static void test_good_dir(void)
{
	struct tc_snapshot ss;
	const struct tc_snap_device *ete, *cpu;
	good();
	ok(tc_snapshot_load(dir, &ss, err, sizeof err) == 0, "a good snapshot loads (%s)", err);
	ete = tc_snapshot_device(&ss, "ETE_0");
	cpu = tc_snapshot_source_core(&ss, "ETE_0");
	ok(ete && ete->nregs == 2 && !strcmp(ete->reg[0].name, "TRCIDR0") && !strcmp(ete->reg[0].value, "0x28000EA1") &&
		   ete->reg[0].line == 6, "a register's (suffix) is dropped, value and line kept");
	ok(cpu && cpu->ndumps == 1 && cpu->dump[0].address == 0x1000 && !cpu->dump[0].has_length &&
		   !strcmp(cpu->dump[0].space, "EL1N") && strstr(cpu->dump[0].file, "/mem.bin"), "the dump: address, no length, space, path resolved");
	ok(tc_snapshot_source_buffer(&ss, "ETE_0") && !tc_snapshot_source_buffer(&ss, "cpu_0") &&
		   !tc_snapshot_source_core(&ss, "cpu_0") && !tc_snapshot_device(&ss, "nope") && !tc_snapshot_buffer(&ss, "nope"),
	   "links and lookups");
	tc_snapshot_free(&ss);
}

static void test_bad_dirs(void)
{
	char path[128];
	snprintf(path, sizeof path, "%s/abs.bin", dir);
	ok(bad("snapshot.ini", "[trace]\nmetadata=trace.ini\n") && strstr(err, "snapshot.ini: no [device_list] section"), "no [device_list]: %s", err);
	ok(bad("snapshot.ini", "[device_list]\nd0=cpu.ini\n") && strstr(err, "no [trace] section with metadata="), "no [trace]: %s", err);
	ok(bad("snapshot.ini", "[device_list]\nd0=cpu.ini\n[trace]\nmetadata=\n") && strstr(err, "no [trace] section with metadata="), "empty metadata: %s", err);
	ok(bad("snapshot.ini", "[device_list]\nd0=cpu.ini\n[trace]\nmetadata=nothere.ini\n") && strstr(err, "snapshot.ini:4: trace metadata") &&
		   strstr(err, "No such file"), "metadata file missing: %s", err);
	ok(bad("cpu.ini", "[regs]\nA=1\n") && strstr(err, "cpu.ini: no [device] section (name, class, type)"),
	   "a device without [device]: %s", err);
	ok(bad("cpu.ini", "[device]\nname=c\n") && strstr(err, "cpu.ini:1: [device] has no class="), "no class: %s", err);
	ok(bad("cpu.ini", "[device]\nname=c\nclass=core\n") && strstr(err, "cpu.ini:1: [device] has no type="), "no type: %s", err);
	ok(bad("cpu.ini", "[device]\nclass=core\ntype=x\n") && strstr(err, "cpu.ini:1: [device] has no name="), "no name: %s", err);
	ok(bad("cpu.ini", "[device]\nname=ETE_0\nclass=core\ntype=x\n") && strstr(err, "device name 'ETE_0' is used twice"), "a name twice: %s", err);
	ok(bad("ete.ini", "[device]\nname=E\nclass=trace_source\ntype=ETE\n[regs]\nTRC(0x1=2\n") &&
		   strstr(err, "ete.ini:6: register name 'TRC(0x1': expected NAME or NAME(suffix)"), "a register name unclosed: %s", err);
	ok(bad("ete.ini", "[device]\nname=E\nclass=trace_source\ntype=ETE\n[regs]\n(x)=2\n") && strstr(err, "register name '(x)'"),
	   "a register name that is only a suffix: %s", err);
	ok(bad("cpu.ini", "[device]\nname=c\nclass=core\ntype=x\n[dump0]\nfile=mem.bin\naddress=1\nsize=4\n") &&
		   strstr(err, "cpu.ini:8: unknown key 'size' in [dump0] (expected file, address, length, offset, space)"), "an unknown dump key: %s", err);
	ok(bad("cpu.ini", "[device]\nname=c\nclass=core\ntype=x\n[dump0]\naddress=1\n") && strstr(err, "cpu.ini:5: [dump0] has no file="),
	   "a dump without file: %s", err);
	ok(bad("cpu.ini", "[device]\nname=c\nclass=core\ntype=x\n[dump0]\nfile=mem.bin\naddress=1\noffset=x\n") &&
		   strstr(err, "cpu.ini:8: offset='x' is not a number"), "a bad offset: %s", err);
	ok(bad("cpu.ini", "[device]\nname=c\nclass=core\ntype=x\n[dump0]\nfile=mem.bin\naddress=1\nlength=zz\n") &&
		   strstr(err, "cpu.ini:8: length='zz' is not a number"), "a bad length: %s", err);
	ok(bad("cpu.ini", "[device]\nname=c\nclass=core\ntype=x\n[dump0]\nfile=.\naddress=1\n") && strstr(err, "Is a directory"),
	   "a dump file that is a folder: %s", err);
	put("abs.bin", "z");
	ok(bad("cpu.ini", "[device]\nname=cpu_0\nclass=core\ntype=x\n[dump0]\nfile=%s\naddress=1\n", path) == 0, "an absolute dump path (%s)", err);
	ok(bad("trace.ini", "[source_buffers]\n") && strstr(err, "trace.ini: no [trace_buffers] section"), "no [trace_buffers]: %s", err);
	ok(bad("trace.ini", "[trace_buffers]\nx=1\n") && strstr(err, "trace.ini:1: [trace_buffers] has no buffers="), "no buffers=: %s", err);
	ok(bad("trace.ini", "[trace_buffers]\nbuffers=b0, ,b1\n[b0]\nname=B\nfile=t.bin\nformat=coresight\n") &&
		   strstr(err, "trace.ini:2: an empty buffer name in buffers="), "an empty buffer name: %s", err);
	ok(bad("trace.ini", "[trace_buffers]\nbuffers=b9\n") && strstr(err, "trace.ini:2: buffer 'b9' has no [b9] section"), "a buffer without its section: %s", err);
	ok(bad("trace.ini", "[trace_buffers]\nbuffers=b0\n[b0]\nfile=t.bin\nformat=coresight\n") && strstr(err, "trace.ini:3: [b0] has no name="),
	   "a buffer without name: %s", err);
	ok(bad("trace.ini", "[trace_buffers]\nbuffers=b0,b1\n[b0]\nname=B\nfile=t.bin\nformat=coresight\n[b1]\nname=B\nfile=t.bin\nformat=coresight\n") &&
		   strstr(err, "trace.ini:8: buffer name 'B' is used twice"), "a buffer name twice: %s", err);
	ok(bad("trace.ini", "[trace_buffers]\nbuffers=b0\n[b0]\nname=B\nfile=t.bin\nformat=source_data\n[source_buffers]\nNOPE=B\n") &&
		   strstr(err, "trace.ini:8: [source_buffers] names device 'NOPE', which no device file defines"), "a link from an unknown device: %s", err);
	ok(bad("trace.ini", "[trace_buffers]\nbuffers=b0\n[b0]\nname=B\nfile=t.bin\nformat=source_data\n[core_trace_sources]\ncpu_0=NOPE\n") &&
		   strstr(err, "trace.ini:8: [core_trace_sources] names device 'NOPE', which does not exist"), "a link to an unknown device: %s", err);
	good();
	ok(load() == 0, "the good snapshot still loads after all that");
	ok(tc_snapshot_load("/nonexistent", &(struct tc_snapshot){ 0 }, err, sizeof err) && strstr(err, "/nonexistent/snapshot.ini: cannot read"),
	   "no directory: %s", err);
}

static void clean(void)
{
	static const char *const names[] = { "snapshot.ini", "cpu.ini", "ete.ini", "trace.ini", "mem.bin", "t.bin", "abs.bin" };
	char path[128];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/tc-unit-snapshot-XXXXXX");
	if (!mkdtemp(dir))
		return 2;
	test_ini();
	test_number();
	test_good_dir();
	test_bad_dirs();
	clean();
	return tap_finish();
}
