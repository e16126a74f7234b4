/* SPDX-License-Identifier: BSD-3-Clause */
/* isolate.c — the walls around the process that loads an adapter: an unprivileged uid, its own PID and mount namespaces, the vectors and the report hidden; whether they keep it from forging the run's outcome (isolate.h). */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isolate.h"
#include "runner.h"

/* Notes the first reason a wall is missing. */
static void note(struct tc_iso *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct tc_iso *o, const char *fmt, ...)
{
	va_list ap;
	if (o->note[0])
		return;
	va_start(ap, fmt);
	vsnprintf(o->note, sizeof o->note, fmt, ap);
	va_end(ap);
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));
	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* A user other than root maps only its own uid and gid into its new user
 * namespace (and may not call setgroups there). 0, or -1. */
static int map_ids(uid_t uid, gid_t gid)
{
	char map[64];
	if (write_file("/proc/self/setgroups", "deny") != 0)
		return -1;
	snprintf(map, sizeof map, "%lu %lu 1", (unsigned long)uid, (unsigned long)uid);
	if (write_file("/proc/self/uid_map", map) != 0)
		return -1;
	snprintf(map, sizeof map, "%lu %lu 1", (unsigned long)gid, (unsigned long)gid);
	return write_file("/proc/self/gid_map", map);
}

/* 1. New mount and PID namespaces, or a mount namespace alone, or none.
 * Returns 2 (both), 1 (mount only) or 0. */
static int enter_namespaces(int root, struct tc_iso *o)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int base = CLONE_NEWNS | (root ? 0 : CLONE_NEWUSER), got = 2, e;
	if (unshare(base | CLONE_NEWPID) != 0) {
		e = errno;
		got = unshare(base) == 0 ? 1 : 0;
		if (got == 0) {
			note(o, "no mount or PID namespace (unshare: %s)", strerror(errno));
			return 0;
		}
		note(o, "no PID namespace (unshare CLONE_NEWPID: %s)", strerror(e));
	}
	if (!root && map_ids(uid, gid) != 0)
		note(o, "the user namespace's uid and gid maps: %s", strerror(errno));
	return got;
}

/* 2. Every mount private, then an empty read-only tmpfs over each folder.
 * 0 when every folder is hidden, else -1. */
static int hide_folders(char *const *hide, size_t n, struct tc_iso *o)
{
	int rc = 0;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
		note(o, "the vectors are not hidden: making the mounts private: %s", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (mount("tracecert-hidden", hide[i], "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  "size=4k,nr_inodes=16,mode=0555") == 0)
			continue;
		note(o, "'%s' is not hidden: mount tmpfs: %s", hide[i], strerror(errno));
		rc = -1;
	}
	return rc;
}

/* Every capability of the process dropped (bounding set, ambient, the
 * sets themselves): those a user namespace gives too. */
static void drop_capabilities(void)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct none[2];
	for (int cap = 0; cap < 64; cap++)
		prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	memset(none, 0, sizeof none);
	syscall(SYS_capset, &head, none);
}

/* The caller's end, after the namespace's init (pid) ended: the way the
 * process that loaded the adapter ended, read from fd (its wait status),
 * reproduced (a signal raised again: the caller is not an init). */
static void end_as_run(pid_t pid, int fd)
{
	int st = 0, run = 0;
	sigset_t all;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (read(fd, &run, sizeof run) != (ssize_t)sizeof run)
		_exit(5);   /* the init ended without the run's status: the runner's fault, said by exit 5 */
	if (WIFSIGNALED(run)) {
		signal(WTERMSIG(run), SIG_DFL);
		sigfillset(&all);
		sigprocmask(SIG_UNBLOCK, &all, NULL);
		raise(WTERMSIG(run));
		_exit(128 + WTERMSIG(run));
	}
	_exit(WIFEXITED(run) ? WEXITSTATUS(run) : 5);
}

/* The namespace's init: it waits for the process that loads the adapter,
 * hands its wait status to the caller (fd) and ends, which ends every
 * process left in the namespace. */
static void init_waits(pid_t run, int fd)
{
	int st = 0;
	while (waitpid(run, &st, 0) < 0)
		if (errno != EINTR)
			_exit(5);
	if (write(fd, &st, sizeof st) != (ssize_t)sizeof st)
		_exit(5);
	_exit(0);
}

/* 3. The fork into the PID namespace (its init), which mounts its /proc and
 * forks again. Returns in the process to load the adapter: 1 when it is in
 * the namespace with a /proc of its own, 0 when it is not (no fork). */
static int into_pid_namespace(struct tc_iso *o)
{
	int relay[2], proc_ok;
	pid_t init, run;
	if (pipe2(relay, O_CLOEXEC) != 0 || (init = fork()) < 0) {
		note(o, "no PID namespace: fork: %s", strerror(errno));
		return 0;
	}
	if (init > 0) {
		close(relay[1]);
		drop_capabilities();   /* it only waits: nothing of it for the adapter to borrow */
		end_as_run(init, relay[0]);
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);   /* the init dies with the process the runner watches */
	proc_ok = mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0;
	if (!proc_ok)
		note(o, "the PID namespace has the runner's /proc: mount proc: %s", strerror(errno));
	if ((run = fork()) < 0)
		_exit(5);
	if (run > 0) {
		close(relay[0]);
		drop_capabilities();
		init_waits(run, relay[1]);
	}
	close(relay[0]);
	close(relay[1]);
	return proc_ok;
}

/* Whether path can be opened by TC_ISO_UID (root's filesystem uid switched
 * for the one open). */
static int readable_by_nobody(const char *path)
{
	int fd;
	setgroups(0, NULL);   /* root's groups would open what nobody's cannot */
	setfsgid(TC_ISO_GID);
	setfsuid(TC_ISO_UID);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	setfsuid(0);
	setfsgid(0);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

/* The file at path copied, as root, into a memory file that TC_ISO_UID
 * can open through /proc/self/fd (a process may always open its own
 * descriptors there; the memory file's mode lets anyone read it). Its
 * descriptor, or -1 with errno. */
static int copy_for_nobody(const char *path)
{
	char buf[65536];
	int in = open(path, O_RDONLY | O_CLOEXEC), out = in < 0 ? -1 : memfd_create("tracecert-adapter", MFD_CLOEXEC);
	ssize_t n = 0;
	while (out >= 0 && (n = read(in, buf, sizeof buf)) != 0) {
		ssize_t done = 0, w = 0;
		if (n < 0 && errno == EINTR)
			continue;
		while (n > 0 && done < n && (w = write(out, buf + done, (size_t)(n - done))) > 0)
			done += w;
		if (n < 0 || done < n) {
			int e = errno;
			close(out);
			out = -1;
			errno = e;
		}
	}
	if (in >= 0) {
		int e = errno;
		close(in);
		errno = e;
	}
	return out;
}

/* 4. Root's uid and groups dropped (1 when done), every capability dropped,
 * no new privileges. An adapter nobody cannot open is copied first into a
 * memory file it can, whose path ("/proc/self/fd/N") goes to o->load. */
static int drop_privileges(int root, const char *adapter, struct tc_iso *o)
{
	int dropped = 0, fd, readable = root && readable_by_nobody(adapter);
	if (root && !readable) {
		if ((fd = copy_for_nobody(adapter)) < 0)
			note(o, "the adapter runs as root: uid %d cannot read '%s', nor a copy of it be made: %s",
			     TC_ISO_UID, adapter, strerror(errno));
		else
			snprintf(o->load, sizeof o->load, "/proc/self/fd/%d", fd);
	}
	if (root && (readable || o->load[0])) {
		if (setgroups(0, NULL) != 0 || setresgid(TC_ISO_GID, TC_ISO_GID, TC_ISO_GID) != 0 ||
		    setresuid(TC_ISO_UID, TC_ISO_UID, TC_ISO_UID) != 0 || getuid() != TC_ISO_UID)
			note(o, "the adapter runs as root: cannot drop to uid %d: %s", TC_ISO_UID, strerror(errno));
		else
			dropped = 1;
	}
	drop_capabilities();
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	return dropped;
}

/* 5. The guard: whether this process, with the credentials and namespaces
 * it now has, could forge the run's outcome, by signalling the runner (to
 * kill it and its workers: a runner killed writes nothing and removes no
 * file of the adapter's) or by writing the report folder. Sets
 * tc_iso_guarded, or puts what it could do before the note. */
static void guard(struct tc_iso *o, int root, const char *report)
{
	char risk[TC_ISO_NOTE_SIZE], was[TC_ISO_NOTE_SIZE];
	size_t k;
	if (root && !(o->bits & tc_iso_uid))
		snprintf(risk, sizeof risk, "the adapter's process is root (uid 0), which can write the report "
			 "folder, its parents and the runner's files");
	else if (!(o->bits & (tc_iso_uid | tc_iso_pid)))
		snprintf(risk, sizeof risk, "the adapter's process runs as the runner's user (uid %lu) in the "
			 "runner's PID namespace, where it can signal (kill) the runner", (unsigned long)geteuid());
	else if (report && faccessat(AT_FDCWD, report, W_OK, AT_EACCESS) == 0)
		snprintf(risk, sizeof risk, "the adapter's process can write the report folder '%s' (%s)", report,
			 o->bits & tc_iso_uid ? "uid 65534 may write it" : "not hidden from it");
	else {
		o->bits |= tc_iso_guarded;
		return;
	}
	memcpy(was, o->note, sizeof was);
	snprintf(o->note, sizeof o->note, "%s", risk);
	k = strlen(o->note);
	if (was[0] && k + 3 < sizeof o->note) {   /* "; " and what was there, cut to fit */
		size_t m = strnlen(was, sizeof o->note - k - 3);
		memcpy(o->note + k, "; ", 2);
		memcpy(o->note + k + 2, was, m);
		o->note[k + 2 + m] = '\0';
	}
}

void tc_isolate(char *const *hide, size_t nhide, const char *adapter, const char *report, struct tc_iso *out)
{
	int root = geteuid() == 0, ns, hidden = 0, pid_ok = 0;
	char cwd[4096];
	pid_t parent = getppid();
	memset(out, 0, sizeof *out);
	if (!getcwd(cwd, sizeof cwd))
		snprintf(cwd, sizeof cwd, "/");
	ns = enter_namespaces(root, out);
	if (ns > 0)
		hidden = hide_folders(hide, nhide, out) == 0;
	if (chdir(cwd) != 0 && chdir("/") != 0)   /* the folder again through the new mounts (hidden ones empty) */
		_exit(5);
	if (ns == 2)
		pid_ok = into_pid_namespace(out);
	if (drop_privileges(root, adapter, out))
		out->bits |= tc_iso_uid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);   /* cleared by the fork and the change of uid */
	if (ns < 2 && getppid() != parent)
		_exit(5);
	out->bits |= (pid_ok ? tc_iso_pid : 0) | (hidden ? tc_iso_hidden : 0);
	if (!root && !out->note[0] && !(out->bits & tc_iso_uid))
		snprintf(out->note, sizeof out->note, "the runner is not root: the adapter runs as the runner's user");
	guard(out, root, report);
}
